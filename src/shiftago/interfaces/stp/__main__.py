"""``python -m shiftago.interfaces.stp``: the built-in engine on stdin and stdout."""

import sys

from shiftago.interfaces.stp import main

sys.exit(main())

"""``shiftago engine``: the engine protocol (:mod:`shiftago.interfaces.stp`)."""

from __future__ import annotations

import sys

from shiftago.interfaces.cli.words import command
from shiftago.interfaces.shared.catalogues import N_


@command(
    short_help=N_("Speak the engine protocol (STP) on stdin and stdout."),
    help=N_(
        "Speak the Shiftago Text Protocol (STP) on standard input and output.\n\n"
        "For tournament managers, GUIs and other programs; one command per line, see "
        "PROTOCOL.md. Ends at 'quit' or at the end of the input."
    ),
)
def engine() -> None:
    """Run the engine protocol until it ends, with its exit status."""
    from shiftago.interfaces import stp

    sys.exit(stp.main())

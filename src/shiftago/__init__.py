"""Shiftago: the rules engine, text forms, engine protocol and command line.

The public API of the rules lives in :mod:`shiftago.core` and is re-exported here.
"""

from shiftago.core import *  # noqa: F403
from shiftago.core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]

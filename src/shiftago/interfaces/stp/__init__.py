"""The Shiftago Text Protocol (PROTOCOL.md): a GTP-like engine over stdin and stdout.

:class:`StpEngine` (:mod:`.commands`) answers one command line at a time and holds the
game; :func:`run` (:mod:`.session`) is the loop that reads commands, runs searches in
their own thread and serves ``stop`` while they think; :func:`serve` puts any
:class:`~shiftago.engine.bot.Bot` behind the protocol, for bot authors (docs/engine.md).
:mod:`.search` turns ``go``/``analyse`` options into limits and progress into ``info``
lines, :mod:`.options` holds the levels and the ``setoption`` values, :mod:`.words`
reads command lines.

Run the built-in engine with ``shiftago engine`` or ``python -m shiftago.interfaces.stp``.
"""

from .commands import ENGINE_NAME, PROTOCOL_VERSION, StpEngine
from .options import Ladder
from .session import main, run, serve
from .words import CommandError

__all__ = [
    "ENGINE_NAME",
    "PROTOCOL_VERSION",
    "CommandError",
    "Ladder",
    "StpEngine",
    "main",
    "run",
    "serve",
]

"""``shiftago engine``: the engine protocol (:mod:`shiftago.interfaces.stp`)."""

from __future__ import annotations

import sys

import click


@click.command(short_help="Speak the engine protocol (STP) on stdin and stdout.")
def engine() -> None:
    """Speak the Shiftago Text Protocol (STP) on standard input and output.

    For tournament managers, GUIs and other programs; one command per line, see
    PROTOCOL.md. Ends at 'quit' or at the end of the input.
    """
    from shiftago.interfaces import stp

    sys.exit(stp.main())

"""``shiftago tui``: the game in the terminal app (:mod:`shiftago.interfaces.tui`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import click

from shiftago.interfaces.cli.options import choose_language, game_options, setup_of


@click.command(short_help="Play a game in the terminal app (board, mouse, engine).")
@game_options
@click.option(
    "--clock",
    metavar="MINUTES[+SECONDS]",
    help="Clocks for every seat: minutes each, and seconds added after each turn (5+3).",
)
@click.option(
    "--tournament",
    is_flag=True,
    help="A tournament: Express games until a player has won ten (F8 starts the next).",
)
def tui(lang: str | None, clock: str | None, tournament: bool, **options: Any) -> None:
    """Play a game in the terminal app: click an arrow or move the cursor with the arrow
    keys and press Enter, or type an action (L3, Tc, xc3-g3) and Enter.

    F2 starts a new game, F3 loads a record, F4 saves it, F5 shows the engine's lines,
    Ctrl+Z takes back, F7 replays the game, Ctrl+Q leaves. The game is saved after every
    action, as 'shiftago play' saves it, and either offers to resume it (without its
    clocks).
    """
    from shiftago.interfaces.shared.newgame import SetupError

    choose_language(lang)
    setup = replace(
        setup_of(click.get_current_context(), options), clock=clock, tournament=tournament
    )
    from shiftago.interfaces.tui.run import run_tui

    try:
        status = run_tui(setup)
    except SetupError as e:
        raise click.UsageError(str(e)) from None
    sys.exit(status)

"""``shiftago tui``: the game in the terminal app (:mod:`shiftago.interfaces.tui`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import click

from shiftago.interfaces.cli.options import choose_language, game_options, setup_of
from shiftago.interfaces.cli.words import command, option
from shiftago.interfaces.shared.catalogues import N_
from shiftago.interfaces.shared.game_words import error_words


@command(
    short_help=N_("Play a game in the terminal app (board, mouse, engine)."),
    help=N_(
        "Play a game in the terminal app: click an arrow or move the cursor with the arrow "
        "keys and press Enter, or type an action (L3, Tc, xc3-g3) and Enter.\n\n"
        "F1 shows how to play and every key, F2 starts a new game, F3 loads a record, F4 "
        "saves it, F5 shows the engine's best lines, Ctrl+Z or F6 takes back, F7 replays the "
        "game, F8 starts a tournament's next game, Ctrl+Q leaves. The game is saved after "
        "every action, as 'shiftago play' saves it, and either offers to resume it (without "
        "its clocks)."
    ),
)
@game_options
@option(
    "--clock",
    metavar=N_("MINUTES[+SECONDS]"),
    help=N_("Clocks for every seat: minutes each, and seconds added after each turn (5+3)."),
)
@option(
    "--tournament",
    is_flag=True,
    help=N_("A tournament: Express games until a player has won ten (F8 starts the next)."),
)
def tui(lang: str | None, clock: str | None, tournament: bool, **options: Any) -> None:
    """Set the game up from the options (with its clocks) and open the terminal app."""
    from shiftago.interfaces.shared.newgame import SetupError

    choose_language(lang)
    setup = replace(
        setup_of(click.get_current_context(), options), clock=clock, tournament=tournament
    )
    from shiftago.interfaces.tui.run import run_tui

    try:
        status = run_tui(setup)
    except SetupError as e:
        raise click.UsageError(error_words(e)) from None
    sys.exit(status)

"""``shiftago play``: a game at the terminal (:mod:`shiftago.interfaces.play`), or the
terminal app (:mod:`shiftago.interfaces.tui`) when its input and output are a terminal."""

from __future__ import annotations

import sys
from typing import Any, TextIO

import click

from shiftago.interfaces.cli.options import choose_language, game_options, setup_of
from shiftago.interfaces.cli.words import command, option
from shiftago.interfaces.shared.catalogues import N_
from shiftago.interfaces.shared.game_words import error_words


@command(
    short_help=N_("Play a game at the terminal (also with piped input)."),
    help=N_(
        "Play a game at the terminal: type actions (L3, Tc, xc3-g3) and commands.\n\n"
        "At a terminal it opens the terminal app (as 'shiftago tui' does); with --plain, or "
        "with piped input or output, it is the line-based game, which works with piped input "
        "too. The game is saved after every action and the next 'shiftago play' offers to "
        "resume it (the data directory is $SHIFTAGO_HOME, else $XDG_DATA_HOME/shiftago, else "
        "~/.local/share/shiftago). Type 'help' in the line-based game for its commands: "
        "legal, undo, save FILE, board, position, rules, help, quit."
    ),
)
@game_options
@option(
    "--plain",
    is_flag=True,
    help=N_("The line-based game even at a terminal (for scripts and screen readers)."),
)
def play(plain: bool, lang: str | None, **options: Any) -> None:
    """Set the game up from the options and hand it to the terminal app or the line game."""
    from shiftago.interfaces.shared.newgame import SetupError

    choose_language(lang)
    setup = setup_of(click.get_current_context(), options)
    try:
        if wants_app(plain, sys.stdin, sys.stdout):
            from shiftago.interfaces.tui.run import run_tui

            status = run_tui(setup)
        else:
            from shiftago.interfaces.play.setup import play_game

            status = play_game(setup, sys.stdin, sys.stdout)
    except SetupError as e:
        raise click.UsageError(error_words(e)) from None
    sys.exit(status)


def wants_app(plain: bool, inp: TextIO, out: TextIO) -> bool:
    """Whether ``play`` opens the terminal app: at a terminal, unless ``--plain``."""
    return not plain and _isatty(inp) and _isatty(out)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream is no terminal
        return False

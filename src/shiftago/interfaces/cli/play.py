"""``shiftago play``: a game at the terminal (:mod:`shiftago.interfaces.play`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from shiftago.interfaces.cli.options import game_number_option, handicap


@click.command(short_help="Play a game at the terminal (also with piped input).")
@click.option(
    "--variant",
    type=click.Choice(["express", "expert", "extreme"], case_sensitive=False),
    default="express",
    show_default=True,
    help="The variant of a new game.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="The number of players of a new game (2-4).",
)
@click.option(
    "--handicap",
    metavar="N,N..",
    callback=handicap,
    help="Skipped turns (0-6) per seat in seat order, such as 0,2.",
)
@click.option(
    "--first",
    metavar="COLOUR",
    help="Who starts a new game: o, g, b, w (or orange...). Default: drawn by lot.",
)
@click.option("--seed", type=int, help="Seed of the draw for the first seat and of the computer.")
@click.option(
    "--computer",
    "-c",
    metavar="COLOUR",
    multiple=True,
    help="A seat the computer plays (repeat the option for several seats).",
)
@click.option("--level", type=click.IntRange(min=1), help="The computer's level (default: best).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="End the game after this many actions (default: no limit; 1000 when the "
    "computer plays every seat).",
)
@click.option(
    "--load",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Go on from the game in this record file.",
)
@game_number_option("Which game of a --load file that holds several.")
@click.option("--position", metavar="POSITION", help="Go on from this position string.")
@click.option(
    "--resume/--new",
    default=None,
    help="Resume the unfinished (autosaved) game without asking, or start a new one.",
)
def play(
    variant: str,
    players: int,
    handicap: tuple[int, ...],
    first: str | None,
    seed: int | None,
    computer: tuple[str, ...],
    level: int | None,
    limit: int | None,
    load: Path | None,
    game_number: int,
    position: str | None,
    resume: bool | None,
) -> None:
    """Play a game at the terminal: type actions (L3, Tc, xc3-g3) and commands.

    Works with piped input too. The game is saved after every action and the next
    'shiftago play' offers to resume it (the data directory is $SHIFTAGO_HOME, else
    $XDG_DATA_HOME/shiftago, else ~/.local/share/shiftago). Type 'help' in the game
    for its commands: legal, undo, save FILE, board, position, quit.
    """
    from shiftago.interfaces.play.setup import play_game
    from shiftago.interfaces.shared.newgame import NEW_GAME_OPTIONS, PlaySetup, SetupError

    context = click.get_current_context()
    by_default = click.core.ParameterSource.DEFAULT
    given = tuple(
        name for name in NEW_GAME_OPTIONS if context.get_parameter_source(name) is not by_default
    )
    if load is None and context.get_parameter_source("game_number") is not by_default:
        raise click.UsageError("--game picks one game of the file of --load; give --load FILE")
    setup = PlaySetup(
        given=given,
        variant=variant,
        players=players,
        handicap=handicap,
        first=first,
        seed=seed,
        computer=computer,
        level=level,
        limit=limit,
        load=load,
        game_number=game_number,
        position=position,
        resume=resume,
    )
    try:
        status = play_game(setup, sys.stdin, sys.stdout)
    except SetupError as e:
        raise click.UsageError(str(e)) from None
    sys.exit(status)

"""``shiftago analyse``: a position judged or a record reviewed
(:mod:`shiftago.interfaces.analyse`)."""

from __future__ import annotations

import sys

import click

from shiftago.engine.levels import LADDER
from shiftago.interfaces.cli.options import game_number_option
from shiftago.interfaces.cli.refusal import InputRefused
from shiftago.interfaces.cli.words import argument, command, option
from shiftago.interfaces.shared.catalogues import N_


@command(
    short_help=N_("Judge a position, or review a record and mark its mistakes."),
    help=N_(
        "Judge a position string, or review a game record ('-' reads standard input).\n\n"
        "A position gets its evaluation, every legal action ranked with its value and "
        "expected line of play. A record gets the value of each action and, where the bot "
        "finds a better one, the best action; mistakes are marked ?! ? and ??. Values are "
        "from the point of view of the seat to act (in a record: the seat that acted), in "
        "the unit the output names."
    ),
)
@argument("target", metavar=N_("POSITION|RECORD"))
@option(
    "--level",
    type=click.IntRange(min=1, max=len(LADDER)),
    help=N_("The bot that judges: a level of 'shiftago engine' (default: the strongest)."),
)
@option("--depth", type=click.IntRange(min=1), help=N_("Search at most this deep."))
@option("--nodes", type=click.IntRange(min=1), help=N_("Search at most this many nodes."))
@option(
    "--movetime", type=click.IntRange(min=1), metavar="MS", help=N_("Think at most MS ms each.")
)
@option("--top", type=click.IntRange(min=1), metavar="N", help=N_("Show only the N best actions."))
@option(
    "--threshold",
    type=click.FloatRange(min=0),
    help=N_(
        "A record's action worse than the best by more than this (in the bot's unit) is "
        "a mistake (?), by more than half of it an inaccuracy (?!). Default: the bot's own "
        "(100 for the greedy and alpha-beta levels, 0.1 for the MCTS)."
    ),
)
@option("--seed", type=int, default=0, show_default=True, help=N_("The bot's seed."))
@option("--json", "json_output", is_flag=True, help=N_("Print one JSON document."))
@game_number_option(N_("Which game of a record file that holds several."))
def analyse(
    target: str,
    level: int | None,
    depth: int | None,
    nodes: int | None,
    movetime: int | None,
    top: int | None,
    threshold: float | None,
    seed: int,
    json_output: bool,
    game_number: int,
) -> None:
    """Hand the target and the bot's settings to the analyse program; its errors end with
    status 2."""
    from shiftago.engine.bot import Limits
    from shiftago.engine.levels import default_level
    from shiftago.interfaces.analyse import AnalyseError, Settings
    from shiftago.interfaces.analyse import analyse as analyse_target

    settings = Settings(
        level=default_level() if level is None else level,
        limits=Limits(movetime, depth, nodes),
        seed=seed,
        top=top,
        threshold=threshold,
        game_number=game_number,
    )
    try:
        analyse_target(target, sys.stdout, settings, as_json=json_output, stdin=sys.stdin)
    except AnalyseError as e:
        raise InputRefused(str(e)) from None

"""``shiftago analyse``: a position judged or a record reviewed
(:mod:`shiftago.interfaces.analyse`)."""

from __future__ import annotations

import sys

import click

from shiftago.interfaces.cli.options import game_number_option


@click.command(short_help="Judge a position, or review a record and mark its mistakes.")
@click.argument("target", metavar="POSITION|RECORD")
@click.option(
    "--level",
    type=click.IntRange(min=1),
    help="The bot that judges: a level of 'shiftago engine' (default: the strongest).",
)
@click.option("--depth", type=click.IntRange(min=1), help="Search at most this deep.")
@click.option("--nodes", type=click.IntRange(min=1), help="Search at most this many nodes.")
@click.option(
    "--movetime", type=click.IntRange(min=1), metavar="MS", help="Think at most MS ms each."
)
@click.option(
    "--top", type=click.IntRange(min=1), metavar="N", help="Show only the N best actions."
)
@click.option(
    "--threshold",
    type=click.FloatRange(min=0),
    help="A record's action worse than the best by more than this (in the bot's unit) is "
    "a mistake (?), by more than half of it an inaccuracy (?!). Default: the bot's own "
    "(100 for the greedy and alpha-beta levels, 0.1 for the MCTS).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The bot's seed.")
@click.option("--json", "json_output", is_flag=True, help="Print one JSON document.")
@game_number_option("Which game of a record file that holds several.")
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
    """Judge a position string, or review a game record ('-' reads standard input).

    A position gets its evaluation, every legal action ranked with its value and
    expected line of play. A record gets the value of each action and, where the bot
    finds a better one, the best action; mistakes are marked ?! ? and ??. Values are
    from the point of view of the seat to act (in a record: the seat that acted), in
    the unit the output names.
    """
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
        click.echo(f"error: {e}", err=True)
        sys.exit(2)

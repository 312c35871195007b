"""``shiftago book``: build and show the opening books (:mod:`shiftago.interfaces.book`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

VARIANTS = ("express", "expert", "extreme")

_variant = click.option(
    "--variant",
    type=click.Choice(VARIANTS, case_sensitive=False),
    default="express",
    show_default=True,
    help="The variant of the book.",
)
_players = click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="The player count of the book.",
)


@click.group(short_help="Build the opening books and show their lines.")
def book() -> None:
    """Opening books: self-play statistics and deep searches of the first actions of
    each variant and player count, played by the top level (docs/book.md)."""


@book.command(short_help="Build a category's book from self-play and deep searches.")
@_variant
@_players
@click.option(
    "--games", type=click.IntRange(1), default=300, show_default=True, help="Self-play games."
)
@click.option(
    "--plies",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help="The first actions of each game the book counts.",
)
@click.option(
    "--level",
    type=click.IntRange(1, 7),
    default=4,
    show_default=True,
    help="The level that plays the self-play games.",
)
@click.option(
    "--explore",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help="The chance of a random action in the first plies.",
)
@click.option(
    "--min-games",
    type=click.IntRange(1),
    default=4,
    show_default=True,
    help="The fewest games a position needs to be kept.",
)
@click.option(
    "--searched",
    type=click.IntRange(0),
    default=16,
    show_default=True,
    help="How many of the positions played most the top level searches.",
)
@click.option(
    "--nodes",
    type=click.IntRange(1),
    default=None,
    help="Nodes (2 players) or iterations (3-4) of each deep search "
    "[default: 2 times the top level's budget].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of self-play.")
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Processes that play the games (the book is the same for any number).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The book file to write [default: the shipped book of the category].",
)
def build(
    variant: str,
    players: int,
    games: int,
    plies: int,
    level: int,
    explore: float,
    min_games: int,
    searched: int,
    nodes: int | None,
    seed: int,
    jobs: int,
    out: Path | None,
) -> None:
    """Play self-play games, count how each of their first actions fared, search the
    positions played most with the top level, and write the book. The same options
    write the same file."""
    from shiftago.core import Variant
    from shiftago.engine.book_build import BuildSettings
    from shiftago.interfaces.book import build as run
    from shiftago.interfaces.book import shipped_path

    chosen = Variant.parse(variant)
    settings = BuildSettings(games, plies, level, explore, min_games, searched, nodes, seed)
    run(chosen, players, settings, jobs, out or shipped_path(chosen, players), sys.stderr)


@book.command(short_help="Show the book's lines at a position.")
@_variant
@_players
@click.option(
    "--position",
    default=None,
    metavar="TEXT",
    help="A position string, or actions from the empty board (L4 Tc) [default: the empty board].",
)
@click.option(
    "--file",
    "path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A book file [default: the shipped book].",
)
def show(variant: str, players: int, position: str | None, path: Path | None) -> None:
    """Print the book's actions at a position: games, wins, draws, the mover's score,
    the deep search's value (an expected score) and proof, and the top level's choice."""
    from shiftago.core import ShiftagoError, Variant
    from shiftago.interfaces.book import load, position_of, table

    chosen = Variant.parse(variant)
    try:
        book = load(chosen, players, path)
        state = position_of(chosen, players, position)
    except (ValueError, ShiftagoError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(table(book, state))

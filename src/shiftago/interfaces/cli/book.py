"""``shiftago book``: build and show the opening books (:mod:`shiftago.interfaces.book`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from shiftago.interfaces.cli.words import group, option
from shiftago.interfaces.shared.catalogues import N_
from shiftago.interfaces.shared.game_words import error_words

VARIANTS = ("express", "expert", "extreme")

_variant = option(
    "--variant",
    type=click.Choice(VARIANTS, case_sensitive=False),
    default="express",
    show_default=True,
    help=N_("The variant of the book."),
)
_players = option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help=N_("The player count of the book."),
)


@group(
    short_help=N_("Build the opening books and show their lines."),
    help=N_(
        "Opening books: self-play statistics and deep searches of the first actions of "
        "each variant and player count, played by the top level (docs/book.md)."
    ),
)
def book() -> None:
    """The group of the book commands."""


@book.command(
    short_help=N_("Build a category's book from self-play and deep searches."),
    help=N_(
        "Play self-play games, count how each of their first actions fared, search the "
        "positions played most with the top level, and write the book. The same options "
        "write the same file."
    ),
)
@_variant
@_players
@option(
    "--games", type=click.IntRange(1), default=300, show_default=True, help=N_("Self-play games.")
)
@option(
    "--plies",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help=N_("The first actions of each game the book counts."),
)
@option(
    "--level",
    type=click.IntRange(1, 7),
    default=4,
    show_default=True,
    help=N_("The level that plays the self-play games."),
)
@option(
    "--explore",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help=N_("The chance of a random action in the first plies."),
)
@option(
    "--min-games",
    type=click.IntRange(1),
    default=4,
    show_default=True,
    help=N_("The fewest games a position needs to be kept."),
)
@option(
    "--searched",
    type=click.IntRange(0),
    default=16,
    show_default=True,
    help=N_("How many of the positions played most the top level searches."),
)
@option(
    "--nodes",
    type=click.IntRange(1),
    default=None,
    help=N_(
        "Nodes (2 players) or iterations (3-4) of each deep search "
        "[default: 2 times the top level's budget]."
    ),
)
@option(
    "--every",
    type=click.IntRange(0),
    metavar="N",
    default=0,
    show_default=True,
    help=N_(
        "Search every position of the first N actions as well (up to symmetry), played or not."
    ),
)
@option(
    "--follow",
    type=click.IntRange(0),
    metavar="K",
    default=0,
    show_default=True,
    help=N_(
        "Search as well the positions one action further along the book's own lines: its "
        "choice, then each of the K replies it values best."
    ),
)
@option("--seed", type=int, default=0, show_default=True, help=N_("The seed of self-play."))
@option(
    "--reuse",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help=N_(
        "An earlier build's book (the same --nodes and --seed): its deep searches stand in "
        "for the same ones here."
    ),
)
@option(
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help=N_(
        "Processes that play the games and run the searches (the book is the same for any number)."
    ),
)
@option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("The book file to write [default: the shipped book of the category]."),
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
    every: int,
    follow: int,
    seed: int,
    reuse: Path | None,
    jobs: int,
    out: Path | None,
) -> None:
    """Build the book of a variant and player count and write it to its file."""
    from shiftago.core import Variant
    from shiftago.engine.book_build import BuildSettings
    from shiftago.interfaces.book import build as run
    from shiftago.interfaces.book import shipped_path

    chosen = Variant.parse(variant)
    settings = BuildSettings(
        games, plies, level, explore, min_games, searched, nodes, seed, every=every, follow=follow
    )
    try:
        run(chosen, players, settings, jobs, out or shipped_path(chosen, players), sys.stderr,
            reuse)  # fmt: skip
    except ValueError as error:
        raise click.ClickException(str(error)) from None


@book.command(
    short_help=N_("Show the book's lines at a position."),
    help=N_(
        "Print the book's actions at a position: games, wins, draws, the mover's score, "
        "the deep search's value (an expected score) and proof, and the top level's choice."
    ),
)
@_variant
@_players
@option(
    "--position",
    default=None,
    metavar=N_("TEXT"),
    help=N_(
        "A position string, or actions from the empty board (L4 Tc) [default: the empty board]."
    ),
)
@option(
    "--file",
    "path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help=N_("A book file [default: the shipped book]."),
)
def show(variant: str, players: int, position: str | None, path: Path | None) -> None:
    """Print the table of the book's actions at the position."""
    from shiftago.core import ShiftagoError, Variant
    from shiftago.interfaces.book import load, position_of, table

    chosen = Variant.parse(variant)
    try:
        book = load(chosen, players, path)
        state = position_of(chosen, players, position)
    except (ValueError, ShiftagoError) as error:
        raise click.ClickException(error_words(error)) from None
    click.echo(table(book, state))

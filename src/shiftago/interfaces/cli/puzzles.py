"""``shiftago puzzles``: make and check puzzle files (:mod:`shiftago.interfaces.puzzles`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from shiftago.interfaces.cli.options import proof_options

VARIANTS = ("express", "expert", "extreme")


@click.group(short_help="Generate puzzles from games and self-play, and check them.")
def puzzles() -> None:
    """Puzzles: positions where one first action forces the win (docs/puzzles.md)."""


@puzzles.command(short_help="Find and prove puzzles in records and self-play games.")
@click.option(
    "--from",
    "records",
    multiple=True,
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A record file whose games are searched (repeat for several).",
)
@click.option(
    "--self-play",
    "games",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="How many self-play games to search.",
)
@click.option("--seed", default=1, show_default=True, type=int, help="The seed of self-play.")
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="express",
    show_default=True,
    help="The variant of self-play games.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="The players of self-play games.",
)
@proof_options
@click.option("--limit", type=click.IntRange(1), default=None, help="Stop after this many puzzles.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The puzzle file to write (.jsonl, or .jsonl.gz); standard output if not given.",
)
def generate(
    records: tuple[Path, ...],
    games: int,
    seed: int,
    variant: str,
    players: int,
    most: int,
    nodes: int,
    limit: int | None,
    out: Path | None,
) -> None:
    """Search games for puzzles and prove them; write one JSON line per puzzle.

    The same options write the same file."""
    from shiftago.core import Variant
    from shiftago.interfaces.puzzles import Job, open_text
    from shiftago.interfaces.puzzles import generate as run

    if not records and not games:
        raise click.UsageError("give record files with --from, or --self-play N games")
    job = Job(records, games, seed, Variant.parse(variant), players, most, nodes, limit)
    try:
        if out is None:
            run(job, sys.stdout, sys.stderr)
        else:
            with open_text(out, "w") as handle:
                run(job, handle, sys.stderr)
    except ValueError as error:
        raise click.ClickException(str(error)) from None


@puzzles.command(short_help="Re-prove every puzzle of a file.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check(file: Path) -> None:
    """Re-prove every puzzle of FILE; exit 1 naming each one that fails."""
    from shiftago.interfaces.puzzles import main_check

    try:
        code = main_check(file)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    sys.exit(code)


@puzzles.command(short_help="Find every puzzle's themes again, positions unchanged.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Write the puzzles here (.gz: gzip without a time stamp); may be FILE itself.",
)
def retag(file: Path, out: Path) -> None:
    """Read FILE, find each puzzle's themes again (after a new theme) and write them to
    OUT in the same order; the positions and solutions stay as they are."""
    from shiftago.interfaces.puzzles import main_retag

    try:
        main_retag(file, out)
    except ValueError as error:
        raise click.ClickException(str(error)) from None

"""``shiftago puzzles``: make and check puzzle files (:mod:`shiftago.interfaces.puzzles`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from shiftago.interfaces.cli.options import proof_options
from shiftago.interfaces.cli.words import argument, group, option
from shiftago.interfaces.shared.catalogues import N_, _
from shiftago.interfaces.shared.game_words import error_words

VARIANTS = ("express", "expert", "extreme")


@group(
    short_help=N_("Generate puzzles from games and self-play, and check them."),
    help=N_("Puzzles: positions where one first action forces the win (docs/puzzles.md)."),
)
def puzzles() -> None:
    """The group of the puzzle commands."""


@puzzles.command(
    short_help=N_("Find and prove puzzles in records and self-play games."),
    help=N_(
        "Search games for puzzles and prove them; write one JSON line per puzzle.\n\n"
        "The same options write the same file."
    ),
)
@option(
    "--from",
    "records",
    multiple=True,
    metavar=N_("FILE"),
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help=N_("A record file whose games are searched (repeat for several)."),
)
@option(
    "--self-play",
    "games",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help=N_("How many self-play games to search."),
)
@option("--seed", default=1, show_default=True, type=int, help=N_("The seed of self-play."))
@option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="express",
    show_default=True,
    help=N_("The variant of self-play games."),
)
@option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help=N_("The players of self-play games."),
)
@proof_options
@option("--limit", type=click.IntRange(1), default=None, help=N_("Stop after this many puzzles."))
@option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("The puzzle file to write (.jsonl, or .jsonl.gz); standard output if not given."),
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
    """Search the records and self-play games for puzzles and write the proven ones."""
    from shiftago.core import Variant
    from shiftago.interfaces.puzzles import Job, open_text
    from shiftago.interfaces.puzzles import generate as run

    if not records and not games:
        raise click.UsageError(_("give record files with --from, or --self-play N games"))
    job = Job(records, games, seed, Variant.parse(variant), players, most, nodes, limit)
    try:
        if out is None:
            run(job, sys.stdout, sys.stderr)
        else:
            with open_text(out, "w") as handle:
                run(job, handle, sys.stderr)
    except ValueError as error:
        raise click.ClickException(error_words(error)) from None


@puzzles.command(
    short_help=N_("Re-prove every puzzle of a file."),
    help=N_("Re-prove every puzzle of FILE; exit 1 naming each one that fails."),
)
@argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check(file: Path) -> None:
    """Re-prove the puzzles of the file and exit with the check's status."""
    from shiftago.interfaces.puzzles import main_check

    try:
        code = main_check(file)
    except ValueError as error:
        raise click.ClickException(error_words(error)) from None
    sys.exit(code)


@puzzles.command(
    short_help=N_("Find every puzzle's themes again, positions unchanged."),
    help=N_(
        "Read FILE, find each puzzle's themes again (after a new theme) and write them to "
        "OUT in the same order; the positions and solutions stay as they are."
    ),
)
@argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help=N_("Write the puzzles here (.gz: gzip without a time stamp); may be FILE itself."),
)
def retag(file: Path, out: Path) -> None:
    """Tag the puzzles of the file with their themes again and write them out."""
    from shiftago.interfaces.puzzles import main_retag

    try:
        main_retag(file, out)
    except ValueError as error:
        raise click.ClickException(error_words(error)) from None

"""``shiftago show``: a position or a record as text or SVG (:mod:`shiftago.interfaces.show`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from shiftago.interfaces.cli.options import game_number_option
from shiftago.interfaces.cli.refusal import InputRefused
from shiftago.interfaces.cli.words import argument, command, option
from shiftago.interfaces.shared.catalogues import N_


@command(
    short_help=N_("Show a position or replay a record: text, SVG, PNG or GIF."),
    help=N_(
        "Show a position string or a game record file ('-' reads standard input).\n\n"
        "A record is replayed: each action, then the board. A position string has 8 fields, "
        'so quote it: shiftago show "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0".'
    ),
)
@argument("target", metavar=N_("FILE|POSITION"))
@option("--final", is_flag=True, help=N_("Show only the final board of a record."))
@option(
    "--svg",
    "svg_dir",
    metavar=N_("DIR"),
    type=click.Path(file_okay=False, path_type=Path),
    help=N_("Write SVG files to DIR (one per step, or only the final one) instead of text."),
)
@option(
    "--png",
    "png",
    metavar=N_("FILE"),
    type=click.Path(dir_okay=False, path_type=Path),
    help=N_("Write the last position, its last action marked, as a PNG picture to FILE."),
)
@option(
    "--gif",
    "gif",
    metavar=N_("FILE"),
    type=click.Path(dir_okay=False, path_type=Path),
    help=N_("Write the game as an animated GIF to FILE: a frame per action, the last held."),
)
@game_number_option(N_("Which game of a file that holds several."))
def show(
    target: str,
    final: bool,
    svg_dir: Path | None,
    png: Path | None,
    gif: Path | None,
    game_number: int,
) -> None:
    """Hand the target and the options to the show program; its errors end with status 2."""
    from shiftago.interfaces.show import ShowError
    from shiftago.interfaces.show import show as show_target

    out = sys.stdout
    try:
        show_target(
            target,
            out,
            final=final,
            svg_dir=svg_dir,
            png=png,
            gif=gif,
            game_number=game_number,
            stdin=sys.stdin,
        )
    except ShowError as e:
        raise InputRefused(str(e)) from None

"""Options that several commands share: a handicap, and which game of a record file."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

FC = TypeVar("FC", bound=Callable[..., object])


def handicap(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    if not value:
        return ()
    try:
        return tuple(int(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(
            f"{value!r}: one number of skipped turns per seat, such as 0,2"
        ) from None


def game_number_option(help_text: str) -> Callable[[FC], FC]:
    """``--game N``: which game of a record file that holds several."""
    return click.option(
        "--game",
        "game_number",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help=help_text,
    )

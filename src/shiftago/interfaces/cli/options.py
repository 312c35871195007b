"""Options that several commands share: a handicap, which game of a record file, the
options of a game at the terminal (``play`` and ``tui``) and its language."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from shiftago.engine.levels import LADDER
from shiftago.interfaces.cli.words import option
from shiftago.interfaces.shared.catalogues import N_, _

if TYPE_CHECKING:
    from shiftago.interfaces.shared.newgame import PlaySetup

FC = TypeVar("FC", bound=Callable[..., object])


def handicap(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    if not value:
        return ()
    try:
        return tuple(int(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(
            _("%(value)s: one number of skipped turns per seat, such as 0,2")
            % {"value": repr(value)}
        ) from None


def game_number_option(help_text: str) -> Callable[[FC], FC]:
    """``--game N``: which game of a record file that holds several; ``help_text`` is
    marked with ``N_`` by the caller and translated when Click shows it."""
    return option(
        "--game",
        "game_number",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help=help_text,
    )


def game_options(command: FC) -> FC:
    """The options of a game at the terminal, as ``play`` and ``tui`` take them."""
    for add in reversed(_GAME_OPTIONS):
        command = add(command)
    return command


_GAME_OPTIONS: list[Callable[[Any], Any]] = [
    option(
        "--variant",
        type=click.Choice(["express", "expert", "extreme"], case_sensitive=False),
        default="express",
        show_default=True,
        help=N_("The variant of a new game."),
    ),
    option(
        "--players",
        type=click.IntRange(2, 4),
        default=2,
        show_default=True,
        help=N_("The number of players of a new game (2-4)."),
    ),
    option(
        "--handicap",
        metavar="N,N..",
        callback=handicap,
        help=N_("Skipped turns (0-6) per seat in seat order, such as 0,2."),
    ),
    option(
        "--first",
        metavar=N_("COLOUR"),
        help=N_("Who starts a new game: o, g, b, w (or orange...). Default: drawn by lot."),
    ),
    option("--seed", type=int, help=N_("Seed of the draw for the first seat and of the computer.")),
    option(
        "--computer",
        "-c",
        metavar=N_("COLOUR[:LEVEL]"),
        multiple=True,
        help=N_(
            "A seat the computer plays, with its own level after a colon (g:2); repeat the "
            "option for several seats."
        ),
    ),
    option(
        "--level",
        type=click.IntRange(min=1, max=len(LADDER)),
        help=N_("The level of the computer's seats that name none (default: best)."),
    ),
    option(
        "--limit",
        type=click.IntRange(min=1),
        help=N_(
            "End the game after this many actions (default: no limit; 1000 when the "
            "computer plays every seat)."
        ),
    ),
    option(
        "--load",
        type=click.Path(dir_okay=False, path_type=Path),
        help=N_("Go on from the game in this record file."),
    ),
    game_number_option(N_("Which game of a --load file that holds several.")),
    option("--position", metavar=N_("POSITION"), help=N_("Go on from this position string.")),
    option(
        "--resume/--new",
        default=None,
        help=N_("Resume the unfinished (autosaved) game without asking, or start a new one."),
    ),
    option(
        "--lang",
        metavar="LANG",
        is_eager=True,
        callback=lambda _context, _param, value: language_now(value),
        help=N_(
            "The language of the game (en, de, es, it, fr, nl). Default: the terminal's"
            " ($LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG)."
        ),
    ),
]


def language_now(asked: str | None) -> str | None:
    """``--lang`` takes effect as soon as it is read: the help and Click's own words
    ("Usage:", "Error:") that follow are in that language too."""
    if asked is not None:
        from shiftago.interfaces.cli.words import use

        use(choose_language(asked))
    return asked


def setup_of(context: click.Context, options: Mapping[str, Any]) -> PlaySetup:
    """The :class:`PlaySetup` of the options of :func:`game_options`."""
    from shiftago.interfaces.shared.newgame import NEW_GAME_OPTIONS, PlaySetup

    by_default = click.core.ParameterSource.DEFAULT
    given = tuple(
        name for name in NEW_GAME_OPTIONS if context.get_parameter_source(name) is not by_default
    )
    load: Path | None = options["load"]
    if load is None and context.get_parameter_source("game_number") is not by_default:
        raise click.UsageError(_("--game picks one game of the file of --load; give --load FILE"))
    return PlaySetup(given=given, **options)


def choose_language(asked: str | None) -> str:
    """Make the language of ``--lang`` (else of the environment) the program's; which
    it is."""
    from shiftago.interfaces.shared.catalogues import CatalogueError, terminal_words

    try:
        return terminal_words(asked, os.environ).lang
    except CatalogueError:
        raise  # a broken catalogue of the package: not the player's mistake
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--lang") from None


def proof_options(command: FC) -> FC:
    """``--max-actions`` (``most``) and ``--nodes``: how long a puzzle may be and the
    prover's budget per position, for every command that proves puzzles."""
    command = option(
        "--nodes",
        type=click.IntRange(1),
        default=2_000_000,
        show_default=True,
        help=N_("The prover's node budget per position (beyond it a position is skipped)."),
    )(command)
    return option(
        "--max-actions",
        "most",
        type=click.IntRange(1, 3),
        default=3,
        show_default=True,
        help=N_("The most actions of the solver a puzzle may take."),
    )(command)

"""``shiftago``: the one command line, a dispatcher to the programs of the project.

Each subcommand, in a module of its own here, parses its options and hands them to its
program: ``engine`` to the engine protocol (:mod:`shiftago.interfaces.stp`), ``play``
to the terminal game (:mod:`shiftago.interfaces.play`), ``tui`` to the terminal app
(:mod:`shiftago.interfaces.tui`), ``show`` to
:mod:`shiftago.interfaces.show`, ``analyse`` to :mod:`shiftago.interfaces.analyse`,
``bench`` to :mod:`shiftago.engine.bench` and :mod:`shiftago.env.bench`, ``arena`` to
:mod:`shiftago.match`, ``serve``, ``worker`` and ``admin`` to the web app
(:mod:`shiftago.interfaces.server`), ``loadtest`` to
:mod:`shiftago.interfaces.loadtest`, and ``book`` to :mod:`shiftago.interfaces.book`.
The programs are imported when their command runs.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Sequence

import click

from shiftago import __version__
from shiftago.interfaces.cli import (
    admin,
    analyse,
    arena,
    bench,
    book,
    engine,
    loadtest,
    play,
    puzzles,
    serve,
    show,
    tui,
)
from shiftago.interfaces.cli.bench import figure_text
from shiftago.interfaces.cli.options import language_now
from shiftago.interfaces.cli.words import TranslatedOption, group, use_terminal_language
from shiftago.interfaces.shared.catalogues import N_

__all__ = ["cli", "figure_text", "main"]

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@group(
    context_settings=CONTEXT_SETTINGS,
    help=N_(
        "Shiftago, the board game: play it, show games, run the engine.\n\n"
        "Actions are written as in the rules: L3 R3 Tc Bc insert a marble (side, then the "
        "lane), xc3-g3 scores the line from c3 to g3."
    ),
)
@click.version_option(__version__, "-V", "--version", prog_name="shiftago", cls=TranslatedOption)
def cli() -> None:
    """The group of every command: it makes any character printable first."""
    _print_whatever_the_encoding()


def _print_whatever_the_encoding() -> None:
    """A character the terminal's encoding lacks (a Latin-1 locale, an ASCII pipe) is
    printed as ``?`` instead of ending the command with a UnicodeEncodeError: the words
    are mostly ASCII, but a shortened line ends with an ellipsis and a name or a
    record's text may hold anything."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


for command in (
    engine.engine,
    play.play,
    tui.tui,
    show.show,
    analyse.analyse,
    serve.serve,
    serve.worker,
    admin.admin,
    bench.bench,
    arena.arena,
    loadtest.loadtest,
    puzzles.puzzles,
    book.book,
):
    cli.add_command(command)


def main() -> None:
    """The ``shiftago`` console script, in the terminal's language, or the one its
    ``--lang`` asks for: read before Click parses the line, so that Click's refusals of
    the line itself ("No such option") are said in it too."""
    use_terminal_language()
    asked = language_asked(sys.argv[1:])
    if asked is not None:
        with contextlib.suppress(click.BadParameter):  # --lang's own callback says why
            language_now(asked)
    cli()


def language_asked(arguments: Sequence[str]) -> str | None:
    """The value of the first ``--lang`` among the command line's ``arguments``."""
    for at, word in enumerate(arguments):
        if word == "--":
            break
        if word == "--lang" and at + 1 < len(arguments):
            return arguments[at + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    return None


if __name__ == "__main__":
    main()

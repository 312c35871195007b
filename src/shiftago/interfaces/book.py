"""``shiftago book``: build a category's opening book, and show a position's lines.

The work is the engine's (:mod:`shiftago.engine.book`): this program plays the
self-play games and runs the deep searches (in ``jobs`` processes; each game is seeded
by its number and each search stands alone, so the file is the same for any ``jobs``),
reports progress on standard error, writes the book file and prints its lines as a
table.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Final, TextIO

from shiftago.core import Game, Rules, State, Variant
from shiftago.engine.book import Book, shipped, shipped_book
from shiftago.engine.book.shipped import DATA, book_file, read_book, write_book
from shiftago.engine.book.symmetry import canonical
from shiftago.engine.book_build import (
    BuildSettings,
    Mapper,
    deep_search,
    known_mismatch,
    play_game,
    tally,
)
from shiftago.interfaces.shared.catalogues import N_, _, ngettext
from shiftago.interfaces.shared.game_words import variant_name

#: The columns of a position's lines (:func:`table`).
BOOK_COLUMNS: Final = (N_("action"), N_("games"), N_("wins"), N_("draws"), N_("score"),
                       N_("value"), N_("proven"))  # fmt: skip


def shipped_path(variant: Variant, players: int) -> Path:
    """Where a category's shipped book lives in this checkout (the package data)."""
    return Path(shipped.__file__).parent / DATA / book_file(variant, players)


def build(
    variant: Variant,
    players: int,
    settings: BuildSettings,
    jobs: int,
    out: Path,
    err: TextIO,
    reuse: Path | None = None,
) -> Book:
    """Build the book of a category and write it to ``out``; progress goes to ``err``.
    ``reuse``: an earlier build's book whose searches stand in for the same ones here
    (ValueError where it is of another category, nodes or seed)."""
    known = None if reuse is None else load(variant, players, reuse)
    mismatch = None if known is None else known_mismatch(known, settings)
    if mismatch is not None:
        message = _("%(file)s was searched with another --%(option)s than this build")
        raise ValueError(message % {"file": reuse, "option": mismatch})
    if jobs == 1:
        return _build(variant, players, settings, map, out, err, known)
    # workers fork from a fresh server process, not from this one and its threads
    forkserver = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=forkserver) as pool:
        mapper = functools.partial(pool.map, chunksize=1)
        return _build(variant, players, settings, mapper, out, err, known)


def _build(
    variant: Variant,
    players: int,
    settings: BuildSettings,
    mapper: Mapper,
    out: Path,
    err: TextIO,
    known: Book | None,
) -> Book:
    rules = Rules(variant, players)
    start = time.monotonic()
    games = []
    play = functools.partial(play_game, rules, settings=settings)
    for number, game in enumerate(mapper(play, list(range(settings.games))), start=1):
        games.append(game)
        if number % 50 == 0 or number == settings.games:
            done = _("self-play: %(done)d/%(games)d games")
            print(done % {"done": number, "games": settings.games}, file=err, flush=True)
    book = tally(variant, players, games, settings)
    played = time.monotonic() - start
    tallied = ngettext(
        "%(n)d position played %(min)d+ times (%(s).0f s)",
        "%(n)d positions played %(min)d+ times (%(s).0f s)",
        len(book),
    )
    print(tallied % {"n": len(book), "min": settings.min_games, "s": played}, file=err)

    def report(done: int, total: int, key: str) -> None:
        line = _("deep search %(done)d/%(total)d: %(key)s")
        print(line % {"done": done, "total": total, "key": key}, file=err, flush=True)

    book = deep_search(book, settings, report, mapper, known)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(write_book(book))
    took = time.monotonic() - start
    size = out.stat().st_size
    wrote = ngettext(
        "wrote %(file)s (%(n)d byte) in %(s).0f s",
        "wrote %(file)s (%(n)d bytes) in %(s).0f s",
        size,
    )
    print(wrote % {"file": out, "n": size, "s": took}, file=err)
    return book


def load(variant: Variant, players: int, path: Path | None) -> Book:
    """The book of a file, or the shipped book of a category; ValueError where none."""
    if path is not None:
        try:
            book = read_book(path.read_bytes())
        except OSError as e:
            message = _("cannot read the book %(file)s: %(error)s")
            raise ValueError(message % {"file": path, "error": e}) from None
        if book.variant is not variant or book.players != players:
            message = _("%(file)s is the book of %(variant)s with %(players)d players")
            words = {"file": path, "variant": variant_name(book.variant), "players": book.players}
            raise ValueError(message % words)
        return book
    found = shipped_book(variant, players)
    if found is None:
        message = _("no book is shipped for %(variant)s with %(players)d players")
        raise ValueError(message % {"variant": variant_name(variant), "players": players})
    return found


def position_of(variant: Variant, players: int, text: str | None) -> State:
    """The position to show: a position string, a list of actions from the empty board
    (orange first), or the empty board when ``text`` is None; ValueError otherwise."""
    rules = Rules(variant, players)
    if text is None or not text.strip():
        return State.initial(rules, 0)
    if "/" in text:
        state = State.from_position(text.strip())
        if state.rules.variant is not variant or state.players != players:
            raise ValueError(_("the position's variant and players differ from the book's"))
        return state
    game = Game(rules, first=0)
    for action in text.replace(",", " ").split():
        game.play(action)
    return game.state


def table(book: Book, state: State) -> str:
    """The book's lines at ``state`` as a text table (or a line saying there are none)."""
    lines = book.lines(state)
    if not lines:
        return _("not in the book: %(position)s") % {"position": state.position()}
    rows = [(*(_(word) for word in BOOK_COLUMNS), "")]
    proven = {1: _("win"), -1: _("loss")}
    chosen = _("book")
    for line in lines:
        e = line.entry
        rows.append(
            (
                str(line.action),
                str(e.games),
                str(e.wins),
                str(e.draws),
                "-" if e.score is None else f"{e.score:.3f}",
                "-" if e.value is None else f"{e.value:.3f}",
                proven.get(e.proven, "-"),
                chosen if line.chosen else "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    text = [
        "  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in
                  enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]  # fmt: skip
    key = canonical(state).key
    heading = _("position %(position)s (book key %(key)s)")
    return "\n".join([heading % {"position": state.position(), "key": key}, *text])

"""Reading records from a text handle lazily, game by game, as python-chess's
``read_game`` does: a file of many games is never read whole, and a broken game is
reported with its line and passed over.

:class:`RecordReader` keeps its place in the handle between games (and so counts the
lines of the whole file); :func:`iter_records` and :func:`scan_headers` go through a
handle with one, and :func:`read_record` reads just the next game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import NamedTuple, TextIO

from shiftago.formats.record_model import Record
from shiftago.formats.record_read import build
from shiftago.formats.record_syntax import Draft, RecordError, Scanner, split_lines

#: What :func:`iter_records` and :func:`scan_headers` call with each broken game's error.
OnError = Callable[[RecordError], object]


class GameHeaders(NamedTuple):
    """One game's headers as written (known names in their written case), and the
    line where the game begins."""

    line: int
    headers: dict[str, str]


class RecordReader:
    """The games of a text handle, read one line at a time as they are asked for.

    :meth:`read` gives the next record; a broken game raises :class:`RecordError`
    (its ``line`` counted from where the reader began) once the reader has passed it,
    so the next :meth:`read` goes on with the game after it.
    """

    def __init__(self, handle: TextIO, *, give_back: bool = False) -> None:
        self._handle = handle
        self._scanner = Scanner()
        self._lines: list[str] = []  # the rest of the chunk last read
        self._number = 0
        self._ended = False
        # read_record's reader hands back the line that begins the game after a broken
        # one (seeking to it), so that the next reader starts there
        self._give_back = give_back and handle.seekable()
        self._chunk_start: int | None = None  # where the line last read began, if known

    def read(self) -> Record | None:
        """The next game, or None at the end of the handle."""
        draft = self.read_draft()
        return None if draft is None else build(draft)

    def read_draft(self) -> Draft | None:
        """The next game's text in pieces (headers and tokens, unchecked), or None."""
        while True:
            raw = self._next_line()
            if raw is None:
                if self._ended:
                    return None
                self._ended = True
                self._scanner.finish()
                return None
            begun = self._scanner.begun
            try:
                draft = self._scanner.feed(raw, self._number)
            except RecordError:
                if self._give_back:
                    self._pass_broken_game(begun)
                raise
            if draft is not None:
                return draft

    def _pass_broken_game(self, begun: int) -> None:
        """Read on to the line that begins the next game, and seek back to its start."""
        while self._scanner.begun == begun:
            raw = self._next_line()
            if raw is None:
                return
            # the broken game's own errors, or the next game's (read again after seeking)
            with suppress(RecordError):
                self._scanner.feed(raw, self._number)
        if self._chunk_start is not None:
            self._handle.seek(self._chunk_start)

    def _next_line(self) -> str | None:
        if not self._lines:
            self._chunk_start = self._handle.tell() if self._give_back else None
            chunk = self._handle.readline()
            if not chunk:
                return None
            if self._number == 0:
                chunk = chunk.removeprefix("\ufeff")
            # a chunk ends at \n; a \r inside it also ends a line, as in split_lines
            self._lines = split_lines(chunk)
            if len(self._lines) > 1 and self._lines[-1] == "":
                self._lines.pop()
        else:
            self._chunk_start = None  # a line inside a chunk cannot be sought
        self._number += 1
        return self._lines.pop(0)


def read_record(handle: TextIO) -> Record | None:
    """The next game of ``handle``, or None when none is left; the handle is left just
    after the line of its result token.

    A broken game raises :class:`RecordError` with its line counted from where this
    call began reading; on a handle that can seek, the handle is then left at the start
    of the next game, so that the next call reads it. To count lines from the start of
    the file, and to go on past broken games on any handle, read with
    :func:`iter_records` (or one :class:`RecordReader`).
    """
    return RecordReader(handle, give_back=True).read()


def iter_records(handle: TextIO, *, on_error: OnError | None = None) -> Iterator[Record]:
    """Every game of ``handle``, each read when it is asked for.

    A broken game is handed to ``on_error`` as its :class:`RecordError` (its ``line``
    counted in the whole file), and reading goes on with the next game; without
    ``on_error`` the error is raised and the iteration ends.
    """
    reader = RecordReader(handle)
    while True:
        try:
            record = reader.read()
        except RecordError as error:
            if on_error is None:
                raise
            on_error(error)
            continue
        if record is None:
            return
        yield record


def scan_headers(handle: TextIO, *, on_error: OnError | None = None) -> Iterator[GameHeaders]:
    """The headers of every game of ``handle``, without replaying the moves (so without
    checking them): for finding games in a large file quickly. Errors of syntax are
    handled as :func:`iter_records` handles them."""
    reader = RecordReader(handle)
    while True:
        try:
            draft = reader.read_draft()
        except RecordError as error:
            if on_error is None:
                raise
            on_error(error)
            continue
        if draft is None:
            return
        headers = {name: value for name, (value, _) in draft.headers.items()}
        yield GameHeaders(draft.line, headers)

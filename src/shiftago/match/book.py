"""An opening book: a match's openings read from a file instead of drawn at random.

A book is text, one opening per line: the actions from the empty board in the notation
of RULES.md section 8, separated by spaces or commas (``L3 Tc``). A ``#`` starts a
comment that runs to the end of its line; blank lines are skipped. Orange (seat 0)
moves first, as in a drawn opening. A match takes the book's openings in order, the
first line being opening 0, so the same book gives the same games in every match, and
each opening is still played from every seat.

A line is checked twice: its spelling when the book is read (:func:`parse_book`), and
its legality under each game's rules when the match is built (:func:`book_opening`; a
handicap changes who moves when). Either failure names the line.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from shiftago.core import Action, Game, Rules
from shiftago.core.errors import ShiftagoError
from shiftago.match.errors import MatchSetupError

_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class BookLine:
    """One opening of a book: its actions (canonical spelling) and its line number."""

    actions: tuple[str, ...]
    line: int

    @property
    def digest(self) -> str:
        """A short digest of the actions: what identifies the opening in a game's key."""
        return hashlib.sha1(" ".join(self.actions).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class OpeningBook:
    """The openings of a book file, in the file's order; ``name`` names it in messages."""

    name: str
    lines: tuple[BookLine, ...]

    def __len__(self) -> int:
        return len(self.lines)


def parse_book(text: str, name: str = "the book") -> OpeningBook:
    """Read a book's text; a line that is not a list of actions raises a
    :class:`~.errors.MatchSetupError`.

    >>> book = parse_book("# two openings\\nL3 tc\\n\\nbd, R1  # a comment\\n", "b.txt")
    >>> [line.actions for line in book.lines]
    [('L3', 'Tc'), ('Bd', 'R1')]
    >>> parse_book("L3 Q9", "b.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shiftago.match.errors.MatchSetupError: b.txt line 1: 'Q9' is not an action: ...
    """
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = [w for w in _SEPARATORS.split(raw.partition("#")[0]) if w]
        if not words:
            continue
        actions = []
        for word in words:
            try:
                actions.append(str(Action.parse(word)))
            except ShiftagoError as e:
                raise MatchSetupError(
                    "{book} line {line}: {error}", book=name, line=number, error=e
                ) from None
        lines.append(BookLine(tuple(actions), number))
    if not lines:
        raise MatchSetupError(
            "{book} has no openings: one line of actions per opening, such as L3 Tc", book=name
        )
    return OpeningBook(name, tuple(lines))


def read_book(path: Path) -> OpeningBook:
    """Read a book file (UTF-8); an unreadable file raises a
    :class:`~.errors.MatchSetupError` that names it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MatchSetupError(
            "cannot read the opening book {path}: {error}", path=path, error=e
        ) from None
    return parse_book(text, str(path))


def book_opening(book: OpeningBook, rules: Rules, number: int) -> tuple[Action, ...]:
    """Opening ``number`` of the book played under ``rules``: its actions, each legal in
    turn from the empty board, leaving the game open; otherwise a
    :class:`~.errors.MatchSetupError`."""
    if not 0 <= number < len(book):
        raise MatchSetupError(
            "{book} has {count} openings, no opening {number}",
            book=book.name,
            count=len(book),
            number=number,
        )
    entry = book.lines[number]
    game = Game(rules, first=0)
    for index, action in enumerate(entry.actions, start=1):
        if game.is_over:
            raise MatchSetupError(
                "{book} line {line}: the game is over before action {index} ({action})",
                book=book.name,
                line=entry.line,
                index=index,
                action=action,
            )
        try:
            game.play(action)
        except ShiftagoError as e:
            raise MatchSetupError(
                "{book} line {line}: action {index} ({action}) is not legal here: {error}",
                book=book.name,
                line=entry.line,
                index=index,
                action=action,
                error=e,
            ) from None
    if game.is_over:
        raise MatchSetupError(
            "{book} line {line}: the opening ends the game; it must leave a game to play",
            book=book.name,
            line=entry.line,
        )
    return tuple(game.history)

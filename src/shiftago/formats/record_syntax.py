"""The syntax of game records: lines into headers and move tokens, with line numbers.

This module knows the shape of the text (``docs/records.md``) but not what a header
means or whether an action is legal; :mod:`shiftago.formats.record` gives the meaning
and replays the game. Keeping the line numbers of every piece here is what lets a
broken record be reported where it breaks.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from shiftago.core.actions import Action, Insertion, Scoring
from shiftago.core.errors import ParseError
from shiftago.core.rules import COLOUR_NAMES, COLOURS, seat_of_colour

#: The result token of a game that has not ended.
UNFINISHED: Final = "*"

#: Headers in the order they are written; per-seat headers come in place of ``*``.
HEADER_ORDER: Final = (
    "Event",
    "Date",
    "Variant",
    "Players",
    "Handicap",
    "ActionLimit",
    "First",
    "Position",
    "Seed",
    "*",
    "Termination",
    "Result",
)
#: The per-seat headers of each colour: its player's name, kind and level.
SEAT_HEADERS: Final[tuple[tuple[str, str, str], ...]] = tuple(
    (n.capitalize(), n.capitalize() + "Kind", n.capitalize() + "Level") for n in COLOUR_NAMES
)
_KNOWN: Final[dict[str, str]] = {
    name.lower(): name
    for name in (*(h for h in HEADER_ORDER if h != "*"), *(h for s in SEAT_HEADERS for h in s))
}

_HEADER_LINE: Final = re.compile(r'\[\s*([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
#: What may follow a header on its line: a comment (``;`` to the end of the line, or a
#: ``{...}`` closed on the line) or nothing.
_AFTER_HEADER: Final = re.compile(r"\s*(\{[^}]*\}\s*)*(;.*)?")
#: An escape in a header's value: a backslash and the character after it (only a quote
#: or a backslash may follow).
_ESCAPE: Final = re.compile(r"\\(.)")
#: What ends a line of a record: \n, \r\n or \r, as a text editor counts lines.
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_PIECE: Final = re.compile(r"[{};]|[^\s{};]+")
_NUMBER: Final = re.compile(r"(\d+)\.(.*)")
_RESULT: Final = re.compile(r"\*|[ogbw](?:=[ogbw])*", re.IGNORECASE)


class RecordError(ParseError):
    """A broken record. ``line`` is where in the text (None when it was not text)."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        super().__init__(problem if line is None else f"line {line}: {problem}")
        self.problem = problem
        self.line = line


def is_text_value(text: object) -> bool:
    """Names, events and terminations are one printable line, not blank (they become headers)."""
    return isinstance(text, str) and text.strip() != "" and text.isprintable()


def escape(value: str) -> str:
    """A header value between its quotes: backslash and quote escaped as in PGN."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def parse_date(text: str) -> str:
    """A date as records write it, ``YYYY-MM-DD`` (checked to be a real day)."""
    if not isinstance(text, str) or re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()) is None:
        raise ParseError(f"{text!r} is not a date written YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ParseError(f"{text!r} is not a day of the calendar") from None


# --- turns ---------------------------------------------------------------------------
def starts_turn(previous: Action | None, action: Action) -> bool:
    """A turn begins with the first action and with each insertion not after a scoring.

    After an insertion the turn passes (to another seat, or back to the same one when the
    others skip) unless the mover must score; a scoring and the insertion after it belong
    to the turn of the insertion that made the line.
    """
    return previous is None or (isinstance(action, Insertion) and not isinstance(previous, Scoring))


def turn_numbers(actions: Iterable[Action]) -> list[int]:
    """The turn number (from 1) of each action, as the text form numbers them."""
    numbers: list[int] = []
    previous: Action | None = None
    for action in actions:
        numbers.append((numbers[-1] if numbers else 0) + starts_turn(previous, action))
        previous = action
    return numbers


def turn_number(token: str) -> int | None:
    """The number of a turn-number token such as ``12.``, else None."""
    match = _NUMBER.fullmatch(token)
    return int(match.group(1)) if match and not match.group(2) else None


# --- results -------------------------------------------------------------------------
def is_result_token(text: str) -> bool:
    """Whether ``text`` has the shape of a result token (its colours are checked later)."""
    return _RESULT.fullmatch(text) is not None


def parse_result(text: str, players: int) -> str:
    """A result token in its canonical spelling: ``*``, ``o`` or a draw ``o=g`` in seat order."""
    if not isinstance(text, str) or not is_result_token(text.strip()):
        raise ParseError(
            f"{text!r} is not a result: expected * (not over), a colour such as o, "
            "or the colours sharing a draw such as o=g"
        )
    text = text.strip()
    if text == UNFINISHED:
        return text
    seats = [seat_of_colour(c, players) for c in text.split("=")]
    if len(set(seats)) != len(seats):
        raise ParseError(f"the result {text!r} names a colour twice")
    return "=".join(COLOURS[s] for s in sorted(seats))


# --- scanning ------------------------------------------------------------------------
@dataclass
class Draft:
    """One game's text in pieces: headers and move tokens, each with its line number."""

    line: int
    headers: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: list[tuple[str, int]] = field(default_factory=list)
    ended: bool = False  # the result token has been read

    def add_header(self, text: str, line: int) -> None:
        match = _HEADER_LINE.match(text.strip())
        if match is None or not _AFTER_HEADER.fullmatch(text.strip()[match.end() :]):
            raise RecordError(f'a header is [Name "value"], not {text.strip()!r}', line)
        name = _KNOWN.get(match.group(1).lower())
        if name is None:
            raise RecordError(f"unknown header {match.group(1)!r}", line)
        if name in self.headers:
            raise RecordError(
                f"a second {name} header (the first is on line {self.headers[name][1]}; "
                "each game's moves, at least its result token, end it before the next "
                "game's headers)",
                line,
            )
        for escape in _ESCAPE.finditer(match.group(2)):
            if escape.group(1) not in '"\\':
                raise RecordError(
                    f"the {name} header has the escape {escape.group()!r}: inside the quotes "
                    'only \\" (a quote) and \\\\ (a backslash) are escapes',
                    line,
                )
        value = _ESCAPE.sub(r"\1", match.group(2))
        if not value.strip():
            raise RecordError(f"the {name} header has no value", line)
        self.headers[name] = (value, line)

    def add_token(self, token: str, line: int) -> None:
        if self.ended:
            raise RecordError(
                f"{token!r} after the result token; a new game begins with its headers", line
            )
        match = _NUMBER.fullmatch(token)
        if match and match.group(2):  # "12.Td": a number glued to its action
            self.tokens.append((token[: match.end(1) + 1], line))
            token = match.group(2)
        self.tokens.append((token, line))
        self.ended = is_result_token(token)

    def last_line(self) -> int:
        lines = [line for _, line in self.tokens] + [line for _, line in self.headers.values()]
        return max(lines, default=self.line)


def scan(text: str) -> list[Draft]:
    """Split a text of records into drafts; raises :class:`RecordError` on bad syntax.

    A game is its header lines, then move tokens up to and including the result token.
    Comments (``{...}``, possibly over several lines, and ``;`` to the end of a line)
    and blank lines are dropped.
    """
    drafts: list[Draft] = []
    draft: Draft | None = None
    comment: int | None = None  # line where an open {comment} began
    # lines end at \n, \r\n or \r only (str.splitlines also ends them at form feeds,
    # U+2028 and others, which would miscount the line numbers of errors)
    for number, raw in enumerate(_LINE_END.split(text.removeprefix("\ufeff")), 1):
        if comment is None and raw.lstrip().startswith("["):
            if draft is None or draft.tokens:
                if draft is not None and not draft.ended:
                    raise RecordError(
                        "headers of a new game, but the moves before them have no result "
                        "token (* for a game that is not over)",
                        number,
                    )
                draft = Draft(number)
                drafts.append(draft)
            draft.add_header(raw, number)
            continue
        for match in _PIECE.finditer(raw):
            piece = match.group()
            if comment is not None:
                if piece == "}":
                    comment = None
            elif piece == ";":
                break
            elif piece == "{":
                comment = number
            elif piece == "}":
                raise RecordError("'}' closes no comment", number)
            elif draft is None:
                raise RecordError(
                    f"{piece!r} before any header: a record begins with its headers, "
                    'such as [Variant "express"]',
                    number,
                )
            else:
                draft.add_token(piece, number)
    if comment is not None:
        raise RecordError("this comment's '{' is never closed by '}'", comment)
    if draft is not None and not draft.ended:
        last = f": its last word is {draft.tokens[-1][0]!r}" if draft.tokens else ""
        raise RecordError(
            f"the record ends without a result token{last}; a result is * (a game that is "
            "not over), the winner's colour such as o, or the colours sharing a draw such "
            "as o=g",
            draft.last_line(),
        )
    return drafts

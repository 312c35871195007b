"""The syntax of game records: lines into headers and move tokens, with line numbers.

This module knows the shape of the text (``docs/records.md``) but not what a header
means or whether an action is legal; :mod:`shiftago.formats.record` gives the meaning
and replays the game. Keeping the line numbers of every piece here is what lets a
broken record be reported where it breaks.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from shiftago.core.actions import Action, Insertion, Scoring
from shiftago.core.errors import N_, ParseError, english, english_colour
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
#: What a header's name may be: a letter, then letters, digits and underscores.
OTHER_HEADER_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_KNOWN: Final[dict[str, str]] = {
    name.lower(): name
    for name in (*(h for h in HEADER_ORDER if h != "*"), *(h for s in SEAT_HEADERS for h in s))
}

#: The known headers by their name in lower case (names are read in any case).
KNOWN_HEADERS: Final = _KNOWN
_HEADER_LINE: Final = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
#: What may follow a header on its line: a comment (``;`` to the end of the line, or a
#: ``{...}`` closed on the line) or nothing.
_AFTER_HEADER: Final = re.compile(r"\s*(\{[^}]*\}\s*)*(;.*)?")
#: An escape in a header's value: a backslash and the character after it (only a quote
#: or a backslash may follow).
_ESCAPE: Final = re.compile(r"\\(.)")
#: What ends a line of a record: \n, \r\n or \r, as a text editor counts lines.
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_PIECE: Final = re.compile(r"[{};()]|[^\s{};()]+")
_NUMBER: Final = re.compile(r"(\d+)\.(.*)")
_RESULT: Final = re.compile(r"\*|[ogbw](?:=[ogbw])*", re.IGNORECASE)


#: How a broken record's problem is said with the line where it is.
AT_LINE: Final = N_("line {line}: {problem}")


class RecordError(ParseError):
    """A broken record. ``line`` is where in the text (None when it was not text).

    ``template`` and ``fields`` are the problem's (as for any :class:`ParseError`);
    ``problem`` is its English text without the line, and :meth:`words` says the line
    too (:data:`AT_LINE`)."""

    def __init__(self, template: str, line: int | None = None, /, **fields: object) -> None:
        self.line = line  # before the message, which says it
        super().__init__(template, **fields)
        self.problem = super().words()  # the English problem, without the line

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.template, self.line, self.fields))

    def words(
        self,
        gettext: Callable[[str], str] = english,
        colour: Callable[[int], str] = english_colour,
    ) -> str:
        """The problem said through ``gettext`` and ``colour``, after its line when it
        has one."""
        problem = super().words(gettext, colour)
        if self.line is None:
            return problem
        return gettext(AT_LINE).format(line=self.line, problem=problem)

    def without_line(self) -> RecordError:
        """The same problem with no line, to be said inside another message that
        names the place its own way."""
        return type(self)(self.template, None, **self.fields)


def _rebuild(
    kind: type[RecordError], template: str, line: int | None, fields: dict[str, object]
) -> RecordError:
    return kind(template, line, **fields)


def is_text_value(text: object) -> bool:
    """Names, events and terminations are one printable line, not blank (they become headers)."""
    return isinstance(text, str) and text.strip() != "" and text.isprintable()


def escape(value: str) -> str:
    """A header value between its quotes: backslash and quote escaped as in PGN."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def parse_date(text: str) -> str:
    """A date as records write it, ``YYYY-MM-DD`` (checked to be a real day)."""
    if not isinstance(text, str) or re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()) is None:
        raise ParseError("{text} is not a date written YYYY-MM-DD", text=repr(text))
    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ParseError("{text} is not a day of the calendar", text=repr(text)) from None


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
            "{text} is not a result: expected * (not over), a colour such as o, "
            "or the colours sharing a draw such as o=g",
            text=repr(text),
        )
    text = text.strip()
    if text == UNFINISHED:
        return text
    seats = [seat_of_colour(c, players) for c in text.split("=")]
    if len(set(seats)) != len(seats):
        raise ParseError("the result {text} names a colour twice", text=repr(text))
    return "=".join(COLOURS[s] for s in sorted(seats))


# --- scanning ------------------------------------------------------------------------
@dataclass
class Draft:
    """One game's text in pieces: headers and move tokens, each with its line number.

    ``headers`` holds the known headers by their written name and the others by the
    name as given, in the order of the text. Among the tokens, a comment is one token
    that starts with ``{`` (its text after it), a mark glued to an action is a token of
    its own, and ``(`` and ``)`` open and close variations.
    """

    line: int
    headers: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: list[tuple[str, int]] = field(default_factory=list)
    ended: bool = False  # the result token has been read
    depth: int = 0  # variations open

    def add_header(self, text: str, line: int) -> None:
        match = _HEADER_LINE.match(text.strip())
        if match is None or not _AFTER_HEADER.fullmatch(text.strip()[match.end() :]):
            raise RecordError(
                'a header is [Name "value"], not {text}', line, text=repr(text.strip())
            )
        name = _KNOWN.get(match.group(1).lower(), match.group(1))
        if name in self.headers:
            raise RecordError(
                "a second {name} header (the first is on line {first}; each game's moves, "
                "at least its result token, end it before the next game's headers)",
                line,
                name=name,
                first=self.headers[name][1],
            )
        for escape in _ESCAPE.finditer(match.group(2)):
            if escape.group(1) not in '"\\':
                raise RecordError(
                    "the {name} header has the escape {escape}: inside the quotes "
                    'only \\" (a quote) and \\\\ (a backslash) are escapes',
                    line,
                    name=name,
                    escape=repr(escape.group()),
                )
        value = _ESCAPE.sub(r"\1", match.group(2))
        if not value.strip():
            raise RecordError("the {name} header has no value", line, name=name)
        self.headers[name] = (value, line)

    def add_token(self, token: str, line: int) -> None:
        if self.ended:
            raise RecordError(
                "{token} after the result token; a new game begins with its headers",
                line,
                token=repr(token),
            )
        match = _NUMBER.fullmatch(token) if "." in token else None
        if match and match.group(2):  # "12.Td": a number glued to its action
            self.tokens.append((token[: match.end(1) + 1], line))
            token = match.group(2)
        mark = _GLUED_MARK.fullmatch(token) if token[-1] in "!?" else None
        if mark is not None:  # "Td!?": a mark glued to its action
            self.tokens += [(mark.group(1), line), (mark.group(2), line)]
            return
        if token == "(":
            self.depth += 1
        elif token == ")":
            if not self.depth:
                raise RecordError("')' closes no variation", line)
            self.depth -= 1
        elif is_result_token(token):
            if self.depth:
                raise RecordError(
                    "the result token {token} inside a variation: close the variation "
                    "with ')' first",
                    line,
                    token=token,
                )
            self.ended = True
        self.tokens.append((token, line))

    def add_comment(self, text: str, line: int) -> None:
        """Keep a ``{comment}`` among the moves (one after the result is dropped: it is
        between games)."""
        if not self.ended:
            self.tokens.append(("{" + text, line))

    def last_line(self) -> int:
        lines = [line for _, line in self.tokens] + [line for _, line in self.headers.values()]
        return max(lines, default=self.line)


#: A mark glued to the end of an action: ``Td!``, ``xa1-e1??``.
_GLUED_MARK: Final = re.compile(r"([^!?]+?)(!!|\?\?|!\?|\?!|!|\?)")


def split_lines(text: str) -> list[str]:
    """The lines of a text: ended at \\n, \\r\\n or \\r only (``str.splitlines`` also
    ends them at form feeds, U+2028 and others, which would miscount the lines of
    errors); a byte order mark at the start is dropped."""
    return _LINE_END.split(text.removeprefix("\ufeff"))


class Scanner:
    """Cuts lines of records into drafts, one line at a time, keeping the line numbers.

    :meth:`feed` gives a draft at the end of the line that holds its result token, so a
    reader can hand the game on before reading further. A :class:`RecordError` raised
    by :meth:`feed` spoils only its game: the scanner then skips to the next game's
    first header line and goes on from there.
    """

    def __init__(self) -> None:
        self.draft: Draft | None = None
        self._comment: int | None = None  # the line where an open {comment} began
        self._comment_text: list[str] = []
        self._skipping: str | None = None  # after an error: "headers", then "moves"
        self._after_game = False  # a game has ended and no header has come since
        self.begun = 0  # how many games have begun (with their first header line)

    def feed(self, raw: str, number: int) -> Draft | None:
        """Read line ``number``; the game it ends, if any."""
        if self._comment is None and raw.lstrip().startswith("["):
            self._header_line(raw, number)
            return None
        if self._skipping == "headers" and raw.strip():
            self._skipping = "moves"
        if self._skipping is not None:
            return None
        try:
            self._move_line(raw, number)
        except RecordError:
            self.draft, self._comment, self._skipping = None, None, "moves"
            raise
        draft = self.draft
        if draft is not None and draft.ended:
            self.draft, self._after_game = None, True
            return draft
        return None

    def finish(self) -> None:
        """The end of the text: what is still open is an error."""
        if self._comment is not None:
            line, self._comment = self._comment, None
            raise RecordError("this comment's '{' is never closed by '}'", line)
        draft, self.draft = self.draft, None
        if draft is not None and not draft.ended and self._skipping is None:
            if draft.tokens:
                last = draft.tokens[-1][0]
                try:
                    Action.parse(last)
                except ParseError:  # a slip in the last action, or a result mistyped
                    raise RecordError(
                        "the record ends without a result token: its last word {word} is not "
                        "an action either; a result is * (a game that is not over), the "
                        "winner's colour such as o, or the colours sharing a draw such as o=g",
                        draft.last_line(),
                        word=repr(last),
                    ) from None
                raise RecordError(
                    "the record ends without a result token: its last word is {word}; a "
                    "result is * (a game that is not over), the winner's colour such as o, "
                    "or the colours sharing a draw such as o=g",
                    draft.last_line(),
                    word=repr(last),
                )
            raise RecordError(
                "the record ends without a result token; a result is * (a game that is not "
                "over), the winner's colour such as o, or the colours sharing a draw such "
                "as o=g",
                draft.last_line(),
            )

    def _header_line(self, raw: str, number: int) -> None:
        if self._skipping == "headers":
            return  # still the headers of a game that is already wrong
        self._skipping, self._after_game = None, False
        unended: RecordError | None = None
        if self.draft is None or self.draft.tokens:
            if self.draft is not None:
                unended = RecordError(
                    "headers of a new game, but the moves before them have no result "
                    "token (* for a game that is not over)",
                    number,
                )
            self.draft = Draft(number)
            self.begun += 1
        try:
            self.draft.add_header(raw, number)
        except RecordError:
            if unended is None:
                self.draft, self._skipping = None, "headers"
                raise
        if unended is not None:
            raise unended

    def _move_line(self, raw: str, number: int) -> None:
        at = 0
        while at < len(raw):
            if self._comment is not None:
                close = raw.find("}", at)
                self._comment_text.append(raw[at:] if close < 0 else raw[at:close])
                if close < 0:
                    return
                if self.draft is not None:
                    self.draft.add_comment(" ".join(self._comment_text), self._comment)
                self._comment, at = None, close + 1
                continue
            match = _PIECE.search(raw, at)
            if match is None:
                return
            piece, at = match.group(), match.end()
            if piece == ";":
                return
            if piece == "{":
                self._comment, self._comment_text = number, []
            elif piece == "}":
                raise RecordError("'}' closes no comment", number)
            elif self.draft is None:
                if self._after_game:
                    raise RecordError(
                        "{token} after the result token; a new game begins with its headers",
                        number,
                        token=repr(piece),
                    )
                raise RecordError(
                    "{token} before any header: a record begins with its headers, "
                    'such as [Variant "express"]',
                    number,
                    token=repr(piece),
                )
            else:
                self.draft.add_token(piece, number)


def scan(text: str) -> list[Draft]:
    """Split a text of records into drafts; raises the first :class:`RecordError` of
    its syntax. Blank lines and ``;`` comments are dropped; ``{...}`` comments among the
    moves are kept as tokens."""
    scanner = Scanner()
    drafts = []
    for number, raw in enumerate(split_lines(text), 1):
        draft = scanner.feed(raw, number)
        if draft is not None:
            drafts.append(draft)
    scanner.finish()
    return drafts

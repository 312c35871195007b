"""Reading game records: headers given their meaning, actions replayed, errors by line.

:func:`parse_record` and :func:`parse_records` scan the text into drafts
(:mod:`record_syntax`) and hand each to :func:`build`, which checks every header at its
own line and replays the actions through the rules, so a record that reads is a game
that was played and the first thing wrong in it is the thing reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import get_close_matches
from typing import NoReturn, TypeVar

from shiftago.core.actions import Action
from shiftago.core.errors import Colour, ParseError, ShiftagoError
from shiftago.core.game import Game, draw_first_seat
from shiftago.core.rules import MAX_HANDICAP, Rules, Variant, seat_of_colour
from shiftago.core.state import State
from shiftago.formats.record_model import (
    KINDS,
    Kind,
    Record,
    Seat,
    new_game,
    play,
    position_text,
    result_problem,
)
from shiftago.formats.record_notes import Note, Variation, normal_notes, parse_nag
from shiftago.formats.record_syntax import (
    KNOWN_HEADERS,
    SEAT_HEADERS,
    Draft,
    RecordError,
    is_text_value,
    parse_date,
    parse_result,
    scan,
    starts_turn,
    turn_number,
)

T = TypeVar("T")
_NAMES = frozenset(KNOWN_HEADERS.values())


def _number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A converter to a whole number from ``low`` to ``high`` (either may be open)."""

    def convert(text: str) -> int:
        if re.fullmatch(r"[-+]?\d+", text.strip()) is None:
            raise ParseError("{text} is not a whole number", text=repr(text))
        value = int(text)
        if low is not None and high is not None and not low <= value <= high:
            raise ParseError("{value} is not from {low} to {high}", value=value, low=low, high=high)
        if low is not None and value < low:
            raise ParseError("{value} is less than {low}", value=value, low=low)
        return value

    return convert


def _kind(text: str) -> Kind:
    for kind in KINDS:
        if text.strip().lower() == kind:
            return kind
    raise ParseError("{text} is not human or computer", text=repr(text))


def _text(text: str) -> str:
    if not is_text_value(text):
        raise ParseError("{text} is not one printable line", text=repr(text))
    return text


class _Headers:
    """A draft's headers, each converted on request and reported at its own line."""

    def __init__(self, draft: Draft) -> None:
        self.raw = draft.headers

    def get(self, name: str, convert: Callable[[str], T]) -> T | None:
        if name not in self.raw:
            return None
        text, line = self.raw[name]
        try:
            return convert(text)
        except ValueError as error:  # ParseError included
            raise RecordError("bad {name} header: {error}", line, name=name, error=error) from None

    def present(self, name: str, convert: Callable[[str], T]) -> T:
        """A header the draft has, converted."""
        value = self.get(name, convert)
        assert value is not None, name
        return value

    def line(self, name: str) -> int:
        return self.raw[name][1]


def parse_records(text: str) -> list[Record]:
    """Every record of a text (a file of games separated by blank lines), replayed."""
    return [build(draft) for draft in scan(text)]


def parse_record(text: str) -> Record:
    """The one record of ``text``; raises :class:`RecordError` saying which line is broken."""
    drafts = scan(text)
    if not drafts:
        raise RecordError("there is no record in the text")
    if len(drafts) > 1:
        raise RecordError(
            "a second game begins here; read several games with parse_records", drafts[1].line
        )
    return build(drafts[0])


def build(draft: Draft) -> Record:
    """Give the headers their meaning, then replay the tokens; errors name the line."""
    headers = _Headers(draft)
    start = headers.get("Position", State.from_position)
    variant = headers.get("Variant", Variant.parse)
    players = headers.get("Players", _number(2, 4))
    for name, value, implied in (
        ("Variant", variant, start and start.rules.variant),
        ("Players", players, start and start.rules.players),
    ):
        if value is None and start is None:
            _missing(draft, ParseError("the record has no {name} header", name=name), (name,))
        if start is not None and value is not None and value != implied:
            raise RecordError(
                "{name} is {value}, but the Position's is {implied}",
                headers.line(name),
                name=name,
                value=value,
                implied=implied,
            )
    if start is not None:
        variant, players = start.rules.variant, start.rules.players
    assert variant is not None and players is not None
    count = players

    def handicap(text: str) -> tuple[int, ...]:
        parts = text.split(",")
        if len(parts) != count:
            raise ParseError(
                "{text} does not have one number per seat ({count})", text=repr(text), count=count
            )
        return tuple(_number(0, MAX_HANDICAP)(p) for p in parts)

    rules = Rules(
        variant,
        players,
        headers.get("Handicap", handicap) or (),
        headers.get("ActionLimit", _number(1)),
    )
    first = headers.get("First", lambda text: seat_of_colour(text, count))
    seed = headers.get("Seed", _number())
    if start is not None and first is not None:
        raise RecordError("a game set up from a Position has no First", headers.line("First"))
    if start is None and first is None:
        if seed is None:
            _missing(
                draft,
                ParseError(
                    "the record needs First, Seed or Position: where the game starts, such as "
                    '[First "o"] for orange first on the empty board'
                ),
                ("First", "Seed", "Position"),
            )
        first = draw_first_seat(players, seed)
    position = None if start is None else position_text(start)
    seats = tuple(_seat(headers, seat, players) for seat in range(len(SEAT_HEADERS)))
    termination = headers.get("Termination", _text)
    header_result = headers.get("Result", lambda text: parse_result(text, count))
    game = new_game(rules, first, position, seed)
    result, line = _replay(game, draft, termination, header_result)
    return Record(
        rules,
        tuple(game.history),
        first=None if position is not None else first,
        position=position,
        seed=seed,
        seats=seats[:players],
        date=headers.get("Date", parse_date),
        event=headers.get("Event", _text),
        result=result,
        termination=termination,
        comment=" ".join(line.comment),
        notes=line.notes(),
        other_headers=tuple(
            (name, headers.present(name, _text)) for name in draft.headers if name not in _NAMES
        ),
    )


def _missing(draft: Draft, problem: ParseError, wanted: tuple[str, ...]) -> NoReturn:
    """Raise the error of a missing header (``problem``); a header of another name that
    looks like a misspelling of it (``Frist``) is named, at its line."""
    for name, (_, line) in draft.headers.items():
        if name not in _NAMES and get_close_matches(name.lower(), [w.lower() for w in wanted]):
            raise RecordError(
                "{problem} (is {name} a misspelt header?)", line, problem=problem, name=repr(name)
            )
    raise RecordError("{problem}", draft.line, problem=problem)


def _seat(headers: _Headers, seat: int, players: int) -> Seat:
    names = SEAT_HEADERS[seat]
    if seat >= players:
        for name in names:
            if name in headers.raw:
                raise RecordError(
                    "there is no {colour} seat in a game of {players} players",
                    headers.line(name),
                    colour=Colour(seat),
                    players=players,
                )
        return Seat()
    kind = headers.get(names[1], _kind)
    level = headers.get(names[2], _number(1))
    if level is not None and kind == "human":
        raise RecordError("a human seat has no level", headers.line(names[2]))
    return Seat(headers.get(names[0], _text), kind, level)


class _Line:
    """A line being read: its actions and, per action, what was said about it."""

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.nags: list[list[int]] = []
        self.comments: list[list[str]] = []
        self.variations: list[list[Variation]] = []
        self.comment: list[str] = []  # before the first action
        self.contexts: list[tuple[int, Action | None]] = []  # turn count and action before each

    def add(self, action: Action) -> None:
        self.actions.append(action)
        self.nags.append([])
        self.comments.append([])
        self.variations.append([])

    def notes(self) -> tuple[Note, ...]:
        if not (any(self.nags) or any(self.comments) or any(self.variations)):
            return ()
        return normal_notes(
            (
                Note(tuple(nags), " ".join(comments), tuple(variations))
                for nags, comments, variations in zip(
                    self.nags, self.comments, self.variations, strict=True
                )
            ),
            len(self.actions),
        )


def _read_line(
    game: Game, tokens: list[tuple[str, int]], at: int, turn: int, previous: Action | None
) -> tuple[_Line, int]:
    """Read and play the tokens of a line from ``at``: the main line up to the result
    token, or a variation up to its ``)``. Returns the line and where reading stopped.

    The actions are kept as written; :class:`Record` gives 2-player scorings their one
    spelling."""
    line = _Line()
    pending: tuple[int, int] | None = None  # a turn number token waiting for its action
    played = len(game.history)  # the actions before the line
    last = len(tokens) - 1
    while True:
        token, number_line = tokens[at]
        if token == ")" or at == last:
            break
        at += 1
        first = token[0]
        if first == "{":
            (line.comments[-1] if line.actions else line.comment).append(token[1:])
            continue
        if first in "$!?(":
            _annotate(line, game, tokens, token, number_line, pending)
            if token == "(":
                at = _variation(line, game, tokens, at)
            continue
        if token[-1] == ".":
            number = turn_number(token)
            if number is not None:
                if pending is not None:
                    raise RecordError(
                        "turn number {number}. after turn number {previous}.",
                        number_line,
                        number=number,
                        previous=pending[0],
                    )
                pending = (number, number_line)
                continue
        try:
            action = Action.parse(token)
        except ShiftagoError as error:
            raise RecordError("{error}", number_line, error=error) from None
        starts = starts_turn(previous, action)
        line.contexts.append((turn, previous))
        turn += starts
        if pending is not None:
            _check_number(pending, starts, turn, action)
            pending = None
        play(game, action, played + len(line.actions) + 1, turn, number_line, starts)
        line.add(action)
        previous = action
    if pending is not None:
        raise RecordError(
            "turn number {number}. has no action after it", pending[1], number=pending[0]
        )
    if token == ")" and not line.actions:
        raise RecordError("a variation holds one action at least", number_line)
    return line, at


def _annotate(
    line: _Line,
    game: Game,
    tokens: list[tuple[str, int]],
    token: str,
    number_line: int,
    pending: tuple[int, int] | None,
) -> None:
    """A mark, ``$n`` or ``(``: it must follow an action of the line (a mark or ``$n``
    is kept with it here)."""
    nag = parse_nag(token)
    if nag is None and token != "(":
        raise RecordError(
            "{token} is not an action, a mark (! ? !! ?? !? ?!) or an annotation $0-$255",
            number_line,
            token=repr(token),
        )
    if pending is not None:
        raise RecordError(
            "turn number {number}. has no action after it", pending[1], number=pending[0]
        )
    if not line.actions:
        if token == "(":
            raise RecordError(
                "a variation comes before any action: it belongs after the action it is about",
                number_line,
            )
        raise RecordError(
            "the annotation {token} comes before any action: it belongs after the action "
            "it is about",
            number_line,
            token=token,
        )
    if nag is not None:
        line.nags[-1].append(nag)


def _variation(line: _Line, game: Game, tokens: list[tuple[str, int]], at: int) -> int:
    """Read the variation that begins at ``at`` (after its ``(``), played on a copy of
    the game before the line's last action, which it replaces; where reading goes on."""
    twin = game.copy()
    twin.undo()
    variation, at = _read_line(twin, tokens, at, *line.contexts[-1])
    line.variations[-1].append(
        Variation(tuple(variation.actions), variation.notes(), " ".join(variation.comment))
    )
    return at + 1  # past its ")"


def _check_number(pending: tuple[int, int], starts: bool, turn: int, action: Action) -> None:
    if not starts:
        raise RecordError(
            "turn number {number}. before {action}, which does not begin a turn "
            "(a scoring, and the insertion after it, belong to the turn of the "
            "insertion that made the line)",
            pending[1],
            number=pending[0],
            action=str(action),
        )
    if pending[0] != turn:
        raise RecordError(
            "turn number {number}. where turn {turn} begins (every seat's turn "
            "has a number of its own: 1. L1 2. R7 3. L2)",
            pending[1],
            number=pending[0],
            turn=turn,
        )


def _replay(
    game: Game,
    draft: Draft,
    termination: str | None,
    header_result: str | None,
) -> tuple[str, _Line]:
    """Play the tokens (variations on copies), check turn numbers and the result
    token; return the result and the main line."""
    line, _ = _read_line(game, draft.tokens, 0, 0, None)
    token, number_line = draft.tokens[-1]
    try:
        result = parse_result(token, game.rules.players)
    except ShiftagoError as error:
        raise RecordError("{error}", number_line, error=error) from None
    problem = result_problem(game, result, termination)
    if problem is not None:
        raise RecordError("{problem}", number_line, problem=problem)
    if header_result is not None and header_result != result:
        raise RecordError(
            "the result token {result} differs from the Result header {header}",
            number_line,
            result=result,
            header=header_result,
        )
    return result, line

"""Reading game records: headers given their meaning, actions replayed, errors by line.

:func:`parse_record` and :func:`parse_records` scan the text into drafts
(:mod:`record_syntax`) and hand each to :func:`build`, which checks every header at its
own line and replays the actions through the rules, so a record that reads is a game
that was played and the first thing wrong in it is the thing reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from shiftago.core.actions import Action
from shiftago.core.errors import ShiftagoError
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
from shiftago.formats.record_syntax import (
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


def _number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A converter to a whole number from ``low`` to ``high`` (either may be open)."""

    def convert(text: str) -> int:
        if re.fullmatch(r"[-+]?\d+", text.strip()) is None:
            raise ValueError(f"{text!r} is not a whole number")
        value = int(text)
        if low is not None and high is not None and not low <= value <= high:
            raise ValueError(f"{value} is not from {low} to {high}")
        if low is not None and value < low:
            raise ValueError(f"{value} is less than {low}")
        return value

    return convert


def _kind(text: str) -> Kind:
    for kind in KINDS:
        if text.strip().lower() == kind:
            return kind
    raise ValueError(f"{text!r} is not human or computer")


def _text(text: str) -> str:
    if not is_text_value(text):
        raise ValueError(f"{text!r} is not one printable line")
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
            raise RecordError(f"bad {name} header: {error}", line) from None

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
            raise RecordError(f"the record has no {name} header", draft.line)
        if start is not None and value is not None and value != implied:
            raise RecordError(
                f"{name} is {value}, but the Position's is {implied}", headers.line(name)
            )
    if start is not None:
        variant, players = start.rules.variant, start.rules.players
    assert variant is not None and players is not None
    count = players

    def handicap(text: str) -> tuple[int, ...]:
        parts = text.split(",")
        if len(parts) != count:
            raise ValueError(f"{text!r} does not have one number per seat ({count})")
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
            raise RecordError(
                "the record needs First, Seed or Position: where the game starts, such as "
                '[First "o"] for orange first on the empty board',
                draft.line,
            )
        first = draw_first_seat(players, seed)
    position = None if start is None else position_text(start)
    seats = tuple(_seat(headers, seat, players) for seat in range(len(SEAT_HEADERS)))
    termination = headers.get("Termination", _text)
    header_result = headers.get("Result", lambda text: parse_result(text, count))
    game = new_game(rules, first, position, seed)
    result = _replay(game, draft, termination, header_result)
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
    )


def _seat(headers: _Headers, seat: int, players: int) -> Seat:
    names = SEAT_HEADERS[seat]
    if seat >= players:
        for name in names:
            if name in headers.raw:
                raise RecordError(
                    f"there is no {name.removesuffix('Kind').removesuffix('Level').lower()} "
                    f"seat in a game of {players} players",
                    headers.line(name),
                )
        return Seat()
    kind = headers.get(names[1], _kind)
    level = headers.get(names[2], _number(1))
    if level is not None and kind == "human":
        raise RecordError("a human seat has no level", headers.line(names[2]))
    return Seat(headers.get(names[0], _text), kind, level)


def _replay(
    game: Game,
    draft: Draft,
    termination: str | None,
    header_result: str | None,
) -> str:
    """Play the tokens, check turn numbers and the result token; return the result."""
    previous: Action | None = None
    pending: tuple[int, int] | None = None  # a turn number token waiting for its action
    turn = 0
    for token, line in draft.tokens[:-1]:
        number = turn_number(token)
        if number is not None:
            if pending is not None:
                raise RecordError(f"turn number {number}. after turn number {pending[0]}.", line)
            pending = (number, line)
            continue
        try:
            action = Action.parse(token)
        except ShiftagoError as error:
            raise RecordError(str(error), line) from None
        starts = starts_turn(previous, action)
        turn += starts
        if pending is not None:
            if not starts:
                raise RecordError(
                    f"turn number {pending[0]}. before {action}, which does not begin a turn "
                    "(a scoring, and the insertion after it, belong to the turn of the "
                    "insertion that made the line)",
                    pending[1],
                )
            if pending[0] != turn:
                raise RecordError(
                    f"turn number {pending[0]}. where turn {turn} begins (every seat's turn "
                    "has a number of its own: 1. L1 2. R7 3. L2)",
                    pending[1],
                )
            pending = None
        play(game, action, len(game.history) + 1, turn, line)
        previous = action
    token, line = draft.tokens[-1]
    if pending is not None:
        raise RecordError(f"turn number {pending[0]}. has no action after it", pending[1])
    try:
        result = parse_result(token, game.rules.players)
    except ShiftagoError as error:
        raise RecordError(str(error), line) from None
    problem = result_problem(game, result, termination)
    if problem is not None:
        raise RecordError(problem, line)
    if header_result is not None and header_result != result:
        raise RecordError(
            f"the result token {result} differs from the Result header {header_result}", line
        )
    return result

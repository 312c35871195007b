"""The game record's value and its text form written: :class:`Record`, :class:`Seat`,
and what replaying and writing a record need.

:mod:`shiftago.formats.record` gathers the public names of records; reading the text form
is in :mod:`record_read`, which builds on this module.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from shiftago.core.actions import Action
from shiftago.core.errors import N_, Colour, ParseError, Phrase, ShiftagoError
from shiftago.core.game import Game, draw_first_seat
from shiftago.core.outcome import EndReason, Outcome
from shiftago.core.rules import COLOURS, Rules
from shiftago.core.state import Phase, State
from shiftago.formats.record_notes import (
    Note,
    canonical_line,
    clean_comment,
    line_pieces,
    normal_notes,
)
from shiftago.formats.record_syntax import (
    HEADER_ORDER,
    KNOWN_HEADERS,
    OTHER_HEADER_NAME,
    SEAT_HEADERS,
    UNFINISHED,
    RecordError,
    escape,
    is_text_value,
    parse_date,
    parse_result,
    starts_turn,
    turn_numbers,
)

Kind = Literal["human", "computer"]
KINDS: Final[tuple[Kind, ...]] = ("human", "computer")
#: Movetext lines are filled up to this width.
WIDTH: Final = 79


@dataclass(frozen=True)
class Seat:
    """Who played a seat: a name, ``human`` or ``computer``, and a computer's level.

    Every field may be unknown (None). A level implies a computer, so ``Seat(level=3)``
    equals ``Seat(kind="computer", level=3)``.
    """

    name: str | None = None
    kind: Kind | None = None
    level: int | None = None

    def __post_init__(self) -> None:
        if self.name is not None and not is_text_value(self.name):
            raise ValueError(f"a name is one printable line, not blank: {self.name!r}")
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"a seat's kind is human or computer, not {self.kind!r}")
        if self.level is not None:
            if type(self.level) is not int or self.level < 1:
                raise ValueError(f"a level is a whole number from 1 up, not {self.level!r}")
            if self.kind is None:
                object.__setattr__(self, "kind", "computer")
            elif self.kind != "computer":
                raise ValueError("only a computer seat has a level")


@dataclass(frozen=True)
class Record:
    """A game record. Exactly one of ``first`` (a seat) and ``position`` is given.

    ``result`` is a result token: ``*`` while the game is not over, else the winner's
    colour (``o``) or the colours sharing a draw in seat order (``o=g``). A game the
    rules did not end may carry another result only with a ``termination`` that says
    why (``resignation``, ``time forfeit``, ...). ``date`` is ``YYYY-MM-DD``. Construction
    checks each field but does not replay; :meth:`to_game` replays and checks that the
    actions, their variations and the result fit.

    What PGN keeps beside the moves is kept too: ``comment`` (before the first action),
    ``notes`` (one :class:`Note` per action, or none when no action has one: marks,
    numeric annotations, comments, variations) and ``other_headers`` (headers of other
    names, as ``(name, value)`` pairs in the order of the text).
    """

    rules: Rules
    actions: tuple[Action, ...] = ()
    first: int | None = None
    position: str | None = None
    seed: int | None = None
    seats: tuple[Seat, ...] = ()
    date: str | None = None
    event: str | None = None
    result: str = UNFINISHED
    termination: str | None = None
    comment: str | None = None
    notes: tuple[Note, ...] = ()
    other_headers: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be Rules, not {rules!r}")
        actions = tuple(self.actions)
        if not all(isinstance(a, Action) for a in actions):
            raise ValueError("actions must be Action values (use Action.parse for text)")
        notes = normal_notes(self.notes, len(actions))
        if rules.keeps_both_ends:  # one spelling per scoring, so equal games compare equal
            actions, notes = canonical_line(actions, notes)
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "comment", clean_comment(self.comment))
        object.__setattr__(self, "other_headers", _other_headers(self.other_headers))
        if (self.first is None) == (self.position is None):
            raise ValueError("a record has either the first seat or a set-up position")
        if self.first is not None and (
            type(self.first) is not int or not 0 <= self.first < rules.players
        ):
            raise ValueError(f"the first seat is 0-{rules.players - 1}, not {self.first!r}")
        if self.position is not None:
            state = State.from_position(self.position, rules)
            object.__setattr__(self, "position", position_text(state))
        if self.seed is not None and type(self.seed) is not int:
            raise ValueError(f"a seed is a whole number, not {self.seed!r}")
        seats = tuple(self.seats) or (Seat(),) * rules.players
        if len(seats) != rules.players or not all(isinstance(s, Seat) for s in seats):
            raise ValueError(f"seats needs one Seat per seat ({rules.players})")
        object.__setattr__(self, "seats", seats)
        if self.date is not None:
            object.__setattr__(self, "date", parse_date(self.date))
        for name in ("event", "termination"):
            value = getattr(self, name)
            if value is not None and not is_text_value(value):
                raise ValueError(f"{name} is one printable line, not blank: {value!r}")
        object.__setattr__(self, "result", parse_result(self.result, rules.players))

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        names: Sequence[str | None] | None = None,
        levels: Sequence[int | None] | None = None,
        seats: Sequence[Seat] | None = None,
        date: datetime.date | str | None = None,
        event: str | None = None,
        result: str | None = None,
        termination: str | None = None,
    ) -> Record:
        """The record of ``game`` so far.

        Name the players with ``seats``, or with ``names`` and ``levels`` (one per seat;
        with ``levels``, a seat with a level is a computer and one without is a human).
        ``result`` defaults to the game's own; a different one needs a ``termination``.
        """
        players = game.rules.players
        if seats is None:
            seats = _seats_of(players, names, levels)
        elif names is not None or levels is not None:
            raise ValueError("give seats, or names and levels, not both")
        if result is None:
            result = game.outcome.result() if game.outcome is not None else UNFINISHED
        record = cls(
            game.rules,
            tuple(game.history),
            first=game.first,
            position=None if game.first is not None else position_text(game.start),
            seed=lot_seed(game),
            seats=tuple(seats),
            date=date.isoformat() if isinstance(date, datetime.date) else date,
            event=event,
            result=result,
            termination=termination,
        )
        problem = result_problem(game, record.result, termination)
        if problem is not None:
            raise RecordError("{problem}", problem=problem)
        return record

    def new_game(self) -> Game:
        """The game as it was before the first action."""
        return new_game(self.rules, self.first, self.position, self.seed)

    def to_game(self) -> Game:
        """Replay the actions (and check the variations); a broken record raises
        :class:`RecordError` saying where."""
        game = self.new_game()
        play_line(game, self.actions, self.notes)
        problem = result_problem(game, self.result, self.termination)
        if problem is not None:
            raise RecordError("{problem}", problem=problem)
        return game

    @property
    def names(self) -> tuple[str | None, ...]:
        """Each seat's player name (None where unknown)."""
        return tuple(seat.name for seat in self.seats)

    @property
    def levels(self) -> tuple[int | None, ...]:
        """Each seat's computer level (None for a human or where unknown)."""
        return tuple(seat.level for seat in self.seats)

    def turns(self) -> list[int]:
        """The turn number of each action, as the text form numbers them."""
        return turn_numbers(self.actions)

    def __str__(self) -> str:
        return format_record(self)


# --- replaying ----------------------------------------------------------------------
def lot_seed(game: Game) -> int | None:
    """The game's seed as a record's ``Seed``: the seed of the lot that drew its first
    seat. A game whose first seat was chosen (its seed then serves something else, such
    as a computer's play) or that starts from a position has none to write."""
    seed = game.seed
    if seed is None or game.first is None:
        return None
    return seed if draw_first_seat(game.rules.players, seed) == game.first else None


def new_game(rules: Rules, first: int | None, position: str | None, seed: int | None) -> Game:
    """A game from the empty board with ``first`` to start, or from a set-up position."""
    if position is None:
        return Game(rules, first=first, seed=seed)
    # Handing over the State (not the text with the rules) also works for a set-up
    # position that is over at once, whose own position string cannot be set up again.
    return Game(None, position=State.from_position(position, rules), seed=seed)


def play_line(
    game: Game,
    actions: tuple[Action, ...],
    notes: tuple[Note, ...],
    turn: int = 0,
    previous: Action | None = None,
) -> None:
    """Play a line on ``game`` and check its variations, each on a copy of the game
    before the action it replaces; errors name the turn and the action number."""
    for index, action in enumerate(actions):
        before = turn
        starts = starts_turn(previous, action)
        turn += starts
        for variation in notes[index].variations if notes else ():
            twin = game.copy()
            play_line(twin, variation.actions, variation.notes, before, previous)
        play(game, action, len(game.history) + 1, turn, starts=starts)
        previous = action


def _other_headers(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Headers of other names, checked: a name of letters, digits and _ that is not a
    known header's, each once, with a value of one printable line."""
    checked: list[tuple[str, str]] = []
    seen = set()
    for pair in pairs:
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise ValueError(f"other headers are (name, value) pairs, not {pair!r}")
        name, value = pair
        if not isinstance(name, str) or OTHER_HEADER_NAME.fullmatch(name) is None:
            raise ValueError(f"a header's name is letters, digits and _, not {name!r}")
        if name.lower() in KNOWN_HEADERS:
            raise ValueError(f"{name} is a header of the record's own fields")
        if name in seen:
            raise ValueError(f"the header {name} is given twice")
        seen.add(name)
        if not is_text_value(value):
            raise ValueError(f"the {name} header's value is one printable line, not {value!r}")
        checked.append((name, value))
    return tuple(checked)


def play(
    game: Game,
    action: Action,
    number: int,
    turn: int,
    line: int | None = None,
    starts: bool = False,
) -> None:
    """Play one action of a record, naming the turn and action number if it is illegal.
    ``starts``: the action was counted as the first of ``turn``; with a scoring due it is
    still in the turn before (the scorer's, as the record numbers it)."""
    try:
        game.play(action)
    except ShiftagoError as error:
        if starts and game.state.phase is Phase.SCORE:
            turn -= 1
        raise RecordError(
            "turn {turn}, action {number}: {error}", line, turn=turn, number=number, error=error
        ) from None


def position_text(state: State) -> str:
    """The position string a record keeps for its set-up position.

    A set-up insert position with a full board or an empty supply is over at once, and
    the core writes its phase as ``over``, which cannot be set up; the record keeps the
    ``insert`` it was set up with (that state is otherwise unchanged, skips included).
    """
    text = state.position()
    if state.phase is Phase.OVER:
        fields = text.split(" ")
        fields[4] = Phase.INSERT.value
        text = " ".join(fields)
    return text


# --- results ------------------------------------------------------------------------
def describe(outcome: Outcome) -> str:
    """An outcome in words: ``o won (line)``, ``a draw of o=g (board full)``."""
    return _result_phrase(outcome.result(), outcome.reason.value)


def result_words(record: Record, game: Game) -> str:
    """The result of a record in words: the rules' outcome (:func:`describe`), else the
    result its termination gave (``o won (resignation)``, ``no result (aborted)``),
    else ``not over``."""
    if game.outcome is not None:
        return describe(game.outcome)
    if record.termination is None:
        return "not over"
    return _result_phrase(record.result, record.termination)


def _result_phrase(result: str, why: str) -> str:
    """A result token in words with the reason: ``o won (why)``, ``a draw of o=g (why)``,
    ``no result (why)`` for none."""
    if result in (UNFINISHED, ""):
        return f"no result ({why})"
    if "=" in result:
        return f"a draw of {result} ({why})"
    return f"{result} won ({why})"


#: How the rules ended a game, said in an error about a record's result: a win by the
#: reason, and a draw (or a win shared on points) by the reason.
_WON: Final = {
    EndReason.LINE: N_("{colour} won with a line"),
    EndReason.POINTS: N_("{colour} won by reaching 10 points"),
    EndReason.BOARD_FULL: N_("{colour} won on points when the board was full"),
    EndReason.NO_MARBLES: N_("{colour} won on points when the player to move had no marble left"),
    EndReason.ACTION_LIMIT: N_("{colour} won on points when the action limit was reached"),
}
_SHARED: Final = {
    EndReason.LINE: N_("{colours} shared the game"),  # never: a line has one owner
    EndReason.POINTS: N_("{colours} shared the game"),  # never: 10 points end a turn of one
    EndReason.BOARD_FULL: N_("{colours} shared the game when the board was full"),
    EndReason.NO_MARBLES: N_(
        "{colours} shared the game when the player to move had no marble left"
    ),
    EndReason.ACTION_LIMIT: N_("{colours} shared the game when the action limit was reached"),
}
#: Two to four colours in a row, the last two joined by the language's "and".
_COLOURS: Final = {
    2: N_("{first} and {last}"),
    3: N_("{first}, {second} and {last}"),
    4: N_("{first}, {second}, {third} and {last}"),
}
_PLACES: Final = ("first", "second", "third")


def outcome_phrase(outcome: Outcome) -> Phrase:
    """How the rules ended the game, for a reader in any language (``orange won with a
    line``); :func:`describe` is the record's short English form."""
    if outcome.winner is not None:
        return Phrase(_WON[outcome.reason], colour=Colour(outcome.winner))
    *before, last = outcome.winners
    places = {place: Colour(seat) for place, seat in zip(_PLACES, before, strict=False)}
    colours = Phrase(_COLOURS[len(outcome.winners)], **places, last=Colour(last))
    return Phrase(_SHARED[outcome.reason], colours=colours)


def result_problem(game: Game, result: str, termination: str | None) -> ParseError | None:
    """What is wrong with ``result`` for the replayed ``game`` (an error to raise with
    the place it was found), or None."""
    outcome = game.outcome
    if outcome is not None:
        if termination is not None:
            return ParseError(
                "the rules ended the game ({outcome}), so it has no termination {termination}",
                outcome=outcome_phrase(outcome),
                termination=repr(termination),
            )
        if result != outcome.result():
            return ParseError(
                "the result is {result}, but {outcome}",
                result=result,
                outcome=outcome_phrase(outcome),
            )
        return None
    if result != UNFINISHED and termination is None:
        return ParseError(
            "the result is {result}, but the game is not over: its result is * "
            "(or give the termination that decided it, such as resignation)",
            result=result,
        )
    return None


def _seats_of(
    players: int, names: Sequence[str | None] | None, levels: Sequence[int | None] | None
) -> tuple[Seat, ...]:
    for what, values in (("names", names), ("levels", levels)):
        if values is not None and len(values) != players:
            raise ValueError(f"{what} needs one entry per seat ({players}), got {len(values)}")
    seats = []
    for seat in range(players):
        name = names[seat] if names is not None else None
        if levels is None:
            seats.append(Seat(name))
        else:
            level = levels[seat]
            seats.append(Seat(name, "human" if level is None else "computer", level))
    return tuple(seats)


# --- writing -------------------------------------------------------------------------
def format_record(record: Record) -> str:
    """The text form: header lines, a blank line, the numbered actions and the result."""
    rules = record.rules
    values: dict[str, str | None] = {
        "Event": record.event,
        "Date": record.date,
        "Variant": rules.variant.value,
        "Players": str(rules.players),
        "Handicap": ",".join(map(str, rules.handicap)) if any(rules.handicap) else None,
        "ActionLimit": None if rules.action_limit is None else str(rules.action_limit),
        "First": None if record.first is None else COLOURS[record.first],
        "Position": record.position,
        "Seed": None if record.seed is None else str(record.seed),
        "Termination": record.termination,
        "Result": record.result,
    }
    headers: list[tuple[str, str | None]] = []
    for name in HEADER_ORDER:
        if name != "*":
            headers.append((name, values[name]))
            continue
        for seat, names in zip(record.seats, SEAT_HEADERS, strict=False):
            level = None if seat.level is None else str(seat.level)
            headers.extend(zip(names, (seat.name, seat.kind, level), strict=True))
    headers += record.other_headers
    lines = [f'[{name} "{escape(value)}"]' for name, value in headers if value is not None]
    pieces = [*line_pieces(record.actions, record.notes, record.comment), record.result]
    return "\n".join([*lines, "", *_fill(pieces)])


def format_records(records: Iterable[Record]) -> str:
    """Several records as one text (a file): blank lines between, a newline at the end."""
    return "".join(format_record(r) + "\n\n" for r in records).removesuffix("\n")


def _fill(pieces: list[str]) -> list[str]:
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + 1 + len(piece) > WIDTH:
            lines.append(piece)
        else:
            lines[-1] += " " + piece
    return lines

"""A game as the database keeps it (:class:`StoredGame`), and how its fields map to the
columns of the ``games`` row, declared once.

A field kept as it is in a column of its own name is copied both ways by name (found
from the dataclass and the table); the few kept in another form (a tuple as ``"0,2,0"``,
the clock in seven columns, seats as bits) are declared in :data:`CONVERTED`, each with
its writer and its reader. The store's insert, its reader and the check that a new game
fits its columns (:func:`check_storable`) all go through :func:`game_columns` and
:func:`stored_game`, so adding a field to a game is a column in ``db/schema.py``, a field
here, and a migration.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Final

from shiftago.formats.record_syntax import SEAT_HEADERS
from shiftago.interfaces.server.db.schema import ActionRow, GameRow, SeatRow
from shiftago.interfaces.server.db.storable import Unstorable, problem
from shiftago.interfaces.server.db.store import epoch, from_epoch, same_named, utc
from shiftago.match.clock import Clock, TimeControl, parse_remaining, remaining_text


@dataclass
class StoredSeat:
    kind: str  # human | computer
    name: str
    level: int | None = None
    token_hash: str | None = None
    #: The account that holds the seat, and its name (None for a guest or the computer).
    account_id: int | None = None
    account: str | None = None
    #: When the seat's person first came (its link followed, its seek filled); None for
    #: the computer and until then.
    opened: dt.datetime | None = None


@dataclass
class StoredGame:
    """A game as stored: its settings, seats and actions (in notation)."""

    id: str
    variant: str
    players: int
    handicap: tuple[int, ...]
    first: int | None
    position: str | None
    seed: int | None
    action_limit: int | None
    public: bool
    created: dt.datetime
    updated: dt.datetime
    seats: list[StoredSeat]
    actions: list[str] = field(default_factory=list)
    result: str | None = None
    termination: str | None = None
    previous_id: str | None = None
    next_id: str | None = None
    tournament_target: int | None = None
    tournament_wins: tuple[int, ...] | None = None
    status: str = ""
    finished: bool = False
    #: Counts every stored change (see :class:`~.db.store.Conflict`).
    revision: int = 0
    #: The address that created the game (limits, the computer's fair share).
    owner: str | None = None
    #: Whether the game changes its accounts' ratings when it ends.
    rated: bool = False
    #: The game's clock as last stored (None for an untimed game).
    clock: Clock | None = None
    #: The seconds of the server's last pause that the clock was shifted by (charged to
    #: nobody); None when there was none.
    clock_paused: float | None = None
    #: The seat that offers a draw now, if any.
    draw_offer: int | None = None
    #: The seat whose draw offer was declined and the game's version then: it may offer
    #: again once an action has been played.
    draw_declined: tuple[int, int] | None = None
    #: The seat that ended a game the rules did not end (resigned, aborted, flagged).
    ended_by: int | None = None
    #: The seats whose holders asked for a rematch (the game is over, none made yet).
    rematch_asks: frozenset[int] = frozenset()
    #: An imported record's Event and Date headers (None for a game made here).
    event: str | None = None
    record_date: str | None = None
    #: Made from an imported record (its seats are never adopted into an account).
    imported: bool = False


def _ints(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(p) for p in text.split(",") if p)


def _text(values: tuple[int, ...] | None) -> str | None:
    return None if values is None else ",".join(map(str, values))


def clock_columns(clock: Clock | None) -> dict[str, Any]:
    """The game row's columns of ``clock`` (all None for an untimed game)."""
    if clock is None:
        return {
            "clock_initial": None,
            "clock_increment": None,
            "clock_days": None,
            "clock_remaining": None,
            "clock_since": None,
            "clock_running": None,
            "clock_deadline": None,
        }
    deadline = clock.deadline if clock.running is not None else clock.waits_until
    return {
        "clock_initial": clock.control.initial,
        "clock_increment": clock.control.increment,
        "clock_days": clock.control.days,
        "clock_remaining": remaining_text(clock.remaining),
        "clock_since": from_epoch(clock.since),
        "clock_running": clock.running,
        "clock_deadline": None if deadline is None else from_epoch(deadline),
    }


def _clock(row: GameRow) -> Clock | None:
    control = TimeControl.from_columns(row.clock_initial, row.clock_increment, row.clock_days)
    if control is None or row.clock_remaining is None or row.clock_since is None:
        return None
    remaining = parse_remaining(row.clock_remaining)
    waits = None
    if row.clock_running is None and row.clock_deadline is not None:
        waits = epoch(row.clock_deadline)  # a clock waiting for the players
    return Clock(control, remaining, row.clock_running, epoch(row.clock_since), waits)


def declined_columns(declined: tuple[int, int] | None) -> dict[str, int | None]:
    """The game row's columns of a declined draw offer (its seat and the version then)."""
    seat, version = (None, None) if declined is None else declined
    return {"draw_declined": seat, "draw_declined_version": version}


def _declined(row: GameRow) -> tuple[int, int] | None:
    if row.draw_declined is None or row.draw_declined_version is None:
        return None
    return (row.draw_declined, row.draw_declined_version)


def asks_columns(seats: frozenset[int]) -> dict[str, int | None]:
    """The game row's column of the seats that asked for a rematch, a bit each (None:
    no seat)."""
    return {"rematch_asked": sum(1 << seat for seat in seats) or None}


def _asks(row: GameRow) -> frozenset[int]:
    bits = row.rematch_asked or 0
    return frozenset(seat for seat in range(bits.bit_length()) if bits >> seat & 1)


@dataclass(frozen=True)
class Converted:
    """A field of :class:`StoredGame` kept in another form: the columns it writes, and
    how it is read back from the row."""

    write: Callable[[Any], dict[str, Any]]
    read: Callable[[GameRow], Any]


#: The fields of :class:`StoredGame` that the row keeps in another form.
CONVERTED: Final[dict[str, Converted]] = {
    "handicap": Converted(
        lambda v: {"handicap": _text(v) or ""}, lambda row: _ints(row.handicap) or ()
    ),
    "tournament_wins": Converted(
        lambda v: {"tournament_wins": _text(v)}, lambda row: _ints(row.tournament_wins)
    ),
    "created": Converted(lambda v: {"created": v}, lambda row: utc(row.created)),
    "updated": Converted(lambda v: {"updated": v}, lambda row: utc(row.updated)),
    "clock": Converted(clock_columns, _clock),
    "draw_declined": Converted(declined_columns, _declined),
    "rematch_asks": Converted(asks_columns, _asks),
}
#: The fields the row keeps as they are, in a column of the same name.
COPIED: Final = tuple(n for n in same_named(StoredGame, GameRow) if n not in CONVERTED)
#: The fields of a seat its row keeps as they are.
SEAT_COPIED: Final = same_named(StoredSeat, SeatRow)


def game_columns(game: StoredGame) -> dict[str, Any]:
    """Every column of the game's row (its seats and actions are rows of their own)."""
    columns = {name: getattr(game, name) for name in COPIED}
    for name, converted in CONVERTED.items():
        columns.update(converted.write(getattr(game, name)))
    columns["version"] = len(game.actions)
    return columns


def stored_game(row: GameRow, seats: list[StoredSeat], actions: list[str]) -> StoredGame:
    """The game of ``row``, with its ``seats`` and ``actions``."""
    values = {name: getattr(row, name) for name in COPIED}
    values |= {name: converted.read(row) for name, converted in CONVERTED.items()}
    return StoredGame(seats=seats, actions=actions, **values)


def seat_columns(seat: StoredSeat) -> dict[str, Any]:
    """The columns of the seat's row but its game and number."""
    return {name: getattr(seat, name) for name in SEAT_COPIED}


def stored_seat(row: SeatRow, account: str | None) -> StoredSeat:
    """The seat of ``row``, held by the account named ``account`` (None: none)."""
    return StoredSeat(account=account, **{name: getattr(row, name) for name in SEAT_COPIED})


# --- what a new game's columns can hold ---------------------------------------------------
#: The words for a game's fields, as a record names them.
TAGS: Final = {
    "handicap": "Handicap",
    "first": "First",
    "seed": "Seed",
    "action_limit": "ActionLimit",
    "result": "Result",
    "termination": "Termination",
    "event": "Event",
    "record_date": "Date",
}


def check_storable(game: StoredGame) -> None:
    """Raise :class:`~.db.storable.Unstorable` for the first value of ``game`` (its row,
    its seats, its actions) that its column cannot hold; the fields checked are those
    of the game's own name, in the form the store writes them."""
    columns = GameRow.__table__.c
    written = game_columns(game)
    for name in (f.name for f in fields(game)):
        if name in columns:
            wrong = problem(columns[name], written[name])
            if wrong:
                raise Unstorable(f"{TAGS.get(name, name)} {wrong}")
    for tags, seat in zip(SEAT_HEADERS, game.seats, strict=False):
        for tag, name in zip(tags, ("name", "kind", "level"), strict=True):
            wrong = problem(SeatRow.__table__.c[name], getattr(seat, name))
            if wrong:
                raise Unstorable(f"{tag} {wrong}")
    notation = ActionRow.__table__.c.notation
    for number, action in enumerate(game.actions, start=1):
        wrong = problem(notation, action)
        if wrong:
            raise Unstorable(f"action {number} {wrong}")

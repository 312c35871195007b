"""What the database's columns can hold, checked before a new game is stored.

PostgreSQL refuses a text longer than its column or a number beyond a 32-bit
``Integer``; SQLite stores the text and refuses only numbers beyond 64 bits. Checked
here first, a game that does not fit is refused in words (a 422 naming the record's tag)
on both alike, and nothing is written. The limits are read from the tables of
:mod:`.schema`, their one source.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

from sqlalchemy import BigInteger, ColumnElement, Integer, String

from shiftago.formats.record_syntax import SEAT_HEADERS
from shiftago.interfaces.server.db.schema import ActionRow, GameRow, SeatRow
from shiftago.interfaces.server.db.store import StoredGame

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
#: The range of each kind of integer column (signed, as both databases store them).
RANGES: Final = ((BigInteger, 63), (Integer, 31))


class Unstorable(ValueError):
    """A value that its column cannot hold; the words name it as a record would."""


def problem(column: ColumnElement[Any], value: object) -> str | None:
    """What is wrong with ``value`` in ``column``, or None when it fits."""
    kind = column.type
    if isinstance(kind, String) and kind.length is not None and isinstance(value, str):
        if len(value) > kind.length:
            return f"is longer than {kind.length} characters"
    elif isinstance(value, int) and not isinstance(value, bool):
        for integer, bits in RANGES:
            if isinstance(kind, integer):
                if not -(2**bits) <= value < 2**bits:
                    return f"is not from {-(2**bits)} to {2**bits - 1}"
                break
    return None


def _as_stored(value: object) -> object:
    """A tuple as the store writes it (``"0,2,0"``)."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else value


def check_storable(game: StoredGame) -> None:
    """Raise :class:`Unstorable` for the first value of ``game`` (its row, its seats,
    its actions) that its column cannot hold."""
    columns = GameRow.__table__.c
    for field in fields(game):
        if field.name in columns:
            value = _as_stored(getattr(game, field.name))
            wrong = problem(columns[field.name], value)
            if wrong:
                raise Unstorable(f"{TAGS.get(field.name, field.name)} {wrong}")
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

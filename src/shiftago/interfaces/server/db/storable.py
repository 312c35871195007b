"""What the database's columns can hold, checked before a new game is stored.

PostgreSQL refuses a text longer than its column or a number beyond a 32-bit
``Integer``; SQLite stores the text and refuses only numbers beyond 64 bits. Checked
here first, a game that does not fit is refused in words (a 422 naming the record's tag)
on both alike, and nothing is written. The limits are read from the tables of
:mod:`.schema`, their one source; each feature checks its own values with
:func:`problem` (a new game: ``games/stored.py``, ``check_storable``).
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import BigInteger, ColumnElement, Integer, String

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

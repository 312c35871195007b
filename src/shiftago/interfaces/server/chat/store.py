"""A game's chat in the database: the rows of ``chat`` (never the record).

Like every store, its methods are synchronous and short (the hub runs them in its
threads) and return plain values: :class:`ChatMessage`, which is also the form the bus
carries to the other processes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, select

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.schema import ChatRow
from shiftago.interfaces.server.db.store import Database, now, utc

#: The two rooms: the seats' holders, and everybody who watches.
PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
#: The messages of its room a connection gets when it joins.
HISTORY: Final = 100


@dataclass(frozen=True)
class ChatMessage:
    id: int
    game_id: str
    room: str
    seat: int | None
    name: str
    text: str
    at: dt.datetime
    #: Said by a guest (no account): the pages mark the name as a guest's, so that a
    #: guest named like an account is never taken for it.
    guest: bool = False

    def to_json(self) -> dict[str, Any]:
        """The ``chat`` event (the bus carries the same)."""
        return {
            "type": "chat",
            "id": self.id,
            "room": self.room,
            "seat": None if self.seat is None else COLOURS[self.seat],
            "name": self.name,
            "guest": self.guest,
            "text": self.text,
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_json(cls, game_id: str, data: dict[str, Any]) -> ChatMessage:
        seat = data.get("seat")
        return cls(
            id=int(data["id"]),
            game_id=game_id,
            room=PLAYERS if data["room"] == PLAYERS else SPECTATORS,
            seat=None if seat is None else COLOURS.index(str(seat)),
            name=str(data["name"]),
            text=str(data["text"]),
            at=dt.datetime.fromisoformat(str(data["at"])),
            guest=data.get("guest") is True,
        )


def _message(row: ChatRow) -> ChatMessage:
    return ChatMessage(
        row.id, row.game_id, row.room, row.seat, row.name, row.text, utc(row.at), row.guest
    )


class ChatStore:
    """The chat's reads and writes (synchronous: the hub runs them in its threads)."""

    def __init__(self, db: Database) -> None:
        self.sessions = db.sessions

    def add(
        self, game_id: str, room: str, seat: int | None, name: str, text: str, guest: bool = False
    ) -> ChatMessage:
        with self.sessions.begin() as s:
            row = ChatRow(
                game_id=game_id, room=room, seat=seat, name=name, guest=guest, text=text, at=now()
            )
            s.add(row)
            s.flush()
            return _message(row)

    def messages(self, game_id: str) -> list[ChatMessage]:
        """Every message of the game, both rooms, oldest first (moderation)."""
        with self.sessions() as s:
            rows = s.scalars(
                select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.id)
            ).all()
            return [_message(row) for row in rows]

    def delete(self, ids: Sequence[int]) -> int:
        """Delete the messages ``ids`` (moderation); how many there were."""
        with self.sessions.begin() as s:
            done = s.execute(delete(ChatRow).where(ChatRow.id.in_(list(ids))))
            return int(getattr(done, "rowcount", 0))

    def history(self, game_id: str, room: str, limit: int = HISTORY) -> list[ChatMessage]:
        """The room's last ``limit`` messages, oldest first."""
        with self.sessions() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.game_id == game_id, ChatRow.room == room)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [_message(row) for row in reversed(rows)]

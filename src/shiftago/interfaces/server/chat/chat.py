"""A game's chat (docs/web-protocol.md, "Chat"): two rooms, each seen only by its own.

``players`` is the room of the seats' holders, ``spectators`` the room of everybody
who watches; as on Lichess, players never see the spectators' room (nor spectators the
players'). A message is stored with the game (the ``chat`` table, never the record)
before anybody hears of it, then sent to the room's sockets here and, through the bus,
on the other processes (:meth:`Chat.on_event`, the hub's ``chat`` hook). Each address
may say :data:`CHAT_BURST` messages per :data:`CHAT_WINDOW` seconds in a process, over
all its sockets, apart from each socket's general rate of messages.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from starlette.requests import HTTPConnection

from shiftago.interfaces.server.accounts.accounts import signed_in
from shiftago.interfaces.server.chat.store import (
    HISTORY,
    PLAYERS,
    SPECTATORS,
    ChatMessage,
    ChatStore,
)
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.door.socket import message_text
from shiftago.interfaces.server.games.hub import Hub, Refused
from shiftago.interfaces.server.games.live import Connection, LiveGame
from shiftago.interfaces.server.jobs.bus import Event

#: An address may send this many chat messages ...
CHAT_BURST: Final = 5
#: ... in any window of this many seconds.
CHAT_WINDOW: Final = 10.0
#: Addresses whose chat rate a process counts before it forgets the idle ones.
MAX_TRACKED: Final = 10_000
#: The name of a spectator who is not signed in.
GUEST: Final = "Guest"


def room_of(connection: Connection) -> str:
    return PLAYERS if connection.seat is not None else SPECTATORS


class ChatLimit:
    """At most ``burst`` messages in any ``window`` seconds (one address's chat)."""

    def __init__(
        self,
        burst: int = CHAT_BURST,
        window: float = CHAT_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.window = window
        self.clock = clock
        self.said: deque[float] = deque()

    def allow(self) -> bool:
        moment = self.clock()
        while self.said and moment - self.said[0] >= self.window:
            self.said.popleft()
        if len(self.said) >= self.burst:
            return False
        self.said.append(moment)
        return True

    def idle(self) -> bool:
        """Whether nothing said is left in the window (the limit may be forgotten)."""
        return not self.said or self.clock() - self.said[-1] >= self.window


@dataclass
class Speaker:
    """One socket's part in the chat: the name it speaks under, and the address whose
    rate it counts in."""

    address: str
    name: str = GUEST
    #: Whether it speaks as a guest (no account): its lines carry ``"guest": true``.
    guest: bool = True


class Chat:
    """The chat of every game this process serves."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = ChatStore(hub.store)
        self.limits: dict[str, ChatLimit] = {}
        hub.event_hooks["chat"] = self.on_event
        hub.joins.welcomes.append(self.send_histories)

    def limit_of(self, address: str) -> ChatLimit:
        """The address's rate, shared by its sockets; the idle ones are forgotten once
        :data:`MAX_TRACKED` addresses are counted."""
        limit = self.limits.get(address)
        if limit is None:
            if len(self.limits) >= MAX_TRACKED:
                self.limits = {a: kept for a, kept in self.limits.items() if not kept.idle()}
            limit = self.limits[address] = ChatLimit()
        return limit

    async def say(
        self, live: LiveGame, connection: Connection, speaker: Speaker, text: str
    ) -> None:
        """Store ``text`` (checked by the protocol) in the connection's room, then send
        it to the room: here, and through the bus on the other processes."""
        if not self.limit_of(speaker.address).allow():
            raise Refused(
                "rate_limited",
                f"at most {CHAT_BURST} chat messages in {CHAT_WINDOW:g} seconds; wait a little",
                "chat_too_fast",
                {"limit": CHAT_BURST, "seconds": round(CHAT_WINDOW)},
            )
        seat = connection.seat
        room = room_of(connection)
        async with live.lock:  # a newcomer's history and joining come before or after
            message = await self.hub.db(
                self.store.add, live.id, room, seat, speaker.name, text, speaker.guest
            )
            self.deliver(live, message)
        await self.hub.publish(
            {
                "game": live.id,
                "revision": live.revision,
                "kind": "chat",
                "message": message.to_json(),
            }
        )

    async def speaker(
        self, websocket: HTTPConnection, live: LiveGame, connection: Connection
    ) -> Speaker:
        """Who a socket that has joined chats as: its seat's name, else the signed-in
        account's, else a guest; counted in its address's rate. A seat without an
        account, or a spectator not signed in, speaks as a guest (marked as one)."""
        speaker = Speaker(client_address(websocket))
        if connection.seat is not None:
            speaker.name = seat_name(live, connection.seat)
            speaker.guest = live.stored.seats[connection.seat].account is None
        else:
            account = await signed_in(websocket)
            speaker.name = GUEST if account is None else account.name
            speaker.guest = account is None
        return speaker

    async def send_history(self, live: LiveGame, connection: Connection) -> None:
        """A newcomer's ``chat_history``: its room's last :data:`HISTORY` messages (the
        caller holds the game's lock until the connection has joined, so that every
        message is in the history or sent to it)."""
        room = room_of(connection)
        messages = await self.hub.db(self.store.history, live.id, room, HISTORY)
        connection.send(
            {
                "type": "chat_history",
                "room": room,
                "messages": [m.to_json() for m in messages],
            }
        )

    async def send_histories(self, live: LiveGame, connections: list[Connection]) -> None:
        """A batch of newcomers' ``chat_history``: each room's history read once and
        sent to the batch's sockets of that room (under the game's lock, as
        :meth:`send_history`)."""
        for room in (PLAYERS, SPECTATORS):
            members = [c for c in connections if room_of(c) == room]
            if not members:
                continue
            messages = await self.hub.db(self.store.history, live.id, room, HISTORY)
            text = message_text(
                {"type": "chat_history", "room": room, "messages": [m.to_json() for m in messages]}
            )
            for connection in members:
                connection.send(text)

    @staticmethod
    def deliver(live: LiveGame, message: ChatMessage) -> None:
        """Send ``message`` to the sockets of its room (serialised once)."""
        text: str | None = None
        for connection in list(live.connections):
            if room_of(connection) == message.room:
                text = text or message_text(message.to_json())
                connection.send(text)

    async def on_event(self, event: Event) -> None:
        """Another process stored a message: tell this process's sockets of the game,
        under the game's lock, as :meth:`say` does. A newcomer whose hello holds the lock
        has read its history before the message was stored and joins before the lock is
        let go: it hears the message once the lock is free (looked at before the lock,
        it was not among the sockets yet and missed it)."""
        live = self.hub.games.get(str(event.get("game")))
        data = event.get("message")
        if live is None or not isinstance(data, dict):
            return
        async with live.lock:
            self.deliver(live, ChatMessage.from_json(live.id, data))


def seat_name(live: LiveGame, seat: int) -> str:
    """The name a seat's holder speaks under: the seat's account, else the seat's name."""
    stored = live.stored.seats[seat]
    return stored.account or stored.name

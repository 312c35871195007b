"""The live protocol's endpoint, ``/ws/games/{id}`` (docs/web-protocol.md).

It only translates: every message is checked (:mod:`.protocol`) and handed to the hub,
whose refusals come back as ``error`` events that changed nothing. The loop around the
messages is the door's (:mod:`.door.socket`). Sockets from other sites' pages never get
here (:mod:`.security` refuses them before the upgrade).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.store import DATABASE_AWAY, DATABASE_AWAY_WORDS
from shiftago.interfaces.server.door.protocol import (
    Abort,
    Act,
    BadMessage,
    ChatLine,
    Claim,
    ClientMessage,
    Draw,
    Hello,
    Ping,
    Rematch,
    Resign,
    Sync,
    Takeback,
    parse_message,
)
from shiftago.interfaces.server.door.socket import Conversation, error, serve_socket
from shiftago.interfaces.server.games import (
    acting,
    announce,
    claim,
    draw,
    ending,
    rematch,
    takeback,
)
from shiftago.interfaces.server.games.holding import Holder, hold, holder_of, seat_of_account
from shiftago.interfaces.server.games.hub import Hub, Refused
from shiftago.interfaces.server.games.joining import snapshots
from shiftago.interfaces.server.games.live import Connection, LiveGame
from shiftago.interfaces.server.games.opening import open_seat
from shiftago.interfaces.server.games.refusals import person
from shiftago.interfaces.server.games.views import game_view

if TYPE_CHECKING:  # the chat sits above the games; the app hands it in (app.state.chat)
    from shiftago.interfaces.server.chat.chat import Chat, Speaker

#: How long a new connection may take to say hello (seconds).
HELLO_TIMEOUT = 30.0


class _GameSocket(Conversation):
    """One game socket: a hello first (within :data:`HELLO_TIMEOUT`), then the game's
    messages, for its seat or as a spectator."""

    outbox: Connection

    def __init__(self, websocket: WebSocket, game_id: str) -> None:
        super().__init__(Connection())
        self.websocket = websocket
        self.game_id = game_id
        self.hub: Hub = websocket.app.state.hub
        self.chat: Chat = websocket.app.state.chat
        self.speaker: Speaker | None = None
        self.live: LiveGame | None = None
        self.joined = False

    def receive_within(self) -> float | None:
        return None if self.joined else HELLO_TIMEOUT

    async def begin(self) -> None:
        self.live = await self.hub.get(self.game_id)
        if self.live is None:
            self.outbox.send(error("not_found", f"there is no game {self.game_id!r}"))
            self.outbox.close(4404)

    async def handle(self, text: str | bytes) -> None:
        hub, chat, live, connection = self.hub, self.chat, self.live, self.outbox
        assert live is not None  # begin found it, or the socket is closed
        message = parse_message(text)
        if not self.joined:
            if not isinstance(message, Hello):
                raise BadMessage("the first message is hello")
            holder = await holder_of(self.websocket) if message.account else None
            await _hello(hub, chat, live, connection, message, holder)
            self.joined = True
            self.speaker = await chat.speaker(self.websocket, live, connection)
            return
        if isinstance(message, ChatLine):
            assert self.speaker is not None  # set when it joined
            await chat.say(live, connection, self.speaker, message.text)
            return
        await _handle(hub, live, connection, message)

    def refusal(self, failure: Exception) -> dict[str, Any] | None:
        if isinstance(failure, Refused):
            event = error(failure.code, failure.message)
            if failure.reason is not None:  # one code, several causes: which one
                event["reason"] = failure.reason
                event.update(failure.values)
            return event
        if isinstance(failure, DATABASE_AWAY):  # nothing was stored or shown; it stays open
            return error("unavailable", DATABASE_AWAY_WORDS)
        return None

    async def end(self) -> None:
        if self.live is not None and self.joined:
            await self.hub.presence.leave(self.live, self.outbox)


async def game_socket(websocket: WebSocket, game_id: str) -> None:
    await serve_socket(websocket, _GameSocket(websocket, game_id))


async def _hello(
    hub: Hub,
    chat: Chat,
    live: LiveGame,
    connection: Connection,
    hello: Hello,
    holder: Holder | None,
) -> None:
    """A seat's hello (its token, or a signed-in account asking for its seat) is
    answered at once; a watcher's waits in the game's queue of joins (:mod:`.joining`),
    behind the players' actions."""
    if not hello.token and not (hello.account and holder is not None):
        await hub.joins.join(live, connection, hello.seen)
        return
    async with live.lock:
        await hub.reload_if_behind(live, hello.seen)
        if hello.token:
            seat = live.seat_of_token(hello.token)
            if seat is None:
                connection.send(
                    error("not_seated", "this seat link is not one of this game's; you watch")
                )
            else:
                try:  # a seat handed to the computer since: its link only watches
                    connection.seat = person(live, seat)
                    connection.token = hello.token
                    await open_seat(hub, live, seat)
                    await hold(hub, live, seat, holder)
                except Refused as refused:
                    connection.send(error(refused.code, refused.message))
        elif hello.account and holder is not None:
            seat = seat_of_account(live, holder.id)
            if seat is None and hub.bus.shared:  # another process may have just given it
                await hub.reload(live)
                seat = seat_of_account(live, holder.id)
            if seat is not None:  # the session is the seat's credential
                connection.seat = seat
                await open_seat(hub, live, seat)
        seat = connection.seat
        connection.send(
            {
                "type": "welcome",
                "seat": seat,
                "colour": None if seat is None else COLOURS[seat],
                "version": live.version,
            }
        )
        for text in snapshots(live).catch_up(live, hello.seen):
            connection.send(text)
        # under the lock that chat messages are stored and sent under: none is missed
        await chat.send_history(live, connection)
        await hub.presence.join(live, connection)
        if live.thinking is not None:
            connection.send({"type": "thinking", "seat": live.thinking})


async def _handle(hub: Hub, live: LiveGame, connection: Connection, message: ClientMessage) -> None:
    seat = connection.seat
    if isinstance(message, Ping):
        connection.send({"type": "pong"})
    elif isinstance(message, Act):
        await hub.guarded(acting.act(hub, live, seat, message.action, message.seen))
    elif isinstance(message, Sync):
        async with live.lock:
            if hub.bus.shared:  # to be sure: other processes change the game too
                await hub.reload(live)
            if message.seen == live.version:  # nothing missed: the state, to be sure
                connection.send({"type": "state", "version": live.version, "game": game_view(live)})
            else:
                announce.catch_up(live, connection, message.seen)
    elif isinstance(message, Resign):
        await hub.guarded(ending.resign(hub, live, seat))
    elif isinstance(message, Takeback):
        await hub.guarded(takeback.take_back(hub, live, seat, tuple(message.tokens or ())))
    elif isinstance(message, Claim):
        await hub.guarded(claim.claim(hub, live, seat, message.seat, message.to, message.level))
    elif isinstance(message, Rematch):
        await hub.guarded(rematch.ask(hub, live, seat))
    elif isinstance(message, Draw):
        if message.offer:
            await hub.guarded(draw.offer(hub, live, seat))
        else:
            await hub.guarded(draw.answer(hub, live, seat, bool(message.accept)))
    elif isinstance(message, Abort):
        await hub.guarded(ending.abort(hub, live, seat))
    elif isinstance(message, Hello):
        raise BadMessage("hello comes once, first")
    else:  # pragma: no cover - the parser knows no other type
        raise BadMessage(f"unknown message type {message.type!r}")

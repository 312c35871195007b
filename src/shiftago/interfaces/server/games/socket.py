"""The live protocol's endpoint, ``/ws/games/{id}`` (docs/web-protocol.md).

It only translates: every message is checked (:mod:`.protocol`) and handed to the hub,
whose refusals come back as ``error`` events that changed nothing. Sockets from other
sites' pages never get here (:mod:`.security` refuses them before the upgrade).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.core import COLOURS
from shiftago.interfaces.server.accounts.accounts import signed_in
from shiftago.interfaces.server.chat.chat import GUEST, Chat, Speaker, seat_name
from shiftago.interfaces.server.db.store import DATABASE_AWAY, DATABASE_AWAY_WORDS
from shiftago.interfaces.server.door.limits import socket_slot
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
    RateLimit,
    Rematch,
    Resign,
    Sync,
    Takeback,
    parse_message,
)
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games import (
    acting,
    announce,
    claim,
    draw,
    ending,
    rematch,
    takeback,
)
from shiftago.interfaces.server.games.hub import Hub, Refused
from shiftago.interfaces.server.games.live import Connection, LiveGame, message_text
from shiftago.interfaces.server.games.refusals import person
from shiftago.interfaces.server.games.views import game_view

#: How long a new connection may take to say hello (seconds).
HELLO_TIMEOUT = 30.0
#: Refused messages (over the rate) before the connection is closed with 1008.
MAX_REFUSED = 10


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


async def write_queue(websocket: WebSocket, connection: Connection) -> None:
    """Send what is queued for the connection, in order; an int closes it (the task
    that writes every socket of the app)."""
    with contextlib.suppress(Exception):
        while True:
            item = await connection.queue.get()
            if isinstance(item, int):
                await websocket.close(code=item)
                return
            text = item if isinstance(item, str) else message_text(item)
            await websocket.send_text(text)


async def _receive(websocket: WebSocket) -> str | bytes:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    return bytes(message.get("bytes") or b"")


async def game_socket(websocket: WebSocket, game_id: str) -> None:
    async with socket_slot(websocket) as granted:  # refused before the upgrade if not
        if granted:
            await _game_socket(websocket, game_id)


async def _game_socket(websocket: WebSocket, game_id: str) -> None:
    state = websocket.app.state
    hub: Hub = state.hub
    await websocket.accept()
    live = await hub.get(game_id)
    if live is None:
        await websocket.send_json(error("not_found", f"there is no game {game_id!r}"))
        await websocket.close(code=4404)
        return
    connection = Connection()
    writer = asyncio.create_task(write_queue(websocket, connection))
    limit = RateLimit(state.rate, state.burst)
    chat: Chat = state.chat
    speaker = Speaker(client_address(websocket))
    joined = False
    try:
        while not connection.closed:
            text = await (
                asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
                if not joined
                else _receive(websocket)
            )
            if not limit.allow():
                connection.send(error("rate_limited", "too many messages; slow down"))
                if limit.refused > MAX_REFUSED:
                    connection.close(1008)
                continue
            try:
                message = parse_message(text)
                if not joined:
                    if not isinstance(message, Hello):
                        raise BadMessage("the first message is hello")
                    await _hello(hub, chat, live, connection, message)
                    joined = True
                    speaker.name = await _speaker_name(websocket, live, connection)
                    continue
                if isinstance(message, ChatLine):
                    await chat.say(live, connection, speaker, message.text)
                    continue
                await _handle(hub, live, connection, message)
            except BadMessage as bad:
                connection.send(error("bad_message", str(bad)))
            except Refused as refused:
                connection.send(error(refused.code, refused.message))
            except DATABASE_AWAY:  # nothing was stored or shown; the socket stays
                connection.send(error("unavailable", DATABASE_AWAY_WORDS))
    except (WebSocketDisconnect, TimeoutError, RuntimeError):
        pass
    finally:
        if joined:
            await hub.presence.leave(live, connection)
        connection.close()
        with contextlib.suppress(Exception):
            await writer


async def _hello(
    hub: Hub, chat: Chat, live: LiveGame, connection: Connection, hello: Hello
) -> None:
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
                except Refused as refused:
                    connection.send(error(refused.code, refused.message))
        seat = connection.seat
        connection.send(
            {
                "type": "welcome",
                "seat": seat,
                "colour": None if seat is None else COLOURS[seat],
                "version": live.version,
            }
        )
        announce.catch_up(live, connection, hello.seen)
        # under the lock that chat messages are stored and sent under: none is missed
        await chat.send_history(live, connection)
        await hub.presence.join(live, connection)
        if live.thinking is not None:
            connection.send({"type": "thinking", "seat": live.thinking})


async def _speaker_name(websocket: WebSocket, live: LiveGame, connection: Connection) -> str:
    """The name the connection chats under: its seat's, else the signed-in account's."""
    if connection.seat is not None:
        return seat_name(live, connection.seat)
    account = await signed_in(websocket)
    return GUEST if account is None else account.name


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

"""The lobby's socket, ``/ws/lobby`` (docs/web-protocol.md, "Open challenges").

On connect it sends the open seeks (``seeks``), then each change as it happens
(``seek``, ``seek_gone``, ``seek_filled``). A page that holds a seek's secret says
``hold``: it then hears ``filled`` with the link of its own seat when the seek fills,
and while it holds it the place stays (the creator's: the seek stays open;
:mod:`.lobby_feed`). Only translation: the seeks decide.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.interfaces.server.door.limits import socket_slot
from shiftago.interfaces.server.door.protocol import BadMessage, RateLimit, parse_json_message
from shiftago.interfaces.server.games.live import Connection
from shiftago.interfaces.server.games.socket import MAX_REFUSED, _receive, error, write_queue
from shiftago.interfaces.server.seeks.challenges import Seeks
from shiftago.interfaces.server.seeks.feed import Listener

#: Seeks one socket may hold at once (a page holds its own and the ones it accepted).
MAX_HELD = 8


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Hold(_Message):
    type: Literal["hold"]
    token: Annotated[str, Field(strict=True, min_length=1, max_length=200)]
    #: The seek the page holds the secret for: a refusal names it back.
    seek: Annotated[str, Field(strict=True, min_length=1, max_length=24)] | None = None


class Ping(_Message):
    type: Literal["ping"]


LobbyMessage = Hold | Ping
_ADAPTER: TypeAdapter[LobbyMessage] = TypeAdapter(
    Annotated[LobbyMessage, Field(discriminator="type")]
)


def parse_lobby_message(text: str | bytes) -> LobbyMessage:
    return parse_json_message(text, _ADAPTER)


async def lobby_socket(websocket: WebSocket) -> None:
    async with socket_slot(websocket) as granted:  # refused before the upgrade if not
        if granted:
            await _lobby_socket(websocket)


async def _lobby_socket(websocket: WebSocket) -> None:
    state = websocket.app.state
    seeks: Seeks = state.seeks
    feed = seeks.feed
    await websocket.accept()
    connection = Connection()
    writer = asyncio.create_task(write_queue(websocket, connection))
    # changes while the listing is read wait, and follow it: none is lost between
    early: list[dict[str, Any]] = []
    listener = Listener(early.append)
    limit = RateLimit(state.rate, state.burst)
    feed.join(listener)
    try:
        connection.send({"type": "seeks", "seeks": await seeks.listing()})
        for event in early:
            connection.send(event)
        listener.send = connection.send
        while not connection.closed:
            text = await _receive(websocket)
            if not limit.allow():
                connection.send(error("rate_limited", "too many messages; slow down"))
                if limit.refused > MAX_REFUSED:
                    connection.close(1008)
                continue
            try:
                message = parse_lobby_message(text)
                if isinstance(message, Ping):
                    connection.send({"type": "pong"})
                elif len(listener.holds) >= MAX_HELD:
                    raise BadMessage(f"a page holds at most {MAX_HELD} challenges")
                else:
                    await feed.hold(listener, message.token, message.seek)
            except BadMessage as bad:
                connection.send(error("bad_message", str(bad)))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        feed.leave(listener)
        connection.close()
        with contextlib.suppress(Exception):
            await writer


__all__ = ["Hold", "Ping", "lobby_socket", "parse_lobby_message"]

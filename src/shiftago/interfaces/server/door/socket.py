"""The one loop of every socket (docs/web-protocol.md): the game's, the lobby's and the
analysis board's.

:func:`serve_socket` takes a place under the cap of sockets per address (refused before
the upgrade without one), accepts, writes what is queued in the socket's :class:`Outbox`
from one task, reads each message under the per-connection rate limit, hands it to the
feature's :class:`Conversation`, turns refusals into ``error`` events that changed
nothing, and always cleans up. A feature's socket module keeps only its own messages and
what they do.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.interfaces.server.door.limits import socket_slot
from shiftago.interfaces.server.door.protocol import BadMessage, RateLimit

#: Events waiting for a slow connection before it is dropped.
MAX_QUEUED = 500
#: Refused messages (over the rate) before the connection is closed with 1008.
MAX_REFUSED = 10


def message_text(message: dict[str, Any]) -> str:
    """The text of a message to the sockets: compact JSON (orjson: the game's view is
    serialised after every action, and :mod:`json` took a third of that work; see
    docs/deploy.md). Integer keys become strings, as :mod:`json` makes them."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def error(code: str, message: str) -> dict[str, Any]:
    """An ``error`` event: what was refused, in words; nothing changed."""
    return {"type": "error", "code": code, "message": message}


class Outbox:
    """What waits to be sent on one open socket.

    Everything sent to a socket goes through its queue, written by one task, so events
    keep their order and a slow browser never holds up a game's lock. An ``int`` in the
    queue closes the socket with that code once what came before is sent; a ``str`` is
    a message serialised once for many sockets (a game's broadcast).
    """

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any] | str | int] = asyncio.Queue()
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.drop()
            return
        self.queue.put_nowait(message)

    def drop(self) -> None:
        """Too far behind to catch up: what waits is thrown away and the socket closes
        next (1008); the client reconnects and gets the game as it is then."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.close(1008)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(code)


async def write_queue(websocket: WebSocket, outbox: Outbox) -> None:
    """Send what is queued for the socket, in order; an int closes it (the task that
    writes every socket of the app)."""
    with contextlib.suppress(Exception):
        while True:
            item = await outbox.queue.get()
            if isinstance(item, int):
                await websocket.close(code=item)
                return
            text = item if isinstance(item, str) else message_text(item)
            await websocket.send_text(text)


async def receive(websocket: WebSocket) -> str | bytes:
    """The next message's text (or bytes: the protocol refuses them in words);
    :class:`WebSocketDisconnect` once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    return bytes(message.get("bytes") or b"")


class Conversation:
    """What one feature's socket says; :func:`serve_socket` runs the loop around it.

    A feature overrides :meth:`handle`, and where it needs them the other hooks.
    """

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    def receive_within(self) -> float | None:
        """Seconds the next message may take before the socket is closed (1000); None:
        as long as it likes."""
        return None

    async def begin(self) -> None:
        """After the upgrade, before the first message (closing the outbox ends it)."""

    async def handle(self, text: str | bytes) -> None:
        """Read one message (:class:`BadMessage` for one that is not the socket's) and
        act on it."""
        raise NotImplementedError

    def refusal(self, failure: Exception) -> dict[str, Any] | None:
        """The ``error`` event of one of the feature's refusals; None for anything
        else, which then ends the socket as it would without the loop."""
        return None

    async def end(self) -> None:
        """Once the socket is done, however it ended (before its outbox closes)."""


async def serve_socket(websocket: WebSocket, conversation: Conversation) -> None:
    """Run ``conversation`` on ``websocket`` from the upgrade to the close."""
    async with socket_slot(websocket) as granted:  # refused before the upgrade if not
        if granted:
            await _serve(websocket, conversation)


async def _serve(websocket: WebSocket, conversation: Conversation) -> None:
    state = websocket.app.state
    outbox = conversation.outbox
    await websocket.accept()
    writer = asyncio.create_task(write_queue(websocket, outbox))
    limit = RateLimit(state.rate, state.burst)
    try:
        await conversation.begin()
        while not outbox.closed:
            within = conversation.receive_within()
            text = await (
                receive(websocket)
                if within is None
                else asyncio.wait_for(receive(websocket), within)
            )
            if not limit.allow():
                outbox.send(error("rate_limited", "too many messages; slow down"))
                if limit.refused > MAX_REFUSED:
                    outbox.close(1008)
                continue
            try:
                await conversation.handle(text)
            except BadMessage as bad:
                outbox.send(error("bad_message", str(bad)))
            except Exception as failure:
                refusal = conversation.refusal(failure)
                if refusal is None:
                    raise
                outbox.send(refusal)
    except (WebSocketDisconnect, TimeoutError, RuntimeError):
        pass  # the client went, said nothing in time, or the socket closed under us
    finally:
        await conversation.end()
        outbox.close()
        with contextlib.suppress(Exception):
            await writer


__all__ = [
    "MAX_QUEUED",
    "MAX_REFUSED",
    "Conversation",
    "Outbox",
    "error",
    "message_text",
    "receive",
    "serve_socket",
    "write_queue",
]

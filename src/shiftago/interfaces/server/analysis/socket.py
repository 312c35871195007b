"""The live analysis socket, ``/ws/analysis`` (docs/web-protocol.md, "Live analysis of a
position").

The client sends ``analyse`` with a position; the server answers ``lines`` events as the
computer thinks (:mod:`.searches`) until the budget is spent or the best value proven. A
new ``analyse``, a ``stop`` or a closed socket stops the search under way; each socket
has at most one. The loop around the messages is the door's (:mod:`.door.socket`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter
from starlette.websockets import WebSocket

from shiftago.core import ShiftagoError
from shiftago.interfaces.server.analysis.searches import LiveAnalysis, set_up
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.protocol import SocketMessage, parse_json_message
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.door.socket import Conversation, Outbox, error, serve_socket
from shiftago.interfaces.shared.cancelling import cancel_and_wait

#: The longest position string a client may send (a 4-player position is under 100).
MAX_POSITION_CHARS: Final = 400
#: Searches one address may have running or waiting at once in a process: they share
#: one thread, first come first served, so one client's many sockets would hold everyone
#: else's analysis back (docs/web-protocol.md, "The analysis board").
SEARCHES_PER_ADDRESS: Final = 2


class Analyse(SocketMessage):
    type: Literal["analyse"]
    position: Annotated[str, Field(min_length=1, max_length=MAX_POSITION_CHARS)]
    lines: Annotated[int, Field(strict=True, ge=1, le=8)] = 3


class Stop(SocketMessage):
    type: Literal["stop"]


class Ping(SocketMessage):
    type: Literal["ping"]


AnalysisMessage = Analyse | Stop | Ping
_ADAPTER: TypeAdapter[AnalysisMessage] = TypeAdapter(
    Annotated[AnalysisMessage, Field(discriminator="type")]
)


def parse(text: str | bytes) -> AnalysisMessage:
    """A client's message, or :class:`~.protocol.BadMessage` in words."""
    return parse_json_message(text, _ADAPTER)


async def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        await cancel_and_wait([task])


class _Analysis(Conversation):
    """One analysis socket: its one search at most, counted against its address."""

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(Outbox())
        self.websocket = websocket
        self.service: LiveAnalysis = websocket.app.state.live_analysis
        self.address = client_address(websocket)
        self.search: asyncio.Task[None] | None = None

    async def handle(self, text: str | bytes) -> None:
        outbox, service = self.outbox, self.service
        parsed = parse(text)
        if isinstance(parsed, Ping):
            outbox.send({"type": "pong"})
            return
        if isinstance(parsed, Stop):
            await _cancel(self.search)
            return
        try:
            state = set_up(parsed.position)
        except ShiftagoError as bad:  # the search under way goes on
            outbox.send(error("bad_position", str(bad)))
            return
        try:
            await limits.count(self.websocket, "live-analyses")
        except limits.Limited as limited:  # the search under way goes on
            refusal = error(limited.code, limited.message)
            outbox.send({**refusal, "retry_after": limited.retry_after})
            return
        await _cancel(self.search)  # this socket's own search makes room for the new one
        if service.searching[self.address] >= SEARCHES_PER_ADDRESS:
            words = f"at most {SEARCHES_PER_ADDRESS} analyses at once from your address"
            outbox.send(error("busy", words))
            return
        self.search = asyncio.create_task(service.stream(state, parsed.lines, outbox))
        service.began(self.address, self.search)

    async def end(self) -> None:
        await _cancel(self.search)


async def analysis_socket(websocket: WebSocket) -> None:
    await serve_socket(websocket, _Analysis(websocket))


__all__ = ["Analyse", "Ping", "Stop", "analysis_socket", "parse"]

"""The lobby's socket, ``/ws/lobby`` (docs/web-protocol.md, "Open challenges").

On connect it sends the open seeks (``seeks``), then each change as it happens
(``seek``, ``seek_gone``, ``seek_filled``). A page that holds a seek's secret says
``hold``: it then hears ``filled`` with the link of its own seat when the seek fills,
and while it holds it the place stays (the creator's: the seek stays open;
:mod:`.feed`). Only translation: the seeks decide; the loop around the messages is the
door's (:mod:`.door.socket`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter
from starlette.websockets import WebSocket

from shiftago.interfaces.server.door.protocol import BadMessage, SocketMessage, parse_json_message
from shiftago.interfaces.server.door.socket import Conversation, Outbox, serve_socket
from shiftago.interfaces.server.seeks.challenges import Seeks
from shiftago.interfaces.server.seeks.feed import Listener

#: Seeks one socket may hold at once (a page holds its own and the ones it accepted).
MAX_HELD = 8


class Hold(SocketMessage):
    type: Literal["hold"]
    token: Annotated[str, Field(strict=True, min_length=1, max_length=200)]
    #: The seek the page holds the secret for: a refusal names it back.
    seek: Annotated[str, Field(strict=True, min_length=1, max_length=24)] | None = None


class Ping(SocketMessage):
    type: Literal["ping"]


LobbyMessage = Hold | Ping
_ADAPTER: TypeAdapter[LobbyMessage] = TypeAdapter(
    Annotated[LobbyMessage, Field(discriminator="type")]
)


def parse_lobby_message(text: str | bytes) -> LobbyMessage:
    return parse_json_message(text, _ADAPTER)


class _Lobby(Conversation):
    """One lobby socket: the seeks it hears of, and the ones its page holds."""

    def __init__(self, seeks: Seeks) -> None:
        super().__init__(Outbox())
        self.seeks = seeks
        # changes while the listing is read wait, and follow it: none is lost between
        self.early: list[dict[str, Any]] = []
        self.listener = Listener(self.early.append)

    async def begin(self) -> None:
        self.seeks.feed.join(self.listener)
        self.outbox.send({"type": "seeks", "seeks": await self.seeks.listing()})
        for event in self.early:
            self.outbox.send(event)
        self.listener.send = self.outbox.send

    async def handle(self, text: str | bytes) -> None:
        message = parse_lobby_message(text)
        if isinstance(message, Ping):
            self.outbox.send({"type": "pong"})
        elif len(self.listener.holds) >= MAX_HELD:
            raise BadMessage(f"a page holds at most {MAX_HELD} challenges")
        else:
            await self.seeks.feed.hold(self.listener, message.token, message.seek)

    async def end(self) -> None:
        self.seeks.feed.leave(self.listener)


async def lobby_socket(websocket: WebSocket) -> None:
    await serve_socket(websocket, _Lobby(websocket.app.state.seeks))


__all__ = ["Hold", "Ping", "lobby_socket", "parse_lobby_message"]

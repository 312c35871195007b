"""The client's messages of the live protocol (docs/web-protocol.md), checked strictly,
and the per-connection rate limit. Anything that does not fit is a :class:`BadMessage`."""

from __future__ import annotations

import time
from typing import Annotated, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from shiftago.engine.levels import level_name
from shiftago.interfaces.server.door.strict_json import JsonRefused, loads

MAX_MESSAGE_BYTES = 4096
M = TypeVar("M")

Count = Annotated[int, Field(strict=True, ge=0, le=1_000_000)]


class SocketMessage(BaseModel):
    """A message a page sends on a socket: a field it does not know is refused, never
    ignored (a ``resign`` naming another seat would resign the sender's own)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(SocketMessage):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    seen: Count = 0
    #: Speak for the signed-in account: a seat taken by its token becomes the account's,
    #: and without a token the seat the account holds is played (the session is its
    #: credential).
    account: bool = False


class Act(SocketMessage):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=32)]
    seen: Count


class Sync(SocketMessage):
    type: Literal["sync"]
    seen: Count


class Resign(SocketMessage):
    type: Literal["resign"]


Token = Annotated[str, Field(strict=True, min_length=1, max_length=200)]


class Takeback(SocketMessage):
    type: Literal["takeback"]
    #: In a game of people only: the secrets of every seat (the client holds them all).
    tokens: Annotated[list[Token], Field(strict=True, max_length=4)] | None = None


class Claim(SocketMessage):
    type: Literal["claim"]
    seat: Annotated[int, Field(strict=True, ge=0, le=3)]
    to: Literal["computer", "end"]
    #: The computer's level for the seat (the default level when absent).
    level: Annotated[int, Field(strict=True)] | None = None

    @field_validator("level")
    @classmethod
    def _known_level(cls, level: int | None) -> int | None:
        if level is not None:
            level_name(level)  # raises ValueError with the known levels
        return level


class Rematch(SocketMessage):
    type: Literal["rematch"]


class Ping(SocketMessage):
    type: Literal["ping"]


#: The longest chat message, in characters after stripping the spaces around it.
MAX_CHAT = 300


class ChatLine(SocketMessage):
    """A chat message to the connection's room (the seats', or the spectators')."""

    type: Literal["chat"]
    text: Annotated[str, Field(strict=True, max_length=MAX_CHAT + 200)]

    @field_validator("text")
    @classmethod
    def _one_short_line(cls, text: str) -> str:
        text = text.strip()
        if not text:
            raise ValueError("say something")
        if len(text) > MAX_CHAT:
            raise ValueError(f"a chat message is at most {MAX_CHAT} characters")
        if not text.isprintable():  # a line break, a tab, a control character
            raise ValueError("a chat message is one line of printable text")
        return text


class Draw(SocketMessage):
    """Offer a draw (``offer``), or answer the other seat's offer (``accept``)."""

    type: Literal["draw"]
    offer: Literal[True] | None = None
    accept: StrictBool | None = None

    @model_validator(mode="after")
    def _offer_or_answer(self) -> Draw:
        if (self.offer is None) == (self.accept is None):
            raise ValueError("give either offer: true or accept: true/false")
        return self


class Abort(SocketMessage):
    type: Literal["abort"]


ClientMessage = (
    Hello | Act | Sync | Resign | Takeback | Claim | Rematch | Ping | ChatLine | Draw | Abort
)
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)


class BadMessage(Exception):
    """A message that is not one of the protocol's: the words for the ``error`` event."""


def parse_json_message(text: str | bytes, adapter: TypeAdapter[M]) -> M:
    """A client's message checked by ``adapter`` (a union discriminated by ``type``),
    or :class:`BadMessage` in words; shared by the game's and the analysis' sockets."""
    if isinstance(text, bytes):
        raise BadMessage("send text frames of JSON")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = loads(text)
    except JsonRefused as refused:
        where = "a message is one JSON object" if refused.field == "body" else refused.field
        raise BadMessage(f"{where}: {refused.message}") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is one JSON object")
    if not isinstance(data.get("type"), str):
        raise BadMessage("a message needs a 'type'")
    try:
        return adapter.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "type"
        if first["type"] == "union_tag_invalid":
            raise BadMessage(f"unknown message type {data['type']!r}") from None
        if first["type"] == "extra_forbidden":
            raise BadMessage(f"{where}: a {data['type']!r} message has no such field") from None
        raise BadMessage(f"{where}: {first['msg']}") from None


def parse_message(text: str | bytes) -> ClientMessage:
    """A message of the game's socket."""
    return parse_json_message(text, _ADAPTER)


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = 10.0, burst: int = 30) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

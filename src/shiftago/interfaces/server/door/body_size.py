"""The largest request body the server reads (docs/security.md, "Inputs").

Without a bound, a few clients sending bodies of a hundred megabytes each made a process
read and parse them whole: a gigabyte of memory, and other requests waited seconds. A
body is refused with ``413`` as soon as its ``Content-Length`` or the bytes that
arrived pass :data:`MAX_BODY_BYTES`, before any route reads it.
"""

from __future__ import annotations

import math
from typing import Final

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Far above the largest body the API takes (an imported record of 200,000 characters,
#: escaped in JSON), far below what would strain a process.
MAX_BODY_BYTES: Final = 2 << 20


def too_large() -> JSONResponse:
    """The answer to a body over the bound, in the API's shape for a refused field."""
    message = f"body: a request body is at most {MAX_BODY_BYTES >> 20} MiB"
    return JSONResponse({"message": message, "field": "body", "code": "too_large"}, status_code=413)


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, or None when it has none that reads."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


class BodyTooLarge(Exception):
    """A request body passed the bound it was read with."""


async def read_body(receive: Receive, most: float = math.inf) -> tuple[list[Message], bytes]:
    """A request's body, read to its end (or to a disconnect): the messages to hand on,
    one message with the whole body when it came whole, and the body;
    :class:`BodyTooLarge` as soon as it passes ``most`` bytes."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > most:
            raise BodyTooLarge
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if messages[-1]["type"] == "http.request":
        messages = [{"type": "http.request", "body": body, "more_body": False}]
    return messages, body


def replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that hands on ``messages`` first (a body read already), then
    ``receive``'s."""

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return replay


class BodySizeLimit:
    """ASGI middleware: an HTTP request whose body passes :data:`MAX_BODY_BYTES` is
    answered 413 and read no further; every other request goes on with its body."""

    def __init__(self, app: ASGIApp, most: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.most = most

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        try:
            if declared is not None and declared > self.most:
                raise BodyTooLarge
            messages, _ = await read_body(receive, self.most)
        except BodyTooLarge:
            await too_large()(scope, receive, send)
            return
        await self.app(scope, replaying(messages, receive), send)

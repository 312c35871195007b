"""Paths and query strings are text, checked at the door (docs/security.md, "Inputs").

A request's path and query string arrive percent-encoded, and may decode to bytes that
are no UTF-8 text or to the NUL character, which PostgreSQL refuses to hold or even to
compare (``psycopg.DataError``, once a 500). :class:`PlainText` refuses them before any
route: a path that is no text names nothing (404, or a socket closed before the
upgrade), a query parameter that is none is invalid input (422, naming it). JSON
strings are checked alike by :mod:`.strict_json`.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import parse_qsl, unquote_to_bytes

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Characters no text column of PostgreSQL can hold.
REFUSED_CHARACTERS: Final = "\x00"
NOT_THERE: Final = "This address is not there: a path is UTF-8 text without NUL characters."


def is_text(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 text that a database can hold."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(c in text for c in REFUSED_CHARACTERS)


def path_is_text(scope: Scope) -> bool:
    """Whether the request's path decodes to text (its raw form, where the server gave
    one; else the decoded path, in which a server put U+FFFD for undecodable bytes)."""
    raw = scope.get("raw_path")
    if raw is not None:
        return is_text(unquote_to_bytes(bytes(raw).split(b"?", 1)[0]))
    return is_text(str(scope.get("path", "")).encode("utf-8", "surrogatepass"))


def query_refusal(query: bytes) -> str | None:
    """The field of the first query parameter that is no text (``query`` when its name
    is none either), or None when every one is."""
    try:
        pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True, encoding="latin-1")
    except ValueError:
        return "query"
    for name, value in pairs:
        raw_name, raw_value = name.encode("latin-1"), value.encode("latin-1")
        if not is_text(raw_name):
            return "query"
        if not is_text(raw_value):
            return raw_name.decode("utf-8")
    return None


class PlainText:
    """ASGI middleware: a path that is no text is 404 (a socket's is closed, 403), a
    query parameter that is none 422 (the API's shape, naming the parameter)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path_ok = path_is_text(scope)
        field = query_refusal(scope.get("query_string", b"")) if path_ok else None
        if scope["type"] == "websocket":
            if path_ok and field is None:
                await self.app(scope, receive, send)
                return
            await receive()  # the connect message
            await send({"type": "websocket.close", "code": 1008})  # answered 403
            return
        if not path_ok:
            await JSONResponse({"message": NOT_THERE, "code": "not_found"}, status_code=404)(
                scope, receive, send
            )
            return
        if field is not None:
            message = f"{field}: a query parameter is UTF-8 text without NUL characters"
            answer = {"message": message, "field": field, "code": "invalid"}
            await JSONResponse(answer, status_code=422)(scope, receive, send)
            return
        await self.app(scope, receive, send)

"""JSON from clients, read strictly: the one reader of the sockets' messages and of the
HTTP API's bodies.

Python's :mod:`json` takes more than JSON: ``NaN`` and ``Infinity``, numbers too large
for a float (read as infinity), escaped lone surrogates (``"\\ud800"``, which no UTF-8
text can hold, so storing or echoing them fails later) and nesting as deep as the
interpreter's stack; and the NUL character (``"\\u0000"``), which PostgreSQL's text
cannot hold. :func:`loads` refuses each in words, so that a client's mistake is
answered as one (422 or ``bad_message``) and never reaches a route as a 500.
:class:`StrictJsonBodies` applies it to every JSON body before FastAPI reads it.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from shiftago.interfaces.server.door.body_size import read_body, replaying

#: Deeper than any message or body of the API (a new game's seats are 3 levels deep).
MAX_DEPTH: Final = 32


class JsonRefused(ValueError):
    """Text that is not the strict JSON the server reads: ``field`` names where (dotted,
    as the API's 422 does; ``body`` for the whole text), the words say why."""

    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class _NotANumber:
    """What ``NaN``, ``Infinity`` and ``-Infinity`` read as until :func:`_check` finds
    them, so that the refusal names their place."""

    def __init__(self, name: str) -> None:
        self.name = name


def loads(text: str | bytes) -> Any:
    """The value of ``text``, or :class:`JsonRefused` saying what is wrong and where."""
    try:
        value = json.loads(text, parse_constant=_NotANumber)
    except RecursionError:
        raise JsonRefused(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except UnicodeDecodeError:
        raise JsonRefused("JSON is UTF-8 text") from None
    except ValueError as error:  # JSONDecodeError, and integers of too many digits
        if isinstance(error, json.JSONDecodeError):
            raise JsonRefused(f"not valid JSON ({error.msg})") from None
        raise JsonRefused("a number of too many digits") from None
    _check(value)
    return value


def _check(value: Any) -> None:
    """Refuse non-finite numbers, lone surrogates and deep nesting, without recursing."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        field = ".".join(path) or "body"
        if isinstance(item, str):
            _check_text(item, field)
        elif isinstance(item, _NotANumber):
            raise JsonRefused(f"{item.name} is not a JSON number", field)
        elif isinstance(item, float) and not math.isfinite(item):
            raise JsonRefused("a number too large for JSON", field)
        elif isinstance(item, list | dict):
            if len(path) >= MAX_DEPTH:
                raise JsonRefused(f"JSON nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key, field)
                    stack.append((inner, (*path, key)))
            else:
                stack.extend((inner, (*path, str(i))) for i, inner in enumerate(item))


def _check_text(text: str, field: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise JsonRefused("a lone surrogate (\\ud800-\\udfff) is not text", field) from None
    if "\x00" in text:  # PostgreSQL holds no NUL in text, nor compares one
        raise JsonRefused("the NUL character (\\u0000) is not text", field)


def is_json(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether FastAPI may read the body as JSON: application/json, application/*+json,
    or no content type at all (which it reads as JSON when told to be lenient)."""
    for name, value in headers:
        if name == b"content-type":
            kind = value.split(b";")[0].strip().lower()
            return kind == b"application/json" or (
                kind.startswith(b"application/") and kind.endswith(b"+json")
            )
    return True


class StrictJsonBodies:
    """ASGI middleware: a JSON request body that :func:`loads` refuses is answered 422
    (the API's shape, ``{"message": "<field>: ...", "field": ...}``) before any route;
    every other request goes on with its body unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in ("GET", "HEAD", "OPTIONS")
            or not is_json(scope["headers"])
        ):
            await self.app(scope, receive, send)
            return
        messages, body = await read_body(receive)  # bounded before (body_size)
        if body and messages[-1]["type"] == "http.request":
            try:
                loads(body)
            except JsonRefused as refused:
                field = refused.field
                answer = {
                    "message": f"{field}: {refused.message}",
                    "field": field,
                    "code": "invalid",
                }
                await JSONResponse(answer, status_code=422)(scope, receive, send)
                return
        await self.app(scope, replaying(messages, receive), send)

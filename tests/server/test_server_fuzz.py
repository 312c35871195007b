"""Every route, fuzzed: no input answers 500, and every answer carries the security
headers, on SQLite and on PostgreSQL (issue 55; docs/security.md, "Inputs").

The routes are walked from the app itself: the API's from its OpenAPI schema (each
method, path parameter, query parameter and body field), the pages and sockets from
its routes. Each is asked with odd values in every place: the NUL character, text
that is no UTF-8, an encoded lone surrogate, very long text, and values of the wrong
kind.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from shiftago.interfaces.server import create_app
from support.server_support import Player, create, fresh_database

#: Odd path parameters and query values, percent-encoded as they travel.
ODD_IN_URL = [
    "a%00b",  # NUL: PostgreSQL refuses it
    "%00",
    "%FF%FE",  # no UTF-8
    "%ED%A0%80",  # an encoded lone surrogate
    "%C0%AF",  # an overlong encoding
    "x" * 5000,
    "%E2%80%AE%F0%9F%92%A5",  # right-to-left override, an emoji
    "-1",
    "99999999999999999999999999",
    "..%2F..%2Fetc",
    "%20",
]
#: Odd values of a JSON body's field, as JSON text.
ODD_IN_JSON = [
    '"a\\u0000b"',
    '"\\ud800"',
    '"' + "y" * 100_000 + '"',
    "null",
    "-1",
    "1e308",
    "123456789012345678901234567890",
    "[[[[[]]]]]",
    '{"": {"\\u0000": 1}}',
    "true",
    '"\\u202e"',
]
#: Whole bodies that are no JSON, or no UTF-8.
ODD_BODIES: list[bytes] = [b"\xff\xfe\x00", b'{"a": "\xc3\x28"}', b"\x00", b"[" * 5000]
SECURITY_HEADERS = (
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
)
PARAMETER = re.compile(r"\{(\w+)(?::path)?\}")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    db_url = fresh_database(request, request.param, tmp_path_factory.mktemp("fuzz"))
    many = 100_000  # the limits have their own tests; here they would hide the routes
    app = create_app(
        db_url,
        bot_delay=0,
        games_per_minute=many,
        imports_per_minute=many,
        analyses_per_minute=many,
        live_analyses_per_minute=many,
        puzzle_attempts_per_minute=many,
        logins_per_minute=many,
        computer_games_per_address=many,
        computer_games_total=many,
    )
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def operations(app: FastAPI) -> list[tuple[str, str, dict[str, Any]]]:
    """Every (method, path template, OpenAPI operation) of the API, and every page."""
    found = [
        (method.upper(), path, operation)
        for path, item in app.openapi()["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    listed = {(m, p) for m, p, _ in found}
    for route in app.routes:
        if isinstance(route, APIRoute):
            for method in sorted(route.methods - {"HEAD"}):
                if (method, route.path) not in listed:
                    found.append((method, route.path, {}))
    return found


def body_fields(app: FastAPI, operation: dict[str, Any]) -> list[str]:
    """The top-level fields of an operation's JSON body (none when it takes none)."""
    content = operation.get("requestBody", {}).get("content", {})
    schema = content.get("application/json", {}).get("schema", {})
    ref = schema.get("$ref") or next(
        (s.get("$ref") for s in schema.get("anyOf", []) if "$ref" in s), None
    )
    if ref is None:
        return ["value"] if content else []
    components = app.openapi()["components"]["schemas"]
    return list(components[ref.rsplit("/", 1)[-1]].get("properties", {}))


def query_names(operation: dict[str, Any]) -> list[str]:
    return [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]


def fill(path: str, value: str, real: dict[str, str]) -> Iterator[str]:
    """The path with ``value`` in each parameter in turn (the others real where known)."""
    for odd in PARAMETER.findall(path):
        given = {**real, odd: value}
        yield PARAMETER.sub(lambda m, given=given: given.get(m[1], "x"), path)  # type: ignore[misc]


def check(answer: Any, what: str) -> None:
    assert answer.status_code < 500 or answer.status_code == 503, (what, answer.text[:300])
    for header in SECURITY_HEADERS:
        assert header in answer.headers, (what, answer.status_code, header)


def test_no_input_to_any_route_is_a_500(client: TestClient) -> None:
    app: FastAPI = client.app  # type: ignore[assignment]
    game_id, _ = create(client)
    seek = client.post("/api/seeks", json={}).json()
    real = {"game_id": game_id, "seek_id": str(seek.get("id", "x")), "name": "nobody"}
    json_headers = {"content-type": "application/json"}
    asked = 0
    for method, path, operation in operations(app):
        fields = body_fields(app, operation)
        urls = [PARAMETER.sub(lambda m: real.get(m[1], "x"), path)]
        urls += [url for value in ODD_IN_URL for url in fill(path, value, real)]
        names = [*query_names(operation), "seat", "zzz"]
        pairs = itertools.product(names, ODD_IN_URL)
        urls += [f"{urls[0]}?{name}={value}" for name, value in pairs]
        for url in urls:
            answer = client.request(method, url, json={} if fields else None)
            check(answer, f"{method} {url[:120]}")
            asked += 1
        if method == "GET":
            continue
        bodies = [
            ("{" + f'"{field}": {value}' + "}").encode()
            for field, value in itertools.product(fields or ["value"], ODD_IN_JSON)
        ]
        for body in [*bodies, *ODD_BODIES]:
            answer = client.request(method, urls[0], content=body, headers=json_headers)
            check(answer, f"{method} {urls[0]} {body[:80]!r}")
            asked += 1
    assert asked > 1000  # every route was walked, with every odd value


@pytest.mark.parametrize("value", ["a%00b", "%FF", "%ED%A0%80"])
def test_a_socket_path_or_query_that_is_no_text_is_closed_before_the_upgrade(
    client: TestClient, value: str
) -> None:
    app: FastAPI = client.app  # type: ignore[assignment]
    paths = [r.path for r in app.routes if isinstance(r, APIWebSocketRoute)]
    assert "/ws/games/{game_id}" in paths
    for path in paths:
        for url in [*fill(path, value, {}), f"{path}?seat={value}"]:
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url):
                pass
            assert closed.value.code == 1008, url


def test_a_socket_s_odd_messages_fail_nothing(client: TestClient) -> None:
    game_id, _ = create(client)
    for url in (f"/ws/games/{game_id}", f"/ws/games/{'x' * 5000}", "/ws/lobby"):
        try:
            with client.websocket_connect(url) as ws:
                player = Player(ws)
                for text in ('{"type": "hello", "seat": "a\\u0000b"}', "\x00", "[" * 5000):
                    ws.send_text(text)
                    player.until_type("error")  # a lobby's list may come first
        except WebSocketDisconnect as closed:
            assert closed.code != 1011, url  # 1011: the server failed


def test_static_files_and_pages_take_odd_paths(client: TestClient, tmp_path: Path) -> None:
    for value in ODD_IN_URL:
        for url in (f"/static/{value}", f"/{value}", f"/players/{value}"):
            check(client.get(url), url)

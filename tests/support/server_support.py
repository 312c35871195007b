"""Helpers for the server's tests: a fresh database per test (SQLite or PostgreSQL), a
test client, and a WebSocket player that never waits forever."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from shiftago.interfaces.server import create_app
from support.migrated import seed_postgres, seed_sqlite

TIMEOUT = 20.0


def fresh_database(request: pytest.FixtureRequest, kind: str, tmp_path: Path) -> str:
    """A new, empty database: a SQLite file, or a new database on the session's PostgreSQL."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'shiftago.db'}"
    server_url = request.getfixturevalue("postgres_url")
    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def addressed(app: Any) -> Any:
    """The app with each request's address taken from the test's ``x-test-address``
    header (as the security middleware takes it from a trusted proxy)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 1234)}
        await app(scope, receive, send)

    return wrapped


def at(address: str) -> dict[str, str]:
    return {"x-test-address": address}


@contextmanager
def client_for(db_url: str, **options: Any) -> Iterator[TestClient]:
    """The app on ``db_url`` with its start-up and shut-down, as a test client. A new
    SQLite file or empty PostgreSQL database starts migrated (:mod:`support.migrated`)."""
    options.setdefault("bot_delay", 0)
    seed_sqlite(db_url)
    seed_postgres(db_url)
    with TestClient(create_app(db_url, **options)) as client:
        yield client


def create(client: TestClient, **body: Any) -> tuple[str, list[str | None]]:
    """Create a game; its id and each seat's token (None for a computer)."""
    body.setdefault("variant", "express")
    players = body.setdefault("players", 2)
    body.setdefault("seats", [{"kind": "human"} for _ in range(players)])
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    tokens = [
        seat["join_url"].split("?seat=")[1] if "join_url" in seat else None
        for seat in data["seats"]
    ]
    return data["id"], tokens


class Player:
    """One WebSocket connection in a test: send messages, read events with a timeout."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        self.ws._raise_on_close(message)
        result: dict[str, Any] = json.loads(message["text"])
        return result

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read events until one is ``wanted``; return it."""
        while True:
            event = self.receive()
            if wanted(event):
                return event

    def until_type(self, kind: str) -> dict[str, Any]:
        return self.until(lambda e: e["type"] == kind)

    def flush(self) -> list[dict[str, Any]]:
        """Everything the server sent before a pong to a ping sent now."""
        self.send({"type": "ping"})
        events = []
        while (event := self.receive())["type"] != "pong":
            events.append(event)
        return events

    def hello(self, token: str | None = None, seen: int = 0) -> list[dict[str, Any]]:
        """Say hello; the events up to and including the first presence."""
        self.send({"type": "hello", "token": token, "seen": seen})
        events = []
        while True:
            events.append(self.receive())
            if events[-1]["type"] == "presence":
                return events

    def act(self, action: str, seen: int) -> dict[str, Any]:
        """Play an action; the server's answer: that action's event or an error."""
        self.send({"type": "act", "action": action, "seen": seen})
        return self.until(
            lambda e: e["type"] == "error" or (e["type"] == "action" and e["version"] == seen + 1)
        )


@contextmanager
def connect(client: TestClient, game_id: str, **kwargs: Any) -> Iterator[Player]:
    with client.websocket_connect(f"/ws/games/{game_id}", **kwargs) as ws:
        yield Player(ws)


def open_socket(url: str) -> ClientConnection:
    """A socket to a real server (``ws://...``), opened as websockets wants it (17.1
    warns of a connection used outside its context); ``close()`` closes it."""
    return ws_connect(url, open_timeout=10).__enter__()

"""Signed-in players in API tests: an account's cookies, a client acting as it, a game
socket that speaks for it, and the games it holds."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from support.server_support import Player

PASSWORD = "a long password"


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """A new account's cookies (the client is left signed out)."""
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    cookies = dict(client.cookies.items())
    client.cookies.clear()
    return cookies


@contextmanager
def as_account(client: TestClient, cookies: dict[str, str] | None) -> Iterator[None]:
    client.cookies.clear()
    for key, value in (cookies or {}).items():
        client.cookies.set(key, value)
    try:
        yield
    finally:
        client.cookies.clear()


@contextmanager
def seat(
    client: TestClient, game_id: str, token: str | None, account: bool = True
) -> Iterator[tuple[Player, dict[str, Any]]]:
    """A game socket said hello (for the account when ``account``); its welcome."""
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        player = Player(ws)
        player.send({"type": "hello", "token": token, "seen": 0, "account": account})
        welcome = player.until_type("welcome")
        player.until_type("presence")
        yield player, welcome


def games(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/account/games")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body

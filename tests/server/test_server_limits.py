"""Limits per address (docs/web-protocol.md, "Limits and presence"): rates of new games,
imports and analyses (429 with Retry-After), caps on games without a person, sockets
per address; counted in memory, or in Redis by several processes together."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from shiftago.core import Variant
from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.door.limits import (
    WINDOW,
    MemoryLimiter,
    RedisLimiter,
    limiter_for,
)
from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec, build, rematch_spec
from support.server_support import Player, addressed, at, create

#: Orange wins at once with L1 or Be (a position for the analysis socket).
CHANCE = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
COMPUTERS = {"seats": [{"kind": "computer", "level": 1}, {"kind": "computer", "level": 1}]}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'limits.db'}"


@contextmanager
def client_for(db_url: str, **options: Any) -> Iterator[TestClient]:
    options.setdefault("bot_delay", 0)
    app = create_app(db_url, **options)
    with TestClient(addressed(app)) as client:
        client.app_state = app.state  # type: ignore[attr-defined]
        yield client


def assert_limited(answer: Any, code: str) -> int:
    assert answer.status_code == 429, answer.text
    body = answer.json()
    assert body["code"] == code and body["message"]
    wait = int(answer.headers["retry-after"])
    assert 1 <= wait <= WINDOW
    return wait


# --- the counters ----------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_memory_limiter_counts_a_minute_from_the_first_request():
    clock = Clock()
    limiter = MemoryLimiter(clock)
    hits = [asyncio.run(limiter.hit("games:a", 3)) for _ in range(3)]
    assert hits == [0, 0, 0]
    clock.now += 20
    assert asyncio.run(limiter.hit("games:a", 3)) == 40  # the window's seconds left
    assert asyncio.run(limiter.hit("games:b", 3)) == 0  # another address counts alone
    clock.now += 40
    assert asyncio.run(limiter.hit("games:a", 3)) == 0  # a new window


def test_memory_limiter_forgets_old_windows_and_keeps_a_bounded_number():
    clock = Clock()
    limiter = MemoryLimiter(clock, max_tracked=100)

    async def hits(keys: range) -> None:
        for n in keys:
            await limiter.hit(f"games:{n}", 5)

    asyncio.run(hits(range(50)))
    assert len(limiter.windows) == 50
    clock.now += WINDOW
    asyncio.run(hits(range(50, 51)))
    assert list(limiter.windows) == ["games:50"]  # the ended windows are forgotten
    asyncio.run(hits(range(1000)))
    assert len(limiter.windows) <= 100


def test_limiter_for_chooses_redis_when_the_app_has_one_and_keeps_it():
    app = SimpleNamespace(state=SimpleNamespace())
    memory = limiter_for(app)
    assert isinstance(memory, MemoryLimiter) and limiter_for(app) is memory
    app.state.redis = None
    assert limiter_for(app) is memory
    import redis.asyncio

    app.state.redis = redis.asyncio.Redis()  # not connected until used
    shared = limiter_for(app)
    assert isinstance(shared, RedisLimiter) and limiter_for(app) is shared


def test_redis_limiter_counts_for_every_process_together(redis_url):
    import redis.asyncio

    async def run() -> list[int]:
        first, second = (
            redis.asyncio.Redis.from_url(redis_url),
            redis.asyncio.Redis.from_url(redis_url),
        )
        try:
            one, two = RedisLimiter(first), RedisLimiter(second)
            answers = [
                await one.hit("games:a", 3),
                await two.hit("games:a", 3),
                await one.hit("games:a", 3),
                await two.hit("games:a", 3),
                await one.hit("games:b", 3),
            ]
            ttl = await first.pttl(RedisLimiter.PREFIX + "games:a")
            assert 0 < ttl <= WINDOW * 1000
            return answers
        finally:
            await first.aclose()
            await second.aclose()

    answers = asyncio.run(run())
    assert answers[:3] == [0, 0, 0]
    assert 1 <= answers[3] <= WINDOW
    assert answers[4] == 0


def test_two_apps_on_one_redis_share_the_rate(sqlite_url, tmp_path, redis_url):
    import redis.asyncio

    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    with (
        client_for(sqlite_url, games_per_minute=2) as one,
        client_for(other_url, games_per_minute=2) as two,
    ):
        for client in (one, two):
            client.app_state.redis = redis.asyncio.Redis.from_url(redis_url)
        try:
            assert one.post("/api/games", json={}, headers=at("10.0.0.1")).status_code == 201
            assert two.post("/api/games", json={}, headers=at("10.0.0.1")).status_code == 201
            assert_limited(two.post("/api/games", json={}, headers=at("10.0.0.1")), "rate_limited")
            assert_limited(one.post("/api/games", json={}, headers=at("10.0.0.1")), "rate_limited")
            assert one.post("/api/games", json={}, headers=at("10.0.0.2")).status_code == 201
        finally:
            for client in (one, two):
                client.portal.call(client.app_state.redis.aclose)


# --- rates over HTTP -------------------------------------------------------------------
def test_new_games_over_the_rate_answer_429_with_retry_after(sqlite_url):
    with client_for(sqlite_url, games_per_minute=2) as client:
        for _ in range(2):
            assert client.post("/api/games", json={}, headers=at("10.0.0.1")).status_code == 201
        answer = client.post("/api/games", json={}, headers=at("10.0.0.1"))
        assert_limited(answer, "rate_limited")
        assert "at most 2 a minute" in answer.json()["message"]
        assert client.post("/api/games", json={}, headers=at("10.0.0.2")).status_code == 201


def test_an_ipv6_client_moving_within_its_64_is_one_address(sqlite_url):
    with client_for(sqlite_url, games_per_minute=2) as client:
        for host in ("1", "2"):
            created = client.post("/api/games", json={}, headers=at(f"2001:db8:1:2::{host}"))
            assert created.status_code == 201
        refused = client.post("/api/games", json={}, headers=at("2001:db8:1:2:ffff::3"))
        assert_limited(refused, "rate_limited")
        other = client.post("/api/games", json={}, headers=at("2001:db8:1:3::1"))
        assert other.status_code == 201  # another /64: another client


def test_imports_count_as_imports_and_as_new_games(sqlite_url):
    with client_for(sqlite_url, games_per_minute=3, imports_per_minute=1) as client:
        game_id, _ = create(client)
        record = client.get(f"/api/games/{game_id}/record").text  # one new game counted
        answer = client.post("/api/games/import", json={"record": record})
        assert answer.status_code == 201, answer.text
        answer = client.post("/api/games/import", json={"record": record})
        assert_limited(answer, "rate_limited")
        assert "imported games" in answer.json()["message"]
        # the game, the import (the refused one is no new game) and this one make 3
        assert client.post("/api/games", json={}).status_code == 201
        assert_limited(client.post("/api/games", json={}), "rate_limited")


def test_reviews_over_the_rate_answer_429(sqlite_url):
    with client_for(sqlite_url, analyses_per_minute=1) as client:
        game_id, _ = create(client)
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        answer = client.post(f"/api/games/{game_id}/analysis")
        assert_limited(answer, "rate_limited")
        assert client.get(f"/api/games/{game_id}/analysis").status_code == 200  # reads are free


def test_live_analyses_over_the_rate_answer_an_error_and_the_socket_goes_on(sqlite_url):
    with (
        client_for(sqlite_url, live_analyses_per_minute=1, live_analysis_cap=2_000) as client,
        client.websocket_connect("/ws/analysis") as ws,
    ):
        player = Player(ws)
        player.send({"type": "analyse", "position": CHANCE, "lines": 1})
        assert player.until(lambda e: e.get("final") is True)["type"] == "lines"
        player.send({"type": "analyse", "position": CHANCE, "lines": 1})
        refusal = player.receive()
        assert refusal["type"] == "error" and refusal["code"] == "rate_limited"
        assert 1 <= refusal["retry_after"] <= WINDOW
        assert player.flush() == []  # still open, nothing else sent


# --- games without a person ------------------------------------------------------------
def test_games_without_a_person_are_capped_per_address_and_in_all(sqlite_url):
    options = {"computer_games_per_address": 2, "computer_games_total": 3, "bot_delay": 60}
    with client_for(sqlite_url, **options) as client:
        ids = []
        for _ in range(2):
            answer = client.post("/api/games", json=COMPUTERS, headers=at("10.0.0.1"))
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["id"])
        answer = client.post("/api/games", json=COMPUTERS, headers=at("10.0.0.1"))
        assert_limited(answer, "too_many_computer_games")
        assert "your address" in answer.json()["message"]
        record = client.get(f"/api/games/{ids[0]}/record").text
        answer = client.post("/api/games/import", json={"record": record}, headers=at("10.0.0.1"))
        assert_limited(answer, "too_many_computer_games")
        # a game with a person is no computer's game
        assert client.post("/api/games", json={}, headers=at("10.0.0.1")).status_code == 201
        assert client.post("/api/games", json=COMPUTERS, headers=at("10.0.0.2")).status_code == 201
        answer = client.post("/api/games", json=COMPUTERS, headers=at("10.0.0.3"))
        assert_limited(answer, "too_many_computer_games")
        assert "in all" in answer.json()["message"]
        hub = client.app_state.hub
        assert client.portal.call(hub.db, hub.store.load, ids[0]).owner == "10.0.0.1"


def test_a_game_keeps_its_owner_into_the_rematch():
    spec = GameSpec(
        Variant.EXPRESS, 2, [SeatSpec("human", "Ann"), SeatSpec("human", "Ben")], owner="10.1.2.3"
    )
    live, _ = build(spec)
    assert live.stored.owner == "10.1.2.3"
    assert rematch_spec(live).owner == "10.1.2.3"


# --- sockets ---------------------------------------------------------------------------
def refusal(client: TestClient, path: str, address: str) -> WebSocketDenialResponse:
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(path, headers=at(address)),
    ):
        pass
    return refused.value


def test_sockets_per_address_are_capped_and_freed_when_they_close(sqlite_url):
    with client_for(sqlite_url, sockets_per_address=2) as client:
        game_id, _ = create(client)
        first = client.websocket_connect(f"/ws/games/{game_id}", headers=at("10.0.0.1"))
        with first, client.websocket_connect("/ws/analysis", headers=at("10.0.0.1")):
            refused = refusal(client, f"/ws/games/{game_id}", "10.0.0.1")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
            assert refused.json()["code"] == "too_many_sockets"
            assert refusal(client, "/ws/analysis", "10.0.0.1").status_code == 429
            with client.websocket_connect(f"/ws/games/{game_id}", headers=at("10.0.0.2")) as ws:
                Player(ws).hello()
        counts = client.app_state.socket_counts.open
        assert counts.get("10.0.0.1", 0) == 0
        with client.websocket_connect(f"/ws/games/{game_id}", headers=at("10.0.0.1")) as ws:
            Player(ws).hello()


def test_a_redis_that_hangs_lets_requests_through_uncounted(sqlite_url, monkeypatch, caplog):
    """A Redis that accepts and never answers (stopped, a partition) is a Redis away:
    the limits let the request through after a short wait instead of holding it up,
    and an event that cannot be published is kept for later. The hang is 20 s; the
    request answers long before it."""
    import logging
    import time

    from shiftago.interfaces.server.door import limits
    from shiftago.interfaces.server.games import publisher

    class HungLimiter:
        async def hit(self, key: str, limit: int) -> int:
            await asyncio.sleep(20)  # a hang: the time it takes is what is checked
            return 0

    async def hung_publish(event: Any) -> None:
        await asyncio.sleep(20)  # a hang, as above

    monkeypatch.setattr(limits, "COUNT_SECONDS", 0.2)
    monkeypatch.setattr(publisher, "REDIS_ANSWER_SECONDS", 0.2)
    monkeypatch.setattr(limits, "limiter_for", lambda app: HungLimiter())
    with client_for(sqlite_url) as client, caplog.at_level(logging.WARNING):
        monkeypatch.setattr(client.app_state.hub.bus, "publish", hung_publish)
        started = time.monotonic()
        answer = client.post("/api/games", json={"variant": "express", "players": 2, "first": "o"})
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        token = answer.json()["seats"][0]["join_url"].split("?seat=")[1]
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            player = Player(ws)
            player.hello(token)
            assert player.act("L3", 0)["type"] == "action"  # its event waits for Redis
        assert client.get(f"/api/games/{game_id}").json()["actions"] == ["L3"]
        assert time.monotonic() - started < 10
    assert "rate limits not counted: Redis did not answer in time" in caplog.text
    assert "could not be published: no answer in time" in caplog.text

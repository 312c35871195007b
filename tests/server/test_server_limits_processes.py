"""The cap on games without a person over several processes (docs/web-protocol.md,
"Games without a person"): with Redis, every process counts and stores them under one
Redis lock, which a killed holder cannot keep and a Redis away does not turn into a
refusal."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.limits import COMPUTER_GAMES_LOCK, LOCK_TIMEOUT, redis_lock
from support.server_support import fresh_database
from support.web_fixtures import free_port

COMPUTERS = {"seats": [{"kind": "computer", "level": 1}, {"kind": "computer", "level": 1}]}


@contextmanager
def client_on_redis(db_url: str, redis_url: str, **options: Any) -> Iterator[TestClient]:
    """The app with ``redis_url``'s client as its Redis (as ``--redis`` gives it), its
    jobs run in the process as without Redis."""
    import redis.asyncio

    options.setdefault("bot_delay", 60)
    app = create_app(db_url, **options)
    with TestClient(app) as client:
        app.state.redis = redis.asyncio.Redis.from_url(redis_url)
        try:
            yield client
        finally:
            client.portal.call(app.state.redis.aclose)


def assert_capped(answer: httpx.Response | Any) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.json()["code"] == "too_many_computer_games"
    assert answer.headers["retry-after"] == str(limits.COMPUTER_GAMES_RETRY)


def test_two_processes_together_create_exactly_the_cap(request, tmp_path, redis_url, start_server):
    """Twelve creations at once, six on each of two serve processes on one PostgreSQL
    and Redis, under a total cap of 3: three are made, nine refused."""
    db_url = fresh_database(request, "postgresql", tmp_path)
    args = (
        "--redis", redis_url,
        "--computer-games-total", "3",
        "--computer-games-per-address", "100",
        "--games-per-minute", "1000",
    )  # fmt: skip
    servers = [start_server(db_url=db_url, args=args) for _ in range(2)]
    start = threading.Barrier(12)
    answers: list[httpx.Response] = []

    def create(server: Any) -> None:
        start.wait()
        answers.append(server.api("POST", "/api/games", json=COMPUTERS))

    threads = [threading.Thread(target=create, args=(servers[n % 2],)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 12
    made = [a for a in answers if a.status_code == 201]
    assert len(made) == 3, [a.text for a in answers]
    for answer in answers:
        if answer.status_code != 201:
            assert_capped(answer)
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM games")).scalar() == 3
    finally:
        engine.dispose()


def test_the_lock_expires_and_is_let_go(redis_url):
    import redis.asyncio

    async def run() -> tuple[int, int]:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            async with redis_lock(client, "shiftago:lock:test") as held:
                assert held
                ttl = await client.pttl("shiftago:lock:test")
            return ttl, await client.exists("shiftago:lock:test")
        finally:
            await client.aclose()

    ttl, left = asyncio.run(run())
    assert 0 < ttl <= LOCK_TIMEOUT * 1000  # a killed holder frees it
    assert left == 0


def test_a_lock_left_by_a_killed_holder_is_waited_for_then_taken(tmp_path: Path, redis_url, caplog):
    import redis

    # a holder killed while it held the lock: its key stays until it expires
    redis.Redis.from_url(redis_url).set(COMPUTER_GAMES_LOCK, "dead", px=300)
    with client_on_redis(f"sqlite:///{tmp_path / 'a.db'}", redis_url) as client:
        with caplog.at_level(logging.WARNING, logger="shiftago.server"):
            answer = client.post("/api/games", json=COMPUTERS)
        assert answer.status_code == 201, answer.text
        assert "without the Redis lock" not in caplog.text  # it was had, after the wait


def test_a_lock_held_too_long_is_given_up_with_a_warning(
    tmp_path: Path, redis_url, caplog, monkeypatch
):
    import redis

    monkeypatch.setattr(limits, "LOCK_WAIT", 0.2)
    redis.Redis.from_url(redis_url).set(COMPUTER_GAMES_LOCK, "stuck")
    with client_on_redis(f"sqlite:///{tmp_path / 'a.db'}", redis_url) as client:
        with caplog.at_level(logging.WARNING, logger="shiftago.server"):
            answer = client.post("/api/games", json=COMPUTERS)
        assert answer.status_code == 201, answer.text
        assert "without the Redis lock shiftago:lock:computer-games: not had" in caplog.text
    assert redis.Redis.from_url(redis_url).get(COMPUTER_GAMES_LOCK) == b"stuck"


def test_a_redis_away_falls_back_to_the_process_lock(tmp_path: Path, caplog):
    away = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    options = {"computer_games_per_address": 1}
    with client_on_redis(f"sqlite:///{tmp_path / 'a.db'}", away, **options) as client:
        with caplog.at_level(logging.WARNING, logger="shiftago.server"):
            assert client.post("/api/games", json=COMPUTERS).status_code == 201
            assert_capped(client.post("/api/games", json=COMPUTERS))  # still counted
        assert "going on without the Redis lock" in caplog.text


def test_a_redis_that_hangs_is_a_redis_away_for_the_lock(monkeypatch, caplog):
    """A Redis that accepts and never answers (stopped): each try for the lock waits
    COUNT_SECONDS, then the block runs under the process lock alone, as with a Redis
    that is down (the hang is 20 s; the block runs long before)."""
    import time

    class HungLock:
        async def acquire(self, blocking: bool = True) -> bool:
            await asyncio.sleep(20)  # a hang: the time it takes is what is checked
            return True

        async def release(self) -> None:
            return None

    class HungRedis:
        def lock(self, name: str, **options: Any) -> HungLock:
            return HungLock()

    async def held_in_the_block() -> bool:
        async with limits.redis_lock(HungRedis(), "shiftago:lock:test") as held:  # type: ignore[arg-type]
            return held

    monkeypatch.setattr(limits, "COUNT_SECONDS", 0.1)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="shiftago.server"):
        assert asyncio.run(held_in_the_block()) is False
    assert time.monotonic() - started < 10
    assert "without the Redis lock shiftago:lock:test: Redis did not answer within 0.1 s" in (
        caplog.text
    )

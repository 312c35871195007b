"""Sign-in under attack (docs/security.md, "Sign-in under attack"): a crowd of addresses
sending wrong passwords neither locks an account's owner out nor makes a real sign-in
wait (the bounded hashing pool and its lanes, accounts/hashing.py), a full pool answers
429 at once, and common passwords are refused for new accounts only."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.accounts import routes
from shiftago.interfaces.server.accounts.accounts import hash_password, password_matches
from shiftago.interfaces.server.accounts.devices import DEVICE_COOKIE
from shiftago.interfaces.server.accounts.hashing import Busy, HashingPool
from shiftago.interfaces.server.accounts.store import create_account
from shiftago.interfaces.server.db.store import open_engine
from shiftago.interfaces.server.door.limits import MemoryLimiter
from shiftago.interfaces.server.games.store import Store
from support.server_support import addressed, at, fresh_database
from support.waiting import wait_until, wait_until_async

PASSWORD = "correct horse"
OWNER = "192.0.2.200"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'sign_in.db'}"


@contextmanager
def client_for(db_url: str, **options: Any) -> Iterator[tuple[TestClient, Any]]:
    """A client whose requests come from the address of their ``at(...)`` header, and
    the app (its hashing pool is ``app.state.hashing``)."""
    options.setdefault("bot_delay", 0)
    app = create_app(db_url, **options)
    with TestClient(addressed(app)) as client:
        yield client, app


def sign_in(client: TestClient, address: str, password: str, name: str = "ann") -> Any:
    client.cookies.clear()
    return client.post(
        "/api/session", json={"name": name, "password": password}, headers=at(address)
    )


def sign_up(client: TestClient, address: str, password: str = PASSWORD) -> Any:
    client.cookies.clear()
    return client.post(
        "/api/accounts", json={"name": "ann", "password": password}, headers=at(address)
    )


def pool_of(app: Any) -> HashingPool:
    pool: HashingPool = app.state.hashing
    return pool


# --- a crowd of addresses ----------------------------------------------------------------
def test_a_crowd_of_addresses_cannot_lock_the_owner_out(db_url):
    """20 addresses each sending 10 wrong passwords for ann (each within its own limit
    per minute): after the account's budget of wrong passwords, their guesses are refused
    before any hashing, and the owner, from an address without failures, signs in."""
    with client_for(db_url) as (client, app):
        assert sign_up(client, OWNER).status_code == 201
        statuses = [
            sign_in(client, f"198.51.100.{n}", f"wrong guess {n} {k}").status_code
            for k in range(10)
            for n in range(20)
        ]
        assert set(statuses) == {401, 429}
        # each address's first guess was checked; then the account's budget (10) was spent
        assert statuses[:20] == [401] * 20 and set(statuses[20:]) == {429}
        pool = pool_of(app)
        assert pool.counts["clean ran"] == 1 + 20  # the sign-up and each first guess
        assert pool.counts["suspect ran"] == 0  # no failed address's guess was hashed
        # an attacker's address is barred from the account, even with the right password
        assert sign_in(client, "198.51.100.1", PASSWORD).status_code == 429
        owner = sign_in(client, OWNER, PASSWORD)
        assert owner.status_code == 200, owner.text
        assert pool.counts["clean waited"] == 0 and pool.counts["clean refused"] == 0


def test_thirteen_addresses_do_not_lock_an_account(sqlite_url):
    """The issue's case: 13 wrong sign-ins from 13 addresses, and the owner still signs
    in, from a new address as from the one she signed up on."""
    with client_for(sqlite_url) as (client, _app):
        assert sign_up(client, OWNER).status_code == 201
        for n in range(13):
            assert sign_in(client, f"203.0.113.{n}", "not her password").status_code == 401
        assert sign_in(client, OWNER, PASSWORD).status_code == 200
        assert sign_in(client, "192.0.2.201", PASSWORD).status_code == 200


def test_wrong_passwords_from_one_address_lock_only_that_address(sqlite_url):
    with client_for(sqlite_url, failed_logins_per_account_and_address=3) as (client, _app):
        assert sign_up(client, OWNER).status_code == 201
        statuses = [sign_in(client, "203.0.113.7", f"wrong {n:04}").status_code for n in range(4)]
        assert statuses == [401, 401, 401, 429]
        locked = sign_in(client, "203.0.113.7", PASSWORD)
        assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
        assert 1 <= int(locked.headers["Retry-After"]) <= 60
        assert sign_in(client, OWNER, PASSWORD).status_code == 200


def test_the_server_s_budget_of_wrong_passwords_bars_failed_addresses_only(sqlite_url):
    """Over ``failed_logins_per_minute`` on the whole server, an address that failed is
    refused before hashing on any account; one without failures is still checked."""
    with client_for(sqlite_url, failed_logins_per_minute=4) as (client, app):
        assert sign_up(client, OWNER).status_code == 201
        for n in range(4):  # four names, one address each: no account is over its budget
            assert (
                sign_in(client, f"203.0.113.{n}", "wrong password", f"name{n}").status_code == 401
            )
        refused = sign_in(client, "203.0.113.0", "wrong password", "someone")
        assert (
            refused.status_code == 429 and "too many wrong passwords" in refused.json()["message"]
        )
        assert pool_of(app).counts["suspect ran"] == 0
        assert sign_in(client, "203.0.113.99", "wrong password", "someone").status_code == 401
        assert sign_in(client, OWNER, PASSWORD).status_code == 200


# --- the bounded pool -------------------------------------------------------------------
def test_a_full_hashing_queue_answers_429_at_once_and_the_owner_is_not_made_to_wait(
    sqlite_url, monkeypatch
):
    """Wrong guesses held in the pool (their check blocks until released): one runs and
    half the queue waits; the next is refused at once with 429 and Retry-After, while the
    owner's sign-in, from a clean address, runs on the thread kept for clean checks
    without waiting."""
    release = threading.Event()
    release.set()

    def held(stored_hash: str | None, password: str) -> bool:
        if password != PASSWORD:
            release.wait(timeout=60)
        return password_matches(stored_hash, password)

    monkeypatch.setattr(routes, "password_matches", held)
    options = {"password_checks_at_once": 2, "password_checks_queued": 4}
    with client_for(sqlite_url, **options) as (client, app):
        assert sign_up(client, OWNER).status_code == 201
        attackers = [f"198.51.100.{n}" for n in range(4)]
        for address in attackers:  # each fails once elsewhere: now suspect
            assert sign_in(client, address, "wrong password", "bob").status_code == 401
        pool = pool_of(app)
        release.clear()
        with ThreadPoolExecutor(len(attackers)) as threads:
            guesses = [
                threads.submit(sign_in, client, address, "another guess") for address in attackers
            ]
            # one guess runs, two wait (half the queue), the fourth was refused at once
            wait_until(
                lambda: (pool.running, pool.queue_length(), pool.counts["suspect refused"]),
                lambda state: state == (1, 2, 1),
                what=lambda: f"the pool: {pool.running} running, {pool.counts}",
            )
            owner = sign_in(client, OWNER, PASSWORD)
            assert owner.status_code == 200, owner.text
            assert pool.counts["clean waited"] == 0 and pool.counts["clean refused"] == 0
            release.set()
            answers = [guess.result(timeout=60) for guess in guesses]
        busy = [a for a in answers if a.status_code == 429]
        assert sorted(a.status_code for a in answers) == [401, 401, 401, 429]
        assert busy[0].json()["code"] == "busy" and busy[0].headers["Retry-After"] == "1"
        assert pool.running == 0 and pool.queue_length() == 0
        # the pool's figures, as /healthz and /metrics show them
        health = client.get("/healthz").json()["password_checks"]
        assert health["running"] == 0 and health["queued"] == 0
        assert health["lanes"]["suspect"] == {"queued": 0, "ran": 3, "waited": 2, "refused": 1}
        assert health["lanes"]["clean"]["refused"] == 0
        metrics = client.get("/metrics", headers=at("127.0.0.1")).text
        assert 'shiftago_password_checks_total{lane="suspect",outcome="refused"} 1.0' in metrics
        assert 'shiftago_password_checks_total{lane="suspect",outcome="waited"} 2.0' in metrics
        assert 'shiftago_password_checks_queued{lane="suspect"} 0.0' in metrics
        assert "shiftago_password_checks_running 0.0" in metrics


def test_the_pool_serves_clean_checks_first():
    """Unit: a suspect check leaves one thread to clean ones; with every thread taken, a
    clean check waiting goes before suspect ones that came earlier; a suspect one beyond
    half the queue is refused at once."""

    async def scenario() -> list[str]:
        pool = HashingPool(threads=2, queued=4)
        gates = {name: threading.Event() for name in ("s1", "c1", "s2", "s3", "c2")}
        started: list[str] = []

        def job(name: str) -> str:
            started.append(name)
            gates[name].wait(timeout=30)
            return name

        def run(lane: Any, name: str) -> asyncio.Future[str]:
            return asyncio.ensure_future(pool.run(lane, job, name))

        first = [run("suspect", "s1"), run("clean", "c1")]
        await asyncio.sleep(0)
        later = [run("suspect", "s2"), run("suspect", "s3")]
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await pool.run("suspect", job, "s4")
        later.append(run("clean", "c2"))
        await asyncio.sleep(0)
        assert pool.running == 2 and pool.queue_length() == 3
        for name in ("c1", "c2", "s2", "s3"):
            gates[name].set()
        # c1 ends: its thread goes to c2, not to the suspect checks that waited longer
        await wait_until_async(
            lambda: "c2" in started and pool.running == 1,
            what=lambda: f"started {started}, {pool.running} running",
        )
        assert "s2" not in started and pool.counts["clean waited"] == 1
        gates["s1"].set()
        await asyncio.gather(*first, *later)
        assert pool.counts["suspect refused"] == 1 and pool.counts["suspect waited"] == 2
        return started

    started = asyncio.run(scenario())
    assert started[2:] == ["c2", "s2", "s3"]


def test_known_devices_have_a_slot_and_a_queue_that_unknown_browsers_never_fill():
    """Unit: clean checks take every thread and three quarters of the shared queue, then
    are refused; a known device still runs at once in its own slot, the next ones wait
    in their own queue (half the queue's size), and one beyond it is refused."""

    async def scenario() -> None:
        pool = HashingPool(threads=2, queued=4)
        gate = threading.Event()

        def job() -> None:
            gate.wait(timeout=30)

        def run(lane: Any) -> asyncio.Future[None]:
            return asyncio.ensure_future(pool.run(lane, job))

        clean = [run("clean") for _ in range(5)]
        await asyncio.sleep(0)
        assert (pool.running, pool.queue_length()) == (2, 3)
        with pytest.raises(Busy):
            await pool.run("clean", job)
        devices = [run("device") for _ in range(3)]
        await asyncio.sleep(0)
        assert pool.running == 3 and len(pool.waiting["device"]) == 2
        with pytest.raises(Busy):
            await pool.run("device", job)
        assert pool.counts["device ran"] == 1 and pool.counts["device refused"] == 1
        gate.set()
        await asyncio.gather(*clean, *devices)
        assert pool.counts["device ran"] == 3 and pool.counts["clean ran"] == 5
        assert pool.running == 0 and pool.queue_length() == 0

    asyncio.run(scenario())


# --- known devices ----------------------------------------------------------------------
def sign_in_with(client: TestClient, address: str, device: str, name: str = "ann") -> Any:
    """A sign-in with the right password presenting ``device`` as the device cookie (the
    header, so that other threads' clearing of the client's cookies cannot drop it)."""
    return client.post(
        "/api/session",
        json={"name": name, "password": PASSWORD},
        headers={**at(address), "Cookie": f"{DEVICE_COOKIE}={device}"},
    )


def test_a_known_device_is_checked_while_fresh_addresses_fill_the_pool(sqlite_url, monkeypatch):
    """A flood's first round: fresh addresses (each clean) hold every thread and as much
    of the queue as unknown browsers may take, and the next is refused busy. The owner's
    browser, known from an earlier sign-in, is checked at once in its own slot and signed
    in; a forged device cookie, and bob's device cookie shown for ann, give no priority
    (refused busy like any stranger)."""
    release = threading.Event()
    release.set()

    def held(stored_hash: str | None, password: str) -> bool:
        if password != PASSWORD:
            release.wait(timeout=60)
        return password_matches(stored_hash, password)

    monkeypatch.setattr(routes, "password_matches", held)
    options = {"password_checks_at_once": 2, "password_checks_queued": 4}
    with client_for(sqlite_url, **options) as (client, app):
        assert sign_up(client, OWNER).status_code == 201
        device = client.cookies.get(DEVICE_COOKIE)
        assert device, "the sign-up makes the browser known"
        client.cookies.clear()
        bob = client.post(
            "/api/accounts", json={"name": "bob", "password": PASSWORD}, headers=at("192.0.2.9")
        )
        bobs_device = bob.cookies.get(DEVICE_COOKIE)
        assert bob.status_code == 201 and bobs_device
        pool = pool_of(app)
        release.clear()
        flood = [f"198.18.0.{n}" for n in range(8)]
        with ThreadPoolExecutor(len(flood)) as threads:
            guesses = [threads.submit(sign_in, client, a, f"guess {a}") for a in flood]
            # 2 run, 3 wait (three quarters of the queue), 3 are refused at once
            wait_until(
                lambda: (pool.running, pool.queue_length(), pool.counts["clean refused"]),
                lambda state: state == (2, 3, 3),
                what=lambda: f"the pool: {pool.running} running, {pool.counts}",
            )
            forged = device.split(".")[0] + "." + "0" * 64
            for other in (forged, bobs_device, "not-a-device-cookie"):
                stranger = sign_in_with(client, "192.0.2.50", other)
                assert stranger.status_code == 429 and stranger.json()["code"] == "busy"
            assert pool.counts["device ran"] == 0
            owner = sign_in_with(client, OWNER, device)
            assert owner.status_code == 200, owner.text
            assert pool.counts["device ran"] == 1 and pool.counts["device waited"] == 0
            # the browser stays the same known device
            assert owner.cookies.get(DEVICE_COOKIE) == device
            release.set()
            answers = [guess.result(timeout=60) for guess in guesses]
        assert sorted(a.status_code for a in answers) == [401] * 5 + [429] * 3
        assert pool.running == 0 and pool.queue_length() == 0


def test_a_device_cookie_carries_no_sign_in_and_loses_priority_after_a_wrong_password(
    sqlite_url,
):
    """The device cookie lets nobody in without the password; a known device that sent a
    wrong password is checked as an unknown one for the rest of the minute."""
    with client_for(sqlite_url) as (client, app):
        assert sign_up(client, OWNER).status_code == 201
        device = client.cookies.get(DEVICE_COOKIE)
        client.cookies.clear()
        assert client.get(
            "/api/session", headers={"Cookie": f"{DEVICE_COOKIE}={device}"}
        ).json() == {"name": None}
        pool = pool_of(app)
        wrong = client.post(
            "/api/session",
            json={"name": "ann", "password": "not her password"},
            headers={**at("192.0.2.60"), "Cookie": f"{DEVICE_COOKIE}={device}"},
        )
        assert wrong.status_code == 401 and pool.counts["device ran"] == 1
        assert sign_in_with(client, "192.0.2.61", device).status_code == 200
        assert pool.counts["device ran"] == 1 and pool.counts["clean ran"] == 2


# --- common passwords -----------------------------------------------------------------
@pytest.mark.parametrize(
    "password", ["password", "Password1", "iloveyou", "12345678", "qwertyuiop"]
)
def test_common_passwords_are_refused_at_sign_up(sqlite_url, password):
    with client_for(sqlite_url) as (client, _app):
        answer = sign_up(client, OWNER, password)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "password"
        assert "one of the most common" in answer.json()["message"]


def test_an_existing_weak_password_still_signs_in(db_url):
    """An account whose password is now refused for new accounts keeps signing in."""
    with client_for(db_url) as (client, _app):
        store = Store(open_engine(db_url))
        try:
            create_account(store, "ann", hash_password("password"))
        finally:
            store.dispose()
        answer = sign_in(client, OWNER, "password")
        assert answer.status_code == 200, answer.text


# --- counted by every process -----------------------------------------------------------
def test_peek_reads_a_count_without_adding_to_it():
    now = [1000.0]
    limiter = MemoryLimiter(lambda: now[0])
    assert asyncio.run(limiter.peek("k")) == (0, 0)
    asyncio.run(limiter.hit("k", 0))
    now[0] += 15
    assert asyncio.run(limiter.peek("k")) == (1, 45)
    assert asyncio.run(limiter.peek("k")) == (1, 45)
    now[0] += 45
    assert asyncio.run(limiter.peek("k")) == (0, 0)  # the window is over


def test_wrong_passwords_are_counted_by_every_process_with_redis(sqlite_url, redis_url):
    """Two processes on one Redis: wrong passwords sent to either add up, and both
    read them without counting (RedisLimiter.peek)."""
    import redis.asyncio

    options = {"failed_logins_per_account_and_address": 2}
    with client_for(sqlite_url, **options) as one, client_for(sqlite_url, **options) as two:
        for _client, app in (one, two):
            app.state.redis = redis.asyncio.Redis.from_url(redis_url)
        first, second = one[0], two[0]
        try:
            assert sign_up(first, OWNER).status_code == 201
            assert sign_in(first, "203.0.113.5", "wrong password").status_code == 401
            assert sign_in(second, "203.0.113.5", "wrong password").status_code == 401
            assert sign_in(first, "203.0.113.5", "wrong password").status_code == 429
            assert sign_in(second, "203.0.113.5", PASSWORD).status_code == 429
            assert sign_in(second, OWNER, PASSWORD).status_code == 200
        finally:
            for client, app in (one, two):
                client.portal.call(app.state.redis.aclose)

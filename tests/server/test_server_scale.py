"""Several serve processes on one PostgreSQL and one Redis, and workers (issue 16).

Real processes (``shiftago serve --redis``, ``shiftago worker``), a real PostgreSQL and a
real Redis, real sockets: a game played across two processes, two processes racing for
one version, a serve process and a worker killed with SIGKILL mid-game.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from shiftago.core import Game, Rules
from shiftago.formats.record import Record, format_record
from support.server_support import fresh_database, open_socket
from support.waiting import wait_until, wait_until_async

TIMEOUT = 30.0


class Socket:
    """A game socket on a real server, read with a timeout."""

    def __init__(self, base: str, game_id: str, token: str | None = None, seen: int = 0) -> None:
        self.ws = open_socket(base.replace("http", "ws", 1) + f"/ws/games/{game_id}")
        self.events: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token, "seen": seen})
        self.welcome = self.until(lambda e: e["type"] == "welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        event: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.events.append(event)
        return event

    def until(self, wanted: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            event = self.receive(max(0.1, deadline - time.monotonic()))
            if wanted(event):
                return event

    def action(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The action event of ``version``, received already or to come."""
        for event in self.events:
            if event["type"] == "action" and event["version"] == version:
                return event
        return self.until(lambda e: e["type"] == "action" and e["version"] == version, timeout)

    def versions(self) -> list[int]:
        return [e["version"] for e in self.events if e["type"] == "action"]

    def close(self) -> None:
        self.ws.close()


class Worker:
    """``shiftago worker`` in a subprocess."""

    def __init__(
        self, home: Path, db_url: str, redis_url: str, lease: float = 30.0, name: str = ""
    ) -> None:
        self.log_path = home / f"worker-{time.monotonic_ns()}.log"
        named = ["--name", name] if name else []
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable, "-m", "shiftago", "worker", "--db", db_url,
                    "--redis", redis_url, "--bot-delay", "0", "--lease", str(lease), *named,
                ],
                stdout=log, stderr=log, env={**os.environ, "SHIFTAGO_HOME": str(home)},
            )  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, words: str, timeout: float = 60.0) -> None:
        def seen() -> bool:
            assert self.process.poll() is None, self.log()
            return words in self.log()

        wait_until(seen, timeout=timeout, what=self.log)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()


#: The serve processes' options: more games a minute than one address may make.
SERVE_ARGS = ("--games-per-minute", "1000")


@pytest.fixture
def deployment(request, tmp_path, redis_url, start_server):
    """Two serve processes of the test's own on one PostgreSQL database and one Redis, and
    a way to start workers: ``(a, b, start_worker)``. For the tests that kill a process
    or run jobs; the others share ``shared_deployment``. The serve processes' computer
    waits the seconds of an indirect parameter before it acts (none without one)."""
    db_url = fresh_database(request, "postgresql", tmp_path)
    args = ("--redis", redis_url, *SERVE_ARGS)
    bot_delay = float(getattr(request, "param", 0))
    a = start_server(db_url=db_url, args=args, bot_delay=bot_delay)
    b = start_server(db_url=db_url, args=args, bot_delay=bot_delay)
    workers: list[Worker] = []

    def start_worker(lease: float = 30.0, name: str = "") -> Worker:
        worker = Worker(tmp_path, db_url, redis_url, lease, name)
        workers.append(worker)
        return worker

    yield a, b, start_worker
    for worker in workers:
        worker.stop()


@pytest.fixture(scope="module")
def module_deployment(request, tmp_path_factory):
    """Two serve processes, one PostgreSQL database and a Redis of the module's own (the
    session's is emptied before each test that asks for it): starting them is most of a
    test's time here (docs/testing.md)."""
    from support.web_fixtures import LiveServer, RedisServer

    redis = RedisServer(redis_program())
    servers: list[LiveServer] = []
    try:
        redis.wait()
        db_url = fresh_database(request, "postgresql", tmp_path_factory.mktemp("deployment"))
        for _ in range(2):
            server = LiveServer(
                tmp_path_factory.mktemp("server"),
                db_url,
                ("--redis", redis.url, *SERVE_ARGS),
                bot_delay=0,
            )
            servers.append(server)
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()
        redis.stop()


@pytest.fixture
def shared_deployment(request, module_deployment):
    """The module's two serve processes ``(a, b)``, for tests that neither stop a
    process nor run jobs and read only the games they make; a failed test shows their
    logs."""
    from support.web_fixtures import STARTED_SERVERS

    for server in module_deployment:
        assert server.process is not None and server.process.poll() is None, server.log()
    request.node.stash.setdefault(STARTED_SERVERS, []).extend(module_deployment)
    return module_deployment


def create(server: Any, **body: Any) -> tuple[str, list[str | None]]:
    body.setdefault("variant", "express")
    body.setdefault("players", 2)
    body.setdefault("seats", [{"kind": "human"}, {"kind": "human"}])
    answer = server.api("POST", "/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    tokens = [s["join_url"].split("?seat=")[1] if "join_url" in s else None for s in data["seats"]]
    return data["id"], tokens


def stored_actions(server: Any, game_id: str) -> list[str]:
    answer = server.api("GET", f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    actions: list[str] = answer.json()["actions"]
    return actions


def play(sockets: list[Socket], turn_of: list[int], count: int, start: int = 0) -> list[str]:
    """Play ``count`` actions: each seat's socket acts in turn, every socket must see
    every action once; the actions played."""
    played: list[str] = []
    sockets[0].send({"type": "sync", "seen": start})
    state = sockets[0].until(lambda e: e["type"] == "state")["game"]
    for version in range(start, start + count):
        seat = [s["colour"] for s in state["seats"]].index(state["turn"])
        socket = sockets[turn_of[seat]]
        action = state["legal"][version % len(state["legal"])]
        socket.send({"type": "act", "action": action, "seen": version})
        for other in sockets:
            event = other.action(version + 1)
            assert event["action"] == action
        state = event["game"]
        played.append(action)
    return played


def test_a_game_is_played_across_two_processes(shared_deployment):
    a, b = shared_deployment
    game_id, tokens = create(a)
    first = Socket(a.url, game_id, tokens[0])
    second = Socket(b.url, game_id, tokens[1])
    watcher = Socket(b.url, game_id)
    played = play([first, second], [0, 1], 12)
    watcher.action(12)
    watcher_versions = watcher.versions()
    for socket in (first, second):
        assert socket.versions() == list(range(1, 13))  # every action once, in order
    assert watcher_versions == list(range(1, 13))
    assert stored_actions(a, game_id) == played
    assert stored_actions(b, game_id) == played
    # each action's view carries the time it was stored, on both processes alike
    for version in range(1, 13):
        stamps = {s.action(version)["game"]["updated"] for s in (first, second, watcher)}
        assert len(stamps) == 1, (version, stamps)
    stamps = [first.action(version)["game"]["updated"] for version in range(1, 13)]
    assert stamps == sorted(stamps) and len(set(stamps)) == 12


def test_a_review_asked_for_in_one_process_is_heard_in_the_other(shared_deployment):
    a, b = shared_deployment
    game = Game(Rules(), first=0)
    for action in ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]:
        game.play(action)
    imported = a.api(
        "POST", "/api/games/import", json={"record": format_record(Record.from_game(game))}
    )
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["id"]
    watcher = Socket(b.url, game_id)  # a page on the other process, that does not ask
    # b hears the game's events once a spectator's word from a reaches it
    Socket(a.url, game_id).send({"type": "chat", "text": "hello"})
    assert watcher.until(lambda e: e["type"] == "chat")["text"] == "hello"
    assert a.api("POST", f"/api/games/{game_id}/analysis").status_code == 202
    assert watcher.until(lambda e: e["type"] == "review") == {"type": "review"}


def heard_through_the_bus(
    redis_url: str,
    send: Any,
    holds: Any,
    expected: int,
) -> list[dict[str, Any]]:
    """The events one :class:`RedisBus` hands on (``holds`` deciding which games it
    holds) after ``send(sender)`` published through another, once ``expected`` arrived
    and a moment passed in which no more came."""
    import asyncio

    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.bus import RedisBus

    async def main() -> list[dict[str, Any]]:
        redis = aioredis.Redis.from_url(redis_url)
        sender, reader = RedisBus(redis), RedisBus(redis)
        heard: list[dict[str, Any]] = []
        done = asyncio.Event()

        async def handler(event: dict[str, Any]) -> None:
            heard.append(event)
            if len(heard) >= expected:
                done.set()

        await reader.start(handler, holds=holds)
        await send(sender)
        await asyncio.wait_for(done.wait(), 10)
        await asyncio.sleep(0.2)  # what is checked: nothing more comes in this while
        await reader.close()
        await redis.aclose()
        return heard

    return asyncio.run(main())


def test_a_process_reads_only_the_events_of_the_games_it_holds(redis_url):
    """The bus skips another process's events of games this one does not hold, and
    hands on those of games it holds and those that name no game (the lobby's)."""

    async def send(sender: Any) -> None:
        for event in (
            {"game": "elsewhere", "revision": 1, "kind": "action", "action": "L1"},
            {"game": "held", "revision": 1, "kind": "action", "action": "L1"},
            {"game": "", "revision": 0, "kind": "lobby"},
            {"game": "elsewhere", "revision": 2, "kind": "change"},
            {"game": "held", "revision": 2, "kind": "last"},
        ):
            await sender.publish(event)

    heard = heard_through_the_bus(redis_url, send, lambda game: game == "held", 3)
    assert [(e["game"], e["kind"]) for e in heard] == [
        ("held", "action"),
        ("", "lobby"),
        ("held", "last"),
    ]


def test_events_published_in_a_batch_arrive_in_order_and_filtered(redis_url):
    """``publish_many`` (the presence every process repeats) sends its events in
    batches of round trips; each arrives once, in order, skipped where not held."""
    from shiftago.interfaces.server.jobs import bus

    count = bus.PUBLISHED_PER_ROUND_TRIP * 2 + 7  # three batches, the last one short
    held = [n for n in range(count) if n % 3 != 1]

    async def send(sender: Any) -> None:
        await sender.publish_many(
            [
                {"game": "elsewhere" if n % 3 == 1 else f"g{n}", "revision": n, "kind": "presence"}
                for n in range(count)
            ]
        )

    heard = heard_through_the_bus(redis_url, send, lambda game: game != "elsewhere", len(held))
    assert [e["revision"] for e in heard] == held


def test_an_event_that_waits_holds_up_only_its_own_games_events():
    """A game's events are handled in order; another game's go on meanwhile (reading a
    game again from the database must not stop every game), and an event that fails is
    logged without stopping the ones after it."""
    import asyncio

    from shiftago.interfaces.server.jobs.bus import GameLanes

    async def main() -> list[str]:
        handled: list[str] = []
        release = asyncio.Event()

        async def handler(event: dict[str, Any]) -> None:
            if event["name"] == "a1":
                await release.wait()  # as a reload from the database waits
            if event["name"] == "b2":
                raise RuntimeError("cannot be applied")
            handled.append(event["name"])

        lanes = GameLanes(handler)
        for lane, name in (("a", "a1"), ("b", "b1"), ("a", "a2"), ("b", "b2"), ("b", "b3")):
            lanes.submit(lane, {"name": name})
        await wait_until_async(lambda: len(handled) >= 2)  # b1 and b3, b2 failed
        before = list(handled)
        release.set()
        await wait_until_async(lambda: len(handled) >= 4)  # a1 and a2 too
        await lanes.close()
        return [*before, "|", *handled[len(before) :]]

    assert asyncio.run(main()) == ["b1", "b3", "|", "a1", "a2"]


def test_closing_the_lanes_stops_the_events_under_way():
    import asyncio

    from shiftago.interfaces.server.jobs.bus import GameLanes

    async def main() -> list[str]:
        handled: list[str] = []

        async def handler(event: dict[str, Any]) -> None:
            await asyncio.Event().wait()  # never ends by itself
            handled.append(event["name"])

        lanes = GameLanes(handler)
        lanes.submit("a", {"name": "a1"})
        lanes.submit("a", {"name": "a2"})
        await asyncio.sleep(0)  # one turn of the loop, no time: the lane takes up a1
        await asyncio.wait_for(lanes.close(), 5)
        return handled

    assert asyncio.run(main()) == []


def test_events_stuck_behind_a_wait_stop_the_reading_at_a_bound():
    """Events whose handling waits (a database that does not answer) pile up only to
    ``most``; reading goes on when half of them are done."""
    import asyncio

    from shiftago.interfaces.server.jobs.bus import GameLanes

    async def main() -> tuple[bool, bool, bool]:
        release = asyncio.Event()

        async def handler(event: dict[str, Any]) -> None:
            await release.wait()

        async def has_room() -> bool:
            waiting = asyncio.ensure_future(lanes.room())
            for _ in range(5):  # turns of the loop, no time: is there room by then?
                await asyncio.sleep(0)
            waiting.cancel()
            return waiting.done() and not waiting.cancelled()

        lanes = GameLanes(handler, most=4)
        for n in range(3):
            lanes.submit(f"g{n}", {})
        before = await has_room()
        lanes.submit("g3", {})
        full = not await has_room()
        release.set()
        await asyncio.wait_for(lanes.room(), 5)
        after = await has_room()
        await lanes.close()
        return before, full, after

    assert asyncio.run(main()) == (True, True, True)


def test_a_bus_stops_when_closed_while_it_asks_for_events(redis_url):
    """Closing the bus (as SIGTERM does) ends its reader even when the cancellation
    reaches it in the middle of an XREAD, where redis-py may answer it with a
    TimeoutError instead of letting it through."""
    import asyncio

    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.bus import RedisBus

    async def main() -> bool:
        redis = aioredis.Redis.from_url(redis_url)
        sender, reader = RedisBus(redis), RedisBus(redis)
        heard = asyncio.Event()

        async def handler(event: dict[str, Any]) -> None:
            heard.set()

        await reader.start(handler)
        await sender.publish({"game": "", "revision": 0, "kind": "lobby"})
        await asyncio.wait_for(heard.wait(), 10)
        # the reader has gone on to its next XREAD: cancel it there, as close() does
        reading = reader._reader
        assert reading is not None
        reading.cancel()
        ended, _ = await asyncio.wait({reading}, timeout=10)
        await reader.close()
        await redis.aclose()
        return reading in ended

    assert asyncio.run(main())


def test_two_processes_never_both_accept_one_version(shared_deployment):
    a, b = shared_deployment
    game_id, tokens = create(a, first="o")  # the seat of both sockets begins
    on_a = Socket(a.url, game_id, tokens[0])
    on_b = Socket(b.url, game_id, tokens[0])  # the same seat, on the other process
    on_a.send({"type": "sync", "seen": 0})
    legal = on_a.until(lambda e: e["type"] == "state")["game"]["legal"]
    barrier = threading.Barrier(2)

    def send(socket: Socket, action: str) -> None:
        barrier.wait()
        socket.send({"type": "act", "action": action, "seen": 0})

    threads = [
        threading.Thread(target=send, args=(on_a, legal[0])),
        threading.Thread(target=send, args=(on_b, legal[1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seen_a = on_a.until(lambda e: e["type"] == "action")
    seen_b = on_b.until(lambda e: e["type"] == "action")
    assert seen_a["version"] == seen_b["version"] == 1
    assert seen_a["action"] == seen_b["action"]  # both processes tell the one that won
    assert stored_actions(a, game_id) == [seen_a["action"]]


def test_a_serve_process_killed_mid_game_loses_nothing(deployment):
    a, b, _ = deployment
    game_id, tokens = create(a)
    first = Socket(a.url, game_id, tokens[0])
    second = Socket(b.url, game_id, tokens[1])
    played = play([first, second], [0, 1], 6)
    a.kill()
    # the socket of the killed process is gone: what it sent before the kill may still be
    # read, then reading fails
    with pytest.raises(Exception):  # noqa: B017
        for _ in range(100):
            first.receive(timeout=5)
    # the first player reconnects to the other process and gets on with the game
    first = Socket(b.url, game_id, tokens[0], seen=6)
    assert first.welcome["version"] == 6
    played += play([first, second], [0, 1], 4, start=6)
    assert stored_actions(b, game_id) == played


def test_a_client_that_reconnects_elsewhere_gets_what_it_missed(shared_deployment):
    a, b = shared_deployment
    game_id, tokens = create(a)
    first = Socket(a.url, game_id, tokens[0])
    second = Socket(a.url, game_id, tokens[1])
    play([first, second], [0, 1], 3)
    late = Socket(b.url, game_id, None, seen=1)
    assert [late.action(2)["version"], late.action(3)["version"]] == [2, 3]


#: The computer's wait in the test of a killed worker's job: the worker holds the job that
#: long before it thinks, so the test kills it while it holds the job, on any machine.
HELD_JOB_SECONDS = 5.0


@pytest.mark.parametrize("deployment", [HELD_JOB_SECONDS], indirect=True)
def test_the_worker_plays_the_computer_and_a_killed_worker_job_is_done_again(deployment, redis_url):
    import redis

    a, b, start_worker = deployment
    first = start_worker(lease=2.0, name="vm-1")
    first.wait_for("worker vm-1 takes jobs")
    # the searches were loaded before it took jobs (a fresh install compiles them)
    assert first.log().index("loading the engine's searches") < first.log().index("takes jobs")
    body = {"seats": [{"kind": "human"}, {"kind": "computer", "level": 7}], "first": "o"}
    game_id, tokens = create(a, **body)
    person = Socket(b.url, game_id, tokens[0])
    person.send({"type": "sync", "seen": 0})
    state = person.until(lambda e: e["type"] == "state")["game"]
    person.send({"type": "act", "action": state["legal"][0], "seen": 0})
    person.action(1)
    # the computer's move is the first worker's job: it holds it while the delay runs
    with redis.Redis.from_url(redis_url) as client:

        def held() -> list[Any]:
            pending: list[Any] = client.xpending_range(
                "shiftago:jobs", "workers", min="-", max="+", count=10, consumername="vm-1"
            )
            return pending

        wait_until(held, timeout=HELD_JOB_SECONDS / 2, what="the job held by vm-1")
    first.kill()
    second = start_worker(lease=2.0, name="vm-2")
    answer = person.action(2)
    job = f"move job of game {game_id} at revision 1"
    assert job in second.log() and job not in first.log()  # done again, by the second
    second.wait_for("worker vm-2 takes jobs")  # the name it has in Redis, said
    assert answer["seat"] == 1
    assert stored_actions(a, game_id) == [state["legal"][0], answer["action"]]


def test_healthz_answers_for_database_and_redis(shared_deployment):
    a, _ = shared_deployment
    answer = httpx.get(a.url + "/healthz", timeout=10)
    assert answer.status_code == 200
    data = answer.json()
    assert data["ok"] is True
    assert data["rss_mib"] > 0


@contextmanager
def own_redis(request: Any, tmp_path: Path, start_server: Any) -> Iterator[Any]:
    """A Redis of the test's own (to stop and restart), and two serve processes on it and
    one PostgreSQL database: ``(redis, db_url, a, b)``."""
    from support.web_fixtures import RedisServer

    redis = RedisServer(redis_program())
    redis.wait()
    try:
        db_url = fresh_database(request, "postgresql", tmp_path)
        args = ("--redis", redis.url)
        a = start_server(db_url=db_url, args=args, bot_delay=0)
        b = start_server(db_url=db_url, args=args, bot_delay=0)
        yield redis, db_url, a, b
    finally:
        redis.stop()


def restart(redis: Any) -> None:
    """Start the stopped Redis again, empty, on its port."""
    from support.web_fixtures import RedisServer

    redis.process = RedisServer.spawn(redis_program(), redis.port, redis.dir)
    redis.wait()


def redis_program() -> str:
    program = shutil.which("redis-server")
    assert program is not None
    return program


def test_a_redis_restart_loses_no_event_and_no_job(request, tmp_path, start_server):
    """Redis restarted empty (no persistence) mid-game: the processes reconnect, the
    events of both processes and the computer's jobs go on."""
    with own_redis(request, tmp_path, start_server) as (redis, db_url, a, b):
        worker = Worker(tmp_path, db_url, redis.url, lease=2.0)
        game_id, tokens = create(a)
        first = Socket(a.url, game_id, tokens[0])
        second = Socket(b.url, game_id, tokens[1])
        played = play([first, second], [0, 1], 2)
        redis.process.terminate()
        redis.process.wait(10)
        restart(redis)
        played += play([first, second], [0, 1], 4, start=2)
        assert stored_actions(b, game_id) == played
        body = {"seats": [{"kind": "human"}, {"kind": "computer", "level": 1}], "first": "o"}
        computer_game, computer_tokens = create(b, **body)
        person = Socket(a.url, computer_game, computer_tokens[0])
        person.send({"type": "sync", "seen": 0})
        legal = person.until(lambda e: e["type"] == "state")["game"]["legal"]
        person.send({"type": "act", "action": legal[0], "seen": 0})
        assert person.action(2, timeout=60)["seat"] == 1  # the worker took the job
        worker.stop()


def test_actions_stored_while_redis_is_away_reach_every_process(request, tmp_path, start_server):
    """Redis away while each process stores an action: a socket that has seen more than
    its process holds makes it read the game again, and the events that Redis could not
    take are published once it is back, so that no process keeps an old copy."""
    with own_redis(request, tmp_path, start_server) as (redis, _, a, b):
        game_id, tokens = create(a, first="o")
        first = Socket(a.url, game_id, tokens[0])  # orange, on a
        second = Socket(b.url, game_id, tokens[1])  # green, on b
        redis.process.terminate()
        redis.process.wait(10)
        first.send({"type": "act", "action": "L1", "seen": 0})
        assert first.action(1)["action"] == "L1"
        with pytest.raises(TimeoutError):
            second.action(1, timeout=3)  # b cannot hear of it while Redis is away
        second.send({"type": "act", "action": "L7", "seen": 1})  # green saw it on the page
        assert second.action(1)["action"] == "L1" and second.action(2)["action"] == "L7"
        restart(redis)
        assert first.action(2, timeout=30)["action"] == "L7"  # published once Redis is back
        assert first.versions() == [1, 2] and second.versions() == [1, 2]
        assert stored_actions(a, game_id) == stored_actions(b, game_id) == ["L1", "L7"]


def test_presence_is_the_same_on_every_process(shared_deployment):
    a, b = shared_deployment
    game_id, tokens = create(a)
    first = Socket(a.url, game_id, tokens[0])
    second = Socket(b.url, game_id, tokens[1])
    watchers = [Socket(b.url, game_id) for _ in range(3)]

    def sees(socket: Socket, connected: list[bool], spectators: int) -> dict[str, Any]:
        return socket.until(
            lambda e: (
                e["type"] == "presence"
                and [s["connected"] for s in e["seats"]] == connected
                and e.get("spectators") == spectators
            )
        )

    sees(first, [True, True], 3)  # the other process's seat and watchers count
    second.close()
    for watcher in watchers:
        watcher.close()
    left = sees(first, [True, False], 0)
    assert left["seats"][1]["away_since"] is not None


def test_a_read_gets_what_another_process_stored_before_its_event_arrives(tmp_path):
    """A process whose copy of a game is an event behind (the other process announced
    an action, its event not read here yet) answers a read with the stored game: the
    socket's player and a read of the game through another process agree (a full run
    once read the game through the process that had not yet heard the event)."""
    import asyncio

    from shiftago.core import Variant
    from shiftago.interfaces.server.db.store import migrate, open_engine
    from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec
    from shiftago.interfaces.server.games.hub import Hub
    from shiftago.interfaces.server.games.store import Store
    from shiftago.interfaces.server.jobs.bus import Bus

    class Unheard(Bus):
        """Shared with other processes, whose events never arrive."""

        shared = True

    engine = open_engine(f"sqlite:///{tmp_path / 'games.db'}")
    migrate(engine)
    store = Store(engine)

    async def main() -> tuple[int, list[str], list[str]]:
        spec = GameSpec(Variant.EXPRESS, 2, [SeatSpec("human", "ann"), SeatSpec("human", "bob")])
        here, there = Hub(store, bus=Unheard()), Hub(store, bus=Unheard())
        live, _ = await here.create(spec)
        copy = await there.get(live.id)  # the other process holds the game too
        assert copy is not None
        action = live.game.legal_actions()[0]
        async with live.lock:
            await here.commit(live, action)
        stale = len(copy.stored.actions)
        read = await there.current(live.id)
        assert read is not None
        for hub in (here, there):
            hub.close()
        return stale, list(read.stored.actions), [str(action)]

    try:
        stale, read, played = asyncio.run(main())
    finally:
        store.dispose()
    assert stale == 0  # the copy had not heard of the action
    assert read == played

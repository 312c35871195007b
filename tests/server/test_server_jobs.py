"""The computer's jobs (issue 16): the fair order, memory that games leave and come back
to, /healthz, and a graceful stop on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import signal
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from shiftago.interfaces.server.jobs.queue import FairQueue, Job, RedisJobs
from support.server_support import client_for, connect, create, fresh_database
from support.waiting import wait_until, wait_until_async


def move(game: str, owner: str, revision: int = 0, not_before: float = 0.0) -> Job:
    return Job("move", game, revision, owner, queued_at=0.0, not_before=not_before)


def review(game: str, owner: str, analysis_id: int) -> Job:
    return Job("review", game, 0, owner, analysis_id=analysis_id, queued_at=0.0)


def test_one_owner_never_takes_every_slot_so_another_owner_starts_at_once():
    queue = FairQueue(slots=4)
    for n in range(48):  # one address's 48 self-playing games
        queue.push(move(f"self{n}", "flood"))
    started = [queue.pop() for _ in range(4)]
    assert [s[0].owner for s in started if s] == ["flood"] * 3
    assert started[3] is None  # the fourth slot waits for somebody else
    queue.push(move("mine", "ann"))
    job, _ = queue.pop()
    assert job.game_id == "mine"


def test_the_owner_with_fewest_jobs_running_goes_first_then_the_oldest():
    queue = FairQueue(slots=3)
    for n in range(3):
        queue.push(move(f"a{n}", "a"))
    queue.push(move("b0", "b"))
    queue.push(move("b1", "b"))
    order = [queue.pop()[0].game_id for _ in range(3)]
    assert order == ["a0", "b0", "a1"]


def test_moves_go_before_reviews_and_reviews_take_at_most_half_the_slots():
    queue = FairQueue(slots=4)
    for n in range(4):
        queue.push(review(f"r{n}", f"o{n}", n))
    queue.push(move("m", "x"))
    first = queue.pop()[0]
    assert first.kind == "move"
    kinds = [queue.pop() for _ in range(3)]
    assert [k[0].kind for k in kinds if k] == ["review", "review"]
    assert kinds[2] is None
    queue.done(first)
    assert queue.pop() is None  # the free slot is kept for moves


def test_a_job_waits_for_its_time_and_the_same_job_is_held_once():
    queue = FairQueue(slots=2)
    queue.push(move("g", "a", not_before=100.0), handle="first")
    assert queue.push(move("g", "a", not_before=100.0), handle="second") == "first"
    assert queue.pop(now=99.0) is None
    assert queue.due(99.0) == 100.0
    job, handle = queue.pop(now=100.0)
    assert (job.game_id, handle) == ("g", "second")
    assert len(queue) == 0


def test_a_job_queued_again_while_it_runs_waits_for_that_run_then_runs():
    queue = FairQueue(slots=2)
    queue.push(review("g", "a", 7))
    running, _ = queue.pop()
    queue.push(review("g", "a", 7), handle="again")  # the run is ending without the review
    assert queue.pop() is None  # not beside the run of the same job
    queue.done(running)
    job, handle = queue.pop()
    assert (job.analysis_id, handle) == (7, "again")


def run_redis_jobs(redis_url: str, runner_body: Any, until: int) -> list[Job]:
    """Run a worker's :class:`RedisJobs` on ``redis_url`` with a runner that records each
    job and then calls ``runner_body(jobs, job, runs so far)``, until ``until`` runs were
    recorded."""
    from redis import asyncio as aioredis

    async def main() -> list[Job]:
        redis = aioredis.Redis.from_url(redis_url)
        jobs = RedisJobs(redis, "w1", slots=2)
        ran: list[Job] = []
        enough = asyncio.Event()

        async def runner(job: Job) -> None:
            ran.append(job)
            await runner_body(jobs, job, len(ran))
            if len(ran) >= until:
                enough.set()

        await jobs.start(runner)
        await jobs.submit(review("g", "a", 7))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(enough.wait(), 10)
        await asyncio.sleep(0.3)  # what is checked: no copy too many runs in this while
        await jobs.close()
        await redis.aclose()
        return ran

    return asyncio.run(main())


def test_a_review_that_fails_and_is_asked_again_at_once_runs_again(redis_url):
    async def fail_then_ask_again(jobs: RedisJobs, job: Job, runs: int) -> None:
        if runs == 1:
            await jobs.release(job)  # as a failed review does before storing "failed"
            await jobs.submit(review("g", "a", 7))  # the page asks again, before the ack

    ran = run_redis_jobs(redis_url, fail_then_ask_again, until=2)
    assert len(ran) == 2 and ran[0].token != ran[1].token


def test_without_a_release_the_same_job_queued_while_it_runs_is_one_job(redis_url):
    async def ask_again(jobs: RedisJobs, job: Job, runs: int) -> None:
        await jobs.submit(review("g", "a", 7))  # asked twice while it runs

    ran = run_redis_jobs(redis_url, ask_again, until=1)
    assert len(ran) == 1


def test_a_worker_restarted_under_its_name_runs_what_it_held_then_new_jobs(redis_url):
    """A worker killed while it held jobs leaves them pending under its name; started
    again under that name it runs them at once, then goes on to new jobs (it once kept
    reading its own empty history, and never took another job)."""
    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.queue import GROUP, JOBS

    async def main() -> list[str]:
        redis = aioredis.Redis.from_url(redis_url)
        first = RedisJobs(redis, "w1", slots=2)
        await first._make_group()
        for game in ("held-1", "held-2"):
            await first.submit(move(game, "a"))
        # the worker read them, then died before it ran them: pending under "w1"
        await redis.xreadgroup(GROUP, "w1", {JOBS: ">"}, count=10)
        again = RedisJobs(redis, "w1", slots=2)
        ran: list[str] = []
        three = asyncio.Event()

        async def runner(job: Job) -> None:
            ran.append(job.game_id)
            if len(ran) == 3:
                three.set()

        await again.start(runner)
        await wait_until_async(lambda: len(ran) >= 2, timeout=10)  # the held ones first
        await again.submit(move("new", "a"))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(three.wait(), 10)
        await again.close()
        await redis.aclose()
        return ran

    ran = asyncio.run(main())
    assert sorted(ran[:2]) == ["held-1", "held-2"] and ran[2:] == ["new"]


def test_an_idle_game_leaves_memory_and_is_read_back(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'evict.db'}"
    with client_for(db_url, idle_seconds=1000) as client:
        hub = client.app.state.hub
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            assert hub.evict_idle(now=time.monotonic() + 10_000) == 0  # watched: it stays
        assert game_id in hub.games
        assert hub.evict_idle(now=time.monotonic() + 10) == 0  # used just now
        assert hub.evict_idle(now=time.monotonic() + 10_000) == 1
        assert game_id not in hub.games
        game = client.get(f"/api/games/{game_id}").json()  # read back from the database
        assert game["actions"] == ["L3"]
        with connect(client, game_id) as g:
            g.hello(ben, seen=1)
            assert g.act("Td", 1)["version"] == 2


def test_healthz_says_ok_with_the_process_figures(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'h.db'}") as client:
        answer = client.get("/healthz")
        assert answer.status_code == 200
        data = answer.json()
        assert data["ok"] is True
        assert data["games_in_memory"] == 0 and data["connections"] == 0


def test_healthz_answers_503_when_the_database_is_gone(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'h.db'}") as client:

        def broken() -> None:
            raise OSError("the disk is gone")

        client.app.state.hub.store.ping = broken
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["ok"] is False


def test_healthz_answers_503_in_time_when_a_service_hangs(tmp_path, monkeypatch):
    """A database or Redis that accepts and never answers is as away as one that
    refuses: 503 within the health time, not an answer never given."""
    from shiftago.interfaces.server import runtime

    monkeypatch.setattr(runtime, "HEALTH_SECONDS", 0.3)

    class HungRedis:
        async def ping(self) -> None:
            await asyncio.sleep(30)  # a hang: the time it takes is what is checked

        async def aclose(self) -> None:
            return None

    with client_for(f"sqlite:///{tmp_path / 'h.db'}") as client:
        state = client.app.state
        started = time.monotonic()
        state.runtime.redis = HungRedis()
        answer = client.get("/healthz")
        assert answer.status_code == 503 and time.monotonic() - started < 5
        assert answer.json()["error"] == "Redis did not answer within 0.3 s"
        state.runtime.redis = None
        state.hub.store.ping = lambda: time.sleep(2)  # a hang, as above
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["error"] == "the database did not answer within 0.3 s"


def test_a_worker_counts_among_the_living_before_it_reads_a_job(redis_url):
    """Once ``start`` returns, the worker is counted, before its reading task has run:
    a job it reads next is never held by a worker that /healthz does not count (a full
    run once saw a job held and no worker)."""
    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.queue import queue_figures

    async def figures_once_started() -> dict[str, int]:
        redis = aioredis.Redis.from_url(redis_url)
        jobs = RedisJobs(redis, "w1")

        async def runner(job: Job) -> None:
            raise AssertionError("no job was queued")

        await jobs.start(runner)
        try:
            return await queue_figures(redis)
        finally:
            await jobs.close()
            await redis.aclose()

    assert asyncio.run(figures_once_started()) == {"jobs_waiting": 0, "jobs_held": 0, "workers": 1}


def test_healthz_shows_the_jobs_waiting_for_a_worker(start_server, redis_url):
    """With Redis the computer's moves wait for a ``shiftago worker``: /healthz shows
    them and how many workers read the stream, so that a monitor sees none runs. A real
    serve process: the test client's shutdown of an app with Redis at times never ends
    (the lifespan done, its last message not received)."""
    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.queue import queue_figures

    server = start_server(args=["--redis", redis_url])
    quiet = server.api("GET", "/healthz").json()
    assert (quiet["jobs_waiting"], quiet["jobs_held"], quiet["workers"]) == (0, 0, 0)
    body = {"first": "g", "seats": [{"kind": "human"}, {"kind": "computer", "level": 1}]}
    assert server.api("POST", "/api/games", json=body).status_code == 201
    health = wait_until(
        lambda: server.api("GET", "/healthz").json(),
        lambda health: health.get("jobs_waiting", 0) >= 1,
        timeout=10,
    )
    assert health["ok"] is True and health["workers"] == 0

    async def a_worker_holds_the_job() -> dict[str, int]:
        """A worker whose search has not ended: it holds the job and says it lives."""
        redis = aioredis.Redis.from_url(redis_url)
        jobs = RedisJobs(redis, "w1")
        thinking = asyncio.Event()

        async def runner(job: Job) -> None:
            await thinking.wait()  # never set: the job stays held

        await jobs.start(runner)
        try:
            return await wait_until_async(
                lambda: queue_figures(redis), lambda figures: figures["jobs_held"] >= 1, 10
            )
        finally:
            await jobs.close()
            await redis.aclose()

    async def bounded() -> dict[str, int]:
        # A run that hangs here (once, under a full CI run's load) fails with a
        # traceback that names the await it hung in, instead of stopping the suite.
        async with asyncio.timeout(60):
            return await a_worker_holds_the_job()

    held = asyncio.run(bounded())
    assert held == {"jobs_waiting": 0, "jobs_held": 1, "workers": 1}
    # a worker that stopped no longer counts, though it read the stream just now
    assert server.api("GET", "/healthz").json()["workers"] == 0


def test_sigterm_tells_sockets_to_reconnect_and_keeps_what_was_stored(start_server):
    server = start_server()
    game_id = server.api(
        "POST", "/api/games", json={"variant": "express", "players": 2, "first": "o"}
    ).json()["id"]
    url = server.url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    with ws_connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "seen": 0}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        with pytest.raises(Exception) as closed:
            while True:
                ws.recv(timeout=15)
        assert getattr(closed.value, "rcvd", None) is not None
        assert closed.value.rcvd.code == 1012  # service restart: the page reconnects
    server.process.wait(20)
    server.process = None
    with pytest.raises(httpx.TransportError):  # it takes no more connections
        httpx.get(server.url + "/healthz", timeout=2)
    server.start()
    assert server.api("GET", f"/api/games/{game_id}").status_code == 200


def test_a_move_job_made_for_an_older_revision_is_dropped(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'j.db'}", bot_delay=60) as client:
        seats = [{"kind": "human"}, {"kind": "computer", "level": 1}]
        game_id, (ann, _) = create(client, first="o", seats=seats)
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)  # the computer's job waits a minute (its delay)
        computers = client.app.state.runtime.computers
        revision = client.app.state.hub.games[game_id].revision
        client.portal.call(computers.move, Job("move", game_id, revision - 1, "x"))
        assert client.get(f"/api/games/{game_id}").json()["version"] == 1  # dropped
        client.portal.call(computers.move, Job("move", game_id, revision, "x"))
        assert client.get(f"/api/games/{game_id}").json()["version"] == 2


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def test_the_sweep_finds_in_the_database_a_computer_move_no_process_holds(db_url, monkeypatch):
    """A serve process killed between storing a person's action and queuing the
    computer's answer: no job is queued and no other process holds the game. The
    database names it to the computer sweep, which reads it in and queues the move."""
    with client_for(db_url, computer_sweep_seconds=3600) as client:
        hub = client.app.state.hub
        real_submit = hub.submit

        async def lose_moves(job: Job) -> None:
            if job.kind != "move":
                await real_submit(job)

        seats = [{"kind": "human"}, {"kind": "computer", "level": 1}]
        game_id, (ann, _) = create(client, first="o", seats=seats)
        monkeypatch.setattr(hub, "submit", lose_moves)
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
        del hub.games[game_id]  # as a process that never held it
        monkeypatch.setattr(hub, "submit", real_submit)
        runtime = client.app.state.runtime
        human_to_act, _ = create(client, first="o", seats=seats)  # the person's turn: left
        del hub.games[human_to_act]
        assert client.portal.call(runtime.sweep_computers, 0.0) == 1
        assert human_to_act not in hub.games
        wait_until(
            lambda: client.get(f"/api/games/{game_id}").json()["version"] >= 2,
            timeout=30,
            what="the computer never moved",
        )


def test_a_watched_game_held_at_an_old_revision_is_read_again(db_url):
    """Another process stored an action and died before its event went out: the stale
    sweep reads the game again and its sockets hear the action."""
    with client_for(db_url) as client:
        hub = client.app.state.hub
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            live = hub.games[game_id]
            # the other process's change, in the database only
            hub.store.append_action(game_id, live.revision, 1, "L3", "playing g insert", False)
            runtime = client.app.state.runtime
            assert client.portal.call(runtime.sweep_stale) == 1
            event = o.until_type("action")
            assert event["version"] == 1 and event["action"] == "L3"
            assert live.version == 1 and client.portal.call(runtime.sweep_stale) == 0


# --- issue 55: reviews bounded, each address in turn, the figures of the jobs -----------
def test_a_computer_move_queued_after_many_reviews_runs_first():
    queue = FairQueue(slots=2)
    for n in range(40):
        queue.push(review(f"g{n}", f"addr{n % 10}", n))
    queue.push(move("mine", "ann"))
    job, _ = queue.pop()
    assert (job.kind, job.game_id) == ("move", "mine")


def test_addresses_take_turns_and_each_address_s_oldest_review_goes_first():
    queue = FairQueue(slots=2)  # one review slot
    for n, asked in enumerate([3.0, 1.0, 2.0]):  # one address's three reviews
        queue.push(replace(review(f"a{n}", "a", n), queued_at=asked))
    queue.push(replace(review("b0", "b", 10), queued_at=9.0))  # asked last, elsewhere
    order = []
    for _ in range(4):
        job, _ = queue.pop()
        order.append(job.game_id)
        queue.done(job)
    assert order == ["a1", "b0", "a2", "a0"]


def test_local_jobs_refuse_reviews_beyond_the_bounds_per_address_and_in_all():
    from shiftago.interfaces.server.jobs.queue import LocalJobs, QueueFull, ReviewBounds

    async def main() -> list[str]:
        jobs = LocalJobs(2)
        started = asyncio.Event()

        async def runner(job: Job) -> None:
            started.set()
            await asyncio.Event().wait()  # never ends: the review stays running

        await jobs.start(runner)
        bounds = ReviewBounds(per_owner=2, total=3)
        refused: list[str] = []
        for n, owner in enumerate(["a", "a", "a", "b", "c"]):
            try:
                await jobs.admit(review(f"g{n}", owner, n), bounds)
            except QueueFull as full:
                refused.append(f"{owner}:{full.scope}")
        await jobs.admit(review("g0", "a", 0), bounds)  # one already queued is no new one
        await asyncio.wait_for(started.wait(), 5)
        figures = await jobs.figures()
        await jobs.close()
        assert figures["review"]["running"] + figures["review"]["queued"] == 3
        assert figures["move"] == {"queued": 0, "running": 0, "oldest_seconds": 0.0}
        return refused

    assert asyncio.run(main()) == ["a:owner", "c:total"]


def test_redis_jobs_refuse_reviews_beyond_the_bounds_and_show_the_figures(redis_url):
    from redis import asyncio as aioredis

    from shiftago.interfaces.server.jobs.queue import QueueFull, ReviewBounds

    async def main() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        redis = aioredis.Redis.from_url(redis_url)
        await redis.flushdb()
        asking = RedisJobs(redis, "serve")  # a serve process: queues, runs nothing
        bounds = ReviewBounds(per_owner=2, total=3)
        refused: list[str] = []
        for n, owner in enumerate(["a", "a", "a", "b", "c"]):
            try:
                await asking.admit(review(f"g{n}", owner, n), bounds)
            except QueueFull as full:
                refused.append(f"{owner}:{full.scope}")
        await asking.admit(review("g0", "a", 0), bounds)  # already queued: not refused
        await asking.submit(move("m", "ann"))
        queued = await asking.figures()
        worker = RedisJobs(redis, "w1", slots=2)
        thinking = asyncio.Event()
        await worker.start(lambda job: thinking.wait())
        try:
            # the worker takes a move and a review into its two slots, one after the other
            running = await wait_until_async(
                asking.figures,
                lambda f: f["move"]["running"] == 1 and f["review"]["running"] == 1,
                10,
            )
        finally:
            await worker.close()
            await redis.aclose()
        return refused, queued, running

    refused, queued, running = asyncio.run(main())
    assert refused == ["a:owner", "c:total"]
    assert queued["review"]["queued"] == 3 and queued["move"]["queued"] == 1
    assert queued["review"]["oldest_seconds"] > 0
    assert running["move"] == {"queued": 0, "running": 1, "oldest_seconds": 0.0}
    assert running["review"]["running"] == 1 and running["review"]["queued"] == 2


def test_healthz_shows_the_jobs_per_kind_without_redis(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'h.db'}") as client:
        jobs = client.get("/healthz").json()["jobs"]
        assert set(jobs) == {"move", "review"}
        assert jobs["review"] == {"queued": 0, "running": 0, "oldest_seconds": 0.0}


def test_a_job_whose_time_comes_while_the_dispatcher_looks_still_starts(monkeypatch):
    # The clock moves on at every reading, as a busy process's does: the job is not yet
    # due when the queue is first asked and already due when it is asked again.
    from shiftago.interfaces.server.jobs import queue as queue_module
    from shiftago.interfaces.server.jobs.queue import LocalJobs

    readings = iter(100.0 + 0.3 * n for n in range(1_000_000))
    monkeypatch.setattr(queue_module, "time", type("Clock", (), {"time": lambda: next(readings)}))

    async def main() -> list[str]:
        ran: list[str] = []
        started = asyncio.Event()

        async def runner(job: Job) -> None:
            ran.append(job.game_id)
            started.set()

        jobs = LocalJobs(2)
        await jobs.start(runner)
        await asyncio.sleep(0)  # the dispatcher waits for its first job
        await jobs.submit(move("g", "a", not_before=100.5))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(started.wait(), 5)
        await jobs.close()
        return ran

    assert asyncio.run(main()) == ["g"]


def test_a_move_job_for_a_game_the_database_lacks_says_so(tmp_path, caplog):
    # A worker started with another --db than the serve processes' gets their jobs.
    with client_for(f"sqlite:///{tmp_path / 'w.db'}") as client:
        computers = client.app.state.runtime.computers
        with caplog.at_level("WARNING", logger="shiftago.server"):
            client.portal.call(computers.move, Job("move", "elsewhere123", 3, "x"))
    said = [r.getMessage() for r in caplog.records if "elsewhere123" in r.getMessage()]
    assert len(said) == 1 and "--db" in said[0]


def test_a_worker_says_when_no_serve_process_uses_its_database(tmp_path):
    from shiftago.interfaces.server.db.store import migrate, open_engine
    from shiftago.interfaces.server.games.store import Store
    from shiftago.interfaces.server.worker import QUIET_DATABASE_SECONDS, unused_database

    engine = open_engine(f"sqlite:///{tmp_path / 'w.db'}")
    migrate(engine)
    store = Store(engine)
    assert store.last_beat() is None
    assert "ever" in (unused_database(store.last_beat(), 1000.0) or "")
    store.beat(dt.datetime.fromtimestamp(1000.0, dt.UTC))
    assert store.last_beat() == 1000.0
    assert unused_database(store.last_beat(), 1001.0) is None  # a serve process beats
    quiet = unused_database(store.last_beat(), 1000.0 + QUIET_DATABASE_SECONDS + 30)
    assert quiet is not None and f"{QUIET_DATABASE_SECONDS + 30:.0f} s" in quiet
    assert "--db" in quiet
    store.dispose()

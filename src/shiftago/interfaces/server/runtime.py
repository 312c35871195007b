"""The working parts of one process, started and stopped together.

A serve process and a worker are built the same way: a :class:`.hub.Hub` on the store,
a :class:`.bus.Bus` to the other processes, the :mod:`.jobs` queue, the computer's
players and the reviews. What differs is who runs the jobs: one process alone runs its
own; with Redis, serve processes only queue them and ``shiftago worker`` processes run
them (``runs_jobs``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from shiftago.interfaces.server.accounts import accounts
from shiftago.interfaces.server.analysis.reviews import GameAnalyses
from shiftago.interfaces.server.collector import Collector
from shiftago.interfaces.server.db.outage import DATABASE_OUTAGE
from shiftago.interfaces.server.db.store import from_epoch, now
from shiftago.interfaces.server.games import ending
from shiftago.interfaces.server.games.bots import ComputerPlayers
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.presence import SUMMARY_SECONDS
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.waiting import Waits
from shiftago.interfaces.server.jobs.bus import READ_BLOCK_MS, Bus, RedisBus
from shiftago.interfaces.server.jobs.queue import (
    FairQueue,
    Job,
    Jobs,
    LocalJobs,
    RedisJobs,
    queue_figures,
)
from shiftago.interfaces.server.jobs.timesource import time_source
from shiftago.interfaces.server.players import ratings
from shiftago.interfaces.server.seeks.challenges import Seeks
from shiftago.interfaces.server.settings import Settings
from shiftago.interfaces.shared.cancelling import cancel_and_wait

log = logging.getLogger("shiftago.server")


def jobs_review_slots(slots: int) -> int:
    """The threads for reviews: as many as the job queue lets run at once."""
    return FairQueue(slots).review_slots


#: How long ``/healthz`` waits for the database and for Redis, each (seconds): a
#: monitor's own timeout should be longer (docs/deploy.md, "Health checks").
HEALTH_SECONDS = 5.0
#: Connections to Redis per process: a command waits for a free one rather than failing
#: when a burst of changes publishes at once (docs/deploy.md, "Redis").
REDIS_CONNECTIONS = 32


def connect_redis(url: str) -> Any:
    """An asyncio client of redis-py for ``url`` that outlives a restart of Redis: a
    command on a connection that Redis closed is sent again on a new one (a few tries,
    backing off), and a socket waits longer than the longest blocking read."""
    from redis import asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError, TimeoutError

    # the retry belongs to each connection (the pool hands it on), not to the client
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=20,
        health_check_interval=30,
        socket_timeout=READ_BLOCK_MS / 1000 + 10,
        retry=Retry(ExponentialBackoff(cap=2.0, base=0.05), retries=5),
        retry_on_error=[ConnectionError, TimeoutError, ConnectionResetError],
    )
    return aioredis.Redis(connection_pool=pool)


def shown_url(url: str) -> str:
    """``url`` without its password, to be printed or logged."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


async def _answers(what: str, answer: Awaitable[object]) -> None:
    """Wait :data:`HEALTH_SECONDS` for ``answer``; a service that takes longer is away."""
    try:
        await asyncio.wait_for(answer, HEALTH_SECONDS)
    except TimeoutError:
        raise TimeoutError(f"{what} did not answer within {HEALTH_SECONDS:g} s") from None


async def resume_clocks(hub: Hub, beat_seconds: float) -> None:
    """Shift the running clocks by the time every serve process was down (one process
    does it: :meth:`.Store.resume_clocks`), so that nobody is charged for the pause."""
    pause = await hub.db(hub.store.resume_clocks, hub.now(), 2 * beat_seconds)
    if pause is None:
        log.info("no heartbeat was stored: each clock goes on from its last stored time")
    elif pause > 0:
        log.info("the server was down %.1f s: the clocks go on from where they were", pause)


@dataclass
class Runtime:
    hub: Hub
    computers: ComputerPlayers
    analyses: GameAnalyses
    redis: Any | None
    runs_jobs: bool
    #: The open challenges, and this process's lobby sockets.
    seeks: Seeks = field(init=False)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: Whether this process touches the heartbeat (a serve process).
    beats: bool = False

    @classmethod
    async def start(
        cls, store: Store, settings: Settings, *, runs_jobs: bool, serves: bool = True
    ) -> Runtime:
        """Start a process's parts; a serve process (``serves``) first resumes the clocks
        after a pause of the whole server, then beats while it lives, and sweeps flags
        (a worker does neither: a server whose serve processes are down is down)."""
        redis = connect_redis(settings.redis_url) if settings.redis_url else None
        bus: Bus = RedisBus(redis) if redis is not None else Bus()
        jobs: Jobs = (
            RedisJobs(
                redis,
                settings.worker_name or bus.process,
                settings.bot_threads,
                settings.job_lease_seconds,
            )
            if redis is not None
            else LocalJobs(settings.bot_threads)
        )
        hub = Hub(
            store,
            grace_seconds=settings.grace_seconds,
            bot_delay=settings.bot_delay,
            bus=bus,
            jobs=jobs,
            idle_seconds=settings.idle_seconds,
            presence_interval=settings.presence_interval,
            now=time_source(settings.time_offset_file),
        )
        hub.waits = Waits(settings.first_action_seconds, settings.opening_seconds)
        ratings.install(hub)  # rated games are rated as they end
        if serves:  # before any flag can fall: the pause is charged to nobody
            await resume_clocks(hub, settings.heartbeat_seconds)
        runtime = cls(
            hub,
            ComputerPlayers(hub, settings.bot_threads, settings.engine_threads),
            GameAnalyses(hub, settings.review_budget, jobs_review_slots(settings.bot_threads)),
            redis,
            runs_jobs,
        )
        runtime.seeks = Seeks(hub)  # hears the lobby's events from the start
        await bus.start(hub.on_event, hub.holds)
        await jobs.start(runtime.run if runs_jobs else None)
        if runs_jobs:
            await runtime.computers.resume()
            await runtime.analyses.resume()
        runtime._tasks.append(asyncio.create_task(runtime._evict()))
        if serves:
            runtime.beats = True
            runtime._tasks.append(asyncio.create_task(runtime._beat(settings.heartbeat_seconds)))
            runtime._tasks.append(
                asyncio.create_task(
                    runtime._repeat(settings.flag_sweep_seconds, runtime.sweep_flags, "flag")
                )
            )
        if runs_jobs:
            runtime._tasks.append(
                asyncio.create_task(
                    runtime._repeat(
                        settings.computer_sweep_seconds,
                        partial(runtime.sweep_computers, settings.computer_sweep_seconds),
                        "computer",
                    )
                )
            )
        runtime._tasks.append(asyncio.create_task(runtime.seeks.run()))
        runtime._tasks.append(
            asyncio.create_task(accounts.sweep_sessions(hub, settings.session_sweep_seconds))
        )
        if redis is not None:
            runtime._tasks.append(asyncio.create_task(runtime._share_presence()))
            runtime._tasks.append(
                asyncio.create_task(
                    runtime._repeat(settings.stale_sweep_seconds, runtime.sweep_stale, "stale")
                )
            )
        runtime._tasks.append(asyncio.create_task(Collector().run()))
        return runtime

    async def run(self, job: Job) -> None:
        """Do one job (the runner of the job queue)."""
        log.info("%s job of game %s at revision %d", job.kind, job.game_id, job.revision)
        if job.kind == "move":
            await self.computers.move(job)
        else:
            await self.analyses.run(job)

    async def _evict(self) -> None:
        """Let idle games go, every so often (``Settings.idle_seconds``)."""
        every = max(0.5, min(30.0, self.hub.idle_seconds / 2))
        while True:
            await asyncio.sleep(every)
            self.hub.evict_idle()

    async def _beat(self, every: float) -> None:
        """Touch the heartbeat every ``every`` seconds while the process lives."""
        while True:
            with DATABASE_OUTAGE.watching("the heartbeat"):
                await self.hub.db(self.hub.store.beat, from_epoch(self.hub.now()))
            await asyncio.sleep(every)

    async def _repeat(self, every: float, sweep: Callable[[], Awaitable[int]], name: str) -> None:
        """Run ``sweep`` every ``every`` seconds while the process lives; one that fails
        is logged, and the next runs as planned."""
        while True:
            await asyncio.sleep(every)
            with DATABASE_OUTAGE.watching(f"the {name} sweep"):
                await sweep()

    async def sweep_flags(self) -> int:
        """End the timed games whose running clock ran out, whether or not anyone is
        connected (every process sweeps; the revision lets one end each); the number of
        games whose flag fell."""
        hub = self.hub
        at = from_epoch(hub.now())
        fallen = 0
        for game_id in await hub.db(hub.store.out_of_time, at):
            live = await hub.get(game_id)
            if live is None:
                continue
            with hub.using(live):
                if await hub.guarded(ending.flag(hub, live)):
                    fallen += 1
        return fallen

    async def sweep_computers(self, stale: float) -> int:
        """Queue the move of each game whose computer is to act and that has not changed
        for ``stale`` seconds: a job that failed, or was lost with a process or a Redis,
        is done again (a job that is queued or running stays one job). The games are
        those in memory and those the database names: a serve process killed between
        storing a person's action and queuing the computer's answer leaves a game that no
        other process may hold. A game held here at an older revision than the
        database's is read again first. The number queued."""
        hub = self.hub
        before = now() - dt.timedelta(seconds=stale)  # stored times are the real time
        stored = await hub.db(hub.store.computer_to_act, before)
        for game_id, revision in stored:
            await hub.fresh(game_id, revision)  # read in, or again when behind
        stalled = [
            live
            for live in list(hub.games.values())
            if live.computer_to_act and live.stored.updated <= before
        ]
        for live in stalled:
            log.info("the computer of game %s is queued again", live.id)
            await hub.queue_move(live)
        return len(stalled)

    async def sweep_stale(self) -> int:
        """Read again each game held here for sockets whose stored revision is newer than
        this process's copy: another process stored a change and died before its event
        went out (its sockets then hear what changed). The number read again."""
        hub = self.hub
        watched = [game_id for game_id, live in hub.games.items() if live.connections]
        behind = 0
        for game_id, revision in (await hub.db(hub.store.revisions, watched)).items():
            live = hub.games.get(game_id)
            if live is not None and live.revision < revision:
                log.info("game %s is read again: the database has a newer revision", game_id)
                await hub.fresh(game_id, revision)
                behind += 1
        return behind

    async def _share_presence(self) -> None:
        """Say this process's part of each game's presence again, so that the others keep
        believing it (and stop when this process dies)."""
        while True:
            await asyncio.sleep(SUMMARY_SECONDS / 3)
            await self.hub.presence.share_all(self.hub.games.values())

    async def healthy(self) -> None:
        """Raise unless the database (and Redis, when there is one) answers, each
        within :data:`HEALTH_SECONDS` (a service that hangs is as away as one that
        refuses, and a monitor must hear so in time)."""
        await _answers("the database", self.hub.db(self.hub.store.ping))
        if self.redis is not None:
            await _answers("Redis", self.redis.ping())

    def game_figures(self) -> dict[str, int]:
        """The games in this process's memory and their sockets (``/healthz``,
        ``/metrics``)."""
        games = self.hub.games
        return {
            "games_in_memory": len(games),
            "connections": sum(len(live.connections) for live in games.values()),
        }

    async def job_figures(self) -> dict[str, int]:
        """With Redis, where the computer's moves wait for a worker: the jobs' figures
        (``jobs.queue_figures``); none without Redis, or when Redis does not give them
        within :data:`HEALTH_SECONDS` (``/healthz``, ``/metrics``)."""
        if self.redis is not None:
            with contextlib.suppress(Exception):
                return await asyncio.wait_for(queue_figures(self.redis), HEALTH_SECONDS)
        return {}

    async def stop(self) -> None:
        """Finish what is being stored, stop the jobs (a job cut short is done again),
        and close the connections."""
        await cancel_and_wait(self._tasks)
        if self.beats:  # a clean stop: the pause starts now, exactly
            with contextlib.suppress(Exception):
                await self.hub.db(self.hub.store.beat, from_epoch(self.hub.now()))
        self.analyses.cancelled.set()
        await self.hub.jobs.close()
        self.computers.close()
        self.analyses.close()
        await self.seeks.close()
        await self.hub.drain()
        await self.hub.bus.close()
        self.hub.close()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

"""The computer's work as jobs: a move of a computer seat, or a game's review.

A job names a game and the revision it was made for; whoever runs it first checks that
the game is still there, so the answer to a position that has since changed is dropped.
:class:`FairQueue` is the order in which a process runs the jobs it holds:

- moves before reviews (a person waits for a move; a review can wait), and reviews on at
  most half of the slots;
- among the waiting, the owner with the fewest jobs running goes first, then the owner
  whose turn came longest ago (a round among the owners), and of an owner's jobs the
  oldest (a review queued again after each chunk keeps the time it was asked for); no
  owner takes every slot: one stays free for the others, so 48 games that one address
  set playing itself cannot make another player's computer wait behind them.

Reviews are admitted under bounds (:class:`ReviewBounds`): at most so many unfinished
reviews per owner and on the whole server; one beyond them is refused
(:class:`.QueueFull`) rather than left pending for ever. The figures of the jobs, per
kind (queued, running, the oldest's wait) come from :meth:`Jobs.figures`, with or
without Redis (:mod:`.admission`).

Where the jobs wait: :class:`LocalJobs` in this process (one process alone), or
:class:`RedisJobs`, a Redis stream with a consumer group that ``shiftago worker``
processes read (docs/deploy.md says why a stream). An entry stays pending for the
worker that read it until done; a worker that dies leaves its entries pending, and
another claims them once they have been idle for the lease (``XAUTOCLAIM``), so a
killed worker's job is done again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final, Literal

from shiftago.interfaces.server.jobs.admission import (
    ADMIT_SCRIPT,
    RUNNING,
    KindFigures,
    QueueFull,
    ReviewBounds,
    check,
    count,
    empty_figures,
    stream_figures,
)
from shiftago.interfaces.server.jobs.bus import READ_BLOCK_MS, redis_text
from shiftago.interfaces.server.settings import LEASE_SECONDS
from shiftago.interfaces.shared.cancelling import cancel_and_wait, raise_if_cancelled

log = logging.getLogger("shiftago.server")

JobKind = Literal["move", "review"]

#: The stream of jobs and its consumer group.
JOBS: Final = "shiftago:jobs"
GROUP: Final = "workers"
#: How long a job's key stays after it was queued, so that the same job is not queued
#: twice (a restart queues every unfinished game's move again) (seconds).
JOB_KEY_SECONDS: Final = 600
#: A worker that said it lives within this many milliseconds counts as at work: it says
#: so every third of its lease in :data:`WORKERS` (the stream's consumer idle time is no
#: sign of life: an empty blocking read does not reset it on every Redis version).
WORKER_SEEN_MS: Final = 3 * READ_BLOCK_MS
#: The sorted set of the workers: each worker's name, scored by the time (Unix ms) it
#: last said it lives; a stopped worker takes its name out.
WORKERS: Final = "shiftago:workers"


@dataclass(frozen=True)
class Job:
    """A move of the computer in ``game_id`` at ``revision``, or the review
    ``analysis_id`` of it; ``owner`` is whose fair share it counts against. It starts no
    sooner than ``not_before`` (a time): the computer's delay, so that people can follow,
    spent waiting rather than holding a slot."""

    kind: JobKind
    game_id: str
    revision: int
    owner: str
    analysis_id: int | None = None
    queued_at: float = field(default_factory=time.time)
    not_before: float = 0.0
    #: Which queued copy this is, where the queue keeps one copy per key (Redis): only
    #: this copy's end lets the key go.
    token: str = ""

    @property
    def key(self) -> str:
        """What makes two jobs the same job (one waits at a time)."""
        if self.kind == "review":
            return f"review:{self.analysis_id}"
        return f"move:{self.game_id}:{self.revision}"

    def dump(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def load(cls, text: str | bytes) -> Job:
        data = json.loads(text)
        return cls(
            kind="review" if data["kind"] == "review" else "move",
            game_id=str(data["game_id"]),
            revision=int(data["revision"]),
            owner=str(data.get("owner") or ""),
            analysis_id=None if data.get("analysis_id") is None else int(data["analysis_id"]),
            queued_at=float(data.get("queued_at") or time.time()),
            not_before=float(data.get("not_before") or 0.0),
            token=str(data.get("token") or ""),
        )


@dataclass
class _Waiting:
    job: Job
    handle: Any
    order: int


class FairQueue:
    """The jobs a process holds and the order it runs them in (see the module)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.review_slots = max(1, self.slots // 2)
        self.owner_slots = max(1, self.slots - 1)
        self.waiting: dict[str, _Waiting] = {}
        self.running: dict[str, Job] = {}
        self.by_owner: Counter[str] = Counter()
        #: When each owner's turn last came (the number of the start); owners with
        #: nothing waiting or running are forgotten from time to time.
        self.served: dict[str, int] = {}
        self._order = itertools.count()
        self._turns = itertools.count()

    def __len__(self) -> int:
        return len(self.waiting)

    def push(self, job: Job, handle: Any = None) -> Any:
        """Hold ``job``; the handle of a job it replaces (the same job twice) comes back,
        for its caller to let go (None when none). A job queued again while it runs
        waits until that run is done: the run may be ending without having done it (a
        review that failed and was asked for again at once)."""
        old = self.waiting.get(job.key)
        self.waiting[job.key] = _Waiting(job, handle, next(self._order))
        return None if old is None else old.handle

    def due(self, now: float) -> float | None:
        """When the next job that is waiting for its time may start (None when none is:
        the others start when a slot frees)."""
        return min(
            (w.job.not_before for w in self.waiting.values() if w.job.not_before > now),
            default=None,
        )

    def pop(self, now: float | None = None) -> tuple[Job, Any] | None:
        """The next job to run at ``now``, if a slot is free and one may run; it counts as
        running until :meth:`done`."""
        if len(self.running) >= self.slots:
            return None
        now = time.time() if now is None else now
        reviews = sum(1 for job in self.running.values() if job.kind == "review")
        best: _Waiting | None = None
        best_rank: tuple[int, int, int, float, int] | None = None
        for waiting in self.waiting.values():
            job = waiting.job
            if job.not_before > now or job.key in self.running:
                continue
            if job.kind == "review" and reviews >= self.review_slots:
                continue
            if self.by_owner[job.owner] >= self.owner_slots:
                continue
            rank = (
                0 if job.kind == "move" else 1,
                self.by_owner[job.owner],
                self.served.get(job.owner, -1),
                job.queued_at,
                waiting.order,
            )
            if best_rank is None or rank < best_rank:
                best, best_rank = waiting, rank
        if best is None:
            return None
        del self.waiting[best.job.key]
        self.running[best.job.key] = best.job
        self.by_owner[best.job.owner] += 1
        self.served[best.job.owner] = next(self._turns)
        if len(self.served) > 2 * (len(self.waiting) + len(self.running)) + 100:
            self._forget()
        return best.job, best.handle

    def _forget(self) -> None:
        """Forget the turns of the owners with nothing waiting or running."""
        present = {w.job.owner for w in self.waiting.values()} | set(self.by_owner)
        self.served = {o: turn for o, turn in self.served.items() if o in present}

    def reviews(self, owner: str) -> tuple[int, int]:
        """The unfinished reviews (waiting or running) of ``owner``, and of everyone."""
        jobs = {w.job.key: w.job for w in self.waiting.values() if w.job.kind == "review"}
        jobs.update((key, job) for key, job in self.running.items() if job.kind == "review")
        return sum(1 for job in jobs.values() if job.owner == owner), len(jobs)

    def figures(self, now: float | None = None) -> dict[str, KindFigures]:
        """The jobs held, per kind (:data:`KindFigures`); a job queued again while it runs
        counts as running."""
        now = time.time() if now is None else now
        figures = empty_figures()
        for job in self.running.values():
            count(figures, job, now, running=True)
        for waiting in self.waiting.values():
            if waiting.job.key not in self.running:
                count(figures, waiting.job, now, running=False)
        return figures

    def done(self, job: Job) -> None:
        if self.running.pop(job.key, None) is not None:
            self.by_owner[job.owner] -= 1
            if self.by_owner[job.owner] <= 0:
                del self.by_owner[job.owner]


Runner = Callable[[Job], Awaitable[None]]


class Jobs:
    """Where jobs are queued; runs them too when ``runner`` is given (see the module)."""

    async def submit(self, job: Job) -> None:
        raise NotImplementedError

    async def start(self, runner: Runner | None) -> None:
        """Begin running jobs with ``runner`` (None: this process only queues them)."""

    async def release(self, job: Job) -> None:
        """Let the same job be queued again at once, before its run ends: a run that
        stores an outcome that invites asking again (a review that failed) releases its
        job first, so that the request that comes on seeing it is not taken for the
        job it replaces."""

    async def admit(self, job: Job, bounds: ReviewBounds) -> None:
        """Queue a review asked for, unless its owner or the server already has as many
        unfinished reviews as ``bounds`` allow (:class:`QueueFull`); a review already
        queued is no new one and is never refused."""
        raise NotImplementedError

    async def figures(self) -> dict[str, KindFigures]:
        """The jobs queued and running, per kind (:data:`KindFigures`)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop taking jobs; those running are cancelled (and done again later)."""


class _Dispatcher:
    """Runs the jobs of a :class:`FairQueue` with ``runner``, ``slots`` at a time."""

    def __init__(
        self, slots: int, runner: Runner, finished: Callable[[Any], Awaitable[None]]
    ) -> None:
        self.queue = FairQueue(slots)
        self.runner = runner
        self.finished = finished
        self.tasks: set[asyncio.Task[None]] = set()
        self.wake = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.create_task(self._dispatch())

    async def add(self, job: Job, handle: Any = None) -> None:
        replaced = self.queue.push(job, handle)
        if replaced is not None:
            await self.finished(replaced)
        self.wake.set()

    async def _dispatch(self) -> None:
        while True:
            self.wake.clear()
            # One reading of the clock for starting jobs and for the next one's time, so
            # that a job left waiting for its time is always one ``due`` names: with two
            # readings a job that comes due between them would wait for a wake that
            # nothing sends.
            now = time.time()
            while (next_job := self.queue.pop(now)) is not None:
                job, handle = next_job
                task = asyncio.create_task(self._run(job, handle))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            due = self.queue.due(now)
            timeout = None if due is None else max(0.001, due - time.time())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout)

    async def _run(self, job: Job, handle: Any) -> None:
        try:
            await self.runner(job)
        except asyncio.CancelledError:
            raise
        except Exception:  # a job must never take the process down; it is not done again
            log.exception("the %s job of game %s failed", job.kind, job.game_id)
        finally:
            self.queue.done(job)
            self.wake.set()
        await self.finished(handle)

    async def close(self) -> None:
        await cancel_and_wait([*self.tasks, *([self._loop] if self._loop is not None else [])])


class LocalJobs(Jobs):
    """The jobs of one process alone, run by it (``slots`` at a time)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._dispatcher: _Dispatcher | None = None
        self._early: list[Job] = []

    async def start(self, runner: Runner | None) -> None:
        if runner is None:
            return

        async def let_go(handle: Any) -> None:
            return None

        self._dispatcher = _Dispatcher(self.slots, runner, let_go)
        self._dispatcher.start()
        for job in self._early:
            await self._dispatcher.add(job)
        self._early.clear()

    async def submit(self, job: Job) -> None:
        if self._dispatcher is None:
            self._early.append(job)
        else:
            await self._dispatcher.add(job)

    async def admit(self, job: Job, bounds: ReviewBounds) -> None:
        queue = self.queue
        if queue is None:
            early = {j.key: j for j in self._early if j.kind == "review"}
            counts = (sum(1 for j in early.values() if j.owner == job.owner), len(early))
            queued = job.key in early
        else:
            counts = queue.reviews(job.owner)
            queued = job.key in queue.waiting or job.key in queue.running
        if not queued:
            check(*counts, bounds)
        await self.submit(job)

    async def figures(self) -> dict[str, KindFigures]:
        queue = self.queue
        if queue is not None:
            return queue.figures()
        figures, now = empty_figures(), time.time()
        for job in self._early:
            count(figures, job, now, running=False)
        return figures

    @property
    def queue(self) -> FairQueue | None:
        return None if self._dispatcher is None else self._dispatcher.queue

    async def close(self) -> None:
        if self._dispatcher is not None:
            await self._dispatcher.close()


#: Deletes a job's key if it still belongs to the copy whose token is given (a copy
#: queued again after a release owns the key then).
RELEASE_SCRIPT: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


#: Queues a job unless the same job is queued or running: its key (ARGV[1] the copy's
#: token, ARGV[2] its seconds) and the stream entry (ARGV[3]) in one step, so that a
#: submit given up half-way (Redis hanging) never leaves a key without its job.
SUBMIT_SCRIPT: Final = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then
    redis.call('xadd', KEYS[2], '*', 'j', ARGV[3])
    return 1
end
return 0
"""


def _key(job: Job) -> str:
    return f"shiftago:job:{job.key}"


async def queue_figures(redis: Any) -> dict[str, int]:
    """The stream's jobs as ``/healthz`` shows them: ``jobs_waiting`` (queued, no worker
    has read them), ``jobs_held`` (read by a worker, not done) and ``workers`` (the
    workers that said they live within the last :data:`WORKER_SEEN_MS`): waiting jobs
    and no worker mean that nobody runs the computer's moves."""
    queued = held = 0
    workers = int(await redis.zcount(WORKERS, time.time() * 1000 - WORKER_SEEN_MS, "+inf"))
    # asked only where the stream and the group are (no error replies on the way)
    if await redis.exists(JOBS):
        queued = int(await redis.xlen(JOBS))  # a job done leaves the stream (XDEL)
        groups = [g for g in await redis.xinfo_groups(JOBS) if redis_text(g.get("name")) == GROUP]
        if groups:
            held = int(groups[0].get("pending") or 0)
    return {"jobs_waiting": max(0, queued - held), "jobs_held": held, "workers": workers}


class RedisJobs(Jobs):
    """Jobs in a Redis stream: serve processes queue them, workers run them."""

    def __init__(
        self, redis: Any, consumer: str, slots: int = 4, lease: float = LEASE_SECONDS
    ) -> None:
        self.redis = redis
        self.consumer = consumer
        self.slots = slots
        self.lease = lease
        self._dispatcher: _Dispatcher | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._release = redis.register_script(RELEASE_SCRIPT)
        self._submit = redis.register_script(SUBMIT_SCRIPT)
        self._admit = redis.register_script(ADMIT_SCRIPT)

    async def submit(self, job: Job) -> None:
        token = uuid.uuid4().hex
        entry = replace(job, token=token).dump()
        await self._submit(keys=[_key(job), JOBS], args=[token, JOB_KEY_SECONDS, entry])

    async def admit(self, job: Job, bounds: ReviewBounds) -> None:
        token = uuid.uuid4().hex
        entry = replace(job, token=token).dump()
        answer = await self._admit(
            keys=[_key(job), JOBS],
            args=[token, JOB_KEY_SECONDS, entry, job.owner, bounds.per_owner, bounds.total],
        )
        if int(answer) == -1:
            raise QueueFull("owner", bounds)
        if int(answer) == -2:
            raise QueueFull("total", bounds)

    async def figures(self) -> dict[str, KindFigures]:
        return await stream_figures(self.redis, JOBS, WORKERS, WORKER_SEEN_MS)

    async def release(self, job: Job) -> None:
        await self._release(keys=[_key(job)], args=[job.token])

    async def start(self, runner: Runner | None) -> None:
        if runner is None:
            return
        await self._make_group()
        # counted among the living before it reads a job: a monitor never sees a job
        # held and no worker
        await self._say_it_lives()
        self._dispatcher = _Dispatcher(self.slots, self._noting(runner), self._ack)
        self._dispatcher.start()
        self._tasks = [
            asyncio.create_task(self._read()),
            asyncio.create_task(self._keep_and_reclaim()),
        ]

    def _noting(self, runner: Runner) -> Runner:
        """``runner``, with the job noted in :data:`RUNNING` while it runs (the figures)."""

        async def run(job: Job) -> None:
            note = json.dumps({"kind": job.kind, "worker": self.consumer, "since": time.time()})
            with contextlib.suppress(Exception):
                await self.redis.hset(RUNNING, job.token, note)
            try:
                await runner(job)
            finally:
                with contextlib.suppress(Exception):
                    await self.redis.hdel(RUNNING, job.token)

        return run

    async def _ack(self, handle: Any) -> None:
        if handle is None:
            return
        entry_id, job = handle
        with contextlib.suppress(Exception):
            pipe = self.redis.pipeline(transaction=False)
            pipe.xack(JOBS, GROUP, entry_id)
            pipe.xdel(JOBS, entry_id)
            await self._release(keys=[_key(job)], args=[job.token], client=pipe)
            await pipe.execute()

    async def _take(self, entries: Any) -> None:
        assert self._dispatcher is not None
        for entry_id, fields in entries:
            if not fields or b"j" not in fields:  # deleted meanwhile
                await self._ack((entry_id, Job("move", "", -1, "")))
                continue
            try:
                job = Job.load(fields[b"j"])
            except (ValueError, KeyError, TypeError):
                log.error("a job that cannot be read was dropped: %r", fields)
                await self.redis.xack(JOBS, GROUP, entry_id)
                continue
            await self._dispatcher.add(job, (entry_id, job))

    async def _make_group(self) -> None:
        """The consumer group (again, after a Redis that kept nothing restarted)."""
        with contextlib.suppress(Exception):  # BUSYGROUP: another worker made it
            await self.redis.xgroup_create(JOBS, GROUP, id="0", mkstream=True)

    async def _read(self) -> None:
        # first what this worker's name holds already (it was restarted), then new jobs
        start = "0"
        while True:
            try:
                answer = await self.redis.xreadgroup(
                    GROUP, self.consumer, {JOBS: start}, count=200, block=READ_BLOCK_MS
                )
                entries = [e for _stream, batch in answer or () for e in batch]
                await self._take(entries)
                if start != ">":  # paging through what it holds, to its end
                    start = entries[-1][0] if entries else ">"
            except asyncio.CancelledError:
                raise
            except Exception as error:
                raise_if_cancelled()
                if "NOGROUP" in str(error):
                    await self._make_group()
                    continue
                log.warning("reading the jobs from Redis failed; trying again: %s", error)
                await asyncio.sleep(1.0)

    async def _keep_and_reclaim(self) -> None:
        """Every third of the lease: say this worker still has its jobs, and take the
        jobs that a dead worker left idle for longer than the lease."""
        assert self._dispatcher is not None
        idle_ms = int(self.lease * 1000)
        while True:
            try:
                await self._say_it_lives()
                ids = await self._held_ids()
                if ids:
                    await self.redis.xclaim(JOBS, GROUP, self.consumer, 0, ids, justid=True)
                start = "0-0"
                while True:
                    start, entries, *_ = await self.redis.xautoclaim(
                        JOBS, GROUP, self.consumer, idle_ms, start_id=start, count=100
                    )
                    await self._take(entries)
                    if start in (b"0-0", "0-0"):
                        break
            except asyncio.CancelledError:
                raise
            except Exception:
                raise_if_cancelled()
                log.warning("renewing or reclaiming jobs failed", exc_info=True)
            await asyncio.sleep(self.lease / 3)

    async def _held_ids(self) -> list[Any]:
        """The ids of the entries pending for this worker: all it read, waiting or
        running, and has not let go."""
        pending = await self.redis.xpending_range(
            JOBS, GROUP, min="-", max="+", count=10_000, consumername=self.consumer
        )
        return [p["message_id"] for p in pending]

    async def _say_it_lives(self) -> None:
        """Score this worker's name in :data:`WORKERS` now, and take out the names of
        workers silent for long (killed ones)."""
        now_ms = time.time() * 1000
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(WORKERS, {self.consumer: now_ms})
        pipe.zremrangebyscore(WORKERS, "-inf", now_ms - 10 * WORKER_SEEN_MS)
        await pipe.execute()

    async def close(self) -> None:
        await cancel_and_wait(self._tasks)
        if self._dispatcher is not None:
            await self._dispatcher.close()
            with contextlib.suppress(Exception):  # a worker that stops no longer counts
                await self.redis.zrem(WORKERS, self.consumer)

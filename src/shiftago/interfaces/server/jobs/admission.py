"""What bounds the computer's jobs and what they show: the bounds on reviews asked for
(:class:`ReviewBounds`, refused beyond them with :class:`QueueFull`) and the figures of
the jobs per kind (:data:`KindFigures`), the same with or without Redis (docs/deploy.md,
"Metrics"; docs/security.md). :mod:`.queue` applies them."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from shiftago.interfaces.server.jobs.bus import redis_text

#: The kinds of job, in the order of the figures.
KINDS: Final = ("move", "review")


class Queued(Protocol):
    """What the figures read of a job."""

    @property
    def kind(self) -> str: ...
    @property
    def queued_at(self) -> float: ...
    @property
    def not_before(self) -> float: ...


#: The hash of the jobs that workers run now: each queued copy's token, with its kind,
#: its worker and when it started (JSON); a dead worker's fields no longer count.
RUNNING: Final = "shiftago:running"
#: The seconds a refused review is told to wait before asking again (``Retry-After``)
#: when the queue's figures cannot be read; else :func:`review_retry` estimates it,
#: within :data:`REVIEW_RETRY_BOUNDS`.
REVIEW_RETRY_SECONDS: Final = 30
REVIEW_RETRY_BOUNDS: Final = (5, 300)
#: About how long one review holds a slot (seconds): a game of 20 to 40 actions at the
#: default budget (analysis/reviews.py), the unit of :func:`review_retry`'s estimate.
REVIEW_SECONDS: Final = 15.0


@dataclass(frozen=True)
class ReviewBounds:
    """The most unfinished reviews (queued or running) one owner (an address) may have,
    and the whole server."""

    per_owner: int
    total: int


class QueueFull(Exception):
    """A review refused: its owner already has ``bounds.per_owner`` unfinished reviews
    (``scope`` "owner"), or the server ``bounds.total`` (``scope`` "total")."""

    def __init__(self, scope: Literal["owner", "total"], bounds: ReviewBounds) -> None:
        super().__init__(scope)
        self.scope = scope
        self.bounds = bounds


def check(owner_count: int, total_count: int, bounds: ReviewBounds) -> None:
    if owner_count >= bounds.per_owner:
        raise QueueFull("owner", bounds)
    if total_count >= bounds.total:
        raise QueueFull("total", bounds)


#: The figures of one kind of job: ``queued`` (waiting), ``running``, and
#: ``oldest_seconds``, how long the oldest queued job has waited since it could start
#: (a review: since it was asked for), 0 when none waits.
KindFigures = dict[str, float]


def review_retry(figures: dict[str, KindFigures]) -> int:
    """The seconds until a refused review's place is likely free, from the queue's
    figures: the reviews waiting go first, the running ones each free a place within
    about :data:`REVIEW_SECONDS` (``(queued / running + 1)`` rounds of them), and a
    queue whose oldest review has waited longer than that moves at least that slowly;
    within :data:`REVIEW_RETRY_BOUNDS`."""
    row = figures.get("review", {})
    running = max(1.0, float(row.get("running", 0)))
    rounds = float(row.get("queued", 0)) / running + 1
    estimate = max(rounds * REVIEW_SECONDS, float(row.get("oldest_seconds", 0.0)))
    low, high = REVIEW_RETRY_BOUNDS
    return int(min(high, max(low, math.ceil(estimate))))


def empty_figures() -> dict[str, KindFigures]:
    return {kind: {"queued": 0, "running": 0, "oldest_seconds": 0.0} for kind in KINDS}


def count(figures: dict[str, KindFigures], job: Queued, now: float, running: bool) -> None:
    """Count ``job`` in ``figures`` at ``now``, as running or as queued."""
    row = figures[job.kind]
    if running:
        row["running"] += 1
        return
    row["queued"] += 1
    waited = max(0.0, now - max(job.queued_at, job.not_before))
    row["oldest_seconds"] = round(max(row["oldest_seconds"], waited), 3)


#: :data:`SUBMIT_SCRIPT` for a review asked for, under bounds: a review already queued
#: is left as it is (1); else the unfinished reviews in the stream are counted (each
#: review once, by its analysis), those of its owner (ARGV[4]) against ARGV[5] (-1 when
#: at it) and all of them against ARGV[6] (-2), in the same step as the queueing, so
#: that two processes asking at once cannot both take the last place.
ADMIT_SCRIPT: Final = """
if redis.call('exists', KEYS[1]) == 1 then
    return 1
end
local seen, mine, all = {}, 0, 0
for _, entry in ipairs(redis.call('xrange', KEYS[2], '-', '+')) do
    local fields = entry[2]
    for i = 1, #fields, 2 do
        if fields[i] == 'j' then
            local ok, job = pcall(cjson.decode, fields[i + 1])
            if ok and type(job) == 'table' and job['kind'] == 'review' then
                local id = tostring(job['analysis_id'])
                if not seen[id] then
                    seen[id] = true
                    all = all + 1
                    if job['owner'] == ARGV[4] then
                        mine = mine + 1
                    end
                end
            end
        end
    end
end
if mine >= tonumber(ARGV[5]) then
    return -1
end
if all >= tonumber(ARGV[6]) then
    return -2
end
redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('xadd', KEYS[2], '*', 'j', ARGV[3])
return 1
"""


@dataclass(frozen=True)
class _Entry:
    """What the figures read of a job in the stream."""

    kind: str
    queued_at: float
    not_before: float


async def stream_figures(
    redis: Any, stream: str, workers: str, seen_ms: float
) -> dict[str, KindFigures]:
    """The jobs of the Redis ``stream`` per kind (:data:`KindFigures`): running, those
    that a worker seen within ``seen_ms`` (in the sorted set ``workers``) says it runs in
    :data:`RUNNING`; queued, the stream's other entries (read by a worker or not). The
    fields of the workers no longer seen are taken out."""
    now = time.time()
    live = {
        redis_text(name)
        for name in await redis.zrangebyscore(workers, now * 1000 - seen_ms, "+inf")
    }
    figures = empty_figures()
    running: set[str] = set()
    dead: list[Any] = []
    for token, text in (await redis.hgetall(RUNNING)).items():
        try:
            held = json.loads(text)
            kind, worker = str(held["kind"]), str(held["worker"])
        except (ValueError, KeyError, TypeError):
            kind, worker = "", ""
        if worker not in live or kind not in figures:
            dead.append(token)
            continue
        running.add(redis_text(token))
        figures[kind]["running"] += 1
    if dead:
        await redis.hdel(RUNNING, *dead)
    for _entry_id, fields in await redis.xrange(stream, "-", "+"):
        try:
            data = json.loads(fields[b"j"])
            job = _Entry(
                str(data["kind"]), float(data["queued_at"]), float(data.get("not_before") or 0)
            )
        except (ValueError, KeyError, TypeError):
            continue
        if job.kind in figures and str(data.get("token")) not in running:
            count(figures, job, now, running=False)
    return figures

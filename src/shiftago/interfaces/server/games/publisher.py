"""What the hub hands to Redis: events for the other processes, jobs for the workers.

A change is stored before it is announced, so neither may hold it up: a Redis that hangs
gets :data:`REDIS_ANSWER_SECONDS`, then the change goes on without it. An event Redis did
not take is kept and offered again, in order; a job it did not take is queued again by
the computer sweep (docs/deploy.md, "When Redis is away").
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from shiftago.interfaces.server.jobs.bus import Bus, Event
from shiftago.interfaces.server.jobs.queue import Job, Jobs
from shiftago.interfaces.shared.cancelling import cancel_and_wait

log = logging.getLogger("shiftago.server")

#: Events that could not be published (Redis away) kept to publish again, oldest
#: dropped beyond it: each says only "game G is at revision R", so a process that misses
#: one finds a gap at the next and reads the game again (docs/deploy.md).
UNPUBLISHED_KEPT = 10_000
#: How often the events kept are offered to Redis again (seconds).
REPUBLISH_SECONDS = 1.0
#: How long a change waits for Redis to take its event or job (seconds) before it goes
#: on without it: a Redis that hangs must not hold up the requests and actions that
#: store changes (the event is kept and offered again, a lost job is queued again by
#: the computer sweep; docs/deploy.md, "When Redis is away").
REDIS_ANSWER_SECONDS = 1.0


class Publisher:
    """The events of one process's stored changes and its jobs, on their way to Redis."""

    def __init__(self, bus: Bus, jobs: Jobs) -> None:
        self.bus = bus
        self.jobs = jobs
        #: Events that Redis did not take, in order, and the task that offers them again.
        self._unpublished: deque[Event] = deque()
        self._republisher: asyncio.Task[None] | None = None

    async def publish(self, event: Event) -> None:
        """Tell the other processes of a stored change. The change stands if Redis cannot
        be reached: the event is kept and published again, in order, once Redis takes
        events again (a process that held the game would otherwise keep its old copy
        until another event of the game came, and none may come)."""
        if self._unpublished:  # behind the events still waiting: the order stays
            self._keep_unpublished(event)
            return
        try:
            await asyncio.wait_for(self.bus.publish(event), REDIS_ANSWER_SECONDS)
        except Exception as error:
            why = str(error) or "no answer in time"
            what = f"of game {event['game']}" if event.get("game") else "of the lobby"
            log.error("the event %s could not be published: %s", what, why)
            self._keep_unpublished(event)

    def _keep_unpublished(self, event: Event) -> None:
        self._unpublished.append(event)
        if len(self._unpublished) > UNPUBLISHED_KEPT:
            self._unpublished.popleft()
        if self._republisher is None or self._republisher.done():
            self._republisher = asyncio.create_task(self._republish())

    async def _republish(self) -> None:
        """Offer the kept events to Redis every :data:`REPUBLISH_SECONDS` until it takes
        them all."""
        while self._unpublished:
            await asyncio.sleep(REPUBLISH_SECONDS)
            events = list(self._unpublished)
            try:
                await self.bus.publish_many(events)
            except Exception as error:
                log.warning("%d events still wait for Redis: %s", len(events), error)
                continue
            for _ in range(min(len(events), len(self._unpublished))):
                self._unpublished.popleft()
            log.info("%d events published once Redis was back", len(events))

    async def submit(self, job: Job) -> None:
        """Queue a job; when Redis cannot be reached, the job is queued again by the next
        worker that starts (it queues every unfinished game's computer move)."""
        try:
            await asyncio.wait_for(self.jobs.submit(job), REDIS_ANSWER_SECONDS)
        except Exception as error:
            why = str(error) or "no answer in time"
            log.error("the %s job of game %s could not be queued: %s", job.kind, job.game_id, why)

    async def close(self) -> None:
        """Stop offering the kept events again (shutting down)."""
        if self._republisher is not None:
            await cancel_and_wait([self._republisher])

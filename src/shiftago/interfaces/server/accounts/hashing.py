"""The bounded pool that hashes and checks passwords (docs/security.md, "Sign-in under
attack").

Each argon2 hash takes tens of milliseconds and 64 MiB, so a process runs a few at a
time (``Settings.password_checks_at_once``) in threads beside the event loop, and keeps
a bounded number waiting (``Settings.password_checks_queued``). A check beyond the queue
is refused at once (:class:`Busy`, answered 429 with ``Retry-After``): nobody waits
behind a crowd.

Three lanes share the pool, served in this order:

- a *device* check (a browser that signed in to this very account before and has not
  sent a wrong password since the minute began: :mod:`.devices`) may use every thread
  and one more slot kept for it alone, and has a queue of its own (half the queue's
  size), so no crowd of unknown browsers can fill what it needs;
- a *clean* check (an unknown browser from an address without recent failures: a
  newcomer, and the first guess of each fresh address of a flood) may use every thread
  but not the device slot, and three quarters of the shared queue: however many fresh
  addresses come, they take part of the pool, never all of it;
- a *suspect* check (an address that sent a wrong password lately) may use every thread
  but one and half of the shared queue.

So a flood, fresh or not, leaves a slot and a queue to the accounts' owners, and once
each of its addresses has failed, a thread and part of the queue to newcomers. The
counters (:attr:`HashingPool.counts`) say how many checks of each lane ran, waited and
were refused.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar

T = TypeVar("T")

Lane = Literal["device", "clean", "suspect"]
#: The lanes, first served first.
LANES: Final[tuple[Lane, ...]] = ("device", "clean", "suspect")
#: What became of a check: it ran (at once or after waiting), it waited first, or it was
#: refused because its lane's queue was full.
OUTCOMES: Final = ("ran", "waited", "refused")
#: Seconds a client refused by a full pool is told to wait.
BUSY_RETRY: Final = 1


class Busy(Exception):
    """The pool's queue of the lane is full: try again in :data:`BUSY_RETRY` s."""


class HashingPool:
    """At most ``threads`` checks at once (and one more of a known device), ``queued``
    waiting (and half as many of known devices); see the module's words on the lanes.
    Used from one event loop only (no lock is needed)."""

    def __init__(self, threads: int, queued: int) -> None:
        self.threads = max(1, threads)
        self.queued = max(0, queued)
        #: Threads a suspect check leaves to clean ones.
        self.reserved = 1 if self.threads > 1 else 0
        #: The slot only known devices use, beyond ``threads``.
        self.device_slots = 1
        #: Known devices' own queue.
        self.device_queued = max(1, self.queued // 2)
        self.running = 0
        self.waiting: dict[Lane, deque[asyncio.Future[None]]] = {lane: deque() for lane in LANES}
        #: ``"<lane> ran"``, ``"<lane> waited"``, ``"<lane> refused"``.
        self.counts: Counter[str] = Counter()

    # --- what each lane may take ---------------------------------------------------------
    def _may_run(self, lane: Lane) -> bool:
        if lane == "device":
            limit = self.threads + self.device_slots
        elif lane == "clean":
            limit = self.threads
        else:
            limit = self.threads - self.reserved
        return self.running < limit

    def _may_wait(self, lane: Lane) -> bool:
        if lane == "device":
            return len(self.waiting["device"]) < self.device_queued
        shared = len(self.waiting["clean"]) + len(self.waiting["suspect"])
        limit = self.queued - self.queued // 4 if lane == "clean" else self.queued // 2
        return shared < limit

    def queue_length(self) -> int:
        return sum(len(queue) for queue in self.waiting.values())

    def figures(self) -> dict[str, Any]:
        """The pool now and since the process started (``/healthz``, ``/metrics``): checks
        running and queued, its bounds, and per lane the checks queued now and those
        that ran, waited first, or were refused because the queue was full."""
        return {
            "running": self.running,
            "queued": self.queue_length(),
            "threads": self.threads,
            "queue_bound": self.queued,
            "lanes": {
                lane: {
                    "queued": len(self.waiting[lane]),
                    **{outcome: self.counts[f"{lane} {outcome}"] for outcome in OUTCOMES},
                }
                for lane in LANES
            },
        }

    # --- running -------------------------------------------------------------------------
    async def run(self, lane: Lane, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a thread once the lane has room; :class:`Busy` at once when
        its queue is full."""
        if not (self._may_run(lane) and not self._ahead(lane)):
            if not self._may_wait(lane):
                self.counts[f"{lane} refused"] += 1
                raise Busy
            await self._wait(lane)
        else:
            self.running += 1
        self.counts[f"{lane} ran"] += 1
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self.running -= 1
            self._grant()

    def _ahead(self, lane: Lane) -> bool:
        """Whether a check waits that goes before one of ``lane`` (its own lane's and
        those served before it)."""
        return any(self.waiting[other] for other in LANES[: LANES.index(lane) + 1])

    async def _wait(self, lane: Lane) -> None:
        """Wait in the lane's queue until :meth:`_grant` gives this check a thread (it
        counts the check as running when it does)."""
        self.counts[f"{lane} waited"] += 1
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting[lane].append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # granted, then given up: pass it on
                self.running -= 1
                self._grant()
            else:
                self.waiting[lane].remove(turn)
            raise

    def _grant(self) -> None:
        """Give free threads to the waiting checks: known devices' first, then clean."""
        for lane in LANES:
            queue = self.waiting[lane]
            while queue and self._may_run(lane):
                turn = queue.popleft()
                if not turn.done():
                    self.running += 1
                    turn.set_result(None)


__all__ = ["BUSY_RETRY", "LANES", "OUTCOMES", "Busy", "HashingPool", "Lane"]

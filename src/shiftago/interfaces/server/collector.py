"""Keeps Python's garbage collector from pausing a busy process for long.

A full collection looks at every object the process holds, and a busy serve process
holds many (every open socket brings its own): its pauses stop everything, long enough
to make the slowest actions (docs/deploy.md, "Garbage collection", has the figures).
Nearly all of these objects live for minutes (sockets, games) or die by their reference
count; very few become garbage in a cycle, the only kind the collector is needed for.

So every :data:`FREEZE_SECONDS` the young objects are collected (a short pause) and what
survives is frozen (``gc.freeze``): later collections no longer look at it. Frozen
objects are still freed when their last reference goes; only a cycle among them waits
for the full collection that runs every :data:`FULL_SECONDS`, after which everything is
frozen again.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Final

log = logging.getLogger("shiftago.server")

#: How often the survivors of the young generations are frozen (docs/deploy.md).
FREEZE_SECONDS: Final = 10.0
#: How often everything is unfrozen and collected in full (docs/deploy.md).
FULL_SECONDS: Final = 3600.0


#: The third threshold of :func:`gc.set_threshold` while a :class:`Collector` runs: so
#: high that the oldest generation is never collected by itself (docs/deploy.md).
NEVER: Final = 2**30


def old_collections_off() -> tuple[int, int, int]:
    """Leave the oldest generation to the :class:`Collector`: CPython collects it by
    itself after every tenth collection of the middle one, and after a burst of new
    sockets (hundreds of thousands of young objects promoted at once) each such
    collection stopped the process for 100-220 ms. What reaches it is frozen at the
    next :meth:`Collector.freeze_survivors` anyway. The thresholds it replaced."""
    kept = gc.get_threshold()
    gc.set_threshold(kept[0], kept[1], NEVER)
    return kept


class Collector:
    """Freezes survivors often and collects in full rarely (see the module)."""

    def __init__(
        self,
        freeze_seconds: float = FREEZE_SECONDS,
        full_seconds: float = FULL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.clock = clock
        self.last_full = clock()

    def freeze_survivors(self) -> None:
        """Collect the young generations and freeze what is left."""
        gc.collect(1)
        gc.freeze()

    def collect_in_full(self) -> int:
        """Unfreeze everything, collect it all (the cycles among frozen objects too) and
        freeze the survivors again; the number of objects collected."""
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self.last_full = self.clock()
        return collected

    def step(self) -> None:
        """One turn: a full collection when it is due, else a freeze of the survivors."""
        if self.clock() - self.last_full >= self.full_seconds:
            started = time.perf_counter()
            collected = self.collect_in_full()
            log.info(
                "full garbage collection: %d objects in %.0f ms",
                collected,
                (time.perf_counter() - started) * 1000,
            )
        else:
            self.freeze_survivors()

    async def run(self) -> None:
        """Take a turn every ``freeze_seconds``, in the event loop's thread (so that no
        other thread waits for the interpreter lock to do it); meanwhile the oldest
        generation is collected only by :meth:`step` (:func:`old_collections_off`)."""
        kept = old_collections_off()
        try:
            while True:
                await asyncio.sleep(self.freeze_seconds)
                self.step()
        finally:  # stopped (the app shut down): the process collects as it did
            gc.set_threshold(*kept)

"""Stopping compiled searches on time or on request.

Numba code cannot read the clock cheaply, so the clock stays in Python: a search runs
without the GIL, and an :class:`Alarm` thread writes a stop value into one slot of the
search's ``info`` arrays (one per search thread) at a wall-clock time, or as soon as a
caller's stop event is set; the search reads that slot at every node or iteration and
stops. :func:`hard_deadline` is when a search given ``movetime`` must stop so that the
answer, with Python's work after the search, is still in time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Final

import numpy as np

#: Kept free of ``movetime`` for Python's work after the search (ms, and a share;
#: docs/strength.md, "Time used by the top level now").
TIME_MARGIN_MS: Final = 6.0
TIME_MARGIN_SHARE: Final = 0.04
#: How often (seconds) the alarm looks at a caller's stop event.
STOP_POLL_SECONDS: Final = 0.002


def hard_deadline(start: float, movetime_ms: float) -> float:
    """When a compiled search must stop to answer within ``movetime_ms`` of ``start``
    (``time.perf_counter()`` values)."""
    margin_ms = TIME_MARGIN_MS + TIME_MARGIN_SHARE * movetime_ms
    return start + max(movetime_ms - margin_ms, 0.0) / 1000


class Alarm:
    """Writes ``value`` into ``info[slot]`` of every array of ``infos`` at the time
    ``at`` (a ``time.perf_counter()`` value; None: never) or once ``stop`` is set,
    from its own thread.

    A lock orders this with :meth:`set`, by which a search thread writes its slot
    itself (a new node limit for its next depth), so a rung alarm is never undone."""

    def __init__(
        self,
        infos: Sequence[np.ndarray] | np.ndarray,
        slot: int,
        at: float | None,
        value: int = 0,
        stop: threading.Event | None = None,
    ) -> None:
        self.infos = [infos] if isinstance(infos, np.ndarray) else list(infos)
        self.slot = slot
        self.value = value
        self.at = at
        self.stop = stop
        self.rung = False
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._thread: threading.Thread | None = None
        if at is not None or stop is not None:
            self._thread = threading.Thread(target=self._watch, name="search-alarm", daemon=True)
            self._thread.start()

    def _watch(self) -> None:
        while not self._cancelled.is_set():
            now = time.perf_counter()
            if (self.at is not None and now >= self.at) or (
                self.stop is not None and self.stop.is_set()
            ):
                self.ring()
                return
            wait = STOP_POLL_SECONDS if self.stop is not None else 3600.0
            if self.at is not None:
                wait = min(wait, self.at - now)
            self._cancelled.wait(max(wait, 0.0))

    def ring(self) -> None:
        """Stop the searches now."""
        with self._lock:
            self.rung = True
            for info in self.infos:
                info[self.slot] = self.value

    def set(self, value: int, info: np.ndarray | None = None) -> bool:
        """Write ``value`` into the slot of ``info`` (default: the first array); False
        (and nothing written) once rung."""
        with self._lock:
            if self.rung:
                return False
            (self.infos[0] if info is None else info)[self.slot] = value
            return True

    def cancel(self) -> None:
        self._cancelled.set()

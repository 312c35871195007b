"""Stopping compiled searches on time.

Numba code cannot read the clock cheaply, so the clock stays in Python: a search runs
without the GIL, and an :class:`Alarm` thread writes a stop value into one slot of the
search's ``info`` array at a wall-clock time; the search reads that slot at every node
or iteration and stops. :func:`hard_deadline` is when a search given ``movetime`` must
stop so that the answer, with Python's work after the search, is still in time.
"""

from __future__ import annotations

import threading
import time
from typing import Final

import numpy as np

#: Kept free of ``movetime`` for Python's work after the search (ms, and a share).
TIME_MARGIN_MS: Final = 8.0
TIME_MARGIN_SHARE: Final = 0.1


def hard_deadline(start: float, movetime_ms: float) -> float:
    """When a compiled search must stop to answer within ``movetime_ms`` of ``start``
    (``time.perf_counter()`` values)."""
    margin_ms = TIME_MARGIN_MS + TIME_MARGIN_SHARE * movetime_ms
    return start + max(movetime_ms - margin_ms, 0.0) / 1000


class Alarm:
    """Writes ``value`` into ``info[slot]`` at the time ``at``, from a timer thread.

    A lock orders this with :meth:`set`, by which the search's driver writes the slot
    itself (a new node limit for the next depth), so a rung alarm is never undone."""

    def __init__(self, info: np.ndarray, slot: int, at: float, value: int = 0) -> None:
        self.info = info
        self.slot = slot
        self.value = value
        self.rung = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(at - time.perf_counter(), 0.0), self._ring)
        self._timer.daemon = True
        self._timer.start()

    def _ring(self) -> None:
        with self._lock:
            self.rung = True
            self.info[self.slot] = self.value

    def set(self, value: int) -> bool:
        """Write ``value`` into the slot; False (and nothing written) once rung."""
        with self._lock:
            if self.rung:
                return False
            self.info[self.slot] = value
            return True

    def cancel(self) -> None:
        self._timer.cancel()

"""Threads that search one tree share what they are doing (docs/strength.md, "Two threads").

A table of the (position, action) pairs the threads are in lets a node put off an action
another thread is searching (simplified ABDADA, with ``info[DEFER]``), and each depth's
best root action so far is published as one packed number. :mod:`.negamax` uses both.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from .layout import F_MARK

#: Deferring (with ``info[DEFER]``): a node this many plies from the leaves or more puts
#: off an action, other than its first, that another thread is searching from the same
#: position, and searches it after the others (docs/strength.md, "Two threads").
DEFER_DEPTH: Final = 3
#: :func:`pack_root_best` puts the value (made positive by the offset) above the
#: action's code, so that packed numbers compare as their values do.
_ROOT_VALUE_SHIFT: Final = 20
_ROOT_VALUE_OFFSET: Final = 1 << 20
#: An odd constant that spreads action codes over the bits of a position's key.
_ACTION_SPREAD: Final = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64


@njit(cache=True, nogil=True)
def busy_mark(key: int, code: int) -> int:
    """The busy table's mark of searching action ``code`` from the position with
    ``key``: never 0 (the empty slot)."""
    mark = key ^ ((code + 1) * _ACTION_SPREAD)
    return mark if mark != 0 else 1


@njit(cache=True, nogil=True)
def release_mark(frame: np.ndarray, busy: np.ndarray) -> None:
    """Take the mark of the child ``frame``'s node is searching, if any, out of the busy
    table (unless another pair's mark has taken its slot since)."""
    mark = frame[F_MARK]
    if mark != 0:
        slot = mark & (busy.shape[0] - 1)
        if busy[slot] == mark:
            busy[slot] = 0
        frame[F_MARK] = 0


@njit(cache=True, nogil=True)
def clear_marks(frames: np.ndarray, busy: np.ndarray, ply: int) -> None:
    """Take the marks of a stopped search's plies ``1..ply`` out of the busy table."""
    for p in range(1, ply + 1):
        release_mark(frames[p], busy)


@njit(cache=True, nogil=True)
def pack_root_best(value: int, code: int) -> int:
    """One number for a root action and its exact value (never 0, the empty slot),
    ordered by value: a thread publishes its best with a single write another thread
    cannot see half done."""
    return ((value + _ROOT_VALUE_OFFSET) << _ROOT_VALUE_SHIFT) | code


@njit(cache=True, nogil=True)
def unpack_root_best(packed: int) -> tuple[int, int]:
    """The value and action of :func:`pack_root_best`."""
    return (packed >> _ROOT_VALUE_SHIFT) - _ROOT_VALUE_OFFSET, packed & (
        (1 << _ROOT_VALUE_SHIFT) - 1
    )

"""Iterative deepening and time management around :func:`.negamax.search_root`.

Numba code cannot read the clock cheaply, so the clock stays in Python. Each depth is
one compiled call that runs without the GIL; with a ``movetime`` an alarm thread
(:mod:`shiftago.engine.alarm`) lowers the search's node limit to zero at the hard
deadline (``movetime`` less a margin for Python's own work), and the search stops at
its next node. A new depth starts only while less than :data:`START_SHARE` of the time
is spent, since it would rarely finish otherwise. When a depth is cut off the search
keeps the result of the last finished depth, improved by any action of the cut-off
depth that was searched to the end and beat it (the best so far). An analysis
(``exact_all``) keeps the last finished depth alone, so that its ranking compares values
of one depth. The answer therefore never waits for a depth to finish.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from shiftago.engine.alarm import Alarm, hard_deadline

from .endgame import plies_left
from .negamax import (
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    PROVEN,
    REDUCE,
    STOPPED,
    USE_TT,
    new_tables,
    principal_variation,
    search_root,
)

#: Transposition-table entries: ``2 ** TT_BITS`` (about 40 bytes each).
TT_BITS = 19
#: A new depth starts only while less than this share of ``movetime`` is spent.
START_SHARE = 0.5


#: Each thread's transposition table (keys, data), shared by its searchers one search at a
#: time: a table is tens of MiB, and making a fresh one for each search cost more than
#: the search itself at the low levels (docs/deploy.md, "The computer").
_THREAD = threading.local()


def _thread_table(tt_bits: int) -> tuple[np.ndarray, np.ndarray]:
    table: tuple[np.ndarray, np.ndarray] | None = getattr(_THREAD, "table", None)
    if table is None or table[0].shape[0] != 1 << tt_bits:
        size = 1 << tt_bits
        table = (np.zeros(size, dtype=np.uint64), np.zeros((size, 4), dtype=np.int64))
        _THREAD.table = table
        _THREAD.owner = None
    return table


@dataclass
class SearchResult:
    """What a search found: the root actions (kernel codes) best first with their
    values (see :mod:`.negamax`; exact for the best, and for all with ``exact_all``)
    and principal variations, the depth finished and the nodes visited."""

    codes: list[int]
    values: list[int]
    pvs: list[list[int]]
    depth: int
    nodes: int
    seconds: float
    depths: list[tuple[int, int]] = field(default_factory=list)  # (depth, nodes)


class Searcher:
    """A 2-player alpha-beta search of one kernel state.

    ``order`` is the first order of the root actions (later depths sort them by value;
    the sort is stable, so equal values keep it). ``use_tt=False`` turns the
    transposition table off (for tests); ``reductions=True`` turns late move
    reductions on (see :mod:`.negamax`), so that a depth no longer means every line of
    that length."""

    def __init__(
        self, tt_bits: int = TT_BITS, use_tt: bool = True, reductions: bool = False
    ) -> None:
        self.tables = new_tables(tt_bits, _thread_table(tt_bits))
        self.tables[-1][USE_TT] = 1 if use_tt else 0
        self.tables[-1][REDUCE] = 1 if reductions else 0
        _THREAD.owner = None  # the table may hold another searcher's entries

    def clear(self) -> None:
        """Forget earlier searches (table, killers, history): the next search is exactly
        that of a new searcher, without paying again for the table's fresh memory."""
        _, _, _, _, tt_key, _, killers, history, _ = self.tables
        tt_key[:] = 0
        killers[:] = -1
        history[:] = 0
        _THREAD.owner = self

    def _own_table(self) -> None:
        """The thread's table holds only this searcher's entries (cleared otherwise)."""
        if getattr(_THREAD, "owner", None) is not self:
            self.tables[4][:] = 0
            _THREAD.owner = self

    def search(
        self,
        state: np.ndarray,
        order: list[int],
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime_ms: float | None = None,
        exact_all: bool = False,
        started: float | None = None,
        stop_when_proven: bool = True,
    ) -> SearchResult:
        start = time.perf_counter() if started is None else started
        self._own_table()
        tables = self.tables
        stack, moves, keys, frames, tt_key, tt_data, killers, history, info = tables
        stack[0] = state
        info[NODES] = 1  # the root
        info[STOPPED] = 0
        # a depth that reaches the end of every game is exact: deeper is the same
        max_depth = min(depth or MAX_PLY - 1, MAX_PLY - 1, max(plies_left(state), 1))
        codes = list(order)
        values = [0] * len(codes)
        finished = 0
        depths: list[tuple[int, int]] = []
        buffer = np.empty(len(codes), dtype=np.int64)
        alarm: Alarm | None = None
        try:
            for d in range(1, max_depth + 1):
                limit = 1 << 62  # depth 1 is always finished: a few dozen nodes
                if d > 1 and nodes is not None:
                    limit = nodes
                if int(info[NODES]) >= limit:
                    break
                if d > 1 and movetime_ms is not None:
                    spent_ms = (time.perf_counter() - start) * 1000
                    if spent_ms >= START_SHARE * movetime_ms:
                        break
                    if alarm is None:
                        alarm = Alarm(info, NODE_LIMIT, hard_deadline(start, movetime_ms))
                if alarm is None:
                    info[NODE_LIMIT] = limit
                elif not alarm.set(limit):
                    break
                root = np.array(codes, dtype=np.int64)
                done = search_root(
                    stack,
                    moves,
                    keys,
                    frames,
                    tt_key,
                    tt_data,
                    killers,
                    history,
                    info,
                    root,
                    buffer,
                    d,
                    exact_all,
                )
                if done == len(codes):
                    codes, values = _sorted(codes, [int(v) for v in buffer])
                    finished = d
                    depths.append((d, int(info[NODES])))
                    if stop_when_proven and abs(values[0]) >= PROVEN:
                        break
                    continue
                # cut off: keep the last depth, unless an action of this one beat it
                partial = [int(v) for v in buffer[:done]]
                if done > 1 and not exact_all:
                    best = max(range(done), key=lambda j: (partial[j], -j))
                    if partial[best] > partial[0]:
                        codes.insert(0, codes.pop(best))
                        values.pop(best)
                        values.insert(0, partial[best])
                break
        finally:
            if alarm is not None:
                alarm.cancel()
        pvs = self._pvs(state, codes)
        return SearchResult(
            codes,
            values,
            pvs,
            finished,
            int(info[NODES]),
            time.perf_counter() - start,
            depths,
        )

    def _pvs(self, state: np.ndarray, codes: list[int]) -> list[list[int]]:
        """Each root action followed by the table's best line after it."""
        from shiftago.engine.kernel import apply_action

        tt_key, tt_data = self.tables[4], self.tables[5]
        out = np.empty(MAX_PLY, dtype=np.int64)
        pvs = []
        for code in codes:
            s = state.copy()
            apply_action(s, code)
            n = principal_variation(s, tt_key, tt_data, out)
            pvs.append([code, *(int(c) for c in out[:n])])
        return pvs


def _sorted(codes: list[int], values: list[int]) -> tuple[list[int], list[int]]:
    """Codes and values by value, best first; a stable sort (equal values keep order)."""
    ranks = sorted(range(len(codes)), key=lambda j: -values[j])
    return [codes[j] for j in ranks], [values[j] for j in ranks]

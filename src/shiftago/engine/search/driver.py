"""Iterative deepening and time management around :func:`.negamax.search_root`.

Numba code cannot read the clock cheaply, so the clock stays here: each depth is one
compiled call with a node limit, the smallest of what is left of the caller's node
limit and what the time left allows at the speed measured so far (a cautious guess
before the first measurement). When a depth is cut off the search keeps the result of
the last finished depth, improved by any action of the cut-off depth that was searched
to the end and beat it (the best so far). The answer therefore never waits for a depth
to finish: ``movetime`` is a hard limit, short of Python's own overhead, for which a
margin is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .endgame import plies_left
from .negamax import (
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    PROVEN,
    STOPPED,
    USE_TT,
    new_tables,
    principal_variation,
    search_root,
)

#: Transposition-table entries: ``2 ** TT_BITS`` (about 40 bytes each).
TT_BITS = 19
#: Nodes per second assumed before the first measurement (well below the real speed).
CAUTIOUS_SPEED = 200_000.0
#: Of ``movetime``, the share the search may use, and a fixed margin (ms) for the rest.
TIME_SHARE = 0.6
TIME_MARGIN_MS = 8.0


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
    transposition table off (for tests)."""

    def __init__(self, tt_bits: int = TT_BITS, use_tt: bool = True) -> None:
        self.tables = new_tables(tt_bits)
        self.tables[-1][USE_TT] = 1 if use_tt else 0

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
        deadline = None if movetime_ms is None else start + movetime_ms / 1000
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
        speed = CAUTIOUS_SPEED
        depths: list[tuple[int, int]] = []
        buffer = np.empty(len(codes), dtype=np.int64)
        for d in range(1, max_depth + 1):
            limit = 1 << 62  # depth 1 is always finished: a few dozen nodes
            if d > 1 and nodes is not None:
                limit = nodes
            if d > 1 and deadline is not None:
                left = (deadline - time.perf_counter()) * TIME_SHARE - TIME_MARGIN_MS / 1000
                limit = min(limit, int(info[NODES]) + int(max(left, 0.0) * speed))
            if int(info[NODES]) >= limit:
                break
            info[NODE_LIMIT] = limit
            before, t0 = int(info[NODES]), time.perf_counter()
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
            elapsed = time.perf_counter() - t0
            spent = int(info[NODES]) - before
            if spent > 5000 and elapsed > 0:
                speed = spent / elapsed
            if done == len(codes):
                codes, values = _sorted(codes, [int(v) for v in buffer])
                finished = d
                depths.append((d, int(info[NODES])))
                if stop_when_proven and abs(values[0]) >= PROVEN:
                    break
                continue
            # cut off: keep the last depth, unless an action of this one beat it
            partial = [int(v) for v in buffer[:done]]
            if done > 1:
                best = max(range(done), key=lambda j: (partial[j], -j))
                if partial[best] > partial[0]:
                    codes.insert(0, codes.pop(best))
                    values.pop(best)
                    values.insert(0, partial[best])
            break
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

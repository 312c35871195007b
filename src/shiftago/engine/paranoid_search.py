"""A paranoid alpha-beta search for 3-4 player Express, with the guard of the MCTS.

Paranoid search (Sturtevant and Korf) values a position for one seat, the root's, and
lets every other seat act to lower that value, as if they played together; the root
seat raises it. Two rules of the game's tactics come first at every node, as in the
guarded expansions of the MCTS (:func:`shiftago.engine.mcts.knowledge.guarded_children`):
a seat that can make its line does, and a seat that can stop the next seat's line at
once plays one of the insertions that stop it (every seat blocks the next one, the root
seat's opponents included: paranoid search alone would let one opponent leave another a
win, which no player of this game does). A leaf is valued by the fitted evaluation of
3-4 player games (:func:`shiftago.engine.mcts.seat_eval.fitted_shares`): the root seat's
expected share of the result. A finished game is worth 1 for a win of the root seat, a
shared result its share, 0 for a loss.

The search deepens one ply at a time, the root's actions in the order of the last
finished depth, the other nodes' taken by the 2-player search's move picker
(:mod:`shiftago.engine.search.movepick`) with a killer action per ply and a history
score per seat and action. It reads ``info[STOP]`` at every node, which an alarm thread
sets when time is up (:mod:`shiftago.engine.alarm`); a depth cut short is thrown away.
docs/strength.md, "A paranoid search for 3 and 4 players", measures it.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)
from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import MAX_ACTIONS, OVER, PHASE, STATE_SIZE, TURN, WINNERS
from shiftago.engine.mcts.knowledge import guarded_children
from shiftago.engine.mcts.seat_eval import fitted_shares
from shiftago.engine.mcts.tree import share
from shiftago.engine.search.movepick import order_actions, pick_next

#: ``info`` slots: the stop flag (set by the alarm), the node limit, nodes searched.
STOP: Final = 0
NODE_LIMIT: Final = 1
NODES: Final = 2
INFO_SIZE: Final = 3
#: The deepest search; a game of Express has at most 49 insertions.
MAX_PLY: Final = 64
#: Values: a root's win is worth 1, a loss 0; ``INF`` bounds every value.
INF: Final = 2.0


@njit(cache=True, nogil=True)
def leaf_value(s: np.ndarray, root: int, reward: np.ndarray) -> float:
    """The fitted evaluation's expected share of the root seat."""
    fitted_shares(s, reward)
    return float(reward[root])


@njit(cache=True, nogil=True)
def enter(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    ply: int,
    depth: int,
    root: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    reward: np.ndarray,
) -> float:
    """Open the node ``stack[ply]``: its value when it needs no search (over, a leaf,
    lost to the next seat at once), else ``NaN`` with its guarded actions in
    ``moves[ply]``, their move picker's keys in ``keys[ply]`` and their number in
    ``counts[ply]``."""
    s = stack[ply]
    info[NODES] += 1
    if info[NODE_LIMIT] > 0 and info[NODES] > info[NODE_LIMIT]:
        info[STOP] = 1
    if np.int64(s[PHASE]) == OVER:
        return share(int(np.int64(s[WINNERS])), root)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return leaf_value(s, root, reward)
    row = moves[ply]
    n = legal_actions(s, row)
    n, lost_to = guarded_children(s, row, n)
    if lost_to >= 0:
        return 1.0 if lost_to == root else 0.0
    order_actions(row, keys[ply], n, -1, killers[ply], history[np.int64(s[TURN])])
    counts[ply] = n
    return np.nan


@njit(cache=True, nogil=True)
def paranoid(
    stack: np.ndarray,
    base: int,
    depth: int,
    alpha: float,
    beta: float,
    root: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
) -> float:
    """The paranoid value for ``root`` of ``stack[base]`` searched ``depth`` plies,
    within the window (``alpha``, ``beta``); nonsense once ``info[STOP]`` is set.

    The recursion runs on explicit per-ply arrays (numba caches no recursive
    function safely): each ply keeps its window, best value, depth and next action."""
    moves = np.empty((MAX_PLY, MAX_ACTIONS), dtype=np.int64)
    keys = np.empty((MAX_PLY, MAX_ACTIONS), dtype=np.int64)
    counts = np.zeros(MAX_PLY, dtype=np.int64)
    next_index = np.zeros(MAX_PLY, dtype=np.int64)
    lows = np.empty(MAX_PLY, dtype=np.float64)
    highs = np.empty(MAX_PLY, dtype=np.float64)
    bests = np.empty(MAX_PLY, dtype=np.float64)
    depths = np.empty(MAX_PLY, dtype=np.int64)
    maximizing = np.zeros(MAX_PLY, dtype=np.bool_)
    reward = np.empty(4, dtype=np.float64)
    ply = base
    lows[ply] = alpha
    highs[ply] = beta
    depths[ply] = depth
    value = enter(stack, moves, keys, counts, ply, depth, root, info, killers, history, reward)
    if not np.isnan(value):
        return value
    maximizing[ply] = np.int64(stack[ply, TURN]) == root
    bests[ply] = -INF if maximizing[ply] else INF
    next_index[ply] = 0
    while True:
        if info[STOP] != 0:
            return 0.0
        j = next_index[ply]
        if j < counts[ply] and lows[ply] < highs[ply]:
            # descend into the next action of this ply
            next_index[ply] = j + 1
            child = ply + 1
            stack[child, :] = stack[ply]
            apply_action(stack[child], pick_next(moves[ply], keys[ply], j, counts[ply]))
            lows[child] = lows[ply]
            highs[child] = highs[ply]
            depths[child] = depths[ply] - 1
            value = enter(
                stack,
                moves,
                keys,
                counts,
                child,
                depths[child],
                root,
                info,
                killers,
                history,
                reward,
            )
            if np.isnan(value):
                ply = child
                maximizing[ply] = np.int64(stack[ply, TURN]) == root
                bests[ply] = -INF if maximizing[ply] else INF
                next_index[ply] = 0
                continue
        else:
            # this ply is done: its value goes to its parent
            value = float(bests[ply])
            if ply == base:
                return value
            ply -= 1
        # ``value`` is that of the child just searched, action moves[ply, next - 1]
        if maximizing[ply]:
            if value > bests[ply]:
                bests[ply] = value
            if value > lows[ply]:
                lows[ply] = value
        else:
            if value < bests[ply]:
                bests[ply] = value
            if value < highs[ply]:
                highs[ply] = value
        if lows[ply] >= highs[ply]:
            code = moves[ply, next_index[ply] - 1]
            killers[ply, 0] = code  # one killer a ply: the picker's second slot stays empty
            history[np.int64(stack[ply, TURN]), code] += depths[ply] * depths[ply]


@njit(cache=True, nogil=True)
def search_depth(
    s: np.ndarray,
    depth: int,
    root_moves: np.ndarray,
    n: int,
    values: np.ndarray,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
) -> bool:
    """Search every root action of ``root_moves[:n]`` to ``depth``, writing each one's
    value (exact for the best, an upper bound for the others) into ``values``; False
    when stopped first."""
    stack = np.empty((MAX_PLY, STATE_SIZE), dtype=np.uint64)
    root = int(np.int64(s[TURN]))
    alpha = -INF
    for j in range(n):
        stack[1, :] = s
        apply_action(stack[1], root_moves[j])
        value = paranoid(stack, 1, depth - 1, alpha, INF, root, info, killers, history)
        if info[STOP] != 0:
            return False
        values[j] = value
        if value > alpha:
            alpha = value
    return True


@njit(cache=True, nogil=True)
def root_actions(s: np.ndarray, out: np.ndarray) -> tuple[int, int]:
    """The root's legal actions, those the guard keeps first: how many in all, and how
    many kept (the others lose at once)."""
    n = legal_actions(s, out)
    kept_moves = out[:n].copy()
    kept, lost_to = guarded_children(s, kept_moves, n)
    if lost_to >= 0:
        return n, n
    rest = 0
    tail = np.empty(n, dtype=np.int64)
    for j in range(n):
        code = out[j]
        found = False
        for k in range(kept):
            if kept_moves[k] == code:
                found = True
                break
        if not found:
            tail[rest] = code
            rest += 1
    out[:kept] = kept_moves[:kept]
    out[kept : kept + rest] = tail[:rest]
    return n, kept


def new_tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    """Fresh killer and history tables for a search, in the move picker's shapes."""
    return np.full((MAX_PLY, 2), -1, dtype=np.int64), np.zeros((players, MAX_ACTIONS), np.int64)


__all__ = [
    "INFO_SIZE",
    "NODES",
    "NODE_LIMIT",
    "STOP",
    "new_tables",
    "root_actions",
    "search_depth",
]

"""Playouts of the MCTS: random games to the end, played by the kernel.

Two policies, both uniformly random apart from one rule:

* plain: every action uniformly at random (the 2-player Express fast path of
  :mod:`shiftago.engine.kernel.playout` where it applies, else the general loop);
* win-first (``win_first``): before each random choice, if the seat to act can win at
  once, the playout ends as its win. "At once" is a winning line made by an insertion
  (Express), or a line whose scoring reaches the winning points, made now or pending
  (Expert, Extreme), exactly as the rules play it (a win by the last action the limit
  allows stands, and a pending scoring is still made).

The win test looks at the mover's own board only, and first asks the cheap necessary
condition :func:`near_run` (some window of the line length holds all but one of its
cells), since one insertion changes at most one cell of any window.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import (
    U0,
    U1,
    apply_action,
    has_run,
    legal_actions,
    occupied,
    push_run,
    shifted,
)
from shiftago.engine.kernel.playout import (
    express2_fast,
    has_five,
    pick,
    playout_express2,
    xorshift,
)
from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    DIRS,
    ENTRY_BIT,
    EXPRESS,
    FULL,
    INSERT,
    LANE_MASK,
    LIMIT,
    MIN_LINE,
    OVER,
    PHASE,
    PLAYERS,
    POINTS,
    SCORE,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
    WINNERS,
)

_OVER = np.uint64(OVER)


@njit(cache=True, nogil=True)
def near_run(b: np.uint64, length: int) -> bool:
    """Whether some straight window of ``length`` cells holds at least ``length - 1``
    marbles of ``b`` (a necessary condition for one insertion to make a run of
    ``length``; windows across the guard bits only make it looser)."""
    for k in range(4):
        d = DIRS[k]
        full = ~U0  # windows (by their first cell) with no cell missing so far
        near = ~U0  # ... with at most one missing
        for j in range(length):
            here = b >> (np.uint64(j) * d)
            near = (near & here) | full
            full &= here
        if near:
            return True
    return False


@njit(cache=True, nogil=True)
def after_insertion(me: np.uint64, occ: np.uint64, i: int) -> np.uint64:
    """The mover's board ``me`` after insertion ``i`` (its lane has an empty cell)."""
    moved = me & push_run(i, occ)
    return (me ^ moved) | shifted(moved, i) | ENTRY_BIT[i]


@njit(cache=True, nogil=True)
def best_points(b: np.uint64, variant: int, many: int) -> int:
    """The points of the longest line of ``b``, or -1 without a scoring line."""
    for length in range(7, 2, -1):
        if POINTS[variant, many, length] < 0:
            break
        if has_run(b, length):
            return POINTS[variant, many, length]
    return -1


@njit(cache=True, nogil=True)
def can_win(s: np.ndarray, moves: np.ndarray, n: int) -> bool:
    """Whether the seat to act in ``s`` (not over) wins at once with one of its legal
    actions ``moves[:n]`` (or, in Expert and Extreme, with the scoring that follows)."""
    mover = np.int64(s[TURN])
    me = s[BOARD + mover]
    variant = np.int64(s[VARIANT])
    many = 1 if np.int64(s[PLAYERS]) > 2 else 0
    if variant == EXPRESS:
        length = MIN_LINE[variant, many]
    else:
        need = WIN_POINTS - np.int64(s[SCORE + mover])
        if np.int64(s[PHASE]) != INSERT:
            return best_points(me, variant, many) >= need
        length = 7
        while length > 3 and POINTS[variant, many, length - 1] >= need:
            length -= 1
    if not near_run(me, length):
        return False
    occ = occupied(s)
    for j in range(n):  # noqa: SIM110 (numba has no any() of a generator)
        if has_run(after_insertion(me, occ, moves[j]), length):
            return True
    return False


@njit(cache=True, nogil=True)
def express2_win_first(s: np.ndarray, x: np.uint64, moves: np.ndarray) -> tuple[int, np.uint64]:
    """A win-first 2-player Express game from ``s`` (where :func:`express2_fast` holds),
    on two local bitboards: the winners mask and the generator."""
    turn = np.int64(s[TURN])
    me = s[BOARD + turn]
    opp = s[BOARD + 1 - turn]
    my_supply = s[SUPPLY + turn]
    opp_supply = s[SUPPLY + 1 - turn]
    count = s[COUNT]
    limit = s[LIMIT]
    played = 0
    while True:
        occ = me | opp
        if occ == FULL or my_supply == U0 or (limit != U0 and count >= limit and played > 0):
            return 3, x
        n = 0
        for i in range(28):
            if LANE_MASK[i] & ~occ:
                moves[n] = i
                n += 1
        if near_run(me, 5):
            for j in range(n):
                if has_five(after_insertion(me, occ, moves[j])):
                    return 1 << turn, x
        x = xorshift(x)
        i = moves[pick(x, n)]
        run = push_run(i, occ)
        moved_me = me & run
        moved_opp = opp & run
        me = (me ^ moved_me) | shifted(moved_me, i) | ENTRY_BIT[i]
        opp = (opp ^ moved_opp) | shifted(moved_opp, i)
        my_supply -= U1
        count += U1
        played += 1
        if has_five(me):
            return 1 << turn, x
        me, opp = opp, me
        my_supply, opp_supply = opp_supply, my_supply
        turn = 1 - turn


@njit(cache=True, nogil=True)
def playout(
    s: np.ndarray, x: np.uint64, moves: np.ndarray, win_first: bool
) -> tuple[int, np.uint64]:
    """Play ``s`` (changed in place) to the end at random: the winners mask and the
    generator. ``win_first`` ends the game as soon as the seat to act can win at once."""
    if s[PHASE] == _OVER:
        return np.int64(s[WINNERS]), x
    if express2_fast(s):
        if win_first:
            return express2_win_first(s, x, moves)
        winners, x, _ = playout_express2(s, x, moves)
        return winners, x
    while s[PHASE] != _OVER:
        n = legal_actions(s, moves)
        if win_first and can_win(s, moves, n):
            return 1 << np.int64(s[TURN]), x
        x = xorshift(x)
        apply_action(s, moves[pick(x, n)])
    return np.int64(s[WINNERS]), x

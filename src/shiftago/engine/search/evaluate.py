"""The static evaluation of 2-player positions, and the immediate-win test.

Values are from the point of view of the seat to act, in centi-units of a heuristic
scale that stays within ``±MAX_HEURISTIC`` (999): proven results lie outside it (see
:mod:`.negamax`). The terms:

* open windows: every straight window of five cells that holds none of the opponent's
  marbles counts for the marbles it holds (1: 1, 2: 4, 3: 14, 4: 45, see
  :data:`WINDOW_WEIGHT`), the seat to act's windows of four a little more (it can push
  first), lines and their open room measured together;
* Expert and Extreme: the points (``POINT_WEIGHT`` each, and a pending scoring counted
  as made) and the marbles in supply (a seat that runs out ends the game);
* a small bonus for the seat to act (the tempo).

:func:`immediate_win` says whether the seat to act wins with its next action (an
insertion that makes a winning line in Express, or a line whose points reach 10 in
Expert and Extreme, scored at once), looking only at the mover's own board after each
insertion.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import (
    after_insertion,
    has_run,
    occupied,
    popcount,
    push_run,
)
from shiftago.engine.kernel.tables import (
    BOARD,
    DIRS,
    EXPRESS,
    INSERTIONS,
    LANE_MASK,
    PHASE,
    POINTS,
    SCORE,
    SCORE_PHASE,
    SEG_ID,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
)

MAX_HEURISTIC: Final = 999
POINT_WEIGHT: Final = 60
SUPPLY_WEIGHT: Final = 4
TEMPO: Final = 8
#: The value of an open window by the number of own marbles in it (0-4).
WINDOW_WEIGHT: Final = np.array([0, 1, 4, 14, 45], dtype=np.int64)
#: Extra for a window of four of the seat to act.
THREAT_TO_MOVE: Final = 25


def _window_starts() -> np.ndarray:
    starts = np.zeros(4, dtype=np.uint64)
    for k in range(4):
        for cell in range(64):
            if SEG_ID[k, cell, 5] >= 0:
                starts[k] |= np.uint64(1 << cell)
    return starts


#: ``W5[k]``: the cells where a window of five begins in direction ``DIRS[k]``.
W5: Final = _window_starts()
U0 = np.uint64(0)


@njit(cache=True, nogil=True)
def windows(me: np.uint64, op: np.uint64, to_move: bool) -> int:
    """The open-window value of ``me`` against ``op``."""
    total = 0
    for k in range(4):
        d = DIRS[k]
        starts = W5[k]
        ones = me & starts
        twos = U0
        fours = U0
        blocked = op
        for j in range(1, 5):
            shift = np.uint64(j) * d
            x = (me >> shift) & starts
            carry = ones & x
            ones ^= x
            carry2 = twos & carry
            twos ^= carry
            fours |= carry2
            blocked |= op >> shift
        open_ = starts & ~blocked
        c1 = open_ & ones & ~twos & ~fours
        c2 = open_ & ~ones & twos & ~fours
        c3 = open_ & ones & twos & ~fours
        c4 = open_ & ~ones & ~twos & fours
        total += WINDOW_WEIGHT[1] * popcount(c1) + WINDOW_WEIGHT[2] * popcount(c2)
        total += WINDOW_WEIGHT[3] * popcount(c3)
        n4 = popcount(c4)
        total += WINDOW_WEIGHT[4] * n4
        if to_move:
            total += THREAT_TO_MOVE * n4
    return total


@njit(cache=True, nogil=True)
def best_points(b: np.uint64, variant: int) -> int:
    """The points of the longest line of ``b`` (2 players), or -1 without a scoring line."""
    for length in range(7, 3, -1):
        if POINTS[variant, 0, length] < 0:
            break
        if has_run(b, length):
            return POINTS[variant, 0, length]
    return -1


@njit(cache=True, nogil=True)
def evaluate(s: np.ndarray) -> int:
    """The heuristic value of a 2-player state (not over) for the seat to act."""
    mover = np.int64(s[TURN])
    me = s[BOARD + mover]
    op = s[BOARD + 1 - mover]
    value = windows(me, op, True) - windows(op, me, False) + TEMPO
    variant = np.int64(s[VARIANT])
    if variant != EXPRESS:
        mine = np.int64(s[SCORE + mover])
        if np.int64(s[PHASE]) == SCORE_PHASE:
            mine += max(best_points(me, variant), 0)
        value += POINT_WEIGHT * (mine - np.int64(s[SCORE + 1 - mover]))
        value += SUPPLY_WEIGHT * (np.int64(s[SUPPLY + mover]) - np.int64(s[SUPPLY + 1 - mover]))
    return max(-MAX_HEURISTIC, min(MAX_HEURISTIC, value))


@njit(cache=True, nogil=True)
def immediate_win(s: np.ndarray) -> int:
    """How many actions the seat to act needs to win at once (2 players): 1 (a winning
    insertion in Express, or a scoring that reaches the winning points), 2 (an
    insertion whose line is then scored to the winning points), or 0 for no such win."""
    mover = np.int64(s[TURN])
    me = s[BOARD + mover]
    variant = np.int64(s[VARIANT])
    need = WIN_POINTS - np.int64(s[SCORE + mover])
    if np.int64(s[PHASE]) == SCORE_PHASE:
        return 1 if best_points(me, variant) >= need else 0
    occ = occupied(s)
    if occ == me:
        return 0  # the special case restricts the insertions: leave it to the search
    express = variant == EXPRESS
    for i in range(INSERTIONS):
        if LANE_MASK[i] & ~occ:
            b = after_insertion(me, push_run(i, occ), i)
            if express:
                if has_run(b, 5):
                    return 1
            elif best_points(b, variant) >= need:
                return 2
    return 0

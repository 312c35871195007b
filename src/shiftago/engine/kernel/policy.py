"""Playout policies: how a playout picks each action, and the tests the greedy one asks.

:func:`.playout.play_out` applies them, in one loop for both.

* :data:`RANDOM`: every action uniformly at random.
* :data:`GREEDY`: uniformly random apart from one rule per kind of game.

  - Express: before each random choice, if the seat to act can win at once (an
    insertion that makes a winning line), the playout ends as its win.
  - Expert and Extreme: if the seat to act has an insertion that makes a line worth
    points, it plays the one making the longest such line, and of its scoring choices
    it scores a longest line. A win is one of these (its line reaches the winning
    points), played as the rules play it. With 3-4 players the rule applies three
    times in four (:data:`GREEDY_MASK`) and the mover plays at random the fourth time;
    with 2 players it always applies (``docs/strength.md``, "Greedy playouts in Expert
    and Extreme").

  Random players seldom make a line worth points, so random games of Expert and Extreme
  mostly end on a full board or an empty supply; greedy ones play the variants' real
  contest (make lines, score them).

The greedy tests look at the mover's own board only, and first ask the cheap necessary
condition :func:`near_run` (some window of the line length holds all but one of its
cells), since one insertion changes at most one cell of any window.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.core.geometry import SIZE

from .moves import U0, after_insertion, has_run, occupied, push_run
from .tables import (
    BOARD,
    DIRS,
    EXPRESS,
    INSERT,
    INSERTIONS,
    MIN_LINE,
    PHASE,
    PLAYERS,
    POINTS,
    SEG_LEN,
    TURN,
    VARIANT,
)

#: The policies, as :func:`.playout.play_out` takes them (see the module doc).
RANDOM: Final = 0
GREEDY: Final = 1
#: In Expert and Extreme with 3-4 players the greedy rule applies when the low two bits
#: of a fresh random number are not both 0: three times in four.
GREEDY_MASK: Final = np.uint64(3)
#: The longest line there is: a whole side of the board.
LONGEST: Final = SIZE


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
def can_win(s: np.ndarray, moves: np.ndarray, n: int) -> bool:
    """Whether the seat to act in ``s`` (Express, not over) wins at once with one of its
    legal insertions ``moves[:n]``."""
    me = s[BOARD + np.int64(s[TURN])]
    length = MIN_LINE[EXPRESS, 1 if np.int64(s[PLAYERS]) > 2 else 0]
    if not near_run(me, length):
        return False
    occ = occupied(s)
    for j in range(n):
        i = moves[j]
        if has_run(after_insertion(me, push_run(i, occ), i), length):
            return True
    return False


@njit(cache=True, nogil=True)
def longest_scoring(s: np.ndarray, moves: np.ndarray, n: int) -> int:
    """Expert and Extreme: the index in ``moves[:n]`` (the legal actions of ``s``) of the
    first action that makes (an insertion) or scores (a scoring choice) a longest line
    worth points, or -1 when no action does."""
    variant = np.int64(s[VARIANT])
    many = 1 if np.int64(s[PLAYERS]) > 2 else 0
    best = -1
    if np.int64(s[PHASE]) != INSERT:
        longest = 0
        for j in range(n):
            length = SEG_LEN[(moves[j] - INSERTIONS) >> 1]
            if length > longest and POINTS[variant, many, length] > 0:
                best, longest = j, length
        return best
    shortest = MIN_LINE[variant, many]
    while POINTS[variant, many, shortest] <= 0:
        shortest += 1
    me = s[BOARD + np.int64(s[TURN])]
    if not near_run(me, shortest):
        return -1
    occ = occupied(s)
    longest = shortest - 1
    for j in range(n):
        i = moves[j]
        b = after_insertion(me, push_run(i, occ), i)
        while longest < LONGEST and has_run(b, longest + 1):
            best = j
            longest += 1
    return best

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

* :data:`BLOCKING`: :data:`GREEDY`, and in Express with 3-4 players the mover also
  blocks: when the next seat could win at once, the mover plays an action after which
  it cannot (:func:`blocking_choice`), if it has one ("anti-decisive" moves,
  Teytaud and Teytaud 2010). It costs about three greedy playouts; with the guarded
  expansions the top level plays it (``docs/strength.md``, "Blocking playouts").

  Random players seldom make a line worth points, so random games of Expert and Extreme
  mostly end on a full board or an empty supply; greedy ones play the variants' real
  contest (make lines, score them).

The greedy tests look at the mover's own board only, and first ask the cheap necessary
condition :func:`near_run` (some window of the line length holds all but one of its
cells), since one insertion changes at most one cell of any window; where it holds,
they try only the insertions in the lanes of the cells such windows miss
(:func:`completing_cells`, which asks it).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.core.geometry import SIZE

from .moves import U0, after_insertion, after_push, has_run, lowest_index, occupied, push_run
from .rng import pick, xorshift
from .tables import (
    BOARD,
    DIRS,
    EXPRESS,
    INSERT,
    INSERTIONS,
    LANE_MASK,
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
BLOCKING: Final = 2
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
def completing_cells(b: np.uint64, length: int) -> np.uint64:
    """The cells whose lanes hold every insertion that could give ``b`` a run of
    ``length``: the cell that each window of ``length`` holding all but one of ``b``'s
    marbles misses (a run made by one insertion crosses the insertion's lane in the cell
    its window missed, or lies in the lane and covers such a window's missing cell), or
    every cell when ``b`` has such a run already (an insertion anywhere else keeps it);
    no cell when no insertion can (first asked of :func:`near_run`, the cheap test)."""
    if not near_run(b, length):
        return U0
    if has_run(b, length):
        return ~U0
    cells = U0
    for k in range(4):
        d = DIRS[k]
        full = ~U0
        near = ~U0
        for j in range(length):
            here = b >> (np.uint64(j) * d)
            near = (near & here) | full
            full &= here
        window = near  # the first cells of the windows that miss one cell (none is full)
        for _ in range(length):
            cells |= window & ~b
            window <<= d
    return cells


@njit(cache=True, nogil=True)
def can_win(s: np.ndarray, moves: np.ndarray, n: int) -> bool:
    """Whether the seat to act in ``s`` (Express, not over) wins at once with one of its
    legal insertions ``moves[:n]``."""
    me = s[BOARD + np.int64(s[TURN])]
    length = MIN_LINE[EXPRESS, 1 if np.int64(s[PLAYERS]) > 2 else 0]
    cells = completing_cells(me, length)
    if not cells:
        return False
    occ = occupied(s)
    for j in range(n):
        i = moves[j]
        if LANE_MASK[i] & cells and has_run(after_insertion(me, push_run(i, occ), i), length):
            return True
    return False


@njit(cache=True, nogil=True)
def shortest_worth(variant: int, many: int, points: int) -> int:
    """The shortest scoring line worth at least ``points`` in ``variant`` (``many``: 1
    with 3-4 players, 0 with 2), :data:`LONGEST` + 1 when no line is."""
    for length in range(MIN_LINE[variant, many], LONGEST + 1):
        if POINTS[variant, many, length] >= points:
            return length
    return LONGEST + 1


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
    shortest = shortest_worth(int(variant), many, 1)
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


@njit(cache=True, nogil=True)
def still_wins(b: np.uint64, occ: np.uint64, length: int, insertions: int) -> bool:
    """Whether one of ``insertions`` (a mask, bit ``i`` for insertion ``i``) would still
    make a run of ``length`` for the seat with the board ``b`` (all marbles ``occ``)."""
    while insertions:
        i = lowest_index(np.uint64(insertions))
        insertions &= insertions - 1
        if LANE_MASK[i] & ~occ and has_run(after_insertion(b, push_run(i, occ), i), length):
            return True
    return False


@njit(cache=True, nogil=True)
def winning_insertions(b: np.uint64, occ: np.uint64, length: int) -> int:
    """The insertions (a mask, bit ``i`` for insertion ``i``) with which the seat with
    the board ``b`` (all marbles ``occ``) would make a run of ``length`` if it had the
    turn (Express: a win at once)."""
    found = 0
    cells = completing_cells(b, length)
    for i in range(INSERTIONS):
        lane = LANE_MASK[i]
        if not (lane & cells and lane & ~occ):
            continue
        if has_run(after_insertion(b, push_run(i, occ), i), length):
            found |= 1 << i
    return found


@njit(cache=True, nogil=True)
def wins_at_once(b: np.uint64, occ: np.uint64, length: int) -> bool:
    """Whether the seat with the board ``b`` (all marbles ``occ``) would make a run of
    ``length`` with one insertion if it had the turn (Express: a win at once)."""
    cells = completing_cells(b, length)
    for i in range(INSERTIONS):
        lane = LANE_MASK[i]
        if not (lane & cells and lane & ~occ):
            continue
        if has_run(after_insertion(b, push_run(i, occ), i), length):
            return True
    return False


@njit(cache=True, nogil=True)
def longest_reach(b: np.uint64, occ: np.uint64, shortest: int) -> int:
    """The length of the longest run, of at least ``shortest`` marbles, that one
    insertion would give the seat with the board ``b`` (all marbles ``occ``) if it had
    the turn; 0 when none would."""
    if not near_run(b, shortest):
        return 0
    longest = shortest - 1
    for i in range(INSERTIONS):
        if LANE_MASK[i] & ~occ:
            after = after_insertion(b, push_run(i, occ), i)
            while longest < LONGEST and has_run(after, longest + 1):
                longest += 1
            if longest == LONGEST:
                break
    return 0 if longest < shortest else longest


@njit(cache=True, nogil=True)
def blocking_choice(
    s: np.ndarray, moves: np.ndarray, n: int, x: np.uint64
) -> tuple[int, np.uint64]:
    """Express with 3-4 players: when the next seat could win at once in ``s``, the
    index in ``moves[:n]`` of an insertion after which it could not (the search starts at
    a random one); -1 when the next seat has no such win or no insertion stops it.
    Handicap skips are not looked at: the next seat is the one after the mover.

    A candidate is first asked whether one of the next seat's present wins still wins
    (cheap: most candidates fail there); only one that passes is checked against every
    insertion, for a win its own push may have made."""
    players = np.int64(s[PLAYERS])
    turn = np.int64(s[TURN])
    nxt = (turn + 1) % players
    length = MIN_LINE[EXPRESS, 1]
    occ = occupied(s)
    theirs = s[BOARD + nxt]
    wins = winning_insertions(theirs, occ, length)
    if wins == 0:
        return -1, x
    x = xorshift(x)
    start = pick(x, n)
    for k in range(n):
        j = int((start + k) % n)
        i = moves[j]
        run = push_run(i, occ)
        after = after_push(theirs, run, i)
        occ_after = after_insertion(occ, run, i)
        if still_wins(after, occ_after, length, wins):
            continue
        if not wins_at_once(after, occ_after, length):
            return j, x
    return -1, x

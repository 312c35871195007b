"""Playouts of the MCTS: games to the end, played by the kernel.

Two policies:

* plain: every action uniformly at random (the 2-player Express fast path of
  :mod:`shiftago.engine.kernel.playout` where it applies, else the general loop);
* greedy (``greedy``): uniformly random apart from one rule per kind of game.

  - Express: before each random choice, if the seat to act can win at once (an
    insertion that makes a winning line), the playout ends as its win.
  - Expert and Extreme: if the seat to act has an insertion that makes a line worth
    points, it plays the one making the longest such line, and of its scoring choices
    it scores a longest line. A win is one of these (its line reaches the winning
    points), played as the rules play it. With 3-4 players the rule applies three
    times in four (:data:`GREEDY_MASK`) and the mover plays at random the fourth time;
    with 2 players it always applies. Measured at the top level's budget
    (``docs/strength.md``): with 3 players the three-in-four rule beat the rule applied
    every time 48.3% to 26.7% over 60 Extreme games (more iterations had stopped
    helping), but with 2 players in Extreme it lost, 21 to 35 over 56 games.

  Random players seldom make a line worth points: most random Expert games end on a
  full board or an empty supply before anyone has 10 points, and a random 3-player
  Extreme game lasts about 260 actions. Greedy playouts play the variants' real
  contest (make lines, score them): about half (4-player Expert) to all of them end
  with a seat at 10 points.

The tests look at the mover's own board only, and first ask the cheap necessary
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
    SEG_LEN,
    SUPPLY,
    TURN,
    VARIANT,
    WINNERS,
)

_OVER = np.uint64(OVER)
#: In Expert and Extreme with 3-4 players a greedy playout applies its rule when the low
#: two bits of a fresh random number are not both 0: three times in four.
GREEDY_MASK = np.uint64(3)


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
def can_win(s: np.ndarray, moves: np.ndarray, n: int) -> bool:
    """Whether the seat to act in ``s`` (Express, not over) wins at once with one of its
    legal insertions ``moves[:n]``."""
    me = s[BOARD + np.int64(s[TURN])]
    length = MIN_LINE[EXPRESS, 1 if np.int64(s[PLAYERS]) > 2 else 0]
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
def playout(s: np.ndarray, x: np.uint64, moves: np.ndarray, greedy: bool) -> tuple[int, np.uint64]:
    """Play ``s`` (changed in place) to the end, plain or ``greedy`` (see the module
    doc): the winners mask and the generator."""
    if s[PHASE] == _OVER:
        return np.int64(s[WINNERS]), x
    if express2_fast(s):
        if greedy:
            return express2_win_first(s, x, moves)
        winners, x, _ = playout_express2(s, x, moves)
        return winners, x
    express = np.int64(s[VARIANT]) == EXPRESS
    always = np.int64(s[PLAYERS]) == 2
    while s[PHASE] != _OVER:
        n = legal_actions(s, moves)
        if greedy:
            if express:
                if can_win(s, moves, n):
                    return 1 << np.int64(s[TURN]), x
            else:
                if not always:
                    x = xorshift(x)
                if always or x & GREEDY_MASK:
                    j = longest_scoring(s, moves, n)
                    if j >= 0:
                        apply_action(s, moves[j])
                        continue
        x = xorshift(x)
        apply_action(s, moves[pick(x, n)])
    return np.int64(s[WINNERS]), x


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
            length = SEG_LEN[(moves[j] - 28) >> 1]
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
        b = after_insertion(me, occ, moves[j])
        while longest < 7 and has_run(b, longest + 1):
            best = j
            longest += 1
    return best

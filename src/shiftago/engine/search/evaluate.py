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

The top level plays 2-player Express with the *tuned* evaluation (``tuned=True``): the
same open windows counted by the number of marbles in them, each count for each side
with its own weight, marbles by the cell they stand on (ten classes of cells alike
under the board's symmetries, :data:`CELL_CLASSES`), and a penalty when the opponent
could win at once if it were its turn, a larger one when it could by two different
insertions. Its weights
are fitted to the results of self-play games (logistic "Texel" tuning,
``scripts/tune_eval.py``; docs/strength.md, "The tuned evaluation"), and a small
network over the cells (:mod:`.network`) adds what a deeper search finds that they
miss (docs/strength.md, "A network in the evaluation"). The levels below keep the
classic one, so that their figures stay true.

In Expert and Extreme the tuned evaluation (:func:`tuned_points`) is a weighted sum of
:func:`points_features`, with weights of their own for each variant
(:data:`TUNED_POINTS`): the windows and cell classes of Express, each side's points
(their difference, and one weight for each score from 1 to 9: the distance to 10
is not linear), a pending
scoring (the mover scores and moves again), the longest scoring line one insertion
of each side can make (Extreme's 0-point line of four among them: it clears marbles
and gives another turn), whether that line wins the opponent the game, and the
marbles in supply (docs/strength.md, "The tuned evaluations of Expert and Extreme").

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
from shiftago.engine.kernel.policy import (
    LONGEST,
    completing_cells,
    longest_reach,
    near_run,
    shortest_worth,
)
from shiftago.engine.kernel.tables import (
    BOARD,
    DIRS,
    EXPRESS,
    INSERTIONS,
    LANE_MASK,
    MIN_LINE,
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

from .network import network_value

MAX_HEURISTIC: Final = 999
POINT_WEIGHT: Final = 60
SUPPLY_WEIGHT: Final = 4
TEMPO: Final = 8
#: The value of an open window by the number of own marbles in it (0-4).
WINDOW_WEIGHT: Final = np.array([0, 1, 4, 14, 45], dtype=np.int64)
#: Extra for a window of four of the seat to act.
THREAT_TO_MOVE: Final = 25


def window_starts(length: int) -> np.ndarray:
    """``starts[k]``: the cells where a window of ``length`` cells begins in direction
    ``DIRS[k]`` (the masks :func:`window_bits` takes)."""
    starts = np.zeros(4, dtype=np.uint64)
    for k in range(4):
        for cell in range(64):
            if SEG_ID[k, cell, length] >= 0:
                starts[k] |= np.uint64(1 << cell)
    return starts


#: ``W5[k]``: the cells where a window of five begins in direction ``DIRS[k]``.
W5: Final = window_starts(5)
U0 = np.uint64(0)


def _cell_classes() -> np.ndarray:
    """Cells alike under the symmetries of the board, by their distances from the
    centre file and rank (the smaller first): (0,0) the centre, (0,1), (0,2), (0,3)
    the middle of an edge, (1,1), (1,2), (1,3), (2,2), (2,3), (3,3) a corner."""
    pairs = [(i, j) for i in range(4) for j in range(i, 4)]
    masks = np.zeros(len(pairs), dtype=np.uint64)
    for rank in range(7):
        for file in range(7):
            near, far = sorted((abs(rank - 3), abs(file - 3)))
            masks[pairs.index((near, far))] |= np.uint64(1 << (8 * rank + file))
    return masks


#: ``CELL_CLASSES[c]``: the cells of class ``c`` (see :func:`_cell_classes`).
CELL_CLASSES: Final = _cell_classes()

# The tuned evaluation's weights (centi-units), fitted by scripts/tune_eval.py
# (docs/strength.md, "The tuned evaluation"; the double threat: "A second round in
# Express").
#: Open windows of the seat to act by the marbles in them (index 1-4; 0 unused).
TUNED_MINE: Final = np.array([0, -17, -20, -11, 5], dtype=np.int64)
#: Open windows of the opponent by the marbles in them.
TUNED_THEIRS: Final = np.array([0, 17, 23, 19, -23], dtype=np.int64)
#: A marble on a cell of each class (the seat to act's counts, the opponent's against).
TUNED_CELL: Final = np.array([28, 27, 13, -11, 38, 12, -9, 3, -25, -48], dtype=np.int64)
#: The opponent could win at once if it were its turn.
TUNED_THREAT: Final = -96
#: More: it could win by two or more different insertions (docs/strength.md).
TUNED_DOUBLE: Final = -40
TUNED_TEMPO: Final = 3


@njit(cache=True, nogil=True, inline="always")
def window_bits(
    me: np.uint64, op: np.uint64, starts: np.uint64, d: np.uint64, length: int
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The windows of ``length`` cells going ``d`` bits per step, by their first cell
    (one of ``starts``): those holding none of ``op``'s marbles, and the three bits of
    the count of ``me``'s marbles in each (ones, twos, fours)."""
    ones = me & starts
    twos = U0
    fours = U0
    blocked = op
    for j in range(1, length):
        shift = np.uint64(j) * d
        x = (me >> shift) & starts
        carry = ones & x
        ones ^= x
        carry2 = twos & carry
        twos ^= carry
        fours |= carry2
        blocked |= op >> shift
    return starts & ~blocked, ones, twos, fours


@njit(cache=True, nogil=True)
def window_counts(me: np.uint64, op: np.uint64) -> tuple[int, int, int, int]:
    """How many open windows of ``me`` against ``op`` hold 1, 2, 3 and 4 of its marbles
    (a window of five cells is open when it holds none of ``op``'s)."""
    c1 = c2 = c3 = c4 = 0
    for k in range(4):
        open_, ones, twos, fours = window_bits(me, op, W5[k], DIRS[k], 5)
        c1 += popcount(open_ & ones & ~twos & ~fours)
        c2 += popcount(open_ & ~ones & twos & ~fours)
        c3 += popcount(open_ & ones & twos & ~fours)
        c4 += popcount(open_ & ~ones & ~twos & fours)
    return c1, c2, c3, c4


@njit(cache=True, nogil=True)
def windows(me: np.uint64, op: np.uint64, to_move: bool) -> int:
    """The classic open-window value of ``me`` against ``op``."""
    c1, c2, c3, c4 = window_counts(me, op)
    total = WINDOW_WEIGHT[1] * c1 + WINDOW_WEIGHT[2] * c2 + WINDOW_WEIGHT[3] * c3
    total += WINDOW_WEIGHT[4] * c4
    if to_move:
        total += THREAT_TO_MOVE * c4
    return total


@njit(cache=True, nogil=True)
def winning_insertions(b: np.uint64, occ: np.uint64, most: int) -> int:
    """How many insertions (up to ``most``) would give ``b`` a line of five, on a board
    whose occupied cells are ``occ`` (2-player Express)."""
    found = 0
    cells = completing_cells(b, 5)
    for i in range(INSERTIONS):
        lane = LANE_MASK[i]
        if lane & cells and lane & ~occ and has_run(after_insertion(b, push_run(i, occ), i), 5):
            found += 1
            if found >= most:
                break
    return found


# The tuned Express weights as one array (:data:`TUNED_EXPRESS`), in this layout: the
# search reads them from its ``info`` slots (:mod:`.layout`), so that a tuning run can
# play other weights (``scripts/tune_play.py spsa``).
XW_MINE: Final = 0  # 4: the seat to act's open windows holding 1-4 marbles
XW_THEIRS: Final = 4  # 4: the opponent's
XW_CELL: Final = 8  # 10: a marble on a cell of each class (the seat to act's less the opponent's)
XW_THREAT: Final = 18  # the opponent could win at once
XW_DOUBLE: Final = 19  # ... by two or more different insertions
XW_TEMPO: Final = 20
EXPRESS_WEIGHTS: Final = 21
#: The names of the slots of that layout (the tuning scripts print them).
EXPRESS_WEIGHT_NAMES: Final = (
    [f"mine{k}" for k in range(1, 5)]
    + [f"theirs{k}" for k in range(1, 5)]
    + [f"cell{c}" for c in range(len(CELL_CLASSES))]
    + ["threat", "double", "tempo"]
)
#: The weights above in that layout.
TUNED_EXPRESS: Final = np.array(
    [*TUNED_MINE[1:], *TUNED_THEIRS[1:], *TUNED_CELL, TUNED_THREAT, TUNED_DOUBLE, TUNED_TEMPO],
    dtype=np.int64,
)


@njit(cache=True, nogil=True)
def tuned_express(me: np.uint64, op: np.uint64, occ: np.uint64, weights: np.ndarray) -> int:
    """The tuned value of a 2-player Express position for the seat to act (``me``),
    who has no win at once, by ``weights`` (the layout of :data:`TUNED_EXPRESS`)."""
    m1, m2, m3, m4 = window_counts(me, op)
    t1, t2, t3, t4 = window_counts(op, me)
    value = weights[XW_MINE] * m1 + weights[XW_MINE + 1] * m2
    value += weights[XW_MINE + 2] * m3 + weights[XW_MINE + 3] * m4
    value += weights[XW_THEIRS] * t1 + weights[XW_THEIRS + 1] * t2
    value += weights[XW_THEIRS + 2] * t3 + weights[XW_THEIRS + 3] * t4
    for c in range(CELL_CLASSES.shape[0]):
        count = popcount(me & CELL_CLASSES[c]) - popcount(op & CELL_CLASSES[c])
        value += weights[XW_CELL + c] * count
    threats = winning_insertions(op, occ, 2)
    if threats:
        value += weights[XW_THREAT]
        if threats >= 2:
            value += weights[XW_DOUBLE]
    return value + weights[XW_TEMPO]


# The features of the tuned evaluation of Expert and Extreme (see points_features):
# their columns, from the seat to act's point of view.
PF_MINE: Final = 0  # 4: the seat to act's open windows holding 1-4 marbles
PF_THEIRS: Final = 4  # 4: the opponent's
PF_CELL: Final = 8  # 10: marbles by cell class, the seat to act's less the opponent's
PF_MY_POINTS: Final = 18  # 9: the seat to act has 1..9 points (a pending scoring counted)
PF_THEIR_POINTS: Final = 27  # 9: the opponent has 1..9 points
PF_PENDING: Final = 36  # the seat to act scores now, and then moves again
PF_MY_REACH: Final = 37  # 4: its longest scoring line after one insertion is 4..7 long
PF_THEIR_REACH: Final = 41  # 4: the opponent's, had it the turn
PF_THEIR_WIN: Final = 45  # that line of the opponent's would win it the game
PF_SUPPLY: Final = 46  # marbles in supply, the seat to act's less the opponent's
PF_LEAD: Final = 47  # points, the seat to act's (a pending scoring counted) less the opponent's
PF_TEMPO: Final = 48  # the constant
PF_SEAT: Final = 49  # +1 first player to act, -1 second (fitted, then left out)
POINT_FEATURES: Final = 50

#: ``TUNED_POINTS[variant]``: the weights of :func:`points_features` in Expert and
#: Extreme (centi-units; Express's row unused), fitted by scripts/tune_eval.py
#: (docs/strength.md, "The tuned evaluations of Expert and Extreme").
# fmt: off
TUNED_POINTS: Final = np.array(
    [
        [0] * POINT_FEATURES,
        [  # Expert
        -2, -4, 1, 10,  # open windows: the seat to act's (1-4 marbles), the opponent's
        2, 4, 2, -13,
        27, 16, 12, 0, 8, -3, -3, -9, -13, -23,  # cell classes
        0, 7, 0, 6, 4, -6, 6, -5, 4,  # the seat to act's points 1-9
        0, -13, 0, -12, -5, 12, -3, 14, -2,  # the opponent's
        -11,  # pending scoring
        0, 8, 3, -1,  # reach 4-7: the seat to act's
        0, -14, -16, 0,  # the opponent's
        -17, -11, 10, 5, 19,  # their win, supply, lead, tempo, seat
        ],
        [  # Extreme
        -2, -1, 3, 1,  # open windows: the seat to act's (1-4 marbles), the opponent's
        4, 2, -1, -10,
        13, 15, 5, -2, 10, 8, -1, 4, -3, -2,  # cell classes
        0, -7, 0, 7, 2, 4, -9, 3, -9,  # the seat to act's points 1-9
        0, 5, 0, -8, -9, -7, 3, -4, 1,  # the opponent's
        -55,  # pending scoring
        4, -1, -4, -6,  # reach 4-7: the seat to act's
        7, 3, -16, -6,  # the opponent's
        -20, -48, 40, -2, 22,  # their win, supply, lead, tempo, seat
        ],
    ],
    dtype=np.int64,
)
# fmt: on


@njit(cache=True, nogil=True)
def longest_line(b: np.uint64, variant: int) -> int:
    """The length of the longest scoring line of ``b`` (2 players), 0 without one."""
    for length in range(7, MIN_LINE[variant, 0] - 1, -1):
        if has_run(b, length):
            return length
    return 0


@njit(cache=True, nogil=True)
def points_features(s: np.ndarray) -> np.ndarray:
    """The features of the tuned evaluation of a 2-player Expert or Extreme state (not
    over, no win at once for the seat to act), columns ``PF_*``."""
    x = np.zeros(POINT_FEATURES, dtype=np.int64)
    mover = np.int64(s[TURN])
    me = s[BOARD + mover]
    op = s[BOARD + 1 - mover]
    variant = np.int64(s[VARIANT])
    occ = occupied(s)
    m1, m2, m3, m4 = window_counts(me, op)
    t1, t2, t3, t4 = window_counts(op, me)
    x[PF_MINE] = m1
    x[PF_MINE + 1] = m2
    x[PF_MINE + 2] = m3
    x[PF_MINE + 3] = m4
    x[PF_THEIRS] = t1
    x[PF_THEIRS + 1] = t2
    x[PF_THEIRS + 2] = t3
    x[PF_THEIRS + 3] = t4
    for c in range(CELL_CLASSES.shape[0]):
        x[PF_CELL + c] = popcount(me & CELL_CLASSES[c]) - popcount(op & CELL_CLASSES[c])
    mine = np.int64(s[SCORE + mover])
    if np.int64(s[PHASE]) == SCORE_PHASE:
        x[PF_PENDING] = 1
        mine += np.int64(max(best_points(me, variant), 0))
    theirs = np.int64(s[SCORE + 1 - mover])
    if mine > 0:
        x[PF_MY_POINTS - 1 + (mine if mine < 9 else 9)] = 1
    if theirs > 0:
        x[PF_THEIR_POINTS - 1 + (theirs if theirs < 9 else 9)] = 1
    reach = longest_reach(me, occ, MIN_LINE[variant, 0])
    if reach:
        x[PF_MY_REACH + reach - 4] = 1
    reach = longest_reach(op, occ, MIN_LINE[variant, 0])
    if reach:
        x[PF_THEIR_REACH + reach - 4] = 1
        if POINTS[variant, 0, reach] >= WIN_POINTS - theirs:
            x[PF_THEIR_WIN] = 1
    x[PF_SUPPLY] = np.int64(s[SUPPLY + mover]) - np.int64(s[SUPPLY + 1 - mover])
    x[PF_LEAD] = mine - theirs
    x[PF_TEMPO] = 1
    x[PF_SEAT] = 1 if mover == 0 else -1
    return x


@njit(cache=True, nogil=True)
def tuned_points(s: np.ndarray) -> int:
    """The tuned value of a 2-player Expert or Extreme state for the seat to act (the
    first player's term left out: it would shift every leaf alike)."""
    x = points_features(s)
    w = TUNED_POINTS[np.int64(s[VARIANT])]
    value = 0
    for k in range(PF_SEAT):
        value += w[k] * x[k]
    return value


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
def evaluate(s: np.ndarray, tuned: bool, express_weights: np.ndarray, network: np.ndarray) -> int:
    """The heuristic value of a 2-player state (not over) for the seat to act, whose
    win at once the search has ruled out; ``tuned``: by the tuned evaluation of its
    variant (the classic one otherwise), in Express with ``express_weights`` (the
    layout of :data:`TUNED_EXPRESS`) and the small ``network`` of :mod:`.network`
    added (its :data:`~.network.NO_NETWORK` adds nothing)."""
    mover = np.int64(s[TURN])
    me = s[BOARD + mover]
    op = s[BOARD + 1 - mover]
    variant = np.int64(s[VARIANT])
    if tuned:
        if variant == EXPRESS:
            value = tuned_express(me, op, occupied(s), express_weights)
            value += network_value(me, op, network)
        else:
            value = tuned_points(s)
        return max(-MAX_HEURISTIC, min(MAX_HEURISTIC, value))
    value = windows(me, op, True) - windows(op, me, False) + TEMPO
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
    if variant == EXPRESS:
        return 1 if winning_insertions(me, occ, 1) else 0
    shortest = shortest_worth(variant, 0, need)
    if shortest > LONGEST or not near_run(me, shortest):
        return 0  # no insertion makes a line worth the points missing
    for i in range(INSERTIONS):
        if (
            LANE_MASK[i] & ~occ
            and best_points(after_insertion(me, push_run(i, occ), i), variant) >= need
        ):
            return 2
    return 0

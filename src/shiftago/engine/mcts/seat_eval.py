"""The fitted evaluations of 3-4 player games: each seat's chance of the result.

A playout cut at a horizon (:mod:`.rollout`) is valued by a multinomial logistic model
fitted to self-play games (``scripts/tune_multi.py``; docs/strength.md, "A fitted
evaluation for 3 and 4 players"), one per variant and player count. Each seat ``i`` gets
a score, the weighted sum of its features (:func:`seat_features`) with weights of its
place in the order of play: ``WEIGHTS[variant, players - 3, d]`` where ``d`` is how
many seats on from the seat to act it sits (0: the seat to act, 1: the next one, ...).
A result shared by all (a full board in Express, equal points otherwise) gets a score
of its own from the empty cells (:func:`draw_features`, ``DRAW_WEIGHTS``). The
probabilities are the softmax of these scores, and a seat's reward is its win's
probability plus its share of the shared result's.

A seat's features, against the marbles of every other seat alike:

* its open windows of four cells (no other seat's marble in them) holding one, two and
  three of its marbles;
* Express: whether one insertion would make its line of four (a win at once, if it had
  the turn), and whether two or more different ones would;
* Expert and Extreme: the points of the longest line worth points that one insertion of
  its own would make, and whether they would bring it to the winning points; its
  points (one column for each score from 1 to 9: the distance to 10 is not linear);
  whether it is to act in the scoring phase (it scores, then moves again); its marbles
  in supply;
* its marbles on each of the ten classes of cells alike under the board's symmetries
  (:data:`shiftago.engine.search.evaluate.CELL_CLASSES`);
* a constant (the advantage of its place in the order).
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import occupied, popcount
from shiftago.engine.kernel.policy import winning_insertions
from shiftago.engine.kernel.tables import (
    BOARD,
    DIRS,
    EXPERT,
    EXPRESS,
    EXTREME,
    MARBLES,
    MIN_LINE,
    PHASE,
    PLAYERS,
    SCORE,
    SCORE_PHASE,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
)
from shiftago.engine.search.evaluate import CELL_CLASSES, window_bits, window_starts

from .horizon import reach_points

#: The line of four that wins 3-4 player Express.
FOUR: Final = int(MIN_LINE[EXPRESS, 1])

# The columns of :func:`seat_features` in Express.
SF_WINDOWS: Final = 0  # 3: open windows of four holding 1, 2, 3 of the seat's marbles
SF_THREAT: Final = 3  # one insertion would make its line
SF_DOUBLE: Final = 4  # two or more different insertions would
SF_CELL: Final = 5  # 10: its marbles by cell class
SF_CONSTANT: Final = 15  # 1
EXPRESS_FEATURES: Final = 16
# ... in Expert and Extreme (the windows as in Express).
SP_REACH: Final = 3  # the points of its longest line worth points after one insertion
SP_REACH_WINS: Final = 4  # they would bring it to the winning points
SP_POINTS: Final = 5  # 9: it has 1..9 points
SP_PENDING: Final = 14  # it is to act in the scoring phase
SP_SUPPLY: Final = 15  # its marbles in supply, in 22nds
SP_CELL: Final = 16  # 10: its marbles by cell class
SP_CONSTANT: Final = 26  # 1
POINTS_FEATURES: Final = 27
#: The columns of each variant's features; every row of ``WEIGHTS`` has room for the most.
FEATURES: Final = np.array([EXPRESS_FEATURES, POINTS_FEATURES, POINTS_FEATURES], dtype=np.int64)
SEAT_FEATURES: Final = POINTS_FEATURES
# The columns of :func:`draw_features`.
DF_CONSTANT: Final = 0
DF_EMPTY: Final = 1  # empty cells, in 49ths
DF_EMPTY2: Final = 2  # its square
DRAW_FEATURES: Final = 3


#: ``W4[k]``: the cells where a window of four begins in direction ``DIRS[k]``.
W4: Final = window_starts(FOUR)

#: ``WEIGHTS[variant, players - 3, d, column]``: the weights of the seat ``d`` places
#: after the seat to act, fitted by scripts/tune_multi.py (docs/strength.md, "A fitted
#: evaluation for 3 and 4 players"); the Express rows here, the others below.
# fmt: off
EXPRESS_WEIGHTS: Final = np.array(
    [
        [  # 3 players; columns: windows 1-3, threat, double, cell classes 0-9, constant
            [-0.0162, 0.0504, 0.1342, 4.4206, 1.1869, 0.2665, 0.2647, 0.2507,
             0.2056, 0.1417, 0.1944, 0.1404, 0.2599, 0.1519, 0.0551, -1.6419],
            [-0.0286, 0.0248, 0.0750, 0.3877, 0.1058, 0.3264, 0.2936, 0.2692,
             0.1783, 0.1720, 0.2130, 0.1188, 0.2793, 0.1366, 0.0426, -1.6671],
            [-0.0260, 0.0341, 0.0618, 0.2346, 0.1471, 0.2965, 0.2895, 0.2527,
             0.1856, 0.1505, 0.2057, 0.1281, 0.2645, 0.1423, 0.0589, -1.7290],
            [0.0] * EXPRESS_FEATURES,
        ],
        [  # 4 players
            [0.0063, 0.0946, 0.2664, 4.7952, 1.2296, 0.1107, 0.1194, 0.1337,
             0.1517, 0.1519, 0.1278, 0.1394, 0.2105, 0.1306, 0.1731, -1.1992],
            [-0.0047, 0.0733, 0.0561, 0.2001, 0.2369, 0.1732, 0.1926, 0.2126,
             0.1370, 0.2414, 0.1725, 0.1092, 0.2748, 0.1155, 0.1356, -1.2533],
            [-0.0033, 0.0818, 0.0544, 0.1123, 0.3715, 0.1531, 0.1816, 0.1819,
             0.1182, 0.2195, 0.1628, 0.0942, 0.2631, 0.1103, 0.1214, -1.2703],
            [-0.0002, 0.0925, 0.0540, 0.0956, 0.3217, 0.1397, 0.1470, 0.1760,
             0.1075, 0.2077, 0.1650, 0.0919, 0.2699, 0.0903, 0.1134, -1.3184],
        ],
    ],
    dtype=np.float64,
)
EXPRESS_DRAW: Final = np.array(
    [[5.0380, -15.0940, 8.1702], [5.0412, -8.4104, 4.4295]], dtype=np.float64
)
#: Expert: the columns of :data:`POINTS_FEATURES`.
EXPERT_WEIGHTS: Final = np.array(
    [
        [  # 3 players
            [-0.0179, -0.0010, 0.1090, 0.0672, 2.2237, 0.0000, 0.5525, 0.0000, 1.1388,
             0.7827, 1.5671, 1.4943, 0.1159, 1.8066, -0.1702, -0.1268, 0.4320, 0.3832,
             0.3208, 0.3167, 0.3030, 0.2723, 0.2485, 0.1821, 0.1775, 0.1534, -0.5336],
            [-0.0118, 0.0213, 0.0413, 0.0691, -0.0000, 0.0000, 0.3163, 0.0000, 0.1714,
             0.7116, 0.1115, 0.7786, -0.1187, 0.9171, 0.0000, -0.1229, 0.3897, 0.3804,
             0.3264, 0.2827, 0.3308, 0.2721, 0.2269, 0.1975, 0.1532, 0.1443, -0.5916],
            [-0.0120, 0.0252, 0.0463, 0.0737, -0.1504, 0.0000, 0.3624, 0.0000, 0.1991,
             0.6550, 0.2395, 0.7169, -0.2771, 0.4718, 0.0000, -0.1210, 0.4299, 0.3922,
             0.3217, 0.2683, 0.3239, 0.2729, 0.2091, 0.1951, 0.1318, 0.1178, -0.6184],
            [0.0] * POINTS_FEATURES,
        ],
        [  # 4 players
            [0.0039, 0.0569, 0.0890, 0.1077, 1.5407, 0.0000, 0.1658, 0.0000, 0.5079,
             0.7572, 0.5567, 1.1741, 0.5421, 1.9482, 0.0226, -0.0350, 0.1200, 0.1217,
             0.0801, 0.1163, 0.0764, 0.0717, 0.0673, 0.0365, 0.0536, 0.0273, 0.2874],
            [0.0012, 0.0585, 0.0697, 0.0948, -0.2197, 0.0000, -0.1031, 0.0000, 0.1239,
             0.6750, -0.1064, 0.7388, 0.2002, 1.6338, 0.0000, -0.0363, 0.1203, 0.1257,
             0.1012, 0.1183, 0.0901, 0.0912, 0.0606, 0.0420, 0.0386, 0.0097, 0.2993],
            [-0.0016, 0.0637, 0.0773, 0.0797, -0.2671, 0.0000, -0.0676, 0.0000, 0.1683,
             0.6731, -0.0711, 0.6819, 0.1241, 1.6571, 0.0000, -0.0348, 0.1307, 0.1049,
             0.0981, 0.1103, 0.0845, 0.0984, 0.0643, 0.0444, 0.0310, -0.0003, 0.3033],
            [-0.0002, 0.0500, 0.0553, 0.0795, -0.3055, 0.0000, -0.0540, 0.0000, 0.0872,
             0.6753, -0.0505, 0.7313, 0.2144, 1.5866, 0.0000, -0.0367, 0.1768, 0.1295,
             0.1097, 0.1134, 0.0952, 0.0913, 0.0513, 0.0287, 0.0192, -0.0073, 0.2897],
        ],
    ],
    dtype=np.float64,
)
EXPERT_DRAW: Final = np.array(
    [[1.7437, -10.8459, 5.1123], [-1.1797, 0.7622, -1.4311]], dtype=np.float64
)
#: Extreme: the same columns.
EXTREME_WEIGHTS: Final = np.array(
    [
        [  # 3 players
            [-0.0119, -0.0292, -0.0131, 0.1764, 2.4321, 0.0000, 0.2686, 0.0000, 0.9864,
             1.8203, 1.7810, 1.9261, 2.6203, 2.4735, -0.6673, -0.1455, 0.2639, 0.3822,
             0.2909, 0.2865, 0.4498, 0.3537, 0.3206, 0.2602, 0.2830, 0.3097, 4.1607],
            [-0.0084, 0.0093, 0.0252, 0.0789, 0.3361, 0.0000, 0.2421, 0.0000, 0.6873,
             1.6766, 0.9889, 1.6791, 2.3934, 2.0115, 0.0000, -0.1441, 0.3057, 0.3746,
             0.2976, 0.2851, 0.4190, 0.3262, 0.3108, 0.2729, 0.2696, 0.3089, 4.0775],
            [-0.0076, 0.0121, 0.0154, 0.0660, 0.2000, 0.0000, 0.2247, 0.0000, 0.7630,
             1.5888, 0.7221, 1.5322, 2.1222, 1.7669, 0.0000, -0.1399, 0.2774, 0.3628,
             0.2945, 0.2893, 0.3880, 0.3372, 0.3059, 0.2528, 0.2753, 0.2945, 3.9715],
            [0.0] * POINTS_FEATURES,
        ],
        [  # 4 players
            [-0.0079, -0.0375, -0.0301, 0.1449, 2.4551, 0.0000, 0.3265, 0.0000, 0.8495,
             1.5713, 1.5526, 1.7991, 2.9150, 2.2748, -0.5514, -0.1548, 0.3316, 0.3392,
             0.3390, 0.3167, 0.3776, 0.3334, 0.3692, 0.3481, 0.3288, 0.3230, -0.3211],
            [-0.0086, 0.0031, -0.0189, 0.0586, 0.0393, 0.0000, 0.2459, 0.0000, 0.7019,
             1.4400, 1.0219, 1.5660, 2.6398, 1.2103, 0.0000, -0.1567, 0.3621, 0.3778,
             0.3625, 0.3178, 0.3867, 0.3357, 0.3504, 0.3487, 0.3088, 0.2976, -0.3490],
            [-0.0117, 0.0074, -0.0051, 0.0513, 0.0783, 0.0000, 0.2895, 0.0000, 0.6551,
             1.3787, 1.1456, 1.4873, 2.2692, 1.0629, 0.0000, -0.1539, 0.3527, 0.3543,
             0.3747, 0.3244, 0.3682, 0.3346, 0.3411, 0.3503, 0.3016, 0.2831, -0.3859],
            [-0.0115, -0.0089, 0.0319, 0.0504, 0.1024, 0.0000, 0.2942, 0.0000, 0.6133,
             1.3291, 0.9262, 1.4515, 2.2789, 1.1126, 0.0000, -0.1532, 0.3566, 0.3515,
             0.3897, 0.3043, 0.3850, 0.3339, 0.3348, 0.3380, 0.3052, 0.2717, -0.4336],
        ],
    ],
    dtype=np.float64,
)
EXTREME_DRAW: Final = np.array(
    [[-12.2096, -9.4402, 0.4958], [1.4895, -4.4759, 0.348]], dtype=np.float64
)
# fmt: on
WEIGHTS: Final = np.zeros((3, 2, 4, SEAT_FEATURES), dtype=np.float64)
WEIGHTS[EXPRESS, :, :, :EXPRESS_FEATURES] = EXPRESS_WEIGHTS
WEIGHTS[EXPERT] = EXPERT_WEIGHTS
WEIGHTS[EXTREME] = EXTREME_WEIGHTS
#: ``DRAW_WEIGHTS[variant, players - 3]``: the weights of :func:`draw_features`.
DRAW_WEIGHTS: Final = np.zeros((3, 2, DRAW_FEATURES), dtype=np.float64)
DRAW_WEIGHTS[EXPRESS] = EXPRESS_DRAW
DRAW_WEIGHTS[EXPERT] = EXPERT_DRAW
DRAW_WEIGHTS[EXTREME] = EXTREME_DRAW


@njit(cache=True, nogil=True)
def open_windows(me: np.uint64, others: np.uint64) -> tuple[int, int, int]:
    """How many windows of four cells with none of ``others`` hold 1, 2 and 3 of
    ``me``'s marbles."""
    c1 = c2 = c3 = 0
    for k in range(4):
        open_, ones, twos, fours = window_bits(me, others, W4[k], DIRS[k], FOUR)
        open_ &= ~fours
        c1 += popcount(open_ & ones & ~twos)
        c2 += popcount(open_ & ~ones & twos)
        c3 += popcount(open_ & ones & twos)
    return c1, c2, c3


@njit(cache=True, nogil=True)
def seat_features(s: np.ndarray, seat: int, occ: np.uint64, out: np.ndarray) -> None:
    """Write the features of ``seat`` in ``s`` (see the module doc) into ``out``
    (:data:`SEAT_FEATURES` columns; those the variant has not stay 0)."""
    out[:] = 0.0
    me = s[BOARD + seat]
    c1, c2, c3 = open_windows(me, occ & ~me)
    out[SF_WINDOWS] = c1
    out[SF_WINDOWS + 1] = c2
    out[SF_WINDOWS + 2] = c3
    variant = np.int64(s[VARIANT])
    if variant == EXPRESS:
        wins = winning_insertions(me, occ, FOUR)
        out[SF_THREAT] = 1.0 if wins != 0 else 0.0
        out[SF_DOUBLE] = 1.0 if wins & (wins - 1) else 0.0
        cell = SF_CELL
        out[SF_CONSTANT] = 1.0
    else:
        points = np.int64(s[SCORE + seat])
        reach = reach_points(me, occ, int(variant), 1)
        out[SP_REACH] = reach
        out[SP_REACH_WINS] = 1.0 if reach > 0 and points + reach >= WIN_POINTS else 0.0
        if points > 0:
            out[SP_POINTS - 1 + (points if points < 9 else 9)] = 1.0
        to_score = np.int64(s[PHASE]) == SCORE_PHASE and np.int64(s[TURN]) == seat
        out[SP_PENDING] = 1.0 if to_score else 0.0
        out[SP_SUPPLY] = np.int64(s[SUPPLY + seat]) / MARBLES
        cell = SP_CELL
        out[SP_CONSTANT] = 1.0
    for c in range(CELL_CLASSES.shape[0]):
        out[cell + c] = popcount(me & CELL_CLASSES[c])


@njit(cache=True, nogil=True)
def draw_features(occ: np.uint64, out: np.ndarray) -> None:
    """Write the features of the result shared by all (a full board in Express, equal
    points otherwise) on a board whose marbles are ``occ``."""
    empty = (49 - popcount(occ)) / 49.0
    out[DF_CONSTANT] = 1.0
    out[DF_EMPTY] = empty
    out[DF_EMPTY2] = empty * empty


@njit(cache=True, nogil=True)
def seat_shares(
    s: np.ndarray, weights: np.ndarray, draw_weights: np.ndarray, reward: np.ndarray
) -> None:
    """Write into ``reward[:players]`` each seat's expected share of the result of the
    3-4 player state ``s`` (not over) under ``weights`` and ``draw_weights`` of its
    variant and player count (rows of :data:`WEIGHTS` and :data:`DRAW_WEIGHTS`, or a
    fit's)."""
    players = np.int64(s[PLAYERS])
    turn = np.int64(s[TURN])
    occ = occupied(s)
    x = np.empty(SEAT_FEATURES, dtype=np.float64)
    g = np.empty(DRAW_FEATURES, dtype=np.float64)
    draw_features(occ, g)
    draw = 0.0
    for k in range(DRAW_FEATURES):
        draw += draw_weights[k] * g[k]
    top = draw
    for seat in range(players):
        seat_features(s, seat, occ, x)
        d = (seat - turn) % players
        score = 0.0
        for k in range(SEAT_FEATURES):
            score += weights[d, k] * x[k]
        reward[seat] = score
        top = max(top, score)
    total = math.exp(draw - top)
    for seat in range(players):
        reward[seat] = math.exp(reward[seat] - top)
        total += reward[seat]
    shared = math.exp(draw - top) / total / players
    for seat in range(players):
        reward[seat] = reward[seat] / total + shared


@njit(cache=True, nogil=True)
def fitted_shares(s: np.ndarray, reward: np.ndarray) -> None:
    """:func:`seat_shares` under the fitted weights of the variant and player count."""
    variant = np.int64(s[VARIANT])
    many = np.int64(s[PLAYERS]) - 3
    seat_shares(s, WEIGHTS[variant, many], DRAW_WEIGHTS[variant, many], reward)


@njit(cache=True, nogil=True)
def all_features(s: np.ndarray, seats: np.ndarray, draw: np.ndarray) -> None:
    """Write the features of every seat of ``s`` into ``seats[d]`` by its place ``d``
    after the seat to act, and the draw's into ``draw`` (for the fitting)."""
    players = np.int64(s[PLAYERS])
    turn = np.int64(s[TURN])
    occ = occupied(s)
    for seat in range(players):
        seat_features(s, seat, occ, seats[(seat - turn) % players])
    draw_features(occ, draw)

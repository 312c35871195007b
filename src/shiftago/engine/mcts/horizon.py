"""Playouts cut at a horizon, valued by the points (3-4 player Expert).

A greedy playout of Expert runs for dozens of actions before someone reaches the winning
points, and its one result (who got there) is noisy. With a ``horizon`` the playout
stops after that many actions and each seat's reward is its share of a softmax of its
standing: ``exp(scale * standing[seat])`` over the sum for all seats, so that a lead of
a line's points weighs like most of a win and equal standings share equally. A seat's
standing is its points and ``reach`` times the points of the longest line one insertion
of its own would make (its threat: early in a game nobody has points yet). A playout
that ends the game before its horizon keeps its exact result. Why and with which
values, and why no level plays it: ``docs/strength.md``, "3 and 4 players in Expert
(issue 52)".
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import occupied
from shiftago.engine.kernel.policy import longest_reach, shortest_worth
from shiftago.engine.kernel.tables import (
    BOARD,
    PLAYERS,
    POINTS,
    SCORE,
    VARIANT,
)


@njit(cache=True, nogil=True)
def reach_points(b: np.uint64, occ: np.uint64, variant: int, many: int) -> int:
    """The points of the longest line worth points that one insertion would give the
    seat with the board ``b`` (all marbles ``occ``), 0 when none would."""
    longest = longest_reach(b, occ, shortest_worth(variant, many, 1))
    return 0 if longest == 0 else np.int64(POINTS[variant, many, longest])


@njit(cache=True, nogil=True)
def point_shares(s: np.ndarray, scale: float, reach: float, reward: np.ndarray) -> None:
    """Write into ``reward[:players]`` each seat's softmax share of the standings of
    ``s`` (points, and ``reach`` times :func:`reach_points`) at ``scale`` (a positive
    reward for every seat, summing to 1)."""
    players = np.int64(s[PLAYERS])
    variant = np.int64(s[VARIANT])
    occ = occupied(s)
    for seat in range(players):
        standing = float(s[SCORE + seat])
        if reach != 0.0:
            standing += reach * reach_points(s[BOARD + seat], occ, variant, 1)
        reward[seat] = standing
    top = reward[0]
    for seat in range(1, players):
        top = max(top, reward[seat])
    total = 0.0
    for seat in range(players):
        reward[seat] = math.exp(scale * (reward[seat] - top))
        total += reward[seat]
    for seat in range(players):
        reward[seat] /= total

"""Playouts cut at a horizon, valued by the points (3-4 player Expert and Extreme).

A greedy playout of Expert runs for dozens of actions before someone reaches the winning
points, and its one result (who got there) is noisy. With a ``horizon`` the playout
stops after that many actions and each seat's reward is its share of a softmax of the
points: ``exp(scale * points[seat])`` over the sum for all seats, so that a lead of a
line's points weighs like most of a win and equal points share equally. A playout that
ends the game before its horizon keeps its exact result. Why and with which values:
``docs/strength.md``, "3 and 4 players in Expert (issue 52)".
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shiftago.engine.kernel.tables import PLAYERS, SCORE


@njit(cache=True, nogil=True)
def point_shares(s: np.ndarray, scale: float, reward: np.ndarray) -> None:
    """Write into ``reward[:players]`` each seat's softmax share of the points of ``s``
    at ``scale`` (a positive reward for every seat, summing to 1)."""
    players = np.int64(s[PLAYERS])
    top = 0.0
    for seat in range(players):
        top = max(top, float(s[SCORE + seat]))
    total = 0.0
    for seat in range(players):
        reward[seat] = math.exp(scale * (float(s[SCORE + seat]) - top))
        total += reward[seat]
    for seat in range(players):
        reward[seat] /= total

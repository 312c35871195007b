"""Playouts of the MCTS: the kernel's one playout loop under the search's policy.

Each new leaf is played out to the end by :func:`shiftago.engine.kernel.playout.play_out`:
greedy by default (:data:`~shiftago.engine.kernel.policy.GREEDY`: a win at once ends an
Express playout; in Expert and Extreme the mover makes and scores the longest line worth
points), blocking as well where asked with 3-4 players
(:data:`~shiftago.engine.kernel.policy.BLOCKING`: the mover stops the next seat's win at
once; the top level's in 3-4 player Express), uniformly random for plain UCT. The
greedy rules live in :mod:`shiftago.engine.kernel.policy`, next to the loop that applies
them; why the MCTS plays them is measured in ``docs/strength.md`` ("Greedy playouts in
Expert and Extreme"). With a horizon the playout stops after that many actions of a game
not over, and the position reached is valued by the fitted evaluation of
:mod:`.seat_eval` (the top level's 3-4 player Expert and Extreme) or by the points
(:mod:`.horizon`, measured only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.playout import play_out

from .horizon import point_shares
from .seat_eval import fitted_shares
from .tree import share


@njit(cache=True, nogil=True)
def playout_reward(
    s: np.ndarray,
    x: np.uint64,
    moves: np.ndarray,
    policy: int,
    block_plies: int,
    horizon: int,
    scale: float,
    reach: float,
    reward: np.ndarray,
) -> np.uint64:
    """Play ``s`` (scratch) to the end under ``policy`` (random, greedy or blocking:
    :mod:`shiftago.engine.kernel.policy`; a blocking one blocks in its first
    ``block_plies`` actions), drawing from the generator value ``x``, and write each
    seat's reward into ``reward[:players]``: its share of the result, or with a
    ``horizon`` above 0, of a game not over after that many actions, its share by a
    softmax of the points at ``scale`` (:func:`.horizon.point_shares`, Expert and
    Extreme) or, with no ``scale``, by the fitted evaluation
    (:func:`.seat_eval.fitted_shares`); return the generator."""
    winners, x, _ = play_out(s, x, moves, policy, True, block_plies, horizon)
    if winners == 0:
        if scale > 0.0:
            point_shares(s, scale, reach, reward)
        else:
            fitted_shares(s, reward)
    else:
        for seat in range(reward.shape[0]):
            reward[seat] = share(winners, seat)
    return x

"""Playouts of the MCTS: the kernel's one playout loop under the search's policy.

Each new leaf is played out to the end by :func:`shiftago.engine.kernel.playout.play_out`:
greedy by default (:data:`~shiftago.engine.kernel.policy.GREEDY`: a win at once ends an
Express playout; in Expert and Extreme the mover makes and scores the longest line worth
points), blocking as well where asked with 3-4 players
(:data:`~shiftago.engine.kernel.policy.BLOCKING`: the mover stops the next seat's win at
once; measured, not played by the levels), uniformly random for plain UCT. The greedy rules live in
:mod:`shiftago.engine.kernel.policy`, next to the loop that applies them; why the MCTS
plays them is measured in ``docs/strength.md`` ("Greedy playouts in Expert and
Extreme").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.playout import play_out


@njit(cache=True, nogil=True)
def playout(
    s: np.ndarray, x: np.uint64, moves: np.ndarray, policy: int, block_plies: int
) -> tuple[int, np.uint64]:
    """Play ``s`` (scratch) to the end under ``policy`` (random, greedy or blocking:
    :mod:`shiftago.engine.kernel.policy`; a blocking one blocks in its first
    ``block_plies`` actions), drawing from the generator value ``x``: the winners mask
    and the generator."""
    winners, x, _ = play_out(s, x, moves, policy, True, block_plies)
    return winners, x

"""The exact endgame: how many actions a game can still last, and when to search to its end.

A 2-player Express game ends at the latest when the seat to act has no marble left, so
the marbles in both supplies bound the actions still to come (an action limit bounds
them too, in every variant). Once that bound is small, a search that reaches it sees
only finished games: its values are exact (a win, a loss or a draw, with the number of
actions), not heuristic.

The search uses this in two places:

* inside the tree (:func:`.negamax.negamax`): a leaf whose game can last at most
  :data:`LEAF_SOLVE_PLIES` more actions is not evaluated but searched to the end, so
  the heuristic never guesses at a position that is small enough to solve;
* at the root (:mod:`.driver`): iterative deepening stops as soon as a depth reaches
  :func:`plies_left` of the root, because every value is then exact.

:func:`.solver.solve` is the exact solver as a function, above the driver: it searches a
late position to the end and answers the true result of every action.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.tables import (
    COUNT,
    EXPRESS,
    LIMIT,
    PLAYERS,
    SUPPLY,
    VARIANT,
)

#: A bound meaning "no bound is known" (Expert and Extreme refill the supplies).
UNBOUNDED: Final = 1 << 20
#: Leaves with at most this many actions left are searched to the end.
LEAF_SOLVE_PLIES: Final = 4


@njit(cache=True, nogil=True)
def plies_left(s: np.ndarray) -> int:
    """An upper bound on the actions the game of ``s`` can still last (``UNBOUNDED``
    when none is known): both supplies in 2-player Express, the action limit always."""
    left = UNBOUNDED
    if np.int64(s[VARIANT]) == EXPRESS and np.int64(s[PLAYERS]) == 2:
        left = np.int64(s[SUPPLY]) + np.int64(s[SUPPLY + 1])
    limit = np.int64(s[LIMIT])
    if limit > 0:
        left = min(left, limit - np.int64(s[COUNT]))
    return max(left, 0)

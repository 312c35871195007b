"""The move picker of the alpha-beta search: a node's actions keyed, then taken best first.

The table's action comes first, then scorings (longest line first), the two killers of
the ply, then the other insertions by how often they cut before (the history table);
:mod:`.negamax` keys each node's actions once and picks them one at a time, so that a
cut spares the sorting of the rest.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.tables import INSERTIONS, SEG_LEN

#: Move-ordering keys (:func:`order_actions`), highest first: the table's action, then
#: scorings (longest line first), the two killers, then quiet insertions by history.
KEY_TABLE_MOVE: Final = 1 << 40
KEY_SCORING: Final = 1 << 30
KEY_KILLER: Final = 1 << 29
#: Ordering keys below this are quiet insertions (no table action, killer or scoring).
QUIET_BELOW: Final = KEY_KILLER - 1


@njit(cache=True, nogil=True)
def order_actions(
    row: np.ndarray,
    order: np.ndarray,
    n: int,
    tt_move: int,
    killers: np.ndarray,
    history: np.ndarray,
) -> None:
    """The move picker's keys (``order[j]`` for ``row[j]``): the table's action first,
    then scorings (longest line first), the two killers of this ply, then the other
    insertions by the mover's ``history``."""
    for j in range(n):
        code = row[j]
        if code == tt_move:
            order[j] = KEY_TABLE_MOVE
        elif code >= INSERTIONS:
            order[j] = KEY_SCORING + SEG_LEN[(code - INSERTIONS) >> 1]
        elif code == killers[0]:
            order[j] = KEY_KILLER
        elif code == killers[1]:
            order[j] = KEY_KILLER - 1
        else:
            order[j] = history[code]


@njit(cache=True, nogil=True)
def pick_next(row: np.ndarray, order: np.ndarray, j: int, n: int) -> int:
    """The move picker: swap the best-keyed action of ``row[j:n]`` into place ``j`` (ties:
    the lower index, so a search repeats) and return it."""
    top = j
    for t in range(j + 1, n):
        if order[t] > order[top]:
            top = t
    code = row[top]
    row[top] = row[j]
    row[j] = code
    key = order[top]
    order[top] = order[j]
    order[j] = key
    return code

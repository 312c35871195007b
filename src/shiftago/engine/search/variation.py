"""The principal variation: the line the search expects, read out of the table.

The search stores each node's best action in the transposition table (:mod:`.ttable`);
the driver (:mod:`.driver`) follows them from the root after each depth, then any
immediate win, which the search finds at a node without storing it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import MAX_ACTIONS, OVER, PHASE, SCORE_PHASE, TURN, WINNERS

from .evaluate import immediate_win
from .ttable import entry_move
from .ttable import probe as tt_probe
from .zobrist import zobrist

_OVER = np.uint64(OVER)


@njit(cache=True, nogil=True)
def winning_action(s: np.ndarray, row: np.ndarray) -> int:
    """An action of the seat to act that wins at once, or that makes a line whose
    scoring wins (so the scoring follows); -1 for none."""
    mover = np.int64(s[TURN])
    n = legal_actions(s, row)
    child = np.empty_like(s)
    for j in range(n):
        child[:] = s
        apply_action(child, row[j])
        if child[PHASE] == _OVER:
            if np.int64(child[WINNERS]) == 1 << mover:
                return row[j]
        elif np.int64(child[PHASE]) == SCORE_PHASE and immediate_win(child) == 1:
            return row[j]
    return -1


@njit(cache=True, nogil=True)
def principal_variation(
    start: np.ndarray, tt_key: np.ndarray, tt_data: np.ndarray, out: np.ndarray
) -> int:
    """Follow the table's best actions from ``start`` while they are legal, then any
    immediate win (which the search finds without storing it); write the actions into
    ``out`` and return how many."""
    s = start.copy()
    row = np.empty(MAX_ACTIONS, dtype=np.int64)
    count = 0
    while count < out.shape[0] and s[PHASE] != _OVER:
        code = -1
        hit, entry = tt_probe(tt_key, tt_data, zobrist(s))
        if immediate_win(s):
            code = winning_action(s, row)
        elif hit:
            code = entry_move(entry)
            n = legal_actions(s, row)
            legal = False
            for j in range(n):
                legal |= row[j] == code
            if not legal:
                code = -1
        if code < 0:
            break
        out[count] = code
        count += 1
        apply_action(s, code)
    return count

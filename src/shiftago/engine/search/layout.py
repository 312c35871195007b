"""One search thread's tables and the named rows and slots the compiled search uses.

The compiled search (:mod:`.negamax`) reads and writes its tables by these indices: the
``info`` slots (counters, limits and switches the driver sets and reads), the frame of
each ply of its explicit stack (``F_`` slots) and how a child is being searched
(``STAGE_`` values). The driver (:mod:`.driver`) makes the tables (:func:`new_tables`).
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np

from shiftago.engine.kernel.tables import ACTION_CODES, MAX_ACTIONS, STATE_SIZE

from .evaluate import EXPRESS_WEIGHTS
from .network import NETWORK_SIZE

#: The deepest ply the search's stack holds.
MAX_PLY: Final = 64

# info slots
NODES: Final = 0
NODE_LIMIT: Final = 1
STOPPED: Final = 2
USE_TT: Final = 3
REDUCE: Final = 4  # late move reductions on (1) or off (0)
TUNED: Final = 5  # the tuned evaluation (1) or the classic one (0), see .evaluate
DEFER: Final = 6  # other threads search the same tree: defer their actions (1) or not (0)
#: The first of the slots of the tuned 2-player Express weights (the layout of
#: :data:`.evaluate.TUNED_EXPRESS`; the driver fills them).
WEIGHTS: Final = 7
#: The first of the slots of the small network added to them (the layout of
#: :mod:`.network`; the driver fills them).
NETWORK: Final = WEIGHTS + EXPRESS_WEIGHTS
INFO_SIZE: Final = NETWORK + NETWORK_SIZE

#: Slots of the table of the (position, action) pairs the threads are searching.
BUSY_SLOTS: Final = 1 << 10

# frame slots: one row of ``frames`` per ply of the explicit search stack
F_ALPHA: Final = 0
F_BETA: Final = 1
F_DEPTH: Final = 2
F_BEST: Final = 3
F_BEST_MOVE: Final = 4
F_NEXT: Final = 5
F_COUNT: Final = 6
F_ALPHA0: Final = 7
F_STAGE: Final = 8  # how the current child is being searched: a STAGE_ value
F_MOVER: Final = 9
F_SAME: Final = 10  # the child's seat to act is this node's
F_CUR: Final = 11  # the row position of the child being searched
F_KEY: Final = 12  # the node's position key (with deferring)
F_MARK: Final = 13  # the busy mark of the child being searched; 0: none
F_DEFERRED: Final = 14  # how many actions this node put off
F_REDO: Final = 15  # -1 in the first pass; then the next put-off action's index
FRAME_SIZE: Final = 16

# search stages of a child (``F_STAGE``)
STAGE_FULL: Final = 0  # the full window (the first action, or a finished game)
STAGE_NULL: Final = 1  # a null window at full depth (principal variation search)
STAGE_RESEARCH: Final = 2  # the full window again, after the null window failed high
STAGE_REDUCED: Final = 3  # a null window one or two plies shallower (late move reduction)


class SearchTables(NamedTuple):
    """One search thread's tables, in the order the compiled functions take them
    (``search_root(*tables, ...)``). The transposition table (``tt_key``,
    ``tt_data``; :mod:`.ttable`) and ``busy`` may be shared between threads; the rest
    is the thread's own."""

    stack: np.ndarray  # the state at each ply (row 0: the root)
    moves: np.ndarray  # the actions of each ply's node
    keys: np.ndarray  # their ordering keys (:func:`.movepick.order_actions`)
    frames: np.ndarray  # each ply's frame (the ``F_`` slots)
    tt_key: np.ndarray
    tt_data: np.ndarray
    killers: np.ndarray  # two killer actions per ply
    history: np.ndarray  # per seat and action: how often it cut
    deferred: np.ndarray  # the actions each ply's node put off (row positions)
    busy: np.ndarray  # the marks of the (position, action) pairs the threads are in
    info: np.ndarray  # the ``info`` slots (nodes, limits, switches)
    root_best: np.ndarray  # the threads' best root action of each depth (packed)


def new_tables(
    table: tuple[np.ndarray, np.ndarray], shared: SearchTables | None = None
) -> SearchTables:
    """Fresh search tables of one search thread around the transposition table
    ``table`` (keys, data), with the ``busy`` and ``root_best`` tables of the thread
    whose tables are ``shared`` (fresh ones if None)."""
    return SearchTables(
        stack=np.zeros((MAX_PLY + 2, STATE_SIZE), dtype=np.uint64),
        moves=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        keys=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        frames=np.zeros((MAX_PLY + 2, FRAME_SIZE), dtype=np.int64),
        tt_key=table[0],
        tt_data=table[1],
        killers=np.full((MAX_PLY + 1, 2), -1, dtype=np.int64),
        history=np.zeros((2, ACTION_CODES), dtype=np.int64),
        deferred=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        busy=np.zeros(BUSY_SLOTS, dtype=np.int64) if shared is None else shared.busy,
        info=np.zeros(INFO_SIZE, dtype=np.int64),
        root_best=np.zeros(MAX_PLY + 1, dtype=np.int64) if shared is None else shared.root_best,
    )

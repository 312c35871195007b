"""The kernel's constant tables and state layout, built once from the core's geometry.

Everything here is a numpy array or an integer constant so that numba bakes it into the
compiled code. Bitboards are ``uint64`` in the layout of :mod:`shiftago.core.geometry`
(bit ``8 * rank + file``, one guard bit per rank).

State: one ``uint64`` array of :data:`STATE_SIZE` slots (scalars stored as small
non-negative integers; read them with ``np.int64(s[i])``):

====================  =================================================================
``s[BOARD + seat]``   the bitboard of each seat (4 slots; unused seats stay 0)
``s[TURN]``           the seat to act (when over: the seat that acted last)
``s[PHASE]``          0 insert, 1 score, 2 over
``s[SUPPLY + seat]``  marbles in supply
``s[SCORE + seat]``   points
``s[SKIPS + seat]``   handicap skips still pending
``s[COUNT]``          actions played (insertions and scorings) since the start or set-up
``s[LIMIT]``          the action limit, 0 for none
``s[PLAYERS]``        2, 3 or 4
``s[VARIANT]``        0 Express, 1 Expert, 2 Extreme
``s[WINNERS]``        when over: bit ``seat`` set for each winner (several: a draw)
``s[REASON]``         when over: an index into :data:`REASONS`
====================  =================================================================

Actions are integers: ``0..27`` the insertions in canonical order (L1..L7, R1..R7,
Ta..Tg, Ba..Bg), and ``28 + 2 * segment + end`` a scoring, where ``segment`` indexes
the table of every straight segment of 3 to 7 cells (:data:`SEG_MASK` and friends;
``SEG_LO`` is its lowest cell, ``SEG_HI`` its highest) and ``end`` says which end
marble stays with 3-4 players (0: ``SEG_LO``, 1: ``SEG_HI``); with 2 players both ends
stay and ``end`` is always 0.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from shiftago.core.geometry import (
    BOARD_MASK,
    DIRECTIONS,
    ENTRY_CELLS,
    LANE_MASKS,
    PUSH_STEPS,
    SIZE,
)
from shiftago.core.outcome import EndReason
from shiftago.core.rules import MARBLES_PER_PLAYER, WINNING_POINTS, Rules, Variant

# --- state layout -----------------------------------------------------------------
BOARD: Final = 0
TURN: Final = 4
PHASE: Final = 5
SUPPLY: Final = 6
SCORE: Final = 10
SKIPS: Final = 14
COUNT: Final = 18
LIMIT: Final = 19
PLAYERS: Final = 20
VARIANT: Final = 21
WINNERS: Final = 22
REASON: Final = 23
STATE_SIZE: Final = 24

#: Action codes below this are insertions (one per lane end: L1..L7, R1..R7, Ta..Tg,
#: Ba..Bg); this one and above are scorings (see the module text).
INSERTIONS: Final = 28

INSERT: Final = 0
SCORE_PHASE: Final = 1
OVER: Final = 2

EXPRESS: Final = 0
EXPERT: Final = 1
EXTREME: Final = 2
VARIANTS: Final[tuple[Variant, ...]] = (Variant.EXPRESS, Variant.EXPERT, Variant.EXTREME)

#: End reasons by index (``s[REASON]``).
REASONS: Final[tuple[EndReason, ...]] = tuple(EndReason)
R_LINE: Final = REASONS.index(EndReason.LINE)
R_POINTS: Final = REASONS.index(EndReason.POINTS)
R_FULL: Final = REASONS.index(EndReason.BOARD_FULL)
R_NO_MARBLES: Final = REASONS.index(EndReason.NO_MARBLES)
R_LIMIT: Final = REASONS.index(EndReason.ACTION_LIMIT)

#: Room for every legal action: 28 insertions, or 2 scorings per line (a seat's 22
#: marbles make at most 29 lines of 3 or more).
MAX_ACTIONS: Final = 128
MARBLES: Final = MARBLES_PER_PLAYER
WIN_POINTS: Final = WINNING_POINTS

# --- geometry (the core's tables as arrays) ------------------------------------------
FULL: Final = np.uint64(BOARD_MASK)
LANE_MASK: Final = np.array(LANE_MASKS, dtype=np.uint64)
ENTRY_BIT: Final = np.array([1 << c for c in ENTRY_CELLS], dtype=np.uint64)
#: The push step's size in bits and whether it goes towards higher bits.
STEP_SIZE: Final = np.array([abs(s) for s in PUSH_STEPS], dtype=np.uint64)
STEP_UP: Final = np.array([s > 0 for s in PUSH_STEPS], dtype=np.bool_)
DIRS: Final = np.array(DIRECTIONS, dtype=np.uint64)


# --- rules by variant and "many players" (3-4) -------------------------------------
def _rules_tables() -> tuple[np.ndarray, np.ndarray]:
    points = np.full((3, 2, 8), -1, dtype=np.int64)
    min_line = np.zeros((3, 2), dtype=np.int64)
    for v, variant in enumerate(VARIANTS):
        for many, players in ((0, 2), (1, 3)):
            rules = Rules(variant, players)
            min_line[v, many] = rules.min_line
            for length, value in rules.points_table.items():
                points[v, many, length] = value
    return points, min_line


#: ``POINTS[variant, many, length]``: points of a line (-1: not a scoring length).
#: ``MIN_LINE[variant, many]``: the winning length in Express, the shortest scoring
#: line otherwise.
POINTS, MIN_LINE = _rules_tables()


# --- straight segments of 3 to 7 cells ---------------------------------------------------
def _segments() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    moves = {1: (1, 0), 8: (0, 1), 9: (1, 1), 7: (-1, 1)}  # bit step -> (file, rank)
    mask: list[int] = []
    lo: list[int] = []
    hi: list[int] = []
    length: list[int] = []
    seg_id = np.full((len(DIRECTIONS), 64, SIZE + 1), -1, dtype=np.int64)
    for d_index, d in enumerate(DIRECTIONS):
        df, dr = moves[d]
        for r in range(SIZE):
            for f in range(SIZE):
                for n in range(3, SIZE + 1):
                    ef, er = f + df * (n - 1), r + dr * (n - 1)
                    if not (0 <= ef < SIZE and 0 <= er < SIZE):
                        continue
                    start = 8 * r + f
                    cells = [start + k * d for k in range(n)]
                    seg_id[d_index, start, n] = len(mask)
                    mask.append(sum(1 << c for c in cells))
                    lo.append(cells[0])
                    hi.append(cells[-1])
                    length.append(n)
    return (
        np.array(mask, dtype=np.uint64),
        np.array(lo, dtype=np.int64),
        np.array(hi, dtype=np.int64),
        np.array(length, dtype=np.int64),
        seg_id,
    )


#: Every straight segment: its cells, lowest and highest cell, length; ``SEG_ID[d, start,
#: length]`` finds a segment by its direction index, lowest cell and length.
SEG_MASK, SEG_LO, SEG_HI, SEG_LEN, SEG_ID = _segments()
SEGMENTS: Final = len(SEG_MASK)
#: One more than the largest action code: the insertions, then two scorings per segment.
ACTION_CODES: Final = INSERTIONS + 2 * SEGMENTS

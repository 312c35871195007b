"""Zobrist keys of kernel states, for the transposition table.

The boards are hashed a rank at a time (tabulation hashing: one random number per seat,
rank and byte value, the bytes of the one bitboard layout), then the seat to act, the
phase, supplies, points, handicap skips and, when an action limit is set, the action
count. The random numbers come from a fixed seed, so keys (and node counts) repeat.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    LIMIT,
    PHASE,
    PLAYERS,
    SCORE,
    SKIPS,
    SUPPLY,
    TURN,
)

_RNG = np.random.default_rng(0x5817A60)


def _randoms(*shape: int) -> np.ndarray:
    return _RNG.integers(0, 2**64 - 1, size=shape, dtype=np.uint64, endpoint=True)


#: ``Z_BOARD[seat, rank, byte]``: the key of a seat's marbles on one rank.
Z_BOARD: Final = _randoms(4, 7, 256)
Z_TURN: Final = _randoms(4)
Z_PHASE: Final = _randoms(3)
Z_SUPPLY: Final = _randoms(4, 32)
Z_SCORE: Final = _randoms(4, 32)
Z_SKIPS: Final = _randoms(4, 8)
Z_COUNT: Final = _randoms(1)[0]

_BYTE = np.uint64(0xFF)
_U8 = np.uint64(8)


@njit(cache=True, nogil=True)
def zobrist(s: np.ndarray) -> np.uint64:
    """The key of state ``s``."""
    key = Z_TURN[np.int64(s[TURN])] ^ Z_PHASE[np.int64(s[PHASE])]
    for seat in range(np.int64(s[PLAYERS])):
        b = s[BOARD + seat]
        for rank in range(7):
            key ^= Z_BOARD[seat, rank, np.int64(b & _BYTE)]
            b >>= _U8
        key ^= Z_SUPPLY[seat, np.int64(s[SUPPLY + seat]) & 31]
        key ^= Z_SCORE[seat, np.int64(s[SCORE + seat]) & 31]
        key ^= Z_SKIPS[seat, np.int64(s[SKIPS + seat]) & 7]
    if s[LIMIT] != np.uint64(0):
        key ^= Z_COUNT * (s[COUNT] + np.uint64(1))
    return key

"""Random playouts that own their whole loop, and the move-generation count of the bench.

The generator is xorshift64 (13, 7, 17) inside numba; a choice among ``n`` actions is
``((x >> 32) * n) >> 32``, as in ``../shared/bench/cref_playouts.c``. Results are
counted per seat: ``out[seat]`` single wins, ``out[4]`` draws (shared results),
``out[5]`` actions played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .moves import U0, U1, apply_action, legal_actions, occupied
from .tables import (
    BOARD,
    COUNT,
    EXPRESS,
    FULL,
    LANE_MASK,
    LIMIT,
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    SKIPS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    VARIANT,
    WINNERS,
)

U7 = np.uint64(7)
U13 = np.uint64(13)
U17 = np.uint64(17)
U32 = np.uint64(32)
DRAWS = 4
ACTIONS = 5


@njit(cache=True, nogil=True)
def xorshift(x: np.uint64) -> np.uint64:
    x ^= x << U13
    x ^= x >> U7
    x ^= x << U17
    return x


@njit(cache=True, nogil=True)
def pick(x: np.uint64, n: int) -> int:
    """A number below ``n`` from the generator value ``x``."""
    return np.int64(((x >> U32) * np.uint64(n)) >> U32)


@njit(cache=True, nogil=True)
def seed_of(seed: int) -> np.uint64:
    x = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(88172645463325252)
    return x if x != U0 else U1


@njit(cache=True, nogil=True)
def tally(out: np.ndarray, winners: int) -> None:
    if winners & (winners - 1):
        out[DRAWS] += 1
    else:
        for seat in range(4):
            if winners == 1 << seat:
                out[seat] += 1


@njit(cache=True, nogil=True)
def express2_fast(s: np.ndarray) -> bool:
    """Whether the 2-player Express fast path plays exactly as the general rules here:
    no skips pending and no special case now or later."""
    if np.int64(s[VARIANT]) != EXPRESS or np.int64(s[PLAYERS]) != 2 or s[PHASE] != U0:
        return False
    if s[SKIPS] != U0 or s[SKIPS + 1] != U0:
        return False
    other = s[BOARD + 1 - np.int64(s[TURN])]
    return occupied(s) == U0 or other != U0


@njit(cache=True, nogil=True)
def has_five(b: np.uint64) -> bool:
    for d in (np.uint64(1), np.uint64(8), np.uint64(9), np.uint64(7)):
        two = b & (b >> d)
        if two & (two >> (np.uint64(2) * d)) & (b >> (np.uint64(4) * d)):
            return True
    return False


@njit(cache=True, nogil=True)
def playout_express2(s: np.ndarray, x: np.uint64, moves: np.ndarray) -> tuple[int, np.uint64, int]:
    """One random 2-player Express game from ``s`` (see :func:`express2_fast`):
    the winners mask, the generator and the actions played."""
    turn = np.int64(s[TURN])
    me = s[BOARD + turn]
    opp = s[BOARD + 1 - turn]
    my_supply = s[SUPPLY + turn]
    opp_supply = s[SUPPLY + 1 - turn]
    count = s[COUNT]
    limit = s[LIMIT]
    played = 0
    while True:
        occ = me | opp
        if occ == FULL or my_supply == U0 or (limit != U0 and count >= limit and played > 0):
            return 3, x, played
        n = 0
        for i in range(28):
            if LANE_MASK[i] & ~occ:
                moves[n] = i
                n += 1
        x = xorshift(x)
        i = moves[pick(x, n)]
        mask = LANE_MASK[i]
        free = mask & ~occ
        lane = i % 7
        if i < 7:
            run = ((free & (~free + U1)) - U1) & mask
            me = (me & ~run) | ((me & run) << U1) | (U1 << np.uint64(8 * lane))
            opp = (opp & ~run) | ((opp & run) << U1)
        elif i < 14:
            f = free | (free >> U1)
            f |= f >> np.uint64(2)
            f |= f >> np.uint64(4)
            run = mask & ~f
            me = (me & ~run) | ((me & run) >> U1) | (U1 << np.uint64(8 * lane + 6))
            opp = (opp & ~run) | ((opp & run) >> U1)
        elif i < 21:
            f = free | (free >> np.uint64(8))
            f |= f >> np.uint64(16)
            f |= f >> U32
            run = mask & ~f
            me = (me & ~run) | ((me & run) >> np.uint64(8)) | (U1 << np.uint64(48 + lane))
            opp = (opp & ~run) | ((opp & run) >> np.uint64(8))
        else:
            run = ((free & (~free + U1)) - U1) & mask
            me = (me & ~run) | ((me & run) << np.uint64(8)) | (U1 << np.uint64(lane))
            opp = (opp & ~run) | ((opp & run) << np.uint64(8))
        my_supply -= U1
        count += U1
        played += 1
        if has_five(me):
            return (1 << turn), x, played
        me, opp = opp, me
        my_supply, opp_supply = opp_supply, my_supply
        turn = 1 - turn


@njit(cache=True, nogil=True)
def random_playouts(
    start: np.ndarray, games: int, seed: int, allow_fast: bool = True
) -> np.ndarray:
    """Play ``games`` uniformly random games from ``start``; counts as in the module doc.

    2-player Express takes a fast path where it plays exactly as the general loop
    (the same games from the same seed); ``allow_fast=False`` turns it off."""
    out = np.zeros(6, dtype=np.int64)
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    s = np.empty(STATE_SIZE, dtype=np.uint64)
    x = seed_of(seed)
    fast = allow_fast and express2_fast(start)
    for _ in range(games):
        if start[PHASE] == np.uint64(OVER):
            tally(out, np.int64(start[WINNERS]))
            continue
        if fast:
            winners, x, played = playout_express2(start, x, moves)
            tally(out, winners)
            out[ACTIONS] += played
            continue
        s[:] = start
        while s[PHASE] != np.uint64(OVER):
            n = legal_actions(s, moves)
            x = xorshift(x)
            apply_action(s, moves[pick(x, n)])
            out[ACTIONS] += 1
        tally(out, np.int64(s[WINNERS]))
    return out


@njit(cache=True, nogil=True)
def count_moves(positions: np.ndarray, rounds: int) -> int:
    """Move generation plus line test: for each position (rows of ``positions``), every
    legal action generated and played on a copy (the play includes the line test)."""
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    s = np.empty(STATE_SIZE, dtype=np.uint64)
    total = 0
    for _ in range(rounds):
        for p in range(positions.shape[0]):
            n = legal_actions(positions[p], moves)
            for j in range(n):
                s[:] = positions[p]
                apply_action(s, moves[j])
                total += 1
    return total

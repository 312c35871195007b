"""Move generation and transitions of the kernel: every variant, 2-4 players.

The functions work on a state array (see :mod:`.tables`) in place and follow
:mod:`shiftago.core.state` step for step: insertion (the push of the run at the lane's
entry, the special case while only the mover's marbles are on the board), the line
test, the score phase and its options, handicap skips, and the end checks when a turn
begins (board full, empty supply, action limit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .tables import (
    BOARD,
    COUNT,
    DIRS,
    ENTRY_BIT,
    EXPRESS,
    FULL,
    INSERT,
    INSERTIONS,
    LANE_MASK,
    LIMIT,
    MIN_LINE,
    OVER,
    PHASE,
    PLAYERS,
    POINTS,
    R_FULL,
    R_LIMIT,
    R_LINE,
    R_NO_MARBLES,
    R_POINTS,
    REASON,
    SCORE,
    SCORE_PHASE,
    SEG_HI,
    SEG_ID,
    SEG_LEN,
    SEG_LO,
    SEG_MASK,
    SKIPS,
    STEP_SIZE,
    STEP_UP,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
    WINNERS,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U4 = np.uint64(4)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
U56 = np.uint64(56)


@njit(cache=True, nogil=True)
def popcount(x: np.uint64) -> int:
    x = x - ((x >> U1) & M1)
    x = (x & M2) + ((x >> U2) & M2)
    x = (x + (x >> U4)) & M4
    return np.int64((x * H01) >> U56)


@njit(cache=True, nogil=True)
def lowest_index(x: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero ``x``."""
    return popcount((x & (~x + U1)) - U1)


@njit(cache=True, nogil=True)
def run_starts(b: np.uint64, d: np.uint64, length: int) -> np.uint64:
    """The cells of ``b`` where a straight run of ``length`` (3-7) or more begins,
    going ``d`` bits per step."""
    two = b & (b >> d)
    if length == 3:
        return two & (b >> (U2 * d))
    four = two & (two >> (U2 * d))
    if length == 4:
        return four
    if length == 5:
        return four & (b >> (U4 * d))
    if length == 6:
        return four & (two >> (U4 * d))
    return four & (two >> (U4 * d)) & (b >> (np.uint64(6) * d))


@njit(cache=True, nogil=True)
def has_run(b: np.uint64, length: int) -> bool:
    found = False
    for k in range(4):
        found |= run_starts(b, DIRS[k], length) != U0
    return found


@njit(cache=True, nogil=True)
def occupied(s: np.ndarray) -> np.uint64:
    return s[BOARD] | s[BOARD + 1] | s[BOARD + 2] | s[BOARD + 3]


@njit(cache=True, nogil=True)
def push_run(i: int, occ: np.uint64) -> np.uint64:
    """The marbles insertion ``i`` moves (the lane must have an empty cell)."""
    mask = LANE_MASK[i]
    free = mask & ~occ
    if STEP_UP[i]:
        first = free & (~free + U1)
        return (first - U1) & mask
    step = STEP_SIZE[i]
    x = free | (free >> step)
    x |= x >> (U2 * step)
    x |= x >> (U4 * step)
    return mask & ~x


@njit(cache=True, nogil=True)
def shifted(bits: np.uint64, i: int) -> np.uint64:
    """``bits`` moved one step the way insertion ``i`` pushes."""
    if STEP_UP[i]:
        return bits << STEP_SIZE[i]
    return bits >> STEP_SIZE[i]


@njit(cache=True, nogil=True)
def after_push(bits: np.uint64, run: np.uint64, i: int) -> np.uint64:
    """A seat's board ``bits`` after insertion ``i`` pushes ``run`` (its
    :func:`push_run`): the seat's marbles in the run move one step along the lane."""
    moved = bits & run
    return (bits ^ moved) | shifted(moved, i)


@njit(cache=True, nogil=True)
def after_insertion(mine: np.uint64, run: np.uint64, i: int) -> np.uint64:
    """The mover's board ``mine`` after its insertion ``i`` pushes ``run`` (its
    :func:`push_run`): pushed like every board, plus the new marble at the lane's end.

    The one place that says what an insertion does to a board, for the transition and
    for every test that looks one insertion ahead (the special case, greedy playouts,
    the immediate-win test of the search)."""
    return after_push(mine, run, i) | ENTRY_BIT[i]


@njit(cache=True, nogil=True)
def gen_insertions(s: np.ndarray, out: np.ndarray) -> int:
    occ = occupied(s)
    n = 0
    for i in range(INSERTIONS):
        if LANE_MASK[i] & ~occ:
            out[n] = i
            n += 1
    mine = s[BOARD + np.int64(s[TURN])]
    if occ != U0 and occ == mine:
        # The special case: only the mover's marbles are on the board; they must stay
        # apart unless no insertion can keep them apart.
        k = 0
        for j in range(n):
            i = out[j]
            b = after_insertion(mine, push_run(i, occ), i)
            if (b & (b << U1)) == U0 and (b & (b << np.uint64(8))) == U0:
                out[k] = i
                k += 1
        if k > 0:
            n = k
    return n


@njit(cache=True, nogil=True)
def gen_scorings(s: np.ndarray, out: np.ndarray) -> int:
    """The scorings of the mover's maximal lines of the scoring length or more."""
    players = np.int64(s[PLAYERS])
    many = 1 if players > 2 else 0
    mine = s[BOARD + np.int64(s[TURN])]
    shortest = MIN_LINE[np.int64(s[VARIANT]), many]
    n = 0
    for k in range(4):
        d = DIRS[k]
        starts = run_starts(mine, d, shortest) & ~(mine << d)
        while starts != U0:
            cell = lowest_index(starts)
            starts &= starts - U1
            length = shortest
            pos = cell + length * np.int64(d)
            while pos < 64 and (mine >> np.uint64(pos)) & U1:
                length += 1
                pos += np.int64(d)
            code = INSERTIONS + 2 * SEG_ID[k, cell, length]
            out[n] = code
            n += 1
            if many:
                out[n] = code + 1
                n += 1
    return n


@njit(cache=True, nogil=True)
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out``; return how many (0 when over)."""
    phase = np.int64(s[PHASE])
    if phase == INSERT:
        return gen_insertions(s, out)
    if phase == SCORE_PHASE:
        return gen_scorings(s, out)
    return 0


@njit(cache=True, nogil=True)
def end_game(s: np.ndarray, winners: int, reason: int) -> None:
    s[PHASE] = np.uint64(OVER)
    s[WINNERS] = np.uint64(winners)
    s[REASON] = np.uint64(reason)


@njit(cache=True, nogil=True)
def final_winners(s: np.ndarray) -> int:
    """Who wins a game that ends without a win: all (a draw) in Express, else top points."""
    players = np.int64(s[PLAYERS])
    if np.int64(s[VARIANT]) == EXPRESS:
        return (1 << players) - 1
    best = np.uint64(0)
    for seat in range(players):
        best = max(best, s[SCORE + seat])
    winners = 0
    for seat in range(players):
        if s[SCORE + seat] == best:
            winners |= 1 << seat
    return winners


@njit(cache=True, nogil=True)
def begin_turn(s: np.ndarray, seat: int, at_limit: bool, last_actor: int) -> None:
    """The turn comes to ``seat``: use up handicap skips, then check the end."""
    players = np.int64(s[PLAYERS])
    while s[SKIPS + seat] != U0:
        s[SKIPS + seat] -= U1
        seat = (seat + 1) % players
    reason = -1
    if occupied(s) == FULL:
        reason = R_FULL
    elif s[SUPPLY + seat] == U0:
        reason = R_NO_MARBLES
    elif at_limit:
        reason = R_LIMIT
    if reason < 0:
        s[TURN] = np.uint64(seat)
        s[PHASE] = np.uint64(INSERT)
    else:
        s[TURN] = np.uint64(last_actor)
        end_game(s, final_winners(s), reason)


@njit(cache=True, nogil=True)
def count_action(s: np.ndarray) -> bool:
    """Count one more action; whether it is the last the action limit allows."""
    s[COUNT] += U1
    return s[LIMIT] != U0 and s[COUNT] >= s[LIMIT]


@njit(cache=True, nogil=True)
def apply_insertion(s: np.ndarray, i: int) -> None:
    players = np.int64(s[PLAYERS])
    mover = np.int64(s[TURN])
    run = push_run(i, occupied(s))
    for seat in range(players):
        if seat != mover:
            s[BOARD + seat] = after_push(s[BOARD + seat], run, i)
    mine = after_insertion(s[BOARD + mover], run, i)
    s[BOARD + mover] = mine
    s[SUPPLY + mover] -= U1
    at_limit = count_action(s)
    variant = np.int64(s[VARIANT])
    shortest = MIN_LINE[variant, 1 if players > 2 else 0]
    if variant == EXPRESS:
        if has_run(mine, shortest):
            end_game(s, 1 << mover, R_LINE)
            return
    elif has_run(mine, shortest):
        s[PHASE] = np.uint64(SCORE_PHASE)
        return
    begin_turn(s, (mover + 1) % players, at_limit, mover)


@njit(cache=True, nogil=True)
def scored_cells(players: int, code: int) -> np.uint64:
    """The marbles scoring ``code`` takes off the board."""
    k = code - INSERTIONS
    seg = k >> 1
    lo = U1 << np.uint64(SEG_LO[seg])
    hi = U1 << np.uint64(SEG_HI[seg])
    if players == 2:
        return SEG_MASK[seg] & ~(lo | hi)
    if k & 1:
        return SEG_MASK[seg] & ~hi
    return SEG_MASK[seg] & ~lo


@njit(cache=True, nogil=True)
def apply_scoring(s: np.ndarray, code: int) -> None:
    players = np.int64(s[PLAYERS])
    mover = np.int64(s[TURN])
    removed = scored_cells(players, code)
    s[BOARD + mover] &= ~removed
    s[SUPPLY + mover] += np.uint64(popcount(removed))
    length = SEG_LEN[(code - INSERTIONS) >> 1]
    points = POINTS[np.int64(s[VARIANT]), 1 if players > 2 else 0, length]
    s[SCORE + mover] += np.uint64(points)
    at_limit = count_action(s)
    if s[SCORE + mover] >= np.uint64(WIN_POINTS):
        end_game(s, 1 << mover, R_POINTS)
        return
    begin_turn(s, mover, at_limit, mover)


@njit(cache=True, nogil=True)
def apply_action(s: np.ndarray, code: int) -> None:
    """Play a legal action (not checked) on ``s`` in place."""
    if code < INSERTIONS:
        apply_insertion(s, code)
    else:
        apply_scoring(s, code)

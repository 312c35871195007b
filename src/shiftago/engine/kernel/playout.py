"""Playouts: games played to the end from a kernel state, and the bench's counts.

:func:`play_out` is the one loop that plays a game out, under a policy of
:mod:`.policy` (random for :func:`random_playouts` and the bench, greedy for the MCTS's
:mod:`shiftago.engine.mcts.rollout`) with the generator of :mod:`.rng`. 2-player Express
takes a fast path on two local bitboards (:func:`express2_loop`) where it plays exactly
as the general loop: the same games from the same generator value.

Numba inlines the loops into their callers (``inline="always"``), where the policy is
known, so that a random playout is compiled without the greedy tests: one source, and
each caller as fast as its own loop would be.

:func:`random_playouts` counts the results of many random games per seat: ``out[seat]``
single wins, ``out[DRAWS]`` draws (shared results), ``out[ACTIONS]`` actions played.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from .moves import (
    U0,
    U1,
    after_insertion,
    after_push,
    apply_action,
    legal_actions,
    occupied,
    push_run,
)
from .policy import (
    BLOCKING,
    GREEDY_MASK,
    RANDOM,
    blocking_choice,
    can_win,
    longest_scoring,
    near_run,
)
from .rng import pick, seed_of, xorshift
from .tables import (
    BOARD,
    COUNT,
    EXPRESS,
    FULL,
    INSERTIONS,
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

#: Slots of :func:`random_playouts`' counts after the four seats' wins.
DRAWS: Final = 4
ACTIONS: Final = 5
#: The winners mask of a 2-player draw.
BOTH: Final = 3
#: The line of a 2-player Express win.
FIVE: Final = 5
_OVER = np.uint64(OVER)


@njit(cache=True, nogil=True)
def tally(out: np.ndarray, winners: int) -> None:
    """Count one game's ``winners`` mask into ``out``: a sole winner or a draw."""
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
    """Whether ``b`` holds a straight line of five (the 2-player Express win)."""
    for d in (np.uint64(1), np.uint64(8), np.uint64(9), np.uint64(7)):
        two = b & (b >> d)
        if two & (two >> (np.uint64(2) * d)) & (b >> (np.uint64(4) * d)):
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def express2_loop(
    s: np.ndarray, x: np.uint64, moves: np.ndarray, win_first: bool
) -> tuple[int, np.uint64, int]:
    """:func:`play_out` where :func:`express2_fast` holds, on two local bitboards
    (``s`` is read, not changed); ``win_first`` is the greedy policy's rule (a win at
    once ends the game as that win), a constant in each of the two functions below."""
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
            return BOTH, x, played
        n = 0
        for i in range(INSERTIONS):
            if LANE_MASK[i] & ~occ:
                moves[n] = i
                n += 1
        if win_first and near_run(me, FIVE):
            for j in range(n):
                i = moves[j]
                if has_five(after_insertion(me, push_run(i, occ), i)):
                    return 1 << turn, x, played
        x = xorshift(x)
        i = moves[pick(x, n)]
        run = push_run(i, occ)
        me = after_insertion(me, run, i)
        opp = after_push(opp, run, i)
        my_supply -= U1
        count += U1
        played += 1
        if has_five(me):
            return 1 << turn, x, played
        me, opp = opp, me
        my_supply, opp_supply = opp_supply, my_supply
        turn = 1 - turn


@njit(cache=True, nogil=True)
def express2_random(s: np.ndarray, x: np.uint64, moves: np.ndarray) -> tuple[int, np.uint64, int]:
    """:func:`express2_loop` under the random policy."""
    return express2_loop(s, x, moves, False)


@njit(cache=True, nogil=True)
def express2_win_first(
    s: np.ndarray, x: np.uint64, moves: np.ndarray
) -> tuple[int, np.uint64, int]:
    """:func:`express2_loop` under the greedy policy."""
    return express2_loop(s, x, moves, True)


@njit(cache=True, nogil=True, inline="always")
def play_out(
    s: np.ndarray,
    x: np.uint64,
    moves: np.ndarray,
    policy: int,
    fast: bool = True,
    block_plies: int = 0,
    horizon: int = 0,
) -> tuple[int, np.uint64, int]:
    """Play the game of ``s`` to its end under ``policy`` (:mod:`.policy`), drawing from
    the generator value ``x``: the winners mask, the generator and the actions played.

    ``s`` is scratch (what it holds afterwards is not the final state on the fast path
    or after a greedy win at once); ``moves`` is room for the legal actions;
    ``fast=False`` turns the 2-player Express fast path off. With a ``horizon`` above 0
    the playout stops after that many actions of an unfinished game and answers the
    winners mask 0 (``s`` then holds the position reached, for an evaluation); the
    2-player Express fast path and a greedy Express win at once ignore it."""
    if s[PHASE] == _OVER:
        return np.int64(s[WINNERS]), x, 0
    greedy = policy != RANDOM
    blocking = policy == BLOCKING and np.int64(s[PLAYERS]) > 2
    if fast and express2_fast(s):
        if greedy:
            return express2_win_first(s, x, moves)
        return express2_random(s, x, moves)
    express = np.int64(s[VARIANT]) == EXPRESS
    always = np.int64(s[PLAYERS]) == 2  # the greedy scoring rule: every time, or 3 in 4
    played = 0
    while s[PHASE] != _OVER:
        if played == horizon and horizon > 0:
            return 0, x, played
        n = legal_actions(s, moves)
        j = -1
        if greedy:
            if express:
                if can_win(s, moves, n):
                    return 1 << np.int64(s[TURN]), x, played
                if blocking and played < block_plies:
                    j, x = blocking_choice(s, moves, n, x)
            else:
                if not always:
                    x = xorshift(x)
                if always or x & GREEDY_MASK:
                    j = longest_scoring(s, moves, n)
        if j < 0:
            x = xorshift(x)
            j = pick(x, n)
        apply_action(s, moves[j])
        played += 1
    return np.int64(s[WINNERS]), x, played


@njit(cache=True, nogil=True)
def random_playouts(
    start: np.ndarray, games: int, seed: int, allow_fast: bool = True
) -> np.ndarray:
    """Play ``games`` uniformly random games from ``start``; counts as in the module doc.

    ``allow_fast=False`` turns the 2-player Express fast path off (the same games)."""
    out = np.zeros(6, dtype=np.int64)
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    s = np.empty(STATE_SIZE, dtype=np.uint64)
    x = seed_of(seed)
    fast = allow_fast and express2_fast(start)
    for _ in range(games):
        if fast:  # decided once: the fast path only reads the start, so no copy per game
            winners, x, played = express2_random(start, x, moves)
        else:
            s[:] = start
            winners, x, played = play_out(s, x, moves, RANDOM, False)
        tally(out, winners)
        out[ACTIONS] += played
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

"""Candidate positions for puzzles: from played games, and games the engine plays itself.

Puzzles hide where a game is decided: the positions just before the winner's last few
actions, and the positions where a seat could have won at once and did not. Self-play
makes such games cheaply with the kernel: each seat takes a win at once most of the
time (sometimes it misses one, as people do), avoids handing the next seat a win at
once, and otherwise plays towards its own lines with some chance. A seeded
:class:`random.Random` makes every game, and so every harvest, repeatable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from shiftago.core import Game, Rules, State
from shiftago.engine.kernel import action_buffer, apply_action, from_state, legal_actions
from shiftago.engine.kernel.policy import can_win, longest_scoring
from shiftago.engine.kernel.tables import (
    BOARD,
    EXPRESS,
    LIMIT,
    OVER,
    PHASE,
    PLAYERS,
    TURN,
    VARIANT,
)
from shiftago.engine.search.evaluate import windows

from .prover import reached

#: How many of the last positions of a game are candidates (every seat's).
LAST_POSITIONS = 12
#: Self-play's action limit (Extreme has no end of its own).
SELF_PLAY_LIMIT = 300
#: The chance that a seat takes a win at once, a scoring line, or the best-looking move.
TAKE_WIN = 0.8
TAKE_BEST = 0.6


def _after(s: np.ndarray, code: int) -> np.ndarray:
    child = s.copy()
    apply_action(child, code)
    return child


def _gives_win(child: np.ndarray, buffer: np.ndarray) -> bool:
    """Whether the seat to act in ``child`` (Express) can win at once."""
    if int(child[PHASE]) == OVER:
        return False
    n = legal_actions(child, buffer)
    return bool(can_win(child, buffer, n))


def _choose(s: np.ndarray, rng: random.Random, buffer: np.ndarray) -> int:
    mover = int(s[TURN])
    n = legal_actions(s, buffer)
    codes = [int(c) for c in buffer[:n]]
    children = [_after(s, c) for c in codes]
    wins = [c for c, child in zip(codes, children, strict=True) if _ends_won(child, mover)]
    if wins and rng.random() < TAKE_WIN:
        return rng.choice(wins)
    if int(s[VARIANT]) != EXPRESS:
        best = longest_scoring(s, buffer, n)
        if best >= 0 and rng.random() < TAKE_WIN:
            return int(buffer[best])
    elif rng.random() < TAKE_WIN:
        reply = action_buffer()
        safe = [
            (c, child)
            for c, child in zip(codes, children, strict=True)
            if int(child[TURN]) == mover or not _gives_win(child, reply)
        ]
        if safe:
            codes = [c for c, _ in safe]
            children = [child for _, child in safe]
    if rng.random() < TAKE_BEST:
        players = int(s[PLAYERS])
        others = np.uint64(0)
        for seat in range(players):
            if seat != mover:
                others |= s[BOARD + seat]

        def value(child: np.ndarray) -> int:
            return int(windows(child[BOARD + mover], others, False))

        scored = sorted(zip(codes, children, strict=True), key=lambda pair: -value(pair[1]))
        return rng.choice(scored[:3])[0]
    return rng.choice(codes)


def _ends_won(child: np.ndarray, mover: int) -> bool:
    return int(child[PHASE]) == OVER and bool(reached(child, mover))


def self_play(rules: Rules, rng: random.Random) -> list[np.ndarray]:
    """One game of self-play: the kernel state before each action, then the last one."""
    s = from_state(State.initial(rules, rng.randrange(rules.players)))
    s[LIMIT] = SELF_PLAY_LIMIT
    buffer = action_buffer()
    states = [s.copy()]
    while int(s[PHASE]) != OVER:
        apply_action(s, _choose(s, rng, buffer))
        states.append(s.copy())
    return states


def game_states(game: Game) -> list[np.ndarray]:
    """The kernel states of a played game (from a record)."""
    return [from_state(state) for state in game.states]


def candidates(states: list[np.ndarray]) -> Iterator[np.ndarray]:
    """The candidate positions of one game: each of its last positions, and each
    earlier one where the seat to act could win at once."""
    buffer = action_buffer()
    last = len(states) - 1
    for index, s in enumerate(states):
        if int(s[PHASE]) == OVER:
            continue
        if index >= last - LAST_POSITIONS:
            yield s
            continue
        mover = int(s[TURN])
        n = legal_actions(s, buffer)
        if any(_ends_won(_after(s, int(c)), mover) for c in buffer[:n]):
            yield s

"""Between the core and the kernel: states, actions and their notation (for checking)."""

from __future__ import annotations

import numpy as np

from shiftago.core.actions import INSERTIONS as INSERTION_ACTIONS
from shiftago.core.actions import Action, Insertion, Scoring
from shiftago.core.outcome import Outcome
from shiftago.core.rules import Rules
from shiftago.core.state import Phase, State

from .tables import (
    BOARD,
    COUNT,
    INSERTIONS,
    LIMIT,
    OVER,
    PHASE,
    PLAYERS,
    REASON,
    REASONS,
    SCORE,
    SEG_HI,
    SEG_LO,
    SEGMENTS,
    SKIPS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    VARIANT,
    VARIANTS,
    WINNERS,
)

_PHASES = (Phase.INSERT, Phase.SCORE, Phase.OVER)
#: The segment of each pair of end cells (lowest cell, highest cell).
_SEGMENT_BY_ENDS = {(int(SEG_LO[k]), int(SEG_HI[k])): k for k in range(SEGMENTS)}


def from_state(state: State, actions_played: int = 0) -> np.ndarray:
    """The kernel array of a core state; ``actions_played`` counts towards the limit."""
    rules = state.rules
    s = np.zeros(STATE_SIZE, dtype=np.uint64)
    for seat in range(rules.players):
        s[BOARD + seat] = state.boards[seat]
        s[SUPPLY + seat] = state.supplies[seat]
        s[SCORE + seat] = state.scores[seat]
        s[SKIPS + seat] = state.skips[seat]
    s[TURN] = state.turn
    s[PHASE] = _PHASES.index(state.phase)
    s[COUNT] = actions_played
    s[LIMIT] = rules.action_limit or 0
    s[PLAYERS] = rules.players
    s[VARIANT] = VARIANTS.index(rules.variant)
    if state.outcome is not None:
        s[WINNERS] = sum(1 << seat for seat in state.outcome.winners)
        s[REASON] = REASONS.index(state.outcome.reason)
    return s


def to_state(s: np.ndarray, rules: Rules | None = None) -> State:
    """The core state of a kernel array (``rules`` adds the handicap and action limit)."""
    players = int(s[PLAYERS])
    variant = VARIANTS[int(s[VARIANT])]
    if rules is None:
        limit = int(s[LIMIT])
        rules = Rules(variant, players, action_limit=limit or None)

    def seats(base: int) -> tuple[int, ...]:
        return tuple(int(s[base + seat]) for seat in range(players))

    outcome = None
    phase = _PHASES[int(s[PHASE])]
    if phase is Phase.OVER:
        winners = tuple(seat for seat in range(players) if int(s[WINNERS]) >> seat & 1)
        outcome = Outcome(winners, players, REASONS[int(s[REASON])])
    return State(
        rules,
        seats(BOARD),
        int(s[TURN]),
        phase,
        seats(SUPPLY),
        seats(SCORE),
        seats(SKIPS),
        outcome,
    )


def to_position(s: np.ndarray) -> str:
    """The position string (PROTOCOL.md) of a kernel array."""
    return to_state(s).position()


def outcome_of(s: np.ndarray) -> Outcome | None:
    """The outcome of a finished game, else None."""
    return to_state(s).outcome if int(s[PHASE]) == OVER else None


def to_action(code: int, players: int) -> Action:
    """The core action of a kernel action code (2-player scorings canonically spelt)."""
    if code < INSERTIONS:
        return INSERTION_ACTIONS[code]
    seg, end = divmod(code - INSERTIONS, 2)
    lo, hi = int(SEG_LO[seg]), int(SEG_HI[seg])
    if players == 2:
        return Scoring(lo, hi).canonical_for_two()
    return Scoring(hi, lo) if end else Scoring(lo, hi)


def action_text(code: int, players: int) -> str:
    return str(to_action(code, players))


def from_action(action: Action | str, players: int) -> int:
    """The kernel code of a core action (or its notation)."""
    if isinstance(action, str):
        action = Action.parse(action)
    if isinstance(action, Insertion):
        return action.index
    if not isinstance(action, Scoring):
        raise TypeError(f"an action is an Action or its notation, not {action!r}")
    lo, hi = sorted((action.keep, action.other))
    seg = _SEGMENT_BY_ENDS[(lo, hi)]
    end = 1 if players > 2 and action.keep == hi else 0
    return INSERTIONS + 2 * seg + end

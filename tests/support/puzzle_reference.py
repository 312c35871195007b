"""An independent prover for tests: the AND/OR search of docs/puzzles.md written again
on the core's states (no kernel, no numba), slow but plain, to cross-check the engine's
prover on short puzzles."""

from __future__ import annotations

from shiftago.core import State
from shiftago.core.outcome import EndReason


def reaches(state: State, solver: int, n: int) -> bool:
    """Whether ``solver`` wins by a line or by points within ``n`` of its own actions,
    whatever every other seat plays."""
    outcome = state.outcome
    if outcome is not None:
        return tuple(outcome.winners) == (solver,) and outcome.reason in (
            EndReason.LINE,
            EndReason.POINTS,
        )
    if n == 0:
        return False
    if state.turn == solver:
        return any(reaches(state.after(a), solver, n - 1) for a in state.legal_actions())
    return all(reaches(state.after(a), solver, n) for a in state.legal_actions())


def winning_firsts(state: State, n: int) -> list[str]:
    """The first actions of the seat to act that reach the goal within ``n`` actions."""
    solver = state.turn
    return [str(a) for a in state.legal_actions() if reaches(state.after(a), solver, n - 1)]

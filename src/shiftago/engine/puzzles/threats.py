"""Threats against the solver: the "defend" theme (docs/puzzles.md, "Themes").

A puzzle is a *defend* puzzle when another seat threatens a win at once: if the
solver did nothing (a pass, which the rules do not have; here the turn is handed to
that seat), that seat would reach its goal with its next turn's actions alone (a line
in Express; in Expert and Extreme the insertion and the scorings that follow it, while
the turn stays its own). The solver must then win while parrying; a solution that
ends the game before any other seat acts (a win in 1, or an insertion and its scoring
in Expert) parries nothing, so only solutions where the defence acts are tagged.
"""

from __future__ import annotations

from typing import Final

from shiftago.core import Action, State
from shiftago.core.outcome import EndReason
from shiftago.core.state import Phase

#: The most actions of one turn a threat is looked for in (insertion, scoring, moving
#: again, scoring: a turn longer than that is no threat "at once" a player sees).
TURN_ACTIONS: Final = 4


def _wins_this_turn(state: State, seat: int, left: int) -> bool:
    """Whether ``seat`` (to act in ``state``) reaches its goal by its own actions
    before the turn passes, within ``left`` actions."""
    if left == 0:
        return False
    for action in state.legal_actions():
        after = state.after(action)
        outcome = after.outcome
        if outcome is not None:
            if outcome.winners == (seat,) and outcome.reason in (EndReason.LINE, EndReason.POINTS):
                return True
            continue
        if after.turn == seat and _wins_this_turn(after, seat, left - 1):
            return True
    return False


def threatening_seats(state: State) -> tuple[int, ...]:
    """The other seats that would win at once if the solver (the seat to act in
    ``state``, in its insertion phase) handed them the turn; none in a score phase,
    where the solver is in the middle of its turn."""
    if state.is_over or state.phase is not Phase.INSERT:
        return ()
    found = []
    for seat in range(state.rules.players):
        if seat == state.turn or state.supplies[seat] == 0:
            continue
        handed = State(
            state.rules,
            state.boards,
            seat,
            Phase.INSERT,
            state.supplies,
            state.scores,
            state.skips,
        )
        if _wins_this_turn(handed, seat, TURN_ACTIONS):
            found.append(seat)
    return tuple(found)


def is_defence(state: State, solution: list[str]) -> bool:
    """Whether the puzzle from ``state`` with the solution line ``solution`` is a
    defend puzzle: another seat threatens a win at once, and the defence acts before
    the solver's goal (the threat must be parried, not outrun)."""
    solver = state.turn
    now = state
    for text in solution:
        if now.turn != solver:
            return bool(threatening_seats(state))
        now = now.after(Action.parse(text))
    return False

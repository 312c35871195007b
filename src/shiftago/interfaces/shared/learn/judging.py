"""Judging a try: the player's actions in a step played through the core, each one
checked against the step's goal, and a refused action explained."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shiftago.core import INSERTIONS, Action, IllegalActionError, Insertion, Phase, State
from shiftago.core.geometry import push_run
from shiftago.interfaces.shared.learn.goals import Goal, Tried
from shiftago.interfaces.shared.learn.verdicts import (
    APART,
    LANE_FULL,
    NO_SUCH_LINE,
    NOTHING_TO_SCORE,
    OUT_OF_REACH,
    SCORE_FIRST,
    Status,
    Verdict,
    going_on,
)


def refusal(state: State, action: Action) -> Verdict:
    """A try the rules refuse, explained: a full lane, or the core's own reason."""
    values = {"action": str(action)}
    if isinstance(action, Insertion):
        if state.phase is Phase.SCORE:
            return Verdict(Status.MISSED, "score_first", SCORE_FIRST, values)
        if push_run(action.index, state.occupied) < 0:
            return Verdict(Status.MISSED, "lane_full", LANE_FULL, values)
        return Verdict(Status.MISSED, "apart", APART, values)
    if state.phase is Phase.SCORE:
        return Verdict(Status.MISSED, "no_such_line", NO_SUCH_LINE, values)
    return Verdict(Status.MISSED, "nothing_to_score", NOTHING_TO_SCORE, values)


class TryError(ValueError):
    """A try that is not one: an action that does not parse, an illegal action before
    the last, or actions after the step was already decided."""


def judge(start: State, goal: Goal, tried: Sequence[str]) -> tuple[Verdict, Tried]:
    """The verdict on the actions ``tried`` from ``start`` (in notation, in order), and
    what they did. A refused last action is explained (the state stays as it was)."""
    if not tried:
        raise TryError("a try has at least one action")
    states = [start]
    actions: list[Action] = []
    verdict: Verdict | None = None
    for number, text in enumerate(tried, 1):
        if verdict is not None:
            raise TryError(f"the step was decided by action {number - 1}; nothing follows it")
        try:
            action = Action.parse(text)
        except ValueError as error:
            raise TryError(f"action {number}: {error}") from None
        state = states[-1]
        try:
            played, after = state.step(action)
        except IllegalActionError as error:
            if number < len(tried):
                raise TryError(f"action {number}: {error}") from None
            return refusal(state, action), Tried(start, tuple(actions), tuple(states))
        actions.append(played)
        states.append(after)
        verdict = goal.check(Tried(start, tuple(actions), tuple(states)))
        if verdict is None and not Tried(start, tuple(actions), tuple(states)).still_acting:
            raise AssertionError("a goal decides once the player's turn ends")  # pragma: no cover
    done = Tried(start, tuple(actions), tuple(states))
    if verdict is None and not reachable(goal, done):
        verdict = Verdict(Status.MISSED, "out_of_reach", OUT_OF_REACH, {"action": str(actions[-1])})
    return (verdict if verdict is not None else going_on()), done


#: The most actions still to come that :func:`reachable` looks through (two: a push
#: and a scoring, or two pushes of a handicap; some 800 positions at most).
REACH_DEPTH: Final = 2


def reachable(goal: Goal, tried: Tried) -> bool:
    """Whether the player, still to act after ``tried``, can yet meet ``goal`` with the
    actions it has left: a try that can no longer succeed is missed at once, so that
    "Right so far" is never said of it and taking back its last action leaves a
    position the step can still be won from. Beyond :data:`REACH_DEPTH` actions to
    come, it is taken as reachable."""
    left = goal.actions - len(tried.actions)
    if left > REACH_DEPTH:
        return True
    for action in tried.last.legal_actions():
        played, after = tried.last.step(action)
        longer = Tried(tried.start, (*tried.actions, played), (*tried.states, after))
        verdict = goal.check(longer)
        if verdict is not None:
            if verdict.status is Status.MET:
                return True
        elif left > 1 and longer.still_acting and reachable(goal, longer):
            return True
    return False


def tryable(start: State, full_lanes: bool) -> list[str]:
    """The actions a step's page lets the player try: the legal ones, and with
    ``full_lanes`` the pushes into full lanes too (to learn why they are refused)."""
    legal = [str(a) for a in start.legal_actions()]
    if full_lanes and start.phase is Phase.INSERT:
        return [str(a) for a in INSERTIONS]
    return legal

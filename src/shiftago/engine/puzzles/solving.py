"""Proofs, defences and solution lines of puzzles, from core states (over :mod:`.prover`).

A position is a *puzzle* in N when the seat to act (the solver) reaches the goal within
N of its own actions against every defence, no fewer actions do, and exactly one first
action does it in that fewest number. Every action of the solver counts, a scoring
included: RULES.md section 8 makes a scoring an action of its own (``xa1-e1``), so in
Expert and Extreme an insertion that makes the 10th point's line and its scoring are
two actions, and a scoring followed by the move again is three or more.

The defence is the reply that delays the goal longest; among equal delays the one the
engine's window count (:func:`shiftago.engine.search.evaluate.windows`) prefers for the
defending seat against the solver, then the first in the kernel's order (the
insertions in canonical order, then the scorings by line). The solver's moves in a
solution line are the fastest that keep the proof, the first in the kernel's
order among equals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shiftago.core import Action, State
from shiftago.core.errors import N_, IllegalActionError, Phrase
from shiftago.engine.kernel import (
    action_buffer,
    apply_action,
    from_action,
    from_state,
    legal_codes,
    to_action,
)
from shiftago.engine.kernel.tables import (
    BOARD,
    LIMIT,
    OVER,
    PHASE,
    PLAYERS,
    TURN,
    WINNERS,
)
from shiftago.engine.search.evaluate import windows

from .prover import distance, new_budget, reached, winning_firsts, wins_within
from .puzzle import Puzzle

#: The most solver's actions a puzzle may take (generation and checks).
MOST_ACTIONS = 3

#: How many actions more than a puzzle allows a wrong action's slower win is looked for
#: in, and the prover's node bound for it (docs/puzzles.md, "A wrong action that still
#: wins").
SLOWER_BY = 2
SLOWER_NODES = 500_000
#: How many of the solver's actions past those left a refutation's reply is chosen to
#: stop too (docs/puzzles.md, "The defence and the solution line").
REFUTATION_BEYOND = 1


class ProofUnknown(Exception):
    """The prover's node budget ran out before an answer."""


@dataclass(frozen=True)
class Proof:
    """What the prover found within ``most`` actions: the fewest of the solver's actions
    that reach the goal (None: not within ``most``) and every first action that does."""

    most: int
    fewest: int | None
    firsts: tuple[Action, ...]

    @property
    def is_puzzle(self) -> bool:
        return self.fewest is not None and len(self.firsts) == 1


def kernel_state(state: State) -> np.ndarray:
    """The kernel array of a puzzle position: without an action limit (a puzzle has
    none)."""
    s = from_state(state)
    s[LIMIT] = 0
    return s


def _check(budget: np.ndarray) -> None:
    if budget[2]:
        raise ProofUnknown(f"the prover's budget of {int(budget[1])} nodes ran out")


def prove(state: State, most: int = MOST_ACTIONS, nodes: int = 0) -> Proof:
    """Prove ``state`` (the seat to act is the solver) to ``most`` of its actions;
    ``nodes`` bounds the search (0: no bound; :class:`ProofUnknown` when it runs out)."""
    if state.is_over:
        raise ValueError("the game of this position is over: there is nothing to solve")
    s = kernel_state(state)
    budget = new_budget(nodes)
    out = action_buffer()
    players = state.rules.players
    for n in range(1, most + 1):
        found = winning_firsts(s, n, out, budget)
        _check(budget)
        if found:
            firsts = tuple(to_action(int(c), players) for c in out[:found])
            return Proof(most, n, firsts)
    return Proof(most, None, ())


def keeps_win(child: np.ndarray, solver: int, left: int) -> bool:
    """Whether the solver still reaches the goal from ``child`` (after one of its
    actions) within ``left`` more of its actions."""
    if int(child[PHASE]) == OVER:
        return bool(reached(child, solver))
    return bool(wins_within(child, solver, left, new_budget()))


def _after(s: np.ndarray, code: int) -> np.ndarray:
    child = s.copy()
    apply_action(child, code)
    return child


def _defence_value(child: np.ndarray, defender: int, solver: int, left: int) -> tuple[int, ...]:
    """How good ``child`` is for the seat that made it, defending against ``solver``."""
    budget = new_budget()
    if int(child[PHASE]) == OVER:
        won = int(child[WINNERS]) >> defender & 1
        lost = reached(child, solver)
        return (left + 2 if won else (0 if lost else left + 1), 0)
    delay = distance(child, solver, left, budget)
    heuristic = windows(child[BOARD + defender], child[BOARD + solver], False) - windows(
        child[BOARD + solver], child[BOARD + defender], False
    )
    return (delay, int(heuristic))


def defence(s: np.ndarray, solver: int, left: int, beyond: int = 0) -> list[int]:
    """The other seats' actions from ``s`` until the solver acts again or the game ends,
    each the reply that delays the goal longest (``left``: the solver's actions left),
    looking ``beyond`` actions further than ``left``: after a wrong action every reply
    keeps the goal out of the actions left, and the reply chosen among them so must
    also stop what the solver could do next (a refutation after which the goal was
    there at once, one action too late, refuted nothing to a Dutch walk)."""
    s = s.copy()
    played: list[int] = []
    while int(s[PHASE]) != OVER and int(s[TURN]) != solver:
        defender = int(s[TURN])
        best_code = -1
        best_value: tuple[int, ...] = (-1, 0)
        for code in legal_codes(s):
            value = _defence_value(_after(s, code), defender, solver, left + beyond)
            if value > best_value:
                best_code, best_value = code, value
        apply_action(s, best_code)
        played.append(best_code)
    return played


def best_solver_action(s: np.ndarray, solver: int, left: int) -> int | None:
    """The solver's fastest action that keeps the goal within ``left`` actions (its own
    included), the first in the kernel's order among equals; None when none does."""
    best, best_delay = None, left + 1
    budget = new_budget()
    for code in sorted(legal_codes(s)):
        child = _after(s, code)
        if int(child[PHASE]) == OVER:
            if reached(child, solver):
                return code
            continue
        delay = distance(child, solver, left - 1, budget)
        if delay + 1 < best_delay:
            best, best_delay = code, delay + 1
    return best


def solution_line(state: State, actions: int) -> list[Action]:
    """The whole solution of a puzzle of ``actions`` solver's actions: the solver's and
    the defence's actions in order, to the goal."""
    s = kernel_state(state)
    solver = int(s[TURN])
    players = int(s[PLAYERS])
    line: list[Action] = []
    left = actions
    while int(s[PHASE]) != OVER:
        if int(s[TURN]) == solver:
            code = best_solver_action(s, solver, left)
            if code is None:
                raise ValueError("the position does not reach the goal in that many actions")
            apply_action(s, code)
            line.append(to_action(code, players))
            left -= 1
        else:
            for code in defence(s, solver, left):
                apply_action(s, code)
                line.append(to_action(code, players))
    if not reached(s, solver):
        raise ValueError("the solution line does not reach the goal")
    return line


@dataclass(frozen=True)
class Verdict:
    """The answer to an attempt: whether every action was right, whether the goal is
    reached, the defence's actions after the last one, and the whole line (once solved
    or failed)."""

    correct: bool
    solved: bool
    reply: list[Action]
    solution: list[Action] | None
    #: after a wrong action that still forces the goal, only too slowly: the fewest of the
    #: solver's actions in all that it takes (None otherwise, or when not proven)
    wins_in: int | None = None


def slower_win(child: np.ndarray, solver: int, left: int, used: int) -> int | None:
    """The fewest of the solver's actions in all (``used`` so far, the wrong one
    included) with which it still reaches the goal from ``child``, where ``left`` more
    were not enough; None when not within :data:`SLOWER_BY` more or not proven within
    :data:`SLOWER_NODES` nodes."""
    if int(child[PHASE]) == OVER:
        return None
    budget = new_budget(SLOWER_NODES)
    found = distance(child, solver, left + SLOWER_BY, budget)
    if budget[2] or found > left + SLOWER_BY:
        return None
    return used + found


def judge(state: State, actions: int, tried: list[str]) -> Verdict:
    """Judge the solver's actions ``tried`` (without the defence) in a puzzle of
    ``actions`` actions from ``state``. An action that is not legal where it is played,
    or one after the goal, raises :class:`IllegalActionError` (nothing is judged)."""
    if not tried:
        raise IllegalActionError("an attempt needs at least one action")
    s = kernel_state(state)
    solver = int(s[TURN])
    players = int(s[PLAYERS])
    left = actions
    played: list[Action] = []
    reply: list[Action] = []
    for number, text in enumerate(tried, start=1):
        if int(s[PHASE]) == OVER or left == 0:
            raise IllegalActionError(
                "action {number} ({text}) comes after the end of the puzzle",
                number=number,
                text=text,
            )
        try:
            code = from_action(Action.parse(text), players)
        except (ValueError, KeyError) as error:
            raise IllegalActionError(
                "action {number} ({text}) is not an action", number=number, text=repr(text)
            ) from error
        if code not in legal_codes(s):
            raise IllegalActionError(
                "action {number} ({text}) is not legal here", number=number, text=text
            )
        child = _after(s, code)
        keeps = keeps_win(child, solver, left - 1)
        played.append(to_action(code, players))
        if not keeps:
            refutation = defence(child, solver, left - 1, beyond=REFUTATION_BEYOND)
            if number < len(tried):
                raise IllegalActionError(
                    "action {number} ({text}) already failed the puzzle", number=number, text=text
                )
            return Verdict(
                False,
                False,
                [to_action(c, players) for c in refutation],
                solution_line(state, actions),
                slower_win(child, solver, left - 1, actions - left + 1),
            )
        s, left = child, left - 1
        reply = []
        if int(s[PHASE]) != OVER and int(s[TURN]) != solver:
            for c in defence(s, solver, left):
                apply_action(s, c)
                reply.append(to_action(c, players))
                played.append(to_action(c, players))
    solved = int(s[PHASE]) == OVER and reached(s, solver)
    return Verdict(True, solved, reply, played if solved else None)


def check_puzzle(puzzle: Puzzle) -> Phrase | None:
    """Re-prove a puzzle: what is wrong with it (words an interface says in its reader's
    language), or None when it holds (the fewest actions are its ``actions``, its
    solution's first action is the only one, and its solution, played by the rules,
    reaches the goal)."""
    try:
        state = State.from_position(puzzle.position)
        proof = prove(state, puzzle.actions)
    except ValueError as error:
        return Phrase("{error}", error=error)
    if proof.fewest is None:
        return Phrase(N_("it says a win in {n}, the prover finds no win"), n=puzzle.actions)
    if proof.fewest != puzzle.actions:
        return Phrase(
            N_("it says a win in {n}, the prover finds a win in {fewest}"),
            n=puzzle.actions,
            fewest=proof.fewest,
        )
    if len(proof.firsts) != 1:
        return Phrase(
            N_("{count} first actions win in {n}: {firsts}"),
            count=len(proof.firsts),
            n=puzzle.actions,
            firsts=" ".join(str(a) for a in proof.firsts),
        )
    if not puzzle.solution:
        return Phrase(
            N_("the solution is empty; the winning action is {action}"), action=proof.firsts[0]
        )
    if str(proof.firsts[0]) != str(Action.parse(puzzle.solution[0])):
        return Phrase(
            N_("the solution starts with {first}, the winning action is {action}"),
            first=puzzle.solution[0],
            action=proof.firsts[0],
        )
    solver = state.turn
    try:
        for text in puzzle.solution:
            state = state.after(Action.parse(text))
    except ValueError as error:
        return Phrase(N_("the solution does not play: {error}"), error=error)
    outcome = state.outcome
    if outcome is None or tuple(outcome.winners) != (solver,):
        return Phrase(N_("the solution does not end in the solver's win"))
    return None


def warm_up() -> None:
    """Compile (or load from numba's cache) the prover, so that the first attempt at a
    puzzle does not pay for it."""
    prove(State.from_position("express 2 7/7/7/7/7/7/oooo3 o insert 18,22 0,0 0,0"), 1)

"""The prover (numba): does the seat to act reach the goal within N of its own actions?

The goal is a win that the solver makes: a line in Express, the 10th point in Expert
and Extreme (an end on a full board or an empty supply is not the goal). The search is
an AND/OR tree over the kernel's own transitions (:mod:`shiftago.engine.kernel.moves`):

* where the solver acts, one of its actions must keep the goal within the actions it
  has left (each of its actions, a scoring included, uses up one);
* where any other seat acts, every action of that seat must (with 3-4 players every
  combination of the other seats' actions: a paranoid proof, so that any reply is
  answered). Their actions use up none of the solver's, and a seat that scores and
  moves again is searched like any other turn.

The answer is exact up to :data:`MAX_PLIES` plies in all: a line of play longer than
that (other seats scoring over and over in Extreme) counts as a failure to prove, so a
proof is never claimed that was not searched to its end. A refutation found at a ply is
tried first the next time (a killer move per ply), which is what makes a failed proof
cheap: most first actions of the solver are refuted by one block.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import (
    MAX_ACTIONS,
    OVER,
    PHASE,
    R_LINE,
    R_POINTS,
    REASON,
    STATE_SIZE,
    TURN,
    WINNERS,
)

#: The longest line of play (every seat's actions) a proof may search.
MAX_PLIES: Final = 48


@njit(cache=True, nogil=True)
def reached(s: np.ndarray, solver: int) -> bool:
    """Whether the finished game ``s`` is the solver's goal: its own win by a line or by
    points, alone."""
    reason = np.int64(s[REASON])
    return bool(np.int64(s[WINNERS]) == (1 << solver) and reason in (R_LINE, R_POINTS))


@njit(cache=True, nogil=True)
def _prove(
    stack: np.ndarray,
    moves: np.ndarray,
    killers: np.ndarray,
    budget: np.ndarray,
    solver: int,
    n: int,
) -> bool:
    """The search from ``stack[0]`` with ``n`` of the solver's actions left, depth first
    with an explicit stack of plies (no recursion, so no limit of the machine's stack)."""
    counts = np.zeros(MAX_PLIES + 1, dtype=np.int64)
    nexts = np.zeros(MAX_PLIES + 1, dtype=np.int64)
    left = np.zeros(MAX_PLIES + 1, dtype=np.int64)
    solver_acts = np.zeros(MAX_PLIES + 1, dtype=np.bool_)
    left[0] = n
    ply = 0
    entering = True
    result = False
    while True:
        if entering:
            s = stack[ply]
            entering = False
            decided = True
            if np.int64(s[PHASE]) == OVER:
                result = reached(s, solver)
            elif left[ply] == 0 or ply + 1 >= MAX_PLIES:
                result = False
            else:
                budget[0] += 1
                if budget[1] > 0 and budget[0] > budget[1]:
                    budget[2] = 1
                    result = False
                else:
                    decided = False
                    out = moves[ply]
                    k = legal_actions(s, out)
                    killer = killers[ply]
                    for j in range(k):
                        if out[j] == killer:
                            out[j] = out[0]
                            out[0] = killer
                            break
                    counts[ply] = k
                    nexts[ply] = 0
                    solver_acts[ply] = np.int64(s[TURN]) == solver
            if not decided:
                continue
        elif nexts[ply] < counts[ply]:
            # the next child of ``ply``
            code = moves[ply, nexts[ply]]
            nexts[ply] += 1
            child = stack[ply + 1]
            child[:] = stack[ply]
            apply_action(child, code)
            if solver_acts[ply]:
                if left[ply] == 1 and np.int64(child[PHASE]) != OVER:
                    continue
                left[ply + 1] = left[ply] - 1
            else:
                left[ply + 1] = left[ply]
            ply += 1
            entering = True
            continue
        else:
            # every child tried: the solver found no way, or every defence failed
            result = not solver_acts[ply]
        # ``result`` is the value of the node at ``ply``: hand it to the parents while
        # it decides them too (a success where the solver acts, a failure elsewhere)
        while True:
            if ply == 0:
                return result
            ply -= 1
            if solver_acts[ply] == result:
                killers[ply] = moves[ply, nexts[ply] - 1]
            elif not budget[2]:
                break


def new_budget(nodes: int = 0) -> np.ndarray:
    """A node budget for the prover: nodes searched, the most allowed (0: no bound), and
    whether it ran out (then every answer given with it is unknown, not a refutation)."""
    return np.array([0, nodes, 0], dtype=np.int64)


@njit(cache=True, nogil=True)
def wins_within(s: np.ndarray, solver: int, n: int, budget: np.ndarray) -> bool:
    """Whether ``solver`` reaches the goal from the kernel state ``s`` within ``n`` of its
    own actions against every defence (``s`` is not changed)."""
    stack = np.empty((MAX_PLIES + 1, STATE_SIZE), dtype=np.uint64)
    moves = np.empty((MAX_PLIES + 1, MAX_ACTIONS), dtype=np.int64)
    killers = np.full(MAX_PLIES + 1, -1, dtype=np.int64)
    stack[0, :] = s
    return _prove(stack, moves, killers, budget, solver, n)


@njit(cache=True, nogil=True)
def winning_firsts(s: np.ndarray, n: int, out: np.ndarray, budget: np.ndarray) -> int:
    """The seat to act's first actions that reach the goal within ``n`` of its actions
    (its first one included), written into ``out``; how many."""
    solver = int(s[TURN])
    stack = np.empty((MAX_PLIES + 1, STATE_SIZE), dtype=np.uint64)
    moves = np.empty((MAX_PLIES + 1, MAX_ACTIONS), dtype=np.int64)
    killers = np.full(MAX_PLIES + 1, -1, dtype=np.int64)
    firsts = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = legal_actions(s, firsts)
    found = 0
    for j in range(k):
        stack[0, :] = s
        apply_action(stack[0], firsts[j])
        if n == 1 and np.int64(stack[0, PHASE]) != OVER:
            continue
        if _prove(stack, moves, killers, budget, solver, n - 1):
            out[found] = firsts[j]
            found += 1
        if budget[2]:
            return found
    return found


@njit(cache=True, nogil=True)
def distance(s: np.ndarray, solver: int, most: int, budget: np.ndarray) -> int:
    """The fewest of the solver's actions that reach the goal from ``s`` against every
    defence, if at most ``most``; else ``most + 1``."""
    for n in range(most + 1):
        if wins_within(s, solver, n, budget):
            return n
    return most + 1

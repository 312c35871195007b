"""The iterations of the MCTS, wholly inside numba: selection, expansion, playout,
backpropagation, and the MCTS-Solver.

One call of :func:`iterate` runs a number of iterations on a tree (:mod:`.tree`) whose
root is the state ``root``; the driver (:mod:`.driver`) calls it in chunks and keeps
the clock. An iteration:

1. **Selection** from the root replays the tree's actions on a copy of ``root``; at
   each expanded node the seat to act ``m`` (read from the state: after a scoring or a
   handicap skip it may be the same seat again) takes the child with the highest UCT
   score ``values[c, m] / visits[c] + C * sqrt(ln visits[n] / visits[c])``; a child
   never visited comes first (children are shuffled when made, so "first" is random).
2. **Expansion**: a leaf that was visited at least once before (the root at once) gets
   all its children in one go (with ``guard``, below the root, those that do not lose at
   once: :mod:`.knowledge`), and one of them is played out; a leaf visited for the
   first time is played out itself. When the tree is full, leaves stay leaves.
3. **Playout** (:mod:`.rollout`) to the end of the game: a winners mask (or, with a
   ``horizon``, cut after that many actions and valued by the fitted evaluation,
   :mod:`.seat_eval`, or by the points, :mod:`.horizon`).
4. **Backpropagation** adds the reward vector (1 to a sole winner, ``1 / k`` to each of
   ``k`` winners, 0 to the others) to every node of the path, each seat in its slot.
   With a ``contempt`` (0 or more) and playouts to the end, the seat to act at the root
   gets the contempt instead of its share of a draw, the other seats their shares.

**MCTS-Solver** (Winands, Björnsson and Saito 2008), with ``solver``: a finished game is
proven, with its winners mask as ``proof``. A node whose seat to act ``m`` has a child
proven as ``m``'s sole win is proven the same way (``m`` takes it); a node all of whose
children are proven is proven as its best child for ``m``, when the children that are
best for ``m`` all end the same way (with 2 players always: a loss, a draw or a win for
``m`` settles everything; with 3-4 players a tie between different results of equal
worth to ``m`` stays unproven). Selection never enters a child proven as a loss for its
mover (unless every child is one), takes a child proven as its mover's win at once, and
an iteration that reaches a proven node backs up its proven result without a playout.
A proven root ends the search. Without ``solver`` the search is plain UCT: finished
games are still scored exactly, but nothing is proven or skipped.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.rng import pick, xorshift
from shiftago.engine.kernel.tables import (
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    STATE_SIZE,
    TURN,
    WINNERS,
)

from .knowledge import guarded_children
from .rollout import playout_reward
from .tree import ITERATIONS, ROOT, STOP, USED, share

_OVER = np.uint64(OVER)


@njit(cache=True, nogil=True)
def select_child(
    node: int,
    m: int,
    first: np.ndarray,
    count: np.ndarray,
    visits: np.ndarray,
    values: np.ndarray,
    proof: np.ndarray,
    c: float,
    solver: bool,
) -> int:
    """The child of the expanded ``node`` that selection enters, for the seat to act
    ``m`` (see the module doc)."""
    f = np.int64(first[node])
    k = np.int64(count[node])
    log_n = math.log(max(np.int64(visits[node]), 1))
    best = -1
    best_score = -1.0
    for ch in range(f, f + k):
        n = np.int64(visits[ch])
        mean = 0.0
        if solver and proof[ch] != 0:
            mean = share(np.int64(proof[ch]), m)
            if mean == 1.0:
                return ch
            if mean == 0.0:
                continue
        elif n == 0:
            return ch
        else:
            mean = values[ch, m] / n
        score = mean + c * math.sqrt(log_n / n)
        if score > best_score:
            best_score = score
            best = ch
    if best < 0:  # every child is a proven loss for ``m``: play on in the most visited
        best = f
        for ch in range(f + 1, f + k):
            if visits[ch] > visits[best]:
                best = ch
    return best


@njit(cache=True, nogil=True)
def expand(
    node: int,
    s: np.ndarray,
    moves: np.ndarray,
    x: np.uint64,
    parent: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    code: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    values: np.ndarray,
    proof: np.ndarray,
    info: np.ndarray,
    guard: bool,
    proves: bool,
) -> tuple[bool, np.uint64]:
    """Give ``node`` (state ``s``, not over) its children in a random order: all of
    them, or with ``guard`` below the root those of :func:`.knowledge.guarded_children`;
    whether there was room, and the generator. A node that the guard finds lost to the
    next seat is proven instead (when the search ``proves``: the solver), with no
    children."""
    n = legal_actions(s, moves)
    if guard and node != ROOT:
        n, lost_to = guarded_children(s, moves, n)
        if lost_to >= 0 and proves:
            proof[node] = 1 << lost_to  # proven at once: no children needed
            return True, x
    start = info[USED]
    if start + n > parent.shape[0]:
        return False, x
    for j in range(n - 1, 0, -1):
        x = xorshift(x)
        t = pick(x, j + 1)
        tmp = moves[j]
        moves[j] = moves[t]
        moves[t] = tmp
    m = np.int64(s[TURN])
    for j in range(n):
        ch = start + j
        parent[ch] = node
        first[ch] = 0
        count[ch] = 0
        code[ch] = moves[j]
        mover[ch] = m
        visits[ch] = 0
        values[ch, :] = 0.0
        proof[ch] = 0
    first[node] = start
    count[node] = n
    info[USED] = start + n
    return True, x


@njit(cache=True, nogil=True)
def prove_upwards(
    node: int,
    parent: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    mover: np.ndarray,
    proof: np.ndarray,
) -> None:
    """``node`` was just proven: prove its ancestors as far as the solver's rules go."""
    n = node
    while True:
        p = np.int64(parent[n])
        if p < 0 or proof[p] != 0:
            return
        m = np.int64(mover[n])  # the seat to act at ``p``
        result = np.int64(proof[n])
        if result != 1 << m:
            f = np.int64(first[p])
            best = -1.0
            result = 0
            for ch in range(f, f + np.int64(count[p])):
                q = np.int64(proof[ch])
                if q == 0:
                    return
                v = share(q, m)
                if v > best:
                    best = v
                    result = q
                elif v == best and q != result:
                    result = -1
            if result < 0:
                return
        proof[p] = result
        n = p


@njit(cache=True, nogil=True)
def iterate(
    parent: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    code: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    values: np.ndarray,
    proof: np.ndarray,
    info: np.ndarray,
    rng: np.ndarray,
    root: np.ndarray,
    iterations: int,
    c: float,
    solver: bool,
    policy: int,
    block_plies: int,
    guard: bool,
    horizon: int = 0,
    scale: float = 0.0,
    reach: float = 0.0,
    contempt: float = -1.0,
) -> int:
    """Run up to ``iterations`` iterations from ``root`` (not over) on the tree; return
    how many ran (fewer when the solver proves the root, or when ``info[STOP]`` is set
    after the first)."""
    players = np.int64(root[PLAYERS])
    me = np.int64(root[TURN])
    # a result's rewards are 1, 0 and 1/k exactly unless a cut playout valued it
    draws_for_me = contempt >= 0.0 and horizon == 0
    s = np.empty(STATE_SIZE, dtype=np.uint64)
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    reward = np.zeros(4, dtype=np.float64)
    x = rng[0]
    done = 0
    while done < iterations and not (solver and proof[ROOT] != 0):
        if done > 0 and info[STOP] != 0:
            break  # stopped on time, after at least one iteration (the root's children)
        s[:] = root
        node = ROOT
        # 1. selection
        while count[node] > 0 and not (solver and proof[node] != 0):
            node = select_child(
                node, np.int64(s[TURN]), first, count, visits, values, proof, c, solver
            )
            apply_action(s, np.int64(code[node]))
        # 2.-3. expansion and playout, or a result known without a playout
        played_out = False  # the playout writes the reward itself
        winners = 0
        if s[PHASE] == _OVER:
            winners = np.int64(s[WINNERS])
            if solver and proof[node] == 0:
                proof[node] = winners
        elif solver and proof[node] != 0:
            winners = np.int64(proof[node])
        else:
            if node == ROOT or visits[node] > 0:
                room, x = expand(
                    node, s, moves, x, parent, first, count, code, mover, visits, values,
                    proof, info, guard, solver,
                )  # fmt: skip
                if room and count[node] > 0:
                    node = np.int64(first[node])
                    apply_action(s, np.int64(code[node]))
            if solver and proof[node] != 0:  # the expansion proved it
                winners = np.int64(proof[node])
            elif s[PHASE] == _OVER:
                winners = np.int64(s[WINNERS])
                if solver:
                    proof[node] = winners
            else:
                x = playout_reward(s, x, moves, policy, block_plies, horizon, scale, reach, reward)
                played_out = True
        # 4. backpropagation
        if not played_out:
            for seat in range(players):
                reward[seat] = share(winners, seat)
        if draws_for_me and 0.0 < reward[me] < 1.0:
            reward[me] = contempt
        n = node
        while n >= 0:
            visits[n] += 1
            for seat in range(players):
                values[n, seat] += reward[seat]
            n = np.int64(parent[n])
        if solver and proof[node] != 0:
            prove_upwards(node, parent, first, count, mover, proof)
        done += 1
    rng[0] = x
    info[ITERATIONS] += done
    return done


@njit(cache=True, nogil=True)
def best_line(
    node: int,
    first: np.ndarray,
    count: np.ndarray,
    code: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    proof: np.ndarray,
    out: np.ndarray,
) -> int:
    """The most visited path below ``node`` (a child proven as its mover's win first):
    write its action codes into ``out``; return how many."""
    n = 0
    while count[node] > 0 and n < out.shape[0]:
        f = np.int64(first[node])
        best = -1
        for ch in range(f, f + np.int64(count[node])):
            q = np.int64(proof[ch])
            if q != 0 and q == 1 << np.int64(mover[ch]):
                best = ch
                break
            if visits[ch] > 0 and (best < 0 or visits[ch] > visits[best]):
                best = ch
        if best < 0:
            break
        out[n] = code[best]
        n += 1
        node = best
    return n

"""The tree of the last search, kept for the next: the node of the position now
searched, found below the last root, becomes the new root with all it holds.

Between two searches of one seat the other seats act, so the position searched next
lies a few plies below the last root; its subtree holds the iterations the last search
spent there (a quarter of them on average in 3-player Express at 60,000 iterations a
move: docs/strength.md, "The tree kept between searches"). :func:`find_descendant`
walks the expanded nodes down to ``max_plies`` below the root, replaying their actions
on a copy of the last root's state, until one's state is the position; :func:`extract`
copies that node's subtree into another tree, breadth first, so that each node's
children stay side by side (:mod:`.tree`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import COUNT, LIMIT, MAX_ACTIONS, STATE_SIZE, TURN

from .tree import ITERATIONS, ROOT, STOP, USED


@njit(cache=True, nogil=True)
def find_descendant(
    first: np.ndarray,
    count: np.ndarray,
    code: np.ndarray,
    visits: np.ndarray,
    last_root: np.ndarray,
    target: np.ndarray,
    max_plies: int,
) -> int:
    """The visited node at most ``max_plies`` below the root whose state is ``target``
    (the tree's root state being ``last_root``), the root itself when ``target`` is its
    state (the same position searched again); -1 when there is none. The walk is depth
    first over visited nodes, one state per ply on an explicit stack. The count of
    actions played is compared only under an action limit: a position set up anew
    counts from 0, the game that reached it from its start."""
    skip = COUNT if target[LIMIT] == 0 else -1
    if _same_state(last_root, target, skip):
        return ROOT
    states = np.empty((max_plies + 1, STATE_SIZE), dtype=np.uint64)
    states[0, :] = last_root
    nodes = np.empty(max_plies + 1, dtype=np.int64)  # the node entered at each ply
    nexts = np.empty(max_plies + 1, dtype=np.int64)  # the next child to try at each ply
    nodes[0] = ROOT
    nexts[0] = 0
    depth = 0
    while depth >= 0:
        node = nodes[depth]
        if depth == max_plies or count[node] == 0 or nexts[depth] >= count[node]:
            depth -= 1
            if depth >= 0:
                nexts[depth] += 1
            continue
        child = np.int64(first[node]) + nexts[depth]
        if visits[child] == 0:
            nexts[depth] += 1
            continue
        states[depth + 1, :] = states[depth, :]
        apply_action(states[depth + 1], np.int64(code[child]))
        if _same_state(states[depth + 1], target, skip):
            return child
        depth += 1
        nodes[depth] = child
        nexts[depth] = 0
    return -1


@njit(cache=True, nogil=True)
def _same_state(state: np.ndarray, target: np.ndarray, skip: int) -> bool:
    """Whether ``state`` is ``target`` in every slot but ``skip`` (-1: every slot)."""
    for i in range(STATE_SIZE):  # noqa: SIM110 (numba compiles loops, not all() over generators)
        if i != skip and state[i] != target[i]:
            return False
    return True


@njit(cache=True, nogil=True)
def extract(
    node: int,
    root_state: np.ndarray,
    parent: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    code: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    values: np.ndarray,
    proof: np.ndarray,
    to_parent: np.ndarray,
    to_first: np.ndarray,
    to_count: np.ndarray,
    to_code: np.ndarray,
    to_mover: np.ndarray,
    to_visits: np.ndarray,
    to_values: np.ndarray,
    to_proof: np.ndarray,
    to_info: np.ndarray,
) -> int:
    """Copy the subtree of ``node`` (whose state is ``root_state``) into the ``to_``
    arrays with ``node`` as their root (its action and mover cleared, as a root's);
    return the nodes copied. A root keeps every action: where the guard expanded the
    node with fewer (:mod:`.knowledge`), the actions it left out join its children as
    new leaves."""
    source = np.empty(to_parent.shape[0], dtype=np.int64)  # the source of each copy
    source[ROOT] = node
    to_parent[ROOT] = -1
    to_code[ROOT] = -1
    to_mover[ROOT] = -1
    to_visits[ROOT] = visits[node]
    to_values[ROOT, :] = values[node, :]
    to_proof[ROOT] = proof[node]
    used = 1
    i = 0
    while i < used:
        s = source[i]
        n = 0 if s < 0 else np.int64(count[s])
        to_count[i] = 0
        to_first[i] = 0
        if n > 0 and used + MAX_ACTIONS <= to_parent.shape[0]:
            f = np.int64(first[s])
            to_first[i] = used
            for k in range(n):
                d = used + k
                source[d] = f + k
                to_parent[d] = i
                to_code[d] = code[f + k]
                to_mover[d] = mover[f + k]
                to_visits[d] = visits[f + k]
                to_values[d, :] = values[f + k, :]
                to_proof[d] = proof[f + k]
            if i == ROOT:
                n = _add_left_out(root_state, used, n, source, to_parent, to_code, to_mover,
                                  to_visits, to_values, to_proof)  # fmt: skip
            to_count[i] = n
            used += n
        i += 1
    to_info[USED] = used
    to_info[ITERATIONS] = 0
    to_info[STOP] = 0
    return used


@njit(cache=True, nogil=True)
def _add_left_out(
    state: np.ndarray,
    start: int,
    n: int,
    source: np.ndarray,
    to_parent: np.ndarray,
    to_code: np.ndarray,
    to_mover: np.ndarray,
    to_visits: np.ndarray,
    to_values: np.ndarray,
    to_proof: np.ndarray,
) -> int:
    """Append to the root's ``n`` children (from ``start``) a leaf for each legal
    action of ``state`` that is not among them; return the children now."""
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    legal = legal_actions(state, moves)
    seat = np.int64(state[TURN])
    total = n
    for j in range(legal):
        present = False
        for k in range(n):
            if to_code[start + k] == moves[j]:
                present = True
                break
        if not present:
            d = start + total
            source[d] = -1
            to_parent[d] = ROOT
            to_code[d] = moves[j]
            to_mover[d] = seat
            to_visits[d] = 0
            to_values[d, :] = 0.0
            to_proof[d] = 0
            total += 1
    return total

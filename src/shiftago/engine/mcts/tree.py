"""The search tree of the MCTS: preallocated numpy arrays, one row per node.

A tree is the tuple :class:`Tree` of arrays; numba code receives them one by one.
Node ``0`` (:data:`ROOT`) is the position searched; the children of a node are made all
at once when it is expanded and lie next to each other (``first .. first + count``).

====================  =================================================================
``parent[n]``         the parent node (``-1`` for the root)
``first[n]``          the first child (valid when ``count[n] > 0``)
``count[n]``          the number of children; ``0`` while the node is not expanded (and
                      for a finished game, which has no actions)
``code[n]``           the kernel action code that leads from the parent to ``n``
``mover[n]``          the seat that played that action: the seat to act at the parent
``visits[n]``         the iterations that passed through ``n``
``values[n, seat]``   the sum of ``seat``'s rewards over those iterations: 1 for a win,
                      0 for a loss, ``1 / k`` to each of ``k`` winners sharing a draw
``proof[n]``          the solver's proven result: the winners mask of the game's end under
                      best play (one bit per seat), ``0`` while not proven
====================  =================================================================

Statistics are per seat, so the same code serves 2, 3 and 4 players and the repeated
turns of scorings and handicap skips: a node is judged by ``values[n, mover[n]] /
visits[n]``, the mean reward of the seat that chose it. ``info`` holds the counters of
:data:`USED` (nodes in use) and :data:`ITERATIONS` (iterations done since the reset);
``rng`` the one ``uint64`` of the xorshift generator.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import popcount

ROOT: Final = 0
#: ``info`` slots.
USED: Final = 0
ITERATIONS: Final = 1
STOP: Final = 2  # set (by an alarm) to stop the search after its current iteration
INFO_SIZE: Final = 3
#: The bytes one node takes (for the memory cap).
NODE_BYTES: Final = 4 + 4 + 2 + 2 + 1 + 4 + 32 + 1


class Tree(NamedTuple):
    """The arrays of one tree (see the module doc)."""

    parent: np.ndarray
    first: np.ndarray
    count: np.ndarray
    code: np.ndarray
    mover: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    proof: np.ndarray
    info: np.ndarray
    rng: np.ndarray

    @property
    def capacity(self) -> int:
        return int(self.parent.shape[0])

    @property
    def used(self) -> int:
        return int(self.info[USED])


def new_tree(capacity: int) -> Tree:
    """An empty tree with room for ``capacity`` nodes. The arrays are allocated, not
    written (the system maps the pages when a node is first used), so a large capacity
    costs memory only as the tree grows."""
    capacity = max(int(capacity), 2)
    return Tree(
        np.empty(capacity, dtype=np.int32),
        np.empty(capacity, dtype=np.int32),
        np.empty(capacity, dtype=np.int16),
        np.empty(capacity, dtype=np.int16),
        np.empty(capacity, dtype=np.int8),
        np.empty(capacity, dtype=np.int32),
        np.empty((capacity, 4), dtype=np.float64),
        np.empty(capacity, dtype=np.int8),
        np.zeros(INFO_SIZE, dtype=np.int64),
        np.ones(1, dtype=np.uint64),
    )


@njit(cache=True, nogil=True)
def reset(
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
    x: np.uint64,
) -> None:
    """Make the tree a lone root (not expanded, never visited); seed the generator."""
    parent[ROOT] = -1
    first[ROOT] = 0
    count[ROOT] = 0
    code[ROOT] = -1
    mover[ROOT] = -1
    visits[ROOT] = 0
    values[ROOT, :] = 0.0
    proof[ROOT] = 0
    info[USED] = 1
    info[ITERATIONS] = 0
    info[STOP] = 0
    rng[0] = x


@njit(cache=True, nogil=True)
def share(winners: int, seat: int) -> float:
    """The reward of ``seat`` when the game ends with the ``winners`` mask: 1 for the
    sole winner, ``1 / k`` for each of ``k`` winners sharing a draw, 0 for the others."""
    if (winners >> seat) & 1 == 0:
        return 0.0
    return 1.0 / popcount(np.uint64(winners))

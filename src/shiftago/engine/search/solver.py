"""The exact solver: a late position searched to the end, the true result of every action.

It drives a :class:`~.driver.Searcher` (so it sits above the driver) to the bound of
:func:`.endgame.plies_left`, for checking test positions and answers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shiftago.engine.kernel import legal_codes
from shiftago.engine.kernel.tables import PLAYERS

from .driver import Searcher
from .endgame import UNBOUNDED, plies_left


@dataclass(frozen=True)
class Solution:
    """Every legal action (kernel codes) best first with its value after a full-width
    search of ``depth`` plies, in the search's unit (``WIN - n``: the seat to act wins
    after ``n`` actions in all, ``n - WIN`` loses, ``0`` a draw; these proven values
    are exact), and the nodes it took."""

    codes: list[int]
    values: list[int]
    depth: int
    nodes: int

    @property
    def value(self) -> int:
        """The value of the position: that of its best action."""
        return self.values[0]


def search_full_width(state: np.ndarray, depth: int, nodes: int | None = None) -> Solution | None:
    """Search every action of the kernel state ``state`` (2 players, not over) with a
    full window to ``depth`` plies, or to the end of the game where that comes sooner.

    Returns ``None`` when the node budget ran out before that depth was finished."""
    depth = min(depth, plies_left(state))
    result = Searcher().search(
        state, legal_codes(state), depth=depth, nodes=nodes, exact_all=True, stop_when_proven=False
    )
    if result.depth < depth:
        return None
    return Solution(result.codes, result.values, result.depth, result.nodes)


def solve(state: np.ndarray, nodes: int | None = None) -> Solution | None:
    """Search the kernel state ``state`` (2 players, not over) to the end of the game.

    Returns ``None`` when the game has no known end bound or the node budget ran out
    before the proof was complete."""
    depth = plies_left(state)
    if depth >= UNBOUNDED or int(state[PLAYERS]) != 2:
        return None
    return search_full_width(state, depth, nodes)

"""The MCTS driver: the tree's memory, iteration and time limits, and the result.

Numba code cannot read the clock cheaply, so the clock stays here, as in
:mod:`shiftago.engine.search.driver`: :func:`.search.iterate` runs without the GIL in
one call, and with a ``movetime`` an alarm thread (:mod:`shiftago.engine.alarm`) sets
the tree's stop slot at the hard deadline (``movetime`` less a margin for Python's own
work); the search stops after its current iteration. ``movetime`` is therefore a hard
limit however busy the machine is. An iteration limit alone repeats exactly with the
same seed (the generator lives in the tree). The first :data:`ALWAYS_ITERATIONS` run
before the alarm starts, so that a search stopped before it began still answers with
values it found.

A search that reports its progress runs its iterations in chunks that double
(:data:`FIRST_CHUNK`, twice that, ...) and reports the result after each; the tree and
its generator carry over from chunk to chunk, so the search is the same as in one call.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from shiftago.engine.alarm import Alarm, hard_deadline
from shiftago.engine.kernel.policy import BLOCKING, GREEDY, RANDOM
from shiftago.engine.kernel.rng import seed_of
from shiftago.engine.kernel.tables import MAX_ACTIONS, PLAYERS, TURN

from .reuse import extract, find_descendant
from .search import best_line, iterate
from .tree import ITERATIONS, ROOT, STOP, Tree, new_tree, reset, share

#: The exploration constant of UCT with the solver and greedy playouts, 2 players
#: (docs/strength.md, "Figures behind the constants").
DEFAULT_C = 0.5
#: The exploration constant with the solver in 3- and 4-player games (docs/strength.md,
#: "Figures behind the constants").
MULTI_PLAYER_C = 1.0
#: The textbook exploration constant for rewards in [0, 1], of plain UCT.
PLAIN_C = math.sqrt(2)
#: The most nodes a tree may hold (about 50 bytes each, see :data:`.tree.NODE_BYTES`):
#: when it is full, leaves are played out without being expanded.
DEFAULT_MAX_NODES = 1 << 21
#: The fewest nodes a tree has room for: the root and its children.
MIN_NODES = MAX_ACTIONS + 1
#: Nodes reserved per iteration when the iterations are known (a tree uses fewer).
NODES_PER_ITERATION = 32
#: How far below the last root a search looks for its position in the tree it keeps
#: (:mod:`.reuse`): a round of four seats, or of three and a scoring.
KEPT_PLIES = 4
#: The longest deepest line kept as a principal variation.
MAX_PV = 64
#: The iterations before a search's first progress report (each next chunk doubles).
FIRST_CHUNK = 1024
#: The iterations every search runs before a stop or an alarm can end it (each of the 28
#: insertions tried about twice, a millisecond or two): even a search stopped at once
#: answers with values it found.
ALWAYS_ITERATIONS = 64


@dataclass
class MctsResult:
    """What a search found, for the seat to act at the root (``mover``).

    The root actions (kernel codes), best first: a proven win for the mover (one that
    ends the game at once first), then by visits (ties: the higher mean), proven losses
    last. For each: its visits, its value per seat (the mean reward, or the exact
    reward when proven; an action never tried gets the root's mean), its proof (a
    winners mask, 0 when not proven) and principal variation (the action, then the most
    visited line below it)."""

    mover: int
    codes: list[int]
    visits: list[int]
    values: list[tuple[float, ...]]
    proofs: list[int]
    pvs: list[list[int]]
    root_values: tuple[float, ...]
    root_proof: int
    iterations: int
    nodes: int
    seconds: float


class Mcts:
    """Monte Carlo tree search of kernel states, for 2-4 players.

    ``c`` is the exploration constant, ``solver`` turns the MCTS-Solver on (plain UCT
    without it), ``greedy`` the greedy playouts (:mod:`.rollout`; measured
    stronger than plain ones, see :class:`~shiftago.engine.mcts_bot.MctsBot`),
    ``blocking`` the number of actions at the start of each greedy playout in which the
    mover also blocks the next seat's win at once, in Express with 3-4 players (0: none,
    as the levels below the top play: ``docs/strength.md``, "Blocking playouts"),
    ``guard`` the guarded expansions of :mod:`.knowledge` (3-4 players), ``horizon`` and
    ``scale`` the playouts cut after ``horizon`` actions and valued by a softmax of the
    points at ``scale`` (:mod:`.horizon`; 0: played to the end), ``contempt`` what a
    draw is worth to the seat at the root (None: its share; :func:`.search.iterate`;
    a kept tree is used only under the same contempt), ``max_nodes`` caps
    the tree's memory. The tree is kept between searches (and grown when a search
    needs more), never reused: each search starts from a lone root."""

    def __init__(
        self,
        *,
        c: float = DEFAULT_C,
        solver: bool = True,
        greedy: bool = True,
        blocking: int = 0,
        guard: bool = False,
        horizon: int = 0,
        scale: float = 0.0,
        reach: float = 0.0,
        contempt: float | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
        reuse: bool = False,
    ) -> None:
        self.c = float(c)
        self.contempt = contempt
        self.guard = guard
        self.horizon = horizon
        self.scale = float(scale)
        self.reach = float(reach)
        self.solver = solver
        self.greedy = greedy
        self.blocking = blocking
        self.max_nodes = max(int(max_nodes), MIN_NODES)
        self.reuse = reuse
        self.tree: Tree | None = None
        #: The other tree a kept subtree is copied into (then the two swap).
        self._spare: Tree | None = None
        #: The state of the last search's root, while its tree may be kept.
        self._last_root: np.ndarray | None = None
        #: The contempt of the last search (its tree's values count draws so).
        self._last_contempt: float | None = None
        #: The visits a search found at its root when it began (0 from a lone root).
        self.kept_visits = 0

    @property
    def policy(self) -> int:
        """The playout policy of :mod:`shiftago.engine.kernel.policy` these settings ask."""
        if self.blocking > 0:
            return BLOCKING
        return GREEDY if self.greedy else RANDOM

    def search(
        self,
        state: np.ndarray,
        seed: int,
        *,
        iterations: int | None = None,
        movetime_ms: float | None = None,
        started: float | None = None,
        stop: threading.Event | None = None,
        on_progress: Callable[[MctsResult], None] | None = None,
    ) -> MctsResult:
        """Search ``state`` (a kernel array, not over) for at most ``iterations``
        iterations and ``movetime_ms`` milliseconds from ``started`` (a
        ``time.perf_counter()`` value; now by default), or until ``stop`` is set. One of
        the three is needed. ``on_progress`` hears the result so far after each chunk
        of iterations that does not end the search."""
        start = time.perf_counter() if started is None else started
        if iterations is None and movetime_ms is None and stop is None:
            raise ValueError("an MCTS needs an iteration limit, a time limit or a stop")
        tree = self._tree(iterations)
        x = np.uint64(seed_of(seed % 2**63))
        keep = self.reuse and iterations is None and movetime_ms is not None
        kept = self._kept(tree, state) if keep else None
        self._last_root = state.copy() if keep else None
        self._last_contempt = self.contempt
        if kept is None:
            reset(*tree, x)
            self.kept_visits = 0
        else:
            tree = kept
            tree.rng[0] = x
            self.kept_visits = int(tree.visits[ROOT])
        limit = (1 << 62) if iterations is None else iterations
        first = min(ALWAYS_ITERATIONS, limit)
        done = int(self._iterate(tree, state, first))
        if done < first or done >= limit:  # proven, or the iterations all done
            return _result(tree, state, done, time.perf_counter() - start)
        alarm = None
        if movetime_ms is not None or stop is not None:
            at = None if movetime_ms is None else hard_deadline(start, movetime_ms)
            alarm = Alarm(tree.info, STOP, at, value=1, stop=stop)
        try:
            # the reports come after FIRST_CHUNK iterations in all, then after chunks
            # that double (the first iterations above count in the first chunk)
            chunk = FIRST_CHUNK
            goal = limit if on_progress is None else min(chunk, limit)
            while done < limit:
                want = goal - done
                ran = int(self._iterate(tree, state, want))
                done += ran
                if ran < want or done >= limit:
                    break  # stopped, proven, or the iterations all done
                if on_progress is not None:
                    on_progress(_result(tree, state, done, time.perf_counter() - start))
                chunk *= 2
                goal = min(done + chunk, limit)
        finally:
            if alarm is not None:
                alarm.cancel()
        return _result(tree, state, done, time.perf_counter() - start)

    def _iterate(self, tree: Tree, state: np.ndarray, iterations: int) -> int:
        """:func:`.search.iterate` on ``tree`` under these settings."""
        return int(
            iterate(
                *tree,
                state,
                iterations,
                self.c,
                self.solver,
                self.policy,
                self.blocking,
                self.guard,
                self.horizon,
                self.scale,
                self.reach,
                -1.0 if self.contempt is None else self.contempt,
            )
        )

    def _kept(self, tree: Tree, state: np.ndarray) -> Tree | None:
        """The last search's subtree of ``state`` as a tree of its own (swapped in as
        ``self.tree``), or None: no last search, ``state`` not below its root, its node
        not expanded, or proven (the guard proves a node lost without children, and a
        proven root would end the search before the actions it left out are tried)."""
        if self._last_root is None or self._last_contempt != self.contempt:
            return None
        node = int(
            find_descendant(
                tree.first, tree.count, tree.code, tree.visits, self._last_root, state, KEPT_PLIES
            )
        )
        if node < 0 or tree.count[node] == 0 or tree.proof[node] != 0:
            return None  # nothing kept, or proven: a lone root ranks every action anew
        if node == ROOT:  # the same position again: the whole tree goes on, in place
            tree.info[ITERATIONS] = 0
            tree.info[STOP] = 0
            return tree
        if self._spare is None or self._spare.capacity != tree.capacity:
            self._spare = new_tree(tree.capacity)
        spare = self._spare
        extract(node, state, *tree[:8], *spare[:8], spare.info)
        self._spare, self.tree = tree, spare
        return spare

    def _tree(self, iterations: int | None) -> Tree:
        want = self.max_nodes
        if iterations is not None:
            want = min(want, iterations * NODES_PER_ITERATION + 256)
        if self.tree is None or self.tree.capacity < want:
            self.tree = new_tree(want)
            self._last_root = None  # nothing of the last search is in the new tree
        return self.tree


def _result(tree: Tree, state: np.ndarray, iterations: int, seconds: float) -> MctsResult:
    players = int(state[PLAYERS])
    mover = int(state[TURN])
    root_visits = int(tree.visits[ROOT])
    if root_visits:
        root_values = tuple(float(tree.values[ROOT, p]) / root_visits for p in range(players))
    else:
        root_values = tuple(1.0 / players for _ in range(players))
    first, count = int(tree.first[ROOT]), int(tree.count[ROOT])
    rows = []
    out = np.empty(MAX_PV, dtype=np.int64)
    for ch in range(first, first + count):
        visits = int(tree.visits[ch])
        proof = int(tree.proof[ch])
        if proof:
            values = tuple(share(proof, p) for p in range(players))
        elif visits:
            values = tuple(float(tree.values[ch, p]) / visits for p in range(players))
        else:
            values = root_values
        mine = values[mover]
        if proof == 1 << mover:
            rank = 3 if tree.count[ch] == 0 else 2  # a finished game: a win at once
        else:
            rank = 0 if proof and mine == 0.0 else 1
        n = best_line(ch, *tree[1:5], tree.visits, tree.proof, out)
        pv = [int(tree.code[ch]), *(int(c) for c in out[:n])]
        rows.append(((rank, visits, mine), int(tree.code[ch]), visits, values, proof, pv))
    rows.sort(key=lambda row: row[0], reverse=True)  # stable: ties keep the tree's order
    return MctsResult(
        mover,
        [row[1] for row in rows],
        [row[2] for row in rows],
        [row[3] for row in rows],
        [row[4] for row in rows],
        [row[5] for row in rows],
        root_values,
        int(tree.proof[ROOT]),
        iterations,
        tree.used,
        seconds,
    )

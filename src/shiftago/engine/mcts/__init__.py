"""Monte Carlo tree search (numba) for 2, 3 and 4 players, with the MCTS-Solver.

The tree lives in preallocated numpy arrays (:mod:`.tree`); selection (UCT), expansion,
random playouts (:mod:`.rollout`), backpropagation of one reward per seat and the
solver run wholly inside numba (:mod:`.search`); :mod:`.driver` keeps the clock and
turns the tree into a result. :class:`shiftago.engine.mcts_bot.MctsBot` is the front
object.
"""

from __future__ import annotations

import time
from typing import Final

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)

from .driver import DEFAULT_C, DEFAULT_MAX_NODES, MULTI_PLAYER_C, PLAIN_C, Mcts, MctsResult
from .reuse import extract, find_descendant
from .tree import ROOT, Tree, new_tree

__all__ = [
    "BENCH_POSITION",
    "DEFAULT_C",
    "DEFAULT_MAX_NODES",
    "MULTI_PLAYER_C",
    "PLAIN_C",
    "Mcts",
    "MctsResult",
    "Tree",
    "bench_iterations",
    "new_tree",
    "warm_up",
]

#: The fixed 2-player Express middle-game position of :func:`bench_iterations`
#: (16 random actions from the empty board).
BENCH_POSITION: Final = "express 2 3gogg/4g1o/4o1o/o6/oo5/gg5/4ogg o insert 14,14 0,0 0,0"
#: Iterations of one search of :func:`bench_iterations`.
BENCH_ITERATIONS: Final = 20_000


def warm_up() -> None:
    """Compile (or load from the cache) the kernel and every MCTS entry point, so that
    the first timed search does not pay for it."""
    from shiftago.core import Rules, State, Variant
    from shiftago.engine import kernel

    kernel.warm_up()
    for variant in Variant:
        for players in (2, 3):
            s = kernel.from_state(State.initial(Rules(variant, players, action_limit=60), 0))
            for solver in (True, False):
                Mcts(solver=solver, greedy=solver).search(s, 1, iterations=40)
    searched = Mcts()
    searched.search(s, 1, iterations=40)
    tree = searched.tree
    assert tree is not None
    find_descendant(tree.first, tree.count, tree.code, tree.visits, s, s, 1)
    spare = new_tree(tree.capacity)
    extract(ROOT, s, *tree[:8], *spare[:8], spare.info)


def bench_iterations(seconds: float = 1.0, *, solver: bool = True) -> float:
    """Iterations per second of the default MCTS (the solver on) from
    :data:`BENCH_POSITION`, after warm-up: fresh searches of :data:`BENCH_ITERATIONS`
    iterations (seeds 0, 1, ...) until ``seconds`` have passed (at least one)."""
    from shiftago.core import State
    from shiftago.engine import kernel

    warm_up()
    s = kernel.from_state(State.from_position(BENCH_POSITION))
    mcts = Mcts(solver=solver)
    mcts.search(s, 0, iterations=BENCH_ITERATIONS)  # the tree's pages, once
    done = 0
    start = time.perf_counter()
    seed = 0
    while True:
        done += mcts.search(s, seed, iterations=BENCH_ITERATIONS).iterations
        seed += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed

"""The 2-player alpha-beta search (numba): evaluation, Zobrist keys, negamax with a
transposition table, and the iterative-deepening driver with time management.

:class:`shiftago.engine.alphabeta.AlphaBetaBot` is its front object.
"""

from __future__ import annotations

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)

from .driver import Searcher, SearchResult
from .evaluate import MAX_HEURISTIC, evaluate, immediate_win
from .negamax import PROVEN, WIN
from .zobrist import zobrist

__all__ = [
    "MAX_HEURISTIC",
    "PROVEN",
    "WIN",
    "SearchResult",
    "Searcher",
    "evaluate",
    "immediate_win",
    "warm_up",
    "zobrist",
]


def warm_up() -> None:
    """Compile (or load from the cache) the kernel and every search entry point, so
    that the first timed search does not pay for it.

    Then freeze what exists (``gc.freeze``): the start-up objects (modules, compiled
    code) live as long as the process, and a full garbage collection that scans them
    took some 40 ms, long enough to push an answer past a ``movetime`` of 100 ms."""
    import gc

    from shiftago.core import Rules, State, Variant
    from shiftago.engine import kernel

    kernel.warm_up()
    for variant in Variant:
        s = kernel.from_state(State.initial(Rules(variant, 2), 0))
        Searcher(tt_bits=8).search(s, kernel.legal_codes(s), depth=2, exact_all=True)
    gc.collect()
    gc.freeze()

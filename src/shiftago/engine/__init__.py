"""The bots and what they search with (kernel, alpha-beta, MCTS), and their warm-up."""

from __future__ import annotations


def warm_up() -> None:
    """Compile (or load from numba's cache) every search the bots use, the MCTS of 3-4
    players and the 2-player alpha-beta search, so that no timed answer pays for it, and
    the puzzles' prover; then freeze the start-up objects
    (:func:`shiftago.engine.search.warm_up`)."""
    from shiftago.engine import mcts, search
    from shiftago.engine.puzzles import solving

    mcts.warm_up()
    solving.warm_up()
    search.warm_up()

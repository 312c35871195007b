"""The bots and what they search with (kernel, alpha-beta, MCTS), and their warm-up."""

from __future__ import annotations


def warm_up() -> None:
    """Compile (or load from numba's cache) every search the bots use, the MCTS of 3-4
    players, their paranoid search and the 2-player alpha-beta search, and read the
    top level's opening books, so that no timed answer pays for it; then freeze the
    start-up objects (:func:`shiftago.engine.search.warm_up`). The puzzles' prover is
    warmed by the one program that uses it, the web app
    (:func:`shiftago.engine.puzzles.solving.warm_up`)."""
    from shiftago.engine import mcts, multi_search_bot, search
    from shiftago.engine.book.shipped import read_every_shipped_book

    mcts.warm_up()
    multi_search_bot.warm_up()
    read_every_shipped_book()
    search.warm_up()

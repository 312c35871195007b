"""``shiftago bench``'s parts: its games are counted whole, and its signature is the
pinned node count on any thread. Its figures, all of them, are checked on one real
quick run of the command (tests/cli/test_cli.py, with tests/support/bench_figures.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from shiftago.core import Variant
from shiftago.engine.bench import (
    bench_signature,
    random_game_actions,
)
from support.bench_figures import EXPECTED_SIGNATURE


def test_random_game_actions_counts_every_action_of_whole_games() -> None:
    assert random_game_actions(Variant.EXPRESS, 2, 3, seed=1) == random_game_actions(
        Variant.EXPRESS, 2, 3, seed=1
    )
    # A 2-player Express game lasts at least 9 actions (a line of 5 needs 5 marbles).
    assert random_game_actions(Variant.EXPRESS, 2, 10, seed=2) >= 90


def test_bench_signature_is_the_pinned_node_count_on_any_thread() -> None:
    """A worker thread has its own transposition table; the count is the same."""
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(bench_signature).result() == EXPECTED_SIGNATURE

"""``shiftago bench``'s figures exist and are counted from real games (not timed here),
and its signature is the pinned node count."""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor

from shiftago.core import Variant
from shiftago.engine.bench import (
    CORE_CONFIGS,
    bench_signature,
    random_game_actions,
    run_bench,
)
from shiftago.engine.testpositions import KINDS
from shiftago.env.bench import AEC_KEY, batched_keys, env_figures


def test_random_game_actions_counts_every_action_of_whole_games() -> None:
    assert random_game_actions(Variant.EXPRESS, 2, 3, seed=1) == random_game_actions(
        Variant.EXPRESS, 2, 3, seed=1
    )
    # A 2-player Express game lasts at least 9 actions (a line of 5 needs 5 marbles).
    assert random_game_actions(Variant.EXPRESS, 2, 10, seed=2) >= 90


#: The node count of the bench signature's searches. It changes only on purpose: a
#: commit that changes the search's node counts updates it and says so in its message.
EXPECTED_SIGNATURE = 1_266_407


def test_bench_signature_is_the_pinned_node_count_on_any_thread() -> None:
    """A worker thread has its own transposition table; the count is the same."""
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(bench_signature).result() == EXPECTED_SIGNATURE


def test_bench_reports_every_core_figure() -> None:
    figures = run_bench(runs=1, quick=True)
    assert figures["bench_signature"] == EXPECTED_SIGNATURE
    for variant, players in CORE_CONFIGS:
        assert figures[f"core_actions_per_s_{variant.value}_{players}p"] > 0
    for key in (
        "search_nodes_per_s",
        "depth_at_1s_median",
        "time_to_depth_s_1_thread",
        "time_to_depth_s_2_threads",
        "smp_speedup_2_threads",
        "go_movetime_100_max_ms",
        "mcts_iterations_per_s",
    ):
        assert figures[key] > 0
    # quick: one test position of each kind, and the top level solves most of them
    assert figures["test_positions_total"] == len(KINDS)
    assert 0 <= figures["test_positions_solved_at_500ms"] <= len(KINDS)


def test_bench_reports_every_env_figure() -> None:
    figures = env_figures(runs=1, quick=True)
    assert len(batched_keys()) == 9
    for key in batched_keys():
        assert figures[key] > 0
    # The AEC figure needs PettingZoo and the AEC environment; else it is left out.
    aec = all(
        importlib.util.find_spec(name) is not None
        for name in ("pettingzoo", "shiftago.env.shiftago_v0")
    )
    assert (AEC_KEY in figures) == aec
    if aec:
        assert figures[AEC_KEY] > 0
    # The JAX figure (the jax extra) names the platform it ran on.
    jax_keys = {key for key in figures if key.startswith("env_jax_steps_per_s_")}
    assert (len(jax_keys) == 1) == (importlib.util.find_spec("jax") is not None)
    assert all(figures[key] > 0 for key in jax_keys)
    assert set(figures) == set(batched_keys()) | ({AEC_KEY} if aec else set()) | jax_keys

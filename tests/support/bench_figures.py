"""What a quick ``shiftago bench`` reports: every figure of the core's bench and of the
environments' bench, each counted from real work. One run checks both, through the
command line (tests/cli/test_cli.py), since a quick bench takes seconds."""

from __future__ import annotations

import importlib.util

from shiftago.engine.bench import CORE_CONFIGS
from shiftago.engine.testpositions import KINDS
from shiftago.env.bench import AEC_KEY, batched_keys

#: The node count of the bench signature's searches. It changes only on purpose: a
#: commit that changes the search's node counts updates it and says so in its message.
EXPECTED_SIGNATURE = 1_266_407


def check_core_figures(figures: dict[str, float]) -> None:
    assert figures["bench_signature"] == EXPECTED_SIGNATURE
    for variant, players in CORE_CONFIGS:
        assert figures[f"core_actions_per_s_{variant.value}_{players}p"] > 0
    for key in (
        "search_nodes_per_s",
        "depth_at_1s_median",
        "time_to_depth_s_1_thread",
        "time_to_depth_s_2_threads",
        "smp_speedup_2_threads",
        "mcts_iterations_per_s",
    ):
        assert figures[key] > 0
    # the opening book is off: every answer is a search of its 100 ms
    assert figures["go_movetime_100_max_ms"] >= 50
    # quick: one test position of each kind, and the top level solves most of them
    assert figures["test_positions_total"] == len(KINDS)
    assert 0 <= figures["test_positions_solved_at_500ms"] <= len(KINDS)


def check_env_figures(figures: dict[str, float]) -> None:
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

"""The numba kernel against the core, action by action (a sample; the long run is
``scripts/kernel_check.py``), and its playouts. ``pytest -s`` shows the rare-rule counts."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import Game, Rules, State, Variant
from shiftago.engine.kernel import (
    from_action,
    from_state,
    legal_codes,
    random_playouts,
    to_action,
    to_position,
)
from shiftago.engine.kernel.check import RARE, report, run_games
from shiftago.engine.kernel.tables import ACTION_CODES, COUNT, INSERTIONS, LIMIT, SEGMENTS


def test_kernel_plays_as_the_core_and_meets_every_rare_rule() -> None:
    seen = run_games(3, seed=1)
    print("\n" + report(seen))
    missing = [name for name in RARE if not seen[name]]
    assert not missing, f"rare rules never met: {missing}"


@pytest.mark.parametrize("players", (2, 3))
def test_action_codes_round_trip_through_notation(players: int) -> None:
    scorings = [INSERTIONS + 2 * seg + end for seg in range(SEGMENTS) for end in (0, 1)]
    codes = list(range(INSERTIONS)) + scorings
    assert len(codes) == ACTION_CODES
    if players == 2:
        codes = [c for c in codes if c < INSERTIONS or (c - INSERTIONS) % 2 == 0]
    for code in codes:
        action = to_action(code, players)
        assert from_action(str(action), players) == code, str(action)


def test_position_round_trip_and_initial_actions() -> None:
    state = State.initial(Rules(Variant.EXPERT, 3, handicap=(0, 2, 1)), 0)
    s = from_state(state)
    assert to_position(s) == state.position()
    assert legal_codes(s) == list(range(INSERTIONS))


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("variant", list(Variant))
def test_random_playouts_finish_every_game(variant: Variant, players: int) -> None:
    game = Game(Rules(variant, players, action_limit=300), first=0)
    counts = random_playouts(from_state(game.state), 50, 3)
    assert counts[:5].sum() == 50
    assert counts[players:4].sum() == 0  # no wins for seats that do not play
    assert counts[5] >= 50


def test_express_fast_path_plays_the_same_games_as_the_general_loop() -> None:
    starts = [
        Game(Rules(), first=1).state,
        State.from_position("express 2 7/7/7/3g3/2oo3/7/7 o insert 20,21 0,0 0,0"),
        State.from_position("express 2 7/7/7/7/7/7/7 g insert 1,2 0,0 0,0"),
    ]
    for state in starts:
        s = from_state(state)
        s[LIMIT] = 30  # an action limit, counted from 25 actions played
        s[COUNT] = 25
        fast = random_playouts(s, 2000, 11)
        general = random_playouts(s, 2000, 11, allow_fast=False)
        assert np.array_equal(fast, general), state.position()


def test_bench_reports_every_kernel_figure() -> None:
    from shiftago.engine.bench import CORE_CONFIGS, kernel_figures

    figures = kernel_figures(runs=1, quick=True)
    for variant, players in CORE_CONFIGS:
        assert figures[f"kernel_playouts_per_s_{variant.value}_{players}p"] > 0
    assert figures["kernel_moves_per_s"] > 0

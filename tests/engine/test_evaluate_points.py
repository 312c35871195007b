"""The tuned evaluation of 2-player Expert and Extreme: its features against positions
counted by hand, the same value under the board's eight symmetries, the value as the sum
of its weighted features, and the top level using it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shiftago.core import Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.kernel.tables import BOARD, OVER, PHASE, SCORE_PHASE
from shiftago.engine.levels import LEVELS, bot_for_level
from shiftago.engine.search import MAX_HEURISTIC, evaluate
from shiftago.engine.search.evaluate import (
    PF_CELL,
    PF_MINE,
    PF_MY_POINTS,
    PF_MY_REACH,
    PF_PENDING,
    PF_SEAT,
    PF_SUPPLY,
    PF_TEMPO,
    PF_THEIR_POINTS,
    PF_THEIR_REACH,
    PF_THEIR_WIN,
    PF_THEIRS,
    POINT_FEATURES,
    TUNED_EXPRESS,
    TUNED_POINTS,
    immediate_win,
    points_features,
    tuned_points,
)
from shiftago.engine.search.network import NO_NETWORK

# o to act with 5 points, g with 7: o's four on the top rank make five with one
# insertion (L7), g's five on the bottom rank make six (5 points: enough for g's 10).
EXPERT = "expert 2 oooo3/7/7/7/7/7/ggggg2 o insert 18,15 5,7 0,0"
# Extreme: three in a row each, so one insertion makes a 0-point line of four.
EXTREME = "extreme 2 ooo4/7/7/7/7/7/ggg4 o insert 19,19 0,0 0,0"


def features(position: str) -> np.ndarray:
    return points_features(kernel.from_state(State.from_position(position)))


def test_points_reach_and_supply_of_a_hand_counted_expert_position() -> None:
    x = features(EXPERT)
    assert x[PF_MY_POINTS + 5 - 1] == 1 and x[PF_MY_POINTS : PF_MY_POINTS + 9].sum() == 1
    assert x[PF_THEIR_POINTS + 7 - 1] == 1
    assert x[PF_THEIR_POINTS : PF_THEIR_POINTS + 9].sum() == 1
    assert x[PF_PENDING] == 0
    assert list(x[PF_MY_REACH : PF_MY_REACH + 4]) == [0, 1, 0, 0]  # a line of five
    assert list(x[PF_THEIR_REACH : PF_THEIR_REACH + 4]) == [0, 0, 1, 0]  # of six
    assert x[PF_THEIR_WIN] == 1  # 7 + 5 points
    assert x[PF_SUPPLY] == 18 - 15
    assert x[PF_TEMPO] == 1 and x[PF_SEAT] == 1
    # windows of five: o's four on a rank of seven lie in three windows of that rank
    # (holding 4, 3 and 2 of them), and alone in the columns and diagonals that
    # cross them
    assert x[PF_MINE + 3] == 1 and x[PF_MINE + 2] == 1 and x[PF_MINE + 1] == 1
    # g's five on its rank: windows holding 5 (not counted), 4 and 3 of them
    assert x[PF_THEIRS + 3] == 1 and x[PF_THEIRS + 2] == 1
    assert x[PF_CELL : PF_CELL + 10].sum() == 4 - 5


def test_a_pending_scoring_counts_its_points_and_the_turn_it_gives() -> None:
    s = kernel.from_state(State.from_position(EXPERT))
    kernel.apply_action(s, kernel.legal_codes(s)[6])  # L7: o's line of five
    assert int(s[PHASE]) == SCORE_PHASE
    x = points_features(s)
    assert x[PF_PENDING] == 1
    assert x[PF_MY_POINTS + 7 - 1] == 1  # 5 and the 2 of the line of five
    assert x[PF_MY_POINTS : PF_MY_POINTS + 9].sum() == 1


def test_extremes_zero_point_lines_are_within_reach() -> None:
    x = features(EXTREME)
    assert list(x[PF_MY_REACH : PF_MY_REACH + 4]) == [1, 0, 0, 0]
    assert list(x[PF_THEIR_REACH : PF_THEIR_REACH + 4]) == [1, 0, 0, 0]
    assert x[PF_THEIR_WIN] == 0
    assert x[PF_MY_POINTS : PF_THEIR_POINTS + 9].sum() == 0


def random_positions(variant: Variant, count: int, seed: int) -> list[np.ndarray]:
    """Positions after 6-40 random actions, none over and none with a win at once."""
    rng = random.Random(seed)
    found: list[np.ndarray] = []
    while len(found) < count:
        s = kernel.from_state(State.initial(Rules(variant, 2), rng.randrange(2)))
        for _ in range(rng.randint(6, 40)):
            if int(s[PHASE]) == OVER:
                break
            kernel.apply_action(s, rng.choice(kernel.legal_codes(s)))
        if int(s[PHASE]) != OVER and not immediate_win(s):
            found.append(s)
    return found


def transformed(board: int, turns: int, mirror: bool) -> int:
    out = 0
    for rank in range(7):
        for file in range(7):
            if board >> (8 * rank + file) & 1:
                f, r = file, rank
                for _ in range(turns):
                    f, r = r, 6 - f
                if mirror:
                    f = 6 - f
                out |= 1 << (8 * r + f)
    return out


@pytest.mark.parametrize("variant", [Variant.EXPERT, Variant.EXTREME])
def test_the_features_are_the_same_under_the_boards_symmetries(variant: Variant) -> None:
    seen_reach = 0
    for s in random_positions(variant, 25, seed=4):
        x = points_features(s)
        seen_reach += int(x[PF_MY_REACH : PF_MY_REACH + 4].sum())
        for turns in range(4):
            for mirror in (False, True):
                t = s.copy()
                for seat in range(2):
                    t[BOARD + seat] = np.uint64(transformed(int(s[BOARD + seat]), turns, mirror))
                assert list(points_features(t)) == list(x)
                assert evaluate(t, True, TUNED_EXPRESS, NO_NETWORK) == evaluate(
                    s, True, TUNED_EXPRESS, NO_NETWORK
                )
    assert seen_reach > 0


@pytest.mark.parametrize("variant", [Variant.EXPERT, Variant.EXTREME])
def test_the_tuned_value_is_the_weighted_sum_without_the_seat_term(variant: Variant) -> None:
    v = 1 if variant == Variant.EXPERT else 2
    assert np.any(TUNED_POINTS[v] != 0)
    for s in random_positions(variant, 20, seed=8):
        x = points_features(s)
        expected = sum(int(TUNED_POINTS[v, k]) * int(x[k]) for k in range(POINT_FEATURES))
        expected -= int(TUNED_POINTS[v, PF_SEAT]) * int(x[PF_SEAT])
        assert tuned_points(s) == expected
        assert evaluate(s, True, TUNED_EXPRESS, NO_NETWORK) == max(
            -MAX_HEURISTIC, min(MAX_HEURISTIC, expected)
        )


def test_the_tuned_evaluation_values_a_near_win_of_the_opponent_below_a_quiet_board() -> None:
    """A learned sign that must hold: the opponent one insertion from its 10 points is bad
    for the seat to act."""
    threatened = kernel.from_state(State.from_position(EXPERT))
    quiet = kernel.from_state(
        State.from_position("expert 2 oooo3/7/7/7/7/7/gg1g1gg o insert 18,15 5,7 0,0")
    )
    assert points_features(quiet)[PF_THEIR_WIN] == 0
    weights = TUNED_EXPRESS
    assert evaluate(threatened, True, weights, NO_NETWORK) < evaluate(
        quiet, True, weights, NO_NETWORK
    )


def test_the_top_level_uses_the_tuned_evaluation_in_expert() -> None:
    top = bot_for_level(LEVELS[-1][0], 1).for_rules(Rules(Variant.EXPERT, 2))
    assert getattr(top, "tuned", False)

"""Expected scores in every bot's unit, per-seat expectations and the accuracy formula."""

from __future__ import annotations

import math

import pytest

from shiftago import Rules, Variant
from shiftago.core import Action
from shiftago.engine.accuracy import (
    action_accuracy,
    drop,
    seat_accuracy,
    seat_expectations,
)
from shiftago.engine.alphabeta import HEURISTIC_SCALE, AlphaBetaBot
from shiftago.engine.bot import RankedAction, logistic
from shiftago.engine.greedy import LOSS, WIN, GreedyBot
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.engine.mcts_bot import MctsBot
from shiftago.engine.random_bot import RandomBot

EXPRESS = Rules(Variant.EXPRESS, 2)
EXPERT_3 = Rules(Variant.EXPERT, 3)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(10000 - 1, 1.0), (10000 - 37, 1.0), (1 - 10000, 0.0), (0, 0.5), (65, 1 / (1 + math.e**-1))],
)
def test_alphabeta_expectation_proven_draw_and_heuristic(value: float, expected: float) -> None:
    assert AlphaBetaBot(1).expectation(value, EXPRESS) == pytest.approx(expected)


def test_alphabeta_expectation_is_monotonic_and_uses_the_variants_scale() -> None:
    bot = AlphaBetaBot(1)
    values = [-999, -200, -50, -1, 0, 1, 50, 200, 999]
    scores = [bot.expectation(v, EXPRESS) for v in values]
    assert scores == sorted(scores) and all(0 < s < 1 for s in scores)
    expert = Rules(Variant.EXPERT, 2)
    assert bot.expectation(200, expert) == pytest.approx(
        logistic(200, HEURISTIC_SCALE[Variant.EXPERT])
    )


def test_the_tuned_evaluations_values_are_read_at_their_fitted_scale() -> None:
    tuned = AlphaBetaBot(1, tuned=True)
    for variant in (Variant.EXPERT, Variant.EXTREME):
        rules = Rules(variant, 2)
        assert tuned.expectation(130, rules) == pytest.approx(1 / (1 + math.e**-1))
        assert tuned.expectation(130, rules) > AlphaBetaBot(1).expectation(130, rules)
    assert tuned.expectation(65, EXPRESS) == pytest.approx(1 / (1 + math.e**-1))


@pytest.mark.parametrize(("value", "expected"), [(1, 1.0), (0, 0.0), (0.5, 0.5), (0.613, 0.613)])
def test_mcts_expectation_is_its_reward(value: float, expected: float) -> None:
    assert MctsBot(1).expectation(value, EXPERT_3) == expected


def test_value_of_is_the_inverse_of_expectation_inside_each_units_range() -> None:
    """An expected score (an opening book's) in a bot's unit, for its ``info`` line."""
    plain, tuned = AlphaBetaBot(1), AlphaBetaBot(1, tuned=True)
    expert = Rules(Variant.EXPERT, 2)
    for bot, rules in ((plain, EXPRESS), (plain, expert), (tuned, expert), (tuned, EXPRESS)):
        for value in (-700.0, -40.0, 0.0, 13.0, 650.0):
            assert bot.value_of(bot.expectation(value, rules), rules) == value
    # a certain score stays a heuristic: the edge of its range, never a proof
    assert plain.value_of(1.0, EXPRESS) == 999 and plain.value_of(0.0, EXPRESS) == -999
    assert plain.proven(999) == 0
    assert plain.value_of(0.4, EXPERT_3) is None  # 3 players: the greedy bot's points
    mcts = MctsBot(1)
    assert mcts.value_of(0.405, EXPERT_3) == 0.405
    assert mcts.proven(mcts.value_of(1.0, EXPERT_3)) == 0  # 1 would read as a proven win
    assert mcts.proven(mcts.value_of(0.0, EXPERT_3)) == 0
    assert RandomBot(1).value_of(0.5, EXPRESS) is None  # a unit without such a value


def test_greedy_and_random_expectations() -> None:
    greedy = GreedyBot(1)
    assert greedy.expectation(WIN, EXPRESS) == 1.0
    assert greedy.expectation(LOSS, EXPRESS) == 0.0
    assert greedy.expectation(0, EXPRESS) == 0.5
    assert 0.5 < greedy.expectation(3, EXPERT_3) < 1.0
    assert RandomBot(1).expectation(0, EXPRESS) == 0.5


def test_a_level_hands_the_expectation_to_its_bot_for_the_game() -> None:
    level = bot_for_level(default_level(), 1)
    assert isinstance(level, LevelBot)
    assert level.for_rules(EXPERT_3).expectation(0.25, EXPERT_3) == 0.25
    assert level.for_rules(EXPRESS).expectation(9999, EXPRESS) == 1.0


def test_logistic_never_overflows() -> None:
    assert logistic(-1e9, 1.0) == 0.0
    assert logistic(1e9, 1.0) == 1.0


def test_seat_expectations_two_players_share_the_rest() -> None:
    ranked = RankedAction(Action.parse("L3"), 50)
    before = seat_expectations(AlphaBetaBot(1), ranked, 1, EXPRESS)
    assert before[1] == pytest.approx(logistic(50, HEURISTIC_SCALE[Variant.EXPRESS]))
    assert sum(before) == pytest.approx(1)


def test_seat_expectations_use_the_mcts_seat_values() -> None:
    ranked = RankedAction(Action.parse("L3"), 0.5, seat_values=(0.2, 0.5, 0.3))
    assert seat_expectations(MctsBot(1), ranked, 1, EXPERT_3) == (0.2, 0.5, 0.3)
    # a bot without seat values: the rest shared evenly
    plain = RankedAction(Action.parse("L3"), WIN)
    assert seat_expectations(GreedyBot(1), plain, 2, EXPERT_3) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize(
    ("points", "accuracy"),
    [(0, 99.9999), (5, 79.817), (15, 50.524), (100, 0.0)],
)
def test_action_accuracy_follows_the_published_form(points: float, accuracy: float) -> None:
    assert action_accuracy(points) == pytest.approx(accuracy, abs=1e-3)


def test_accuracy_is_within_0_and_100_and_falls_with_the_drop() -> None:
    values = [action_accuracy(d) for d in range(0, 101, 5)]
    assert values == sorted(values, reverse=True)
    assert all(0 <= v <= 100 for v in values)
    with pytest.raises(ValueError, match="not negative"):
        action_accuracy(-1)


def test_drop_and_seat_accuracy() -> None:
    assert drop(0.7, 0.5) == pytest.approx(20)
    assert drop(0.5, 0.7) == 0.0
    assert seat_accuracy([]) is None
    assert seat_accuracy([0, 15]) == pytest.approx((99.9999 + 50.524) / 2, abs=1e-3)

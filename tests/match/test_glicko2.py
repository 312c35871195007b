"""Glicko-2 (match/glicko2.py) against Glickman's worked example and its own rules."""

from __future__ import annotations

import pytest

from shiftago.match.glicko2 import Glicko, expected_score, rate, rate_game


def test_glickman_s_worked_example():
    """ "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100
    and to 1700/300 in one period: 1464.06 / 151.52 / 0.05999."""
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    # the paper rounds its intermediate values (mu' = -0.2069), which moves its rating
    # by 0.009 from the unrounded 1464.0507: equal to 2 decimals' tolerance
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    player = Glicko(1600, 100, 0.06)
    after = rate(player, [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_one_game_moves_both_ratings_opposite_ways():
    first, second = rate_game(Glicko(), Glicko(), 1.0)
    assert first.rating > 1500 > second.rating
    assert first.rating - 1500 == pytest.approx(1500 - second.rating)
    assert first.deviation < 350 and second.deviation < 350


def test_a_draw_between_equals_changes_no_rating():
    first, second = rate_game(Glicko(), Glicko(), 0.5)
    assert first.rating == pytest.approx(1500) and second.rating == pytest.approx(1500)


def test_the_expected_score_follows_the_difference():
    assert expected_score(Glicko(1500, 0.001), Glicko(1500, 0.001)) == pytest.approx(0.5)
    # 400 points apart with no uncertainty: ten to one
    assert expected_score(Glicko(1900, 0.001), Glicko(1500, 0.001)) == pytest.approx(
        10 / 11, abs=1e-4
    )

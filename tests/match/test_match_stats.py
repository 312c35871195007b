"""Match statistics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from shiftago.match.stats import (
    PAIR_SCORES,
    constrained_mle,
    elo_estimate,
    elo_from_score,
    fair_share,
    game_points,
    mean_and_variance,
    pentanomial,
    score_from_elo,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
)


@pytest.mark.parametrize(
    ("score", "elo"),
    [
        (0.5, 0.0),
        (0.75, 190.848501887865),  # 400 * log10(3)
        (0.25, -190.848501887865),
        (0.9, 381.697003775730),  # 400 * log10(9)
        (10 / 11, 400.0),  # 1 / (1 + 10**-1)
    ],
)
def test_elo_from_score_known_values(score, elo):
    assert elo_from_score(score) == pytest.approx(elo, abs=1e-9)
    assert score_from_elo(elo) == pytest.approx(score, abs=1e-12)


def test_elo_of_a_75_percent_score_is_190_8():
    assert round(elo_from_score(0.75), 1) == 190.8


def test_elo_of_all_or_nothing_is_infinite():
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_from_score(1.5)


@pytest.mark.parametrize(
    ("winners", "players", "points"),
    [
        ((0,), 2, (1.0, 0.0)),
        ((1,), 2, (0.0, 1.0)),
        ((0, 1), 2, (0.5, 0.5)),
        ((2,), 3, (0.0, 0.0, 1.0)),
        ((0, 2), 4, (0.5, 0.0, 0.5, 0.0)),
        ((0, 1, 2), 3, (1 / 3, 1 / 3, 1 / 3)),
    ],
)
def test_game_points_share_a_draw_equally(winners, players, points):
    assert game_points(winners, players) == pytest.approx(points)
    assert sum(game_points(winners, players)) == pytest.approx(1.0)


def test_game_points_needs_a_winner():
    with pytest.raises(ValueError):
        game_points((), 2)


def test_fair_share():
    assert fair_share(2) == 0.5
    assert fair_share(3) == pytest.approx(1 / 3)
    assert fair_share(4) == 0.25


def test_mean_and_variance_by_hand():
    mean, variance = mean_and_variance([0.0, 0.5, 1.0, 1.0])
    assert mean == pytest.approx(0.625)
    # ((-0.625)^2 + (-0.125)^2 + 0.375^2 + 0.375^2) / 4
    assert variance == pytest.approx((0.390625 + 0.015625 + 0.140625 * 2) / 4)


def test_elo_interval_by_hand():
    samples = [1.0, 0.5, 0.75, 0.75]
    estimate = elo_estimate(samples)
    # mean 0.75; variance (0.0625 + 0.0625) / 4 = 0.03125; stderr sqrt(0.03125 / 4)
    stderr = math.sqrt(0.03125 / 4)
    assert estimate.stderr == pytest.approx(stderr)
    low_score = 0.75 - 1.959963984540054 * stderr
    high_score = 0.75 + 1.959963984540054 * stderr
    assert estimate.elo == pytest.approx(190.8485, abs=1e-3)
    assert estimate.low == pytest.approx(-400 * math.log10(1 / low_score - 1))
    assert estimate.high == pytest.approx(-400 * math.log10(1 / high_score - 1))
    assert estimate.low < estimate.elo < estimate.high
    assert estimate.samples == 4


def test_elo_interval_centred_on_a_given_score():
    estimate = elo_estimate([0.0, 1.0, 0.5, 0.5], score=0.75)
    assert estimate.elo == pytest.approx(elo_from_score(0.75))
    assert estimate.score == 0.75


def test_elo_interval_past_the_ends_is_infinite():
    estimate = elo_estimate([1.0, 0.0, 1.0, 1.0, 1.0])
    assert estimate.high == math.inf
    assert math.isfinite(estimate.low)


def test_pentanomial_counts_pair_scores():
    assert pentanomial([0.0, 0.25, 0.5, 0.5, 0.75, 1.0, 1.0]) == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError, match="multiple of 1/4"):
        pentanomial([0.3])


def test_sprt_bounds_are_walds():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert upper == pytest.approx(2.944438979)
    lower, upper = sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95))
    assert upper == pytest.approx(math.log(0.9 / 0.05))
    with pytest.raises(ValueError):
        sprt_bounds(0.0, 0.05)


def test_sprt_llr_of_wins_and_losses_is_the_binomial_ratio():
    # Two outcomes leave one distribution per hypothesis: the LLR is binomial, by hand.
    samples = [1.0, 1.0, 0.0, 1.0]
    n, m = 4, 0.75
    s0 = 0.5  # 0 Elo
    s1 = 1 / (1 + 10 ** (-10 / 400))  # 10 Elo: 0.514387...
    expected = n * (m * math.log(s1 / s0) + (1 - m) * math.log((1 - s1) / (1 - s0)))
    assert expected == pytest.approx(0.05591, abs=1e-5)  # worked out on paper
    assert sprt_llr(samples, 0, 10, outcomes=(0.0, 1.0)) == pytest.approx(expected)


def test_constrained_mle_has_the_hypothesis_score():
    p = [0.1, 0.2, 0.3, 0.25, 0.15]
    for score in (0.3, 0.5, 0.514, 0.7):
        q = constrained_mle(p, PAIR_SCORES, score)
        assert sum(q) == pytest.approx(1.0)
        assert sum(a * b for a, b in zip(q, PAIR_SCORES, strict=True)) == pytest.approx(score)
        assert all(x > 0 for x in q)
    mean = sum(a * b for a, b in zip(p, PAIR_SCORES, strict=True))
    assert constrained_mle(p, PAIR_SCORES, mean) == pytest.approx(p)  # already there


def test_sprt_llr_is_close_to_the_normal_approximation():
    # For small Elo differences the GSPRT is n (s1-s0)(2m-s0-s1) / (2 var).
    pairs = [0.0] * 30 + [0.25] * 150 + [0.5] * 400 + [0.75] * 180 + [1.0] * 40
    n = len(pairs)
    mean = sum(pairs) / n
    var = sum((x - mean) ** 2 for x in pairs) / n
    s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
    normal = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt_llr(pairs, 0, 5) == pytest.approx(normal, rel=0.05)


def test_sprt_llr_sign_follows_the_score():
    good = [0.75, 1.0, 0.5, 0.75] * 10
    bad = [0.25, 0.0, 0.5, 0.25] * 10
    assert sprt_llr(good, 0, 10) > 0
    assert sprt_llr(bad, 0, 10) < 0
    assert sprt_llr(good * 2, 0, 10) > sprt_llr(good, 0, 10)


def test_sprt_llr_of_nothing_but_won_pairs_is_finite_and_grows():
    llrs = [sprt_llr([1.0] * n, 0, 200) for n in (1, 2, 4, 8)]
    assert all(math.isfinite(x) and x > 0 for x in llrs)
    assert llrs == sorted(llrs)
    assert sprt_verdict(llrs[0]) is None  # one pair proves nothing
    assert sprt_verdict(llrs[-1]) == "H1"


def test_sprt_llr_needs_known_outcomes():
    assert sprt_llr([], 0, 10) == 0.0
    with pytest.raises(ValueError, match="none of the outcomes"):
        sprt_llr([0.3], 0, 10)


def test_sprt_verdict():
    assert sprt_verdict(3.0) == "H1"
    assert sprt_verdict(-3.0) == "H0"
    assert sprt_verdict(2.9) is None
    assert sprt_verdict(-2.9) is None
    assert sprt_verdict(2.0, alpha=0.2, beta=0.2) == "H1"  # bounds +-log(4) = 1.386


def test_an_even_match_reads_plus_zero_not_minus_zero():
    from shiftago.interfaces.arena_report import format_head_to_head
    from shiftago.match.standings import HeadToHead

    estimate = elo_estimate([0.5, 0.5])  # two pairs, each won once by each side
    h2h = HeadToHead("a", "b", estimate, "pentanomial", 2, (0, 0, 2, 0, 0))
    # every pair alike: no spread to measure, so no interval rather than a false ±0
    assert format_head_to_head(h2h).startswith(
        "a vs b: +0.0 Elo (every result alike: no interval), "
    )
    spread = HeadToHead("a", "b", elo_estimate([0.5, 0.75]), "pentanomial", 2, (0, 0, 1, 1, 0))
    assert format_head_to_head(spread).startswith("a vs b: +88.7 Elo (95%: ")


def test_a_crosstable_cell_of_alike_results_claims_no_interval():
    from shiftago.interfaces.arena_report import format_crosstable
    from shiftago.match.crosstable import Crosstable, PairScore

    alike = PairScore(0, 4, 0, elo_estimate([0.5] * 4))
    table = Crosstable(("a", "b"), ((None, alike), (alike, None)))
    elo_rows = format_crosstable(table).splitlines()[-2:]
    assert [row.split() for row in elo_rows] == [["a", "-", "+0"], ["b", "+0", "-"]]
    mixed = PairScore(2, 1, 1, elo_estimate([1.0, 1.0, 0.5, 0.0]))
    table = Crosstable(("a", "b"), ((None, mixed), (mixed, None)))
    assert "±" in format_crosstable(table).splitlines()[-1]

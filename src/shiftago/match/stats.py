"""Match statistics as pure functions: points, Elo, its interval, and the SPRT.

Everything here works on *samples*: scores in ``[0, 1]`` from one participant's point
of view, one per independent unit of play. A unit is a single game (the trinomial
model: loss, draw, win) or a game pair, one opening played from both seats (the
pentanomial model: the pair's mean score is 0, 1/4, 1/2, 3/4 or 1). Pairs are the
better unit for matches with fixed openings: an opening that favours one seat makes
the two games of its pair correlated, and treating them as independent games
overstates the spread. The match code uses pairs; the functions do not care.

Elo is the logistic model of chess: an expected score ``s`` is a rating difference of
``-400 * log10(1/s - 1)``, so a 75% score is +190.8 Elo. The SPRT is the generalized
SPRT of Michel Van den Bergh (as used by fishtest and cutechess): the log-likelihood
ratio of two Elo hypotheses, each the most likely distribution of the outcomes that
has the hypothesis's expected score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from shiftago.match.errors import MatchSetupError

#: The two-sided 95% quantile of the standard normal distribution.
Z95: Final = 1.959963984540054
#: The mean scores a game pair can have (the pentanomial model's outcomes).
PAIR_SCORES: Final = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The count given to an outcome not seen yet, as fishtest does: without it a match
#: that starts with nothing but won pairs would have no spread and no verdict.
REGULARIZATION: Final = 1e-3


def game_points(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Points per seat: 1 for a sole winner, a draw shared equally, 0 for a loss.

    >>> game_points([1], 2)
    (0.0, 1.0)
    >>> game_points([0, 2], 3)
    (0.5, 0.0, 0.5)
    """
    if not winners:
        raise ValueError("a finished game has at least one winner or drawing seat")
    share = 1.0 / len(winners)
    return tuple(share if seat in winners else 0.0 for seat in range(players))


def fair_share(players: int) -> float:
    """The score of a participant exactly as strong as the others: 1/players."""
    return 1.0 / players


def elo_from_score(score: float) -> float:
    """The Elo difference that expects ``score`` (``±inf`` at 0 and 1).

    >>> round(elo_from_score(0.75), 1)
    190.8
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference: the inverse of :func:`elo_from_score`."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def mean_and_variance(samples: Sequence[float]) -> tuple[float, float]:
    """The mean and the (population) variance of the samples."""
    n = len(samples)
    if n == 0:
        raise ValueError("no samples")
    mean = math.fsum(samples) / n
    variance = math.fsum((x - mean) ** 2 for x in samples) / n
    return mean, variance


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its interval, from ``samples`` units of play.

    ``score`` is the mean sample score and ``stderr`` its standard error; ``low`` and
    ``high`` are the Elo values of ``score ∓ z * stderr`` (``±inf`` past 0 or 1).
    """

    elo: float
    low: float
    high: float
    score: float
    stderr: float
    samples: int


def elo_estimate(
    samples: Sequence[float], *, score: float | None = None, z: float = Z95
) -> EloEstimate:
    """The Elo difference and its interval from the standard error of the mean sample.

    ``score`` centres the estimate elsewhere than the samples' mean (the match uses the
    score over all games, and the spread of the complete game pairs).

    >>> e = elo_estimate([1.0, 0.5, 0.75, 0.75])
    >>> round(e.elo, 1), round(e.low, 1), round(e.high, 1)
    (190.8, 53.8, 432.1)
    """
    mean, variance = mean_and_variance(samples)
    centre = mean if score is None else score
    stderr = math.sqrt(variance / len(samples))
    return EloEstimate(
        elo=elo_from_score(centre),
        low=elo_from_score(_clip(centre - z * stderr)),
        high=elo_from_score(_clip(centre + z * stderr)),
        score=centre,
        stderr=stderr,
        samples=len(samples),
    )


def pentanomial(pair_scores: Sequence[float]) -> tuple[int, int, int, int, int]:
    """How many pairs scored 0, 1/4, 1/2, 3/4 and 1 (the pair's mean score).

    >>> pentanomial([0.0, 0.5, 0.5, 1.0, 0.75])
    (1, 0, 2, 1, 1)
    """
    counts = [0, 0, 0, 0, 0]
    for score in pair_scores:
        index = round(score * 4)
        if abs(index - score * 4) > 1e-9 or not 0 <= index <= 4:
            raise ValueError(f"a pair's mean score is a multiple of 1/4, not {score}")
        counts[index] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def sprt_llr(
    samples: Sequence[float],
    elo0: float,
    elo1: float,
    outcomes: Sequence[float] = PAIR_SCORES,
) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) after ``samples``.

    Each sample is one of ``outcomes`` (by default the five pair scores; ``(0, 0.5,
    1)`` for single games). The frequencies of the outcomes, with a count of
    :data:`REGULARIZATION` for those not seen yet, give the empirical distribution
    ``p``; under each hypothesis the most likely distribution with the expected score
    ``s`` of its Elo is ``p_i / (1 + lambda (a_i - s))`` (:func:`constrained_mle`), and
    ``LLR = n * sum p_i log(p1_i / p0_i)``. With two outcomes (wins and losses only)
    this is the binomial ``n (m log(s1/s0) + (1-m) log((1-s1)/(1-s0)))`` exactly, and
    for small Elo differences it is close to the normal approximation
    ``n (s1 - s0) (2m - s0 - s1) / (2 var)``.
    """
    if not samples:
        return 0.0
    counts = [0] * len(outcomes)
    for x in samples:
        for i, outcome in enumerate(outcomes):
            if abs(x - outcome) < 1e-9:
                counts[i] += 1
                break
        else:
            raise ValueError(f"the sample {x} is none of the outcomes {tuple(outcomes)}")
    weights = [c if c else REGULARIZATION for c in counts]
    p = [w / math.fsum(weights) for w in weights]
    p0 = constrained_mle(p, outcomes, score_from_elo(elo0))
    p1 = constrained_mle(p, outcomes, score_from_elo(elo1))
    return len(samples) * math.fsum(
        pi * math.log(a / b) for pi, a, b in zip(p, p1, p0, strict=True)
    )


def constrained_mle(p: Sequence[float], outcomes: Sequence[float], score: float) -> list[float]:
    """The distribution over ``outcomes`` closest to ``p`` (maximum likelihood) with mean
    ``score``: ``p_i / (1 + lambda (a_i - score))``, ``lambda`` found by bisection.

    >>> [round(x, 3) for x in constrained_mle([0.5, 0.5], [0.0, 1.0], 0.75)]
    [0.25, 0.75]
    """
    d = [a - score for a in outcomes]
    if not min(d) < 0 < max(d):
        raise ValueError(f"the score {score} is not strictly inside the outcomes")
    # f(lambda) = sum p_i d_i / (1 + lambda d_i) falls from +inf to -inf on this interval.
    low, high = -1.0 / max(d), -1.0 / min(d)
    for _ in range(200):
        middle = (low + high) / 2
        f = math.fsum(pi * di / (1.0 + middle * di) for pi, di in zip(p, d, strict=True))
        if f > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    q = [pi / (1.0 + lam * di) for pi, di in zip(p, d, strict=True)]
    total = math.fsum(q)
    return [x / total for x in q]


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below the first, H1 at or above the second.

    >>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 0.5:
            raise MatchSetupError(
                "{name} must be between 0 and 0.5, not {value}", name=name, value=value
            )
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


Verdict = Literal["H0", "H1"]


def sprt_verdict(llr: float, alpha: float = 0.05, beta: float = 0.05) -> Verdict | None:
    """``H1`` (the gain is at least elo1), ``H0`` (at most elo0), or None: play on."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


def _clip(score: float) -> float:
    return min(1.0, max(0.0, score))

"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013),
as pure functions.

No maintained Python library fitted (the known ones are unmaintained or keep ratings
in mutable player objects), and the algorithm is short, so it is written here and
checked against the paper's worked example (tests/match/test_glicko2.py). A rating period is
whatever the caller passes at once: the web app rates each game as a period of its own.

The steps are the paper's: to the Glicko-2 scale (``mu``, ``phi``), the estimated
variance ``v`` and improvement ``delta``, the new volatility by the Illinois algorithm,
and back to the Glicko scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: The Glicko scale's unit on the Glicko-2 scale (400 / ln 10).
SCALE: Final = 173.7178
#: How much the volatility may change (the system constant; 0.3 to 1.2 are sensible).
TAU: Final = 0.5
#: The convergence tolerance of the volatility's iteration.
EPSILON: Final = 0.000001
#: A rating is provisional while its deviation is above this (Lichess's rule): shown
#: with a "?" and kept off leaderboards.
PROVISIONAL_DEVIATION: Final = 110.0


def provisional(deviation: float) -> bool:
    """Whether a rating of this deviation is still provisional."""
    return deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: the rating, its deviation, and the volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


#: The rating of an account before its first rated game of a category.
START: Final = Glicko()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of the paper's f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player``'s rating after one rating period of ``games``: each an opponent's
    rating (as it was before the period) and ``player``'s score (1 win, 0.5 draw, 0
    loss). No games: only the deviation grows."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, grown * SCALE, sigma)
    seen = [((o.rating - 1500.0) / SCALE, o.deviation / SCALE, score) for o, score in games]
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in seen:
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(1500.0 + SCALE * new_mu, SCALE * new_phi, new_sigma)


def rate_game(
    first: Glicko, second: Glicko, score: float, tau: float = TAU
) -> tuple[Glicko, Glicko]:
    """Both ratings after one game between them as a period of its own; ``score`` is
    the first's (1 win, 0.5 draw, 0 loss)."""
    return rate(first, [(second, score)], tau), rate(second, [(first, 1.0 - score)], tau)


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The score ``player`` is expected to make against ``opponent``."""
    mu = (player.rating - 1500.0) / SCALE
    return _expected(mu, (opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE)

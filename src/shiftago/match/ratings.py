"""Rating lists for more than two participants, with OpenSkill's Plackett-Luce model.

Elo compares two sides; games of three or four players, and tournaments of many
participants, need a model that learns from rankings. Each game is a ranking of its
seats: the winner first, the others tied behind (a shared draw puts the drawing seats
tied first). The games are rated in their schedule order, so that a resumed match
gives the same list as one that ran through. ``ordinal`` (``mu - 3 sigma``) is the
conservative value to sort by.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from shiftago.match.games import GameResult


@dataclass(frozen=True)
class Rating:
    """A participant's skill estimate: mean ``mu``, uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the skill the participant has almost surely."""
        return self.mu - 3.0 * self.sigma


def ranks(points: Sequence[float]) -> list[float]:
    """Each seat's rank for the model: 1 for the winners (or those sharing a draw), 2 else.

    >>> ranks([0.0, 1.0, 0.0])
    [2.0, 1.0, 2.0]
    >>> ranks([0.5, 0.5])
    [1.0, 1.0]
    """
    return [1.0 if p > 0 else 2.0 for p in points]


def rate(keys: Sequence[str], games: Iterable[GameResult]) -> dict[str, Rating]:
    """The rating of every participant after the games (in the order given)."""
    model = PlackettLuce()
    current = {key: model.rating(name=key) for key in keys}
    for game in games:
        teams = [[current[key]] for key in game.seats]
        rated = model.rate(teams, ranks=ranks(game.points))
        for key, (rating,) in zip(game.seats, rated, strict=True):
            current[key] = rating
    return {key: Rating(float(r.mu), float(r.sigma)) for key, r in current.items()}

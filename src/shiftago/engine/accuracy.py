"""Expected scores and accuracy: a bot's values on one scale that every page can read.

A bot reports values in its own unit (:attr:`~.bot.Bot.value_unit`: centi-units, a mean
reward, points); :meth:`~.bot.Bot.expectation` turns one into the mover's expected score
in [0, 1] (1 a win, 0 a loss, a draw shared by its winners). This module spreads that
over the seats and measures how much of it each action gave away:

* :func:`seat_expectations`: every seat's expected score after a judged action, in seat
  order: the bot's own per-seat values where it has them (the MCTS with 3-4 players),
  else the mover's expectation and the rest shared by the others (with 2 players: ``1 -
  e``);
* :func:`action_accuracy`: the accuracy of one action from its drop ``d``, the expected
  score it lost against the best action in percentage points:
  ``103.1668 * exp(-0.04354 * d) - 3.1669`` within [0, 100] (the form a chess site
  publishes; 100 for the best action, about 80 at ``d = 5``, 50 at ``d = 15``, 0 at ``d = 80``);
* :func:`seat_accuracy`: a seat's accuracy over a game, the mean of its actions'.

docs/analysis.md explains the scale, the formula and the figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from shiftago.core import Rules
from shiftago.engine.bot import Bot, RankedAction

#: ``A * exp(-K * d) - C``, ``d`` in percentage points of expected score: the published
#: chess-site form, which gives 100 at ``d = 0`` (docs/analysis.md).
ACCURACY_A: Final = 103.1668
ACCURACY_K: Final = 0.04354
ACCURACY_C: Final = 3.1669


def _unit(value: float) -> float:
    return min(max(float(value), 0.0), 1.0)


def seat_expectations(
    bot: Bot, ranked: RankedAction, mover: int, rules: Rules
) -> tuple[float, ...]:
    """Every seat's expected score (seat order) if ``ranked``, judged by ``bot`` for the
    seat ``mover`` in a game under ``rules``, is played: the bot's per-seat values where
    it gives them, else the mover's expectation and the rest shared evenly by the other
    seats."""
    players = rules.players
    if ranked.seat_values is not None and len(ranked.seat_values) == players:
        return tuple(_unit(bot.expectation(v, rules)) for v in ranked.seat_values)
    mine = _unit(bot.expectation(ranked.value, rules))
    rest = (1.0 - mine) / (players - 1)
    return tuple(mine if seat == mover else rest for seat in range(players))


def drop(expected_best: float, expected_played: float) -> float:
    """The expected score an action lost against the best, in percentage points (0 when
    it lost none, or when the bot rated it above its best)."""
    return max(0.0, 100.0 * (expected_best - expected_played))


def action_accuracy(points: float) -> float:
    """The accuracy (0-100) of an action that lost ``points`` percentage points."""
    if points < 0:
        raise ValueError(f"a drop is not negative, not {points}")
    value = ACCURACY_A * math.exp(-ACCURACY_K * points) - ACCURACY_C
    return min(max(value, 0.0), 100.0)


def seat_accuracy(drops: Iterable[float]) -> float | None:
    """A seat's accuracy: the mean of its actions' (None for a seat without one)."""
    values = [action_accuracy(points) for points in drops]
    return sum(values) / len(values) if values else None

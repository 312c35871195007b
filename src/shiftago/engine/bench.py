"""Speed figures for ``shiftago bench``: measured, never asserted.

Each figure is the median of several timed runs. Keys are stable so that figures can
be compared between commits and machines.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from shiftago.core import Game, Rules, Variant

#: Express with 2 players is the headline figure; the others are measured alike.
CORE_CONFIGS: tuple[tuple[Variant, int], ...] = tuple((v, n) for v in Variant for n in (2, 3, 4))
#: Extreme has no natural end: random games get this action limit (RULES.md section 7).
RANDOM_GAME_ACTION_LIMIT = 400


def random_game_actions(variant: Variant, players: int, games: int, seed: int) -> int:
    """Play ``games`` seeded random games through the public API; return the actions.

    Each action is the public path a program takes: ``legal_actions()``, a choice from
    a seeded generator, and a validated ``play()``.
    """
    rng = random.Random(seed)
    rules = Rules(variant, players, action_limit=RANDOM_GAME_ACTION_LIMIT)
    actions = 0
    for i in range(games):
        game = Game(rules, first=i % players)
        while not game.is_over:
            game.play(rng.choice(game.legal_actions()))
            actions += 1
    return actions


def median_rate(measure: Callable[[int], int], runs: int) -> float:
    """The median over ``runs`` of (work done / seconds); ``measure(run)`` does the work."""
    rates = []
    for run in range(runs):
        start = time.perf_counter()
        work = measure(run)
        rates.append(work / (time.perf_counter() - start))
    return statistics.median(rates)


def core_figures(runs: int = 5, games: int = 600) -> dict[str, float]:
    """Random-game actions per second of the pure-Python core, per variant and players."""
    figures: dict[str, float] = {}
    for variant, players in CORE_CONFIGS:
        per_run = games if variant is Variant.EXPRESS else max(1, games // 8)

        def measure(run: int, v: Variant = variant, n: int = players, g: int = per_run) -> int:
            return random_game_actions(v, n, g, seed=run)

        key = f"core_actions_per_s_{variant.value}_{players}p"
        figures[key] = round(median_rate(measure, runs))
    return figures


def run_bench(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """Every figure of ``shiftago bench``; ``quick`` measures less (for smoke tests)."""
    return core_figures(runs=runs, games=20 if quick else 600)

"""How sure the top level's search values are: the logistic scale ``K`` of a 2-player
variant for the computer's review (docs/analysis.md, "Expected score").

    python scripts/fit_review_scale.py [--variant express] [--games 150] [--nodes 300000]

Self-play of the top level from openings of 2 to 6 random actions, each action searched
to ``nodes``; every position's value of the best action (proven ones left out) is paired
with the game's result for the seat to act (1 a win, ½ a draw, 0 a loss), and the log
loss of ``1 / (1 + exp(-value / K))`` is printed for several ``K``, with the best one and
what the seat to act scored in bands of value.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from shiftago.core import Game, Rules, Variant
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level
from shiftago.engine.search import PROVEN


def self_play(variant: Variant, games: int, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """The values of the positions played and the seat to act's result in each."""
    values: list[float] = []
    scores: list[float] = []
    for g in range(games):
        rng = random.Random(1000 + g)
        game = Game(Rules(variant, 2), first=0)
        for _ in range(rng.randint(2, 6)):
            game.play(rng.choice(game.legal_actions()))
        bot = bot_for_level(7, seed=g).for_rules(game.rules)
        movers: list[int] = []
        while not game.is_over:
            best = bot.analyse(game.state, Limits(nodes=nodes))[0]
            if abs(best.value) < PROVEN:
                values.append(float(best.value))
                movers.append(game.turn)
            game.play(best.action)
        assert game.outcome is not None
        winners = game.outcome.winners
        scores += [(1.0 / len(winners)) if m in winners else 0.0 for m in movers]
    return np.array(values), np.array(scores)


def log_loss(values: np.ndarray, scores: np.ndarray, scale: float) -> float:
    p = np.clip(1 / (1 + np.exp(-values / scale)), 1e-6, 1 - 1e-6)
    return float(-np.mean(scores * np.log(p) + (1 - scores) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # (in 2-player Extreme the top level is the MCTS, whose values are expected scores)
    parser.add_argument("--variant", choices=["express", "expert"], default="express")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--nodes", type=int, default=300_000)
    args = parser.parse_args()
    start = time.perf_counter()
    values, scores = self_play(Variant(args.variant), args.games, args.nodes)
    print(
        f"{args.variant}, {args.games} games at {args.nodes} nodes an action: "
        f"{len(values)} positions, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for scale in (50, 65, 100, 130, 200, 300, 400):
        print(f"K {scale}: log loss {log_loss(values, scores, scale):.4f}")
    best = min(range(20, 600, 5), key=lambda k: log_loss(values, scores, k))
    print(f"best K {best}: log loss {log_loss(values, scores, best):.4f}")
    for low, high in (
        (-400, -200),
        (-200, -100),
        (-100, -30),
        (-30, 30),
        (30, 100),
        (100, 200),
        (200, 400),
    ):
        band = (values > low) & (values <= high)
        if band.any():
            print(
                f"value in ({low}, {high}]: {int(band.sum())} positions, "
                f"the seat to act scored {scores[band].mean():.2f}"
            )


if __name__ == "__main__":
    main()

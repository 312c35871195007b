"""Tune the top level's 2-player Express weights by play (SPSA), and measure weights.

Logistic tuning (``scripts/tune_eval.py``) fits the weights that predict self-play
results best; a better fit has played worse (docs/strength.md, "A second round in
Express"). This script tunes them by what they win instead, two commands:

    python scripts/tune_play.py spsa --pairs 8000 --nodes 30000 spsa.json
    python scripts/tune_play.py match --pairs 1000 --nodes 30000 -- "W1,W2,..." tuned

``spsa`` (simultaneous perturbation stochastic approximation) plays game pairs between
the weights moved by ``+c·Δ`` and by ``-c·Δ`` (``Δ`` a random ±1 for each weight, ``c``
a quarter of the weight and at least 4 centi-units), each pair one opening of 2 to 5
random actions with the seats swapped, and moves the weights by ``rate·c·Δ`` times the
pair's result (-1 to 1: the plus side's points less one), the rate falling slowly with
the pairs played. Every search is the top level's (late move reductions, the tuned
evaluation) to ``--nodes`` nodes a move, so a run plays the same on any machine. It
writes the weights after each pair to the JSON file and prints the mean of the last
third of the run: the weights to try.

``match`` plays paired games between two weight vectors (21 numbers in the layout of
``evaluate.TUNED_EXPRESS``, or ``tuned`` for the engine's) and prints the first one's
score, Elo and interval and the pentanomial counts of the pairs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from shiftago.core import Rules, State
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.search.evaluate import EXPRESS_WEIGHT_NAMES as NAMES
from shiftago.engine.search.evaluate import EXPRESS_WEIGHTS, TUNED_EXPRESS
from shiftago.match.stats import elo_estimate, pentanomial

#: The rate's fall: ``rate * ((1 + A) / (pairs played + A)) ** 0.602`` (Spall's exponent).
STABILITY = 2000
#: The transposition table of each search (small: the searches are short).
TT_BITS = 18


def opening(seed: int) -> State:
    """The empty board after 2 to 5 random actions (not a finished game)."""
    rng = random.Random(seed)
    while True:
        state = State.initial(Rules(), 0)
        for _ in range(rng.randint(2, 5)):
            state = state.after(rng.choice(state.legal_actions()))
        if not state.is_over:
            return state


def _bot(weights: np.ndarray, seed: int, nodes: int) -> AlphaBetaBot:
    return AlphaBetaBot(
        seed,
        nodes=nodes,
        reductions=True,
        tuned=True,
        tt_bits=TT_BITS,
        express_weights=weights,
    )


def _first_seat_points(start: State, first: AlphaBetaBot, second: AlphaBetaBot) -> float:
    state = start
    while not state.is_over:
        state = state.after((first, second)[state.turn].choose(state))
    assert state.outcome is not None
    winner = state.outcome.winner
    return 0.5 if winner is None else float(winner == 0)


def play_pair(task: tuple[np.ndarray, np.ndarray, int, int]) -> float:
    """The points of ``a`` over the two games of one opening (0 to 2), each side once
    first; ``task`` is (a, b, seed, nodes)."""
    a, b, seed, nodes = task
    start = opening(seed)
    points = _first_seat_points(start, _bot(a, seed, nodes), _bot(b, seed + 1, nodes))
    points += 1.0 - _first_seat_points(start, _bot(b, seed + 1, nodes), _bot(a, seed, nodes))
    return points


def spsa(pairs: int, nodes: int, rate: float, jobs: int, seed: int, out: Path) -> None:
    theta = TUNED_EXPRESS.astype(np.float64)
    c = np.maximum(4.0, 0.25 * np.abs(theta))
    rng = np.random.default_rng(seed)
    history: list[list[float]] = []
    with multiprocessing.Pool(jobs) as pool:
        pending = []

        def submit(k: int) -> None:
            delta = rng.choice([-1.0, 1.0], size=theta.shape)
            plus = np.rint(theta + c * delta).astype(np.int64)
            minus = np.rint(theta - c * delta).astype(np.int64)
            task = (plus, minus, seed * 1_000_000 + 2 * k, nodes)
            pending.append((delta, pool.apply_async(play_pair, (task,))))

        submitted = 0
        while submitted < min(pairs, 2 * jobs):
            submit(submitted)
            submitted += 1
        for done in range(1, pairs + 1):
            delta, result = pending.pop(0)
            step = rate * ((1.0 + STABILITY) / (done + STABILITY)) ** 0.602
            theta += step * c * (result.get() - 1.0) * delta
            history.append(theta.tolist())
            if submitted < pairs:
                submit(submitted)
                submitted += 1
            if done % 100 == 0 or done == pairs:
                out.write_text(json.dumps({"names": NAMES, "history": history}))
                print(done, " ".join(str(round(v)) for v in theta), flush=True)
    final = np.mean(history[-max(1, len(history) // 3) :], axis=0)
    for name, value in zip(NAMES, final, strict=True):
        print(f"  {name:8} {value:8.1f}")
    print("as weights:", ",".join(str(round(v)) for v in final))


def parse_weights(text: str) -> np.ndarray:
    """Weights from ``W1,W2,...`` (the layout of ``TUNED_EXPRESS``) or ``tuned``."""
    if text == "tuned":
        return TUNED_EXPRESS.copy()
    weights = np.array([int(v) for v in text.split(",")], dtype=np.int64)
    if weights.shape != (EXPRESS_WEIGHTS,):
        raise SystemExit(f"give {EXPRESS_WEIGHTS} weights, not {weights.shape[0]}")
    return weights


def match(a: np.ndarray, b: np.ndarray, pairs: int, nodes: int, jobs: int, seed: int) -> None:
    tasks = [(a, b, seed * 1_000_000 + 2 * k, nodes) for k in range(pairs)]
    with multiprocessing.Pool(jobs) as pool:
        points: Sequence[float] = pool.map(play_pair, tasks, chunksize=4)
    scores = [p / 2 for p in points]
    e = elo_estimate(scores)
    print(
        f"{pairs} pairs at {nodes} nodes a move: score {e.score:.1%}, "
        f"Elo {e.elo:+.0f} ({e.low:+.0f} to {e.high:+.0f}), pentanomial {list(pentanomial(scores))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    tune = commands.add_parser("spsa", help="tune the weights by play")
    tune.add_argument("--pairs", type=int, default=8000)
    tune.add_argument("--nodes", type=int, default=30000)
    tune.add_argument("--rate", type=float, default=0.05)
    tune.add_argument("--jobs", type=int, default=2)
    tune.add_argument("--seed", type=int, default=1)
    tune.add_argument("out", type=Path)
    measure = commands.add_parser("match", help="paired games between two weight vectors")
    measure.add_argument("--pairs", type=int, default=1000)
    measure.add_argument("--nodes", type=int, default=30000)
    measure.add_argument("--jobs", type=int, default=2)
    measure.add_argument("--seed", type=int, default=2)
    measure.add_argument("weights", type=parse_weights)
    measure.add_argument("against", type=parse_weights)
    args = parser.parse_args()
    if args.command == "spsa":
        spsa(args.pairs, args.nodes, args.rate, args.jobs, args.seed, args.out)
    else:
        match(args.weights, args.against, args.pairs, args.nodes, args.jobs, args.seed)


if __name__ == "__main__":
    main()

"""Self-play on the batched environment: a small value network learns Shiftago Express.

Run it from the repository (``.venv/bin/pip install -e ".[examples]"`` brings scikit-learn)::

    python examples/selfplay_value.py --out curve       # 20,000 games of self-play
    python examples/selfplay_value.py --games 50000 --seed 1 --out run1 --save net.pickle
    python examples/selfplay_value.py --quick --out tmp  # a smoke run: seconds, proves nothing

Training runs on a budget of games (``--games``), never on the clock, and reads no
clock: the same ``--seed`` gives the same numbers, on any machine speed. It prints the
arena's table of the untrained network against greedy, then the learning curve (a row
every ``--eval-every`` games: games, positions learnt, the mean squared TD error since
the last row, the share of games drawn, and the score against greedy over
``--eval-games`` arena games), written to ``OUT/curve.csv`` with ``--out OUT``, and at
the end the tables of the trained network against ``random`` and ``greedy``: games,
wins, draws, losses, score, and the Elo difference with its 95% interval (every
opening is played twice, seats swapped; ``--arena-games 0`` leaves them out).

How it learns, in the manner of TD-Gammon:

1. A network (:class:`~sklearn.neural_network.MLPRegressor`, one hidden layer) judges
   *afterstates*: the board right after an action, seen by its mover (the two marble
   planes of :func:`shiftago.env.spaces.encode_observation`; in 2-player Express no
   marble leaves the board, so the supplies follow from it). Its value estimates the
   mover's outcome: +1 win, -1 loss, 0 draw.
2. ``batch`` games are played side by side on :class:`shiftago.env.batched.BatchedEnv`.
   A compiled helper (:func:`judge_afterstates`) plays every legal action of every
   game on a copy of its state: an action that wins is worth +1, one that draws 0,
   one after which the opponent can win at once -1 (all exact); the other, *quiet*,
   afterstates go to the network, in one ``predict`` call for the whole batch. Each
   side plays its best afterstate; with probability ``epsilon`` it gives the quiet ones
   random values instead, so it explores, but still wins and still never blunders.
3. TD(lambda): when a game ends, each quiet afterstate it played gets the target
   ``G = (1 - lambda) * (-v) + lambda * (-G')``, where ``v`` is the value of the best
   afterstate the opponent could reach from it and ``G'`` the target of the one the
   opponent played (for an exact afterstate, ``G`` is its exact value). ``lambda = 0``
   learns from the next position only (TD(0)), ``lambda = 1`` from the game's result
   (Monte Carlo); 0.5 did best in our trials. Every ``4 * batch`` targets the network
   takes a ``partial_fit`` step on them, each seen in the 8 symmetries of the board
   (the rules have them all).

The bot (:class:`ValueNetBot`) plays the same way without exploring. Its exact part is
the one-ply check that the greedy bot has too (win at once, never allow a win in one),
so what separates the two is how they judge the quiet actions: greedy by the length of
its own lines, the network by what won in self-play. The untrained network (the random
weights that training starts from, in the same shell) plays first, to show that the
difference is learnt.
"""

from __future__ import annotations

import argparse
import csv
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np
from numba import njit
from sklearn.neural_network import MLPRegressor
from threadpoolctl import threadpool_limits

from shiftago.core import State, Variant
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction
from shiftago.engine.kernel import from_state, to_action
from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import MARBLES, MAX_ACTIONS, OVER, PHASE, TURN, WINNERS
from shiftago.engine.search.evaluate import immediate_win
from shiftago.env.batched import BatchedEnv
from shiftago.env.spaces import encode_observation, plane_count
from shiftago.interfaces import arena_report
from shiftago.match import MatchConfig, register_bot, run_match

PLANES = plane_count(2)  # the observation of a 2-player game...
FEATURES = 2 * 7 * 7  # ...of which the network sees the two board planes
QUIET = np.float32(np.nan)  # the value of an afterstate that the network must judge


@njit(cache=True)
def judge_afterstates(
    states: np.ndarray, codes: np.ndarray, values: np.ndarray, features: np.ndarray
) -> np.ndarray:
    """For every state (a row of ``states``) and each of its legal actions ``j``: the
    action code in ``codes[b, j]``, its exact value for the mover in ``values[b, j]``
    (+1 win, 0 draw, -1 when the opponent can then win at once; NaN when quiet) and the
    afterstate's board planes in ``features[b, j]``. Returns the number of actions."""
    counts = np.zeros(states.shape[0], dtype=np.int64)
    planes = np.empty((PLANES, 7, 7), dtype=np.float32)
    after = np.empty_like(states[0])  # scratch: no allocation per action
    for b in range(states.shape[0]):
        mover = np.int64(states[b, TURN])
        n = legal_actions(states[b], codes[b])
        counts[b] = n
        for j in range(n):
            after[:] = states[b]
            apply_action(after, codes[b, j])
            encode_observation(after, mover, planes)
            features[b, j] = planes[:2].ravel()
            if np.int64(after[PHASE]) == OVER:
                won = np.int64(after[WINNERS])
                values[b, j] = 1.0 if won == 1 << mover else 0.0 if won & 1 << mover else -1.0
                continue
            # The engine's bitboard test: can the seat to act (the opponent) win at once?
            values[b, j] = -1.0 if immediate_win(after) else QUIET
    return counts


def symmetric(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The examples ``x`` (board planes, flattened) in all 8 symmetries of the square,
    with their targets ``y``."""
    boards = x.reshape(-1, 2, 7, 7)
    turned = [np.rot90(boards, k, axes=(2, 3)) for k in range(4)]
    every = turned + [t[:, :, :, ::-1] for t in turned]
    return np.concatenate(every).reshape(-1, FEATURES), np.tile(y, 8)


def new_network(seed: int, hidden: int) -> MLPRegressor:
    """A network with random weights (``partial_fit`` on one example sets them up)."""
    net = MLPRegressor(
        hidden_layer_sizes=(hidden,),
        activation="tanh",
        learning_rate_init=1e-3,
        random_state=seed,
    )
    net.partial_fit(np.zeros((1, FEATURES), dtype=np.float32), np.zeros(1))
    return net


def fill_values(net: MLPRegressor, values: np.ndarray, features: np.ndarray) -> None:
    """Replace each NaN of ``values`` by the network's estimate, kept inside (-1, 1) so
    that exact wins and losses stay exact."""
    quiet = np.isnan(values)
    if quiet.any():
        values[quiet] = np.clip(net.predict(features[quiet]), -0.99, 0.99)


@dataclass
class Checkpoint:
    """One row of the learning curve (see :data:`CURVE_COLUMNS`)."""

    games: int
    positions: int
    td_error: float
    drawn: float
    score_vs_greedy: float | None


#: The columns of ``curve.csv``: self-play games so far, positions learnt so far, the
#: mean squared TD error of the positions learnt since the last row (measured just
#: before each learning step), the share of those games drawn, and the network's score
#: against greedy in the arena (empty with ``--eval-games 0``).
CURVE_COLUMNS = ("games", "positions", "td_error", "drawn", "score_vs_greedy")


def train(
    net: MLPRegressor,
    budget: int,
    every: int,
    settings: argparse.Namespace,
    checkpoint: Callable[[Checkpoint], None],
) -> None:
    """Self-play until ``budget`` games have ended, ``settings.batch`` games at once,
    learning by TD(lambda); ``checkpoint`` gets a row each ``every`` games and at the
    end. Nothing here reads a clock, so the same seed gives the same numbers."""
    batch, epsilon, lam, seed = settings.batch, settings.epsilon, settings.lam, settings.seed
    env = BatchedEnv(batch, "express", 2, seed=seed, observe=False)  # we see afterstates
    rng = np.random.default_rng(seed)
    slots = np.arange(batch)
    codes = np.zeros((batch, MAX_ACTIONS), dtype=np.int64)
    values = np.zeros((batch, MAX_ACTIONS), dtype=np.float32)
    features = np.zeros((batch, MAX_ACTIONS, FEATURES), dtype=np.float32)
    # Each game so far, action by action: the afterstate played, its exact value (NaN:
    # quiet) and the value of the best afterstate its mover could choose from.
    played = np.zeros((batch, 2 * MARBLES, FEATURES), dtype=np.float32)
    exact = np.zeros((batch, 2 * MARBLES), dtype=np.float32)
    best = np.zeros((batch, 2 * MARBLES), dtype=np.float32)
    length = np.zeros(batch, dtype=np.int64)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    games = draws = examples = 0
    squared = 0.0  # the TD errors' squares since the last row, and how many
    measured = 0
    since = 0  # games since the last row
    next_row = every
    while games < budget:
        counts = judge_afterstates(env.states, codes, values, features)
        quiet = np.isnan(values)
        fill_values(net, values, features)
        values[np.arange(MAX_ACTIONS) >= counts[:, None]] = -np.inf  # not legal
        # Explore: a random opinion of the quiet actions (still win, still never blunder).
        explore = quiet & (rng.random(batch) < epsilon)[:, None]
        scores = np.where(explore, rng.uniform(-0.99, 0.99, values.shape), values)
        chosen = (scores + 1e-6 * rng.random(values.shape)).argmax(axis=1)  # ties: random
        played[slots, length] = features[slots, chosen]
        exact[slots, length] = np.where(quiet[slots, chosen], np.nan, values[slots, chosen])
        best[slots, length] = values.max(axis=1)
        length += 1
        env.step(codes[slots, chosen])
        for b in np.flatnonzero(env.terminated):  # targets, from the last action back
            n = length[b]
            g = exact[b, :n].copy()  # the last action's value is always exact
            quiet_ones = np.isnan(g)
            for t in np.flatnonzero(quiet_ones)[::-1]:
                g[t] = -(1 - lam) * best[b, t + 1] - lam * g[t + 1]
            xs.append(played[b, :n][quiet_ones])
            ys.append(g[quiet_ones])
            length[b] = 0
        ended = int(env.terminated.sum())
        games += ended
        since += ended
        draws += int((env.winners == 3).sum())  # both seats' bits: a draw
        if sum(len(y) for y in ys) >= 4 * batch or (games >= budget and ys):
            x, y = np.concatenate(xs), np.concatenate(ys)
            squared += float(np.sum((net.predict(x) - y) ** 2))
            measured += len(y)
            net.partial_fit(*symmetric(x, y))
            examples += len(y)
            xs, ys = [], []
        if games >= next_row or games >= budget:
            td_error = squared / measured if measured else float("nan")
            checkpoint(Checkpoint(games, examples, td_error, draws / max(since, 1), None))
            squared, measured, draws, since = 0.0, 0, 0, 0
            next_row = (games // every + 1) * every
    print(f"  trained on {games} self-play games, {examples} positions learnt", flush=True)


class ValueNetBot(Bot):
    """Plays the afterstate the network likes best, after the exact one-ply checks."""

    name = "valuenet"
    value_unit = "the mover's expected outcome, -1 to +1 (exactly +-1: a win or loss in one)"

    def __init__(self, net: MLPRegressor, seed: int) -> None:
        self.net = net
        self.rng = np.random.default_rng(seed)

    def proven(self, value: float) -> int:
        return 1 if value == 1 else -1 if value == -1 else 0

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        rules = state.rules
        if rules.variant is not Variant.EXPRESS or rules.players != 2 or any(rules.handicap):
            raise ValueError("the value network knows 2-player Express without handicap only")
        if state.outcome is not None:
            return []
        codes = np.zeros((1, MAX_ACTIONS), dtype=np.int64)
        values = np.zeros((1, MAX_ACTIONS), dtype=np.float32)
        features = np.zeros((1, MAX_ACTIONS, FEATURES), dtype=np.float32)
        n = judge_afterstates(from_state(state)[None], codes, values, features)[0]
        fill_values(self.net, values, features)
        order = np.lexsort((self.rng.random(n), -values[0, :n]))  # best first, ties at random
        ranked = []
        for j in order:
            action = to_action(int(codes[0, j]), 2)
            ranked.append(RankedAction(action, float(values[0, j]), (action,)))
        return ranked


def arena(bot: str, opponent: str, games: int, seed: int, quiet: bool = False) -> float:
    """Play a match in the arena, print its tables unless ``quiet`` (nothing is written
    to disk) and return ``bot``'s score (points per game)."""
    config = MatchConfig(participants=(bot, opponent), games=games, seed=seed, results=None)
    result = run_match(config)
    if not quiet:
        print(arena_report.summary(result))
        print(arena_report.tables(result), flush=True)
    return next(row.score for row in result.standings.rows if bot in (row.key, row.name))


def register(name: str, net: MLPRegressor) -> None:
    """Make the network a bot of the arena under ``name`` (a closure over the network:
    the match is played with ``jobs=1``, in this process)."""

    def factory(argument: str | None, seed: int) -> Bot:
        return ValueNetBot(net, seed)

    register_bot(name, factory)


class Curve:
    """The learning curve: each row printed, and written to ``out/curve.csv`` when
    ``out`` is given; ``eval_games`` arena games against greedy score each row."""

    def __init__(self, net: MLPRegressor, out: Path | None, eval_games: int, seed: int) -> None:
        self.net, self.eval_games, self.seed = net, eval_games, seed
        self.file: TextIO | None = None
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            self.file = (out / "curve.csv").open("w", newline="", encoding="utf-8")
            csv.writer(self.file).writerow(CURVE_COLUMNS)

    def __call__(self, row: Checkpoint) -> None:
        if self.eval_games:
            register("valuenet", self.net)
            row.score_vs_greedy = arena("valuenet", "greedy", self.eval_games, self.seed, True)
        cells = [
            str(row.games),
            str(row.positions),
            "" if np.isnan(row.td_error) else f"{row.td_error:.6f}",
            f"{row.drawn:.4f}",
            "" if row.score_vs_greedy is None else f"{row.score_vs_greedy:.4f}",
        ]
        if self.file is not None:
            csv.writer(self.file).writerow(cells)
            self.file.flush()
        pairs = zip(CURVE_COLUMNS, cells, strict=True)
        shown = ", ".join(f"{name} {cell or '-'}" for name, cell in pairs)
        print(f"  {shown}", flush=True)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="self-play games (20000)")
    parser.add_argument("--out", type=Path, help="write the learning curve to OUT/curve.csv")
    parser.add_argument(
        "--eval-every", type=int, default=2000, help="games between rows of the curve (2000)"
    )
    parser.add_argument(
        "--eval-games", type=int, default=40, help="arena games against greedy per row (40)"
    )
    parser.add_argument(
        "--arena-games", type=int, default=200, help="arena games per final match (200)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of everything (0)")
    parser.add_argument("--batch", type=int, default=256, help="games played at once (256)")
    parser.add_argument("--hidden", type=int, default=128, help="hidden units (128)")
    parser.add_argument("--epsilon", type=float, default=0.1, help="exploration rate (0.1)")
    parser.add_argument("--lam", type=float, default=0.5, help="TD(lambda)'s lambda (0.5)")
    parser.add_argument("--save", type=Path, help="pickle the trained network to this file")
    parser.add_argument("--quick", action="store_true", help="a smoke run that proves nothing")
    if parser.parse_args().quick:  # smaller defaults; options given still count
        parser.set_defaults(games=96, eval_every=48, eval_games=2, arena_games=4)
        parser.set_defaults(batch=16, hidden=16)
    args = parser.parse_args()
    for name in ("games", "eval_every", "batch", "hidden"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} is at least 1")
    for name in ("eval_games", "arena_games"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} is at least 0")
    threadpool_limits(1)  # one BLAS thread: small matrices, and the same sums every run

    if args.arena_games:
        print("Before training: the untrained network (random weights) against greedy")
        register("untrained", new_network(args.seed, args.hidden))
        arena("untrained", "greedy", args.arena_games, args.seed)

    print(f"\nSelf-play training on {args.games} games; the learning curve:")
    net = new_network(args.seed, args.hidden)
    curve = Curve(net, args.out, args.eval_games, args.seed)
    try:
        curve(Checkpoint(0, 0, float("nan"), 0.0, None))
        train(net, args.games, args.eval_every, args, curve)
    finally:
        curve.close()
    if args.save is not None:
        args.save.write_bytes(pickle.dumps(net))  # pickle.loads gives the MLPRegressor back

    register("valuenet", net)
    for opponent in ("random", "greedy") if args.arena_games else ():
        print(f"\nAfter training: against {opponent}")
        arena("valuenet", opponent, args.arena_games, args.seed)
    if args.quick:
        print("\n(--quick: too little training and too few games; these numbers prove nothing)")


if __name__ == "__main__":
    main()

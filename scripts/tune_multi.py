"""Fit the evaluation of 3-4 player Express (:mod:`shiftago.engine.mcts.seat_eval`) on
positions from self-play.

Two steps, each a command:

    python scripts/tune_multi.py generate --players 3 --games 3000 --iterations 3000 --seed 1 m3.npz
    python scripts/tune_multi.py fit m3.npz

``generate`` plays 3- or 4-player Express games of the guarded MCTS (the top level's
search at a fixed number of iterations a move) from openings of 0 to 4 random actions and
stores every position before an action with the game's winners. ``fit`` splits the games
(a fifth for the test), fits the multinomial logistic model of ``seat_eval`` (each
seat's score from its features with the weights of its place after the seat to act, the
draw's from the empty cells; a result shared by some seats counts for each of them
alike, one shared by all as the draw) by Newton's method with a small L2 penalty, and prints the
test log-loss of the fit, of the model with only the constants (how often each place and
the draw won) and of the weights now in ``seat_eval``, and the weights to put there.
docs/strength.md, "A fitted evaluation for 3 and 4 players", has the data and results.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
from numba import njit

from shiftago.core import Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.kernel.playout import play_out
from shiftago.engine.kernel.policy import GREEDY
from shiftago.engine.kernel.rng import seed_of
from shiftago.engine.kernel.tables import (
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    STATE_SIZE,
    TURN,
    VARIANT,
    WINNERS,
)
from shiftago.engine.mcts import MULTI_PLAYER_C, Mcts
from shiftago.engine.mcts.seat_eval import (
    DRAW_FEATURES,
    DRAW_WEIGHTS,
    FEATURES,
    SEAT_FEATURES,
    WEIGHTS,
    all_features,
)
from shiftago.engine.mcts.tree import share

#: The columns of :func:`shiftago.engine.mcts.seat_eval.seat_features` by variant.
WINDOWS = ["win1", "win2", "win3"]
CELLS = [f"cell{c}" for c in range(10)]
NAMES = [
    [*WINDOWS, "threat", "double", *CELLS, "const"],
    WINDOWS
    + ["reach", "reach_wins"]
    + [f"points{p}" for p in range(1, 10)]
    + ["pending", "supply"]
    + CELLS
    + ["const"],
]
DRAW_NAMES = ["const", "empty", "empty2"]


def generate(
    variant: Variant, players: int, games: int, iterations: int, seed: int, out: Path
) -> None:
    """Self-play positions of the guarded MCTS with the winners of their games."""
    rng = random.Random(seed)
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True)
    states: list[np.ndarray] = []
    winners: list[int] = []
    game_ids: list[int] = []
    for game in range(games):
        s = kernel.from_state(State.initial(Rules(variant, players), 0))
        for _ in range(rng.randint(0, 4)):
            kernel.apply_action(s, rng.choice(kernel.legal_codes(s)))
        seen: list[np.ndarray] = []
        while int(s[PHASE]) != OVER:
            seen.append(s.copy())
            result = mcts.search(s, rng.randrange(2**62), iterations=iterations)
            kernel.apply_action(s, result.codes[0])
        for position in seen:
            states.append(position)
            winners.append(int(s[WINNERS]))
            game_ids.append(seed * 1_000_000 + game)
        if game % 100 == 99:
            print(f"{game + 1} games, {len(states)} positions", file=sys.stderr, flush=True)
            save(out, states, winners, game_ids)  # so far: a stopped run keeps its games
    save(out, states, winners, game_ids)


def save(out: Path, states: list[np.ndarray], winners: list[int], game_ids: list[int]) -> None:
    np.savez_compressed(
        out,
        states=np.array(states, dtype=np.uint64).reshape(-1, STATE_SIZE),
        winners=np.array(winners, dtype=np.int64),
        games=np.array(game_ids, dtype=np.int64),
    )


@njit(cache=True)
def add_result(out: np.ndarray, winners: int, turn: int, players: int) -> None:
    """Add one result (a winners mask) to ``out``, the classes of one position: the
    places after the seat to act ``turn``, then the result shared by all (last); a result
    shared by some seats counts for each of them alike."""
    if winners == (1 << players) - 1:
        out[players] += 1.0
        return
    for seat in range(players):
        out[(seat - turn) % players] += share(winners, seat)


def load(
    paths: list[Path],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The positions in ``paths``, their features by place (the variant's columns), the
    draw's features, the target distribution over the places and the draw, the game
    ids, the player count and the variant."""
    states = np.concatenate([np.load(p)["states"] for p in paths])
    winners = np.concatenate([np.load(p)["winners"] for p in paths])
    games = np.concatenate([np.load(p)["games"] for p in paths])
    players = int(states[0, PLAYERS])
    variant = int(states[0, VARIANT])
    if np.any(states[:, PLAYERS] != players) or np.any(states[:, VARIANT] != variant):
        raise SystemExit("the files mix player counts or variants")
    n = len(states)
    x = np.zeros((n, players, SEAT_FEATURES))
    g = np.zeros((n, DRAW_FEATURES))
    y = np.zeros((n, players + 1))
    for row in range(n):
        all_features(states[row], x[row], g[row])
        add_result(y[row], int(winners[row]), int(states[row, TURN]), players)
    return states, x[:, :, : FEATURES[variant]], g, y, games, players, variant


@njit(cache=True)
def playout_results(states: np.ndarray, playouts: int, seed: int) -> np.ndarray:
    """For each state, how often ``playouts`` greedy playouts (the MCTS's) ended in each
    class of :func:`add_result`."""
    players = np.int64(states[0, PLAYERS])
    out = np.zeros((states.shape[0], players + 1))
    moves = np.empty(MAX_ACTIONS, dtype=np.int64)
    s = np.empty(STATE_SIZE, dtype=np.uint64)
    x = seed_of(seed)
    for row in range(states.shape[0]):
        turn = np.int64(states[row, TURN])
        for _ in range(playouts):
            s[:] = states[row]
            winners, x, _ = play_out(s, x, moves, GREEDY)
            add_result(out[row], winners, turn, players)
    return out


def design(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Each class's features in the space of all weights: ``phi[n, c]`` holds place
    ``c``'s seat features in its own block (the draw's features in the last block), so
    that the logits are ``phi @ theta``."""
    n, players, columns = x.shape
    phi = np.zeros((n, players + 1, players * columns + DRAW_FEATURES))
    for d in range(players):
        phi[:, d, d * columns : (d + 1) * columns] = x[:, d]
    phi[:, players, players * columns :] = g
    return phi


def softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-(y * np.log(np.maximum(p, 1e-12))).sum(axis=1).mean())


def fit_weights(
    phi: np.ndarray, y: np.ndarray, l2: float, free: np.ndarray, constant: np.ndarray
) -> np.ndarray:
    """The weights minimising the log-loss plus ``l2`` times their squares (the
    ``constant`` ones unpenalised), fitting only the ``free`` ones (the others stay 0): Newton's
    method, which the problem's convexity lets converge in a few steps."""
    n, _, size = phi.shape
    theta = np.zeros(size)
    columns = np.flatnonzero(free)
    penal = np.where(constant, 0.0, 1.0)
    penal[-DRAW_FEATURES:] = 0.0
    sub = phi[:, :, columns]
    for _ in range(50):
        p = softmax(phi @ theta)
        gradient = np.einsum("nc,ncd->d", p - y, sub) / n + 2 * l2 * (penal * theta)[columns]
        mean = np.einsum("nc,ncd->nd", p, sub)
        weighted = (sub * p[:, :, None]).reshape(-1, len(columns))
        hessian = (weighted.T @ sub.reshape(-1, len(columns)) - mean.T @ mean) / n
        hessian += np.diag(2 * l2 * penal[columns] + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        theta[columns] -= step
        if np.abs(step).max() < 1e-7:
            break
    return theta


def fit(paths: list[Path], l2: float, playouts: int) -> None:
    states, x, g, y, games, players, variant = load(paths)
    columns = x.shape[2]
    ids = np.unique(games)
    rng = np.random.default_rng(0)
    test_games = set(rng.choice(ids, size=len(ids) // 5, replace=False).tolist())
    test = np.array([int(k) in test_games for k in games])
    train = ~test
    print(
        f"{len(ids)} games, {len(x)} positions ({test.sum()} for the test); results: "
        + ", ".join(
            f"{label} {y[:, k].sum() / len(y):.3f}"
            for k, label in enumerate([f"place {d}" for d in range(players)] + ["draw"])
        )
    )
    phi = design(x, g)
    everything = np.ones(phi.shape[2], dtype=bool)
    constants = np.zeros(phi.shape[2], dtype=bool)
    constants[columns - 1 : -DRAW_FEATURES : columns] = True  # each place's constant
    constants[-DRAW_FEATURES] = True  # the draw's own
    for label, free in (("constants only", constants), ("fit", everything)):
        theta = fit_weights(phi[train], y[train], l2, free, constants)
        print(f"{label}: test log-loss {log_loss(softmax(phi[test] @ theta), y[test]):.4f}")
    if playouts:
        counts = playout_results(states[test], playouts, 1)
        p = (counts + 0.5) / (playouts + 0.5 * (players + 1))
        print(f"{playouts} greedy playouts a position: test log-loss {log_loss(p, y[test]):.4f}")
    shipped = WEIGHTS[variant, players - 3, :players, :columns]
    now = np.concatenate([shipped.ravel(), DRAW_WEIGHTS[variant, players - 3]])
    print(f"seat_eval now: test log-loss {log_loss(softmax(phi[test] @ now), y[test]):.4f}")
    theta = fit_weights(phi, y, l2, everything, constants)
    w = theta[: players * columns].reshape(players, columns)
    v = theta[players * columns :]
    print("weights (all positions), one row per place after the seat to act:")
    print("    # " + ", ".join(NAMES[min(variant, 1)]))
    for d in range(players):
        print("    [" + ", ".join(f"{value:.4f}" for value in w[d]) + "],")
    print("draw: # " + ", ".join(DRAW_NAMES))
    print("    [" + ", ".join(f"{value:.4f}" for value in v) + "],")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="self-play positions with their results")
    gen.add_argument("out", type=Path)
    gen.add_argument("--players", type=int, choices=(3, 4), default=3)
    gen.add_argument("--variant", type=Variant, choices=list(Variant), default=Variant.EXPRESS)
    gen.add_argument("--games", type=int, default=1000)
    gen.add_argument("--iterations", type=int, default=3000)
    gen.add_argument("--seed", type=int, default=1)
    fitting = sub.add_parser("fit", help="fit the weights on generated positions")
    fitting.add_argument("data", type=Path, nargs="+")
    fitting.add_argument("--l2", type=float, default=1e-4)
    fitting.add_argument(
        "--playouts", type=int, default=64, help="greedy playouts per test position, to compare"
    )
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.variant, args.players, args.games, args.iterations, args.seed, args.out)
    else:
        fit(args.data, args.l2, args.playouts)


if __name__ == "__main__":
    main()

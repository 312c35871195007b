"""Fit the small network of the tuned 2-player Express evaluation (engine/search/network.py).

    python scripts/fit_network.py d1-deep.npz d1-walk-deep.npz \
        src/shiftago/engine/search/data/express-net.npz

The inputs are the files of ``scripts/tune_eval.py label``: self-play positions, and
positions off the games' paths (``tune_eval.py walk``), each with a deeper search's value
as an expected score (``deep``). Of their quiet positions (the seat to act has no win
at once), a fifth of the games (drawn the same whatever ``--seed``; a walked position
goes with the game it left) is kept for the test. The network learns what the tuned
weights miss: ``sigmoid((tuned + seat + net) / K)`` is fitted to the deeper values by
cross-entropy (Adam with a rate falling linearly to 0, mini-batches, each batch in one
of the board's eight symmetries drawn at random), where ``tuned`` is the value of the
tuned weights alone, ``seat`` a weight for the first player's advantage (the seat to
act has as many marbles on the board as its opponent), fitted first and then left out
as in ``tune_eval.py fit``, and ``K`` the scale of ``tune_eval.py`` (129.5). It prints
the test cross-entropy of the tuned weights alone and with the network, on the games'
positions and on the walked ones (what the search meets off the games' paths: the
figure that went with playing strength, docs/strength.md), and writes the trained
weights (``hidden``, ``bias``, ``out``) that ``network.pack`` reads. The same files and
seed give the same weights. docs/strength.md, "A network in the evaluation" and "The
network refitted", has the data, the commands and the results.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from shiftago.core.geometry import CELLS
from shiftago.engine.kernel.tables import BOARD, TURN
from shiftago.engine.search.evaluate import TUNED_EXPRESS, evaluate, immediate_win
from shiftago.engine.search.network import CELL_INPUTS, HIDDEN, NO_NETWORK

#: The scale of the values (``tune_eval.py``'s ``K``).
SCALE = 129.5
#: The network's output is this many centi-units per unit of its last layer's sum
#: (the weights start near 1).
OUT_UNIT = 100.0


def cells(board: int) -> np.ndarray:
    """The 49 inputs of one seat's marbles, ``7 * rank + file``."""
    return np.array([board >> bit & 1 for bit in CELLS], dtype=np.float32)


def symmetries() -> np.ndarray:
    """``maps[t][cell]``: where each cell goes under each of the board's 8 symmetries."""
    maps = np.zeros((8, CELL_INPUTS), dtype=np.int64)
    for t in range(8):
        for rank in range(7):
            for file in range(7):
                r, f = rank, file
                if t & 1:
                    r = 6 - r
                if t & 2:
                    f = 6 - f
                if t & 4:
                    r, f = f, r
                maps[t, 7 * rank + file] = 7 * r + f
    return maps


def load(paths: list[Path]) -> tuple[np.ndarray, ...]:
    """Inputs, tuned values, deeper values, games and whether walked (positions of
    ``tune_eval.py walk``, which have no game result) of the quiet positions of ``paths``."""
    inputs, values, deep, games, walked = [], [], [], [], []
    for path in paths:
        data = np.load(path)
        off_path = bool(np.isnan(data["results"]).all())
        for s, target, game in zip(data["states"], data["deep"], data["games"], strict=True):
            s = s.astype(np.uint64)
            if immediate_win(s):
                continue
            turn = int(s[TURN])
            inputs.append(
                np.concatenate([cells(int(s[BOARD + turn])), cells(int(s[BOARD + 1 - turn]))])
            )
            values.append(evaluate(s, True, TUNED_EXPRESS, NO_NETWORK))
            deep.append(target)
            games.append(int(game))
            walked.append(off_path)
    return (
        np.array(inputs),
        np.array(values, dtype=np.float32),
        np.array(deep, dtype=np.float32),
        np.array(games),
        np.array(walked),
    )


def held_out(games: np.ndarray) -> np.ndarray:
    """Which positions are the test's: those of a fifth of the games, drawn the same
    whatever the fit's seed (a walked position has the game it left)."""
    ids = np.unique(games)
    return np.isin(games, np.random.default_rng(0).choice(ids, len(ids) // 5, replace=False))


def cross_entropy(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-6, 1 - 1e-6)
    return float(np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))))


def fit(paths: list[Path], out: Path, epochs: int, seed: int, l2: float, rate: float) -> None:
    x, values, y, games, walked = load(paths)
    maps = symmetries()
    first = (x[:, :CELL_INPUTS].sum(1) == x[:, CELL_INPUTS:].sum(1)).astype(np.float32)
    test = held_out(games)
    train = ~test
    rng = np.random.default_rng(seed)
    seat = min(
        np.arange(-300, 301, 2.0),
        key=lambda w: cross_entropy((values[train] + w * first[train]) / SCALE, y[train]),
    )
    base = values + seat * first
    print(
        f"{len(y)} quiet positions ({int(walked.sum())} walked), {int(test.sum())} for the "
        f"test; seat weight {seat:.0f}"
    )
    parts = [("games", test & ~walked), ("walked", test & walked)]
    parts = [(name, part) for name, part in parts if part.any()]
    for name, part in parts:
        alone = cross_entropy(base[part] / SCALE, y[part])
        print(f"test cross-entropy, {name}, tuned weights alone: {alone:.5f}")

    def turned(batch: np.ndarray, t: int) -> np.ndarray:
        moved = np.empty_like(batch)
        moved[:, maps[t]] = batch[:, :CELL_INPUTS]
        moved[:, CELL_INPUTS + maps[t]] = batch[:, CELL_INPUTS:]
        return moved

    hidden = rng.normal(0, 0.1, (2 * CELL_INPUTS, HIDDEN)).astype(np.float32)
    bias = np.zeros(HIDDEN, np.float32)
    last = np.zeros(HIDDEN, np.float32)
    params = [hidden, bias, last]
    first_moment = [np.zeros_like(p) for p in params]
    second_moment = [np.zeros_like(p) for p in params]
    step = 0

    def logits(batch: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(batch @ hidden + bias, 0)
        return h, (start + h @ last * OUT_UNIT) / SCALE

    xs, starts, ys = x[train], base[train], y[train]
    steps = epochs * -(-len(ys) // 256)
    for epoch in range(epochs):
        order = rng.permutation(len(ys))
        for i in range(0, len(ys), 256):
            idx = order[i : i + 256]
            batch = turned(xs[idx], int(rng.integers(8)))
            h, z = logits(batch, starts[idx])
            g = (1.0 / (1.0 + np.exp(-z)) - ys[idx]) / len(idx) / SCALE * OUT_UNIT
            grad_last = h.T @ g + l2 * last
            gh = np.outer(g, last) * (h > 0)
            grads = [batch.T @ gh + l2 * hidden, gh.sum(0), grad_last]
            step += 1
            now = rate * (1 - step / steps)
            for j, (p, grad) in enumerate(zip(params, grads, strict=True)):
                first_moment[j] = 0.9 * first_moment[j] + 0.1 * grad
                second_moment[j] = 0.999 * second_moment[j] + 0.001 * grad * grad
                p -= (
                    now
                    * (first_moment[j] / (1 - 0.9**step))
                    / (np.sqrt(second_moment[j] / (1 - 0.999**step)) + 1e-8)
                )
        if epoch % 5 == 4 or epoch == epochs - 1:
            losses = [
                np.mean(
                    [
                        cross_entropy(logits(turned(x[part], t), base[part])[1], y[part])
                        for t in range(8)
                    ]
                )
                for _, part in parts
            ]
            shown = ", ".join(
                f"{name} {loss:.5f}" for (name, _), loss in zip(parts, losses, strict=True)
            )
            print(f"epoch {epoch + 1}: test cross-entropy with the network: {shown}")
    np.savez(out, hidden=hidden, bias=bias, out=last * OUT_UNIT)
    print(f"written: {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--rate", type=float, default=3e-3)
    parser.add_argument("data", type=Path, nargs="+", help="files of tune_eval.py label")
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    fit(args.data, args.out, args.epochs, args.seed, args.l2, args.rate)


if __name__ == "__main__":
    main()

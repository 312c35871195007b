"""Tune the top level's evaluation on positions from self-play (logistic "Texel" tuning).

Two steps, each a command:

    python scripts/tune_eval.py generate --games 4000 --depth 5 --seed 1 d1.npz
    python scripts/tune_eval.py generate --games 3000 --depth 7 --seed 2 d2.npz
    python scripts/tune_eval.py fit d1.npz d2.npz

With ``--variant expert`` or ``--variant extreme`` ``generate`` plays that variant (at
most ``--limit`` actions a game) and ``fit`` fits the weights of
:func:`shiftago.engine.search.evaluate.points_features` instead, for
``TUNED_POINTS[variant]``; ``--scale`` sets ``K`` where the classic evaluation predicts
too little to set it (docs/strength.md, "The tuned evaluations of Expert and Extreme").

``generate`` plays 2-player Express games of the top level's search (late move
reductions, classic evaluation, a fixed depth) from openings of 2 to 8 random actions
and stores every position before an action with the game's result for the seat to act
(1 a win, 0 a loss, ½ a draw). ``fit`` keeps the quiet positions (the seat to act has no
win at once: the search never evaluates the others), splits them by game (a fifth of
the games for the test), and fits the weights of the terms of
:func:`shiftago.engine.search.evaluate.tuned_express` so that ``sigmoid(value / K)``
predicts the result, ``K`` being the scale that fits the classic evaluation best (the
tuned values keep the classic scale, which the search's windows and margins assume).
It prints the test log-loss of the classic evaluation, of the fit, of the tuned
evaluation as the engine computes it and (Express) of the first round's form refitted
(no double threat), and the weights to put into ``evaluate.py``. ``generate --tuned``
plays the games with the tuned evaluation instead: a second round of tuning, on the
top level's own positions (docs/strength.md, "A second round in Express").

``label`` (2-player Express) gives every ``--every``-th quiet position of a file the
value of a deeper search as a second target: the top level's search (the tuned
evaluation, late move reductions) to ``--depth`` and one ply deeper, the mean of the
two values (they alternate with the depth's parity) as ``sigmoid(value / K)``, a proven
result as 1 or 0. ``fit --target deep`` then fits the weights to those values instead
of the games' results, and ``--target mixed`` to their mean: an evaluation that
predicts what the search finds a few plies on rather than how self-play games ended
(docs/strength.md, "Fitted to a deeper search").

    python scripts/tune_eval.py label --depth 6 --every 2 d1.npz d1-deep.npz
    python scripts/tune_eval.py fit --scale 129.5 --target deep d1-deep.npz

The labelling search values its leaves by the tuned weights alone, without the network
of :mod:`shiftago.engine.search.network`: a network fitted to values its own search gave
plays weaker (docs/strength.md, "The network refitted"). ``walk`` makes the
positions a search meets off the games' paths: from every second position of a file,
one to three uniformly random actions (``label`` then values them; they have no game
result, stored as NaN, so only ``--target deep`` fits them):

    python scripts/tune_eval.py walk --seed 1 d1.npz d1-walk.npz
    python scripts/tune_eval.py label --depth 6 d1-walk.npz d1-walk-deep.npz

A term for the first player's advantage (the seat to act has fewer marbles on the board
when it moves second) is fitted too, so that no other weight stands in for it, and then
left out: every leaf of a search would get it alike for each seat. docs/strength.md,
"The tuned evaluation", has the data and the result of the last tuning.
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
from shiftago.engine.kernel.moves import occupied, popcount
from shiftago.engine.kernel.tables import BOARD, EXPRESS, OVER, PHASE, TURN, VARIANT, WINNERS
from shiftago.engine.search import PROVEN, Searcher
from shiftago.engine.search.evaluate import (
    CELL_CLASSES,
    EXPRESS_WEIGHT_NAMES,
    PF_SEAT,
    POINT_FEATURES,
    TUNED_EXPRESS,
    XW_DOUBLE,
    evaluate,
    immediate_win,
    points_features,
    window_counts,
    winning_insertions,
)
from shiftago.engine.search.network import EXPRESS_NETWORK, NO_NETWORK

#: Feature columns: the seat to act's open windows holding 1-4 marbles, the opponent's,
#: marbles by cell class (the seat to act's less the opponent's), the opponent's win at
#: once, its two or more distinct winning insertions, the constant (tempo) and the
#: first player's advantage (fitted, not used).
NAMES = [*EXPRESS_WEIGHT_NAMES, "seat"]
SEAT = len(NAMES) - 1
#: The columns the first round did not have: its form is fitted without them too.
NEW_COLUMNS = (NAMES.index("double"),)
#: The columns of :func:`shiftago.engine.search.evaluate.points_features` (Expert, Extreme).
POINT_NAMES = (
    [f"mine{k}" for k in range(1, 5)]
    + [f"theirs{k}" for k in range(1, 5)]
    + [f"cell{c}" for c in range(len(CELL_CLASSES))]
    + [f"my_points{p}" for p in range(1, 10)]
    + [f"their_points{p}" for p in range(1, 10)]
    + ["pending"]
    + [f"my_reach{n}" for n in range(4, 8)]
    + [f"their_reach{n}" for n in range(4, 8)]
    + ["their_win", "supply", "lead", "tempo", "seat"]
)


def generate(
    games: int, depth: int, seed: int, out: Path, variant: Variant, limit: int, tuned: bool
) -> None:
    """Self-play positions with the results of their games (at most ``limit`` actions a
    game: Extreme has no bound of its own)."""
    rng = random.Random(seed)
    states: list[np.ndarray] = []
    results: list[float] = []
    game_ids: list[int] = []
    for game in range(games):
        s = kernel.from_state(State.initial(Rules(variant, 2, action_limit=limit), 0))
        for _ in range(rng.randint(2, 8)):
            if int(s[PHASE]) != OVER:
                kernel.apply_action(s, rng.choice(kernel.legal_codes(s)))
        searcher = Searcher(reductions=True, tuned=tuned)
        seen: list[np.ndarray] = []
        while int(s[PHASE]) != OVER:
            seen.append(s.copy())
            result = searcher.search(s, kernel.legal_codes(s), depth=depth)
            kernel.apply_action(s, result.codes[0])
        winners = int(s[WINNERS])
        for position in seen:
            mine = winners >> int(position[TURN]) & 1
            states.append(position)
            results.append(0.5 if winners == 0b11 else float(mine))
            game_ids.append(seed * 1_000_000 + game)
        if game % 500 == 499:
            print(f"{game + 1} games, {len(states)} positions", file=sys.stderr)
    np.savez(out, states=np.array(states), results=np.array(results), games=np.array(game_ids))


def label(source: Path, out: Path, depth: int, every: int, scale: float) -> None:
    """Every ``every``-th quiet position of ``source`` with the deeper search's value as
    an expected score (see the module doc), written to ``out`` with its result and game."""
    data = np.load(source)
    states, results, games = data["states"], data["results"], data["games"]
    if int(states[0][VARIANT]) != EXPRESS:
        raise SystemExit("label: 2-player Express positions only")
    _, _, _, quiet = _features(states)
    chosen = np.flatnonzero(quiet)[::every]
    deep = np.empty(len(chosen))
    searcher = Searcher(reductions=True, tuned=True, express_network=NO_NETWORK)
    for k, i in enumerate(chosen):
        s = states[i]
        values = []
        for d in (depth, depth + 1):
            found = searcher.search(s.copy(), kernel.legal_codes(s), depth=d)
            values.append(found.values[0])
        proven = [v for v in values if abs(v) >= PROVEN]
        if proven:
            deep[k] = 1.0 if proven[-1] > 0 else 0.0
        else:
            deep[k] = 1.0 / (1.0 + np.exp(-np.mean(values) / scale))
        if k % 1000 == 999:
            print(f"{k + 1} of {len(chosen)} positions", file=sys.stderr)
    np.savez(out, states=states[chosen], results=results[chosen], games=games[chosen], deep=deep)


def walk(source: Path, out: Path, seed: int) -> None:
    """From every second position of ``source``, one to three uniformly random actions
    (fewer where the game ends first); the positions reached with the game not over are
    written to ``out`` with their game and a NaN result (no game reached them)."""
    rng = random.Random(seed)
    data = np.load(source)
    states, games = data["states"], data["games"]
    walked: list[np.ndarray] = []
    walked_games: list[int] = []
    for i in range(0, len(states), 2):
        s = states[i].copy()
        for _ in range(rng.randint(1, 3)):
            if int(s[PHASE]) == OVER:
                break
            kernel.apply_action(s, rng.choice(kernel.legal_codes(s)))
        if int(s[PHASE]) != OVER:
            walked.append(s)
            walked_games.append(int(games[i]))
    np.savez(
        out,
        states=np.array(walked),
        results=np.full(len(walked), np.nan),
        games=np.array(walked_games),
    )
    print(f"{len(walked)} positions off the paths of {len(states)}", file=sys.stderr)


@njit(cache=False)
def _features(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = states.shape[0]
    classes = CELL_CLASSES.shape[0]
    x = np.zeros((n, 8 + classes + 4), dtype=np.float64)
    classic = np.zeros(n, dtype=np.float64)
    tuned = np.zeros(n, dtype=np.float64)
    quiet = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        s = states[i]
        mover = np.int64(s[TURN])
        me = s[BOARD + mover]
        op = s[BOARD + 1 - mover]
        counts = window_counts(me, op)
        for k in range(4):
            x[i, k] = counts[k]
        counts = window_counts(op, me)
        for k in range(4):
            x[i, 4 + k] = counts[k]
        for c in range(classes):
            x[i, 8 + c] = popcount(me & CELL_CLASSES[c]) - popcount(op & CELL_CLASSES[c])
        threats = winning_insertions(op, occupied(s), 2)
        x[i, 8 + classes] = 1.0 if threats >= 1 else 0.0
        x[i, 9 + classes] = 1.0 if threats >= 2 else 0.0
        x[i, 10 + classes] = 1.0
        x[i, 11 + classes] = 1.0 if mover == 0 else -1.0
        quiet[i] = immediate_win(s) == 0
        if quiet[i]:
            classic[i] = evaluate(s, False, TUNED_EXPRESS, NO_NETWORK)
            tuned[i] = evaluate(s, True, TUNED_EXPRESS, EXPRESS_NETWORK)
    return x, classic, tuned, quiet


@njit(cache=False)
def _point_features(
    states: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = states.shape[0]
    x = np.zeros((n, POINT_FEATURES), dtype=np.float64)
    classic = np.zeros(n, dtype=np.float64)
    tuned = np.zeros(n, dtype=np.float64)
    quiet = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        s = states[i]
        quiet[i] = immediate_win(s) == 0
        if quiet[i]:
            x[i] = points_features(s)
            classic[i] = evaluate(s, False, TUNED_EXPRESS, NO_NETWORK)
            tuned[i] = evaluate(s, True, TUNED_EXPRESS, EXPRESS_NETWORK)
    return x, classic, tuned, quiet


def log_loss(values: np.ndarray, results: np.ndarray, scale: float) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-values / scale)), 1e-9, 1 - 1e-9)
    return float(-np.mean(results * np.log(p) + (1 - results) * np.log(1 - p)))


def fit_weights(
    x: np.ndarray, results: np.ndarray, scale: float, l2: float, offset: float | np.ndarray = 0.0
) -> np.ndarray:
    """Newton's method on the mean log-loss of ``sigmoid((offset + x @ w) / scale)``, with
    a small L2 penalty (the cell counts and the window counts are nearly collinear)."""
    w = np.zeros(x.shape[1])
    n = len(results)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(offset + x @ w) / scale))
        gradient = x.T @ (p - results) / (n * scale) + 2 * l2 * w
        hessian = (x.T * (p * (1 - p))) @ x / (n * scale * scale) + 2 * l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-4:
            break
    return w


def fit(paths: list[Path], l2: float, scale: float | None, target: str = "result") -> None:
    data = [np.load(path) for path in paths]
    states = np.concatenate([d["states"] for d in data])
    results = np.concatenate([d["results"] for d in data])
    if target != "deep" and np.isnan(results).any():
        raise SystemExit("fit: positions of walk have no game result; use --target deep")
    outcomes = results
    if target != "result":
        deep = np.concatenate([d["deep"] for d in data])
        results = deep if target == "deep" else (deep + results) / 2
        print(f"target: {target} (the mean target {np.mean(results):.3f})")
    games = np.concatenate([d["games"] for d in data])
    express = int(states[0][VARIANT]) == EXPRESS
    x, classic, tuned, quiet = _features(states) if express else _point_features(states)
    names, seat = (NAMES, SEAT) if express else (POINT_NAMES, PF_SEAT)
    x, classic, tuned, results, outcomes, games = (
        x[quiet],
        classic[quiet],
        tuned[quiet],
        results[quiet],
        outcomes[quiet],
        games[quiet],
    )
    rng = np.random.default_rng(0)
    unique = np.unique(games)
    test = np.isin(games, rng.choice(unique, len(unique) // 5, replace=False))
    train = ~test
    print(f"{len(unique)} games, {len(results)} quiet positions ({test.sum()} for the test)")
    if scale is None:
        scales = np.arange(20.0, 400.0, 0.5)
        losses = [log_loss(classic[train], results[train], k) for k in scales]
        scale = float(scales[np.argmin(losses)])
    w = fit_weights(x[train], results[train], scale, l2)
    used = w.copy()
    used[seat] = 0.0
    print(f"scale K = {scale}")
    candidates = [
        ("classic evaluation", classic),
        ("fitted weights", x @ w),
        ("fitted, without the seat term", x @ used),
        ("tuned evaluation of evaluate.py now", tuned),
    ]
    if express:
        kept = [c for c in range(len(names)) if c not in NEW_COLUMNS]
        old = fit_weights(x[train][:, kept], results[train], scale, l2)
        candidates.append(("the first round's form refitted", x[:, kept] @ old))
        candidates.append(("  without the seat term", x[:, kept[:-1]] @ old[:-1]))
        # The first round's weights kept (evaluate.py's), the new terms fitted on top.
        first = np.delete(TUNED_EXPRESS, XW_DOUBLE)
        base = x[:, kept[:-1]] @ first
        added = [*NEW_COLUMNS, seat]
        on_top = fit_weights(x[train][:, added], results[train], scale, l2, base[train])
        candidates.append(("the first round's weights", base))
        candidates.append(
            ("  and the new terms fitted on top", base + x[:, added[:-1]] @ on_top[:-1])
        )
        print("share of quiet positions with each new term:")
        for column in NEW_COLUMNS:
            print(f"  {names[column]:14} {np.mean(x[:, column]):.4f}")
    print("test log-loss:" if target == "result" else "test log-loss (target, results):")
    for name, values in candidates:
        loss = f"{log_loss(values[test], results[test], scale):.4f}"
        if target != "result":
            loss += f"  {log_loss(values[test], outcomes[test], scale):.4f}"
        print(f"  {name:36} {loss}")
    for name, weight in zip(names, w, strict=True):
        print(f"  {name:14} {weight:8.1f}")
    print("as integers:", ", ".join(str(round(v)) for v in w))
    if express:
        print("the first round's form:", ", ".join(str(round(v)) for v in old))
        print("on top of the first round's weights:", ", ".join(str(round(v)) for v in on_top))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="play self-play games and store their positions")
    gen.add_argument("--games", type=int, default=1000)
    gen.add_argument("--depth", type=int, default=5)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--variant", type=Variant, default=Variant.EXPRESS)
    gen.add_argument("--limit", type=int, default=1000, help="the action limit of a game")
    gen.add_argument(
        "--tuned",
        action="store_true",
        help="play the games with the tuned evaluation (a second round of tuning)",
    )
    gen.add_argument("out", type=Path)
    fitting = commands.add_parser("fit", help="fit the weights to stored positions")
    fitting.add_argument("--l2", type=float, default=1e-6)
    fitting.add_argument(
        "--scale",
        type=float,
        default=None,
        help="the scale K (default: the one that fits the classic evaluation best)",
    )
    fitting.add_argument(
        "--target",
        choices=("result", "deep", "mixed"),
        default="result",
        help="what the fit predicts: the game's result, the deeper search's value "
        "(files made by label), or their mean",
    )
    fitting.add_argument("data", type=Path, nargs="+")
    labelling = commands.add_parser("label", help="add a deeper search's values")
    labelling.add_argument("--depth", type=int, default=6)
    labelling.add_argument("--every", type=int, default=1)
    labelling.add_argument("--scale", type=float, default=129.5)
    labelling.add_argument("source", type=Path)
    labelling.add_argument("out", type=Path)
    walking = commands.add_parser("walk", help="random actions off the games' paths")
    walking.add_argument("--seed", type=int, required=True)
    walking.add_argument("source", type=Path)
    walking.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.command == "walk":
        walk(args.source, args.out, args.seed)
    elif args.command == "generate":
        generate(args.games, args.depth, args.seed, args.out, args.variant, args.limit, args.tuned)
    elif args.command == "label":
        label(args.source, args.out, args.depth, args.every, args.scale)
    else:
        fit(args.data, args.l2, args.scale, args.target)


if __name__ == "__main__":
    main()

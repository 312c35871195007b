"""OpenSpiel's AlphaZero learns Shiftago: a small run, then games against random and greedy.

Run it from the repository (``.venv/bin/pip install -e ".[rl,jax]"`` brings OpenSpiel,
JAX, Flax, Optax, Chex and Orbax)::

    python examples/openspiel_alphazero.py --steps 20 --out az-run
    python examples/openspiel_alphazero.py --variant expert --steps 5 --simulations 30 --out az2
    python examples/openspiel_alphazero.py --quick --out tmp   # a smoke run: proves nothing

It hands the project's OpenSpiel game (:mod:`shiftago.env.openspiel`, loaded as
``python_shiftago(variant=...,observation=table)``) to OpenSpiel's own trainer,
``open_spiel.python.algorithms.alpha_zero.alpha_zero``, unchanged: ``--actors``
processes play self-play games with MCTS guided by the network (``--simulations``
simulations a move), the learner trains the network (an MLP by default, OpenSpiel's
``--model`` choices) on them, one training step per ``--buffer`` new positions, for
``--steps`` steps. ``--out DIR`` receives what OpenSpiel writes: ``config.json``, the
checkpoints (``checkpoint-N`` every ``--checkpoint-every`` steps, the latest as
``checkpoint--1``), ``learner.jsonl`` (a JSON line of losses and game statistics a
step) and a ``log-*.txt`` file per process.

OpenSpiel's AlphaZero plays 2-player zero-sum games only, so ``--players`` is 2. It
learns seat 0's return from the observation of the seat to act, so the game is loaded
with its ``table`` observation (seat 0's view, with a plane for the seat to act).

At the end the trained network plays ``--eval-games`` games (seats alternating) with the
same MCTS, without exploration noise, against a uniform random player and against the
project's greedy bot, and prints a line per opponent: ``evaluation: alphazero vs random:
W wins, D draws, L losses in N games, score S`` (a win 1, a draw 1/2). ``--seed`` seeds
those games; OpenSpiel's self-play processes draw their own random numbers, so two
training runs differ. JAX runs on the CPU unless ``JAX_PLATFORMS`` says otherwise: every
process holds its own copy of the small network.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.alpha_zero import alpha_zero, evaluator, utils

import shiftago.env.openspiel  # noqa: F401  registers python_shiftago, in every process
from shiftago.engine.greedy import GreedyBot
from shiftago.env.spaces import index_of

VARIANTS = ("express", "expert", "extreme")
MODELS = ("mlp", "conv2d", "resnet")
OPPONENTS = ("random", "greedy")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", choices=VARIANTS, default="express")
    parser.add_argument("--players", type=int, default=2, help="2: AlphaZero's only choice")
    parser.add_argument("--steps", type=int, default=20, help="training steps (default 20)")
    parser.add_argument("--out", type=Path, required=True, help="folder for checkpoints, logs")
    parser.add_argument("--seed", type=int, default=0, help="seed of the evaluation games")
    parser.add_argument("--actors", type=int, default=1, help="self-play processes")
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations a move")
    parser.add_argument("--model", choices=MODELS, default="mlp")
    parser.add_argument("--width", type=int, default=64, help="units or filters a layer")
    parser.add_argument("--depth", type=int, default=2, help="layers or residual blocks")
    parser.add_argument("--buffer", type=int, default=256, help="new positions a step")
    parser.add_argument("--batch", type=int, default=64, help="positions a training batch")
    parser.add_argument("--checkpoint-every", type=int, default=10, help="keep a checkpoint")
    parser.add_argument("--eval-games", type=int, default=10, help="games per opponent")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 1 step, 2 simulations, 2 games"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.simulations, args.eval_games = 1, 2, 2
        args.buffer, args.batch, args.width, args.depth = 16, 8, 16, 1
    if args.players != 2:
        parser.error(
            f"OpenSpiel's AlphaZero plays 2-player zero-sum games only, not {args.players} players"
        )
    for name in ("steps", "actors", "simulations", "width", "depth", "buffer", "batch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} is 1 or more, not {getattr(args, name)}")
    if args.checkpoint_every < 1 or args.eval_games < 0:
        parser.error("--checkpoint-every is 1 or more and --eval-games 0 or more")
    return args


def game_string(variant: str) -> str:
    return f"python_shiftago(variant={variant},players=2,observation=table)"


def make_config(args: argparse.Namespace, path: Path) -> alpha_zero.Config:
    """OpenSpiel's config for a small run; the shapes come from the game."""
    return alpha_zero.Config(
        game=game_string(args.variant),
        path=str(path),
        learning_rate=0.001,
        weight_decay=0.0001,
        decouple_weight_decay=False,
        train_batch_size=args.batch,
        replay_buffer_size=args.buffer * 4,
        replay_buffer_reuse=4,
        max_steps=args.steps,
        checkpoint_freq=args.checkpoint_every,
        actors=args.actors,
        evaluators=0,
        evaluation_window=10,
        eval_levels=2,  # its statistics split games in stages and need two or more
        uct_c=2.0,
        max_simulations=args.simulations,
        policy_alpha=1.0,
        policy_epsilon=0.25,
        temperature=1.0,
        temperature_drop=10,
        nn_model=args.model,
        nn_width=args.width,
        nn_depth=args.depth,
        observation_shape=None,
        output_size=None,
        verbose=False,
        quiet=True,
    )


def last_checkpoint(steps: int, every: int) -> int:
    """The number OpenSpiel's learner gives the checkpoint of its last step."""
    return steps if steps % every == 0 else -1


def load_model(config: alpha_zero.Config, game: Any, step: int) -> Any:
    model = utils.api_selector(config.nn_api_version).Model.build_model(
        config.nn_model,
        game.observation_tensor_shape(),
        game.num_distinct_actions(),
        config.nn_width,
        config.nn_depth,
        config.weight_decay,
        config.learning_rate,
        config.path,
    )
    model.load_checkpoint(step)
    return model


def greedy_action(bot: GreedyBot, state: Any) -> int:
    return index_of(str(bot.choose(state.core_state())), 2)


def play(
    game: Any, az: mcts.MCTSBot, opponent: str, az_seat: int, rng: np.random.Generator
) -> float:
    """One game; the AlphaZero player's return (+1, 0 or -1)."""
    greedy = GreedyBot(seed=int(rng.integers(2**31)))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == az_seat:
            action = az.step(state)
        elif opponent == "random":
            action = int(rng.choice(state.legal_actions()))
        else:
            action = greedy_action(greedy, state)
        state.apply_action(action)
    return float(state.returns()[az_seat])


def evaluate(config: alpha_zero.Config, games: int, seed: int, step: int) -> list[str]:
    """The trained network's results against each opponent, a line each."""
    game = pyspiel.load_game(config.game)
    model = load_model(config, game, step)
    rng = np.random.default_rng(seed)
    az = mcts.MCTSBot(
        game,
        config.uct_c,
        config.max_simulations,
        evaluator.AlphaZeroEvaluator(game, model),
        solve=False,
        random_state=np.random.RandomState(seed),
        child_selection_fn=mcts.SearchNode.puct_value,
    )
    lines = []
    for opponent in OPPONENTS:
        results = [play(game, az, opponent, n % 2, rng) for n in range(games)]
        wins, losses = results.count(1.0), results.count(-1.0)
        draws = games - wins - losses
        score = (wins + draws / 2) / games if games else 0.0
        lines.append(
            f"evaluation: alphazero vs {opponent}: {wins} wins, {draws} draws, "
            f"{losses} losses in {games} games, score {score:.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    path = args.out.resolve()  # Orbax takes absolute paths only
    path.mkdir(parents=True, exist_ok=True)
    config = make_config(args, path)
    started = time.monotonic()
    alpha_zero.alpha_zero(config)
    trained = time.monotonic() - started
    print(f"trained {args.steps} steps in {trained:.0f} s; checkpoints and logs in {path}")
    if args.quick:
        print("a smoke run: its numbers prove nothing")
    step = last_checkpoint(args.steps, args.checkpoint_every)
    for line in evaluate(config, args.eval_games, args.seed, step):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    sys.exit(main())

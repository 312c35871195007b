"""Speed figures of the RL environments for ``shiftago bench``: measured, never asserted.

``env_batched_steps_per_s_<variant>_<n>p``: environment steps (one per game) per second
of :class:`.batched.BatchedEnv` with :data:`BATCH` games, observations on, each step
taking the actions of :meth:`~.batched.BatchedEnv.random_actions`.
``env_aec_steps_per_s_express_2p``: actions per second of the standard PettingZoo AEC
loop on ``shiftago_v0.env()`` with a random legal action from the mask; it is left out
when PettingZoo is not installed (``pip install shiftago[rl]``).
``env_jax_steps_per_s_express_2p_<platform>``: steps (one per game) per second of
:class:`.jaxenv.JaxEnv` under ``jit`` and ``vmap`` with :data:`JAX_BATCH` games, random
legal actions and new games in finished slots, on JAX's default device (``cpu``,
``gpu``...: the device's name is in :func:`env_notes`); left out without JAX
(``pip install shiftago[jax]``).
"""

from __future__ import annotations

import importlib
from typing import Any, Final

import numpy as np

from shiftago.core import Variant
from shiftago.engine.bench import median_rate

#: Games stepped together in the batched figures.
BATCH: Final = 256
#: Batch steps per timed run (``quick``: a smoke test).
BATCH_STEPS: Final = 2000
QUICK_BATCH_STEPS: Final = 20
#: Actions per timed run of the AEC loop (whole games: the last one is finished).
AEC_ACTIONS: Final = 3000
QUICK_AEC_ACTIONS: Final = 50
#: The key of the AEC figure (absent without PettingZoo).
AEC_KEY: Final = "env_aec_steps_per_s_express_2p"
#: What to install for the AEC figure.
AEC_NOTE: Final = f"{AEC_KEY} needs PettingZoo: pip install shiftago[rl]"
#: The start of the JAX figure's key (the device's platform follows).
JAX_KEY: Final = "env_jax_steps_per_s_express_2p_"
#: Games stepped together in the JAX figure, and steps per timed run (``quick``).
JAX_BATCH: Final = 1024
QUICK_JAX_BATCH: Final = 64
JAX_STEPS: Final = 200
QUICK_JAX_STEPS: Final = 10


def batched_keys() -> list[str]:
    return [f"env_batched_steps_per_s_{v.value}_{n}p" for v in Variant for n in (2, 3, 4)]


def batched_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """Steps per second of the batched environment per variant and player count."""
    from .batched import BatchedEnv

    steps = QUICK_BATCH_STEPS if quick else BATCH_STEPS
    figures: dict[str, float] = {}
    for variant in Variant:
        for players in (2, 3, 4):
            env = BatchedEnv(BATCH, variant, players)
            env.step(env.random_actions())  # compile (or load the cache) before timing

            def measure(run: int, env: BatchedEnv = env) -> int:
                env.reset(seed=run)
                for _ in range(steps):
                    env.step(env.random_actions())
                return steps * env.batch

            key = f"env_batched_steps_per_s_{variant.value}_{players}p"
            figures[key] = round(median_rate(measure, runs))
    return figures


def aec_actions(env: Any, actions: int, seed: int) -> int:
    """Play whole games of a PettingZoo AEC environment with random legal actions
    until at least ``actions`` were played; return how many were."""
    rng = np.random.default_rng(seed)
    played = 0
    game = 0
    while played < actions:
        env.reset(seed=seed * 1_000_003 + game)
        game += 1
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            if isinstance(observation, dict) and "action_mask" in observation:
                mask = observation["action_mask"]
            else:
                mask = info["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            played += 1
    return played


def aec_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """The AEC figure, or nothing when PettingZoo or the environment is missing."""
    try:
        shiftago_v0 = importlib.import_module("shiftago.env.shiftago_v0")
    except ImportError:
        return {}
    env = shiftago_v0.env()
    aec_actions(env, 1, seed=0)  # compile and warm up before timing
    actions = QUICK_AEC_ACTIONS if quick else AEC_ACTIONS

    def measure(run: int) -> int:
        return aec_actions(env, actions, seed=run)

    return {AEC_KEY: round(median_rate(measure, runs))}


def jax_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """The JAX figure, or nothing when JAX is missing."""
    try:
        jaxenv = importlib.import_module("shiftago.env.jaxenv")
    except ImportError:
        return {}
    import jax

    env = jaxenv.JaxEnv("express", 2)
    batch = QUICK_JAX_BATCH if quick else JAX_BATCH
    steps = QUICK_JAX_STEPS if quick else JAX_STEPS
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    def play(state: Any, key: Any) -> Any:
        def one(_: int, carry: tuple[Any, Any]) -> tuple[Any, Any]:
            state, key = carry
            key, choose, fresh = jax.random.split(key, 3)
            logits = jax.numpy.where(state.legal_action_mask, 0.0, -jax.numpy.inf)
            actions = jax.random.categorical(choose, logits)
            state = step(state, actions)
            new = init(jax.random.split(fresh, batch))
            state = jax.tree.map(
                lambda a, b: jax.numpy.where(
                    state.terminated.reshape((-1,) + (1,) * (a.ndim - 1)), a, b
                ),
                new,
                state,
            )
            return state, key

        return jax.lax.fori_loop(0, steps, one, (state, key))

    run = jax.jit(play)
    start = init(jax.random.split(jax.random.key(0), batch))
    run(start, jax.random.key(1))[0].board.block_until_ready()  # compile before timing

    def measure(seed: int) -> int:
        run(start, jax.random.key(seed))[0].board.block_until_ready()  # the whole run
        return batch * steps

    platform = str(jax.devices()[0].platform)
    return {JAX_KEY + platform: round(median_rate(measure, runs))}


def env_notes(figures: dict[str, float]) -> list[str]:
    """What to say beside the figures: what is missing, and where JAX ran."""
    notes = [] if AEC_KEY in figures else [AEC_NOTE]
    if not any(key.startswith(JAX_KEY) for key in figures):
        notes.append(f"{JAX_KEY}<device> needs JAX: pip install shiftago[jax]")
    else:
        from .jaxenv import device_name

        notes.append(f"{JAX_KEY}<device> ran on {device_name()}")
    return notes


def env_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """Every figure of this module (see the module doc)."""
    figures = batched_figures(runs=runs, quick=quick)
    figures.update(aec_figures(runs=runs, quick=quick))
    figures.update(jax_figures(runs=runs, quick=quick))
    return figures

"""Reinforcement-learning environments: PettingZoo, Gymnasium, OpenSpiel, a batched
environment and a functional batched API on the kernel (:mod:`.batched`,
:mod:`.functional`) and one in JAX (:mod:`.jaxenv`), all with one action space and
observation (:mod:`.spaces`) and the board's symmetries (:mod:`.symmetry`).

The framework modules import their framework, so they are loaded only when asked for
(``pip install shiftago[rl]`` or ``shiftago[jax]``): ``from shiftago.env import
shiftago_v0``.
"""

from __future__ import annotations

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)

from .spaces import (
    ACTION_COUNT,
    action_mask,
    action_of,
    index_of,
    observation_shape,
    observe,
    outcome_rewards,
    plane_count,
)

__all__ = [
    "ACTION_COUNT",
    "action_mask",
    "action_of",
    "index_of",
    "observation_shape",
    "observe",
    "outcome_rewards",
    "plane_count",
]

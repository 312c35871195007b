"""Reinforcement-learning environments: PettingZoo, Gymnasium, OpenSpiel and a batched
environment on the kernel, all with one action space and observation (:mod:`.spaces`).

The framework modules import their framework, so they are loaded only when asked for
(``pip install shiftago[rl]``): ``from shiftago.env import shiftago_v0``.
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

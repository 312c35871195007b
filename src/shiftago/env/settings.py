"""What every environment shares: the rules of an environment, the observation space,
points shaping, and the checks and words for actions and phases.

Nothing here imports a framework at module level, so the batched and OpenSpiel
environments use it without Gymnasium or PettingZoo.
"""

from __future__ import annotations

import math
import operator
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from shiftago.core.errors import IllegalActionError
from shiftago.core.rules import Rules, Variant
from shiftago.engine.kernel.convert import action_text
from shiftago.engine.kernel.tables import PHASE, PLAYERS

from .spaces import ACTION_COUNT, action_mask, is_whole_number, observation_shape

if TYPE_CHECKING:
    from gymnasium import spaces

#: The action limit of Extreme when none is given: the rulebook has no bound and RULES.md
#: section 7 allows one for automated play; 400 actions are far more than games last.
EXTREME_ACTION_LIMIT: Final = 400
RENDER_MODES: Final = ["human", "ansi", "rgb_array"]
_PHASES: Final = ("insert", "score", "over")


def game_rules(
    variant: str | Variant,
    players: int,
    handicap: Sequence[int] | None = None,
    action_limit: int | None = None,
) -> Rules:
    """The rules of an environment: Extreme gets :data:`EXTREME_ACTION_LIMIT` unless a
    limit is given; ``action_limit`` may bound the other variants too."""
    v = variant if isinstance(variant, Variant) else Variant.parse(variant)
    if action_limit is None and v is Variant.EXTREME:
        action_limit = EXTREME_ACTION_LIMIT
    return Rules(v, players, tuple(handicap) if handicap else (), action_limit)


def observation_space(players: int, version: int = 0) -> spaces.Dict:
    """The observation of every environment: the planes of :mod:`.spaces` (of
    ``version``) and the mask (a Gymnasium space, as PettingZoo uses too)."""
    from gymnasium import spaces

    shape = observation_shape(players, version)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
        }
    )


def checked_weight(points_weight: float) -> float:
    if not (math.isfinite(points_weight) and points_weight >= 0):
        raise ValueError(f"points_weight must be a finite number >= 0, not {points_weight!r}")
    return float(points_weight)


#: Seeds are below 2**63: the kernel's generator takes them as 64-bit signed integers.
SEED_LIMIT: Final = 2**63


def checked_seed(seed: int | None) -> int:
    """``seed`` as the generator takes it; ``None`` draws a fresh one, as Gymnasium's
    and PettingZoo's ``seed=None`` does (a generator left at 0 would never move)."""
    if seed is None:
        return secrets.randbelow(SEED_LIMIT)
    if not (is_whole_number(seed) and 0 <= seed < SEED_LIMIT):
        raise ValueError(f"a seed is a whole number 0 to 2**63-1, or None, not {seed!r}")
    return int(seed)


def gymnasium_seed(seed: int | None) -> int | None:
    """``seed`` as Gymnasium's seeding takes it: numpy's whole numbers become Python's
    (``reset(seed=np.int64(5))`` was refused, a seed drawn from a numpy generator);
    anything else is handed on for Gymnasium to judge (a whole number from 0, any size)."""
    return int(seed) if isinstance(seed, np.integer) else seed


def points_shaping(players: int, scorer: int, points: int, weight: float) -> list[float]:
    """The zero-sum shaping of one scoring: ``+w*p/10`` for the scorer, ``-w*p/(10*(n-1))``
    for each other seat."""
    rewards = [-weight * points / (10 * (players - 1))] * players
    rewards[scorer] = weight * points / 10
    return rewards


def phase_name(s: np.ndarray) -> str:
    """``insert``, ``score`` or ``over``."""
    return _PHASES[int(s[PHASE])]


def action_index(action: Any) -> int:
    """An action as an index of the action space; anything else raises (a
    :class:`~shiftago.core.errors.IllegalActionError`)."""
    try:
        if isinstance(action, bool | np.bool_):
            raise TypeError  # True is no action, though Python counts it as 1
        code = operator.index(action)
    except TypeError:
        raise IllegalActionError(
            f"{action!r} is not an action index: expected an integer 0-{ACTION_COUNT - 1}"
        ) from None
    if not 0 <= code < ACTION_COUNT:
        raise IllegalActionError(f"an action index is 0-{ACTION_COUNT - 1}, not {code}")
    return code


def legal_text(s: np.ndarray) -> str:
    """The legal actions of ``s`` for an error message: ``0 (L1), 1 (L2), ...``."""
    codes = np.flatnonzero(action_mask(s))
    players = int(s[PLAYERS])
    return ", ".join(f"{c} ({action_text(int(c), players)})" for c in codes) or "none"

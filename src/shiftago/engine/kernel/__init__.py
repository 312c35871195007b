"""The compiled kernel (numba): states, move generation, transitions and playouts.

It plays exactly the rules of :mod:`shiftago.core` on the same bitboard layout, for
every variant, 2-4 players, handicap skips, the special case and the scoring choices;
``tests/engine/test_kernel_diff.py`` and ``scripts/kernel_check.py`` check it against the core
action by action. The state array and the action codes are described in
:mod:`.tables`; :mod:`.convert` maps them to and from the core. :mod:`.moves` generates
and plays actions; :mod:`.playout` plays games out under the policies of :mod:`.policy`
with the generator of :mod:`.rng`.
"""

from __future__ import annotations

import numpy as np

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)

from .convert import (
    action_text,
    from_action,
    from_state,
    outcome_of,
    to_action,
    to_position,
    to_state,
)
from .moves import apply_action, has_run, legal_actions
from .playout import count_moves, random_playouts
from .tables import MAX_ACTIONS, STATE_SIZE

__all__ = [
    "MAX_ACTIONS",
    "STATE_SIZE",
    "action_buffer",
    "action_text",
    "apply_action",
    "count_moves",
    "from_action",
    "from_state",
    "has_run",
    "legal_actions",
    "legal_codes",
    "outcome_of",
    "random_playouts",
    "to_action",
    "to_position",
    "to_state",
    "warm_up",
]


def action_buffer() -> np.ndarray:
    """Room for the legal actions of any state."""
    return np.empty(MAX_ACTIONS, dtype=np.int64)


def legal_codes(s: np.ndarray) -> list[int]:
    """The legal action codes of ``s`` (kernel order), from Python."""
    out = action_buffer()
    return [int(c) for c in out[: legal_actions(s, out)]]


def warm_up() -> None:
    """Compile (or load from the cache) every kernel entry point, so that timings and
    the first search do not pay for it."""
    from shiftago.core import Rules, State, Variant

    for variant in Variant:
        for players in (2, 3):
            s = from_state(State.initial(Rules(variant, players, action_limit=50), 0))
            random_playouts(s, 1, 1)
            count_moves(s.reshape(1, -1), 1)

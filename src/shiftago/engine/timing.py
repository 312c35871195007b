"""How long a search may think: a fixed ``movetime``, or a share of a clock.

A clock (PROTOCOL.md 1.1: ``clock``, ``increment``, ``moves``) becomes a
:class:`TimeBudget`: a ``target`` the search aims at and a ``hard`` limit it never
passes. The search (:mod:`shiftago.engine.search.driver`) stops after a finished depth
once it has spent a share of the target, and stretches the target where the position
needs it (:func:`stretch`: the best action changed between depths, or the value fell);
an alarm stops it at the hard limit in any case. The hard limit stays below the clock
by a safety margin, so the engine never loses on time. With ``movetime`` the target is
the whole hard limit: the search uses its time.

The numbers are explained in docs/strength.md, "Time management".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shiftago.engine.bot import Limits

#: Kept free of every clock for the answer's travel and the controller's measuring (ms).
CLOCK_SAFETY_MS: Final = 60.0
#: ...and never more than this share of a small clock.
CLOCK_SAFETY_SHARE: Final = 0.2
#: Own actions assumed still to come when the controller does not say (``moves``).
HORIZON: Final = 18
#: The share of each increment that a target spends (the rest builds up the clock).
INCREMENT_SHARE: Final = 0.8
#: The hard limit of one action: this many targets...
HARD_TARGETS: Final = 4.0
#: ...and never more than this share of what is left on the clock, plus the increment
#: that comes after the action (without ``moves=1``, where the whole clock is usable).
HARD_CLOCK_SHARE: Final = 0.4
#: A new depth starts only while less than this share of the stretched target is spent:
#: the next depth costs a few times the last one.
NEW_DEPTH_SHARE: Final = 0.55
#: The target grows by this factor when the best action changed at the last depth...
UNSTABLE_FACTOR: Final = 1.7
#: ...and by this one when the best value fell by at least :data:`FALL` (centi-units).
FALLING_FACTOR: Final = 1.4
FALL: Final = 30
#: The most the target may grow in all.
MAX_STRETCH: Final = 2.5


@dataclass(frozen=True)
class TimeBudget:
    """The time of one search in milliseconds from its start: aim at ``target``, never
    pass ``hard``. ``fill``: use all of ``hard`` (a ``movetime``): new depths start
    until the alarm stops the search."""

    target_ms: float
    hard_ms: float
    fill: bool = False


def budget(limits: Limits) -> TimeBudget | None:
    """The budget ``limits`` give, or None when no wall-clock limit is set (the search is
    then bounded by depth, nodes or a stop)."""
    if limits.movetime_ms is not None:
        return TimeBudget(float(limits.movetime_ms), float(limits.movetime_ms), fill=True)
    if limits.clock_ms is None:
        return None
    clock = float(limits.clock_ms)
    usable = max(clock - min(CLOCK_SAFETY_MS, CLOCK_SAFETY_SHARE * clock), 0.0)
    increment = float(limits.increment_ms)
    moves = limits.moves_to_go or HORIZON
    target = usable / moves + INCREMENT_SHARE * increment
    if limits.moves_to_go == 1:
        hard = usable  # the clock is topped up after this action
    else:
        hard = min(HARD_TARGETS * target, HARD_CLOCK_SHARE * usable + increment)
        hard = min(hard, usable)
    target = min(target, hard)
    return TimeBudget(max(target, 1.0), max(hard, 1.0))


def stretch(best_changed: bool, fall: int) -> float:
    """How much to stretch the target after a depth: more when the best action changed
    or its value fell by ``fall`` centi-units (positive: it fell)."""
    factor = 1.0
    if best_changed:
        factor *= UNSTABLE_FACTOR
    if fall >= FALL:
        factor *= FALLING_FACTOR
    return min(factor, MAX_STRETCH)

"""The load tool's figures: latency percentiles, counts of what went wrong, and the check
of what the clients saw acknowledged against what the server stored (lost and
duplicated actions). Plain values and pure functions, so the accounting has tests of
its own apart from any server."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def percentiles(seconds: Sequence[float]) -> dict[str, Any]:
    """``count``, ``p50``, ``p95``, ``p99`` and ``max`` of samples in seconds, in
    milliseconds (nearest rank: each is a sample that was measured); None when empty.

    >>> percentiles([0.010, 0.020, 0.030, 0.040])
    {'count': 4, 'p50': 20.0, 'p95': 40.0, 'p99': 40.0, 'max': 40.0}
    """
    count = len(seconds)
    if not count:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(seconds)

    def rank(share: float) -> float:
        sample = ordered[min(count - 1, max(0, math.ceil(share * count) - 1))]
        return round(sample * 1000, 1)

    return {
        "count": count,
        "p50": rank(0.50),
        "p95": rank(0.95),
        "p99": rank(0.99),
        "max": round(ordered[-1] * 1000, 1),
    }


@dataclass
class Stats:
    """What the clients measure while they play; one per run, shared by every socket."""

    #: Seconds from sending ``act`` to that version's ``action`` event on the sender's
    #: socket, and on the other player's socket.
    own: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)
    #: Seconds from a person's ``action`` event to the computer's answer (bot delay included).
    computer: list[float] = field(default_factory=list)
    #: How late the tool's own event loop ran (seconds): when it is late, so are the figures.
    loop_lag: list[float] = field(default_factory=list)
    #: ``error:<code>`` (error events), ``http:<status>``, ``ws:<status or kind>`` (a
    #: socket that did not open), ``closed:<code>`` (a socket closed by the server).
    errors: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    computer_actions: int = 0
    reconnects: int = 0
    watcher_events: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_stalled: int = 0

    def count(self, kind: str) -> None:
        self.errors[kind] += 1

    @property
    def rate_limited(self) -> int:
        """Refusals by the server's limits, not failures: HTTP answers 429 (also to a
        socket's upgrade) and ``rate_limited`` events."""
        errors = self.errors
        return errors["http:429"] + errors["ws:429"] + errors["error:rate_limited"]


@dataclass
class GameTrace:
    """One game as its clients saw it: enough to check it against the stored game."""

    id: str
    url: str
    #: The seats that the tool plays (the others are the computer's).
    people: frozenset[int]
    #: version -> the action acknowledged at that version (an ``action`` event, or a
    #: ``state`` whose actions list holds it), as first seen by any socket of the game.
    acknowledged: dict[int, str] = field(default_factory=dict)
    #: Further acknowledgements that disagree with the first one: (version, action).
    disagreeing: list[tuple[int, str]] = field(default_factory=list)
    #: version -> the action the tool sent to make that version.
    sent: dict[int, str] = field(default_factory=dict)
    #: ``action`` events of a version that a socket had already received.
    duplicate_events: int = 0

    def acknowledge(self, version: int, action: str) -> None:
        known = self.acknowledged.get(version)
        if known is None:
            self.acknowledged[version] = action
        elif known != action:
            self.disagreeing.append((version, action))


@dataclass(frozen=True)
class Check:
    """A game's clients against its stored actions.

    - ``lost``: acknowledged actions that are not stored (at their version).
    - ``duplicated``: events of one version received twice on one socket, and stored
      actions of the tool's seats that no client saw acknowledged nor the tool sent.
    - ``unacknowledged``: stored actions the tool sent but whose event never came
      before it closed the game's sockets (a late event, not a wrong one).
    - ``late``: stored computer actions made after the tool closed the game's sockets.
    """

    lost: int = 0
    duplicated: int = 0
    unacknowledged: int = 0
    late: int = 0

    def __add__(self, other: Check) -> Check:
        return Check(
            self.lost + other.lost,
            self.duplicated + other.duplicated,
            self.unacknowledged + other.unacknowledged,
            self.late + other.late,
        )


def reconcile(trace: GameTrace, stored: Sequence[str], seats: Sequence[int]) -> Check:
    """Compare ``trace`` with the game read back: ``stored`` actions in order and the
    ``seats`` that made them (``GET /api/games/{id}``: ``actions`` and ``history``)."""
    seen = [*trace.acknowledged.items(), *trace.disagreeing]
    lost = sum(1 for v, action in seen if v > len(stored) or stored[v - 1] != action)
    duplicated = trace.duplicate_events
    unacknowledged = late = 0
    for version, action in enumerate(stored, start=1):
        if version in trace.acknowledged:
            continue
        if seats[version - 1] not in trace.people:
            late += 1
        elif trace.sent.get(version) == action:
            unacknowledged += 1
        else:
            duplicated += 1
    return Check(lost, duplicated, unacknowledged, late)

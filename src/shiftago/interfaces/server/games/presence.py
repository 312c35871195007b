"""Who is at a game, over every serve process, and how often the others hear of it.

Several serve processes may hold sockets of the same game. Each one knows its own
connections only, so a game's presence is the merge of this process's
:class:`PresenceSummary` and those the other processes send of theirs (the exchange
keeps them by process id): a seat whose person is connected anywhere counts as
connected, and so cannot be claimed.

A burst of watchers changes presence hundreds of times a second. Sent to every socket
on every change, that is a number of messages that grows with the square of the
watchers and fills the players' queues; :class:`Coalescer` turns it into one
``presence`` event per interval, whatever came and went in it.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

#: How long another process's summary is believed; each process says its part again at a
#: third of it while it holds sockets of the game, so one that died stops counting.
SUMMARY_SECONDS: Final = 60.0


@dataclass(frozen=True)
class PresenceSummary:
    """What one process holds of a game: the seats with a person connected there, its
    spectators, and when (``time.time()``) it was made, so that a late summary never
    replaces a newer one."""

    seats: frozenset[int] = frozenset()
    spectators: int = 0
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"seats": sorted(self.seats), "spectators": self.spectators, "at": self.at}

    @classmethod
    def from_json(cls, data: Any) -> PresenceSummary:
        """A summary from :meth:`to_json`'s form (another process's message); ValueError
        when it is not one."""
        try:
            seats = frozenset(int(s) for s in data["seats"])
            spectators = int(data["spectators"])
            at = float(data["at"])
        except (KeyError, TypeError, ValueError) as bad:
            raise ValueError(f"not a presence summary: {data!r}") from bad
        if spectators < 0 or any(not 0 <= s <= 3 for s in seats) or not math.isfinite(at):
            raise ValueError(f"not a presence summary: {data!r}")
        return cls(seats, spectators, at)


def merged(summaries: Iterable[PresenceSummary]) -> PresenceSummary:
    """The presence of a game over several processes: a seat connected on any of them
    is connected; spectators add up."""
    seats: set[int] = set()
    spectators = 0
    at = 0.0
    for summary in summaries:
        seats |= summary.seats
        spectators += summary.spectators
        at = max(at, summary.at)
    return PresenceSummary(frozenset(seats), spectators, at)


class Coalescer:
    """Calls ``send`` at most once per interval however often it is asked to.

    Asked after a quiet interval, it sends at the next turn of the event loop; asked
    again within the interval, it sends once, at the interval's end. ``send`` reads what
    is true when it runs, so the one event says everything that changed before it.
    """

    def __init__(self) -> None:
        self._due: asyncio.TimerHandle | None = None
        self._last = -math.inf

    @property
    def pending(self) -> bool:
        return self._due is not None

    def request(self, interval: float, send: Callable[[], None]) -> None:
        if self._due is not None:
            return  # the send already due tells this change too
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last + interval - loop.time())
        self._due = loop.call_later(delay, self._fire, loop, send)

    def _fire(self, loop: asyncio.AbstractEventLoop, send: Callable[[], None]) -> None:
        self._due = None
        self._last = loop.time()
        send()

    def cancel(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None


__all__ = ["SUMMARY_SECONDS", "Coalescer", "PresenceSummary", "merged"]

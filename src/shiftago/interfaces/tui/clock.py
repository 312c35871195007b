"""The players' clocks of a timed game at one machine: each seat's time left, the seat
to act's running, an increment after each turn. Times are seconds of a monotonic source
that the caller reads and hands in, so that the clocks are tested without waiting."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shiftago.interfaces.shared.catalogues import _

CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+)\s*)?$")


@dataclass
class Clocks:
    """``left`` holds each seat's seconds at ``since`` for the ``running`` seat (the
    others' are as they stopped); ``increment`` seconds are added after a turn."""

    left: list[float]
    increment: float = 0.0
    running: int | None = None
    since: float = 0.0
    #: The time control as given (``5+3``), for the record and the panel.
    control: str = field(default="")

    @classmethod
    def parse(cls, text: str, players: int) -> Clocks:
        """Clocks from ``MINUTES`` or ``MINUTES+SECONDS`` (``5``, ``3+2``); a
        :class:`ValueError` says what is wrong."""
        found = CONTROL.match(text)
        if found is None or float(found.group(1)) <= 0:
            raise ValueError(
                _("%(text)s is not a time control: give minutes, or minutes+seconds such as 5+3.")
                % {"text": text}
            )
        minutes = float(found.group(1))
        increment = float(found.group(2) or 0)
        return cls([minutes * 60] * players, increment, control=text.strip())

    def left_of(self, seat: int, now: float) -> float:
        """The seconds ``seat`` has left at ``now`` (never below 0)."""
        spent = now - self.since if seat == self.running else 0.0
        return max(0.0, self.left[seat] - spent)

    def switch(self, to: int | None, now: float, turn_ended: bool) -> None:
        """The running seat's clock stops (with the increment when its turn ended) and
        ``to``'s starts (None: none runs, the game is over)."""
        if self.running is not None:
            seat = self.running
            self.left[seat] = self.left_of(seat, now) + (self.increment if turn_ended else 0)
        self.running = to
        self.since = now

    def flagged(self, now: float) -> int | None:
        """The running seat when its time has run out."""
        seat = self.running
        return seat if seat is not None and self.left_of(seat, now) <= 0 else None


def shown(seconds: float) -> str:
    """A clock's face: ``4:05``, or ``0:09.4`` in the last ten seconds."""
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

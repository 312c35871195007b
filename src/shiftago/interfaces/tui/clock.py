"""The players' clocks of a timed game at one machine: each seat's time left, the seat
to act's running, an increment after each turn. Times are seconds of a monotonic source
that the caller reads and hands in, so that the clocks are tested without waiting.

A record keeps the clocks in two headers of its own (docs/cli.md, "Clocks"):
``TimeControl`` (``300+3``: seconds each, seconds added after a turn) and ``Clocks``
(each seat's seconds left when it was written, in seat order: ``281.4,300``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shiftago.interfaces.shared.catalogues import _

CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+)\s*)?$")
#: The record's headers of the time control and of the time each seat has left.
CONTROL_HEADER = "TimeControl"
LEFT_HEADER = "Clocks"
HEADERS = (CONTROL_HEADER, LEFT_HEADER)
SECONDS = re.compile(r"^\d+(?:\.\d+)?$")


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

    @classmethod
    def from_headers(cls, headers: dict[str, str], players: int) -> Clocks | None:
        """The clocks a record's :data:`HEADERS` kept (None when it has neither); a
        :class:`ValueError` says what is wrong with them."""
        control, left = headers.get(CONTROL_HEADER), headers.get(LEFT_HEADER)
        if control is None and left is None:
            return None
        parts = (control or "").split("+")
        seconds = (left or "").split(",")
        if (
            len(parts) != 2
            or not all(SECONDS.match(p) for p in parts)
            or float(parts[0]) <= 0
            or len(seconds) != players
            or not all(SECONDS.match(s) for s in seconds)
        ):
            raise ValueError(
                _("the record's clocks cannot be read: TimeControl %(control)s, Clocks %(left)s")
                % {"control": control, "left": left}
            )
        initial, increment = float(parts[0]), float(parts[1])
        text = f"{initial / 60:g}+{increment:g}" if increment else f"{initial / 60:g}"
        return cls([float(s) for s in seconds], increment, control=text)

    def headers(self, now: float) -> tuple[tuple[str, str], ...]:
        """The record's :data:`HEADERS` for these clocks at ``now``."""
        initial = CONTROL.match(self.control)
        minutes = float(initial.group(1)) if initial else 0.0
        control = f"{_seconds(minutes * 60)}+{_seconds(self.increment)}"
        left = ",".join(_seconds(self.left_of(s, now)) for s in range(len(self.left)))
        return ((CONTROL_HEADER, control), (LEFT_HEADER, left))

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


def _seconds(value: float) -> str:
    """Seconds as a header writes them: to a tenth, without a trailing ``.0``."""
    return f"{value:.1f}".removesuffix(".0")


def shown(seconds: float) -> str:
    """A clock's face: ``4:05``, or ``0:09.4`` in the last ten seconds."""
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

"""Game clocks: a time control and the seconds each seat has left.

A clock holds no time of its own: every method takes ``now`` (seconds, from whatever
source the caller trusts), so a server, a match runner and a test with a made-up time
all use the same arithmetic. A turn is everything one seat does before another seat is
to act: in Expert and Extreme a turn's scorings and the extra turn a scoring earns run
on the same clock, and the increment is added once, when the turn passes (a handicap
skip is not a turn of the skipped seat). In correspondence play each turn has a fixed
number of days, not carried over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from shiftago.core import Phase
from shiftago.core.errors import TranslatableError
from shiftago.formats.words import counted

#: Seconds in a day of correspondence play.
DAY = 86_400.0
#: The time controls a player picks from: (initial minutes, increment seconds).
PRESETS: tuple[tuple[int, int], ...] = ((1, 0), (3, 0), (3, 2), (5, 3), (10, 5), (15, 10))
#: The days per turn a correspondence game may have.
CORRESPONDENCE_DAYS: tuple[int, ...] = (1, 2, 3, 5, 7, 14)


class TimeControlError(TranslatableError):
    """A time control that cannot be played: the words say which part and why (a
    ValueError whose message an interface can translate)."""


@dataclass(frozen=True)
class TimeControl:
    """Initial seconds plus an increment per turn, or ``days`` per turn."""

    initial: float = 0.0
    increment: float = 0.0
    days: int | None = None

    def __post_init__(self) -> None:
        if self.days is not None:
            if not 1 <= self.days <= 30:
                raise TimeControlError("days per turn must be 1 to 30")
            if self.initial or self.increment:
                raise TimeControlError("a correspondence clock has days, not initial time")
            return
        if not 10 <= self.initial <= 3 * 3600:
            raise TimeControlError("initial time must be 10 seconds to 3 hours")
        if not 0 <= self.increment <= 180:
            raise TimeControlError("increment must be 0 to 180 seconds")

    @classmethod
    def from_columns(
        cls, initial: float | None, increment: float | None, days: int | None
    ) -> TimeControl | None:
        """The control stored as three columns (days, else initial and increment), or
        None for an untimed game."""
        if days is not None:
            return cls(days=days)
        if initial is None:
            return None
        return cls(initial, increment or 0.0)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The control written as :meth:`__str__` writes it: ``3+2`` (minutes + seconds,
        either may have decimals; the minutes also as ``minutes:seconds``) or ``2 days``;
        the inverse of ``str``.

        >>> TimeControl.parse("3+2")
        TimeControl(initial=180.0, increment=2.0, days=None)
        >>> TimeControl.parse("0.5+0.1").initial
        30.0
        >>> TimeControl.parse("1:30+2").initial
        90.0
        """
        words = text.split()
        if len(words) == 2 and words[1].lower() in ("day", "days"):
            if not words[0].isdigit():
                raise TimeControlError(
                    "{text}: days per turn are a whole number: 2 days", text=repr(text)
                )
            return cls(days=int(words[0]))
        minutes, _, seconds = text.strip().partition("+")
        whole, colon, part = minutes.partition(":")
        try:
            initial, increment = float(whole), float(seconds)
            if colon:
                if not whole.isdigit() or not 0 <= float(part) < 60:
                    raise ValueError(part)
                initial += float(part) / 60
        except ValueError:
            initial = increment = math.nan
        if not math.isfinite(initial) or not math.isfinite(increment):
            raise TimeControlError(
                "{text}: a time control is minutes+seconds, such as 3+2 or 1+0", text=repr(text)
            )
        # Milliseconds at most, so that the text a control prints reads back the same.
        return cls(round(initial * 60, 3), round(increment, 3))

    @property
    def correspondence(self) -> bool:
        return self.days is not None

    def increment_after(self, phase: Phase) -> float:
        """The seconds the mover's clock gains after its action in ``phase``, as far as
        is known before it: none after a scoring, which never ends the turn; otherwise
        the increment (it comes when the turn passes)."""
        return 0.0 if phase is Phase.SCORE else self.increment

    @property
    def turn_seconds(self) -> float:
        """What a seat starts with (and, in correspondence, each turn starts with)."""
        return self.days * DAY if self.days is not None else self.initial

    @property
    def speed(self) -> str:
        """The kind of game by its expected length with 40 turns a seat, as sites name
        them: bullet, blitz, rapid, classical or correspondence."""
        if self.days is not None:
            return "correspondence"
        expected = self.initial + 40 * self.increment
        if expected < 180:
            return "bullet"
        if expected < 480:
            return "blitz"
        if expected < 1500:
            return "rapid"
        return "classical"

    def __str__(self) -> str:
        """``3+2`` (minutes + seconds), ``0:30+0`` for 30 s, ``1:30+2`` for 90 s, or
        ``2 days``."""
        if self.days is not None:
            return counted(self.days, "day")
        minutes, seconds = divmod(self.initial, 60)
        start = f"{minutes:g}" if not seconds else f"{minutes:g}:{seconds:06.3f}".rstrip("0")
        return f"{start.rstrip('.')}+{self.increment:g}"


@dataclass(frozen=True)
class Clock:
    """The seconds left per seat (in seat order) at ``since``, and the seat whose clock
    runs from then (None while stopped: before the start, while the seat to act has its
    first action to make, or after the end). ``waits_until`` is when a clock stopped for
    the players gives up on them (a server aborts the game then; None: no such time)."""

    control: TimeControl
    remaining: tuple[float, ...]
    running: int | None
    since: float
    waits_until: float | None = None

    @classmethod
    def start(cls, control: TimeControl, players: int, first: int | None, now: float) -> Clock:
        """A new game's clock: every seat has the initial time; ``first`` is to act."""
        return cls(control, (control.turn_seconds,) * players, first, now)

    def left(self, now: float) -> tuple[float, ...]:
        """The seconds left per seat at ``now`` (never below 0)."""
        if self.running is None:
            return self.remaining
        spent = max(0.0, now - self.since)
        return tuple(
            max(0.0, r - spent) if seat == self.running else r
            for seat, r in enumerate(self.remaining)
        )

    @property
    def deadline(self) -> float | None:
        """When the running seat's time runs out (None while stopped)."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def flagged(self, now: float) -> int | None:
        """The seat whose time has run out at ``now``, if any."""
        deadline = self.deadline
        return self.running if deadline is not None and now >= deadline else None

    def after(self, seat: int, next_seat: int | None, now: float) -> Clock:
        """The clock after ``seat`` acted at ``now`` and ``next_seat`` is to act (None: the
        game is over). The time spent comes off ``seat``; when the turn passes to another
        seat, ``seat`` gains the increment, and in correspondence the next seat's turn
        starts with its days and ``seat`` shows its days again (what its next turn has;
        what it left of this one means nothing any more)."""
        left = list(self.left(now))
        if next_seat != seat:
            if self.control.correspondence:
                left[seat] = self.control.turn_seconds
                if next_seat is not None:
                    left[next_seat] = self.control.turn_seconds
            elif self.running == seat and next_seat is not None:
                # an action made off the clock earns nothing, nor does the game's last:
                # no turn passes then
                left[seat] += self.control.increment
        return replace(self, remaining=tuple(left), running=next_seat, since=now, waits_until=None)

    def resumed(self, remaining: tuple[float, ...], running: int | None, now: float) -> Clock:
        """The clock set back to ``remaining`` with ``running`` to act from ``now`` (a
        take-back returns to the clocks stored with the action it keeps)."""
        return replace(self, remaining=remaining, running=running, since=now, waits_until=None)

    def stopped(self, now: float) -> Clock:
        """The clock at the end of the game: what was left, nobody running."""
        return replace(self, remaining=self.left(now), running=None, since=now, waits_until=None)

    def paused(self, seconds: float, now: float) -> tuple[Clock, float]:
        """The clock with ``seconds`` charged to nobody (the server was down): it goes
        on from where it was ``seconds`` ago, never from later than ``now``; and the
        seconds it was moved by."""
        since = min(self.since + max(0.0, seconds), max(now, self.since))
        moved = since - self.since
        waits = None if self.waits_until is None else self.waits_until + moved
        return replace(self, since=since, waits_until=waits), moved


def remaining_text(remaining: tuple[float, ...]) -> str:
    """Seconds per seat as stored: ``299.5,300``, to the millisecond."""
    return ",".join(f"{r:.3f}".rstrip("0").rstrip(".") for r in remaining)


def parse_remaining(text: str) -> tuple[float, ...]:
    """The seconds per seat of :func:`remaining_text`."""
    return tuple(float(part) for part in text.split(","))


#: The share of its time left that a computer spends on one action, when it has no
#: increment to live on: about 1/30, so that a whole game of ~40 turns a seat fits
#: (docs/online.md, "How time works").
SHARE_PER_ACTION = 1 / 30
#: Seconds kept back for everything around the search (the queue, storing the action).
SAFETY_SECONDS = 0.3


def action_budget(left: float, increment: float) -> float:
    """Seconds a computer may think on one action with ``left`` seconds on its clock
    and ``increment`` per turn: a share of what is left plus most of the increment,
    never more than a third of what is left after the safety margin (so that it never
    loses on time while the margin covers the overhead), and at least 20 ms."""
    usable = max(0.0, left - SAFETY_SECONDS)
    budget = usable * SHARE_PER_ACTION + 0.8 * increment
    return max(0.02, min(budget, usable / 3))

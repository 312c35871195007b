"""Clocks that wait for the players (WEBAPI.md, "Clocks"; as lichess does).

A seat's first action is free of time: its clock runs whenever it is to act from its
second action on. A person's seat is *opened* when its person first comes (its link
followed, its seek filled); once every person's seat is opened, a person's seat due to
make its first action has :attr:`Waits.first_action` seconds before the game is
aborted (nobody wins or loses), and a timed game whose seats are not all opened within
:attr:`Waits.opening` seconds of its making is aborted too. The moment a waiting clock
gives up is its ``waits_until``, stored where a running clock's deadline is, so that
the flag sweep finds both (:func:`.ending.flag_if_out_of_time` ends the game).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shiftago.interfaces.server.db.store import epoch, from_epoch
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.match.clock import Clock


@dataclass(frozen=True)
class Waits:
    """How long clocks wait for the players (seconds; ``Settings`` gives them)."""

    first_action: float = 60.0
    opening: float = 86_400.0


def running_seat(live: LiveGame) -> int | None:
    """The seat whose clock runs now: the seat to act once it has made its first action
    (None before, and once the game is over)."""
    seat = live.to_act
    return seat if seat is not None and live.has_acted(seat) else None


def unopened(live: LiveGame) -> int | None:
    """The first person's seat that is not opened yet (None: every one is)."""
    for i, seat in enumerate(live.stored.seats):
        if seat.kind == "human" and seat.opened is None:
            return i
    return None


def waiting(live: LiveGame, clock: Clock, waits: Waits) -> Clock:
    """``clock`` with its ``waits_until`` as the rule says: none while it runs or once
    the game is over; the making plus :attr:`Waits.opening` while a person's seat is not
    opened; the moment the seat to act became due (its turn came, every seat opened)
    plus :attr:`Waits.first_action` for a person's first action (in correspondence,
    the turn's days); none for the computer's, which comes by itself."""
    if live.over or clock.running is not None:
        return replace(clock, waits_until=None)
    if unopened(live) is not None:
        return replace(clock, waits_until=epoch(live.stored.created) + waits.opening)
    seat = live.to_act
    if seat is None or live.stored.seats[seat].kind != "human":
        return replace(clock, waits_until=None)
    opened = max(
        epoch(s.opened) for s in live.stored.seats if s.kind == "human" and s.opened is not None
    )
    # a correspondence player has the turn's days for it, as for any action
    first = clock.control.turn_seconds if clock.control.correspondence else waits.first_action
    return replace(clock, waits_until=max(clock.since, opened) + first)


def open_seats(live: LiveGame, at: float) -> None:
    """Mark every person's seat of ``live`` opened at ``at`` (a filled seek's game)."""
    for seat in live.stored.seats:
        if seat.kind == "human":
            seat.opened = from_epoch(at)

"""Why a command changes nothing: :class:`Refused`, and the checks every command shares.

A refusal goes back to the one who asked as an ``error`` event with its ``code``
(docs/web-protocol.md); the game is left as it was.
"""

from __future__ import annotations

from shiftago.core import COLOURS
from shiftago.interfaces.server.games.live import LiveGame


class Refused(Exception):
    """A message that changes nothing: its ``code`` and words for the ``error`` event,
    and where one code covers several causes, a stable ``reason`` that names the cause
    (the page says it in its own language; the English ``message`` stays for others)."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str | None = None,
        values: dict[str, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        #: the numbers the reason's words name (a limit, a time), sent beside it
        self.values = dict(values or {})


def person(live: LiveGame, seat: int | None) -> int:
    """``seat`` when a person holds it; a connection without a seat, or one whose seat
    was handed to the computer since (a claim), may only watch."""
    if seat is None:
        raise Refused("not_seated", "spectators can only watch", "spectator")
    if live.stored.seats[seat].kind != "human":
        raise Refused(
            "not_seated", f"the computer plays {COLOURS[seat]} now; you watch", "computer_seat"
        )
    return seat


def seated(live: LiveGame, seat: int | None) -> int:
    """``seat`` when a person holds it and the game is not over."""
    seat = person(live, seat)
    if live.over:
        raise Refused("over", "the game is over")
    return seat

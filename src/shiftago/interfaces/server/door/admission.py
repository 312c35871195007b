"""New connections start at a bounded pace, so that a crowd arriving at once cannot hold
the event loop (docs/deploy.md, "A burst of watchers and a sign-in flood").

The event loop runs, in one turn, the work of every connection that is ready. When 800
watchers open their sockets together, their upgrades, and then the app's work up to
each ``accept``, come in one or two turns of a second each, and a player's frame that
arrives meanwhile waits for them all. So a new connection's first request is held
(reading paused) until :class:`Admission` lets it in: at most :data:`PER_TURN` a turn,
and only :data:`PER_TURN_WHILE_BUSY` while the players' changes are under way, so that
each turn stays short and a player's action goes through the crowd in a few of them.
Nothing is refused and nothing is lost: a held connection keeps what it sent and is read
once admitted. A first request that carries the ``ahead`` mark (the known-device cookie
of a person who signed in here before) waits at the front of the queue, so that a
flood of sign-ins from new addresses does not hold the owner's sign-in behind it; a
forged mark only moves a request ahead, and the cookie is still checked by the app.
Only a connection's first request waits; a connection already admitted (a socket, a
kept-alive HTTP connection) is read as soon as its data comes.

:func:`paced` makes the uvicorn protocol class that holds a connection's first request.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Final, Protocol

#: New connections let in per turn of the event loop (docs/deploy.md, "A burst of
#: watchers and a sign-in flood", measures 2, 4 and 8).
PER_TURN: Final = 4
#: ... and while a player's change (an action, a resignation) is under way (never 0:
#: on a busy server some change is nearly always under way).
PER_TURN_WHILE_BUSY: Final = 1


class Newcomer(Protocol):
    """A connection held at the door until it is let in."""

    def admit(self) -> None:
        """Read what it sent and go on (a connection gone meanwhile does nothing)."""


class Admission:
    """The queue of new connections, let in a few per turn of the event loop, fewer
    while ``busy()`` says that the players' work is under way."""

    def __init__(
        self,
        per_turn: int = PER_TURN,
        per_turn_while_busy: int = PER_TURN_WHILE_BUSY,
        busy: Callable[[], bool] | None = None,
        ahead: bytes | None = None,
    ) -> None:
        self.per_turn = max(1, per_turn)
        self.per_turn_while_busy = max(1, min(per_turn_while_busy, self.per_turn))
        #: Whether the players' work is under way (the app hands in the hub's).
        self.busy: Callable[[], bool] = busy or (lambda: False)
        #: Bytes whose presence in a first request puts it at the front of the queue.
        self.ahead = ahead
        self.waiting: deque[Newcomer] = deque()
        self._turn_due = False
        #: Connections let in since the process started.
        self.admitted = 0

    def arrive(self, newcomer: Newcomer, first_request: bytes = b"") -> None:
        """Hold ``newcomer`` until its turn (from within the event loop); at the front
        when its ``first_request`` (what it sent so far) carries the ``ahead`` mark."""
        if self.ahead is not None and self.ahead in first_request:
            self.waiting.appendleft(newcomer)
        else:
            self.waiting.append(newcomer)
        if not self._turn_due:
            self._turn_due = True
            asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        """Let the next few in; come back next turn while any wait (a callback at the
        end of the turn's queue: what became ready this turn goes first)."""
        self._turn_due = False
        room = self.per_turn_while_busy if self.busy() else self.per_turn
        while room and self.waiting:
            self.waiting.popleft().admit()
            self.admitted += 1
            room -= 1
        if self.waiting:
            self._turn_due = True
            asyncio.get_running_loop().call_soon(self._turn)


def paced(base: type[asyncio.Protocol], admission: Admission) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's HTTP protocol) whose connections wait at ``admission`` with
    their first request before it is read."""

    class Paced(base):  # type: ignore[valid-type,misc]
        _admitted = False
        _held: bytes | None = None

        def data_received(self, data: bytes) -> None:
            if self._admitted:
                super().data_received(data)
            elif self._held is not None:  # read before the pause took hold
                self._held += data
            else:
                self._held = data
                self.transport.pause_reading()
                admission.arrive(self, data)

        def admit(self) -> None:
            self._admitted = True
            held, self._held = self._held or b"", None
            if self.transport.is_closing():
                return  # it went while it waited
            self.transport.resume_reading()
            super().data_received(held)

    Paced.__name__ = Paced.__qualname__ = f"Paced{base.__name__}"
    return Paced


def protocol_class(admission: Admission, http: Any = None) -> type[asyncio.Protocol]:
    """The HTTP protocol uvicorn serves with (its ``auto`` choice unless ``http``),
    paced by ``admission``."""
    if http is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        http = AutoHTTPProtocol
    return paced(http, admission)


__all__ = ["PER_TURN", "PER_TURN_WHILE_BUSY", "Admission", "Newcomer", "paced", "protocol_class"]

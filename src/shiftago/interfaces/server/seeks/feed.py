"""The lobby's side of the seeks: this process's lobby sockets, the places their pages
hold, and the announcements they hear (:mod:`.seeks` holds the rules).

Announcements: each change of a seek is stored first, then announced here, to this
process's lobby sockets (:class:`Listener`) and, over the bus, to the other processes',
whose feeds hear it as a ``kind: lobby`` event (:meth:`Hub.on_event`) and pass it on to
their own sockets. A socket that holds the secret of a place in a seek that fills hears
where its own seat is (``filled``, with the link of that seat).

The places held: while a page holds a place's secret, the place is marked seen (the
creator's: the seek); when the creator's page leaves, the seek is gone after
:data:`LEAVE_GRACE` unless a page holds it again (a reload, here or elsewhere).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any, Final

from shiftago.interfaces.server.db.store import from_epoch, token_hash
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.jobs.bus import Event
from shiftago.interfaces.server.seeks.store import SeekStore

log = logging.getLogger("shiftago.server")

#: Seconds a seek outlives its creator's page (a reload holds it again in time).
LEAVE_GRACE: Final = 5.0


class Listener:
    """A lobby socket as the seeks see it: where its events go, and the seeks whose
    secrets its page holds (seek id -> (secret, place))."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self.holds: dict[str, tuple[str, int]] = {}


class LobbyFeed:
    """This process's lobby sockets: the places their pages hold, and what they hear."""

    def __init__(self, hub: Hub, store: SeekStore) -> None:
        self.hub = hub
        self.store = store
        self.listeners: set[Listener] = set()
        self._graces: dict[str, asyncio.TimerHandle] = {}
        self._checks: set[asyncio.Task[None]] = set()
        hub.event_hooks["lobby"] = self._on_event

    def join(self, listener: Listener) -> None:
        self.listeners.add(listener)

    def held_places(self) -> list[tuple[str, int]]:
        """The places (seek id, place number) that this process's pages hold."""
        return sorted(
            {
                (seek_id, place)
                for listener in self.listeners
                for seek_id, (_, place) in listener.holds.items()
            }
        )

    def holds(self, seek_id: str, place: int) -> bool:
        """Whether a page of this process holds that place of the seek."""
        return any(listener.holds.get(seek_id, ("", -1))[1] == place for listener in self.listeners)

    # --- the places held --------------------------------------------------------------------
    async def hold(self, listener: Listener, token: str, seek_id: str | None = None) -> None:
        """A page holds a place's secret: it hears when the seek fills (at once when it
        has), and the place stays while it does (the creator's: the seek). A secret of
        no place (a freed one) is answered ``not_found``, with the ``seek_id`` the page
        named for it."""
        seek = await self.hub.db(self.store.of_token, token_hash(token))
        place = None if seek is None else seek.place_of(token_hash(token))
        if seek is None or place is None:
            refusal = {
                "type": "error",
                "code": "not_found",
                "message": "no challenge has this secret",
            }
            listener.send(refusal if seek_id is None else {**refusal, "seek": seek_id})
            return
        if seek.status == "gone":
            listener.send({"type": "seek_gone", "id": seek.id})
            return
        listener.holds[seek.id] = (token, place.place)
        if place.place == 0:
            grace = self._graces.pop(seek.id, None)
            if grace is not None:
                grace.cancel()
        if seek.status == "open":
            await self.still_there([(seek.id, place.place)])
        listener.send({"type": "held", "seek": seek.id, "place": place.place})
        again = await self.hub.db(self.store.load, seek.id)  # a fill announced meanwhile
        if again is not None and again.status == "filled" and again.game_id is not None:
            self.tell_filled(listener, seek.id, again.game_id)

    def leave(self, listener: Listener) -> None:
        """A lobby socket closed: the seeks its page created are gone after the grace,
        unless a page holds them again by then (here or on another process); the places
        it took are freed by the sweep unless held again."""
        self.listeners.discard(listener)
        left = from_epoch(self.hub.now())
        loop = asyncio.get_running_loop()
        for seek_id, (_token, place) in listener.holds.items():
            if place == 0 and seek_id not in self._graces:
                self._graces[seek_id] = loop.call_later(
                    LEAVE_GRACE, self._grace_over, seek_id, left
                )
        listener.holds.clear()

    def _grace_over(self, seek_id: str, left: dt.datetime) -> None:
        self._graces.pop(seek_id, None)
        task = asyncio.create_task(self._gone_if_left(seek_id, left))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _gone_if_left(self, seek_id: str, left: dt.datetime) -> None:
        if self.holds(seek_id, 0):
            return  # held again here
        # held again elsewhere: that page's hold marked it seen after ``left``
        if await self.hub.db(self.store.close, seek_id, left):
            await self.gone(seek_id)

    async def refresh(self) -> None:
        """Mark seen the places whose holder's page is here (the creators': their seeks)."""
        await self.still_there(self.held_places())

    async def still_there(self, places: list[tuple[str, int]]) -> None:
        """The holders of the places (seek id, place number) are there now; a creator
        keeps the seek's ``seen`` too."""
        now = from_epoch(self.hub.now())
        await self.hub.db(self.store.touch_places, places, now)
        await self.hub.db(
            self.store.touch, [seek_id for seek_id, place in places if place == 0], now
        )

    async def close(self) -> None:
        """Stop the grace timers and wait for the checks under way (shutting down)."""
        for grace in self._graces.values():
            grace.cancel()
        self._graces.clear()
        if self._checks:
            await asyncio.gather(*self._checks, return_exceptions=True)

    # --- announcing ---------------------------------------------------------------------
    async def seek(self, view: dict[str, Any]) -> None:
        """A seek is new or its places changed (``view``: as the lobby lists it)."""
        await self.announce({"event": "seek", "seek": view})

    async def gone(self, seek_id: str) -> None:
        await self.announce({"event": "gone", "id": seek_id})

    async def filled(self, seek_id: str, game_id: str) -> None:
        await self.announce({"event": "filled", "id": seek_id, "game": game_id})

    async def announce(self, event: Event) -> None:
        """Tell this process's lobby sockets, then the other processes'."""
        self._deliver(event)
        # the lobby's event goes inside: its own fields (a filled seek's "game") must not
        # read as the bus event's, whose "game" sends it only to processes holding that game
        await self.hub.publish({"game": "", "revision": 0, "kind": "lobby", "lobby": event})

    async def _on_event(self, event: Event) -> None:
        lobby = event.get("lobby")
        if isinstance(lobby, dict):
            self._deliver(lobby)

    def _deliver(self, event: Event) -> None:
        what = event.get("event")
        if what == "seek":
            message: dict[str, Any] = {"type": "seek", "seek": event["seek"]}
        elif what == "gone":
            message = {"type": "seek_gone", "id": str(event["id"])}
        elif what == "filled":
            message = {"type": "seek_filled", "id": str(event["id"]), "game": str(event["game"])}
        else:
            log.error("a lobby event that cannot be read: %r", event)
            return
        for listener in list(self.listeners):
            listener.send(message)
            if what == "filled":
                self.tell_filled(listener, message["id"], message["game"])
            elif what == "gone":
                listener.holds.pop(message["id"], None)

    @staticmethod
    def tell_filled(listener: Listener, seek_id: str, game_id: str) -> None:
        """A holder of the filled seek hears where its own seat is."""
        held = listener.holds.pop(seek_id, None)
        if held is not None:
            url = f"/play/{game_id}?seat={held[0]}"
            listener.send({"type": "filled", "seek": seek_id, "game": game_id, "url": url})


__all__ = ["LEAVE_GRACE", "Listener", "LobbyFeed"]

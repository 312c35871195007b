"""The exchange of a game's presence: its sockets hear who is here, once per presence
interval however many came and went (docs/web-protocol.md, "Limits and presence"), and
the other processes hear this one's part (:class:`.presence.PresenceSummary`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from shiftago.interfaces.server.games.live import Connection, LiveGame
from shiftago.interfaces.server.games.presence import PresenceSummary
from shiftago.interfaces.server.games.publisher import Publisher
from shiftago.interfaces.server.jobs.bus import Event, RedisBus

log = logging.getLogger("shiftago.server")

#: Runs a coroutine as a task that the hub waits for before shutting down.
Spawn = Callable[[Coroutine[Any, Any, None]], asyncio.Future[None]]


class PresenceExchange:
    """Who is at each game of one process, told to its sockets and to the others."""

    def __init__(
        self, publisher: Publisher, spawn: Spawn, *, grace_seconds: int, interval: float
    ) -> None:
        self.publisher = publisher
        self.spawn = spawn
        self.grace_seconds = grace_seconds
        self.interval = interval

    def changed(self, live: LiveGame) -> None:
        """People came or went (here, or on another process: ``live.remote_presence``):
        the game's sockets hear of it once within the presence interval, however many
        came and went in it (docs/web-protocol.md, "Limits and presence")."""
        live.presence_changed()
        live.presence_out.request(self.interval, lambda: live.announce_presence(self.grace_seconds))

    async def join(self, live: LiveGame, connection: Connection) -> None:
        """The newcomer hears the presence at once; the others within the interval."""
        await self.join_many(live, [connection])

    async def join_many(self, live: LiveGame, connections: list[Connection]) -> None:
        """Newcomers (a batch of watchers) join at once: the presence is counted and
        made once, and each of them hears it at once; the others within the interval."""
        for connection in connections:
            live.add_connection(connection)
        self.changed(live)
        self.share(live)
        event = live.presence(self.grace_seconds)
        for connection in connections:
            connection.presence_seen = live.presence_changes
            connection.send(event)

    async def leave(self, live: LiveGame, connection: Connection) -> None:
        live.discard_connection(connection)
        self.changed(live)
        self.share(live)

    def share(self, live: LiveGame) -> None:
        """Tell the other processes this one's part of the game's presence, at most once
        per presence interval (nothing to do for one process alone)."""
        if isinstance(self.publisher.bus, RedisBus):
            live.presence_shared.request(self.interval, lambda: self._share_now(live))

    def _share_now(self, live: LiveGame) -> None:
        self.spawn(self._send_own(live))

    async def _send_own(self, live: LiveGame) -> None:
        await self.publisher.publish(self._event(live))

    def _event(self, live: LiveGame) -> dict[str, Any]:
        return {
            "game": live.id,
            "revision": live.revision,
            "kind": "presence",
            "process": self.publisher.bus.process,
            "summary": live.own_presence().to_json(),
        }

    async def on_event(self, live: LiveGame, event: Event) -> None:
        """Another process's part of the game's presence (``presence``), or its question
        who is here (``presence?``: it just loaded the game)."""
        if event.get("kind") == "presence?":
            if live.connections:
                await self._send_own(live)
            return
        try:
            summary = PresenceSummary.from_json(event.get("summary"))
        except ValueError:
            log.error("a presence event that cannot be read: %r", event)
            return
        if live.take_remote_presence(str(event.get("process")), summary):
            self.changed(live)

    async def share_all(self, games: Iterable[LiveGame]) -> None:
        """Say again this process's part of every game it has sockets of (so that the
        others keep believing it; :data:`.presence.SUMMARY_SECONDS`), in batches: one
        round trip to Redis per batch instead of one per game."""
        events = [self._event(live) for live in list(games) if live.connections]
        try:
            await self.publisher.bus.publish_many(events)
        except Exception as error:
            log.error("the presence of %d games could not be published: %s", len(events), error)

"""How watchers join a game without stalling its play (docs/web-protocol.md, docs/deploy.md
"A burst of watchers").

A watcher's hello is queued per game and admitted in batches of :data:`JOIN_BATCH`, each
under the game's lock, with a turn of the event loop between batches: an action that
waits for the lock (a player's, the computer's) goes before the next batch, so it waits
for one batch at most, never for a crowd; and a batch waits (up to :data:`CALM_WAIT`)
while any game's change is under way (:meth:`.Hub.calm`), so that the players' turns of
the loop are not filled with newcomers' welcomes. What a newcomer is sent to catch up
(the game's ``state`` or its actions) is made once per state of the game and kept as
text (:class:`Snapshots`): a batch, and the batches after it, send the same text. A
seat's own hello is not queued (the player never waits behind watchers).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from shiftago.interfaces.server.door.socket import message_text
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.live import Connection, LiveGame

if TYPE_CHECKING:
    from shiftago.interfaces.server.games.hub import Hub

#: Watchers admitted under one hold of the game's lock (docs/deploy.md, "A burst of
#: watchers and a sign-in flood").
JOIN_BATCH: Final = 10
#: The longest a batch waits for the players' changes under way to end, in seconds
#: (the same section).
CALM_WAIT: Final = 0.05
#: A running clock's view is made again after this many seconds (the clocks a newcomer
#: is shown are at most this old; an untimed game's view lasts until the game changes).
CLOCK_FRESH: Final = 0.5

#: What a feature sends a batch of newcomers under the game's lock (the chat's history):
#: registered in :attr:`Joins.welcomes` by the feature, as the chat does.
Welcome = Callable[[LiveGame, list[Connection]], Awaitable[None]]


class Snapshots:
    """What a newcomer that has seen ``seen`` actions is sent to catch up, serialised
    once per state of the game (its revision, version, connected seats, and the clock's
    moment when one runs)."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.texts: dict[int, list[str]] = {}
        #: How many catch-ups were made rather than taken from the cache.
        self.built = 0

    def catch_up(self, live: LiveGame, seen: int) -> list[str]:
        key = _state_key(live)
        if key != self.key:
            self.key, self.texts = key, {}
        texts = self.texts.get(seen)
        if texts is None:
            texts = [message_text(m) for m in announce.catch_up_messages(live, seen)]
            self.texts[seen] = texts
            self.built += 1
        return texts


def snapshots(live: LiveGame) -> Snapshots:
    """The game's cache of catch-ups (kept with the game's views)."""
    kept = live.views.get("snapshots")
    if not isinstance(kept, Snapshots):
        kept = live.views["snapshots"] = Snapshots()
    return kept


def _state_key(live: LiveGame) -> tuple[Any, ...]:
    clock = live.stored.clock
    moment = None
    if clock is not None and clock.running is not None and not live.over:
        moment = int(live.now() / CLOCK_FRESH)
    seats = tuple(live.connected(i) for i in range(len(live.stored.seats)))
    return live.revision, live.version, seats, moment


@dataclass
class _Joiner:
    connection: Connection
    seen: int
    done: asyncio.Future[None]


class Joins:
    """The watchers' hellos of every game of the hub, queued and admitted in batches."""

    def __init__(self, hub: Hub, batch: int = JOIN_BATCH) -> None:
        self.hub = hub
        self.batch = max(1, batch)
        self.queues: dict[str, deque[_Joiner]] = {}
        #: Sent to each batch under the game's lock, before it joins the presence.
        self.welcomes: list[Welcome] = []
        #: Watchers admitted and batches run since the process started (``/metrics``).
        self.admitted = 0
        self.batches = 0

    def waiting(self) -> int:
        """Watchers whose hello waits in a queue now."""
        return sum(len(queue) for queue in self.queues.values())

    async def join(self, live: LiveGame, connection: Connection, seen: int) -> None:
        """Queue the watcher and wait until its batch is admitted: it has been sent its
        welcome, its catch-up, the welcomes of the features, and it is among the game's
        connections."""
        joiner = _Joiner(connection, seen, asyncio.get_running_loop().create_future())
        queue = self.queues.get(live.id)
        if queue is None:
            queue = self.queues[live.id] = deque()
            self.hub.spawn(self._drain(live, queue))
        queue.append(joiner)
        await joiner.done

    async def _drain(self, live: LiveGame, queue: deque[_Joiner]) -> None:
        try:
            with self.hub.using(live):  # the game stays in memory while joins wait
                await self._drain_batches(live, queue)
        finally:
            if self.queues.get(live.id) is queue:
                del self.queues[live.id]
            for joiner in queue:  # shut down under way: nobody is left waiting
                joiner.done.cancel()

    async def _drain_batches(self, live: LiveGame, queue: deque[_Joiner]) -> None:
        while queue:
            await asyncio.sleep(0)  # whatever waits for the lock is queued first
            await self.hub.calm(CALM_WAIT)  # and the players' changes go first
            taken = [queue.popleft() for _ in range(min(self.batch, len(queue)))]
            batch = [j for j in taken if not j.done.done()]
            for joiner in batch:
                if joiner.connection.closed:  # gone while it waited: nothing to send
                    joiner.done.set_result(None)
            batch = [j for j in batch if not j.done.done()]
            if not batch:
                continue
            try:
                async with live.lock:
                    await self._admit(live, batch)
            except Exception as failure:
                for joiner in batch:
                    if not joiner.done.done():
                        joiner.done.set_exception(failure)
                continue
            for joiner in batch:
                if not joiner.done.done():
                    joiner.done.set_result(None)

    async def _admit(self, live: LiveGame, batch: list[_Joiner]) -> None:
        hub = self.hub
        await hub.reload_if_behind(live, max(j.seen for j in batch))
        cache = snapshots(live)
        welcome = message_text(
            {"type": "welcome", "seat": None, "colour": None, "version": live.version}
        )
        for joiner in batch:
            joiner.connection.send(welcome)
            for text in cache.catch_up(live, joiner.seen):
                joiner.connection.send(text)
        connections = [j.connection for j in batch]
        for send in self.welcomes:
            await send(live, connections)
        await hub.presence.join_many(live, connections)
        if live.thinking is not None:
            thinking = message_text({"type": "thinking", "seat": live.thinking})
            for connection in connections:
                connection.send(thinking)
        self.admitted += len(batch)
        self.batches += 1


__all__ = ["CLOCK_FRESH", "JOIN_BATCH", "Joins", "Snapshots", "Welcome", "snapshots"]

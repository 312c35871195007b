"""Events between the processes that serve the same games.

A process that stores a change of a game publishes an event (after the database has it:
stored before announced); every other process that holds the game in memory applies it
and tells its own sockets. The database stays the one truth: an event only says "game G
is now at revision R" (with the action when it is one), and a process that finds a gap
reads the game again from the database.

:class:`Bus` is the one-process case: nothing to share. :class:`RedisBus` carries the
events in a Redis stream (``XADD`` with a bounded length, read by every process with
``XREAD`` from the last id it saw), so a process whose connection to Redis drops for a
moment reads on where it stopped instead of missing events, as it would with pub/sub.
docs/deploy.md says why streams. An event of a game carries the game's id beside its
JSON, so a process skips the events of games it does not hold without reading them.
A process applies the events of one game in their order, and those of different games
independently (:class:`GameLanes`): an event whose handling waits (reading a game
again from the database, answering with a publish) holds up only its own game's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final

import orjson

from shiftago.interfaces.shared.cancelling import cancel_and_wait, raise_if_cancelled

log = logging.getLogger("shiftago.server")

#: The stream of every serve process's and worker's events.
EVENTS: Final = "shiftago:events"
#: About how many events the stream keeps: far more than a process reads between two
#: reads, even one that lost Redis for a while (docs/deploy.md).
EVENTS_KEPT: Final = 100_000
#: How long one read waits for new events (milliseconds) before it reads again.
READ_BLOCK_MS: Final = 5_000
#: After a read that brought events, how long a process lets the next ones gather before
#: it reads again (seconds): under load one read then brings several events instead of
#: one, for a few milliseconds more on the way (docs/deploy.md, "Measured").
READ_GATHER_S: Final = 0.005
#: Events being applied at once (:class:`GameLanes`) past which a process reads no more
#: until half of them are done.
LANES_MOST: Final = 10_000
#: Events of one :meth:`RedisBus.publish_many` sent to Redis in one round trip.
PUBLISHED_PER_ROUND_TRIP: Final = 200

Event = dict[str, Any]
Handler = Callable[[Event], Awaitable[None]]
#: Whether this process holds the game of this id (its events matter here).
Holds = Callable[[str], bool]


def process_name() -> str:
    """A name of this process, unique among those on one Redis: host, pid and a nonce."""
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class Bus:
    """One process alone: events go nowhere, as there is nobody else to tell."""

    #: Whether other processes may change the games too (their copies in memory may lag).
    shared = False

    def __init__(self) -> None:
        self.process = process_name()

    async def start(self, handler: Handler, holds: Holds | None = None) -> None:
        """Begin handing other processes' events to ``handler``, in their order: those of
        games that ``holds`` (when given), and every event that names no game."""

    async def publish(self, event: Event) -> None:
        """Tell the other processes (after the change is stored). An event whose ``game``
        names a game reaches only the processes that hold that game."""

    async def publish_many(self, events: list[Event]) -> None:
        """Publish ``events`` in their order, as :meth:`publish` does each."""

    async def close(self) -> None:
        """Stop reading."""


class GameLanes:
    """Handles events in order per game and games independently: an event waits only
    for the earlier events of its own game (its lane, by the game's id; events of no game
    share one)."""

    def __init__(self, handler: Handler, most: int = LANES_MOST) -> None:
        self.handler = handler
        self.most = most
        #: The last event's task of each lane that has one under way.
        self._tails: dict[str, asyncio.Task[None]] = {}
        #: Every event's task under way, and whether there is room for more.
        self._pending: set[asyncio.Task[None]] = set()
        self._room = asyncio.Event()
        self._room.set()

    def submit(self, lane: str, event: Event) -> None:
        """Handle ``event`` after the earlier events of ``lane``."""
        previous = self._tails.get(lane)
        task = asyncio.create_task(self._handle(previous, event))
        self._tails[lane] = task
        self._pending.add(task)
        if len(self._pending) >= self.most:
            self._room.clear()
        task.add_done_callback(lambda done: self._forget(lane, done))

    async def room(self) -> None:
        """Wait while ``most`` events are under way (until half of them are done), so
        that events stuck behind a database that does not answer do not pile up
        without end."""
        await self._room.wait()

    def _forget(self, lane: str, done: asyncio.Task[None]) -> None:
        if self._tails.get(lane) is done:
            del self._tails[lane]
        self._pending.discard(done)
        if len(self._pending) <= self.most // 2:
            self._room.set()

    async def _handle(self, previous: asyncio.Task[None] | None, event: Event) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])  # its failure is its own (logged there)
        try:
            await self.handler(event)
        except asyncio.CancelledError:
            raise
        except Exception:
            raise_if_cancelled()  # redis-py may answer a cancellation with a TimeoutError
            log.exception("an event from another process could not be applied")

    async def close(self) -> None:
        """Stop the events under way (the process is stopping)."""
        await cancel_and_wait(self._pending)


class RedisBus(Bus):
    """The events of every process, through one Redis stream."""

    shared = True

    def __init__(self, redis: Any) -> None:
        super().__init__()
        self.redis = redis
        self._reader: asyncio.Task[None] | None = None
        self._lanes: GameLanes | None = None

    async def start(self, handler: Handler, holds: Holds | None = None) -> None:
        newest = await self.redis.xrevrange(EVENTS, count=1)
        last = newest[0][0] if newest else b"0-0"
        self._lanes = GameLanes(handler)
        self._reader = asyncio.create_task(self._read(last, self._lanes, holds))

    async def publish(self, event: Event) -> None:
        await self.redis.xadd(EVENTS, self._fields(event), maxlen=EVENTS_KEPT, approximate=True)

    async def publish_many(self, events: list[Event]) -> None:
        for start in range(0, len(events), PUBLISHED_PER_ROUND_TRIP):
            pipeline = self.redis.pipeline(transaction=False)
            for event in events[start : start + PUBLISHED_PER_ROUND_TRIP]:
                pipeline.xadd(EVENTS, self._fields(event), maxlen=EVENTS_KEPT, approximate=True)
            await pipeline.execute()

    def _fields(self, event: Event) -> dict[str, Any]:
        """The stream entry of ``event``: the sender, the JSON, and the game it is of."""
        fields: dict[str, Any] = {"p": self.process, "e": orjson.dumps(event)}
        game = event.get("game")
        if isinstance(game, str) and game:
            fields["g"] = game
        return fields

    async def _read(self, last: bytes | str, lanes: GameLanes, holds: Holds | None) -> None:
        while True:
            try:
                answer = await self.redis.xread({EVENTS: last}, block=READ_BLOCK_MS, count=500)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis gone for a moment: read on from the same id
                raise_if_cancelled()
                log.warning("reading the events from Redis failed; trying again: %s", error)
                await asyncio.sleep(1.0)
                continue
            for _stream, entries in answer or ():
                for entry_id, fields in entries:
                    last = entry_id
                    if redis_text(fields.get(b"p")) == self.process:
                        continue
                    game = redis_text(fields.get(b"g", b""))  # "": an event of no game
                    if game and holds is not None and not holds(game):
                        continue
                    try:
                        event = orjson.loads(fields[b"e"])
                    except orjson.JSONDecodeError:
                        log.error("an event from another process that is not JSON: %r", fields)
                        continue
                    await lanes.room()
                    lanes.submit(game, event)
            if answer:
                await asyncio.sleep(READ_GATHER_S)

    async def close(self) -> None:
        """Stop reading, and the events under way."""
        if self._reader is not None:
            await cancel_and_wait([self._reader])
        if self._lanes is not None:
            await self._lanes.close()


def redis_text(value: Any) -> str:
    """A value Redis answered, as text (bytes decoded)."""
    return value.decode() if isinstance(value, bytes) else str(value)

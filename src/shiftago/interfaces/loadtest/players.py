"""The load tool's clients, one asyncio task per socket: a person who plays a random
legal action at a human pace (the ``legal`` list of the events, no rules here), and a
watcher who only reads. They speak docs/web-protocol.md as the game page does: hello
with the seen version, ``act`` with ``seen``, ``sync`` when out of step, and a new
connection with the seen version when the server closes one."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import random
from collections.abc import Callable, Coroutine
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from shiftago.core import COLOURS
from shiftago.interfaces.loadtest.figures import GameTrace, Stats
from shiftago.interfaces.loadtest.protocol import (
    HEAD,
    NOT_FOUND_CLOSE,
    clock,
    dumps,
    read_action,
    retry_after,
    socket_url,
)

#: Waits between attempts to connect again (seconds): doubled after each short-lived
#: connection, from the shortest again after one that lasted.
MIN_BACKOFF = 0.2
MAX_BACKOFF = 5.0
LASTED = 5.0


class Play:
    """What every socket of a run shares: the pace, the randomness, the figures, the
    bound in actions and the stop (after which nobody acts again)."""

    def __init__(
        self,
        pace: tuple[float, float],
        rng: random.Random,
        stats: Stats,
        actions: int | None = None,
        deflate: bool = True,
    ) -> None:
        self.pace = pace
        self.rng = rng
        self.stats = stats
        self.actions = actions
        self.deflate = deflate
        self.stopping = False
        self.stopped = asyncio.Event()
        self.on_stop: list[Callable[[], None]] = []
        self._sends: set[asyncio.Task[None]] = set()

    def stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        self.stopped.set()
        for callback in self.on_stop:
            callback()

    def take_action(self) -> bool:
        """Whether one more action may be sent (and count it); the last one stops the run."""
        if self.stopping:
            return False
        self.stats.sent += 1
        if self.actions is not None and self.stats.sent >= self.actions:
            self.stop()
        return True

    def send(self, ws: ClientConnection, text: str) -> None:
        """Send without waiting (the socket's own task keeps reading meanwhile)."""
        self._background(_send(ws, text))

    def close(self, ws: ClientConnection) -> None:
        """Close a socket without waiting; its reading task then ends."""
        self._background(ws.close())

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less when the run stops."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self.stopped.wait()


async def _send(ws: ClientConnection, text: str) -> None:
    with contextlib.suppress(ConnectionClosed):
        await ws.send(text)


class GameRun:
    """One game in play: what its sockets share, and when it is over."""

    def __init__(self, trace: GameTrace, computer: int | None, now: float) -> None:
        self.trace = trace
        #: The computer's seat, or None in a game between two of the tool's people.
        self.computer = computer
        #: version -> when the tool sent the action that makes it (loop time).
        self.sent_at: dict[int, float] = {}
        #: The highest version any socket of the game has applied.
        self.version = 0
        self.progress_at = now
        self.over = False
        self.abandoned = False
        #: Set when the game ends, when the run stops, and on every change while draining.
        self.wake = asyncio.Event()
        self.draining = False
        self.people: list[Person] = []

    def advanced(self, version: int, seat: int | None, now: float, stats: Stats) -> None:
        if version > self.version:
            if seat is not None and seat == self.computer:
                stats.computer_actions += 1
            self.version = version
            self.progress_at = now
            self.sent_at.pop(version - 4, None)
        if self.draining:
            self.wake.set()

    def end(self) -> None:
        self.over = True
        self.wake.set()

    def settled(self) -> bool:
        """Nothing more to wait for: no action of the tool's unanswered, the computer not
        to act, and every person's socket at the newest version."""
        for person in self.people:
            if person.pending is not None or person.version < self.version:
                return False
            if self.computer is not None and not self.over and person.to_act == self.computer:
                return False
        return True


class Socket(abc.ABC):
    """A connection that comes back: the server closing it (or refusing it for a
    while) is counted, and a new one says hello with the version seen so far."""

    def __init__(self, play: Play, game: GameRun, url: str, token: str | None) -> None:
        self.play = play
        self.game = game
        self.url = socket_url(url, game.trace.id)
        self.token = token
        self.ws: ClientConnection | None = None
        self.version = 0
        #: Events up to this version came as a catch-up after hello, not live.
        self.live_after = 0
        #: Between a ``sync`` and the ``pong`` after it, an event of a known version is
        #: the answer to the sync, not a duplicate.
        self.syncing = False
        self.closing = False
        #: Seconds a refusal with 429 asked to wait before the next attempt.
        self.retry_after = 0.0

    async def run(self) -> None:
        backoff = MIN_BACKOFF
        while not self.closing:
            began = clock()
            code = await self.connection()
            if self.closing:
                return
            if code is not None:
                self.play.stats.count(f"closed:{code}")
                if code == NOT_FOUND_CLOSE:
                    self.game.abandoned = True
                    self.game.end()
                    return
            self.play.stats.reconnects += 1
            lasted = clock() - began > LASTED
            backoff = MIN_BACKOFF if lasted else min(MAX_BACKOFF, backoff * 2)
            await asyncio.sleep(max(backoff, self.retry_after))
            self.retry_after = 0.0

    async def connection(self) -> int | None:
        """One connection, read until it ends: the code it was closed with, or None when
        it never opened (counted as ``ws:<why>``)."""
        stats = self.play.stats
        try:
            async with connect(
                self.url,
                compression="deflate" if self.play.deflate else None,
                proxy=None,  # straight to the server: looking for a proxy costs each time
                ping_interval=None,
                open_timeout=30,
                close_timeout=2,
                max_size=2**22,
            ) as ws:
                if self.closing:  # left while this connection was opening
                    return None
                self.ws = ws
                await ws.send(dumps({"type": "hello", "token": self.token, "seen": self.version}))
                async for text in ws:
                    if isinstance(text, str):
                        self.receive(text)
            return ws.close_code
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else 1006
        except InvalidStatus as refused:
            status = refused.response.status_code
            stats.count(f"ws:{status}")
            if status == 429:  # a limit: wait as long as it asks
                self.retry_after = retry_after(refused.response.headers.get("Retry-After"))
        except (OSError, TimeoutError, InvalidHandshake) as failed:
            stats.count(f"ws:{type(failed).__name__}")
        finally:
            self.ws = None
            self.disconnected()
        return None

    def close(self) -> None:
        """Leave the game: close the socket (its task then ends)."""
        self.closing = True
        if self.ws is not None:
            self.play.close(self.ws)

    def send(self, message: dict[str, Any]) -> None:
        if self.ws is not None:
            self.play.send(self.ws, dumps(message))

    def resync(self) -> None:
        """Ask for what was missed; the pong after it ends the answer."""
        if self.syncing or self.ws is None:
            return
        self.syncing = True
        self.send({"type": "sync", "seen": self.version})
        self.send({"type": "ping"})

    @abc.abstractmethod
    def receive(self, text: str) -> None:
        """Take one event from the server."""

    def disconnected(self) -> None:
        """The connection ended: what was under way on it is void."""
        self.syncing = False


class Watcher(Socket):
    """A spectator: reads every event, looks only at its type and version."""

    def receive(self, text: str) -> None:
        self.play.stats.watcher_events += 1
        head = HEAD.match(text)
        if head is None:
            return
        kind, version = head.group(1), head.group(2)
        if kind == "pong":
            self.syncing = False
        elif kind == "action" and version is not None:
            number = int(version)
            if number <= self.version:
                if not self.syncing:
                    self.game.trace.duplicate_events += 1
                return
            if number > self.version + 1 and self.version:
                self.play.stats.count("gap")
                self.resync()
            self.version = number
        elif kind == "state" and version is not None:
            self.version = int(version)
        elif kind == "welcome":
            self.live_after = int(json.loads(text)["version"])


class Person(Socket):
    """A player's seat: acts when the game says it is its turn, after a random pause."""

    def __init__(
        self, play: Play, game: GameRun, url: str, token: str, seat: int, colour: str
    ) -> None:
        super().__init__(play, game, url, token)
        self.seat = seat
        self.colour = colour
        #: The version at which this person's action awaits its event.
        self.pending: int | None = None
        #: The colour to act (None when the game is over), the legal actions, once known.
        self.to_act_colour: str | None = None
        self.legal: list[str] = []
        self.known = False
        self.timer: asyncio.TimerHandle | None = None
        #: This person's latest action event that came live: (version, loop time).
        self.mine: tuple[int, float] | None = None

    @property
    def to_act(self) -> int | None:
        """The seat to act, as far as this socket knows (None when over or unknown)."""
        colour = self.to_act_colour
        return None if colour is None else COLOURS.index(colour)

    def disconnected(self) -> None:
        super().disconnected()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def receive(self, text: str) -> None:
        head = HEAD.match(text)
        kind = head.group(1) if head is not None else None
        if kind in ("presence", "thinking"):
            return
        if kind == "pong":
            self.syncing = False
            self.consider()
            return
        if kind == "action":
            event = read_action(text)
            if event is not None:
                self.on_action(*event)
                return
        data = json.loads(text)
        if kind == "action":
            game = data["game"]
            over = game.get("result") is not None or game.get("turn") is None
            turn = None if over else game["turn"]
            legal = game.get("legal") or []
            self.on_action(data["version"], str(data["action"]), data.get("seat"), turn, legal)
        elif kind == "state":
            self.on_state(data)
        elif kind == "welcome":
            self.on_welcome(data)
        elif kind == "error":
            self.on_error(str(data.get("code")))

    def on_welcome(self, data: dict[str, Any]) -> None:
        self.live_after = int(data["version"])
        if data.get("seat") != self.seat:
            self.play.stats.count("not_seated")
        if self.live_after == self.version:  # nothing to catch up: ask for the game
            self.resync()

    def on_action(
        self, version: int, action: str, seat: int | None, turn: str | None, legal: list[str]
    ) -> None:
        game, stats = self.game, self.play.stats
        if version <= self.version:
            if not self.syncing:
                game.trace.duplicate_events += 1
            return
        now = clock()
        game.trace.acknowledge(version, action)
        if version > self.version + 1:
            stats.count("gap")
            self.resync()
        if version > self.live_after:
            sent = game.sent_at.get(version)
            if sent is not None:
                (stats.own if seat == self.seat else stats.opponent).append(now - sent)
            if seat == self.seat:
                self.mine = (version, now)
            elif seat == game.computer and self.mine is not None and self.mine[0] == version - 1:
                stats.computer.append(now - self.mine[1])
        if self.pending is not None and version > self.pending:
            self.pending = None
        self.apply(version, turn, legal)
        game.advanced(version, seat, now, stats)
        self.consider()

    def on_state(self, data: dict[str, Any]) -> None:
        game = data["game"]
        for number, action in enumerate(game.get("actions", ()), start=1):
            if number > self.version:
                self.game.trace.acknowledge(number, str(action))
        self.pending = None  # the state answers a sync sent after any act of ours
        version = int(data["version"])
        over = game.get("result") is not None or game.get("turn") is None
        self.apply(version, None if over else game["turn"], game.get("legal") or [])
        self.game.advanced(version, None, clock(), self.play.stats)
        self.consider()

    def on_error(self, code: str) -> None:
        self.play.stats.count(f"error:{code}")
        self.pending = None
        if code == "rate_limited":
            asyncio.get_running_loop().call_later(1.0, self.resync)
        elif code != "bad_message":
            self.resync()

    def apply(self, version: int, turn: str | None, legal: list[str]) -> None:
        """The game at ``version``: ``turn`` the colour to act, None once it is over."""
        self.version = version
        self.to_act_colour = turn
        self.legal = legal
        self.known = True
        if turn is None:
            self.game.end()

    def consider(self) -> None:
        """Act later if it is this seat's turn and nothing of ours is under way."""
        if (
            self.timer is not None
            or self.pending is not None
            or self.syncing
            or not self.known
            or self.play.stopping
            or self.to_act_colour != self.colour
        ):
            return
        low, high = self.play.pace
        delay = self.play.rng.uniform(low, high)
        self.timer = asyncio.get_running_loop().call_later(delay, self.fire, self.version)

    def fire(self, version: int) -> None:
        self.timer = None
        if (
            self.ws is None
            or version != self.version
            or self.to_act_colour != self.colour
            or not self.legal
            or not self.play.take_action()
        ):
            return
        action = self.play.rng.choice(self.legal)
        self.pending = version
        self.game.trace.sent[version + 1] = action
        self.game.sent_at[version + 1] = clock()
        self.send({"type": "act", "action": action, "seen": version})

"""The live games of the server: the games in memory, and the one path of every change.

Each change takes the game's lock, checks it with the rules, stores it (committed), and
only then announces it to the game's connections and to the other processes (:mod:`.bus`),
so no one hears of an action that a crash could lose. A change is stored only from the
revision it was made from (:class:`.store.Conflict`): when another process changed the
game first, this one reads the game again and the change is refused as stale. The
database runs in worker threads; the computer's moves are jobs (:mod:`.jobs`) queued
after every change, so neither stalls the event loop.

The commands are modules of their own, each through :meth:`Hub.commit` or
:meth:`Hub.store_change`: :mod:`.acting` (an action), :mod:`.draw`, :mod:`.takeback`,
:mod:`.rematch`, :mod:`.ending` (resign, abort, the flag) and :mod:`.claim`; who is at a
game is :mod:`.presence_exchange`, what goes to Redis :mod:`.publisher`.

A game stays in memory while someone watches it or something works on it, and leaves it
once idle (:meth:`Hub.evict_idle`); it is read back from the database when needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from shiftago.core import Action, ShiftagoError
from shiftago.interfaces.server.db.store import Conflict
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.creating import GameSpec, build
from shiftago.interfaces.server.games.joining import Joins
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.presence_exchange import PresenceExchange
from shiftago.interfaces.server.games.publisher import Publisher
from shiftago.interfaces.server.games.refusals import Refused as Refused  # callers catch it here
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.waiting import Waits, open_seats, running_seat, waiting
from shiftago.interfaces.server.jobs.bus import Bus, Event, RedisBus
from shiftago.interfaces.server.jobs.queue import Job, Jobs, LocalJobs
from shiftago.interfaces.server.jobs.timesource import Now
from shiftago.interfaces.server.settings import Settings
from shiftago.match.clock import Clock

log = logging.getLogger("shiftago.server")
T = TypeVar("T")


class Hub:
    def __init__(
        self,
        store: Store,
        *,
        grace_seconds: int = 120,
        bot_delay: float = 0,
        bus: Bus | None = None,
        jobs: Jobs | None = None,
        idle_seconds: float = 300.0,
        presence_interval: float = Settings.presence_interval,
        now: Now = time.time,
    ) -> None:
        self.store = store
        self.grace_seconds = grace_seconds
        #: How long clocks wait for the players (:mod:`.waiting`).
        self.waits = Waits()
        self.bot_delay = bot_delay
        self.bus = bus if bus is not None else Bus()
        self.jobs = jobs if jobs is not None else LocalJobs(4)
        self.publisher = Publisher(self.bus, self.jobs)
        self.idle_seconds = idle_seconds
        sqlite = store.engine.dialect.name == "sqlite"
        self._db_pool = ThreadPoolExecutor(1 if sqlite else 4, thread_name_prefix="shiftago-db")
        self.games: dict[str, LiveGame] = {}
        #: Games that a job or a request works on now: they stay in memory.
        self.busy: Counter[str] = Counter()
        self._loading = asyncio.Lock()
        self._changes: set[asyncio.Future[Any]] = set()
        #: Changes to games under way now (:meth:`guarded`: the players' actions, the
        #: computer's, flags): new connections wait meanwhile (``door/admission.py``).
        self.changing = 0
        self._calm = asyncio.Event()
        #: The time of the clocks (tests move it: :mod:`.timesource`).
        self.now = now
        #: Called after a change that ended a game is stored (the ratings).
        self.finish_hooks: list[Callable[[LiveGame], Awaitable[None]]] = []
        #: Events of the other processes that are not a game's, by ``kind`` (the lobby,
        #: chat): each goes to its hook.
        self.event_hooks: dict[str, Callable[[Event], Awaitable[None]]] = {}
        #: Actions this process has stored since it started (``/metrics``).
        self.actions_stored = 0
        self.presence = PresenceExchange(
            self.publisher, self.spawn, grace_seconds=grace_seconds, interval=presence_interval
        )
        #: Watchers' hellos, admitted in batches behind the players' actions.
        self.joins = Joins(self)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, functools.partial(fn, *args))

    async def guarded(self, change: Coroutine[Any, Any, T]) -> T:
        """Run a change to the end even if the caller is cancelled (a closed socket, a
        shut-down): a stored action is then always also played and announced."""
        task = self.spawn(change)
        self.changing += 1
        self._calm.clear()
        task.add_done_callback(self._changed)
        return await asyncio.shield(task)

    def _changed(self, _: asyncio.Future[Any]) -> None:
        self.changing -= 1
        if not self.changing:
            self._calm.set()

    async def calm(self, longest: float) -> None:
        """Return once no change is under way (:meth:`guarded`), or after ``longest``
        seconds: what can wait (watchers joining) lets the players' changes go first."""
        if self.changing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._calm.wait(), longest)

    async def drain(self) -> None:
        """Wait for the changes under way (before shutting down)."""
        while self._changes:
            await asyncio.gather(*list(self._changes), return_exceptions=True)
        await self.publisher.close()

    def close(self) -> None:
        self._db_pool.shutdown(wait=True)

    def spawn(self, change: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Run ``change`` as a task that :meth:`drain` waits for before shutting down."""
        task = asyncio.ensure_future(change)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return task

    # --- finding and making games ------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame | None:
        live = self.games.get(game_id)
        if live is not None:
            live.last_used = time.monotonic()
            return live
        if not 4 <= len(game_id) <= 24:
            return None
        async with self._loading:
            live = self.games.get(game_id)
            if live is None:
                stored = await self.db(self.store.load, game_id)
                if stored is None:
                    return None
                live = LiveGame.load(stored)
                live.now = self.now
                self.games[game_id] = live
                if isinstance(self.bus, RedisBus):  # who is at it on the other processes
                    await self.publish({"game": game_id, "revision": 0, "kind": "presence?"})
        return live

    def build(self, spec: GameSpec) -> tuple[LiveGame, list[str | None]]:
        """A new game of ``spec`` (not stored yet); a timed game's clock waits for its
        players (:mod:`.waiting`)."""
        live, tokens = build(spec)
        live.now = self.now
        if spec.opened:
            open_seats(live, self.now())
        if spec.clock is not None and not live.over:
            clock = Clock.start(spec.clock, spec.players, running_seat(live), self.now())
            live.stored.clock = waiting(live, clock, self.waits)
        return live, tokens

    async def create(self, spec: GameSpec) -> tuple[LiveGame, list[str | None]]:
        live, tokens = self.build(spec)
        await self.db(self.store.insert, live.stored)
        self.games[live.id] = live
        await self.after_change(live)
        return live, tokens

    @contextmanager
    def using(self, live: LiveGame) -> Iterator[LiveGame]:
        """Keep the game in memory while a job works on it (see :meth:`evict_idle`)."""
        self.busy[live.id] += 1
        try:
            yield live
        finally:
            self.busy[live.id] -= 1
            if self.busy[live.id] <= 0:
                del self.busy[live.id]
            live.last_used = time.monotonic()

    def evict_idle(self, now: float | None = None) -> int:
        """Let go of the games that nobody watches, nothing works on, no computer is to act
        in and nothing changed for ``idle_seconds``; the number let go. They are read
        back when needed."""
        now = time.monotonic() if now is None else now
        idle = [
            game_id
            for game_id, live in self.games.items()
            if not live.connections
            and game_id not in self.busy
            and not live.computer_to_act  # its move job may be lost: the sweep needs it
            and not live.lock.locked()
            and now - live.last_used >= self.idle_seconds
        ]
        for game_id in idle:
            del self.games[game_id]
        return len(idle)

    async def fresh(self, game_id: str, revision: int) -> LiveGame | None:
        """The game, read again from the database if this process holds an older revision
        than ``revision`` (an event on its way, or one this process never saw)."""
        live = await self.get(game_id)
        if live is not None and live.revision < revision:
            async with live.lock:
                if live.revision < revision:
                    await self.reload(live)
        return live

    async def current(self, game_id: str) -> LiveGame | None:
        """The game as stored now: with other processes, this one's copy may be an event
        behind what another process already announced, so a read checks the revision."""
        live = await self.get(game_id)
        if live is None or not self.bus.shared:
            return live
        stored = await self.db(self.store.revision_of, game_id)
        return await self.fresh(game_id, stored) if stored is not None else live

    async def after_change(self, live: LiveGame) -> None:
        """Queue the computer's move when a computer seat is to act, and say it thinks."""
        if not live.computer_to_act:
            return
        seat = live.game.turn
        live.thinking = seat
        live.broadcast({"type": "thinking", "seat": seat})
        await self.publish(
            {"game": live.id, "revision": live.revision, "kind": "thinking", "seat": seat}
        )
        # the computer's delay is for people to follow; under a clock the time is theirs
        await self.queue_move(live, 0.0 if live.stored.clock is not None else self.bot_delay)

    async def queue_move(self, live: LiveGame, delay: float = 0.0) -> None:
        """Queue the move job of the computer to act in ``live``, to start in ``delay``
        seconds (the same job queued twice is one job)."""
        now = time.time()
        owner = live.stored.owner or live.id
        await self.submit(
            Job("move", live.id, live.revision, owner, queued_at=now, not_before=now + delay)
        )

    async def finished(self, live: LiveGame) -> None:
        """A change that ended the game is stored: run the hooks (rating the game); a
        hook that fails is logged, the game stays ended. An aborted game has no result:
        no hook runs (it is never rated)."""
        if live.aborted:
            return
        for hook in self.finish_hooks:
            try:
                await hook(live)
            except Exception:
                log.exception("after the end of game %s", live.id)

    async def publish(self, event: Event) -> None:
        """Tell the other processes of a stored change (:meth:`.Publisher.publish`)."""
        await self.publisher.publish(event)

    async def submit(self, job: Job) -> None:
        """Queue a job (:meth:`.Publisher.submit`)."""
        await self.publisher.submit(job)

    # --- what other processes did ---------------------------------------------------------
    def holds(self, game_id: str) -> bool:
        """Whether the game is in memory here (the other processes' events of a game
        matter only then: one read later comes from the database as it is)."""
        return game_id in self.games

    async def on_event(self, event: Event) -> None:
        """Apply another process's change to the game, if this process holds it, and tell
        its sockets, in order: an action that follows on at once is played here; anything
        else (a gap, a take-back, an ending) reads the game again from the database."""
        kind = event.get("kind")
        hook = self.event_hooks.get(str(kind))
        if hook is not None:
            await hook(event)
            return
        live = self.games.get(str(event.get("game")))
        if live is None:
            return
        revision = int(event.get("revision", 0))
        if kind == "thinking":
            if revision == live.revision:
                live.thinking = int(event["seat"])
                live.broadcast({"type": "thinking", "seat": live.thinking})
            return
        if kind == "rematch":
            announce.rematch(live, str(event["next"]))
            return
        if kind in ("presence", "presence?"):
            await self.presence.on_event(live, event)
            return
        async with live.lock:
            if revision <= live.revision:
                return  # this process made or already read that change
            number = int(event.get("number", 0))
            follows_on = revision == live.revision + 1 and number == live.version + 1
            # a timed game's clock is read with the game (the event does not carry it)
            if kind == "action" and follows_on and live.stored.clock is None:
                try:
                    action = live.game.state.validate(Action.parse(str(event["action"])))
                except ShiftagoError:
                    await self.reload(live)
                    return
                seat = live.game.turn
                live.game.play(action)
                live.stored.updated = _stamp(event.get("updated"), live.stored.updated)
                self._stored_action(live, str(action), revision)
                announce.action(live, number, action, seat)
            else:
                await self.reload(live)

    async def reload(self, live: LiveGame) -> None:
        """Read the game again from the database (under its lock) and tell its sockets
        what changed: the actions that follow on, a take-back, or the whole state."""
        stored = await self.db(self.store.load, live.id)
        if stored is None:  # pragma: no cover - games are never deleted
            return
        before = list(live.stored.actions)
        terminated = live.terminated
        live.refresh(stored)
        live.thinking = None
        announce.reloaded(live, before, terminated)

    # --- playing -----------------------------------------------------------------------
    async def reload_if_behind(self, live: LiveGame, seen: int) -> None:
        """Read the game again (its lock held) when a socket has seen more actions than
        this process holds: another process's event did not reach this one."""
        if seen > live.version:
            await self.reload(live)

    async def commit(self, live: LiveGame, action: Action) -> None:
        """Play, store (committed) and then announce a validated action.

        The caller holds the game's lock, and everything that shows the game to anyone
        takes that lock too, so the action is seen only once it is stored; if storing
        fails, it is taken back and the error goes up.
        """
        number = live.version + 1
        seat = live.game.turn
        revision = live.revision
        live.game.play(action)
        status, finished = live.status(), live.over
        clock = live.stored.clock
        if clock is not None:
            clock = waiting(live, clock.after(seat, running_seat(live), self.now()), self.waits)
        try:
            live.stored.updated = await self.db(
                self.store.append_action,
                live.id,
                revision,
                number,
                str(action),
                status,
                finished,
                clock,
            )
        except Conflict:
            live.game.undo()
            await self.reload(live)
            raise Refused("stale", "the game has moved on: another action came first") from None
        except BaseException:
            live.game.undo()
            raise
        live.stored.clock = clock
        if clock is not None:  # stored with the action: the pause is told until then
            live.stored.clock_paused = None
        self.actions_stored += 1
        self._stored_action(live, str(action), revision + 1)
        announce.action(live, number, action, seat)
        await self.publish(
            {
                "game": live.id,
                "revision": revision + 1,
                "kind": "action",
                "number": number,
                "action": str(action),
                "updated": live.stored.updated.isoformat(),
            }
        )
        if finished:
            await self.finished(live)

    @staticmethod
    def _stored_action(live: LiveGame, notation: str, revision: int) -> None:
        """The game in memory follows the stored action (played already)."""
        live.stored.actions.append(notation)
        live.stored.status, live.stored.finished = live.status(), live.over
        live.stored.revision = revision
        live.thinking = None
        live.last_used = time.monotonic()

    async def store_change(self, live: LiveGame, fn: Any, *args: Any) -> Any:
        """Store a change other than an action (``fn(game_id, revision, *args)``) and tell
        the other processes; a conflict reads the game again and refuses it as stale."""
        try:
            result = await self.db(fn, live.id, live.revision, *args)
        except Conflict:
            await self.reload(live)
            raise Refused("stale", "the game has moved on: try again") from None
        live.stored.revision += 1
        live.thinking = None
        live.last_used = time.monotonic()
        await self.publish({"game": live.id, "revision": live.revision, "kind": "change"})
        return result


def _stamp(text: Any, otherwise: dt.datetime) -> dt.datetime:
    """The time an event says a change was stored (``otherwise`` when it says none)."""
    if isinstance(text, str):
        with contextlib.suppress(ValueError):
            return dt.datetime.fromisoformat(text)
    return otherwise

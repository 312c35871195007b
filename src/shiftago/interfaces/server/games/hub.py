"""The live games of the server: every change to a game goes through here.

Each change takes the game's lock, checks it with the rules, stores it (committed), and
only then announces it to the game's connections and to the other processes (:mod:`.bus`),
so no one hears of an action that a crash could lose. A change is stored only from the
revision it was made from (:class:`.store.Conflict`): when another process changed the
game first, this one reads the game again and the change is refused as stale. The
database runs in worker threads; the computer's moves are jobs (:mod:`.jobs`) queued
after every change, so neither stalls the event loop.

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
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from shiftago.core import COLOURS, Action, ShiftagoError
from shiftago.engine.levels import default_level
from shiftago.interfaces.server.db.store import Conflict
from shiftago.interfaces.server.games.creating import GameSpec, build, rematch_spec
from shiftago.interfaces.server.games.live import (
    ABORTED,
    Connection,
    LiveGame,
    previous_turn,
    result_token,
)
from shiftago.interfaces.server.games.presence import PresenceSummary
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.stored import StoredSeat
from shiftago.interfaces.server.games.views import game_view
from shiftago.interfaces.server.jobs.bus import Bus, Event, RedisBus
from shiftago.interfaces.server.jobs.queue import Job, Jobs, LocalJobs
from shiftago.interfaces.server.jobs.timesource import Now
from shiftago.interfaces.server.settings import Settings
from shiftago.match.clock import Clock

log = logging.getLogger("shiftago.server")
T = TypeVar("T")

#: A client that missed more actions than this gets one ``state`` instead of each action.
MAX_REPLAYED = 20
#: Events that could not be published (Redis away) kept to publish again, oldest
#: dropped beyond it: each says only "game G is at revision R", so a process that misses
#: one finds a gap at the next and reads the game again (docs/deploy.md).
UNPUBLISHED_KEPT = 10_000
#: How often the events kept are offered to Redis again (seconds).
REPUBLISH_SECONDS = 1.0
#: How long a change waits for Redis to take its event or job (seconds) before it goes
#: on without it: a Redis that hangs must not hold up the requests and actions that
#: store changes (the event is kept and offered again, a lost job is queued again by
#: the computer sweep; docs/deploy.md, "When Redis is away").
REDIS_ANSWER_SECONDS = 1.0


def action_event(live: LiveGame, number: int) -> dict[str, Any]:
    """The ``action`` event of the game's action ``number`` (1-based), as it was sent."""
    return {
        "type": "action",
        "version": number,
        "action": str(live.game.history[number - 1]),
        "seat": live.game.states[number - 1].turn,
        "game": game_view(live, number),
    }


class Refused(Exception):
    """A message that changes nothing: its ``code`` and words for the ``error`` event."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
        self.bot_delay = bot_delay
        self.bus = bus if bus is not None else Bus()
        self.jobs = jobs if jobs is not None else LocalJobs(4)
        self.idle_seconds = idle_seconds
        self.presence_interval = presence_interval
        sqlite = store.engine.dialect.name == "sqlite"
        self._db_pool = ThreadPoolExecutor(1 if sqlite else 4, thread_name_prefix="shiftago-db")
        self.games: dict[str, LiveGame] = {}
        #: Games that a job or a request works on now: they stay in memory.
        self.busy: Counter[str] = Counter()
        self._loading = asyncio.Lock()
        self._changes: set[asyncio.Future[Any]] = set()
        #: The time of the clocks (tests move it: :mod:`.timesource`).
        self.now = now
        #: Called after a change that ended a game is stored (the ratings).
        self.finish_hooks: list[Callable[[LiveGame], Awaitable[None]]] = []
        #: Events of the other processes that are not a game's, by ``kind`` (the lobby,
        #: chat): each goes to its hook.
        self.event_hooks: dict[str, Callable[[Event], Awaitable[None]]] = {}
        #: Actions this process has stored since it started (``/metrics``).
        self.actions_stored = 0
        #: Events that Redis did not take, in order, and the task that offers them again.
        self._unpublished: deque[Event] = deque()
        self._republisher: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, functools.partial(fn, *args))

    async def guarded(self, change: Coroutine[Any, Any, T]) -> T:
        """Run a change to the end even if the caller is cancelled (a closed socket, a
        shut-down): a stored action is then always also played and announced."""
        return await asyncio.shield(self._spawn(change))

    async def drain(self) -> None:
        """Wait for the changes under way (before shutting down)."""
        while self._changes:
            await asyncio.gather(*list(self._changes), return_exceptions=True)
        if self._republisher is not None:
            self._republisher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._republisher

    def close(self) -> None:
        self._db_pool.shutdown(wait=True)

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
        """A new game of ``spec`` (not stored yet); a timed game's clock starts now."""
        live, tokens = build(spec)
        live.now = self.now
        if spec.clock is not None and not live.over:
            live.stored.clock = Clock.start(spec.clock, spec.players, live.to_act, self.now())
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
        """Tell the other processes of a stored change. The change stands if Redis cannot
        be reached: the event is kept and published again, in order, once Redis takes
        events again (a process that held the game would otherwise keep its old copy
        until another event of the game came, and none may come)."""
        if self._unpublished:  # behind the events still waiting: the order stays
            self._keep_unpublished(event)
            return
        try:
            await asyncio.wait_for(self.bus.publish(event), REDIS_ANSWER_SECONDS)
        except Exception as error:
            why = str(error) or "no answer in time"
            what = f"of game {event['game']}" if event.get("game") else "of the lobby"
            log.error("the event %s could not be published: %s", what, why)
            self._keep_unpublished(event)

    def _keep_unpublished(self, event: Event) -> None:
        self._unpublished.append(event)
        if len(self._unpublished) > UNPUBLISHED_KEPT:
            self._unpublished.popleft()
        if self._republisher is None or self._republisher.done():
            self._republisher = asyncio.create_task(self._republish())

    async def _republish(self) -> None:
        """Offer the kept events to Redis every :data:`REPUBLISH_SECONDS` until it takes
        them all."""
        while self._unpublished:
            await asyncio.sleep(REPUBLISH_SECONDS)
            events = list(self._unpublished)
            try:
                await self.bus.publish_many(events)
            except Exception as error:
                log.warning("%d events still wait for Redis: %s", len(events), error)
                continue
            for _ in range(min(len(events), len(self._unpublished))):
                self._unpublished.popleft()
            log.info("%d events published once Redis was back", len(events))

    async def submit(self, job: Job) -> None:
        """Queue a job; when Redis cannot be reached, the job is queued again by the next
        worker that starts (it queues every unfinished game's computer move)."""
        try:
            await asyncio.wait_for(self.jobs.submit(job), REDIS_ANSWER_SECONDS)
        except Exception as error:
            why = str(error) or "no answer in time"
            log.error("the %s job of game %s could not be queued: %s", job.kind, job.game_id, why)

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
            self._announce_rematch(live, str(event["next"]))
            return
        if kind == "presence":
            self._take_presence(live, event)
            return
        if kind == "presence?":  # a process that just loaded the game asks who is here
            if live.connections:
                await self._send_presence(live)
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
                self._announce_action(live, number, action, seat)
            else:
                await self.reload(live)

    def _take_presence(self, live: LiveGame, event: Event) -> None:
        try:
            summary = PresenceSummary.from_json(event.get("summary"))
        except ValueError:
            log.error("a presence event that cannot be read: %r", event)
            return
        if live.take_remote_presence(str(event.get("process")), summary):
            self.presence(live)

    async def reload(self, live: LiveGame) -> None:
        """Read the game again from the database (under its lock) and tell its sockets
        what changed: the actions that follow on, a take-back, or the whole state."""
        stored = await self.db(self.store.load, live.id)
        if stored is None:  # pragma: no cover - games are never deleted
            return
        before = list(live.stored.actions)
        terminated = live.terminated
        live.refresh(stored)
        after = stored.actions
        live.thinking = None
        follows_on = after[: len(before)] == before and live.terminated == terminated
        if follows_on and 0 < len(after) - len(before) <= MAX_REPLAYED:
            for number in range(len(before) + 1, len(after) + 1):
                live.broadcast(action_event(live, number))
            return
        if before[: len(after)] == after and len(after) < len(before):
            live.broadcast({"type": "takeback", "version": len(after), "game": game_view(live)})
            return
        self.announce_state(live)

    # --- the events --------------------------------------------------------------------
    def announce_state(self, live: LiveGame) -> None:
        live.broadcast({"type": "state", "version": live.version, "game": game_view(live)})

    def catch_up(self, live: LiveGame, connection: Connection, seen: int) -> None:
        """Send a connection what it missed since ``seen`` actions (see the protocol)."""
        version = live.version
        if seen == version:
            return
        if seen > version or version - seen > MAX_REPLAYED:
            connection.send({"type": "state", "version": version, "game": game_view(live)})
            return
        for number in range(seen + 1, version + 1):
            connection.send(action_event(live, number))

    def presence(self, live: LiveGame) -> None:
        """People came or went (here, or on another process: ``live.remote_presence``):
        the game's sockets hear of it once within the presence interval, however many
        came and went in it (docs/web-protocol.md, "Limits and presence")."""
        live.presence_changed()
        live.presence_out.request(
            self.presence_interval, lambda: live.announce_presence(self.grace_seconds)
        )

    async def join(self, live: LiveGame, connection: Connection) -> None:
        """The newcomer hears the presence at once; the others within the interval."""
        live.connections.add(connection)
        self.presence(live)
        self.share_presence(live)
        live.send_presence(connection, self.grace_seconds)

    async def leave(self, live: LiveGame, connection: Connection) -> None:
        live.connections.discard(connection)
        self.presence(live)
        self.share_presence(live)

    def share_presence(self, live: LiveGame) -> None:
        """Tell the other processes this one's part of the game's presence, at most once
        per presence interval (nothing to do for one process alone)."""
        if isinstance(self.bus, RedisBus):
            live.presence_shared.request(self.presence_interval, lambda: self._share_now(live))

    def _share_now(self, live: LiveGame) -> None:
        self._spawn(self._send_presence(live))

    async def _send_presence(self, live: LiveGame) -> None:
        await self.publish(self._presence_event(live))

    def _presence_event(self, live: LiveGame) -> dict[str, Any]:
        return {
            "game": live.id,
            "revision": live.revision,
            "kind": "presence",
            "process": self.bus.process,
            "summary": live.own_presence().to_json(),
        }

    def _spawn(self, change: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Run ``change`` as a task that :meth:`drain` waits for before shutting down."""
        task = asyncio.ensure_future(change)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return task

    async def share_all_presence(self) -> None:
        """Say again this process's part of every game it has sockets of (so that the
        others keep believing it; :data:`.presence.SUMMARY_SECONDS`), in batches: one
        round trip to Redis per batch instead of one per game."""
        events = [
            self._presence_event(live) for live in list(self.games.values()) if live.connections
        ]
        try:
            await self.bus.publish_many(events)
        except Exception as error:
            log.error("the presence of %d games could not be published: %s", len(events), error)

    # --- playing -----------------------------------------------------------------------
    def check_can_act(self, live: LiveGame, seat: int | None, seen: int) -> None:
        seat = person(live, seat)
        if live.over:
            raise Refused("over", "the game is over")
        if seen != live.version:
            raise Refused(
                "stale",
                f"the game has moved on: {live.version} actions played, you have seen {seen}",
            )
        if live.to_act != seat:
            raise Refused("not_your_turn", f"it is {COLOURS[live.game.turn]}'s turn")

    async def reload_if_behind(self, live: LiveGame, seen: int) -> None:
        """Read the game again (its lock held) when a socket has seen more actions than
        this process holds: another process's event did not reach this one."""
        if seen > live.version:
            await self.reload(live)

    async def act(self, live: LiveGame, seat: int | None, notation: str, seen: int) -> None:
        async with live.lock:
            await self.reload_if_behind(live, seen)
            await self._flag_if_out_of_time(live)
            self.check_can_act(live, seat, seen)
            try:
                action = live.game.state.validate(Action.parse(notation))
            except ShiftagoError as error:
                raise Refused("illegal", str(error)) from None
            if live.stored.draw_offer not in (None, seat):  # the offer lapses: stored first
                await self._set_draw_offer(live, None)
            await self.commit(live, action)
            await self.after_change(live)

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
            clock = clock.after(seat, live.to_act, self.now())
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
        self.actions_stored += 1
        self._stored_action(live, str(action), revision + 1)
        self._announce_action(live, number, action, seat)
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

    @staticmethod
    def _announce_action(live: LiveGame, number: int, action: Action, seat: int) -> None:
        live.broadcast(
            {
                "type": "action",
                "version": number,
                "action": str(action),
                "seat": seat,
                "game": game_view(live),
            }
        )

    async def _store_change(self, live: LiveGame, fn: Any, *args: Any) -> Any:
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

    async def flag(self, live: LiveGame) -> bool:
        """End the game if the running clock has run out (the flag sweep); whether it did."""
        async with live.lock:
            try:
                await self._flag_if_out_of_time(live)
            except Refused as refused:
                return refused.code == "time"
            return False

    async def _flag_if_out_of_time(self, live: LiveGame) -> None:
        """Under the game's lock: when the seat to act has no time left, the game ends
        against it (its flag falls: ``result.reason`` "time") and the change that was
        asked for is refused."""
        clock = live.stored.clock
        if clock is None or live.over:
            return
        seat = clock.flagged(self.now())
        if seat is None:
            return
        try:
            await self._terminate(live, seat, "time")
        except Refused:
            # another process stored the flag first (its sweep): the game, read again,
            # says so, and the change asked for is refused on time all the same
            if live.stored.termination != "time" or live.stored.ended_by is None:
                raise
            seat = live.stored.ended_by
        raise Refused("time", f"{COLOURS[seat]}'s time has run out")

    async def resign(self, live: LiveGame, seat: int | None) -> None:
        async with live.lock:
            seat = person(live, seat)
            if live.over:
                raise Refused("over", "the game is over")
            await self._terminate(live, seat, "resignation")

    # --- draw offers and aborting (docs/web-protocol.md, "Draw offers and aborting") ---
    async def offer_draw(self, live: LiveGame, seat: int | None) -> None:
        async with live.lock:
            seat = self._seated(live, seat)
            refusal = live.draw_offer_refusal(seat)
            if refusal is not None:
                raise Refused("not_allowed", refusal)
            await self._set_draw_offer(live, seat)
            self.announce_state(live)

    async def answer_draw(self, live: LiveGame, seat: int | None, accept: bool) -> None:
        """Accept (the game ends, a draw shared by both) or decline the other's offer."""
        async with live.lock:
            seat = self._seated(live, seat)
            offer = live.stored.draw_offer
            if offer is None or offer == seat:
                raise Refused("not_allowed", "there is no draw offer to answer")
            if accept:
                players = range(live.game.rules.players)
                await self._terminate(live, seat, "agreement", result_token(tuple(players)))
                return
            await self._set_draw_offer(live, None, declined=(offer, live.version))
            self.announce_state(live)

    async def abort(self, live: LiveGame, seat: int | None) -> None:
        """End the game without a result, before ``seat``'s first action."""
        async with live.lock:
            seat = self._seated(live, seat)
            refusal = live.abort_refusal(seat)
            if refusal is not None:
                raise Refused("not_allowed", refusal)
            await self._terminate(live, seat, ABORTED, "")

    @staticmethod
    def _seated(live: LiveGame, seat: int | None) -> int:
        seat = person(live, seat)
        if live.over:
            raise Refused("over", "the game is over")
        return seat

    async def _set_draw_offer(
        self, live: LiveGame, seat: int | None, declined: tuple[int, int] | None = None
    ) -> None:
        """Store who offers a draw now, and the declined offer that holds back a repeat
        (a change of its own, through the revision gate; stored, so every process
        refuses the repeat)."""
        live.stored.updated = await self._store_change(
            live, self.store.set_draw_offer, seat, declined
        )
        live.stored.draw_offer = seat
        live.stored.draw_declined = declined

    async def _terminate(
        self, live: LiveGame, seat: int, termination: str, result: str | None = None
    ) -> None:
        """End the game against ``seat``: the others win (share a draw when several);
        or with ``result`` when given (a draw agreed, ``""`` when aborted)."""
        players = live.game.rules.players
        if result is None:
            result = result_token(tuple(s for s in range(players) if s != seat))
        live.stored.result, live.stored.termination = result, termination
        live.stored.ended_by = seat
        status = live.status()
        clock = live.stored.clock
        if clock is not None:
            clock = clock.stopped(self.now())
        try:
            live.stored.updated = await self._store_change(
                live, self.store.terminate, result, termination, status, clock, seat
            )
        except Refused:
            raise  # read again from the database: nothing to put back
        except BaseException:
            live.stored.result = live.stored.termination = live.stored.ended_by = None
            raise
        live.stored.clock = clock
        live.stored.status, live.stored.finished = status, True
        self.announce_state(live)
        await self.finished(live)

    async def takeback(
        self, live: LiveGame, seat: int | None, tokens: tuple[str, ...] = ()
    ) -> None:
        """Take back as the game allows (RULES.md section 9).

        Against the computer: back to the start of ``seat``'s previous turn. In a game of
        people only: the last action, for a client whose ``tokens`` hold every seat.
        """
        async with live.lock:
            if seat is None and not tokens:
                raise Refused("not_seated", "spectators can only watch")
            if live.terminated:
                raise Refused("over", "the game is over")
            if live.stored.next_id is not None:
                raise Refused("over", "the next game is made: this game's result stands")
            if live.has_computer:
                keep = self._turn_to_take_back(live, seat)
            else:
                keep = self._action_to_take_back(live, tokens)
            await self._flag_if_out_of_time(live)
            undone = [live.game.undo() for _ in range(live.version - keep)]
            clock = live.stored.clock
            if clock is not None:  # time spent stays spent; the seat to act runs now
                now = self.now()
                clock = clock.resumed(clock.left(now), live.to_act, now)
            try:
                live.stored.updated = await self._store_change(
                    live, self.store.truncate, keep, live.status(), clock
                )
            except Refused:
                raise  # read again from the database: nothing to put back
            except BaseException:
                for action in reversed(undone):
                    live.game.play(action)
                raise
            live.stored.clock = clock
            del live.stored.actions[keep:]
            live.stored.status, live.stored.finished = live.status(), False
            live.broadcast({"type": "takeback", "version": keep, "game": game_view(live)})
            await self.after_change(live)

    @staticmethod
    def _turn_to_take_back(live: LiveGame, seat: int | None) -> int:
        """Against the computer: the actions kept, up to ``seat``'s previous turn."""
        seat = person(live, seat)
        keep = previous_turn(live.game.states, seat)
        if keep is None:
            raise Refused("not_allowed", "you have no action to take back")
        return keep

    @staticmethod
    def _action_to_take_back(live: LiveGame, tokens: tuple[str, ...]) -> int:
        """Between people: one action, only for a client that holds every seat."""
        held = {live.seat_of_token(token) for token in tokens}
        missing = [COLOURS[s] for s in range(len(live.stored.seats)) if s not in held]
        if missing:
            raise Refused(
                "not_allowed",
                "between people an action is taken back only on a device that holds every "
                f"seat: send the links' tokens of every seat (missing: {' '.join(missing)})",
            )
        if live.version == 0:
            raise Refused("not_allowed", "there is no action to take back")
        return live.version - 1

    async def claim(
        self, live: LiveGame, by: int | None, seat: int, to: str, level: int | None = None
    ) -> None:
        """Hand a seat whose person is away past the grace time to the computer (at
        ``level``, the default level when None), or end the game."""
        async with live.lock:
            by = person(live, by)
            if live.over:
                raise Refused("over", "the game is over")
            if not 0 <= seat < len(live.stored.seats) or seat == by:
                raise Refused("not_allowed", "claim another player's seat")
            if live.stored.seats[seat].kind != "human" or live.connected(seat):
                raise Refused("not_allowed", f"{COLOURS[seat]} is here")
            away = live.away_since[seat]
            now = dt.datetime.now(dt.UTC)
            if away is None or (now - away).total_seconds() < self.grace_seconds:
                raise Refused(
                    "not_allowed", f"{COLOURS[seat]} has not been away for {self.grace_seconds} s"
                )
            if to == "end":
                await self._terminate(live, seat, "abandoned")
                return
            old = live.stored.seats[seat]
            level = default_level() if level is None else level
            new = StoredSeat("computer", old.name, level, old.token_hash)
            await self._store_change(live, self.store.set_seat, seat, new)
            live.stored.seats[seat] = new
            live.away_since[seat] = None
            self.announce_state(live)
            self.presence(live)
            await self.after_change(live)

    async def rematch(self, live: LiveGame, seat: int | None) -> LiveGame | None:
        """Ask for the next game with the same seats: it is made, once however many ask,
        when every seat a person holds has asked (the computer's seats always agree);
        until then the asks are stored and shown. The next game, or None while seats
        have still to ask."""
        async with live.lock:
            seat = person(live, seat)
            if not live.over:
                raise Refused("not_allowed", "a rematch follows a finished game")
            if live.stored.next_id is None:
                asks = live.stored.rematch_asks | {seat}
                if live.people() - asks:
                    if asks != live.stored.rematch_asks:
                        live.stored.updated = await self._store_change(
                            live, self.store.set_rematch_asks, asks
                        )
                        live.stored.rematch_asks = asks
                        self.announce_state(live)
                    return None
                new, _ = self.build(rematch_spec(live))
                next_id = await self.db(self.store.link_next, live.id, new.stored)
                if next_id == new.id:
                    self.games[new.id] = new
                live.stored.next_id = next_id
                self.announce_state(live)  # its `next`, and no take-back from now on
            next_live = await self.get(live.stored.next_id)
            if next_live is None:  # pragma: no cover - stored just now
                raise Refused("not_allowed", "the rematch could not be made")
            self._announce_rematch(live, next_live.id)
            await self.publish(
                {
                    "game": live.id,
                    "revision": live.revision,
                    "kind": "rematch",
                    "next": next_live.id,
                }
            )
        await self.after_change(next_live)
        return next_live

    @staticmethod
    def _announce_rematch(live: LiveGame, next_id: str) -> None:
        """Tell each socket of the game where the rematch is (its own seat's link)."""
        for connection in list(live.connections):
            if connection.seat is not None and connection.token is not None:
                url = f"/play/{next_id}?seat={connection.token}"
            else:
                url = f"/watch/{next_id}"
            connection.send({"type": "rematch", "id": next_id, "url": url})


def person(live: LiveGame, seat: int | None) -> int:
    """``seat`` when a person holds it; a connection without a seat, or one whose seat
    was handed to the computer since (a claim), may only watch."""
    if seat is None:
        raise Refused("not_seated", "spectators can only watch")
    if live.stored.seats[seat].kind != "human":
        raise Refused("not_seated", f"the computer plays {COLOURS[seat]} now; you watch")
    return seat


def _stamp(text: Any, otherwise: dt.datetime) -> dt.datetime:
    """The time an event says a change was stored (``otherwise`` when it says none)."""
    if isinstance(text, str):
        with contextlib.suppress(ValueError):
            return dt.datetime.fromisoformat(text)
    return otherwise

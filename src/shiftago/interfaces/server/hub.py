"""The live games of the server: every change to a game goes through here.

Each change takes the game's lock, checks it with the rules, stores it (committed), and
only then announces it to the game's connections, so no one hears of an action that a
crash could lose. The database runs in worker threads; computers think in others (see
:mod:`.bots`), so neither stalls the event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from shiftago.core import COLOURS, Action, ShiftagoError
from shiftago.engine.levels import default_level
from shiftago.interfaces.server.creating import GameSpec, build, rematch_spec
from shiftago.interfaces.server.live import Connection, LiveGame, previous_turn, result_token
from shiftago.interfaces.server.store import Store, StoredSeat
from shiftago.interfaces.server.views import game_view

log = logging.getLogger("shiftago.server")
T = TypeVar("T")

#: A client that missed more actions than this gets one ``state`` instead of each action.
MAX_REPLAYED = 20


class Refused(Exception):
    """A message that changes nothing: its ``code`` and words for the ``error`` event."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Hub:
    def __init__(self, store: Store, *, grace_seconds: int = 120, bot_delay: float = 0) -> None:
        self.store = store
        self.grace_seconds = grace_seconds
        self.bot_delay = bot_delay
        sqlite = store.engine.dialect.name == "sqlite"
        self._db_pool = ThreadPoolExecutor(1 if sqlite else 4, thread_name_prefix="shiftago-db")
        self.games: dict[str, LiveGame] = {}
        self._loading = asyncio.Lock()
        self._changes: set[asyncio.Future[Any]] = set()
        # Set by the bots module: called after every change to let a computer act.
        self.on_change: Callable[[LiveGame], None] = lambda live: None

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, functools.partial(fn, *args))

    async def guarded(self, change: Coroutine[Any, Any, T]) -> T:
        """Run a change to the end even if the caller is cancelled (a closed socket, a
        shut-down): a stored action is then always also played and announced."""
        task = asyncio.ensure_future(change)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return await asyncio.shield(task)

    async def drain(self) -> None:
        """Wait for the changes under way (before shutting down)."""
        while self._changes:
            await asyncio.gather(*list(self._changes), return_exceptions=True)

    def close(self) -> None:
        self._db_pool.shutdown(wait=True)

    # --- finding and making games ------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame | None:
        live = self.games.get(game_id)
        if live is not None:
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
                self.games[game_id] = live
        return live

    async def create(self, spec: GameSpec) -> tuple[LiveGame, list[str | None]]:
        live, tokens = build(spec)
        await self.db(self.store.insert, live.stored)
        self.games[live.id] = live
        self.on_change(live)
        return live, tokens

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
        history = live.game.history
        for number in range(seen + 1, version + 1):
            connection.send(
                {
                    "type": "action",
                    "version": number,
                    "action": str(history[number - 1]),
                    "seat": live.game.states[number - 1].turn,
                    "game": game_view(live, number),
                }
            )

    def presence(self, live: LiveGame) -> None:
        live.broadcast(live.presence(self.grace_seconds))

    async def join(self, live: LiveGame, connection: Connection) -> None:
        live.connections.add(connection)
        if connection.seat is not None:
            live.away_since[connection.seat] = None
        self.presence(live)

    async def leave(self, live: LiveGame, connection: Connection) -> None:
        live.connections.discard(connection)
        seat = connection.seat
        if seat is not None and not live.connected(seat):
            live.away_since[seat] = dt.datetime.now(dt.UTC)
        self.presence(live)

    # --- playing -----------------------------------------------------------------------
    def check_can_act(self, live: LiveGame, seat: int | None, seen: int) -> None:
        if seat is None:
            raise Refused("not_seated", "spectators can only watch")
        if live.over:
            raise Refused("over", "the game is over")
        if seen != live.version:
            raise Refused(
                "stale",
                f"the game has moved on: {live.version} actions played, you have seen {seen}",
            )
        if live.to_act != seat:
            raise Refused("not_your_turn", f"it is {COLOURS[live.game.turn]}'s turn")

    async def act(self, live: LiveGame, seat: int | None, notation: str, seen: int) -> None:
        async with live.lock:
            self.check_can_act(live, seat, seen)
            try:
                action = live.game.state.validate(Action.parse(notation))
            except ShiftagoError as error:
                raise Refused("illegal", str(error)) from None
            await self.commit(live, action)
        self.on_change(live)

    async def commit(self, live: LiveGame, action: Action) -> None:
        """Play, store (committed) and then announce a validated action.

        The caller holds the game's lock, and everything that shows the game to anyone
        takes that lock too, so the action is seen only once it is stored; if storing
        fails, it is taken back and the error goes up.
        """
        number = live.version + 1
        seat = live.game.turn
        live.game.play(action)
        status, finished = live.status(), live.over
        try:
            live.stored.updated = await self.db(
                self.store.append_action, live.id, number, str(action), status, finished
            )
        except BaseException:
            live.game.undo()
            raise
        live.stored.actions.append(str(action))
        live.stored.status, live.stored.finished = status, finished
        live.generation += 1
        live.thinking = None
        live.broadcast(
            {
                "type": "action",
                "version": number,
                "action": str(action),
                "seat": seat,
                "game": game_view(live),
            }
        )

    async def resign(self, live: LiveGame, seat: int | None) -> None:
        async with live.lock:
            if seat is None:
                raise Refused("not_seated", "spectators can only watch")
            if live.over:
                raise Refused("over", "the game is over")
            await self._terminate(live, seat, "resignation")

    async def _terminate(self, live: LiveGame, seat: int, termination: str) -> None:
        """End the game against ``seat``: the others win (share a draw when several)."""
        players = live.game.rules.players
        result = result_token(tuple(s for s in range(players) if s != seat))
        live.stored.result, live.stored.termination = result, termination
        status = live.status()
        try:
            live.stored.updated = await self.db(
                self.store.terminate, live.id, result, termination, status
            )
        except BaseException:
            live.stored.result = live.stored.termination = None
            raise
        live.stored.status, live.stored.finished = status, True
        live.generation += 1
        live.thinking = None
        self.announce_state(live)

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
            if live.has_computer:
                keep = self._turn_to_take_back(live, seat)
            else:
                keep = self._action_to_take_back(live, tokens)
            undone = [live.game.undo() for _ in range(live.version - keep)]
            try:
                live.stored.updated = await self.db(
                    self.store.truncate, live.id, keep, live.status()
                )
            except BaseException:
                for action in reversed(undone):
                    live.game.play(action)
                raise
            del live.stored.actions[keep:]
            live.stored.status, live.stored.finished = live.status(), False
            live.generation += 1
            live.thinking = None
            live.broadcast({"type": "takeback", "version": keep, "game": game_view(live)})
        self.on_change(live)

    @staticmethod
    def _turn_to_take_back(live: LiveGame, seat: int | None) -> int:
        """Against the computer: the actions kept, up to ``seat``'s previous turn."""
        if seat is None:
            raise Refused("not_seated", "spectators can only watch")
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
            if by is None:
                raise Refused("not_seated", "spectators can only watch")
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
            await self.db(self.store.set_seat, live.id, seat, new)
            live.stored.seats[seat] = new
            live.away_since[seat] = None
            live.generation += 1
            self.announce_state(live)
            self.presence(live)
        self.on_change(live)

    async def rematch(self, live: LiveGame, seat: int | None) -> LiveGame:
        """The next game with the same seats, made once however many ask for it."""
        async with live.lock:
            if seat is None:
                raise Refused("not_seated", "spectators can only watch")
            if not live.over:
                raise Refused("not_allowed", "a rematch follows a finished game")
            if live.stored.next_id is None:
                new, _ = build(rematch_spec(live))
                next_id = await self.db(self.store.link_next, live.id, new.stored)
                if next_id == new.id:
                    self.games[new.id] = new
                live.stored.next_id = next_id
            next_live = await self.get(live.stored.next_id)
            if next_live is None:  # pragma: no cover - stored just now
                raise Refused("not_allowed", "the rematch could not be made")
            for connection in list(live.connections):
                if connection.seat is not None and connection.token is not None:
                    url = f"/play/{next_live.id}?seat={connection.token}"
                else:
                    url = f"/watch/{next_live.id}"
                connection.send({"type": "rematch", "id": next_live.id, "url": url})
        self.on_change(next_live)
        return next_live

"""Computer seats: the move jobs (:mod:`.jobs`), each thought out in a worker thread.

After every change the hub queues a move job when a computer seat is to act
(:meth:`.hub.Hub.after_change`). Whoever runs the job (this process alone, or a
``shiftago worker``) reads the game at the job's revision, asks the bot of the seat's
level in a thread of its pool, and commits the answer under the game's lock only if the
game is still at that revision: a take-back, a resignation or another process's change
meanwhile drops it. :meth:`ComputerPlayers.resume` queues the move of every unfinished
game whose computer is to act, so a computer that was thinking when its process stopped
(or was killed) thinks again.

Each seat searches with ``engine_threads`` threads of its own (:class:`.settings.Settings`,
1 unless configured), so a process with ``bot_threads`` seats thinking at once keeps at
most ``bot_threads * engine_threads`` search threads busy.

A ``shiftago worker`` runs at a lower priority than the serve processes (``nice``), so
that searching computers never slow the people's actions down. Inside one process the
threads keep the event loop's priority: they share its GIL, and a thread held back by
the system while it holds the GIL would hold the event loop back with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from shiftago.core import Action, State
from shiftago.engine.bot import NO_LIMITS, Limits, smaller
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.interfaces.server.games.hub import Hub, Refused
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.stored import StoredGame
from shiftago.interfaces.server.jobs.queue import Job
from shiftago.match.clock import action_budget

log = logging.getLogger("shiftago.server")

#: How much lower than the serve processes a worker runs (docs/deploy.md, "Sizing").
WORKER_NICENESS = 10


def seat_limits(movetime: float | None, threads: int = 1) -> Limits:
    """A computer seat's limits: ``threads`` search threads, and ``movetime`` seconds
    when the game is timed (None: the level's own budget alone)."""
    if movetime is None:
        return Limits(threads=threads)
    return Limits(movetime_ms=max(1, int(movetime * 1000)), threads=threads)


def choose(level: int, seed: int, state: State, limits: Limits = NO_LIMITS) -> Action:
    """The bot's action within ``limits`` (runs in a worker thread). A seat never
    searches more than its level's budget, also in a timed game where the top level
    would otherwise spend its share of the clock (tens of seconds at 15+10, holding a
    thread that other games' computers wait for)."""
    bot = bot_for_level(level, seed)
    if isinstance(bot, LevelBot) and limits.timed:
        limits = replace(limits, nodes=smaller(limits.nodes, bot.budget(state)))
    return bot.choose(state, limits)


def lower_priority() -> None:
    """Run this process at a lower priority (a worker); a no-op where the system cannot."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)


def game_seed(stored: StoredGame) -> int:
    """The seed of a game's computer play: the game's seed, or, for a game whose first
    seat was chosen (it has no lot, so no seed), a number drawn from its id."""
    if stored.seed is not None:
        return stored.seed
    return int.from_bytes(hashlib.sha256(stored.id.encode()).digest()[:4], "big")


class ComputerPlayers:
    """The computer seats of the games this process works on: ``threads`` seats think
    at once, each with ``engine_threads`` search threads of its own."""

    def __init__(self, hub: Hub, threads: int = 4, engine_threads: int = 1) -> None:
        if engine_threads < 1:
            raise ValueError(f"engine threads must be at least 1, not {engine_threads}")
        self.hub = hub
        self.engine_threads = engine_threads
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="shiftago-bot")

    async def move(self, job: Job) -> None:
        """Play the computer's move of ``job``, unless the game has moved on."""
        live = await self.hub.fresh(job.game_id, job.revision)
        if live is None:
            # a job comes only for a stored game: this process reads another database
            log.warning(
                "a move job of game %s, which this process's database does not have: is "
                "--db the database of the serve processes?",
                job.game_id,
            )
            return
        if live.revision != job.revision or not live.computer_to_act:
            return
        with self.hub.using(live):
            seat = live.game.turn
            # a game stored when the ladder had more levels plays on at the top one
            level = min(live.stored.seats[seat].level or default_level(), default_level())
            state = live.game.state
            seed = (game_seed(live.stored) * 1_000_003 + live.version) % 2**32
            limits = seat_limits(self._budget(live, seat), self.engine_threads)
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self.pool, choose, level, seed, state, limits)
            await self.hub.guarded(self._commit(job, action))

    def _budget(self, live: LiveGame, seat: int) -> float | None:
        """Seconds the computer may think in a timed game (None: untimed, or days per
        turn, where the level's own budget is far inside the time). A scoring never ends
        the turn, so the clock gains no increment after it and the budget counts none."""
        clock = live.stored.clock
        if clock is None or clock.control.correspondence:
            return None
        left = clock.left(self.hub.now())[seat]
        return action_budget(left, clock.control.increment_after(live.game.state.phase))

    async def _commit(self, job: Job, action: Action) -> None:
        live = await self.hub.get(job.game_id)
        if live is None:  # pragma: no cover - held in memory by ``using``
            return
        async with live.lock:
            if live.revision != job.revision or not live.computer_to_act:
                return  # the game changed while the computer thought
            try:
                await self.hub.commit(live, live.game.state.validate(action))
            except Refused:
                return  # another process changed it first: its change stands
            await self.hub.after_change(live)

    async def resume(self) -> None:
        """Queue the move of every unfinished game whose computer is to act (after a
        start or a restart)."""
        for game_id in await self.hub.db(self.hub.store.unfinished_with_computer):
            try:
                live = await self.hub.get(game_id)
            except Exception:
                log.exception("game %s could not be loaded", game_id)
                continue
            if live is not None:
                await self.hub.after_change(live)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

"""Computer seats: each thinks in a worker thread, so that no game waits for another.

After every change the hub calls :meth:`ComputerPlayers.wake`; when a computer is to act
and none is thinking for that game yet, a task asks the bot of the seat's level (in a
thread of its own pool), then commits the answer under the game's lock, unless the game
changed meanwhile (a take-back, a resignation), in which case it looks again. On
start-up :meth:`resume` wakes every unfinished game with a computer seat, so a computer
that was thinking when the server stopped (or was killed) thinks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from shiftago.core import Action, State
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.interfaces.server.hub import Hub
from shiftago.interfaces.server.live import LiveGame

log = logging.getLogger("shiftago.server")


def choose(level: int, seed: int, state: State) -> Action:
    """The bot's action (runs in a worker thread)."""
    return bot_for_level(level, seed).choose(state, Limits())


class ComputerPlayers:
    def __init__(self, hub: Hub, workers: int = 4) -> None:
        self.hub = hub
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="shiftago-bot")
        self.tasks: set[asyncio.Task[None]] = set()
        hub.on_change = self.wake

    def wake(self, live: LiveGame) -> None:
        """Start the game's computer if one is to act and it is not already thinking."""
        if not live.computer_to_act:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        task = asyncio.get_running_loop().create_task(self._play(live))
        live.bot_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        try:
            while live.computer_to_act:
                generation = live.generation
                seat = live.game.turn
                stored_seat = live.stored.seats[seat]
                # a game stored when the ladder had more levels plays on at the top one
                level = min(stored_seat.level or default_level(), default_level())
                state = live.game.state
                seed = ((live.stored.seed or 0) * 1_000_003 + live.version) % 2**32
                live.thinking = seat
                live.broadcast({"type": "thinking", "seat": seat})
                if self.hub.bot_delay:
                    await asyncio.sleep(self.hub.bot_delay)
                action = await loop.run_in_executor(self.pool, choose, level, seed, state)
                await self.hub.guarded(self._commit(live, generation, action))
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the server down
            log.exception("the computer failed in game %s", live.id)
        finally:
            live.thinking = None

    async def _commit(self, live: LiveGame, generation: int, action: Action) -> None:
        async with live.lock:
            if live.generation != generation or not live.computer_to_act:
                return  # the game changed while the computer thought: look again
            await self.hub.commit(live, live.game.state.validate(action))

    async def resume(self) -> None:
        """Wake the computers of every unfinished game (after a start or a restart)."""
        for game_id in await self.hub.db(self.hub.store.unfinished_with_computer):
            try:
                live = await self.hub.get(game_id)
            except Exception:
                log.exception("game %s could not be loaded", game_id)
                continue
            if live is not None:
                self.wake(live)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)

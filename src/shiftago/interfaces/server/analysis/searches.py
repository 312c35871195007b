"""Live analysis of any position: the searches behind the socket ``/ws/analysis``
(docs/web-protocol.md, "Live analysis of a position"; the socket is :mod:`.socket`).

For a position the computer thinks with the top level's bot for the game until the
level's budget for the game (:meth:`~shiftago.engine.levels.LevelBot.budget`) is spent or
the best value is proven (``final``):

one search per position under the whole budget, which reports each step it finishes
(:attr:`~shiftago.engine.bot.Limits.progress`, called in the search's thread: a depth of
the alpha-beta search with 2 players, a chunk of iterations of the MCTS, 1,024 and then
twice the last each time); the event loop sends the ``lines`` of each step, then the
search's answer as the final event.

A new ``analyse``, a ``stop`` or a closed socket cancels the stream, which sets the
search's stop event (:attr:`~shiftago.engine.bot.Limits.stop`): the search in the thread
answers at once, so the thread is free for the next one.

The searches run in :class:`LiveAnalysis`'s own pool of one thread (so the games'
computers keep their own threads), one at a time. Positions are read by the core,
values judged by the bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from shiftago.core import Rules, State
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import Bot, Limits, Progress, RankedAction
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.engine.mcts_bot import MctsBot
from shiftago.interfaces.server.analysis.reviews import number
from shiftago.interfaces.server.door.socket import Outbox


def set_up(text: str) -> State:
    """The state of a position string, the end of a game too. Raises the core's
    :class:`~shiftago.core.ShiftagoError` (a ``ValueError``) for anything it refuses."""
    return State.from_position(text, finished=True)


@dataclass(frozen=True)
class Step:
    """What a search has found so far: the ranked actions, the depth reached, the nodes
    spent."""

    ranked: Sequence[RankedAction]
    depth: int
    nodes: int


class LiveAnalysis:
    """The searches of every analysis socket, in one thread of their own; ``cap``
    lowers the level's budget (tests)."""

    def __init__(self, cap: int | None = None, level: int | None = None) -> None:
        bot = bot_for_level(level if level is not None else default_level(), 0)
        if not isinstance(bot, LevelBot):
            raise ValueError("live analysis needs a searching level")
        self.bot = bot  # used in the pool's one thread only
        self.cap = cap
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="shiftago-analysis")
        #: The searches running or waiting, by the address that asked for them.
        self.searching: Counter[str] = Counter()

    def began(self, address: str, search: asyncio.Task[None]) -> None:
        """Count ``search`` against ``address`` until it ends (an address that has none
        left leaves the count: a public server sees many)."""
        self.searching[address] += 1

        def ended(_: asyncio.Task[None]) -> None:
            self.searching[address] -= 1
            if self.searching[address] <= 0:
                del self.searching[address]

        search.add_done_callback(ended)

    def warm_up(self) -> None:
        """Compile (or load) the searches and the puzzles' prover in the pool's thread
        before the first socket or attempt."""
        from shiftago.engine import warm_up
        from shiftago.engine.puzzles import solving

        self.pool.submit(warm_up)
        self.pool.submit(solving.warm_up)

    def budget(self, state: State) -> int:
        budget = self.bot.budget(state) or 1
        return budget if self.cap is None else max(1, min(budget, self.cap))

    def search(self, state: State, limits: Limits) -> Step:
        """One search's answer (runs in the pool's thread)."""
        judge = self.bot.for_rules(state.rules)
        ranked = self.bot.analyse(state, limits)
        depth, nodes = 0, 0
        if isinstance(judge, MctsBot):
            nodes = 0 if judge.last is None else judge.last.iterations
            depth = len(ranked[0].pv) if ranked else 0
        elif isinstance(judge, AlphaBetaBot) and judge.last is not None:
            depth, nodes = judge.last.depth, judge.last.nodes
        return Step(ranked, depth, nodes)

    async def stream(self, state: State, lines: int, outbox: Outbox) -> None:
        """Send ``lines`` events for ``state`` until the budget is spent or proven; one
        final event without lines when the game is over there. Cancelling it stops the
        search in the thread."""
        events = _Events(state.position(), lines, self.bot.for_rules(state.rules), state.rules)
        if state.is_over:
            outbox.send(events.event(None, True))
            return
        stop = threading.Event()
        try:
            await self._think(state, stop, events, outbox)
        finally:
            stop.set()  # replaced, stopped or closed: the thread is freed at once

    async def _think(
        self, state: State, stop: threading.Event, events: _Events, outbox: Outbox
    ) -> None:
        """One search under the whole budget, its steps sent as they end."""
        loop = asyncio.get_running_loop()
        finished: asyncio.Queue[Progress | None] = asyncio.Queue()

        def report(progress: Progress) -> None:  # in the search's thread
            if stop.is_set() or progress.final:
                return  # a final report is the answer, sent as the final event
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody listens
                loop.call_soon_threadsafe(finished.put_nowait, progress)

        within = Limits(nodes=self.budget(state), lines=events.lines, stop=stop, progress=report)
        thinking = loop.run_in_executor(self.pool, self.search, state, within)
        # the depths reach the loop before the answer: both come in the order sent
        thinking.add_done_callback(lambda _: finished.put_nowait(None))
        while (progress := await finished.get()) is not None:
            # final once every line shown is proven: a proven best alone leaves the
            # others at a shallow depth's values (the search goes on for them)
            shown = progress.lines[: events.lines]
            proven = bool(shown) and all(events.judge.proven(r.value) != 0 for r in shown)
            outbox.send(events.event(Step(progress.lines, progress.depth, progress.nodes), proven))
            if proven:
                return
        outbox.send(events.event(await thinking, True))

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


@dataclass(frozen=True)
class _Events:
    """The ``lines`` events of one position: its first ``lines`` lines as ``judge``
    values them."""

    position: str
    lines: int
    judge: Bot
    rules: Rules

    def event(self, step: Step | None, final: bool) -> dict[str, Any]:
        shown = [] if step is None else step.ranked[: self.lines]
        return {
            "type": "lines",
            "position": self.position,
            "depth": 0 if step is None else step.depth,
            "nodes": 0 if step is None else step.nodes,
            "final": final,
            "unit": self.judge.value_unit,
            "lines": [
                {
                    "action": str(r.action),
                    "value": number(r.value),
                    "expected": round(self.judge.expectation(r.value, self.rules), 4),
                    "proven": self.judge.proven(r.value),
                    "pv": [str(a) for a in r.pv],
                }
                for r in shown
            ],
        }


__all__ = ["LiveAnalysis", "Step", "set_up"]

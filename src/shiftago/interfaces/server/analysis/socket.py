"""Live analysis of any position: the socket ``/ws/analysis`` (docs/web-protocol.md,
"Live analysis of a position").

The client sends ``analyse`` with a position; the server answers ``lines`` events as the
computer thinks, with the top level's bot for the game, until the level's budget for the
game (:meth:`~shiftago.engine.levels.LevelBot.budget`) is spent or the best value is
proven (``final``):

one search per position under the whole budget, which reports each step it finishes
(:attr:`~shiftago.engine.bot.Limits.progress`, called in the search's thread: a depth of
the alpha-beta search with 2 players, a chunk of iterations of the MCTS, 1,024 and then
twice the last each time); the event loop sends the lines of each step, then the
search's answer as the final event.

A new ``analyse``, a ``stop`` or a closed socket sets the search's stop event
(:attr:`~shiftago.engine.bot.Limits.stop`): the search in the thread answers at once, so
the thread is free for the next one.

The searches run in :class:`LiveAnalysis`'s own pool of one thread (so the games'
computers keep their own threads), one at a time, and each socket has at most one. This
module only translates: positions are read by the core, values judged by the bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.core import Rules, ShiftagoError, State
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import Bot, Limits, Progress, RankedAction
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.engine.mcts_bot import MctsBot
from shiftago.interfaces.server.analysis.reviews import number
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.limits import socket_slot
from shiftago.interfaces.server.door.protocol import BadMessage, RateLimit, parse_json_message
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.live import Connection
from shiftago.interfaces.server.games.socket import MAX_REFUSED, error, write_queue

#: The longest position string a client may send (a 4-player position is under 100).
MAX_POSITION_CHARS: Final = 400
#: Searches one address may have running or waiting at once in a process: they share
#: one thread, first come first served, so one client's many sockets would hold everyone
#: else's analysis back (docs/web-protocol.md, "The analysis board").
SEARCHES_PER_ADDRESS: Final = 2


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Analyse(_Message):
    type: Literal["analyse"]
    position: Annotated[str, Field(min_length=1, max_length=MAX_POSITION_CHARS)]
    lines: Annotated[int, Field(strict=True, ge=1, le=8)] = 3


class Stop(_Message):
    type: Literal["stop"]


class Ping(_Message):
    type: Literal["ping"]


AnalysisMessage = Analyse | Stop | Ping
_ADAPTER: TypeAdapter[AnalysisMessage] = TypeAdapter(
    Annotated[AnalysisMessage, Field(discriminator="type")]
)


def parse(text: str | bytes) -> AnalysisMessage:
    """A client's message, or :class:`BadMessage` in words."""
    return parse_json_message(text, _ADAPTER)


def set_up(text: str) -> State:
    """The state of a position string, the end of a game too. Raises the core's
    :class:`ShiftagoError` for anything it refuses."""
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
        """Compile (or load) the searches in the pool's thread before the first socket."""
        from shiftago.engine import warm_up

        self.pool.submit(warm_up)

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

    async def stream(self, state: State, lines: int, connection: Connection) -> None:
        """Send ``lines`` events for ``state`` until the budget is spent or proven; one
        final event without lines when the game is over there. Cancelling it stops the
        search in the thread."""
        events = _Events(state.position(), lines, self.bot.for_rules(state.rules), state.rules)
        if state.is_over:
            connection.send(events.event(None, True))
            return
        stop = threading.Event()
        try:
            await self._think(state, stop, events, connection)
        finally:
            stop.set()  # replaced, stopped or closed: the thread is freed at once

    async def _think(
        self, state: State, stop: threading.Event, events: _Events, connection: Connection
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
            connection.send(
                events.event(Step(progress.lines, progress.depth, progress.nodes), proven)
            )
            if proven:
                return
        connection.send(events.event(await thinking, True))

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


async def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is None or task.done():
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


async def analysis_socket(websocket: WebSocket) -> None:
    async with socket_slot(websocket) as granted:  # refused before the upgrade if not
        if granted:
            await _analysis_socket(websocket)


async def _analysis_socket(websocket: WebSocket) -> None:
    app_state = websocket.app.state
    service: LiveAnalysis = app_state.live_analysis
    await websocket.accept()
    connection = Connection()
    writer = asyncio.create_task(write_queue(websocket, connection))
    limit = RateLimit(app_state.rate, app_state.burst)
    search: asyncio.Task[None] | None = None
    address = client_address(websocket)
    try:
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not limit.allow():
                connection.send(error("rate_limited", "too many messages; slow down"))
                if limit.refused > MAX_REFUSED:
                    connection.close(1008)
                continue
            text = message.get("text")
            try:
                parsed = parse(text if text is not None else bytes(message.get("bytes") or b""))
                if isinstance(parsed, Ping):
                    connection.send({"type": "pong"})
                    continue
                if isinstance(parsed, Stop):
                    await _cancel(search)
                    continue
                try:
                    state = set_up(parsed.position)
                except ShiftagoError as bad:  # the search under way goes on
                    connection.send(error("bad_position", str(bad)))
                    continue
                try:
                    await limits.count(websocket, "live-analyses")
                except limits.Limited as limited:  # the search under way goes on
                    refusal = error(limited.code, limited.message)
                    connection.send({**refusal, "retry_after": limited.retry_after})
                    continue
                await _cancel(search)  # this socket's own search makes room for the new one
                if service.searching[address] >= SEARCHES_PER_ADDRESS:
                    words = f"at most {SEARCHES_PER_ADDRESS} analyses at once from your address"
                    connection.send(error("busy", words))
                    continue
                search = asyncio.create_task(service.stream(state, parsed.lines, connection))
                service.began(address, search)
            except BadMessage as bad:
                connection.send(error("bad_message", str(bad)))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await _cancel(search)
        connection.close()
        with contextlib.suppress(Exception):
            await writer

"""Live analysis of any position: the socket ``/ws/analysis`` (docs/web-protocol.md,
"Live analysis of a position").

The client sends ``analyse`` with a position; the server answers ``lines`` events as the
computer thinks: searches of growing size by the top level's bot for the game (alpha-beta:
depth 1, 2, 3, ...; MCTS: :data:`FIRST_ITERATIONS` iterations, then twice as many each
time), each sending the best lines, until the level's budget for the game
(:meth:`~shiftago.engine.levels.LevelBot.budget`) is spent or the best value is proven
(``final``). A new ``analyse`` replaces the search under way and ``stop`` ends it; the
search in the thread stops at its next step, as one step is never interrupted.

The searches run in :class:`LiveAnalysis`'s own pool of one thread, one step at a time
(so several sockets take turns, and the games' computers keep their own threads), and
each socket has at most one search. This module only translates: positions are read by
the core, values judged by the bots.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.core import ShiftagoError, State
from shiftago.engine.alphabeta import DEFAULT_DEPTH
from shiftago.engine.bot import Analysis, Limits
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.engine.mcts_bot import MctsBot
from shiftago.interfaces.server import limits
from shiftago.interfaces.server.analysis import number
from shiftago.interfaces.server.limits import socket_slot
from shiftago.interfaces.server.live import Connection
from shiftago.interfaces.server.protocol import BadMessage, RateLimit, parse_json_message
from shiftago.interfaces.server.ws import MAX_REFUSED, error, write_queue

#: The MCTS iterations of the first step; each step doubles them (docs/analysis.md).
FIRST_ITERATIONS: Final = 1_000
#: The longest position string a client may send (a 4-player position is under 100).
MAX_POSITION_CHARS: Final = 400


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


def set_up(text: str) -> tuple[State, bool]:
    """The state of a position string and whether the game is over there. The core sets
    up positions to play from only; a finished one (phase ``over``, as the core writes
    the end of a game) is checked as the same position to insert in, and answered as
    over. Raises the core's :class:`ShiftagoError` for anything else it refuses."""
    try:
        state = State.from_position(text)
        return state, state.is_over
    except ShiftagoError:
        fields = text.split()
        if len(fields) != 8 or fields[4] != "over":
            raise
    state = State.from_position(" ".join([*fields[:4], "insert", *fields[5:]]))
    return state, True


@dataclass(frozen=True)
class Step:
    """One search's answer: the ranked actions, the depth reached, the nodes spent."""

    ranked: Analysis
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

    def warm_up(self) -> None:
        """Compile (or load) the searches in the pool's thread before the first socket."""
        from shiftago.engine import warm_up

        self.pool.submit(warm_up)

    def budget(self, state: State) -> int:
        budget = self.bot.budget(state) or 1
        return budget if self.cap is None else max(1, min(budget, self.cap))

    def search(self, state: State, limits: Limits) -> Step:
        """One step (runs in the pool's thread)."""
        judge = self.bot.for_rules(state.rules)
        ranked = self.bot.analyse(state, limits)
        if isinstance(judge, MctsBot):
            result = judge.last
            nodes = 0 if result is None else result.iterations
            depth = len(ranked[0].pv) if ranked else 0
        else:
            found = self.bot.alphabeta.last
            nodes = 0 if found is None else found.nodes
            depth = 0 if found is None else found.depth
        return Step(ranked, depth, nodes)

    async def stream(
        self, state: State, lines: int, connection: Connection, *, over: bool = False
    ) -> None:
        """Send ``lines`` events for ``state`` until the budget is spent or proven; one
        final event without lines when the game is ``over`` there."""
        loop = asyncio.get_running_loop()
        position = state.position()
        if over and not state.is_over:  # set up to insert: written back as over
            fields = position.split()
            position = " ".join([*fields[:4], "over", *fields[5:]])
        judge = self.bot.for_rules(state.rules)
        rules = state.rules

        def event(step: Step | None, final: bool) -> dict[str, Any]:
            shown = [] if step is None else step.ranked[:lines]
            return {
                "type": "lines",
                "position": position,
                "depth": 0 if step is None else step.depth,
                "nodes": 0 if step is None else step.nodes,
                "final": final,
                "unit": judge.value_unit,
                "lines": [
                    {
                        "action": str(r.action),
                        "value": number(r.value),
                        "expected": round(judge.expectation(r.value, rules), 4),
                        "pv": [str(a) for a in r.pv],
                    }
                    for r in shown
                ],
            }

        if over or state.is_over:
            connection.send(event(None, True))
            return
        budget = self.budget(state)
        mcts = isinstance(judge, MctsBot)
        spent, depth, size = 0, 1, FIRST_ITERATIONS
        previous: Step | None = None
        while True:
            if mcts:
                limits = Limits(nodes=min(size, budget))
            else:
                limits = Limits(depth=depth, nodes=max(1, budget - spent))
            step = await loop.run_in_executor(self.pool, self.search, state, limits)
            spent += step.nodes
            if not mcts and step.depth < depth and previous is not None:
                # cut short by the nodes left: it answers a shallower depth than shown
                connection.send(event(previous, True))
                return
            proven = bool(step.ranked) and judge.proven(step.ranked[0].value) != 0
            if mcts:
                final = proven or size >= budget
            else:
                final = proven or spent >= budget or depth >= DEFAULT_DEPTH
            connection.send(event(step, final))
            previous = step
            if final:
                return
            depth, size = depth + 1, size * 2

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


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
                    state, over = set_up(parsed.position)
                except ShiftagoError as bad:  # the search under way goes on
                    connection.send(error("bad_position", str(bad)))
                    continue
                try:
                    await limits.count(websocket, "live-analyses")
                except limits.Limited as limited:  # the search under way goes on
                    refusal = error(limited.code, limited.message)
                    connection.send({**refusal, "retry_after": limited.retry_after})
                    continue
                await _cancel(search)
                search = asyncio.create_task(
                    service.stream(state, parsed.lines, connection, over=over)
                )
            except BadMessage as bad:
                connection.send(error("bad_message", str(bad)))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await _cancel(search)
        connection.close()
        with contextlib.suppress(Exception):
            await writer

"""The ``join-burst`` scenario: N watchers join one live game at once while its two
players play, and the players' actions are timed meanwhile (issue 55: an action's p99
under 100 ms while 800 watchers join).

Two players play an ``extreme`` game (the longest variant, so that it outlasts the
burst) at ``pace``; after ``warmup`` actions every watcher opens its socket and says
hello together. Each watcher comes from its own address (``X-Forwarded-For``, believed
from a trusted proxy such as this machine, docs/security.md), so the cap of sockets per
address is not what is measured. The report gives the actions' latency (``act`` to the
player's own ``action`` event) before, during and after the burst, and the watchers'
join times (socket opened to their first ``presence``, the end of a join).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, Final

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from shiftago.interfaces.loadtest.figures import percentiles
from shiftago.interfaces.loadtest.protocol import clock, dumps, socket_url
from shiftago.interfaces.shared.cancelling import cancel_and_wait
from shiftago.interfaces.shared.catalogues import N_, _, ngettext

#: The rows of the actions' latency, by the burst's phase.
PHASES: Final = {
    "before": N_("action, before the burst"),
    "during": N_("action, during the burst"),
    "after": N_("action, after the burst"),
}
#: The table's narrowest columns (its English layout): the labels, and the figures.
LABEL_WIDTH: Final = 24
FIGURE_WIDTH: Final = 8


class ScenarioError(Exception):
    """A scenario that cannot run: a wrong URL, a request the server refuses (its
    message in the terminal's language)."""


def failed(request: str, error: object) -> str:
    """A request (``POST <url>``) that got no answer, and why (the library's words)."""
    return _("%(request)s: %(error)s") % {"request": request, "error": error}


def refused(request: str, status: int, body: str) -> str:
    """A request the server answered with ``status`` where the tool needed another."""
    return _("%(request)s answered %(status)d: %(body)s") % {
        "request": request,
        "status": status,
        "body": body,
    }


@dataclass(frozen=True)
class BurstConfig:
    """What ``shiftago loadtest --scenario join-burst`` is told (docs/cli.md)."""

    url: str
    watchers: int = 800
    #: Seconds a player waits after the event that gives it the turn.
    pace: float = 0.1
    #: Actions played before the burst begins.
    warmup: int = 4
    #: The longest the run may take (seconds).
    timeout: float = 300.0
    seed: int = 0
    deflate: bool = True


@dataclass
class _Timing:
    """What the run measures."""

    #: (when it was sent, seconds to its event) of every action.
    actions: list[tuple[float, float]] = field(default_factory=list)
    joins: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    burst_began: float | None = None
    burst_ended: float | None = None
    over_during_burst: bool = False

    def refuse(self, why: str) -> None:
        self.refused[why] = self.refused.get(why, 0) + 1


def _connect(url: str, address: str | None, deflate: bool) -> Any:
    headers = {} if address is None else {"X-Forwarded-For": address}
    return connect(
        url,
        additional_headers=headers,
        compression="deflate" if deflate else None,
        proxy=None,
        ping_interval=None,
        open_timeout=60,
        close_timeout=2,
        max_size=2**23,
    )


def watcher_address(i: int) -> str:
    """Watcher ``i``'s own address (documentation and benchmarking ranges)."""
    return f"198.18.{i // 250}.{i % 250 + 1}"


class _Player:
    """One seat: acts at the pace whenever the game gives it the turn."""

    def __init__(self, run: _Burst, token: str, rng: random.Random) -> None:
        self.run = run
        self.token = token
        self.rng = rng
        self.colour: str | None = None
        self.version = 0
        self.sent: dict[int, float] = {}

    async def play(self) -> None:
        run = self.run
        async with _connect(run.ws_url, None, run.config.deflate) as ws:
            await ws.send(dumps({"type": "hello", "token": self.token, "seen": 0}))
            await ws.send(dumps({"type": "sync", "seen": 0}))  # the whole state, to begin
            async for text in ws:
                if not isinstance(text, str):
                    continue
                data = json.loads(text)
                kind = data.get("type")
                if kind == "welcome":
                    self.colour = data.get("colour")
                elif kind in ("state", "action"):
                    self.version = int(data["version"])
                    self.seen(ws, data)
                elif kind == "error":  # refused (the game moved on): the state again
                    run.timing.refuse(f"error:{data.get('code')}")
                    await ws.send(dumps({"type": "sync", "seen": self.version}))
                if run.done.is_set():
                    return

    def seen(self, ws: ClientConnection, data: dict[str, Any]) -> None:
        run, game = self.run, data["game"]
        version = int(data["version"])
        sent = self.sent.pop(version, None)
        if sent is not None:
            run.timing.actions.append((sent, clock() - sent))
            run.acted(version)
        if game.get("turn") is None or game.get("result"):
            run.over()
            return
        if game["turn"] == self.colour and game.get("legal"):
            action = self.rng.choice(game["legal"])
            self.run.background(self.act(ws, version, action))

    async def act(self, ws: ClientConnection, version: int, action: str) -> None:
        await asyncio.sleep(self.run.config.pace)
        self.sent[version + 1] = clock()
        with contextlib.suppress(ConnectionClosed):
            await ws.send(dumps({"type": "act", "action": action, "seen": version}))


class _Burst:
    def __init__(self, config: BurstConfig) -> None:
        self.config = config
        self.timing = _Timing()
        self.done = asyncio.Event()
        self.warm = asyncio.Event()
        self.ws_url = ""
        self.tasks: set[asyncio.Future[None]] = set()

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the scenario (kept until it ends)."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def acted(self, version: int) -> None:
        if version >= self.config.warmup:
            self.warm.set()

    def over(self) -> None:
        if self.timing.burst_began is not None and self.timing.burst_ended is None:
            self.timing.over_during_burst = True
        self.warm.set()
        self.done.set()

    async def run(self) -> dict[str, Any]:
        config = self.config
        game_id, tokens = await create_game(config.url, config.seed)
        self.ws_url = socket_url(config.url, game_id)
        rng = random.Random(config.seed)
        players = [_Player(self, token, random.Random(rng.random())) for token in tokens]
        # the watchers run in a process of their own: their sockets' work (handshakes,
        # inflating every event) must not delay the players' loop, which is measured
        spawn = multiprocessing.get_context("spawn")
        go, leave, results = spawn.Event(), spawn.Event(), spawn.SimpleQueue()
        crowd = spawn.Process(
            target=_watchers_process,
            args=(self.ws_url, config.watchers, config.deflate, go, leave, results),
            daemon=True,
        )
        crowd.start()
        playing = [asyncio.ensure_future(p.play()) for p in players]
        try:
            async with asyncio.timeout(config.timeout):
                await self.warm.wait()
                self.timing.burst_began = clock()
                go.set()
                joined = await asyncio.to_thread(results.get)
                self.timing.burst_ended = clock()
                self.timing.joins = joined["joins"]
                for why, count in joined["refused"].items():
                    self.timing.refused[why] = self.timing.refused.get(why, 0) + count
                # a little play after the burst, to compare
                await asyncio.wait(
                    [asyncio.ensure_future(self.done.wait())], timeout=max(1.0, 10 * config.pace)
                )
        except TimeoutError:
            self.timing.refuse("timeout")
        finally:
            self.done.set()
            go.set()
            leave.set()
            await cancel_and_wait(playing)
            await asyncio.to_thread(crowd.join, 30)
            if crowd.is_alive():
                crowd.kill()
        return self.report(game_id)

    def report(self, game_id: str) -> dict[str, Any]:
        timing = self.timing
        began = timing.burst_began if timing.burst_began is not None else float("inf")
        ended = timing.burst_ended if timing.burst_ended is not None else float("inf")
        phases: dict[str, list[float]] = {"before": [], "during": [], "after": []}
        for sent, seconds in timing.actions:
            phase = "before" if sent < began else "during" if sent <= ended else "after"
            phases[phase].append(seconds)
        burst = None if timing.burst_ended is None else round(ended - began, 3)
        return {
            "scenario": "join-burst",
            "url": self.config.url,
            "game": game_id,
            "watchers": self.config.watchers,
            "joined": len(timing.joins),
            "burst_seconds": burst,
            "action_ms": {name: percentiles(samples) for name, samples in phases.items()},
            "join_ms": percentiles(timing.joins),
            "refused": timing.refused,
            "over_during_burst": timing.over_during_burst,
        }


def _watchers_process(
    url: str, watchers: int, deflate: bool, go: Any, leave: Any, results: Any
) -> None:
    """The watchers' process: on ``go`` every watcher joins; their join times (and the
    refusals) go to ``results``; they leave on ``leave``."""
    asyncio.run(_watchers(url, watchers, deflate, go, leave, results))


async def _watchers(
    url: str, watchers: int, deflate: bool, go: Any, leave: Any, results: Any
) -> None:
    await asyncio.to_thread(go.wait)
    joins: list[float] = []
    refused: dict[str, int] = {}
    sockets: list[ClientConnection] = []
    tasks: set[asyncio.Future[None]] = set()

    async def watch(i: int) -> None:
        began = clock()
        try:
            ws = await _connect(url, watcher_address(i), deflate)
        except InvalidStatus as refusal:
            why = f"ws:{refusal.response.status_code}"
            refused[why] = refused.get(why, 0) + 1
            return
        except (OSError, TimeoutError, InvalidHandshake) as failed:
            why = f"ws:{type(failed).__name__}"
            refused[why] = refused.get(why, 0) + 1
            return
        sockets.append(ws)
        try:
            await ws.send(dumps({"type": "hello", "seen": 0}))
            async for text in ws:
                if isinstance(text, str) and text.startswith('{"type":"presence"'):
                    joins.append(clock() - began)
                    break
        except ConnectionClosed as closed:
            why = f"closed:{closed.rcvd.code if closed.rcvd else 1006}"
            refused[why] = refused.get(why, 0) + 1
            return
        task = asyncio.ensure_future(_drain(ws))  # read on until it leaves
        tasks.add(task)

    await asyncio.gather(*(watch(i) for i in range(watchers)))
    results.put({"joins": joins, "refused": refused})
    await asyncio.to_thread(leave.wait, 60)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    await asyncio.gather(*tasks, return_exceptions=True)


async def _drain(ws: ClientConnection) -> None:
    """Read a watcher's events until it closes (a socket nobody reads fills up)."""
    with contextlib.suppress(ConnectionClosed):
        async for _event in ws:
            pass


async def create_game(url: str, seed: int) -> tuple[str, list[str]]:
    """A new two-person ``extreme`` game: its id and both seats' tokens."""
    body = {
        "variant": "extreme",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "seed": seed,
    }
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30, trust_env=False) as client:
            answer = await client.post("/api/games", json=body)
    except httpx.HTTPError as error:
        raise ScenarioError(failed(f"POST {url}/api/games", error)) from None
    if answer.status_code != 201:
        raise ScenarioError(refused(f"POST {url}/api/games", answer.status_code, answer.text))
    seats = answer.json()["seats"]
    return answer.json()["id"], [s["join_url"].rpartition("?seat=")[2] for s in seats]


async def run_burst(config: BurstConfig) -> dict[str, Any]:
    """Run the scenario; its report (:func:`format_burst` writes it as a table)."""
    return await _Burst(config).run()


def format_burst(report: dict[str, Any]) -> str:
    """The report in words and a table, in the terminal's language."""
    watchers = report["watchers"]
    lines = [
        ngettext(
            "join-burst on %(url)s: %(joined)d of %(watchers)d watcher joined in %(seconds)s s",
            "join-burst on %(url)s: %(joined)d of %(watchers)d watchers joined in %(seconds)s s",
            watchers,
        )
        % {
            "url": report["url"],
            "joined": report["joined"],
            "watchers": watchers,
            "seconds": report["burst_seconds"],
        },
        "",
    ]
    rows = [(_(PHASES.get(name, name)), row) for name, row in report["action_ms"].items()]
    rows.append((_("join (socket to presence)"), report["join_ms"]))
    lines += _table(rows)
    if report["refused"]:
        lines.append(_("refused or failed: %(refused)s") % {"refused": report["refused"]})
    if report["over_during_burst"]:
        lines.append(_("the game ended before the burst was through: fewer actions measured"))
    return "\n".join(lines)


def _table(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The head and a row each: the label, then the count and the figures (``-`` when
    there are none).

    The widths are those of the English table, wider where a language's words need it;
    as in English, the head's columns stand two to the left of the figures', and the
    longest label may take one more column than the others (into the gap before them).
    """
    heads = [_("count"), "p50 ms", "p99 ms", _("max") + " ms"]
    widths = [max(FIGURE_WIDTH, len(head) + 2) for head in heads]
    width = max(LABEL_WIDTH, max(len(label) for label, _row in rows) - 1)
    count, *figures = heads
    named = " ".join(f"{head:>{w}}" for head, w in zip(figures, widths[1:], strict=True))
    return [f"{'':{width}} {count:>{widths[0] - 2}} {named}", *figure_rows(rows, width, widths)]


def figure_rows(rows: list[tuple[str, dict[str, Any]]], width: int, widths: list[int]) -> list[str]:
    """A line a row of a figures table: the label in ``width`` columns, then its count
    and its p50, p99 and maximum right-aligned in ``widths`` (``-`` when there are none)."""
    lines = []
    for label, row in rows:
        cells = [row["count"], row["p50"], row["p99"], row["max"]]
        figures = " ".join(
            f"{'-' if c is None else c:>{w}}" for c, w in zip(cells, widths, strict=True)
        )
        lines.append(f"{label:{width}} {figures}")
    return lines


__all__ = [
    "BurstConfig",
    "ScenarioError",
    "failed",
    "format_burst",
    "refused",
    "run_burst",
    "watcher_address",
]

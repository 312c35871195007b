"""A load run: N games kept in play against one or several serve processes, bounded in
time and in actions, then every game read back through the API and checked.

Game ``i`` is created on URL ``i % n``; its first person connects there and its second
to URL ``(i + 1) % n``, so with several processes every game is played across two of
them (``sockets="across"``, the most work for the processes), or there too
(``sockets="by-game"``: as behind a proxy that sends each game's sockets to one
process). When a game ends its slot starts a new one, until the run stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from dataclasses import dataclass
from typing import Any

import httpx

from shiftago.core import COLOURS
from shiftago.interfaces.loadtest.figures import Check, GameTrace, Stats, percentiles, reconcile
from shiftago.interfaces.loadtest.players import GameRun, Person, Play, Socket, Watcher
from shiftago.interfaces.loadtest.protocol import clock, retry_after
from shiftago.interfaces.shared.catalogues import _

#: How often a slot looks whether its game has stalled, and the loop's lag is sampled.
STALL_CHECK = 5.0
LAG_STEP = 0.1
#: How often memory is sampled for its peak (seconds).
MEMORY_STEP = 5.0
#: After a game's end, how long its sockets may take to see the last event.
SETTLE = 5.0
#: Requests under way at once per URL: the tool waits for its turn itself, as httpx's
#: pool spends time on every waiting request each time a connection frees.
HTTP_AT_ONCE = 8
#: What /healthz may tell of a process.
HEALTH_FIELDS = ("ok", "rss_mib", "games_in_memory", "connections")


class LoadError(Exception):
    """A run that cannot go on: a wrong URL, or a request the server will always refuse
    (its message in the terminal's language)."""


#: The ways a game's sockets are spread over the URLs (``LoadConfig.sockets``).
SOCKET_SPREADS = ("across", "by-game")


def socket_urls(urls: list[str], i: int, sockets: str) -> tuple[str, str]:
    """The URLs of game ``i``'s first and second person: its own process (``i % n``)
    for the first; for the second the next process (``across``) or the same
    (``by-game``)."""
    n = len(urls)
    here = urls[i % n]
    return here, here if sockets == "by-game" else urls[(i + 1) % n]


@dataclass(frozen=True)
class LoadConfig:
    """What ``shiftago loadtest`` is told (docs/cli.md)."""

    urls: tuple[str, ...]
    #: Games in play at the same time.
    games: int = 10
    #: Seconds the run lasts (the ramp included); ``actions``: people's actions in all.
    duration: float = 60.0
    actions: int | None = None
    #: Seconds a person waits after the event that gives it the turn (uniform).
    pace: tuple[float, float] = (1.0, 3.0)
    #: The share of games of one person against the computer, at this level.
    computer_share: float = 0.0
    computer_level: int = 3
    #: Spectator sockets per game.
    watchers: int = 0
    #: Seconds over which the games' starts are spread.
    ramp: float = 5.0
    seed: int = 0
    #: Local serve processes whose memory (VmRSS) is read from /proc.
    pids: tuple[int, ...] = ()
    #: Ask for permessage-deflate on the sockets, as browsers do.
    deflate: bool = True
    #: After the stop: how long to wait for the answers to actions under way.
    drain: float = 15.0
    #: A game in which nothing happens this long is left (and counted as stalled).
    stall: float = 60.0
    #: Where a game's sockets go with several URLs: ``across`` two processes, or all to
    #: the game's own (``by-game``), see :func:`socket_urls`.
    sockets: str = "across"

    def __post_init__(self) -> None:
        if self.sockets not in SOCKET_SPREADS:
            raise LoadError(
                _("sockets: %(value)s is not one of %(choices)s")
                % {"value": repr(self.sockets), "choices": ", ".join(SOCKET_SPREADS)}
            )

    def is_computer_game(self, slot: int) -> bool:
        """Whether slot ``slot`` plays against the computer: the share spread evenly."""
        share = self.computer_share
        return int((slot + 1) * share + 1e-9) > int(slot * share + 1e-9)


async def run_load(config: LoadConfig, *, handle_signals: bool = False) -> dict[str, Any]:
    """Play the load of ``config`` and answer the report (a JSON-ready dict).

    ``handle_signals``: the first Ctrl-C stops the run as its bound would (the report
    still comes); a second one interrupts.
    """
    return await Load(config).run(handle_signals)


class Load:
    def __init__(self, config: LoadConfig) -> None:
        if not config.urls:
            raise LoadError(_("give at least one server URL"))
        self.config = config
        self.urls = [url.rstrip("/") for url in config.urls]
        self.stats = Stats()
        self.rng = random.Random(config.seed)
        self.play = Play(config.pace, self.rng, self.stats, config.actions, config.deflate)
        self.play.on_stop.append(self._stopped)
        self.traces: list[GameTrace] = []
        self.active: set[GameRun] = set()
        self.http: dict[str, httpx.AsyncClient] = {}
        self.gates = {url: asyncio.Semaphore(HTTP_AT_ONCE) for url in self.urls}
        self.memory: dict[str, dict[str, Any]] = {url: {} for url in self.urls}
        self.rss: dict[int, dict[str, float | None]] = {pid: {} for pid in config.pids}
        self.watcher_turn = 0
        self.failure: BaseException | None = None
        self.started = self.stopped_at = 0.0
        #: The memory taken at the stop, before any game's sockets close.
        self.at_stop: asyncio.Future[None] | None = None

    async def run(self, handle_signals: bool) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        limits = httpx.Limits(max_connections=HTTP_AT_ONCE, max_keepalive_connections=HTTP_AT_ONCE)
        async with contextlib.AsyncExitStack() as stack:
            for url in dict.fromkeys(self.urls):
                client = httpx.AsyncClient(base_url=url, timeout=30.0, limits=limits)
                self.http[url] = await stack.enter_async_context(client)
            await self.preflight()
            await self.sample("start")
            cpu = time.process_time()
            self.started = clock()
            if handle_signals:
                loop.add_signal_handler(signal.SIGINT, self.play.stop)
            lag = asyncio.create_task(self.watch_lag())
            sampler = asyncio.create_task(self.watch_memory())
            timer = loop.call_later(self.config.duration, self.play.stop)
            try:
                await asyncio.gather(*(self.slot(i) for i in range(self.config.games)))
            finally:
                timer.cancel()
                self.play.stop()
                lag.cancel()
                sampler.cancel()
                if handle_signals:
                    loop.remove_signal_handler(signal.SIGINT)
            cpu = time.process_time() - cpu
            busy = clock() - self.started
            if self.at_stop is not None:
                await self.at_stop
            if self.failure is not None:
                raise self.failure
            await self.sample("end")
            check, checked, unreadable = await self.verify()
        return self.report(check, checked, unreadable, cpu, busy)

    async def request(self, url: str, method: str, path: str, **options: Any) -> httpx.Response:
        async with self.gates[url]:
            return await self.http[url].request(method, path, **options)

    async def preflight(self) -> None:
        """Each URL answers as a Shiftago server and knows the computer's level."""
        for url, client in self.http.items():
            try:
                answer = await client.get("/api/levels")
                levels = {entry["level"] for entry in answer.json()["levels"]}
            except (httpx.HTTPError, ValueError, KeyError, TypeError) as error:
                raise LoadError(
                    _("%(url)s does not answer as a Shiftago server: %(error)s")
                    % {"url": url, "error": error}
                ) from None
            if self.config.computer_share and self.config.computer_level not in levels:
                known = " ".join(str(n) for n in sorted(levels))
                raise LoadError(
                    _("%(url)s has no computer level %(level)d: %(levels)s")
                    % {"url": url, "level": self.config.computer_level, "levels": known}
                )

    def _stopped(self) -> None:
        self.stopped_at = clock()
        for game in self.active:
            game.wake.set()
        self.at_stop = asyncio.ensure_future(self.sample("load"))

    async def watch_memory(self) -> None:
        """A sample every few seconds, for the peaks."""
        while True:
            await asyncio.sleep(MEMORY_STEP)
            await self.sample(None)

    async def watch_lag(self) -> None:
        while True:
            before = clock()
            await asyncio.sleep(LAG_STEP)
            self.stats.loop_lag.append(max(0.0, clock() - before - LAG_STEP))

    # --- the games ---------------------------------------------------------------------
    async def slot(self, i: int) -> None:
        """Keep one game in play from the slot's start until the run stops."""
        try:
            config = self.config
            await self.play.sleep(config.ramp * i / config.games)
            computer = config.is_computer_game(i)
            while not self.play.stopping:
                created = await self.create(i, computer)
                if created is None:
                    return
                await self.play_game(i, *created)
        except LoadError as error:
            self.failure = error
            self.play.stop()

    async def create(self, i: int, computer: bool) -> tuple[str, list[str | None]] | None:
        """A new game on URL ``i % n`` (None when the run stops first); HTTP errors are
        counted and the request is made again, after ``Retry-After`` for a 429."""
        url = self.urls[i % len(self.urls)]
        seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}]
        body: dict[str, Any] = {"variant": "express", "players": 2, "seats": seats}
        if computer:
            seats[1] = {"kind": "computer", "level": self.config.computer_level}
            body["first"] = "o"  # the person begins: every computer action is an answer
        body["seed"] = self.rng.randrange(2**62)
        while not self.play.stopping:
            try:
                answer = await self.request(url, "POST", "/api/games", json=body)
            except httpx.HTTPError as error:
                self.stats.count(f"http:{type(error).__name__}")
                await self.play.sleep(1.0)
                continue
            if answer.status_code == 201:
                data = answer.json()
                tokens = [
                    seat["join_url"].rpartition("?seat=")[2] if "join_url" in seat else None
                    for seat in data["seats"]
                ]
                return str(data["id"]), tokens
            self.stats.count(f"http:{answer.status_code}")
            if answer.status_code in (400, 404, 405, 422):
                raise LoadError(
                    _("%(request)s answered %(status)d: %(body)s")
                    % {
                        "request": f"POST {url}/api/games",
                        "status": answer.status_code,
                        "body": answer.text[:300],
                    }
                )
            await self.play.sleep(retry_after(answer.headers.get("Retry-After")))
        return None

    async def play_game(self, i: int, game_id: str, tokens: list[str | None]) -> None:
        n = len(self.urls)
        here, there = socket_urls(self.urls, i, self.config.sockets)
        people = [seat for seat, token in enumerate(tokens) if token is not None]
        computer = next((seat for seat, token in enumerate(tokens) if token is None), None)
        trace = GameTrace(game_id, here, frozenset(people))
        self.traces.append(trace)
        game = GameRun(trace, computer, clock())
        sockets: list[Socket] = []
        for k, seat in enumerate(people):
            token = tokens[seat]
            assert token is not None
            person = Person(self.play, game, here if k == 0 else there, token, seat, COLOURS[seat])
            game.people.append(person)
            sockets.append(person)
        for _watcher in range(self.config.watchers):
            watched = here if self.config.sockets == "by-game" else self.urls[self.watcher_turn % n]
            sockets.append(Watcher(self.play, game, watched, None))
            self.watcher_turn += 1
        tasks = [asyncio.create_task(s.run()) for s in sockets]
        self.active.add(game)
        self.stats.games_started += 1
        try:
            await self.until_over(game)
            await self.settle(game, self.config.drain if self.play.stopping else SETTLE)
            if self.at_stop is not None:  # the memory under load, every socket still open
                await asyncio.shield(self.at_stop)
        finally:
            self.active.discard(game)
            for s in sockets:
                s.close()
            await asyncio.gather(*tasks, return_exceptions=True)
        if game.over and not game.abandoned:
            self.stats.games_finished += 1

    async def until_over(self, game: GameRun) -> None:
        while not game.over and not self.play.stopping:
            game.wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STALL_CHECK):
                    await game.wake.wait()
            if clock() - game.progress_at > self.config.stall:
                self.stats.games_stalled += 1
                return

    async def settle(self, game: GameRun, seconds: float) -> None:
        """Wait (at most ``seconds``) for what is under way: the events of actions sent,
        the computer's answer, every socket at the last version."""
        game.draining = True
        deadline = clock() + seconds
        while not game.settled() and (left := deadline - clock()) > 0:
            game.wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 1.0)):
                    await game.wake.wait()

    # --- after the games ---------------------------------------------------------------
    async def verify(self) -> tuple[Check, int, int]:
        """Every game read back and checked: the sum, the games checked, those unreadable."""
        total, checked, unreadable = Check(), 0, 0

        for result in await asyncio.gather(*(self.read_back(t) for t in self.traces)):
            if result is None:
                unreadable += 1
            else:
                total, checked = total + result, checked + 1
        return total, checked, unreadable

    async def read_back(self, trace: GameTrace) -> Check | None:
        for _attempt in range(5):
            try:
                answer = await self.request(trace.url, "GET", f"/api/games/{trace.id}")
            except httpx.HTTPError as error:
                self.stats.count(f"http:{type(error).__name__}")
                await asyncio.sleep(1.0)
                continue
            if answer.status_code == 200:
                data = answer.json()
                seats = [COLOURS.index(entry["seat"]) for entry in data["history"]]
                return reconcile(trace, data["actions"], seats)
            self.stats.count(f"http:{answer.status_code}")
            if answer.status_code == 404:  # never stored: whatever was acknowledged is lost
                return reconcile(trace, [], [])
            await asyncio.sleep(min(retry_after(answer.headers.get("Retry-After")), 5.0))
        return None

    async def sample(self, phase: str | None) -> None:
        """Each process's memory now: /healthz per URL, VmRSS per ``--pid``, kept as
        ``phase`` (``start``, ``load``: at the stop, ``end``) and in the ``peak``."""

        async def health(url: str) -> None:
            try:
                answer = await self.request(url, "GET", "/healthz", timeout=10.0)
                data = answer.json() if answer.status_code == 200 else {}
            except (httpx.HTTPError, ValueError):
                data = {}
            fields = data if isinstance(data, dict) else {}
            figures = {name: fields.get(name) for name in HEALTH_FIELDS}
            phases = self.memory[url]
            if phase is not None:
                phases[phase] = figures
            peak = phases.setdefault("peak", {})
            for name, value in figures.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    peak[name] = max(value, peak.get(name) or 0)

        await asyncio.gather(*(health(url) for url in self.http))
        for pid, phases in self.rss.items():
            rss = vm_rss_mib(pid)
            if phase is not None:
                phases[phase] = rss
            if rss is not None:
                phases["peak"] = max(rss, phases.get("peak") or 0.0)

    def report(
        self, check: Check, checked: int, unreadable: int, cpu: float, busy: float
    ) -> dict[str, Any]:
        config, stats = self.config, self.stats
        elapsed = (self.stopped_at or self.started) - self.started
        acknowledged = sum(len(t.acknowledged) for t in self.traces)
        return {
            "urls": self.urls,
            "sockets": config.sockets,
            "games": config.games,
            "computer_games": sum(config.is_computer_game(i) for i in range(config.games)),
            "computer_level": config.computer_level,
            "watchers": config.watchers,
            "pace": list(config.pace),
            "seed": config.seed,
            "elapsed_s": round(elapsed, 1),
            "played": {
                "started": stats.games_started,
                "finished": stats.games_finished,
                "stalled": stats.games_stalled,
            },
            "actions": {
                "sent": stats.sent,
                "acknowledged": acknowledged,
                "by_computer": stats.computer_actions,
                "per_second": round(acknowledged / elapsed, 1) if elapsed > 0 else None,
            },
            "latency_ms": {
                "act_to_own_event": percentiles(stats.own),
                "act_to_opponent_event": percentiles(stats.opponent),
                "computer_answer": percentiles(stats.computer),
            },
            "errors": dict(sorted(stats.errors.items())),
            "rate_limited": stats.rate_limited,
            "reconnects": stats.reconnects,
            "checked_games": checked,
            "unreadable_games": unreadable,
            "lost": check.lost,
            "duplicated": check.duplicated,
            "unacknowledged": check.unacknowledged,
            "late_computer_actions": check.late,
            "memory": [{"url": url, **phases} for url, phases in self.memory.items()],
            "processes": [{"pid": pid, **phases} for pid, phases in self.rss.items()],
            "tool": {
                "cpu_s": round(cpu, 1),
                "cpu_share": round(cpu / busy, 2) if busy > 0 else None,
                "loop_lag_ms": percentiles(stats.loop_lag),
                "watcher_events": stats.watcher_events,
            },
        }


def vm_rss_mib(pid: int) -> float | None:
    """A local process's resident memory (MiB) from /proc; None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        return None
    return None

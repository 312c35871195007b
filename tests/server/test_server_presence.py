"""Presence that a crowd cannot turn into a storm (docs/web-protocol.md, "Limits and
presence"): one ``presence`` event per interval with a spectator count, merged over
serve processes; a socket too far behind closed alone; a burst of watchers that never
disconnects the players. The crowds run against a real uvicorn server in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from shiftago.core import Variant
from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.door import socket as door_socket
from shiftago.interfaces.server.games import acting, claim, draw, ending, takeback
from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec, build
from shiftago.interfaces.server.games.hub import Refused
from shiftago.interfaces.server.games.live import Connection
from shiftago.interfaces.server.games.presence import (
    SUMMARY_SECONDS,
    Coalescer,
    PresenceSummary,
    merged,
)
from shiftago.interfaces.server.settings import Settings
from support.server_support import client_for, connect, create
from support.waiting import wait_until

#: The presence interval of these tests: the default.
INTERVAL = Settings().presence_interval
TIMEOUT = 30.0


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'presence.db'}"


def two_people() -> GameSpec:
    return GameSpec(Variant.EXPRESS, 2, [SeatSpec("human", "Ann"), SeatSpec("human", "Ben")])


# --- the pieces ------------------------------------------------------------------------
def test_a_summary_round_trips_through_json_and_refuses_anything_else():
    summary = PresenceSummary(frozenset({0, 2}), 7, 1_700_000_000.5)
    assert PresenceSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary
    for bad in [None, {}, {"seats": [5], "spectators": 0, "at": 0}, {"seats": [], "at": 0}]:
        with pytest.raises(ValueError):
            PresenceSummary.from_json(bad)
    with pytest.raises(ValueError):
        PresenceSummary.from_json({"seats": [], "spectators": -1, "at": 0})


def test_merged_presence_is_connected_anywhere_and_adds_the_spectators():
    both = merged(
        [PresenceSummary(frozenset({0}), 2, 10.0), PresenceSummary(frozenset({1}), 3, 12.0)]
    )
    assert both == PresenceSummary(frozenset({0, 1}), 5, 12.0)
    assert merged([]) == PresenceSummary()


def test_the_coalescer_sends_at_once_then_once_per_interval():
    async def run() -> list[float]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        sent: list[float] = []
        coalescer = Coalescer()

        def send() -> None:
            sent.append(loop.time() - start)

        coalescer.request(0.2, send)
        await asyncio.sleep(0.05)  # the times of the sends are what is checked
        assert len(sent) == 1  # after a quiet interval: at once
        for _ in range(50):  # a burst: one send at the interval's end
            coalescer.request(0.2, send)
        assert coalescer.pending
        await asyncio.sleep(0.3)  # as above
        coalescer.request(0.2, send)
        coalescer.cancel()
        await asyncio.sleep(0.3)  # as above
        return sent

    sent = asyncio.run(run())
    assert len(sent) == 2
    assert sent[0] < 0.05 and 0.19 <= sent[1] < 0.3


def test_a_seat_connected_on_another_process_is_connected_and_not_claimable():
    game, _ = build(two_people())
    here, watcher = Connection(0), Connection(None)
    game.add_connection(here)
    game.add_connection(watcher)
    game.presence_changed()
    assert game.own_presence().seats == {0} and game.own_presence().spectators == 1
    assert game.away_since[0] is None and game.away_since[1] is not None

    game.remote_presence["process-2"] = PresenceSummary(frozenset({1}), 5, time.time())
    game.presence_changed()
    event = game.presence(0)
    assert [s["connected"] for s in event["seats"]] == [True, True]
    assert event["spectators"] == 6
    assert game.connected(1) and game.away_since[1] is None
    assert game.claimable_at(1, 0) is None

    del game.remote_presence["process-2"]
    game.presence_changed()
    away = game.away_since[1]
    assert away is not None and not game.connected(1)
    assert game.claimable_at(1, 0) == away
    game.presence_changed()
    assert game.away_since[1] == away  # away since it was first missed


def test_another_process_saying_its_part_again_changes_nothing_until_it_changes():
    """Each process repeats its part every third of SUMMARY_SECONDS for every game it
    holds sockets of; only a part that differs (or revives an expired one) is news for
    the game's sockets, and a part older than the one held is dropped."""
    game, _ = build(two_people())
    now = time.time()
    part = PresenceSummary(frozenset({1}), 2, now)
    assert game.take_remote_presence("p2", part)  # first heard
    assert not game.take_remote_presence("p2", PresenceSummary(frozenset({1}), 2, now + 20))
    assert game.remote_presence["p2"].at == now + 20  # renewed all the same
    assert game.take_remote_presence("p2", PresenceSummary(frozenset({1}), 3, now + 21))
    assert game.take_remote_presence("p2", PresenceSummary(frozenset(), 3, now + 22))
    assert game.take_remote_presence("p3", PresenceSummary(frozenset({0}), 0, now))
    # an expired part said again counts anew
    game.remote_presence["p3"] = PresenceSummary(frozenset({0}), 0, now - SUMMARY_SECONDS - 1)
    assert not game.connected(0)
    assert game.take_remote_presence("p3", PresenceSummary(frozenset({0}), 0, now))
    assert game.connected(0)
    # a process that holds nobody any more says so; saying nothing again is no news
    assert game.take_remote_presence("p3", PresenceSummary(frozenset(), 0, now + 1))
    assert not game.connected(0)
    assert not game.take_remote_presence("p3", PresenceSummary(frozenset(), 0, now + 2))
    # a renewal made before that (sent in a batch, overtaken) does not bring the seat back
    assert not game.take_remote_presence("p3", PresenceSummary(frozenset({0}), 0, now + 0.5))
    assert not game.connected(0)
    # nor does an old renewal undo a newer part of the other process
    assert not game.take_remote_presence("p2", PresenceSummary(frozenset({1}), 2, now + 5))
    assert game.remote_presence["p2"].spectators == 3


def test_a_connection_too_far_behind_is_dropped_alone(monkeypatch):
    monkeypatch.setattr(door_socket, "MAX_QUEUED", 3)
    slow, fine = Connection(None), Connection(None)
    for n in range(3):
        slow.send({"n": n})
    slow.send({"n": 3})  # one too many: what waits is dropped, the close comes next
    assert slow.closed and slow.queue.get_nowait() == 1008 and slow.queue.empty()
    fine.send({"n": 0})
    assert not fine.closed and fine.queue.get_nowait() == {"n": 0}


# --- through the test client -------------------------------------------------------------
def test_presence_counts_spectators_and_tells_a_seat_within_the_interval(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as first:
            assert first.hello()[-1]["spectators"] == 1
            with connect(client, game_id) as second:
                told = second.hello()[-1]
                assert told["spectators"] == 2 and told["seats"][0]["connected"] is False
                assert first.until_type("presence")["spectators"] == 2
                # the newcomer is not told the change it was told on arrival again
                assert [e for e in second.flush() if e["type"] == "presence"] == []
                started = time.monotonic()
                with connect(client, game_id) as orange:
                    orange.hello(ann)
                    event = first.until(
                        lambda e: e["type"] == "presence" and e["seats"][0]["connected"]
                    )
                    assert time.monotonic() - started < INTERVAL + 1.0
                    assert event["seats"][0]["away_since"] is None
                    assert event["spectators"] == 2
                event = first.until(
                    lambda e: e["type"] == "presence" and not e["seats"][0]["connected"]
                )
                assert event["seats"][0]["away_since"] is not None
            assert first.until_type("presence")["spectators"] == 1


def test_a_seat_on_another_process_cannot_be_claimed(sqlite_url):
    with client_for(sqlite_url, grace_seconds=0) as client:
        game_id, (ann, _) = create(client, first="o")
        hub = client.app.state.hub
        with connect(client, game_id) as orange:
            orange.hello(ann)
            game = hub.games[game_id]
            game.remote_presence["process-2"] = PresenceSummary(frozenset({1}), 2, time.time())
            client.portal.call(hub.presence.changed, game)
            event = orange.until(lambda e: e["type"] == "presence" and e["seats"][1]["connected"])
            assert event["spectators"] == 2
            orange.send({"type": "claim", "seat": 1, "to": "computer"})
            assert orange.until_type("error")["code"] == "not_allowed"

            del game.remote_presence["process-2"]
            client.portal.call(hub.presence.changed, game)
            orange.until(lambda e: e["type"] == "presence" and not e["seats"][1]["connected"])
            orange.send({"type": "claim", "seat": 1, "to": "computer"})
            state = orange.until_type("state")
            assert state["game"]["seats"][1]["kind"] == "computer"


def test_a_crowd_joining_sends_the_players_few_presence_events(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as orange, ExitStack() as crowd:
            orange.hello(ann)
            started = time.monotonic()
            for _ in range(60):
                crowd.enter_context(connect(client, game_id)).hello()
            time.sleep(INTERVAL * 2)  # presences per interval are what is checked
            presences = [e for e in orange.flush() if e["type"] == "presence"]
            elapsed = time.monotonic() - started
            assert 1 <= len(presences) <= elapsed / INTERVAL + 2
            assert presences[-1]["spectators"] == 60


# --- against a real server ----------------------------------------------------------------
@contextmanager
def served(app: Any, send_buffer: int | None = None) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free port: its ``host:port``.
    ``send_buffer`` fixes the kernel's buffer of each socket's outgoing bytes (else it
    grows to megabytes), so that a client that never reads holds the server up soon."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if send_buffer is not None:  # the accepted sockets inherit it
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), timeout=TIMEOUT, what="starting")
    if not server.started:
        raise RuntimeError("the test server did not start")
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        listener.close()


def new_game(host: str) -> tuple[str, list[str]]:
    body = {"first": "o", "seats": [{}, {}]}
    answer = httpx.post(f"http://{host}/api/games", json=body, timeout=TIMEOUT).json()
    return answer["id"], [s["join_url"].split("?seat=")[1] for s in answer["seats"]]


class Client:
    """A socket read by a task of its own into ``events``, until it closes."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []
        self.counts: Counter[str] = Counter()
        self.arrived = asyncio.Event()
        self.close_code: int | None = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                event = json.loads(text)
                self.events.append(event)
                self.counts[event["type"]] += 1
                self.arrived.set()
        except ConnectionClosed:
            pass
        self.close_code = self.ws.close_code
        self.arrived.set()

    async def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first event so far that is ``wanted`` (waiting for it to come)."""
        found: list[dict[str, Any]] = []
        seen = 0

        def ready() -> bool:
            nonlocal seen
            found.extend(e for e in self.events[seen:] if wanted(e))
            seen = len(self.events)
            return bool(found)

        await self.wait(ready)
        return found[0]

    async def wait(self, ready: Callable[[], bool]) -> None:
        async with asyncio.timeout(TIMEOUT):
            while not ready():
                assert self.close_code is None, f"closed with {self.close_code}"
                self.arrived.clear()
                await self.arrived.wait()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


async def seated(url: str, token: str | None) -> Client:
    client = Client(await ws_connect(url))
    await client.send({"type": "hello", "token": token, "seen": 0})
    await client.until(lambda e: e["type"] == "presence")
    return client


async def play(host: str, game_id: str, players: list[Client], actions: int) -> int:
    """Play up to ``actions`` actions (the first legal one each time); how many."""
    async with httpx.AsyncClient() as http:
        game = (await http.get(f"http://{host}/api/games/{game_id}")).json()
    version = 0
    while game["turn"] is not None and version < actions:
        mover = players["og".index(game["turn"])]
        await mover.send({"type": "act", "action": game["legal"][0], "seen": version})
        version += 1
        for player in players:
            event = await player.until(
                lambda e, v=version: e["type"] == "action" and e["version"] == v
            )
        game = event["game"]
    return version


def test_a_burst_of_watchers_never_disconnects_the_players(sqlite_url):
    app = create_app(sqlite_url, sockets_per_address=1000)
    with served(app) as host:
        game_id, (ann, ben) = new_game(host)
        url = f"ws://{host}/ws/games/{game_id}"

        async def run() -> None:
            players = [await seated(url, ann), await seated(url, ben)]
            started = time.monotonic()
            watching = asyncio.gather(*(seated(url, None) for _ in range(300)))
            played = await play(host, game_id, players, 30)
            watchers = await watching
            await asyncio.sleep(INTERVAL * 3)  # presences per interval are what is checked
            elapsed = time.monotonic() - started
            for player in players:
                assert player.close_code is None
                versions = [e["version"] for e in player.of_type("action")]
                assert versions == list(range(1, played + 1))
                presences = player.of_type("presence")
                assert len(presences) <= elapsed / INTERVAL + 3, (len(presences), elapsed)
                assert presences[-1]["spectators"] == 300
            for watcher in watchers:
                assert watcher.close_code is None
                await watcher.ws.close()
            for player in players:
                await player.ws.close()

        asyncio.run(run())


def test_a_watcher_that_never_reads_is_closed_alone(sqlite_url, monkeypatch):
    monkeypatch.setattr(door_socket, "MAX_QUEUED", 20)
    app = create_app(sqlite_url, rate=10_000, burst=10_000)
    with served(app, send_buffer=16_384) as host:
        game_id, tokens = new_game(host)
        url = f"ws://{host}/ws/games/{game_id}"

        async def run() -> None:
            player = await seated(url, tokens[0])
            reader = await seated(url, None)
            sleeper_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sleeper_socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            address, port = host.split(":")
            sleeper_socket.connect((address, int(port)))
            # uncompressed (the game's events compress to a few bytes each), read by
            # nobody: the server's writes to it soon wait
            sleeper = await ws_connect(url, sock=sleeper_socket, max_queue=1, compression=None)
            await sleeper.send(json.dumps({"type": "hello", "token": None, "seen": 0}))
            hub = app.state.hub
            game = hub.games[game_id]
            pairs = 0

            def dropped() -> bool:
                return any(c.closed for c in game.connections if c.seat is None)

            # one player holds both seats: an action and its take-back, again and again
            while (not dropped() or pairs % 50) and pairs < 1000:
                await player.send({"type": "act", "action": "L3", "seen": 0})
                await player.wait(lambda n=pairs: player.counts["action"] > n)
                await player.send({"type": "takeback", "tokens": tokens})
                await player.wait(lambda n=pairs: player.counts["takeback"] > n)
                pairs += 1
            assert dropped(), "the sleeping watcher was never dropped"
            await reader.wait(lambda: reader.counts["takeback"] == pairs)
            assert reader.counts["action"] == pairs
            assert player.close_code is None and reader.close_code is None
            received = 0
            with contextlib.suppress(ConnectionClosed):
                async with asyncio.timeout(TIMEOUT):
                    async for _ in sleeper:
                        received += 1
            assert sleeper.close_code == 1008
            assert received < 2 * pairs
            await player.ws.close()
            await reader.ws.close()

        asyncio.run(run())


def test_a_seat_handed_to_the_computer_no_longer_obeys_its_old_link(sqlite_url):
    with client_for(sqlite_url, grace_seconds=0, bot_delay=5) as client:
        game_id, (ann, ben) = create(client, first="o")
        hub = client.app.state.hub
        with connect(client, game_id) as orange:
            orange.hello(ann)
            assert orange.act("L1", 0)["type"] == "action"
            orange.send({"type": "claim", "seat": 1, "to": "computer", "level": 1})
            assert orange.until_type("state")["game"]["seats"][1]["kind"] == "computer"
        # the old link now only watches
        with connect(client, game_id) as former:
            events = former.hello(ben)
            refused = next(e for e in events if e["type"] == "error")
            assert refused["code"] == "not_seated" and "computer plays g" in refused["message"]
            assert next(e for e in events if e["type"] == "welcome")["seat"] is None
        # and a connection that held the seat before the claim (on another process, say)
        # can change nothing for it
        held = hub.games[game_id]
        for change in (
            lambda: acting.act(hub, held, 1, "Bg", 1),
            lambda: ending.resign(hub, held, 1),
            lambda: draw.offer(hub, held, 1),
            lambda: takeback.take_back(hub, held, 1),
            lambda: claim.claim(hub, held, 1, 0, "end"),
        ):
            with pytest.raises(Refused) as refusal:
                client.portal.call(change)
            assert refusal.value.code == "not_seated"
        game = client.get(f"/api/games/{game_id}").json()
        assert game["actions"] == ["L1"] and game["result"] is None

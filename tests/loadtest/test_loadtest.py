"""``shiftago loadtest``: a short run against a real server in this process (uvicorn in a
thread), the command line's JSON, and the accounting of lost and duplicated actions on
fabricated games. No assertion is on speed: only on what was counted."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from websockets.asyncio.client import connect

from shiftago.interfaces.cli import cli
from shiftago.interfaces.loadtest import LoadConfig, LoadError, format_report, run_load
from shiftago.interfaces.loadtest.figures import Check, GameTrace, Stats, percentiles, reconcile
from shiftago.interfaces.loadtest.players import GameRun, Person, Play
from shiftago.interfaces.loadtest.protocol import read_action
from shiftago.interfaces.loadtest.run import socket_urls
from support.web_fixtures import free_port

LATENCIES = ("act_to_own_event", "act_to_opponent_event", "computer_answer")


def assert_report_shape(report: dict[str, Any]) -> None:
    json.dumps(report)  # JSON as it is
    for key in LATENCIES:
        figures = report["latency_ms"][key]
        assert set(figures) == {"count", "p50", "p95", "p99", "max"}
        if figures["count"]:
            assert 0 <= figures["p50"] <= figures["p95"] <= figures["p99"] <= figures["max"]
    assert set(report["actions"]) == {"sent", "acknowledged", "by_computer", "per_second"}
    assert report["memory"] and all("url" in entry for entry in report["memory"])
    assert isinstance(report["errors"], dict)
    assert "lost" in report and "duplicated" in report


def test_a_short_run_counts_actions_and_loses_none(server_url: str) -> None:
    config = LoadConfig(
        urls=(server_url, server_url),  # two "processes": every game across both
        games=3,
        duration=30,
        actions=50,
        pace=(0.01, 0.02),
        computer_share=0.34,
        computer_level=1,
        watchers=1,
        ramp=0.1,
        seed=7,
        drain=20,
    )
    report = asyncio.run(run_load(config))
    assert_report_shape(report)
    assert report["computer_games"] == 1
    assert report["actions"]["sent"] == 50
    assert report["actions"]["acknowledged"] >= 50
    assert report["actions"]["by_computer"] > 0
    assert report["latency_ms"]["act_to_own_event"]["count"] > 0
    assert report["latency_ms"]["act_to_opponent_event"]["count"] > 0
    assert report["latency_ms"]["computer_answer"]["count"] > 0
    assert report["checked_games"] == report["played"]["started"] >= 3
    assert report["unreadable_games"] == 0
    assert report["lost"] == 0
    assert report["duplicated"] == 0
    assert report["unacknowledged"] == 0
    assert report["tool"]["watcher_events"] > 0
    text = format_report(report)
    assert "lost 0, duplicated 0" in text
    assert "p99" in text


def test_the_command_prints_one_json_object(server_url: str) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "loadtest", server_url, "--games", "2", "--actions", "20", "--pace", "0.01-0.02",
            "--ramp", "0", "--duration", "30", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert_report_shape(report)
    assert report["actions"]["sent"] == 20
    assert report["lost"] == report["duplicated"] == 0


def test_action_events_are_read_without_parsing_their_game(server_url: str) -> None:
    """The light reading of an ``action`` event agrees with its JSON, on the server's
    own events (a change of their shape would otherwise only make the tool slower)."""

    async def two_events() -> list[str]:
        async with httpx.AsyncClient(base_url=server_url) as client:
            computer = {"kind": "computer", "level": 1}
            body = {"first": "o", "seats": [{"kind": "human"}, computer]}
            answer = await client.post("/api/games", json=body)
        data = answer.json()
        token = data["seats"][0]["join_url"].rpartition("?seat=")[2]
        texts = []
        async with connect(f"ws://{server_url.partition('://')[2]}/ws/games/{data['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "seen": 0}))
            await ws.send(json.dumps({"type": "sync", "seen": 0}))
            legal: list[str] = []
            while len(texts) < 2:
                event = json.loads(text := str(await asyncio.wait_for(ws.recv(), 20)))
                if event["type"] == "action":
                    texts.append(text)  # the person's action, then the computer's
                if event["type"] in ("state", "action") and event["game"]["turn"] == "o":
                    legal = event["game"]["legal"]
                    await ws.send(
                        json.dumps({"type": "act", "action": legal[0], "seen": event["version"]})
                    )
        return texts

    for text in asyncio.run(two_events()):
        event = json.loads(text)
        game = event["game"]
        expected = (event["version"], event["action"], event["seat"], game["turn"], game["legal"])
        assert read_action(text) == expected


def test_a_url_without_a_server_is_an_error() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(cli, ["loadtest", url, "--duration", "5"])
    assert result.exit_code == 2
    assert "does not answer as a Shiftago server" in result.output


def test_pace_is_checked() -> None:
    result = CliRunner().invoke(cli, ["loadtest", "http://127.0.0.1:1", "--pace", "3-1"])
    assert result.exit_code == 2
    assert "--pace" in result.output


# --- the accounting -------------------------------------------------------------------


def trace(acknowledged: dict[int, str], people: frozenset[int] = frozenset({0, 1})) -> GameTrace:
    game = GameTrace("game", "http://server", people)
    for version, action in acknowledged.items():
        game.acknowledge(version, action)
    return game


@pytest.mark.parametrize(
    ("acknowledged", "stored", "seats", "expected"),
    [
        ({1: "L1", 2: "R3"}, ["L1", "R3"], [0, 1], Check()),
        ({1: "L1", 2: "R3", 3: "T1"}, ["L1", "R3"], [0, 1], Check(lost=1)),
        ({1: "L1", 2: "R3"}, ["L1", "R4"], [0, 1], Check(lost=1)),
        ({1: "L1", 2: "R3"}, [], [], Check(lost=2)),
        ({1: "L1"}, ["L1", "R3"], [0, 1], Check(duplicated=1)),
    ],
)
def test_reconcile(
    acknowledged: dict[int, str], stored: list[str], seats: list[int], expected: Check
) -> None:
    assert reconcile(trace(acknowledged), stored, seats) == expected


def test_two_sockets_that_disagree_lose_one_action() -> None:
    game = trace({1: "L1", 2: "R3"})
    game.acknowledge(2, "R4")
    assert reconcile(game, ["L1", "R3"], [0, 1]) == Check(lost=1)


def test_duplicate_events_count_as_duplicated() -> None:
    game = trace({1: "L1"})
    game.duplicate_events = 2
    assert reconcile(game, ["L1"], [0]) == Check(duplicated=2)


def test_stored_actions_nobody_saw_acknowledged() -> None:
    # A computer action after the sockets closed is late, not wrong.
    assert reconcile(trace({1: "L1"}, frozenset({0})), ["L1", "R3"], [0, 1]) == Check(late=1)
    # An action the tool sent whose event never came: unacknowledged.
    sent = trace({1: "L1"})
    sent.sent[2] = "R3"
    assert reconcile(sent, ["L1", "R3"], [0, 1]) == Check(unacknowledged=1)
    # One the tool did not send (or sent otherwise): duplicated.
    other = trace({1: "L1"})
    other.sent[2] = "R2"
    assert reconcile(other, ["L1", "R3"], [0, 1]) == Check(duplicated=1)


def test_percentiles_are_samples_in_order() -> None:
    figures = percentiles([i / 1000 for i in range(1, 101)])
    assert figures == {"count": 100, "p50": 50.0, "p95": 95.0, "p99": 99.0, "max": 100.0}
    assert percentiles([])["p99"] is None
    assert percentiles([0.25])["p50"] == percentiles([0.25])["max"] == 250.0


def test_a_game_is_played_across_two_processes_or_on_its_own() -> None:
    urls = ["http://a", "http://b", "http://c"]
    assert [socket_urls(urls, i, "across") for i in range(4)] == [
        ("http://a", "http://b"),
        ("http://b", "http://c"),
        ("http://c", "http://a"),
        ("http://a", "http://b"),
    ]
    assert [socket_urls(urls, i, "by-game") for i in range(4)] == [
        ("http://a", "http://a"),
        ("http://b", "http://b"),
        ("http://c", "http://c"),
        ("http://a", "http://a"),
    ]
    with pytest.raises(LoadError, match="sockets"):
        LoadConfig(urls=tuple(urls), sockets="anywhere")


def test_the_report_says_how_the_sockets_were_spread(server_url: str) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "loadtest", server_url, server_url.replace("127.0.0.1", "localhost"),
            "--games", "2", "--actions", "10", "--pace", "0.01-0.02", "--ramp", "0",
            "--duration", "30", "--sockets", "by-game",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "on 2 processes (each game on one)" in result.output
    assert "lost 0, duplicated 0" in result.output


@pytest.mark.parametrize(("share", "games", "computer"), [(0, 10, 0), (0.1, 200, 20), (1, 7, 7)])
def test_the_computer_share_is_spread(share: float, games: int, computer: int) -> None:
    config = LoadConfig(urls=("http://x",), games=games, computer_share=share)
    assert sum(config.is_computer_game(i) for i in range(games)) == computer


# --- a person's socket, fed events by hand ---------------------------------------------


def action_event(version: int, action: str, seat: int, turn: str | None) -> str:
    game = {"turn": turn, "legal": ["L1", "L2"] if turn else [], "result": None}
    event = {"type": "action", "version": version, "action": action, "seat": seat, "game": game}
    return json.dumps(event, separators=(",", ":"))


def test_an_event_received_twice_is_a_duplicate_unless_a_sync_asked_for_it() -> None:
    async def feed() -> GameTrace:
        stats = Stats()
        play = Play((0.0, 0.0), random.Random(1), stats)
        game = GameRun(GameTrace("game", "http://server", frozenset({0, 1})), None, 0.0)
        person = Person(play, game, "http://server", "token", 1, "g")
        person.receive(action_event(1, "L1", 0, "g"))
        person.receive(action_event(1, "L1", 0, "g"))  # the same version again: counted
        person.syncing = True  # as after a sync: its answer may repeat what came live
        person.receive(action_event(1, "L1", 0, "g"))
        person.receive('{"type":"pong"}')
        assert not person.syncing
        play.stop()
        return game.trace

    seen = asyncio.run(feed())
    assert seen.acknowledged == {1: "L1"}
    assert seen.duplicate_events == 1
    assert reconcile(seen, ["L1"], [0]) == Check(duplicated=1)

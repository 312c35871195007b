"""The live analysis socket ``/ws/analysis`` (docs/web-protocol.md, "Live analysis of a
position"): lines as the computer thinks, final when proven or the budget is spent, bad
input answered with an error, a new position replaces the search, stop ends it. The
searches are capped by nodes (``live_analysis_cap``), not time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from server_support import Player, client_for
from shiftago.core import Game, Rules, State, Variant
from shiftago.engine.levels import bot_for_level
from shiftago.interfaces.server.live_analysis import parse
from shiftago.interfaces.server.protocol import BadMessage

#: Orange wins at once with L1 or Be.
CHANCE = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
START = State.initial(Rules(Variant.EXPRESS, 2), 0).position()
#: The live searches' cap in these tests: a few steps, a fraction of a second.
CAP = 6_000


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'live.db'}"


@contextmanager
def analysis_socket(client: Any, **kwargs: Any) -> Iterator[Player]:
    with client.websocket_connect("/ws/analysis", **kwargs) as ws:
        yield Player(ws)


def stream(player: Player, position: str) -> list[dict[str, Any]]:
    """The ``lines`` events of ``position`` up to the final one."""
    events = []
    while True:
        event = player.receive()
        assert event["type"] == "lines", event
        if event["position"] != position:
            continue
        events.append(event)
        if event["final"]:
            return events


def warm(player: Player) -> None:
    """Wait for the engine's warm-up (the first search waits for it in the same thread)."""
    player.send({"type": "analyse", "position": CHANCE, "lines": 1})
    stream(player, CHANCE)


def test_a_win_in_one_comes_first_quickly_and_is_final(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        warm(p)
        started = time.monotonic()
        p.send({"type": "analyse", "position": CHANCE, "lines": 3})
        first = p.receive()
        assert time.monotonic() - started < 0.5
        assert first["type"] == "lines" and first["position"] == CHANCE
        assert first["final"] is True and first["depth"] == 1 and first["nodes"] > 0
        assert first["unit"].startswith("centi-units")
        best = first["lines"][0]
        assert best["action"] in {"L1", "Be"} and best["value"] > 999
        assert best["expected"] == 1.0 and best["pv"][0] == best["action"]
        assert len(first["lines"]) == 3


def test_lines_deepen_until_the_budget_is_spent(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": START, "lines": 2})
        events = stream(p, START)
    depths = [e["depth"] for e in events]
    assert depths[:-1] == list(range(1, len(events))) and len(events) >= 3
    assert depths[-1] in (len(events) - 1, len(events))  # the last step, or the one before
    assert all(not e["final"] for e in events[:-1])
    for event in events:
        assert len(event["lines"]) == 2
        for line in event["lines"]:
            assert isinstance(line["value"], int) and 0 < line["expected"] < 1
            assert line["pv"][0] == line["action"]


def test_three_players_double_the_mcts_iterations(sqlite_url):
    game = Game(Rules(Variant.EXPERT, 3), first=1)
    bot = bot_for_level(2, 1)
    for _ in range(6):
        game.play(bot.choose(game.state))
    position = game.position()
    with client_for(sqlite_url, live_analysis_cap=4_000) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": position, "lines": 8})
        events = stream(p, position)
    assert [e["nodes"] for e in events] == [1_000, 2_000, 4_000]
    assert "mean reward" in events[0]["unit"]
    for line in events[-1]["lines"]:
        assert line["expected"] == line["value"] and 0 <= line["value"] <= 1


def test_a_finished_position_answers_no_lines(sqlite_url):
    game = Game(position=CHANCE)
    game.play("L1")
    with client_for(sqlite_url) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": game.position()})
        event = p.receive()
    assert event["final"] is True and event["lines"] == [] and event["type"] == "lines"
    assert event["position"] == game.position()  # the core's own words for the end


def test_bad_input_answers_an_error_and_changes_nothing(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": "express 2 7/7/7 o insert"})
        bad = p.receive()
        assert bad["type"] == "error" and bad["code"] == "bad_position" and bad["message"]
        for message in (
            {"type": "analyse", "position": START, "lines": 9},
            {"type": "analyse", "position": START, "lines": "3"},
            {"type": "analyse"},
            {"type": "think"},
            {"type": "analyse", "position": START, "extra": 1},
        ):
            p.send(message)
            assert p.receive()["code"] == "bad_message", message
        p.ws.send_text("not json")
        assert p.receive()["code"] == "bad_message"
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}


def test_parse_is_strict():
    assert parse('{"type": "analyse", "position": "x"}').lines == 3  # type: ignore[union-attr]
    for text in ('{"type": "analyse", "position": ""}', "[]", b"{}", '{"type": 3}'):
        with pytest.raises(BadMessage):
            parse(text)


def test_a_new_position_replaces_the_search_and_stop_ends_it(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=400_000) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": START, "lines": 1})
        assert p.receive()["position"] == START  # the first step of a long search
        p.send({"type": "analyse", "position": CHANCE, "lines": 1})
        events = []
        while not (events and events[-1]["position"] == CHANCE):
            events.append(p.receive())
        assert events[-1]["final"] is True
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # nothing of the replaced search after it
        p.send({"type": "analyse", "position": START, "lines": 1})
        assert p.receive()["position"] == START
        p.send({"type": "stop"})
        p.send({"type": "ping"})
        while (event := p.receive())["type"] != "pong":  # lines sent before the stop
            assert event["position"] == START and not event["final"]
        time.sleep(0.5)
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # the search ended: no more lines


def test_foreign_origins_are_refused(sqlite_url):
    with client_for(sqlite_url, public_url="https://shiftago.example.org") as client:
        evil = {"origin": "https://evil.example"}
        with pytest.raises(WebSocketDisconnect), analysis_socket(client, headers=evil):
            pass
        with analysis_socket(client, headers={"origin": "https://shiftago.example.org"}) as p:
            p.send({"type": "ping"})
            assert p.receive() == {"type": "pong"}


def test_too_many_messages_are_refused_then_the_socket_closed(sqlite_url):
    with client_for(sqlite_url, rate=0.01, burst=2) as client, analysis_socket(client) as p:
        for _ in range(14):
            p.send({"type": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                event = p.receive()
                codes.append(event.get("code", event["type"]))
        assert closed.value.code == 1008
        assert codes[:2] == ["pong", "pong"] and set(codes[2:]) == {"rate_limited"}

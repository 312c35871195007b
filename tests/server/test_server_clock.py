"""Timed games on the server (WEBAPI.md, "Clocks"): the time is the server's, kept with
each action; a flag falls with nobody connected; clocks survive a restart; the computer
plays under the clock. Time moves by an offset file (``time_offset_file``), never by
sleeping."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import delete, select

from shiftago.core import COLOURS, Game, Phase, Rules, Variant
from shiftago.interfaces.server.db.schema import ActionRow, HeartbeatRow
from shiftago.interfaces.server.db.store import epoch, open_engine
from shiftago.interfaces.server.games.bots import ComputerPlayers
from shiftago.match.clock import Clock, TimeControl, action_budget
from support.server_support import client_for, connect, create, fresh_database
from support.waiting import wait_until


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


class Time:
    """The server's time, moved forward by writing an offset file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        path.write_text("0")

    def forward(self, seconds: float) -> None:
        self.offset += seconds
        self.path.write_text(repr(self.offset))


@pytest.fixture
def clock_time(tmp_path: Path) -> Time:
    return Time(tmp_path / "offset")


def options(clock_time: Time) -> dict[str, Any]:
    return {"time_offset_file": clock_time.path, "flag_sweep_seconds": 0.05}


def read(client: Any, game_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 200
    game: dict[str, Any] = answer.json()
    return game


def wait_for(read_it: Any, done: Any, seconds: float = 20.0) -> Any:
    return wait_until(read_it, done, seconds)


def opening(client: Any, game_id: str, tokens: list[str | None]) -> int:
    """Open every seat and make each seat's first action (free of time), closing the
    sockets after; the game's version then."""
    with ExitStack() as stack:
        players = [stack.enter_context(connect(client, game_id)) for _ in tokens]
        for player, token in zip(players, tokens, strict=True):
            player.hello(token)
        version = 0
        for _ in tokens:
            game = read(client, game_id)
            seat = COLOURS.index(game["turn"])
            assert players[seat].act(game["legal"][0], version)["type"] == "action"
            version += 1
        return version


def test_a_timed_game_shows_its_clocks_and_the_seat_to_act_runs(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(client, first="g", clock={"initial": 180, "increment": 2})
        game = read(client, game_id)
        assert game["clock"]["initial"] == 180 and game["clock"]["increment"] == 2
        assert game["clock"]["control"] == "3+2"
        assert game["clock"]["running"] is None and game["clock"]["waiting"] == "players"
        opening(client, game_id, tokens)
        clock = read(client, game_id)["clock"]
        assert clock["running"] == "g" and clock["waiting"] is None
        assert clock["remaining"][0] == 180  # the first actions were free
        assert 179.5 < clock["remaining"][1] <= 180
        clock_time.forward(30)
        remaining = read(client, game_id)["clock"]["remaining"]
        assert remaining[0] == 180
        assert 149 < remaining[1] <= 150


def test_an_untimed_game_has_no_clock(db_url):
    with client_for(db_url) as client:
        game_id, _ = create(client)
        assert read(client, game_id)["clock"] is None


def test_the_first_action_takes_no_time_off_the_clock(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 5})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            clock = read(client, game_id)["clock"]
            assert clock["running"] is None and clock["waiting"] == "first_action"
            assert 59.5 < clock["aborts_in"] <= 60
            clock_time.forward(30)
            event = o.act("L1", 0)
            assert event["game"]["clock"]["remaining"] == [60, 60]  # no time off, none on
            assert event["game"]["clock"]["running"] is None  # g's first action is free too


def test_the_time_spent_comes_off_and_the_increment_is_added_once_per_turn(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 5})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L1", 0)
            g.act("L7", 1)  # both first actions made: o's clock runs
            clock_time.forward(10)
            event = o.act("L2", 2)
            assert event["type"] == "action"
            o_left, g_left = event["game"]["clock"]["remaining"]
            assert 54.5 < o_left <= 55.0 and 59.5 < g_left <= 60  # g's clock runs now
            assert event["game"]["clock"]["running"] == "g"
            clock_time.forward(20)
            event = g.act("L6", 3)
            o_left, g_left = event["game"]["clock"]["remaining"]
            assert 44.5 < g_left <= 45.0 and 54.5 < o_left <= 55.0
    # each action keeps the clocks right after it
    engine = open_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(
            select(ActionRow.notation, ActionRow.clock)
            .where(ActionRow.game_id == game_id)
            .order_by(ActionRow.number)
        ).all()
    engine.dispose()
    assert [n for n, _ in stored] == ["L1", "L7", "L2", "L6"]
    assert all(c is not None and len(c.split(",")) == 2 for _, c in stored)


def test_a_flag_falls_with_nobody_connected(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(client, first="o", clock={"initial": 60, "increment": 0})
        opening(client, game_id, tokens)
        clock_time.forward(61)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["status"] == "over winner g"
        assert game["result"]["reason"] == "time" and game["result"]["by"] == ["o"]
        assert game["clock"]["running"] is None and game["clock"]["remaining"][0] == 0
        # the record says it as every record does (docs/records.md)
        record = client.get(f"/api/games/{game_id}/record").text
        assert '[Termination "time forfeit"]' in record and '[Result "g"]' in record


def test_a_timed_game_nobody_opened_is_not_lost_on_time(db_url, clock_time):
    """Its clock waits for the players; after a day without them the game is aborted."""
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, _) = create(client, first="o", clock={"initial": 10, "increment": 0})
        with connect(client, game_id) as o:
            o.hello(ann)  # one seat opened, the other never
        clock_time.forward(3600)
        game = read(client, game_id)
        assert game["status"] == "playing o insert" and game["clock"]["remaining"] == [10, 10]
        assert game["clock"]["waiting"] == "players"
        clock_time.forward(86_400)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["status"] == "over aborted" and game["result"]["reason"] == "aborted"
        assert game["result"]["winners"] == [] and game["result"]["by"] == ["g"]
        assert game["result"]["waited"] is True  # g did not choose to abort


def test_a_due_seat_that_never_acts_aborts_the_game_after_60_seconds(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 10, "increment": 0})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            clock_time.forward(30)
            o.act("L1", 0)  # o's first action; now g is due
            clock_time.forward(59)
            assert read(client, game_id)["status"] == "playing g insert"
            clock_time.forward(2)
            game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["status"] == "over aborted" and game["result"]["reason"] == "aborted"
        assert game["result"]["winners"] == [] and game["result"]["by"] == ["g"]
        assert game["result"]["waited"] is True  # g did not choose to abort


def test_an_action_after_the_game_was_aborted_for_waiting_is_refused(db_url, clock_time):
    slow_sweep = {**options(clock_time), "flag_sweep_seconds": 3600}
    with client_for(db_url, **slow_sweep) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 0})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            clock_time.forward(61)
            answer = o.act("L1", 0)
            assert answer["type"] == "error" and answer["code"] == "aborted"
        game = read(client, game_id)
        assert game["actions"] == [] and game["status"] == "over aborted"


def test_with_three_players_the_others_share_the_win_on_time(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(
            client, players=3, first="g", clock={"initial": 60, "increment": 0}
        )
        opening(client, game_id, tokens)
        clock_time.forward(61)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["status"] == "over draw o b"
        assert game["result"]["winners"] == ["o", "b"] and game["result"]["by"] == ["g"]


def test_an_action_after_the_flag_fell_is_refused_and_ends_the_game(db_url, clock_time):
    slow_sweep = {**options(clock_time), "flag_sweep_seconds": 3600}
    with client_for(db_url, **slow_sweep) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 0})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L1", 0)
            g.act("L7", 1)
            clock_time.forward(60.5)
            answer = o.act("L2", 2)
            assert answer["type"] == "error" and answer["code"] == "time"
        game = read(client, game_id)
        assert len(game["actions"]) == 2 and game["result"]["reason"] == "time"


def test_an_action_after_another_process_flagged_the_game_is_refused_on_time(db_url, clock_time):
    """The flag fell and another process stored it, but its event has not come here
    yet: the late action is refused with ``time`` (not as a stale game)."""
    slow_sweep = {**options(clock_time), "flag_sweep_seconds": 3600}
    with client_for(db_url, **slow_sweep) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 0})
        hub = client.app.state.hub  # type: ignore[attr-defined]
        live = hub.games[game_id]
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L1", 0)
            g.act("L7", 1)
            clock_time.forward(60.5)
            stopped = live.stored.clock.stopped(hub.now())
            hub.store.terminate(game_id, live.revision, "g", "time", "over winner g", stopped, 0)
            o.send({"type": "act", "action": "L2", "seen": 2})
            answer = o.until(lambda e: e["type"] == "error")
            assert answer["code"] == "time", answer
            assert "o's time has run out" in answer["message"]
        game = read(client, game_id)
        assert len(game["actions"]) == 2 and game["result"]["reason"] == "time"


def test_the_time_the_server_is_down_is_charged_to_nobody(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(client, first="o", clock={"initial": 300, "increment": 0})
        opening(client, game_id, tokens)
        with connect(client, game_id) as o:
            o.hello(tokens[0], seen=2)
            clock_time.forward(100)
            o.act("L2", 2)
    clock_time.forward(50)  # the server is down: nobody's clock runs
    with client_for(db_url, **options(clock_time)) as client:
        clock = read(client, game_id)["clock"]
        assert clock["running"] == "g"
        assert 199.5 < clock["remaining"][0] <= 200.0
        assert 299.0 < clock["remaining"][1] <= 300.0
        assert 49.0 < clock["paused"] < 51.0  # what the players are told
        clock_time.forward(301)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["result"]["reason"] == "time" and game["result"]["by"] == ["g"]


def test_the_pause_is_told_until_the_next_action(db_url, clock_time):
    """Issue 55: ``clock.paused`` says the last downtime until a seat acts after it;
    the action stores it as past (null), for this process and any that reads it."""
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(client, first="o", clock={"initial": 300, "increment": 0})
        version = opening(client, game_id, tokens)
    clock_time.forward(30)  # the server is down
    with client_for(db_url, **options(clock_time)) as client:
        game = read(client, game_id)
        assert 29.0 < game["clock"]["paused"] < 31.0
        seat = COLOURS.index(game["turn"])
        with connect(client, game_id) as player:
            player.hello(tokens[seat], seen=version)
            answer = player.act(game["legal"][0], version)
            assert answer["type"] == "action" and answer["game"]["clock"]["paused"] is None
        assert read(client, game_id)["clock"]["paused"] is None
    with client_for(db_url, **options(clock_time)) as client:  # as stored
        assert read(client, game_id)["clock"]["paused"] is None


def test_a_take_back_gives_no_time_back(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, _) = create(
            client,
            first="o",
            seats=[{"kind": "human"}, {"kind": "computer", "level": 1}],
            clock={"initial": 120, "increment": 0},
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L1", 0)
            o.until(lambda e: e["type"] == "action" and e["version"] == 2)
            clock_time.forward(20)
            o.act("L2", 2)
            o.until(lambda e: e["type"] == "action" and e["version"] == 4)
            o.send({"type": "takeback"})
            event = o.until_type("takeback")
            clock = event["game"]["clock"]
            assert event["version"] == 2 and clock["running"] == "o"
            assert 99.5 < clock["remaining"][0] <= 100.0


def test_the_computer_plays_under_the_clock(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, _ = create(
            client,
            first="g",
            seats=[{"kind": "human"}, {"kind": "computer", "level": 2}],
            clock={"initial": 30, "increment": 0},
        )
        game = wait_for(lambda: read(client, game_id), lambda g: len(g["actions"]) == 1)
        assert game["clock"]["running"] is None  # o's first action is still free
        assert game["clock"]["remaining"][1] == 30  # and so was the computer's


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"initial": 5}, "initial time"),
        ({"initial": 60, "increment": -1}, "increment"),
        ({"days": 40}, "days"),
        ({"initial": 60, "days": 2}, "not both"),
        ({}, "initial seconds"),
        ({"initial": 60, "extra": 1}, "extra"),
    ],
)
def test_a_clock_that_cannot_be_played_is_refused_naming_the_field(db_url, clock, words):
    with client_for(db_url) as client:
        answer = client.post("/api/games", json={"clock": clock})
        assert answer.status_code == 422
        assert answer.json()["field"].startswith("clock") and words in answer.json()["message"]


def test_the_computer_counts_on_no_increment_before_a_scoring() -> None:
    """A scoring never ends the turn: the computer's budget for it has no increment."""
    game = Game(Rules(Variant.EXPERT, 2), first=0)
    for _ in range(4):  # orange builds a1-e1 while green plays on rank 7
        game.play("L1")
        game.play("L7")
    inserting = game.state
    game.play("L1")
    assert game.state.phase is Phase.SCORE
    control = TimeControl(60, 5)
    hub = SimpleNamespace(now=lambda: 0.0)
    players = ComputerPlayers(hub)  # type: ignore[arg-type]
    try:
        for state, increment in ((inserting, 5.0), (game.state, 0.0)):
            live = SimpleNamespace(
                stored=SimpleNamespace(clock=Clock.start(control, 2, 0, 0.0)),
                game=SimpleNamespace(state=state),
            )
            budget = players._budget(live, 0)  # type: ignore[arg-type]
            assert budget == pytest.approx(action_budget(60.0, increment))
    finally:
        players.pool.shutdown()


def test_a_correspondence_first_action_has_the_turns_days(db_url, clock_time):
    with client_for(db_url, **options(clock_time)) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"days": 1})
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
        clock_time.forward(3600)
        clock = read(client, game_id)["clock"]
        assert clock["waiting"] == "first_action" and 82_700 < clock["aborts_in"] <= 82_800
        assert read(client, game_id)["status"] == "playing o insert"


def test_without_a_heartbeat_no_game_is_lost_on_time_for_the_pause(db_url, clock_time):
    """A database with no heartbeat cannot say how long the server was down: each clock
    goes on from what it had when it was last stored."""
    with client_for(db_url, **options(clock_time)) as client:
        game_id, tokens = create(client, first="o", clock={"initial": 60, "increment": 0})
        opening(client, game_id, tokens)
    engine = open_engine(db_url)
    with engine.begin() as connection:
        connection.execute(delete(HeartbeatRow))
    engine.dispose()
    clock_time.forward(100)
    with client_for(db_url, **options(clock_time)) as client:
        game = read(client, game_id)
        assert game["status"] == "playing o insert" and game["clock"]["running"] == "o"
        assert 59.0 < game["clock"]["remaining"][0] <= 60.0
        # the 100 s are the time since the last action, not a known downtime: the page
        # is told of no pause (it would say "The server was down for 100 seconds")
        assert game["clock"]["paused"] is None


def test_while_a_process_lives_the_time_counts_for_one_that_starts(db_url, clock_time):
    """One process stays up (it beats): the server is not down, and a process that
    starts beside it shifts no clock."""
    with client_for(db_url, **options(clock_time)) as first:
        game_id, tokens = create(first, first="o", clock={"initial": 300, "increment": 0})
        opening(first, game_id, tokens)
        started = time.monotonic()  # orange's clock runs from its second action
        clock_time.forward(50)
        beat = clock_time.offset + time.time()
        wait_for(lambda: last_beat(db_url), lambda at: at >= beat)
        with client_for(db_url, **options(clock_time)) as second:
            clock = read(second, game_id)["clock"]
            # the 50 s and the real time the waits took come off, nothing more or less
            spent = 50.0 + (time.monotonic() - started)
            assert 300.0 - spent - 0.5 < clock["remaining"][0] <= 250.0, (clock, spent)
            assert clock["paused"] is None


def last_beat(db_url: str) -> float:
    engine = open_engine(db_url)
    with engine.connect() as connection:
        beat = connection.scalar(select(HeartbeatRow.beat))
    engine.dispose()
    return 0.0 if beat is None else epoch(beat)

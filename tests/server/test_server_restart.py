"""Games survive the server: a new app on the same database goes on where the old one
stopped, a computer that was to act resumes, and a killed ``shiftago serve`` loses
nothing it had announced. Also: the migrations make exactly the ORM's tables."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select, update
from sqlalchemy.exc import OperationalError
from websockets.sync.client import connect as ws_connect

from shiftago.interfaces.server.db.schema import Base, HeartbeatRow, SeatRow
from shiftago.interfaces.server.db.store import (
    DATABASE_AWAY_WORDS,
    epoch,
    migrate,
    open_engine,
)
from shiftago.interfaces.server.games.store import Store
from support.server_support import client_for, connect, create, fresh_database
from support.waiting import wait_until


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def wait_for(read: Any, done: Any, seconds: float = 30.0, log: Any = None) -> Any:
    """The first value of ``read()`` that is ``done`` within ``seconds`` (on failure the
    tail of ``log()``, the server's output, says why)."""
    printed = "" if log is None else (lambda: f"the server printed:\n{log()[-6000:]}\nstill")
    return wait_until(read, done, seconds, printed)


def test_migrations_make_the_orm_tables_and_run_twice(db_url):
    engine = open_engine(db_url)
    migrate(engine)
    migrate(engine)  # nothing to do the second time
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        tables = set(inspect(connection).get_table_names())
    engine.dispose()
    assert diff == []
    assert {"games", "seats", "actions", "alembic_version"} <= tables


def test_a_new_app_on_the_same_database_continues_the_game(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            g.act("Td", 1)
    with client_for(db_url) as client:
        game = client.get(f"/api/games/{game_id}").json()
        assert game["actions"] == ["L3", "Td"] and game["turn"] == "o"
        with connect(client, game_id) as o:
            assert o.hello(ann, seen=2)[0] == {
                "type": "welcome",
                "seat": 0,
                "colour": "o",
                "version": 2,
            }
            assert o.act("R5", 2)["version"] == 3


def test_a_computer_to_act_resumes_after_a_restart(db_url):
    with client_for(db_url, bot_delay=60) as client:  # it would wait a minute to act
        game_id, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
            assert o.until_type("thinking")["seat"] == 1
    with client_for(db_url) as client:
        game = wait_for(
            lambda: client.get(f"/api/games/{game_id}").json(), lambda g: g["version"] == 2
        )
        assert game["turn"] == "o"


def test_a_game_stored_at_a_level_the_ladder_no_longer_has_plays_on(db_url):
    """Games stored when the ladder had 9 levels: their computer plays at the top one."""
    with client_for(db_url, bot_delay=60) as client:
        game_id, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
            assert o.until_type("thinking")["seat"] == 1
    engine = open_engine(db_url)
    with engine.begin() as connection:
        connection.execute(
            update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == 1).values(level=9)
        )
    engine.dispose()
    with client_for(db_url) as client:
        game = wait_for(
            lambda: client.get(f"/api/games/{game_id}").json(), lambda g: g["version"] == 2
        )
        assert game["turn"] == "o"


def test_a_killed_server_keeps_every_announced_action(start_server):
    server = start_server(args=["--public-url", "http://127.0.0.1:1", "--bot-delay", "1"])
    answer = server.api(
        "POST",
        "/api/games",
        json={"first": "o", "seats": [{"kind": "human"}, {"kind": "computer", "level": 1}]},
    )
    assert answer.status_code == 201, answer.text
    data = answer.json()
    assert data["watch_url"].startswith("http://127.0.0.1:1/watch/")
    game_id = data["id"]
    token = data["seats"][0]["join_url"].split("seat=")[1]

    def play(action: str, seen: int, until: str) -> None:
        url = server.url.replace("http", "ws") + f"/ws/games/{game_id}"
        with ws_connect(url, origin="http://127.0.0.1:1") as ws:  # the --public-url
            ws.send(json.dumps({"type": "hello", "token": token, "seen": seen}))
            ws.send(json.dumps({"type": "act", "action": action, "seen": seen}))
            while json.loads(ws.recv(timeout=20))["type"] != until:
                pass

    def read() -> Any:
        return server.api("GET", f"/api/games/{game_id}").json()

    play("L3", 0, "thinking")
    server.kill()  # while the computer thinks
    server.start()
    game = wait_for(read, lambda g: g["version"] == 2, log=server.log)
    assert game["actions"][0] == "L3" and game["turn"] == "o"
    play(game["legal"][0], 2, "action")
    server.kill()
    server.start()
    game = wait_for(read, lambda g: g["version"] == 4, log=server.log)
    assert game["turn"] == "o"


def test_a_plain_postgresql_url_uses_psycopg_3():
    engine = open_engine("postgresql://someone@localhost/shiftago")
    assert engine.dialect.driver == "psycopg"
    engine.dispose()


def _database_away(*args: Any, **kwargs: Any) -> None:
    raise OperationalError("INSERT ...", {}, ConnectionRefusedError("the database is down"))


def test_while_the_database_is_away_changes_answer_503_and_the_socket_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client_for(f"sqlite:///{tmp_path / 'away.db'}") as client:
        game_id, tokens = create(client, first="o")
        with monkeypatch.context() as away:
            away.setattr(Store, "insert", _database_away)
            away.setattr(Store, "append_action", _database_away)
            answer = client.post("/api/games", json={"variant": "express", "players": 2})
            assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
            assert answer.json() == {"message": DATABASE_AWAY_WORDS, "code": "unavailable"}
            with connect(client, game_id) as player:
                player.hello(tokens[0])
                refused = player.act("L1", 0)
                assert refused == {
                    "type": "error",
                    "code": "unavailable",
                    "message": DATABASE_AWAY_WORDS,
                }
                # the same socket plays once the database is back
                away.undo()
                assert player.act("L1", 0)["action"] == "L1"
        assert client.get(f"/api/games/{game_id}").json()["actions"] == ["L1"]


def last_beat(db_url: str) -> float:
    """The server's last heartbeat (0 before the first)."""
    engine = open_engine(db_url)
    with engine.connect() as connection:
        beat = connection.scalar(select(HeartbeatRow.beat))
    engine.dispose()
    return 0.0 if beat is None else epoch(beat)


def test_a_killed_server_charges_nobody_for_its_downtime(start_server, db_url, tmp_path):
    """Killed (no clean stop) and started again 300 s later: every clock shows what it
    showed at the kill, less at most the real time the test took from that reading to
    the next (on a loaded machine the kill and the start take seconds, all of it real
    time), and the game says how long the pause was. The downtime alone would have run
    o's 35 s out. The time moves by the offset file (``--time-offset-file``), not by
    sleeping."""
    offset = tmp_path / "offset"
    offset.write_text("0")
    server = start_server(
        db_url,
        args=["--public-url", "http://127.0.0.1:1", "--time-offset-file", str(offset)],
    )
    answer = server.api(
        "POST", "/api/games", json={"first": "o", "clock": {"initial": 60, "increment": 0}}
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    tokens = [seat["join_url"].split("seat=")[1] for seat in answer.json()["seats"]]
    url = server.url.replace("http", "ws") + f"/ws/games/{game_id}"
    sockets = [ws_connect(url, origin="http://127.0.0.1:1").__enter__() for _ in tokens]
    try:
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token, "seen": 0}))
        for seen, (ws, action) in enumerate(zip(sockets, ("L1", "L7"), strict=True)):
            ws.send(json.dumps({"type": "act", "action": action, "seen": seen}))
            while json.loads(ws.recv(timeout=20)).get("version") != seen + 1:
                pass
    finally:
        for ws in sockets:
            ws.close()

    def clock() -> Any:
        return server.api("GET", f"/api/games/{game_id}").json()["clock"]

    offset.write_text("25")  # o's clock ran 25 s: 35 s left
    moved = time.time() + 25
    wait_for(lambda: last_beat(db_url), lambda beat: beat >= moved, log=server.log)
    read = time.monotonic()
    at_kill = clock()  # as a beat has come since the time moved: as when time flows
    read_at = time.time() + 25  # the server's time, just after it read the clock
    assert at_kill["remaining"][0] <= 35.0
    assert at_kill["running"] == "o"
    down = time.monotonic()
    server.kill()
    # the downtime is counted from the last heartbeat, so what the clock ran between that
    # beat and the read above comes back to it (a loaded machine made it 0.22 s)
    forgiven = max(0.0, read_at - last_beat(db_url))
    offset.write_text("325")  # down for 300 s, and for as long as it takes to start again
    server.start()
    after = clock()
    real = time.monotonic() - read
    down = time.monotonic() - down
    assert after["running"] == "o"
    for before_left, after_left in zip(at_kill["remaining"], after["remaining"], strict=True):
        assert -0.01 - forgiven <= before_left - after_left < 1.0 + real, (at_kill, after)
    assert 299.0 < after["paused"] < 301.0 + down
    game = server.api("GET", f"/api/games/{game_id}").json()
    assert game["status"] == "playing o insert"

"""Every input answers 422 (HTTP) or ``bad_message`` (WebSocket), never 500, with the
same limits on SQLite and PostgreSQL (strict_json.py, storable.py, issue 16)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from shiftago.interfaces.server.db.schema import GameRow, SeatRow
from shiftago.interfaces.server.door.body_size import MAX_BODY_BYTES
from shiftago.interfaces.server.door.protocol import MAX_MESSAGE_BYTES
from shiftago.interfaces.server.door.strict_json import MAX_DEPTH, JsonRefused, loads
from shiftago.interfaces.server.games.routes import MAX_RECORD_CHARS
from support.server_support import Player, client_for, connect, create, fresh_database

START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
NAME_LENGTH = SeatRow.__table__.c.name.type.length
TERMINATION_LENGTH = GameRow.__table__.c.termination.type.length
EVENT_LENGTH = GameRow.__table__.c.event.type.length


class Server:
    """A test client and its database's URL, for a module's tests."""

    def __init__(self, client: TestClient, db_url: str) -> None:
        self.client = client
        self.db_url = db_url

    def games(self) -> int:
        engine = create_engine(self.db_url)
        try:
            with engine.connect() as connection:
                return int(connection.execute(text("SELECT count(*) FROM games")).scalar_one())
        finally:
            engine.dispose()

    def post(self, url: str, content: str) -> Any:
        return self.client.post(url, content=content, headers={"content-type": "application/json"})


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    db_url = fresh_database(request, request.param, tmp_path_factory.mktemp("inputs"))
    # the module's many games within a minute are no crowd: the rate limit has its own tests
    with client_for(db_url, games_per_minute=1_000, imports_per_minute=1_000) as client:
        yield Server(client, db_url)


def refused(answer: Any, field: str, *words: str) -> None:
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["field"] == field, body
    assert body["message"].startswith(f"{field}: ")
    for word in words:
        assert word in body["message"], body


# ---------------------------------------------------------------- JSON that Python reads


ENDPOINTS = [
    ("/api/games", '{"players": 2, "seats": [{"name": @}, {}]}', "seats.0.name"),
    ("/api/games", '{"variant": "express", "seed": @}', "seed"),
    ("/api/games/import", '{"record": "x", "level": @}', "level"),
    ("/api/positions", '{"position": @}', "position"),
    ("/api/positions/play", '{"position": "' + START + '", "action": @}', "action"),
    (
        "/api/positions",
        '{"position": "' + START + '", "extra": [[1, {"deep": @}]]}',
        "extra.0.1.deep",
    ),
    ("/api/games/{id}/analysis", '{"anything": @}', "anything"),
]
BAD_VALUES = [
    ("NaN", "NaN is not a JSON number"),
    ("Infinity", "Infinity is not a JSON number"),
    ("-Infinity", "-Infinity is not a JSON number"),
    ("1e400", "too large"),
    ('"\\ud800"', "lone surrogate"),
    ('"ok \\udfff"', "lone surrogate"),
    ('"\\ud800\\ud800"', "lone surrogate"),
    ('"a\\u0000b"', "NUL character"),
    ('"\\u0000"', "NUL character"),
]


@pytest.mark.parametrize(("url", "body", "field"), ENDPOINTS)
@pytest.mark.parametrize(("value", "words"), BAD_VALUES)
def test_non_finite_numbers_and_lone_surrogates_anywhere_are_422(
    server: Server, url: str, body: str, field: str, value: str, words: str
) -> None:
    if "{id}" in url:
        url = url.format(id=create(server.client)[0])
    before = server.games()
    refused(server.post(url, body.replace("@", value)), field, words)
    assert server.games() == before


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/games", '{"players": "3"}', "players"),
        ("/api/games", '{"players": 3.0}', "players"),
        ("/api/games", '{"public": "yes"}', "public"),
        ("/api/games", '{"public": 1}', "public"),
        ("/api/games", '{"public": "on"}', "public"),
        ("/api/games", '{"handicap": ["1", "0"]}', "handicap.0"),
        ("/api/games", '{"seats": [{}, {"kind": "computer", "level": "3"}]}', "seats.1.level"),
        ("/api/games", '{"clock": {"initial": "300", "increment": 2}}', "clock.initial"),
        ("/api/games", '{"seats": [{"mine": "yes"}, {}]}', "seats.0.mine"),
        ("/api/games/import", '{"record": "x", "public": "true"}', "public"),
        ("/api/seeks", '{"players": "2"}', "players"),
        ("/api/seeks", '{"rated": 1}', "rated"),
    ],
)
def test_a_value_of_another_json_type_is_422_not_read_as_the_field_s(
    server: Server, url: str, body: str, field: str
) -> None:
    """A string "yes" made a game public and "3" made it a 3-player game (an outside
    check of WEBAPI.md): a body's values are read as their own JSON types only."""
    before = server.games()
    refused(server.post(url, body), field)
    assert server.games() == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper"),
        ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "nested deeper"),
        ('{"seed": ' + "1" * 5000 + "}", "too many digits"),
        ('{"players": 2', "not valid JSON"),
        ('{"\\ud800": 1}', "lone surrogate"),
        ("NaN", "NaN"),
    ],
)
def test_the_body_as_a_whole_is_422(server: Server, content: str, words: str) -> None:
    for url in ("/api/games", "/api/games/import", "/api/positions"):
        refused(server.post(url, content), "body", words)


def test_a_body_over_the_bound_is_413_before_it_is_read(server: Server) -> None:
    words = "body: a request body is at most 2 MiB"
    games = server.client.get("/api/games").json()
    large = '{"players": 2, "pad": "' + "x" * MAX_BODY_BYTES + '"}'
    answer = server.post("/api/games", large)
    assert answer.status_code == 413 and answer.json() == {
        "message": words,
        "field": "body",
        "code": "too_large",
    }

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"players": 2, "pad": "'
        for _ in range(MAX_BODY_BYTES // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    streamed = server.client.post(
        "/api/games/import", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and streamed.json()["field"] == "body"
    assert server.client.get("/api/games").json() == games  # nothing was made


def test_the_longest_field_the_api_takes_fits_the_bound(server: Server) -> None:
    # an imported record at its length limit, each character escaped in JSON (six bytes)
    content = '{"record": "' + "\\u00e9" * MAX_RECORD_CHARS + '"}'
    assert MAX_RECORD_CHARS * 6 < len(content) < MAX_BODY_BYTES
    answer = server.post("/api/games/import", content)
    assert answer.status_code == 422 and answer.json()["field"] == "record"  # read, not 413


def test_raw_bytes_that_are_no_utf8_are_422(server: Server) -> None:
    def post(content: bytes) -> Any:
        return server.client.post(
            "/api/games", content=content, headers={"content-type": "application/json"}
        )

    refused(post(b'{"seats": [{"name": "\xed\xa0\x80"}, {}]}'), "seats.0.name", "surrogate")
    refused(post(b'{"seats": [{"name": "\xff"}, {}]}'), "body", "UTF-8")


def test_a_body_without_a_content_type_is_checked_too(server: Server) -> None:
    refused(server.client.post("/api/games", content='{"seed": NaN}'), "seed", "NaN")


def test_good_bodies_still_pass(server: Server) -> None:
    answer = server.post("/api/games", '{"players": 2, "seats": [{"name": "Ann 🎲"}, {}]}')
    assert answer.status_code == 201, answer.text
    assert server.post("/api/positions", '{"position": "' + START + '"}').status_code == 200


def test_loads_reads_json_strictly() -> None:
    assert loads('{"a": [1, 2.5, "é", null, true]}') == {"a": [1, 2.5, "é", None, True]}
    assert loads(b'"\\ud83c\\udfb2"') == "🎲"  # a surrogate pair is one character
    for bad in ("NaN", "[Infinity]", '{"a": -Infinity}', "1e999", '"\\udc00"', "[" * 5000):
        with pytest.raises(JsonRefused):
            loads(bad)


# ---------------------------------------------------------------- what the columns hold


def record(**headers: str) -> str:
    tags = {"Variant": "express", "Players": "2", "First": "o", **headers}
    lines = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    result = tags.get("Result", "*")
    return f"{lines}\n1. L3 2. Td {result}\n"


def import_(server: Server, text_: str) -> Any:
    return server.client.post("/api/games/import", json={"record": text_})


@pytest.mark.parametrize(
    ("headers", "words"),
    [
        ({"Orange": "A" * (NAME_LENGTH + 1)}, f"Orange is longer than {NAME_LENGTH}"),
        ({"Green": "B" * 500}, f"Green is longer than {NAME_LENGTH}"),
        (
            {"Termination": "t" * (TERMINATION_LENGTH + 1), "Result": "g"},
            f"Termination is longer than {TERMINATION_LENGTH}",
        ),
        ({"Event": "e" * (EVENT_LENGTH + 1)}, f"Event is longer than {EVENT_LENGTH}"),
        ({"ActionLimit": str(2**31)}, "ActionLimit is not from"),
        # past any game's limit: the rules refuse it before the column is asked
        ({"ActionLimit": str(2**63)}, "the action limit must be 1 to 1000000000000000000"),
        ({"Seed": str(2**63)}, "Seed is not from"),
        ({"Seed": str(-(2**63) - 1)}, "Seed is not from"),
        ({"Seed": "9" * 100}, "Seed is not from"),
    ],
)
def test_an_imported_record_that_its_columns_cannot_hold_is_422(
    server: Server, headers: dict[str, str], words: str
) -> None:
    before = server.games()
    refused(import_(server, record(**headers)), "record", words)
    assert server.games() == before


@pytest.mark.parametrize(
    "headers",
    [
        {"Orange": "A" * NAME_LENGTH, "Green": "B" * NAME_LENGTH},
        {"Termination": "t" * TERMINATION_LENGTH, "Result": "g"},
        {"Event": "e" * EVENT_LENGTH},
        {"ActionLimit": str(2**31 - 1)},
        {"Seed": str(2**63 - 1)},
    ],
)
def test_a_record_at_the_limits_is_imported(server: Server, headers: dict[str, str]) -> None:
    answer = import_(server, record(**headers))
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    assert server.client.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": [{"name": "A" * (NAME_LENGTH + 1)}, {}]}, "seats.0.name"),
        ({"seed": 2**63}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": 10**100}, "seed"),
        ({"tournament": True, "tournament_target": 2**31}, "tournament_target"),
        ({"players": 2**31}, "players"),
        ({"handicap": [2**31, 0]}, "handicap"),
        ({"seats": [{"kind": "computer", "level": 2**63}, {}]}, "seats.0.level"),
    ],
)
def test_a_new_game_that_its_columns_cannot_hold_is_422(
    server: Server, body: dict[str, Any], field: str
) -> None:
    before = server.games()
    refused(server.client.post("/api/games", json=body), field)
    assert server.games() == before


# ---------------------------------------------------------------- the sockets


NESTED = "[" * 2000 + "]" * 2000  # within the size of a message, deeper than Python's stack
assert len(NESTED) <= MAX_MESSAGE_BYTES


def bad_message_then_alive(player: Player, message: str) -> dict[str, Any]:
    """Send ``message``; the answer is ``bad_message`` and the socket still answers."""
    player.ws.send_text(message)
    event = player.receive()
    assert event["type"] == "error" and event["code"] == "bad_message", event
    player.send({"type": "ping"})
    assert player.until_type("pong") == {"type": "pong"}
    return event


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (NESTED, "nested deeper"),
        ("[" * 100_000 + "]" * 100_000, "at most"),
        ('{"type": "act", "action": "L3", "seen": NaN}', "seen: NaN is not a JSON number"),
        ('{"type": "act", "action": "\\ud800", "seen": 0}', "action: a lone surrogate"),
        ('{"type": "takeback", "tokens": ["\\udfff"]}', "tokens.0: a lone surrogate"),
    ],
)
def test_the_game_socket_answers_bad_message_and_stays_open(
    server: Server, message: str, words: str
) -> None:
    game_id, (ann, _) = create(server.client, first="o")
    with connect(server.client, game_id) as player:
        player.hello(ann)
        assert words in bad_message_then_alive(player, message)["message"]


def test_a_lone_surrogate_in_hello_is_bad_message(server: Server) -> None:
    game_id, _ = create(server.client, first="o")
    with connect(server.client, game_id) as player:
        player.ws.send_text('{"type": "hello", "token": "\\ud800"}')
        event = player.receive()
        assert event["code"] == "bad_message" and "token: a lone surrogate" in event["message"]
        assert player.hello(None)[0]["type"] == "welcome"  # still open, and still to say hello


@pytest.mark.parametrize(
    "message",
    [
        NESTED,
        '{"type": "analyse", "position": "' + START + '", "lines": Infinity}',
        '{"type": "analyse", "position": "\\ud800"}',
    ],
)
def test_the_analysis_socket_answers_bad_message_and_stays_open(
    server: Server, message: str
) -> None:
    with server.client.websocket_connect("/ws/analysis") as ws:
        bad_message_then_alive(Player(ws), message)


def test_the_database_kinds_refuse_alike(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The same record, on each database: refused in the same words before either."""
    answers = []
    for kind in ("sqlite", "postgresql"):
        (tmp_path / kind).mkdir()
        db_url = fresh_database(request, kind, tmp_path / kind)
        with client_for(db_url) as client:
            answer = client.post(
                "/api/games/import", json={"record": record(Orange="A" * (NAME_LENGTH + 1))}
            )
            answers.append((answer.status_code, answer.json()))
    assert answers[0] == answers[1] and answers[0][0] == 422


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/%00",
        "/api/games/a%00b/record",
        "/api/games/%ED%A0%80/steps",
        "/api/games/" + "x" * 5000,
        "/play/%00",
        "/watch/" + "w" * 5000,
    ],
)
def test_a_game_id_that_is_none_is_404(server: Server, path: str) -> None:
    assert server.client.get(path).status_code == 404
    assert server.client.post("/api/games/%00/analysis").status_code == 404


# ---------------------------------------------------------------- paths and queries


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/a%00b",
        "/api/players/a%00b/ratings",
        "/api/games/a%00b/ratings",
        "/api/seeks/a%00b",
        "/api/players/%FF%FE",
        "/players/a%00b",
    ],
)
def test_a_path_that_is_no_text_is_404_in_words(server: Server, path: str) -> None:
    answer = server.client.get(path)
    assert answer.status_code == 404, answer.text
    assert "NUL" in answer.json()["message"]
    assert answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_a_seek_that_is_no_text_is_404(server: Server, method: str) -> None:
    for path in ("/api/seeks/a%00b", "/api/seeks/a%00b/accept"):
        assert server.client.request(method, path, json={}).status_code in (404, 405)


@pytest.mark.parametrize("query", ["player=a%00b", "player=%FF", "a%00=1"])
def test_a_query_that_is_no_text_is_422_naming_it(server: Server, query: str) -> None:
    answer = server.client.get(f"/api/games?{query}")
    field = "query" if query.startswith("a%00") else "player"
    refused(answer, field, "NUL")

"""The web app's HTTP API (WEBAPI.md): creating, reading, records, listing, importing."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shiftago import Game, Rules, Variant
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.server import create_app
from support.server_support import client_for, create, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def test_create_answers_201_with_join_links_for_people_only(db_url):
    with client_for(db_url) as client:
        answer = client.post(
            "/api/games",
            json={
                "variant": "expert",
                "players": 3,
                "handicap": [0, 2, 0],
                "first": "g",
                "seats": [
                    {"name": "Ann", "kind": "human"},
                    {"name": "Ben", "kind": "human"},
                    {"name": "Computer", "kind": "computer", "level": 1},
                ],
            },
        )
        assert answer.status_code == 201
        data = answer.json()
        seats = data["seats"]
        assert [s["colour"] for s in seats] == ["o", "g", "b"]
        assert [s["kind"] for s in seats] == ["human", "human", "computer"]
        assert seats[0]["join_url"].startswith(f"http://testserver/play/{data['id']}?seat=")
        assert seats[0]["join_url"] != seats[1]["join_url"]
        assert "join_url" not in seats[2]
        assert data["watch_url"] == f"http://testserver/watch/{data['id']}"
        assert len(data["id"]) >= 12


def test_read_a_game_has_the_contract_fields_and_no_secret(db_url):
    with client_for(db_url) as client:
        game_id, tokens = create(client, players=2, first="o")
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 200
        game = answer.json()
        for key in ("id", "variant", "players", "seats", "position", "actions", "status"):
            assert key in game
        assert game["status"] == "playing o insert"
        assert game["position"].startswith("express 2 7/7/7/7/7/7/7 o insert")
        assert game["actions"] == []
        assert game["seats"][0] == {
            "colour": "o",
            "name": "Orange",
            "kind": "human",
            "level": None,
            "connected": False,
            "account": None,
            "guest": True,
        }
        assert game["created"].startswith("20") and "T" in game["created"]
        assert "Td" in game["legal"] and game["turn"] == "o" and game["result"] is None
        for token in tokens:
            assert token is not None and token not in answer.text


def test_unknown_game_is_404(db_url):
    with client_for(db_url) as client:
        assert client.get("/api/games/nosuchgame1").status_code == 404
        assert client.get("/api/games/nosuchgame1/record").status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": 5}, "players"),
        ({"variant": "chess"}, "variant"),
        ({"players": 3, "seats": [{"kind": "human"}]}, "seats"),
        ({"handicap": [0, 1, 2]}, "handicap"),
        ({"handicap": [0, 9]}, "handicap"),
        ({"first": "w"}, "first"),
        ({"seats": [{"kind": "human"}, {"kind": "computer", "level": 99}]}, "seats.1.level"),
        ({"seats": [{"kind": "human", "level": 1}, {"kind": "human"}]}, "seats.0.level"),
        ({"seats": [{"kind": "human", "name": "a\nb"}, {"kind": "human"}]}, "seats.0.name"),
        ({"seats": [{"kind": "alien"}, {"kind": "human"}]}, "seats.0.kind"),
        ({"variant": "expert", "tournament": True}, "tournament"),
        ({"colour": "o"}, "colour"),
    ],
)
def test_invalid_input_answers_422_naming_the_field(db_url, body, field):
    with client_for(db_url) as client:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 422
        assert answer.json()["field"] == field
        assert answer.json()["message"].startswith(f"{field}: ")


def test_first_may_be_a_colour_name_and_the_lot_is_seeded(db_url):
    with client_for(db_url) as client:
        game_id, _ = create(client, first="green")
        assert client.get(f"/api/games/{game_id}").json()["turn"] == "g"
        a, _ = create(client, seed=7)
        b, _ = create(client, seed=7)
        assert (
            client.get(f"/api/games/{a}").json()["turn"]
            == (client.get(f"/api/games/{b}").json()["turn"])
        )


def test_record_as_text_and_json(db_url):
    with client_for(db_url) as client:
        game_id, _ = create(
            client,
            first="o",
            seats=[{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
        )
        text = client.get(f"/api/games/{game_id}/record")
        assert text.status_code == 200
        assert text.headers["content-type"].startswith("text/plain")
        record = parse_record(text.text)
        assert record.names == ("Ann", "Computer") and record.levels == (None, 1)
        as_json = client.get(f"/api/games/{game_id}/record", headers={"Accept": "application/json"})
        assert as_json.json()["seats"][0]["name"] == "Ann"
        assert as_json.json()["result"] == "*"
        # media types are read in any case, and their q decides (an outside check)
        for accept, kind in [
            ("APPLICATION/JSON", "application/json"),
            ("application/json;q=0.1, text/plain", "text/plain"),
            ("text/plain;q=0.5, application/json", "application/json"),
            ("*/*", "text/plain"),
        ]:
            answer = client.get(f"/api/games/{game_id}/record", headers={"Accept": accept})
            assert answer.headers["content-type"].startswith(kind), accept


def test_public_listing_never_shows_private_games_or_seat_links(db_url):
    with client_for(db_url) as client:
        public_id, public_tokens = create(client, public=True)
        private_id, _ = create(client)
        answer = client.get("/api/games?public=true")
        assert answer.status_code == 200
        ids = [g["id"] for g in answer.json()["games"]]
        assert public_id in ids and private_id not in ids
        assert all(t not in answer.text for t in public_tokens if t)
        assert "join_url" not in answer.text and "seat=" not in answer.text
        assert client.get("/api/games?public=false").status_code == 422


def test_import_a_record_as_a_new_game(db_url):
    with client_for(db_url) as client:
        record = '[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L3 2. Td 3. R5 *\n'
        answer = client.post("/api/games/import", json={"record": record})
        assert answer.status_code == 201, answer.text
        game = client.get(f"/api/games/{answer.json()['id']}").json()
        assert game["actions"] == ["L3", "Td", "R5"] and game["turn"] == "g"
        bad = client.post("/api/games/import", json={"record": record.replace("R5", "Q9")})
        assert bad.status_code == 422 and bad.json()["field"] == "record"
        # the reason, in English and in the request's language, to mend the text by
        headless = client.post(
            "/api/games/import",
            json={"record": "1. L1 2. Zz9 *"},
            headers={"Accept-Language": "de"},
        ).json()
        assert headless["code"] == "invalid" and headless["message"].startswith("record: ")
        assert headless["words"] and headless["words"] not in headless["message"]
        none = client.post(
            "/api/games/import", json={"record": "hello"}, headers={"Accept-Language": "de"}
        )
        assert none.json()["words"].startswith("Zeile 1: 'hello' vor jeder Kopfzeile")


def test_an_imported_record_comes_back_as_it_was_imported(db_url):
    """Its Event and Date stay (a restart too), and no Seed is made up beside its First
    (a seed that would draw another first seat)."""
    record = (
        '[Event "Club night"]\n[Date "2025-01-02"]\n[Variant "expert"]\n[Players "3"]\n'
        '[Handicap "0,2,0"]\n[First "o"]\n\n1. Td 2. L1 3. L7 *\n'
    )
    with client_for(db_url) as client:
        game_id = client.post("/api/games/import", json={"record": record}).json()["id"]
    with client_for(db_url) as client:
        text = client.get(f"/api/games/{game_id}/record").text
    assert '[Event "Club night"]' in text and '[Date "2025-01-02"]' in text
    assert "[Seed" not in text
    back, sent = parse_record(text), parse_record(record)
    assert replace(back, seats=()) == replace(sent, seats=())  # seats get names here


def test_import_takes_the_json_form_the_api_gives(tmp_path: Path):
    sqlite_url = f"sqlite:///{tmp_path / 'api.db'}"
    with client_for(sqlite_url) as client:
        record = '[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L3 2. Td 3. R5 *\n'
        first = client.post("/api/games/import", json={"record": record}).json()["id"]
        as_json = client.get(f"/api/games/{first}/record", headers={"Accept": "application/json"})
        again = client.post("/api/games/import", json={"record": as_json.text})
        assert again.status_code == 201, again.text
        game = client.get(f"/api/games/{again.json()['id']}").json()
        assert game["actions"] == ["L3", "Td", "R5"]
        two = client.post("/api/games/import", json={"record": f"[{as_json.text}, {as_json.text}]"})
        assert two.status_code == 422 and "import one at a time" in two.json()["message"]
        broken = client.post("/api/games/import", json={"record": '{"variant": "express",'})
        assert broken.status_code == 422 and "not JSON" in broken.json()["message"]


def test_levels_and_openapi_docs(db_url):
    with client_for(db_url) as client:
        levels = client.get("/api/levels").json()
        assert levels["levels"][0]["level"] == 1 and levels["default"] >= 1
        docs = client.get("/docs")
        assert docs.status_code == 200
        # Swagger UI's files come from this server, not a CDN
        assert '"/api-docs/swagger-ui-bundle.js"' in docs.text and "cdn." not in docs.text
        bundle = client.get("/api-docs/swagger-ui-bundle.js")
        assert bundle.status_code == 200 and "SwaggerUIBundle" in bundle.text
        assert client.get("/api-docs/swagger-ui.css").status_code == 200
        assert client.get("/redoc").status_code == 404  # ReDoc would need its CDN
        assert "/api/games" in client.get("/openapi.json").json()["paths"]


def test_join_links_follow_public_url_else_the_listening_address(tmp_path):
    db = f"sqlite:///{tmp_path / 'a.db'}"
    with client_for(db, public_url="https://shiftago.example.org/") as client:
        answer = client.post("/api/games", json={"seats": [{}, {}]}).json()
        assert answer["watch_url"].startswith("https://shiftago.example.org/watch/")
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "localhost"}
    with TestClient(create_app(db), client=("127.0.0.1", 40000)) as client:  # a trusted proxy
        answer = client.post("/api/games", json={}, headers=headers).json()
        # never the (forwarded) Host: the address the connection reached
        assert answer["seats"][0]["join_url"].startswith("http://testserver/play/")
    with TestClient(create_app(db), client=("203.0.113.9", 40000)) as client:  # anyone else
        answer = client.post("/api/games", json={}, headers=headers).json()
        assert answer["seats"][0]["join_url"].startswith("http://testserver/play/")


def test_pages_are_served_from_the_web_folder(tmp_path):
    web = tmp_path / "web"
    (web / "static").mkdir(parents=True)
    for name in ("index.html", "game.html", "howto.html", "analysis.html"):
        (web / name).write_text(f"<title>{name}</title>")
    (web / "static" / "app.js").write_text("// js")
    with client_for(f"sqlite:///{tmp_path / 'p.db'}", web_dir=web) as client:
        game_id, _ = create(client)
        assert "index.html" in client.get("/").text
        assert "game.html" in client.get(f"/play/{game_id}?seat=x").text
        assert "game.html" in client.get(f"/watch/{game_id}").text
        assert "howto.html" in client.get("/how-to-play").text
        assert "analysis.html" in client.get("/analysis").text
        assert client.get("/static/app.js").text == "// js"
        assert client.get("/static/missing.js").status_code == 404


@pytest.mark.parametrize("page_file", [True, False])
def test_unknown_pages_and_games_answer_a_404_page(tmp_path, page_file):
    web = tmp_path / "web"
    (web / "static").mkdir(parents=True)
    (web / "game.html").write_text("<title>game.html</title>")
    if page_file:
        (web / "404.html").write_text("<title>Lost</title>")
    with client_for(f"sqlite:///{tmp_path / 'p.db'}", web_dir=web) as client:
        for path in ("/nowhere", "/play/nosuchgame1", "/watch/nosuchgame1", "/a/b/c.html"):
            answer = client.get(path)
            assert answer.status_code == 404, path
            assert answer.headers["content-type"].startswith("text/html")
            if page_file:
                assert answer.text == "<title>Lost</title>"
            else:
                assert "not there" in answer.text
        for path in ("/api/nowhere", "/api/games/nosuchgame1", "/api/games/nosuchgame1/steps"):
            answer = client.get(path)
            assert answer.status_code == 404, path
            assert answer.headers["content-type"] == "application/json"
        assert client.post("/nowhere").status_code in (404, 405)


def test_steps_are_every_position_of_the_game(db_url):
    rng = random.Random(5)
    game = Game(Rules(Variant.EXPERT, 3), first=1)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    text = format_record(Record.from_game(game))
    with client_for(db_url) as client:
        answer = client.post("/api/games/import", json={"record": text})
        assert answer.status_code == 201, answer.text
        steps = client.get(f"/api/games/{answer.json()['id']}/steps").json()["steps"]
        fresh, _ = create(client, first="o")
        assert client.get(f"/api/games/{fresh}/steps").json() == {
            "steps": [{"step": 0, "position": Game(Rules(), first=0).position(), "last": None}]
        }
    assert [s["step"] for s in steps] == list(range(len(game.states)))
    assert [s["position"] for s in steps] == [state.position() for state in game.states]
    assert [s["last"] for s in steps] == [None, *(str(a) for a in game.history)]


def test_serve_command_defaults_to_a_sqlite_file_in_the_data_directory(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import shiftago.interfaces.server as server
    from shiftago.interfaces.cli import cli

    calls = []
    monkeypatch.setattr(server, "run", lambda **kwargs: calls.append(kwargs))
    monkeypatch.setenv("SHIFTAGO_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(cli, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
    settings = calls[0].pop("settings")
    assert calls == [
        {
            "host": "127.0.0.1",
            "port": 8123,
            "db_url": f"sqlite:///{tmp_path / 'home' / 'server.db'}",
        }
    ]
    assert settings.public_url is None and settings.redis_url is None
    assert settings.bot_delay == 0.4
    assert settings.trusted_proxies == ("127.0.0.1", "::1")

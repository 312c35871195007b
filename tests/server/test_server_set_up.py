"""A new game set up from a position: ``POST /api/games`` with ``"position"``."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.server_support import client_for

#: Orange must score the line on rank 1 first (docs/records.md's set-up game).
SCORE_FIRST = "expert 3 7/7/7/7/7/7/3oooo o score 18,22,22 0,0,0 0,0,0"
#: An Express game in its middle, green to insert.
MIDDLE = "express 2 7/7/7/7/o6/7/7 g insert 21,22 0,0 0,0"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'set_up.db'}"


def test_a_game_starts_from_the_position_and_records_it(db_url):
    with client_for(db_url) as client:
        answer = client.post(
            "/api/games",
            json={
                "position": SCORE_FIRST,
                "seats": [
                    {"kind": "human"},
                    {"kind": "computer", "level": 1},
                    {"kind": "computer", "level": 1},
                ],
            },
        )
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        assert "join_url" in answer.json()["seats"][0]
        game = client.get(f"/api/games/{game_id}").json()
        assert game["variant"] == "expert" and game["players"] == 3
        assert game["position"] == SCORE_FIRST and game["actions"] == []
        assert game["turn"] == "o" and "xd1-g1" in game["legal"]
        record = client.get(f"/api/games/{game_id}/record").text
        assert f'[Position "{SCORE_FIRST}"]' in record and "[First" not in record
        steps = client.get(f"/api/games/{game_id}/steps").json()["steps"]
        assert steps[0]["position"] == SCORE_FIRST


def test_the_variant_and_players_may_be_named_if_they_agree(db_url):
    with client_for(db_url) as client:
        answer = client.post(
            "/api/games", json={"position": MIDDLE, "variant": "Express", "players": 2}
        )
        assert answer.status_code == 201, answer.text
        game = client.get(f"/api/games/{answer.json()['id']}").json()
        assert game["position"] == MIDDLE and game["turn"] == "g"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"position": "express 2 7/7/7"}, "position", "position"),
        ({"position": "expert 2 8/7/7/7/7/7/7 o insert 22,22 0,0 0,0"}, "position", ""),
        ({"position": MIDDLE, "variant": "expert"}, "variant", "a game of express"),
        ({"position": MIDDLE, "players": 3}, "players", "2 players"),
        ({"position": MIDDLE, "first": "o"}, "first", "whose turn"),
        ({"position": MIDDLE, "handicap": [0, 1]}, "handicap", "skipped"),
        ({"position": MIDDLE, "tournament": True}, "tournament", "empty board"),
        ({"position": "x" * 500}, "position", ""),
    ],
)
def test_a_bad_position_is_422_naming_the_field_and_makes_no_game(db_url, body, field, words):
    with client_for(db_url) as client:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == field
        assert words in answer.json()["message"]
        assert client.get("/api/games?limit=100").json()["games"] == []


def test_a_position_that_is_over_is_refused(db_url):
    over = "express 2 gggg3/7/7/7/7/7/o3o2 o insert 0,18 0,0 0,0"  # no marble left
    with client_for(db_url) as client:
        answer = client.post("/api/games", json={"position": over})
        assert answer.status_code == 422
        assert answer.json()["field"] == "position"
        assert "over" in answer.json()["message"]

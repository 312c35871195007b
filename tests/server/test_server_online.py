"""Online play end to end through the API: two accounts, a rated 3+2 challenge
accepted, the game played until a flag falls (the server's time moved by an offset
file), and both ratings changed by exactly Glicko-2's amounts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_server_clock import Time, options, read, wait_for

from shiftago.match.glicko2 import Glicko, rate_game
from support.server_support import client_for, connect, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def sign_up(client: Any, name: str) -> dict[str, str]:
    """A new account; the headers of its signed-in requests (cookie and CSRF token)."""
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    session, csrf = client.cookies["shiftago_session"], client.cookies["csrf"]
    client.cookies.clear()
    return {"Cookie": f"shiftago_session={session}; csrf={csrf}", "X-CSRF-Token": csrf}


def token_of(join_url: str) -> str:
    return join_url.split("?seat=")[1]


def test_a_rated_challenge_played_until_a_flag_falls_rates_both_by_glicko2(
    db_url: str, tmp_path: Path
) -> None:
    clock_time = Time(tmp_path / "offset")
    with client_for(db_url, **options(clock_time)) as client:
        ann, ben = sign_up(client, "ann"), sign_up(client, "ben")
        seek = client.post(
            "/api/seeks",
            json={"variant": "express", "players": 2, "clock": {"initial": 180, "increment": 2},
                  "rated": True},
            headers=ann,
        )  # fmt: skip
        assert seek.status_code == 201, seek.text
        seek_id, ann_token = seek.json()["id"], seek.json()["token"]
        listed = client.get("/api/seeks").json()["seeks"]
        assert [s["id"] for s in listed] == [seek_id]

        accepted = client.post(f"/api/seeks/{seek_id}/accept", json={}, headers=ben)
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["id"]
        ben_url = next(s["join_url"] for s in accepted.json()["seats"] if "join_url" in s)
        status = client.get(f"/api/seeks/{seek_id}", params={"token": ann_token}).json()
        assert status["status"] == "filled" and status["game"]["id"] == game_id
        ann_url = next(s["join_url"] for s in status["game"]["seats"] if "join_url" in s)
        assert client.get("/api/seeks").json()["seeks"] == []

        game = read(client, game_id)
        assert game["rated"] is True and game["clock"]["control"] == "3+2"
        assert sorted(s["account"] for s in game["seats"]) == ["ann", "ben"]
        first = game["turn"]
        tokens = {token_of(ann_url), token_of(ben_url)}
        seat_of = {}
        with connect(client, game_id) as a, connect(client, game_id) as b:
            for player, token in zip((a, b), tokens, strict=True):
                welcome = player.hello(token)[0]
                seat_of[welcome["colour"]] = player
            # two actions each way, then the one to act lets the clock run out
            script = ["L1", "L7", "L2", "L6"]
            for n, action in enumerate(script):
                to_act = read(client, game_id)["turn"]
                assert seat_of[to_act].act(action, n)["type"] == "action"
        loser = read(client, game_id)["turn"]
        assert loser == first
        clock_time.forward(200)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["result"]["reason"] == "time" and game["result"]["by"] == [loser]

        changes = wait_for(
            lambda: client.get(f"/api/games/{game_id}/ratings").json()["changes"],
            lambda c: len(c) == 2,
        )
        names = {s["colour"]: s["account"] for s in game["seats"]}
        winner_name = next(n for c, n in names.items() if c != loser)
        loser_name = names[loser]
        won, lost = rate_game(Glicko(), Glicko(), 1.0)
        for name, expected in ((winner_name, won), (loser_name, lost)):
            player = client.get(f"/api/players/{name}").json()
            rating = player["ratings"]["express-2"]
            # the API shows ratings to two decimals
            assert rating["rating"] == round(expected.rating, 2)
            assert rating["deviation"] == round(expected.deviation, 2)
            assert rating["games"] == 1 and player["games"][0] == game_id
        by_name = {c["name"]: c for c in changes}
        assert by_name[winner_name]["after"] > by_name[winner_name]["before"] == 1500
        assert by_name[loser_name]["after"] < 1500
        # a rated challenge lists its player's rating as the player's page shows it
        headers = {"ann": ann, "ben": ben}[winner_name]
        again = client.post(
            "/api/seeks",
            json={"variant": "express", "players": 2, "clock": None, "rated": True},
            headers=headers,
        )
        assert again.status_code == 201, again.text
        [listed] = client.get("/api/seeks").json()["seeks"]
        assert listed["places"][0]["rating"] == round(won.rating, 2) != won.rating


def test_a_rated_game_whose_first_seat_never_acts_is_aborted_unrated(tmp_path: Path) -> None:
    # a rated challenge whose player to act never came: the game is aborted 60 s after
    # the seek filled (WEBAPI, "Clocks"), nobody wins or loses, nothing is rated
    clock_time = Time(tmp_path / "offset")
    with client_for(f"sqlite:///{tmp_path / 'g.db'}", **options(clock_time)) as client:
        ann, ben = sign_up(client, "ann"), sign_up(client, "ben")
        body = {"variant": "express", "players": 2, "clock": {"initial": 60, "increment": 0}}
        seek = client.post("/api/seeks", json={**body, "rated": True}, headers=ann).json()
        game_id = client.post(f"/api/seeks/{seek['id']}/accept", json={}, headers=ben).json()["id"]
        clock_time.forward(100)
        game = wait_for(lambda: read(client, game_id), lambda g: g["status"].startswith("over"))
        assert game["result"]["reason"] == "aborted" and game["actions"] == []
        assert game["status"] == "over aborted" and game["result"]["winners"] == []
        assert client.get(f"/api/games/{game_id}/ratings").json() == {"changes": []}
        for name in ("ann", "ben"):
            assert client.get(f"/api/players/{name}").json()["ratings"]["express-2"]["games"] == 0

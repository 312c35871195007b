"""Games that follow the account (WEBAPI.md, "Games of an account"): a seat taken while
signed in belongs to the account, ``GET /api/account/games`` lists it, and the session
opens the seat in another browser; a seat token keeps working for guests."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from support.accounts_support import as_account, games, seat, sign_up
from support.server_support import client_for, create, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shiftago.db'}"


def test_games_of_an_account_need_a_session(sqlite_url):
    with client_for(sqlite_url) as client:
        answer = client.get("/api/account/games")
        assert answer.status_code == 401
        assert answer.json()["code"] == "signed_out"


def test_a_seat_taken_while_signed_in_follows_the_account_to_another_browser(db_url):
    with client_for(db_url) as client:
        ann = sign_up(client, "ann")
        game_id, (orange, green) = create(client, first="o")
        with as_account(client, ann):
            assert games(client) == {"playing": [], "recent": []}
            with seat(client, game_id, orange) as (_, welcome):
                assert welcome["seat"] == 0
            listed = games(client)
        assert listed["recent"] == []
        (ref,) = listed["playing"]
        assert set(ref) == {"id", "variant", "players", "colour", "url", "to_act", "updated"}
        assert ref["id"] == game_id and ref["colour"] == "o" and ref["to_act"] is True
        assert ref["variant"] == "express" and ref["players"] == 2
        assert ref["url"].endswith(f"/play/{game_id}") and "seat=" not in ref["url"]
        # another browser: the same account, no token; the session is the credential
        with as_account(client, ann), seat(client, game_id, None) as (player, welcome):
            assert welcome["seat"] == 0 and welcome["colour"] == "o"
            assert player.act("L3", 0)["version"] == 1
            assert games(client)["playing"][0]["to_act"] is False
        # the guest's seat token still plays the other seat, and does not join the account
        with seat(client, game_id, green) as (player, welcome):
            assert welcome["seat"] == 1
            assert player.act("Td", 1)["version"] == 2
        view = client.get(f"/api/games/{game_id}").json()
        assert [s.get("account") for s in view["seats"]] == ["ann", None]
        # the seat was left unnamed: it took the account's name; the guest's keeps its
        assert [s["name"] for s in view["seats"]] == ["ann", "Green"]


def test_a_seat_named_by_its_maker_keeps_its_name_when_an_account_takes_it(sqlite_url):
    with client_for(sqlite_url) as client:
        ben = sign_up(client, "ben")
        people = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Benno"}]
        game_id, (_, green) = create(client, first="o", seats=people)
        with as_account(client, ben), seat(client, game_id, green) as (_, welcome):
            assert welcome["seat"] == 1
        view = client.get(f"/api/games/{game_id}").json()
        assert [(s["name"], s.get("account")) for s in view["seats"]] == [
            ("Ann", None),
            ("Benno", "ben"),
        ]


def test_a_rematch_sends_a_browser_that_plays_by_the_account_to_its_seat(sqlite_url):
    """The browser that holds the seat's link gets the new game's link; another browser
    of the same account, which plays by its session, gets the new game's page to play
    (not the spectators')."""
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        game_id, (orange, green) = create(client, first="o")
        with (
            as_account(client, ann),
            seat(client, game_id, orange) as (linked, _),
            seat(client, game_id, None) as (by_session, welcome),
            seat(client, game_id, green, account=False) as (ben, _),
        ):
            assert welcome["seat"] == 0
            ben.send({"type": "resign"})
            linked.until_type("state")
            linked.send({"type": "rematch"})
            ben.send({"type": "rematch"})
            found = [p.until_type("rematch") for p in (linked, by_session, ben)]
        next_id = found[0]["id"]
        assert found[0]["url"].startswith(f"/play/{next_id}?seat=")
        assert found[1]["url"] == f"/play/{next_id}"
        assert found[2]["url"].startswith(f"/play/{next_id}?seat=")
        seats = client.get(f"/api/games/{next_id}").json()["seats"]
        assert [s.get("account") for s in seats] == ["ann", None]


def test_without_the_account_flag_or_a_seat_a_signed_in_player_watches(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        ben = sign_up(client, "ben")
        game_id, (orange, _green) = create(client, first="o")
        with as_account(client, ann), seat(client, game_id, orange):
            pass
        with as_account(client, ann), seat(client, game_id, None, account=False) as (p, w):
            assert w["seat"] is None  # the watch page
            assert p.act("L3", 0)["code"] == "not_seated"
        with as_account(client, ben), seat(client, game_id, None) as (_, welcome):
            assert welcome["seat"] is None  # ben holds no seat of it
        with as_account(client, ben):
            assert games(client)["playing"] == []


def test_one_account_takes_one_seat_of_a_game_played_on_one_screen(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        game_id, (orange, green) = create(client, first="o")
        with as_account(client, ann):
            with (
                seat(client, game_id, orange) as (_, first),
                seat(client, game_id, green) as (_, second),
            ):
                assert (first["seat"], second["seat"]) == (0, 1)
            (ref,) = games(client)["playing"]
        assert ref["colour"] == "o"
        view = client.get(f"/api/games/{game_id}").json()
        assert [s.get("account") for s in view["seats"]] == ["ann", None]


def test_a_finished_game_moves_to_recent_newest_first(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        older, (o1, _) = create(client, first="o")
        newer, (o2, _) = create(client, first="o")
        with as_account(client, ann):
            with seat(client, older, o1) as (player, _):
                player.send({"type": "resign"})
                player.until(lambda e: e["type"] == "state" and e["game"].get("result"))
            with seat(client, newer, o2):
                pass
            listed = games(client)
        assert [g["id"] for g in listed["playing"]] == [newer]
        assert [g["id"] for g in listed["recent"]] == [older]
        assert listed["recent"][0]["to_act"] is False


def test_a_foreign_page_cannot_play_the_account_s_seat_with_its_cookie(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        game_id, (orange, _green) = create(client, first="o")
        with as_account(client, ann):
            with seat(client, game_id, orange):
                pass
            with (
                pytest.raises(WebSocketDisconnect) as closed,
                client.websocket_connect(
                    f"/ws/games/{game_id}", headers={"origin": "http://evil.example"}
                ),
            ):
                pass
        assert closed.value.code == 1008  # refused before the upgrade: the session unread
        assert client.get(f"/api/games/{game_id}").json()["actions"] == []


def made(client, ann, seats, status=201):
    """``POST /api/games`` of a 2-player Express game while signed in as ``ann``."""
    with as_account(client, ann):
        answer = client.post(
            "/api/games",
            json={"variant": "express", "players": len(seats), "seats": seats},
            headers={"X-CSRF-Token": ann["csrf"]},
        )
        assert answer.status_code == status, answer.text
        return answer.json()


def test_a_game_made_while_signed_in_gives_its_maker_the_seat_it_takes(db_url):
    """WEBAPI.md: "A seat taken while signed in (by creating the game, ...) belongs to the
    account." A game against the computer made through the API was on nobody's page."""
    with client_for(db_url) as client:
        ann = sign_up(client, "ann")
        vs_computer = made(client, ann, [{"kind": "human"}, {"kind": "computer", "level": 1}])
        marked = made(
            client, ann, [{"kind": "human", "name": "Ben"}, {"kind": "human", "mine": True}]
        )
        for_a_friend = made(
            client, ann, [{"kind": "human", "mine": False}, {"kind": "computer", "level": 1}]
        )
        at_one_screen = made(client, ann, [{"kind": "human"}, {"kind": "human"}])
        with as_account(client, ann):
            listed = {ref["id"]: ref["colour"] for ref in games(client)["playing"]}
        assert listed == {vs_computer["id"]: "o", marked["id"]: "g"}
        views = {
            game["id"]: client.get(f"/api/games/{game['id']}").json()["seats"]
            for game in (vs_computer, marked, for_a_friend, at_one_screen)
        }
        assert [(s["name"], s.get("account")) for s in views[marked["id"]]] == [
            ("Ben", None),
            ("ann", "ann"),
        ]
        assert all(s.get("account") is None for s in views[for_a_friend["id"]])
        assert all(s.get("account") is None for s in views[at_one_screen["id"]])
        # signed out, the same body makes a game of nobody's
        guest = client.post(
            "/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "computer", "level": 1}]},
        ).json()
        seats = client.get(f"/api/games/{guest['id']}").json()["seats"]
        assert all(s.get("account") is None for s in seats)


def test_the_maker_s_seat_is_one_person_s(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        two = made(client, ann, [{"mine": True}, {"kind": "human", "mine": True}], status=422)
        assert two["field"] == "seats"
        computer = [{"kind": "computer", "level": 1, "mine": True}, {"kind": "human"}]
        assert made(client, ann, computer, status=422)["field"] == "seats.0.mine"
        with as_account(client, ann):
            assert games(client)["playing"] == []

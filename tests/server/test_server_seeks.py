"""Open challenges (seeks) through the API and the lobby's socket (WEBAPI.md, "Players";
docs/web-protocol.md, "Open challenges"): made, listed, accepted seat by seat, raced
for, refused, left, and swept."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from shiftago.interfaces.server.db.schema import RatingRow
from shiftago.interfaces.server.db.store import MIGRATIONS, migrate, open_engine, token_hash
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.seeks import challenges as seeks_module
from shiftago.interfaces.server.seeks import feed as lobby_feed
from shiftago.interfaces.server.seeks.challenges import Seeks
from shiftago.interfaces.server.seeks.store import SeekStore, _place_row
from support.server_support import Player, client_for, connect, fresh_database, open_socket


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shiftago.db'}"


@dataclass
class Person:
    """A signed-in player: the cookies and the CSRF header of its session."""

    name: str
    cookies: dict[str, str]

    @property
    def headers(self) -> dict[str, str]:
        return {"X-CSRF-Token": self.cookies["csrf"]}


def sign_up(client: TestClient, name: str) -> Person:
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": "a long password"})
    assert answer.status_code == 201, answer.text
    person = Person(name, dict(client.cookies.items()))
    client.cookies.clear()
    return person


@contextmanager
def signed_in_as(client: TestClient, person: Person | None) -> Iterator[dict[str, str]]:
    """The client with ``person``'s cookies (none: a guest); the headers to send."""
    client.cookies.clear()
    for key, value in (person.cookies if person else {}).items():
        client.cookies.set(key, value)
    try:
        yield person.headers if person else {}
    finally:
        client.cookies.clear()


def new_seek(client: TestClient, **body: Any) -> tuple[str, str]:
    body.setdefault("variant", "express")
    body.setdefault("players", 2)
    answer = client.post("/api/seeks", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], data["token"]


def token_of(url: str) -> str:
    return url.split("?seat=")[1]


def own_link(game: dict[str, Any]) -> str:
    links = [seat["join_url"] for seat in game["seats"] if "join_url" in seat]
    assert len(links) == 1, game  # the asker's seat's link only
    return str(links[0])


def seeks_of(client: TestClient) -> Seeks:
    seeks: Seeks = client.app.state.seeks  # type: ignore[attr-defined]
    return seeks


@contextmanager
def lobby(client: TestClient) -> Iterator[Player]:
    with client.websocket_connect("/ws/lobby") as ws:
        player = Player(ws)
        assert player.receive()["type"] == "seeks"
        yield player


def hold(player: Player, token: str) -> dict[str, Any]:
    player.send({"type": "hold", "token": token})
    return player.until(lambda e: e["type"] in ("held", "filled", "seek_gone", "error"))


def test_a_two_player_seek_is_listed_accepted_and_played_with_its_clock(db_url):
    with client_for(db_url) as client:
        seek_id, token = new_seek(
            client, variant="expert", clock={"initial": 180, "increment": 2}, name="Ann"
        )
        listed = client.get("/api/seeks").json()["seeks"]
        assert [s["id"] for s in listed] == [seek_id]
        assert listed[0]["clock"] == {"initial": 180, "increment": 2}
        assert listed[0]["places"] == [{"name": "Ann"}]
        assert listed[0]["rated"] is False and listed[0]["variant"] == "expert"
        assert client.get(f"/api/seeks/{seek_id}", params={"token": token}).json()["status"] == (
            "open"
        )

        accepted = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Ben"})
        assert accepted.status_code == 201, accepted.text
        game = accepted.json()
        ben = token_of(own_link(game))
        assert game["watch_url"].endswith(f"/watch/{game['id']}")

        status = client.get(f"/api/seeks/{seek_id}", params={"token": token}).json()
        assert status["status"] == "filled" and status["game"]["id"] == game["id"]
        ann = token_of(own_link(status["game"]))
        assert ann == token and ann != ben
        assert client.get("/api/seeks").json()["seeks"] == []

        view = client.get(f"/api/games/{game['id']}").json()
        assert view["clock"]["initial"] == 180 and view["clock"]["increment"] == 2
        # every seat opened when the seek filled: the first action is due (and free)
        assert view["clock"]["running"] is None and view["clock"]["waiting"] == "first_action"
        assert sorted(s["name"] for s in view["seats"]) == ["Ann", "Ben"]

        with connect(client, game["id"]) as a, connect(client, game["id"]) as b:
            seat_of = {}
            for player, secret in ((a, ann), (b, ben)):
                events = player.hello(secret)
                seat_of[secret] = next(e for e in events if e["type"] == "welcome")["seat"]
            assert sorted(seat_of.values()) == [0, 1]
            to_act = [s["colour"] for s in view["seats"]].index(view["turn"])
            first = a if seat_of[ann] == to_act else b
            answer = first.act(view["legal"][0], 0)
            assert answer["type"] == "action", answer


def test_a_three_player_seek_fills_seat_by_seat_and_each_holder_gets_its_own_link(db_url):
    with client_for(db_url) as client:
        seek_id, ann = new_seek(client, players=3, name="Ann")
        with lobby(client) as ann_page, lobby(client) as ben_page, lobby(client) as watcher:
            assert hold(ann_page, ann)["type"] == "held"

            first = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Ben"})
            assert first.status_code == 202, first.text
            assert first.json()["status"] == "open" and first.json()["id"] == seek_id
            ben = first.json()["token"]
            update = watcher.until(lambda e: e["type"] == "seek")["seek"]
            assert [p["name"] for p in update["places"]] == ["Ann", "Ben"]
            status = client.get(f"/api/seeks/{seek_id}", params={"token": ben}).json()
            assert status == {**status, "status": "open", "game": None}
            assert client.get("/api/games?public=true").json()["games"] == []  # not yet
            assert hold(ben_page, ben)["type"] == "held"

            last = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Cid"})
            assert last.status_code == 201, last.text
            game = last.json()
            cid = token_of(own_link(game))

            links = {}
            for page, secret in ((ann_page, ann), (ben_page, ben)):
                filled = page.until(lambda e: e["type"] == "filled")
                assert filled["seek"] == seek_id and filled["game"] == game["id"]
                assert filled["url"] == f"/play/{game['id']}?seat={secret}"
                links[secret] = filled["url"]
            gone = watcher.until(lambda e: e["type"] == "seek_filled")
            assert gone == {"type": "seek_filled", "id": seek_id, "game": game["id"]}
            assert "filled" not in [e["type"] for e in watcher.flush()]  # it held nothing

        assert len({ann, ben, cid}) == 3
        seats = set()
        for secret in (ann, ben, cid):
            with connect(client, game["id"]) as player:
                welcome = next(e for e in player.hello(secret) if e["type"] == "welcome")
                seats.add(welcome["seat"])
        assert seats == {0, 1, 2}


def test_a_four_player_seek_with_a_computer_seat_fills_with_three_people(db_url):
    """Three friends need no stranger: the computer takes the fourth seat, at its level,
    drawn by lot with theirs (a walk saw three wait for a fourth in vain)."""
    with client_for(db_url) as client:
        seek_id, _ann = new_seek(client, players=4, computers=1, level=2, name="Ann")
        listed = client.get("/api/seeks").json()["seeks"]
        assert [(s["computers"], s["computer_level"]) for s in listed] == [(1, 2)]
        ben = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Ben"})
        assert ben.status_code == 202 and ben.json()["status"] == "open"
        cid = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Cid"})
        assert cid.status_code == 201, cid.text
        game = client.get(f"/api/games/{cid.json()['id']}").json()
        kinds = sorted((s["kind"], s["name"], s.get("level")) for s in game["seats"])
        assert kinds == [
            ("computer", "Computer", 2),
            ("human", "Ann", None),
            ("human", "Ben", None),
            ("human", "Cid", None),
        ]
        # a rated challenge is between people only
        with signed_in_as(client, sign_up(client, "dora")) as headers:
            rated = client.post(
                "/api/seeks", json={"players": 3, "computers": 1, "rated": True}, headers=headers
            )
        assert rated.status_code == 422 and rated.json()["field"] == "computers"


def race(client: TestClient, seek_id: str) -> list[int]:
    """Two acceptors at the same moment; their answers' statuses."""
    start = threading.Barrier(2)
    answers: list[int] = []

    def accept() -> None:
        start.wait()
        answers.append(client.post(f"/api/seeks/{seek_id}/accept", json={}).status_code)

    threads = [threading.Thread(target=accept) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_two_accepts_racing_for_the_last_place_one_wins(db_url):
    with client_for(db_url) as client:
        for players in (2, 2, 3, 4):
            seek_id, token = new_seek(client, players=players)
            for _ in range(players - 2):
                assert client.post(f"/api/seeks/{seek_id}/accept", json={}).status_code == 202
            assert sorted(race(client, seek_id)) == [201, 409]
            status = client.get(f"/api/seeks/{seek_id}", params={"token": token}).json()
            game = client.get(f"/api/games/{status['game']['id']}").json()
            assert len(game["seats"]) == players


def test_the_same_place_cannot_be_stored_twice(sqlite_url):
    with client_for(sqlite_url) as client:
        seek_id, _token = new_seek(client, players=3)
        store: SeekStore = seeks_of(client).store
        seek = store.load(seek_id)
        assert seek is not None
        # both takers found place 1 free; the primary key refuses the second
        with pytest.raises(IntegrityError), store.sessions.begin() as s:
            s.add(_place_row(seek_id, seek.places[0]))


def test_refusals(db_url):
    with client_for(db_url) as client:
        ann = sign_up(client, "ann")
        ben = sign_up(client, "ben")
        with signed_in_as(client, None):
            rated = client.post("/api/seeks", json={"variant": "express", "rated": True})
            assert rated.status_code == 401 and "sign in" in rated.json()["message"]
            for body, field in (
                ({"clock": {"initial": 1, "increment": 0}}, "clock"),
                ({"clock": {"days": 3, "initial": 60}}, "clock"),
                ({"clock": {"increment": 2}}, "clock"),
                ({"rating_range": [1000, 2000]}, "rating_range"),
                ({"players": 5}, "players"),
                ({"variant": "blitz"}, "variant"),
                ({"name": "two\nlines"}, "name"),
                # computer seats: two people at least, a level only with them, a known one
                ({"players": 2, "computers": 1}, "computers"),
                ({"players": 3, "computers": 2}, "computers"),
                ({"players": 4, "computers": 3}, "computers"),
                ({"players": 3, "level": 3}, "level"),
                ({"players": 3, "computers": 1, "level": 99}, "level"),
            ):
                answer = client.post("/api/seeks", json=body)
                assert answer.status_code == 422, (body, answer.text)
                assert answer.json()["field"] == field, answer.json()

        with signed_in_as(client, ann) as headers:
            answer = client.post(
                "/api/seeks",
                json={"rated": True, "rating_range": [1600, 2000]},
                headers=headers,
            )
            assert answer.status_code == 201, answer.text
            ranged = answer.json()["id"]
            answer = client.post("/api/seeks", json={"rated": True}, headers=headers)
            rated_id, ann_token = answer.json()["id"], answer.json()["token"]
            assert client.post(f"/api/seeks/{rated_id}/accept", headers=headers).status_code == 409
        with signed_in_as(client, None):
            refused = client.post(f"/api/seeks/{rated_id}/accept", json={})
            assert refused.status_code == 401, refused.text
            own = client.post(f"/api/seeks/{rated_id}/accept", json={"token": ann_token})
            assert own.status_code in (401, 409)
        with signed_in_as(client, ben) as headers:
            outside = client.post(f"/api/seeks/{ranged}/accept", headers=headers)
            assert outside.status_code == 403 and outside.json()["code"] == "rating_range"
            assert "1500" in outside.json()["message"]
            assert client.post(f"/api/seeks/{rated_id}/accept", headers=headers).status_code == 201
            full = client.post(f"/api/seeks/{rated_id}/accept", headers=headers)
            assert full.status_code == 409 and full.json()["code"] == "filled"

        with signed_in_as(client, None):
            casual, casual_token = new_seek(client)
            own = client.post(f"/api/seeks/{casual}/accept", json={"token": casual_token})
            assert own.status_code == 409 and own.json()["code"] == "own"
            assert client.get(f"/api/seeks/{casual}").status_code == 403
            assert client.get(f"/api/seeks/{casual}", params={"token": "nope"}).status_code == 403
            assert client.get("/api/seeks/nosuchseek").status_code == 404
            assert client.post("/api/seeks/nosuchseek/accept", json={}).status_code == 404
            assert client.delete(f"/api/seeks/{casual}", params={"token": "x"}).status_code == 403
            assert (
                client.delete(f"/api/seeks/{casual}", params={"token": casual_token}).status_code
                == 204
            )
            gone = client.post(f"/api/seeks/{casual}/accept", json={})
            assert gone.status_code == 409 and gone.json()["code"] == "gone"
            status = client.get(f"/api/seeks/{casual}", params={"token": casual_token}).json()
            assert status["status"] == "gone" and status["game"] is None


def test_rated_seeks_list_ratings_and_take_them_into_account(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        ben = sign_up(client, "ben")
        store = seeks_of(client).hub.store
        with store.sessions.begin() as s:  # ben has played: a rating of 1700 in express-2
            ben_id = s.execute(text("SELECT id FROM accounts WHERE name = 'ben'")).scalar_one()
            s.add(
                RatingRow(
                    account_id=ben_id,
                    category="express-2",
                    rating=1700.0,
                    deviation=80.0,
                    volatility=0.06,
                    games=20,
                    updated=dt.datetime.now(dt.UTC),
                )
            )
        with signed_in_as(client, ann) as headers:
            answer = client.post(
                "/api/seeks", json={"rated": True, "rating_range": [1600, 1800]}, headers=headers
            )
            seek_id = answer.json()["id"]
            listed = client.get("/api/seeks").json()["seeks"][0]
            assert listed["rating_range"] == [1600, 1800]
            assert listed["places"] == [{"name": "ann", "rating": 1500.0, "provisional": True}]
            status = client.get(f"/api/seeks/{seek_id}").json()  # by the session cookie
            assert status["status"] == "open"
        with signed_in_as(client, ben) as headers:
            own = client.post("/api/seeks", json={"rated": True}, headers=headers).json()["id"]
            listed = {x["id"]: x for x in client.get("/api/seeks").json()["seeks"]}
            assert listed[own]["places"] == [
                {"name": "ben", "rating": 1700.0, "provisional": False}
            ]
            assert client.delete(f"/api/seeks/{own}", headers=headers).status_code in (200, 204)
            game = client.post(f"/api/seeks/{seek_id}/accept", headers=headers)
            assert game.status_code == 201, game.text
            game_id = game.json()["id"]
        with signed_in_as(client, ann):
            status = client.get(f"/api/seeks/{seek_id}").json()  # the cookie alone
            ann_link = own_link(status["game"])
        assert token_of(ann_link) == answer.json()["token"]
        view = client.get(f"/api/games/{game_id}").json()
        assert view["rated"] is True


def test_the_creator_leaving_makes_the_seek_gone_and_a_reload_keeps_it(sqlite_url, monkeypatch):
    # long enough for the reload below to come within it on a busy machine too
    monkeypatch.setattr(lobby_feed, "LEAVE_GRACE", 1.0)
    with client_for(sqlite_url) as client:
        kept, kept_token = new_seek(client)
        left, left_token = new_seek(client)
        with lobby(client) as watcher:
            with lobby(client) as page:
                assert hold(page, kept_token)["type"] == "held"
            with lobby(client) as reloaded:  # the same page again, within the grace
                assert hold(reloaded, kept_token) == {"type": "held", "seek": kept, "place": 0}
                with lobby(client) as page:
                    assert hold(page, left_token)["type"] == "held"
                assert watcher.until(lambda e: e["type"] == "seek_gone") == {
                    "type": "seek_gone",
                    "id": left,
                }
                listed = [s["id"] for s in client.get("/api/seeks").json()["seeks"]]
                assert listed == [kept]
                assert kept not in seeks_of(client).feed._graces
        status = client.get(f"/api/seeks/{left}", params={"token": left_token}).json()
        assert status["status"] == "gone"
        again = client.post(f"/api/seeks/{left}/accept", json={})
        assert again.status_code == 409


def test_a_reload_on_another_process_keeps_the_seek(sqlite_url):
    """Another process's hold marks the seek seen after the page left: the grace check
    of the process it left does not end it."""
    with client_for(sqlite_url) as client:
        seek_id, _token = new_seek(client)
        store: SeekStore = seeks_of(client).store
        left = dt.datetime.now(dt.UTC)
        store.touch([seek_id], left + dt.timedelta(seconds=1))  # held again elsewhere
        assert store.close(seek_id, left) is False
        assert store.close(seek_id, left + dt.timedelta(seconds=2)) is True


def test_the_sweep_ends_seeks_nobody_has_seen(sqlite_url):
    with client_for(sqlite_url) as client:
        seeks = seeks_of(client)
        held, held_token = new_seek(client)
        polled, polled_token = new_seek(client)
        unseen, _ = new_seek(client)
        with lobby(client) as watcher, lobby(client) as page:
            assert hold(page, held_token)["type"] == "held"
            later = time.time() + seeks_module.UNSEEN_SECONDS + 1
            assert client.portal.call(seeks.sweep, time.time() + 1) == 0  # type: ignore[union-attr]
            # time passes: the page's hold is refreshed, the script asks for its status
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(seeks.hub, "now", lambda: later)
                client.portal.call(seeks.feed.refresh)  # type: ignore[union-attr]
                client.get(f"/api/seeks/{polled}", params={"token": polled_token})
                assert client.portal.call(seeks.sweep) == 1  # type: ignore[union-attr]
            assert watcher.until(lambda e: e["type"] == "seek_gone")["id"] == unseen
        listed = sorted(s["id"] for s in client.get("/api/seeks").json()["seeks"])
        assert listed == sorted([held, polled])


def test_an_acceptor_who_left_frees_the_place_and_the_seek_stays_open(db_url):
    """A 4-player seek: Ben's page left, Cid's script asks about it; once nobody has
    seen Ben's place for a while, the sweep frees it (the lobby hears the seek with
    fewer places), the others keep theirs, and newcomers fill it."""
    with client_for(db_url) as client:
        seeks = seeks_of(client)
        seek_id, ann = new_seek(client, players=4, name="Ann")
        taken = {}
        for name in ("Ben", "Cid"):
            answer = client.post(f"/api/seeks/{seek_id}/accept", json={"name": name})
            assert answer.status_code == 202, answer.text
            taken[name] = answer.json()["token"]
        with lobby(client) as watcher, lobby(client) as ann_page:
            assert hold(ann_page, ann)["place"] == 0
            with lobby(client) as ben_page:
                assert hold(ben_page, taken["Ben"])["place"] == 1
            left = time.time()

            def time_passes(to: float) -> int:
                """At ``to``: the pages' holds refreshed, Cid asks; what the sweep did."""
                patch.setattr(seeks.hub, "now", lambda: to)
                client.portal.call(seeks.feed.refresh)  # type: ignore[union-attr]
                asked = client.get(f"/api/seeks/{seek_id}", params={"token": taken["Cid"]})
                assert asked.json()["status"] == "open"
                return int(client.portal.call(seeks.sweep))  # type: ignore[union-attr]

            with pytest.MonkeyPatch.context() as patch:
                unseen = seeks_module.UNSEEN_SECONDS
                assert time_passes(left + unseen - 1) == 0  # Ben's page held it just now
                assert time_passes(left + unseen + 1) == 1
            update = watcher.until(lambda e: e["type"] == "seek")["seek"]
            assert update["id"] == seek_id
            assert [p["name"] for p in update["places"]] == ["Ann", "Cid"]
            listed = client.get("/api/seeks").json()["seeks"]
            assert [[p["name"] for p in s["places"]] for s in listed] == [["Ann", "Cid"]]
            gone = client.get(f"/api/seeks/{seek_id}", params={"token": taken["Ben"]})
            assert gone.status_code == 403  # Ben holds no place now
            with lobby(client) as ben_again:  # Ben's page comes back: told which seek
                ben_again.send({"type": "hold", "token": taken["Ben"], "seek": seek_id})
                refused = ben_again.until(lambda e: e["type"] == "error")
                assert refused["code"] == "not_found" and refused["seek"] == seek_id

            assert (
                client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Dan"}).status_code == 202
            )
            game = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Eve"})
            assert game.status_code == 201, game.text
            view = client.get(f"/api/games/{game.json()['id']}").json()
            assert sorted(s["name"] for s in view["seats"]) == ["Ann", "Cid", "Dan", "Eve"]
            assert ann_page.until(lambda e: e["type"] == "filled")["game"] == game.json()["id"]


def test_places_stored_before_their_seen_column_count_as_seen_when_they_joined(db_url):
    """Migration 0005 gives the places already stored the time they joined."""
    engine = open_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    joined = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.UTC)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        connection.execute(
            text(
                "INSERT INTO seeks (id, variant, players, rated, status, created, seen) "
                "VALUES ('old', 'express', 3, false, 'open', :at, :at)"
            ),
            {"at": joined},
        )
        connection.execute(
            text(
                "INSERT INTO seek_places (seek_id, place, name, token_hash, joined) "
                "VALUES ('old', 0, 'Ann', 'x', :at)"
            ),
            {"at": joined},
        )
    migrate(engine)
    seek = SeekStore(Store(engine)).load("old")
    engine.dispose()
    assert seek is not None and seek.places[0].seen == joined


def test_nothing_secret_is_listed(sqlite_url):
    with client_for(sqlite_url) as client:
        with lobby(client) as watcher:
            seek_id, token = new_seek(client, players=3, name="Ann")
            accepted = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Ben"}).json()
            events = [watcher.until(lambda e: e["type"] == "seek") for _ in range(2)]
            events += watcher.flush()
        with lobby(client) as late:
            listing = late.flush()
        texts = [client.get("/api/seeks").text, repr(events), repr(listing)]
        for secret in (token, accepted["token"]):
            for text in texts:
                assert secret not in text and token_hash(secret) not in text
        for text in texts:
            assert "testclient" not in text  # nor the creator's address


def test_the_lobby_socket_sends_the_listing_and_refuses_bad_messages(sqlite_url):
    with client_for(sqlite_url) as client:
        seek_id, _token = new_seek(client)
        with client.websocket_connect("/ws/lobby") as ws:
            page = Player(ws)
            first = page.receive()
            assert first["type"] == "seeks" and [s["id"] for s in first["seeks"]] == [seek_id]
            page.send({"type": "wave"})
            assert page.receive()["code"] == "bad_message"
            page.send({"type": "hold", "token": "not a secret of anyone"})
            assert page.receive()["code"] == "not_found"
            other, _ = new_seek(client)
            assert page.until(lambda e: e["type"] == "seek")["seek"]["id"] == other


def test_seek_creation_is_limited_per_address(sqlite_url):
    with client_for(sqlite_url, seeks_per_minute=2) as client:
        new_seek(client)
        new_seek(client)
        answer = client.post("/api/seeks", json={})
        assert answer.status_code == 429 and "Retry-After" in answer.headers


class LobbySocket:
    """A lobby socket on a real server, read with a timeout."""

    def __init__(self, base: str) -> None:
        self.ws = open_socket(base.replace("http", "ws", 1) + "/ws/lobby")
        self.listing = self.until(lambda e: e["type"] == "seeks")["seeks"]

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def until(self, wanted: Any, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            event: dict[str, Any] = json.loads(
                self.ws.recv(timeout=max(0.1, deadline - time.monotonic()))
            )
            if wanted(event):
                return event

    def close(self) -> None:
        self.ws.close()


def test_seeks_across_two_processes(request, tmp_path, redis_url, start_server):
    """Made on one process, seen, accepted and left on the other (PostgreSQL, Redis)."""
    db_url = fresh_database(request, "postgresql", tmp_path)
    a = start_server(db_url=db_url, args=("--redis", redis_url), bot_delay=0)
    b = start_server(db_url=db_url, args=("--redis", redis_url), bot_delay=0)
    watcher = LobbySocket(b.url)
    creator = LobbySocket(a.url)
    try:
        made = a.api("POST", "/api/seeks", json={"players": 2, "clock": {"days": 2}}).json()
        seen = watcher.until(lambda e: e["type"] == "seek")["seek"]
        assert seen["id"] == made["id"] and seen["clock"] == {"days": 2}
        creator.send({"type": "hold", "token": made["token"]})
        assert creator.until(lambda e: e["type"] == "held")["place"] == 0

        game = b.api("POST", f"/api/seeks/{made['id']}/accept", json={"name": "Ben"})
        assert game.status_code == 201, game.text
        game_id = game.json()["id"]
        filled = creator.until(lambda e: e["type"] == "filled")
        assert filled["url"] == f"/play/{game_id}?seat={made['token']}"
        assert watcher.until(lambda e: e["type"] == "seek_filled")["game"] == game_id

        left = a.api("POST", "/api/seeks", json={}).json()
        creator.send({"type": "hold", "token": left["token"]})
        creator.until(lambda e: e["type"] == "held")
        creator.close()  # the creator's page on process a goes away
        gone = watcher.until(lambda e: e["type"] == "seek_gone")
        assert gone["id"] == left["id"]
        assert b.api("GET", "/api/seeks").json()["seeks"] == []
    finally:
        watcher.close()


def test_a_guest_may_not_take_a_place_under_an_accounts_name(db_url):
    """A guest in the lobby named like an account (its lookalike too) is refused, when it
    opens a seek and when it accepts one; the account itself plays under its name."""
    with client_for(db_url) as client:
        ann = sign_up(client, "anno")
        with signed_in_as(client, None):
            for name in ("anno", "ANN0", "\u0430nno"):  # the last with a Cyrillic a
                opened = client.post("/api/seeks", json={"variant": "express", "name": name})
                assert opened.status_code == 409, opened.text
                assert opened.json()["code"] == "account_name"
            seek_id, _ = new_seek(client, name="Ben")
            taken = client.post(f"/api/seeks/{seek_id}/accept", json={"name": "Anno"})
            assert taken.status_code == 409 and taken.json()["code"] == "account_name"
        with signed_in_as(client, ann) as headers:
            accepted = client.post(f"/api/seeks/{seek_id}/accept", headers=headers)
            assert accepted.status_code == 201, accepted.text
            game = client.get(f"/api/games/{accepted.json()['id']}").json()
            seats = {s["name"]: s for s in game["seats"]}
            assert seats["anno"]["guest"] is False and seats["Ben"]["guest"] is True

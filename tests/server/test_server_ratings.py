"""Ratings (ratings.py, players_api.py): rated games change their accounts' ratings by
Glicko-2 (2 players) or OpenSkill (3-4) once, unrated ones change nothing; the players'
answers, the rating history and the leaderboard."""

from __future__ import annotations

import math
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shiftago.core import Variant
from shiftago.formats.record import parse_records
from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.accounts.accounts import SESSION_COOKIE
from shiftago.interfaces.server.accounts.store import close_account, create_account, make_session
from shiftago.interfaces.server.db.schema import RatingChangeRow, RatingRow
from shiftago.interfaces.server.db.store import open_engine
from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.players import ratings
from shiftago.match.glicko2 import Glicko, rate_game
from support.server_support import connect, fresh_database

#: The rating categories: a variant and a number of players.
CATEGORIES = {f"{v}-{n}" for v in ("express", "expert", "extreme") for n in (2, 3, 4)}

#: Any argon2 hash will do: these tests never sign in.
HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ratings.db'}"


@contextmanager
def client_for(db_url: str, **options: Any) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, **options)) as client:
        yield client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def accounts(client: TestClient, *names: str) -> list[int]:
    hub = hub_of(client)
    return [create_account(hub.store, name, HASH).id for name in names]


def new_game(
    client: TestClient, ids: list[int | None], rated: bool = True, variant: str = "express"
) -> tuple[LiveGame, list[str | None]]:
    """A game of people (a None id: a guest), orange first."""
    seats = [SeatSpec("human", f"P{i}", account_id=account) for i, account in enumerate(ids)]
    spec = GameSpec(Variant.parse(variant), len(ids), seats, first=0, rated=rated)
    result: tuple[LiveGame, list[str | None]] = client.portal.call(hub_of(client).create, spec)  # type: ignore[union-attr]
    return result


def resign(client: TestClient, live: LiveGame, token: str | None, wait_rated: bool) -> Any:
    """Resign with the seat of ``token``; the ``rated`` event a watcher gets (if waited)."""
    with connect(client, live.id) as player, connect(client, live.id) as watcher:
        player.hello(token)
        watcher.hello()
        player.send({"type": "resign"})
        if wait_rated:
            return watcher.until_type("rated")
        watcher.until_type("state")
        return watcher.flush()


def rating_rows(db_url: str) -> tuple[list[tuple[Any, ...]], int]:
    store = Store(open_engine(db_url))
    try:
        with store.sessions() as s:
            rows = [
                (r.account_id, r.category, r.rating, r.deviation, r.volatility, r.games)
                for r in s.query(RatingRow).order_by(RatingRow.account_id, RatingRow.category)
            ]
            changes = s.query(RatingChangeRow).count()
        return rows, changes
    finally:
        store.dispose()


def test_a_rated_two_player_game_moves_both_ratings_by_glicko_2(db_url):
    with client_for(db_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, tokens = new_game(client, [ann, bob])
        event = resign(client, live, tokens[1], wait_rated=True)  # bob resigns: ann wins
        won, lost = rate_game(Glicko(1500, 350, 0.06), Glicko(1500, 350, 0.06), 1.0)
        assert event["changes"] == [
            {
                "colour": "o",
                "name": "ann",
                "before": 1500.0,
                "after": round(won.rating, 2),
                "deviation": round(won.deviation, 2),
                "provisional": True,  # one game: still far from settled
            },
            {
                "colour": "g",
                "name": "bob",
                "before": 1500.0,
                "after": round(lost.rating, 2),
                "deviation": round(lost.deviation, 2),
                "provisional": True,
            },
        ]
        assert client.get(f"/api/games/{live.id}/ratings").json() == {"changes": event["changes"]}
        answer = client.get("/api/players/ann").json()
        assert answer == {
            "name": "ann",
            "ratings": answer["ratings"],
            "games": [live.id],
            "closed": False,
        }
        assert answer["ratings"]["express-2"] == {
            "rating": round(won.rating, 2),
            "deviation": round(won.deviation, 2),
            "games": 1,
            "provisional": True,
        }
        assert all(r["games"] == 0 for c, r in answer["ratings"].items() if c != "express-2")
    rows, changes = rating_rows(db_url)
    assert changes == 2
    assert rows == [
        (ann, "express-2", won.rating, won.deviation, won.volatility, 1),
        (bob, "express-2", lost.rating, lost.deviation, lost.volatility, 1),
    ]


def test_rating_a_game_twice_changes_nothing(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, tokens = new_game(client, [ann, bob])
        resign(client, live, tokens[0], wait_rated=True)
        before = rating_rows(sqlite_url)
        hub = hub_of(client)
        client.portal.call(ratings.rate_finished, hub, live)  # type: ignore[union-attr]
        assert ratings.rate_stored_game(hub.store, live.id, "express", (1,)) is None
        assert rating_rows(sqlite_url) == before


def test_an_unrated_game_changes_nothing(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, tokens = new_game(client, [ann, bob], rated=False)
        events = resign(client, live, tokens[1], wait_rated=False)
        assert "rated" not in [e["type"] for e in events]
        assert client.get(f"/api/games/{live.id}/ratings").json() == {"changes": []}
        # every category is listed, each where every rating starts (WEBAPI.md, "Players")
        standing = client.get("/api/players/ann").json()["ratings"]
        assert set(standing) == CATEGORIES
        assert all(
            r == {"rating": 1500.0, "deviation": 350.0, "games": 0, "provisional": True}
            for r in standing.values()
        )
        # unrated and unlisted: not on the profile (only its player sees it there)
        assert client.get("/api/players/ann").json()["games"] == []
    assert rating_rows(sqlite_url) == ([], 0)


def test_a_rated_game_with_a_guest_is_not_rated(sqlite_url):
    with client_for(sqlite_url) as client:
        (ann,) = accounts(client, "ann")
        live, tokens = new_game(client, [ann, None])
        resign(client, live, tokens[1], wait_rated=False)
        hub = hub_of(client)
        assert ratings.rate_stored_game(hub.store, live.id, "express", (0,)) is None
    assert rating_rows(sqlite_url) == ([], 0)


def test_a_seat_handed_to_the_computer_makes_a_rated_game_unrated(sqlite_url):
    with client_for(sqlite_url, grace_seconds=0) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, tokens = new_game(client, [ann, bob])
        assert client.get(f"/api/games/{live.id}").json()["rated"] is True
        with connect(client, live.id) as orange:  # bob is away from the start
            orange.hello(tokens[0])
            orange.send({"type": "claim", "seat": 1, "to": "computer"})
            game = orange.until_type("state")["game"]
            assert game["seats"][1]["kind"] == "computer" and game["rated"] is False
        assert client.get(f"/api/games/{live.id}").json()["rated"] is False
        resign(client, live, tokens[0], wait_rated=False)
        assert client.get(f"/api/games/{live.id}/ratings").json() == {"changes": []}
    assert rating_rows(sqlite_url) == ([], 0)


def test_a_three_player_rated_game_moves_openskill_ratings(sqlite_url):
    with client_for(sqlite_url) as client:
        ids = accounts(client, "ann", "bob", "cid")
        live, tokens = new_game(client, list(ids), variant="expert")
        event = resign(client, live, tokens[2], wait_rated=True)  # ann and bob share the win
        start = [Glicko(1500, 350, 0.06)] * 3
        expected = ratings.new_ratings(start, (0, 1))
        after = [c["after"] for c in event["changes"]]
        assert after == [round(r.rating, 2) for r in expected]
        assert after[0] == after[1] > 1500 > after[2]
        assert all(c["deviation"] < 350 for c in event["changes"])
        answer = client.get("/api/players/cid").json()
        played = {c for c, r in answer["ratings"].items() if r["games"]}
        assert played == {"expert-3"} and set(answer["ratings"]) == CATEGORIES
        assert answer["ratings"]["expert-3"]["provisional"] is True
        assert answer["ratings"]["expert-3"]["rating"] == after[2]


def test_openskill_is_on_the_glicko_scale():
    """Plackett-Luce learns from exp(mu / c), c = sqrt(sum of sigma^2 + beta^2): with the
    chosen beta, two settled players 400 points apart expect ten to one, as in Glicko;
    and a first game moves a rating about as far as Glicko-2 moves it."""
    beta = ratings.MODEL.beta
    c = math.sqrt(2 * beta**2)
    assert 1 / (1 + math.exp(-400 / c)) == pytest.approx(10 / 11, abs=1e-4)
    glicko = rate_game(Glicko(), Glicko(), 1.0)[0].rating - 1500
    openskill = ratings.new_ratings([Glicko()] * 3, (0,))[0].rating - 1500
    assert 0.5 < openskill / glicko < 1.5


def settle(db_url: str, deviations: dict[int, tuple[float, float]]) -> None:
    """Give accounts settled express-2 ratings: id -> (rating, deviation)."""
    store = Store(open_engine(db_url))
    with store.sessions.begin() as s:
        for account, (rating, deviation) in deviations.items():
            row = s.get(RatingRow, (account, "express-2"))
            assert row is not None
            row.rating, row.deviation = rating, deviation
    store.dispose()


def test_provisional_ratings_stay_off_the_leaderboard(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, bob, cid, dan = accounts(client, "ann", "bob", "cid", "dan")
        for pair in ([ann, bob], [cid, dan]):
            live, tokens = new_game(client, list(pair))
            resign(client, live, tokens[1], wait_rated=True)
        assert client.get("/api/leaderboard/express-2").json()["players"] == []
        settle(sqlite_url, {ann: (1620.0, 60.0), bob: (1700.0, 110.0), cid: (1800.0, 111.0)})
        board = client.get("/api/leaderboard/express-2").json()
        assert [(p["name"], p["rating"], p["provisional"]) for p in board["players"]] == [
            ("bob", 1700.0, False),
            ("ann", 1620.0, False),
        ]
        assert "express-2" in board["categories"]
        assert client.get("/api/players/cid").json()["ratings"]["express-2"]["provisional"]
        assert client.get("/api/leaderboard/express-9").status_code == 422
        assert client.get("/api/leaderboard/express-9").json()["field"] == "category"


def test_a_players_games_download_as_one_file_of_records(sqlite_url):
    """The games the profile lists, as the records ``shiftago analyse`` reads; signed in
    as the player, the unlisted ones too, for this browser only."""
    with client_for(sqlite_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        rated, tokens = new_game(client, [ann, bob])
        resign(client, rated, tokens[1], wait_rated=True)
        new_game(client, [ann, bob], rated=False, variant="expert")  # not listed

        answer = client.get("/api/players/ANN/records")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].startswith("text/plain")
        assert answer.headers["content-disposition"] == 'attachment; filename="ann-shiftago.txt"'
        [record] = parse_records(answer.text)
        assert record.result == "o" and record.termination is not None  # bob resigned
        assert [seat.name for seat in record.seats] == ["P0", "P1"]

        token, _csrf = make_session(hub_of(client).store, ann)
        client.cookies.set(SESSION_COOKIE, token)
        own = client.get("/api/players/ann/records")
        assert own.headers["cache-control"] == "no-store"
        newest, oldest = parse_records(own.text)
        assert newest.rules.variant is Variant.EXPERT and newest.result == "*"
        assert oldest == record
        assert len(parse_records(client.get("/api/players/ann/records?limit=1").text)) == 1
        for limit in (0, 501):
            too = client.get(f"/api/players/ann/records?limit={limit}")
            assert too.status_code == 422 and too.json()["field"] == "limit"
        assert client.get("/api/players/nobody/records").status_code == 404
        client.cookies.clear()
        assert client.get("/api/players/bob/records").text == answer.text  # his game too


def test_find_a_player_offers_the_open_accounts_a_name_begins_with(sqlite_url):
    with client_for(sqlite_url) as client:
        accounts(client, "bob", "bobby", "bo_b", "boxer", "ann")
        close_account(hub_of(client).store, "boxer")

        def offered(query: str) -> Any:
            answer = client.get(f"/api/players?{query}")
            return answer.json()["players"] if answer.status_code == 200 else answer

        assert offered("prefix=BO") == ["bo_b", "bob", "bobby"]  # a closed one is not
        assert offered("prefix=bo_") == ["bo_b"]  # "_" is itself, not any one character
        assert offered("prefix=bob&limit=1") == ["bob"]
        assert offered("prefix=zed") == []
        for query in ("prefix=b%25", "prefix=", "prefix=" + "a" * 21, "prefix=bo&limit=11", ""):
            refused = offered(query)
            assert refused.status_code == 422, query
            assert refused.json()["field"] in {"prefix", "limit"}


def test_history_and_recent_games_of_a_player(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        games = []
        for loser in (1, 0):
            live, tokens = new_game(client, [ann, bob])
            resign(client, live, tokens[loser], wait_rated=True)
            games.append(live.id)
        answer = client.get("/api/players/ANN").json()
        assert answer["games"] == games[::-1]  # newest first
        history = client.get("/api/players/ann/history?category=express-2").json()["history"]
        assert [h["game"] for h in history] == games  # oldest first, for the plot
        assert history[0]["rating"] > 1500 and history[1]["rating"] < history[0]["rating"]
        assert history[1]["before"] == history[0]["rating"]
        aborted, tokens = new_game(client, [ann, bob])
        with connect(client, aborted.id) as player:
            player.hello(tokens[0])
            player.send({"type": "abort"})
            assert player.until_type("state")["game"]["status"] == "over aborted"
        recent = client.get("/api/players/ann/games").json()["games"]
        assert [(g["id"], g["outcome"], g["colour"]) for g in recent] == [
            (aborted.id, "aborted", "o"),
            (games[1], "loss", "o"),
            (games[0], "win", "o"),
        ]
        recent = recent[1:]
        assert recent[0]["opponents"] == ["bob"] and recent[0]["rated"] is True
        assert [(s["colour"], s["kind"], s["account"]) for s in recent[0]["seats"]] == [
            ("o", "human", "ann"),
            ("g", "human", "bob"),
        ]
        assert recent[0]["rating_before"] == history[1]["before"]
        assert recent[0]["provisional_after"] is True  # two games: the deviation is high
        assert recent[0]["rating_after"] == history[1]["rating"]


def test_a_win_some_seats_share_is_no_draw_in_a_player_s_games(sqlite_url):
    """With 3 players a resignation leaves the other two sharing the win, as the game's
    page says it; the player's list of games said "draw" (docs/web-protocol.md)."""
    with client_for(sqlite_url) as client:
        ids = accounts(client, "ann", "bob", "cy")
        live, tokens = new_game(client, list(ids))
        resign(client, live, tokens[2], wait_rated=True)
        outcomes = [
            client.get(f"/api/players/{name}/games").json()["games"][0]["outcome"]
            for name in ("ann", "bob", "cy")
        ]
        assert outcomes == ["shared", "shared", "loss"]


def test_an_unknown_player_is_404(sqlite_url):
    with client_for(sqlite_url) as client:
        for path in ("/api/players/nobody", "/api/players/nobody/history", "/api/players/x/games"):
            assert client.get(path).status_code == 404


def test_other_processes_sockets_hear_of_a_rating(sqlite_url):
    """A ``rated`` event on the bus (another process rated the game) is told to this
    process's sockets of the game."""
    with client_for(sqlite_url) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, tokens = new_game(client, [ann, bob])
        resign(client, live, tokens[1], wait_rated=True)
        hub = hub_of(client)
        with connect(client, live.id) as watcher:
            watcher.hello()
            event = {"game": live.id, "revision": live.revision, "kind": "rated"}
            client.portal.call(hub.on_event, event)  # type: ignore[union-attr]
            told = watcher.until_type("rated")
        assert [c["name"] for c in told["changes"]] == ["ann", "bob"]


def test_one_of_two_ratings_at_once_wins(request, tmp_path):
    """Two processes rating one game at once (PostgreSQL): one stores, one finds it done."""
    url = fresh_database(request, "postgresql", tmp_path)
    with client_for(url) as client:
        ann, bob = accounts(client, "ann", "bob")
        live, _ = new_game(client, [ann, bob])
        game_id = live.id
    stores = [Store(open_engine(url)) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            results = list(
                pool.map(
                    lambda store: ratings.rate_stored_game(store, game_id, "express", (0,)), stores
                )
            )
    finally:
        for store in stores:
            store.dispose()
    assert sorted(r is None for r in results) == [False, True]
    rows, changes = rating_rows(url)
    assert changes == 2 and [r[5] for r in rows] == [1, 1]

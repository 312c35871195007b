"""``shiftago admin`` (cli/admin.py): moderation in a server's database, the server's own
store functions underneath (chat/store.py ``ChatStore``, accounts/store.py
``sign_out_everywhere`` and ``close_account``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from shiftago.core import Game, Rules, Variant
from shiftago.engine.puzzles.puzzle import Puzzle
from shiftago.engine.puzzles.solving import check_puzzle
from shiftago.formats.record import Record, format_record
from shiftago.interfaces.cli import cli
from shiftago.interfaces.server.accounts.accounts import hash_password, password_matches
from shiftago.interfaces.server.accounts.store import (
    account_with_hash,
    create_account,
    find_session,
    make_session,
)
from shiftago.interfaces.server.chat.store import ChatStore
from shiftago.interfaces.server.db.schema import PuzzleRow, RatingRow
from shiftago.interfaces.server.db.store import now, open_engine
from shiftago.interfaces.server.games import creating
from shiftago.interfaces.server.games.store import Store
from support.server_support import client_for, create


def admin(url: str, *args: str, given: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["admin", "--db", url, *args], input=given)


def test_chat_messages_are_listed_and_deleted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with client_for(url) as client:  # the app makes the schema and the game
        game_id, _ = create(client)
    store = Store(open_engine(url))
    try:
        chat = ChatStore(store)
        kept = chat.add(game_id, "players", 0, "Ann", "good luck")
        rude = chat.add(game_id, "spectators", None, "Guest", "something rude")
    finally:
        store.dispose()
    listed = admin(url, "chat", game_id)
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert [line.split("\t")[0] for line in lines] == [str(kept.id), str(rude.id)]
    assert lines[1].endswith("\tspectators\tGuest\tsomething rude")
    deleted = admin(url, "delete-message", str(rude.id))
    assert deleted.exit_code == 0 and "deleted 1 of 1 message" in deleted.output
    assert admin(url, "chat", game_id).output.splitlines() == lines[:1]
    again = admin(url, "delete-message", str(rude.id))  # gone already: said, status 1
    assert again.exit_code == 1 and "deleted 0 of 1 message" in again.output
    unknown = admin(url, "chat", "no-such-game")
    assert unknown.exit_code == 1 and "there is no game 'no-such-game'" in unknown.output


def test_an_account_is_signed_out_everywhere_and_given_a_new_password(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with client_for(url):
        pass  # the schema
    store = Store(open_engine(url))
    try:
        account = create_account(store, "ann", hash_password("old password"))
        tokens = [make_session(store, account.id)[0] for _ in range(2)]
    finally:
        store.dispose()
    short = admin(url, "sign-out", "ann", "--new-password", given="short\nshort\n")
    assert short.exit_code == 2 and "A password has 8 to 200 characters." in short.output
    common = admin(url, "sign-out", "ann", "--new-password", given="password1\npassword1\n")
    assert common.exit_code == 2 and "one of the most common" in common.output
    done = admin(url, "sign-out", "Ann", "--new-password", given="new password\nnew password\n")
    assert done.exit_code == 0, done.output
    assert "ann: 2 sessions ended; the password is changed" in done.output
    store = Store(open_engine(url))
    try:
        assert all(find_session(store, token) is None for token in tokens)
        found = account_with_hash(store, "ann")
        assert found is not None and password_matches(found[1], "new password")
        assert not password_matches(found[1], "old password")
    finally:
        store.dispose()
    nobody = admin(url, "sign-out", "nobody")
    assert nobody.exit_code == 1 and "there is no account 'nobody'" in nobody.output


def test_a_closed_account_cannot_sign_in_and_leaves_the_leaderboard(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    password = {"password": "a good password"}
    with client_for(url) as client:
        assert client.post("/api/accounts", json={"name": "ann", **password}).status_code == 201
        anns_cookies = dict(client.cookies)
        client.cookies.clear()
        assert client.post("/api/accounts", json={"name": "bob", **password}).status_code == 201
        client.cookies.clear()
        store = Store(open_engine(url))
        try:  # settled ratings, so that both are on the leaderboard
            with store.sessions.begin() as s:
                for account in ("ann", "bob"):
                    found = account_with_hash(store, account)
                    assert found is not None
                    s.add(
                        RatingRow(
                            account_id=found[0].id,
                            category="express-2",
                            rating=1600.0 if account == "ann" else 1550.0,
                            deviation=60.0,
                            volatility=0.06,
                            games=20,
                            updated=now(),
                        )
                    )
        finally:
            store.dispose()

        def leaders() -> list[str]:
            board = client.get("/api/leaderboard/express-2").json()
            return [p["name"] for p in board["players"]]

        assert leaders() == ["ann", "bob"]
        closed = admin(url, "close-account", "Ann")
        assert closed.exit_code == 0, closed.output
        assert "ann: closed; 1 session ended" in closed.output
        client.cookies.update(anns_cookies)  # the browser she was signed in with
        assert client.get("/api/session").json() == {"name": None}
        client.cookies.clear()
        refused = client.post("/api/session", json={"name": "ann", **password})
        assert refused.status_code == 403 and refused.json()["code"] == "account_closed"
        assert "csrf" not in client.cookies  # no session was made
        wrong = client.post("/api/session", json={"name": "ann", "password": "not hers at all"})
        assert wrong.status_code == 401  # closed or not is said only with the password
        taken = client.post("/api/accounts", json={"name": "ann", **password})
        assert taken.status_code == 409  # the name stays hers
        assert leaders() == ["bob"]
        profile = client.get("/api/players/ann").json()
        assert profile["closed"] is True and profile["ratings"]["express-2"]["games"] == 20
        assert client.get("/api/players/bob").json()["closed"] is False
        reopened = admin(url, "close-account", "ann", "--reopen")
        assert reopened.exit_code == 0 and "ann: open" in reopened.output, reopened.output
        assert client.post("/api/session", json={"name": "ann", **password}).status_code == 200
        assert leaders() == ["ann", "bob"]
    nobody = admin(url, "close-account", "nobody")
    assert nobody.exit_code == 1 and "there is no account 'nobody'" in nobody.output


def finished_random_game(seed: int) -> Game:
    """A 2-player Express game played at random to its end (seed 0: 37 actions, in
    whose last positions the engine proves two puzzles)."""
    chooser = random.Random(seed)
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    while not game.is_over:
        game.play(chooser.choice(game.legal_actions()))
    return game


def test_puzzles_from_the_sites_finished_games_are_proven_and_served(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    game = finished_random_game(0)
    record = format_record(Record.from_game(game))
    with client_for(url) as client:
        imported = client.post("/api/games/import", json={"record": record, "public": True})
        assert imported.status_code == 201, imported.text
        daily = client.get("/api/puzzles/daily").json()["id"]  # the shipped set is loaded
        found = admin(url, "puzzles-from-games", "--max-actions", "2", "--nodes", "200000")
        assert found.exit_code == 0, found.output
        assert found.output.startswith("1 game searched, ")
        assert "2 puzzles found, 2 new" in found.output, found.output
        positions = {state.position() for state in game.states}
        store = Store(open_engine(url))
        try:
            with store.sessions() as session:
                rows = session.scalars(select(PuzzleRow)).all()
        finally:
            store.dispose()
        from_game = [row for row in rows if row.position in positions]
        assert len(from_game) == 2
        for row in from_game:
            served = client.get(f"/api/puzzles/{row.id}")
            assert served.status_code == 200 and served.json()["position"] == row.position
            puzzle = Puzzle(
                id=row.id,
                position=row.position,
                actions=row.actions,
                solution=tuple(row.solution.split()),
                themes=tuple(row.themes.split()),
                rating=int(row.rating),
                source="site",
            )
            assert check_puzzle(puzzle) is None, row.id  # proven again, independently
        again = admin(url, "puzzles-from-games", "--max-actions", "2", "--nodes", "200000")
        assert again.exit_code == 0 and again.output.rstrip().endswith(", 0 new"), again.output
        assert client.get("/api/puzzles/daily").json()["id"] == daily  # the day's stays


def test_a_game_id_never_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game id is typed after `shiftago admin chat`: one drawn with a leading '-' (1 in
    64) would read as an option, so another is drawn."""
    drawn = iter(["-GqZ3kV0aB1c", "_x9-Lm2nOp3q", "Ab-cD_eFgH1j"])
    monkeypatch.setattr(creating.secrets, "token_urlsafe", lambda n: next(drawn))
    assert creating.new_id() == "_x9-Lm2nOp3q"


def test_admin_makes_no_database_and_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    """It works beside the serve processes in theirs: a missing file is not made, an
    empty database is not migrated, a database that does not answer is one line."""
    missing = tmp_path / "nowhere.db"
    refused = admin(f"sqlite:///{missing}", "chat", "abc")
    assert refused.exit_code == 1
    assert "there is no database at" in refused.output and "Traceback" not in refused.output
    assert not missing.exists()
    empty = tmp_path / "empty.db"
    open_engine(f"sqlite:///{empty}").dispose()
    empty.touch()
    bare = admin(f"sqlite:///{empty}", "chat", "abc")
    assert bare.exit_code == 1 and "holds no site yet" in bare.output
    away = admin("postgresql://nobody@127.0.0.1:1/x", "chat", "abc")
    assert away.exit_code == 1 and away.output.count("\n") == 1
    assert "cannot reach the database" in away.output

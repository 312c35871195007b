"""Accounts and sessions through the API (accounts.py, accounts_api.py, csrf.py):
signing up, in and out, the cookies' flags, the CSRF check of cookie-authenticated
changes, the sign-in rate limit, and adopting a browser's seats."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.accounts.store import delete_expired_sessions
from shiftago.interfaces.server.db.schema import AccountRow, GameRow, SessionRow
from shiftago.interfaces.server.db.store import MIGRATIONS, migrate, open_engine, token_hash
from shiftago.interfaces.server.games.store import Store
from support.server_support import create, fresh_database
from support.waiting import wait_until

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.db'}"


@contextmanager
def client_for(db_url: str, peer: str = "testclient", **options: Any) -> Iterator[TestClient]:
    options.setdefault("bot_delay", 0)
    with TestClient(create_app(db_url, **options), client=(peer, 50000)) as client:
        yield client


def sign_up(client: TestClient, name: str = "ann", password: str = PASSWORD, **options: Any) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": password}, **options)


def csrf_headers(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies["csrf"]}


def test_sign_up_signs_in_and_sign_out_signs_out(db_url):
    with client_for(db_url) as client:
        assert client.get("/api/session").json() == {"name": None}
        answer = sign_up(client, "Ann_1")
        assert answer.status_code == 201, answer.text
        assert answer.json()["name"] == "ann_1"  # names are kept in lower case
        session = client.get("/api/session").json()
        assert session["name"] == "ann_1"
        assert session["csrf"] == client.cookies["csrf"]
        out = client.delete("/api/session", headers=csrf_headers(client))
        assert out.status_code == 200
        assert client.get("/api/session").json() == {"name": None}


def test_sign_in_with_the_right_password_only(db_url):
    with client_for(db_url) as client:
        sign_up(client)
        client.cookies.clear()
        wrong = client.post("/api/session", json={"name": "ann", "password": "wrong password"})
        unknown = client.post("/api/session", json={"name": "bob", "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()  # an unknown name answers as a wrong password
        assert client.get("/api/session").json() == {"name": None}
        right = client.post("/api/session", json={"name": "ANN", "password": PASSWORD})
        assert right.status_code == 200, right.text
        assert client.get("/api/session").json()["name"] == "ann"


def test_the_app_hashes_with_the_librarys_recommended_costs():
    """The tests' own process hashes cheaply (support.cheap_hashing); the app's hasher,
    the one every serve process uses, has argon2-cffi's recommended costs."""
    from argon2 import extract_parameters
    from argon2.profiles import get_default_parameters

    from support.cheap_hashing import APP_HASHER

    assert extract_parameters(APP_HASHER.hash("a password")) == get_default_parameters()


def test_the_database_keeps_hashes_not_secrets(sqlite_url):
    with client_for(sqlite_url) as client:
        sign_up(client)
        cookie = client.cookies["shiftago_session"]
    store = Store(open_engine(sqlite_url))
    with store.sessions() as s:
        account = s.query(AccountRow).one()
        session = s.query(SessionRow).one()
    store.dispose()
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    assert session.token_hash == token_hash(cookie)


def test_expired_sessions_are_swept_without_a_sign_in(db_url):
    """The runtime's sweep deletes the sessions that expired, of accounts that never
    sign in again; a session still valid stays and still signs in."""
    with client_for(db_url, session_sweep_seconds=0.1) as client:
        sign_up(client, "ann")
        client.cookies.clear()
        sign_up(client, "bob")
        bob_cookie = client.cookies["shiftago_session"]
        store = client.app.state.hub.store
        past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
        with store.sessions.begin() as s:  # ann's session ran out a minute ago
            s.execute(
                update(SessionRow)
                .where(
                    SessionRow.account_id
                    == select(AccountRow.id).where(AccountRow.name == "ann").scalar_subquery()
                )
                .values(expires=past)
            )

        def names() -> list[str]:
            with store.sessions() as s:
                query = select(AccountRow.name).join(
                    SessionRow, SessionRow.account_id == AccountRow.id
                )
                return sorted(s.scalars(query).all())

        wait_until(names, lambda found: found == ["bob"], timeout=10)
        client.cookies.set("shiftago_session", bob_cookie)
        assert client.get("/api/session").json()["name"] == "bob"


def test_deleting_expired_sessions_counts_them(sqlite_url):
    with client_for(sqlite_url) as client:
        sign_up(client, "ann")
        store = client.app.state.hub.store
        assert delete_expired_sessions(store) == 0
        with store.sessions.begin() as s:
            s.execute(update(SessionRow).values(expires=dt.datetime.now(dt.UTC)))
        assert delete_expired_sessions(store) == 1
        assert client.get("/api/session").json() == {"name": None}


def test_a_taken_name_is_refused_whatever_its_case(sqlite_url):
    with client_for(sqlite_url) as client:
        assert sign_up(client, "ann").status_code == 201
        client.cookies.clear()
        taken = sign_up(client, "ANN")
        assert taken.status_code == 409
        assert taken.json()["field"] == "name"


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": "an", "password": PASSWORD}, "name", "name_form"),
        ({"name": "a" * 21, "password": PASSWORD}, "name", "name_form"),
        ({"name": "a" * 100_000, "password": PASSWORD}, "name", "name_form"),
        ({"name": "ann ann", "password": PASSWORD}, "name", "name_form"),
        ({"name": "änn", "password": PASSWORD}, "name", "name_form"),
        ({"name": "ann", "password": "short"}, "password", "password_length"),
        ({"name": "ann", "password": "x" * 201}, "password", "password_length"),
        ({"name": "ann"}, "password", "invalid"),
    ],
)
def test_bad_names_and_passwords_answer_422_naming_the_field(sqlite_url, body, field, code):
    with client_for(sqlite_url) as client:
        for path in ("/api/accounts", "/api/session"):
            answer = client.post(path, json=body)
            assert answer.status_code == 422, answer.text
            assert answer.json()["field"] == field
            # the rule broken, for the page to say in its language
            assert answer.json()["code"] == code
            if field == "name":  # the rule itself, at any length
                assert "3 to 20 letters a-z" in answer.json()["message"]
            assert client.get("/api/session").json() == {"name": None}


def test_a_common_password_is_refused_with_its_code(sqlite_url):
    with client_for(sqlite_url) as client:
        answer = sign_up(client, "ann", "password123")
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "password_common"
        assert client.get("/api/session").json() == {"name": None}


@pytest.mark.parametrize(
    "name",
    # the site's, its staff's and its computer's names, and the levels' (engine.levels),
    # in any case, with a lookalike letter or a separator added
    [
        *("admin", "Moderator", "SYSTEM", "shiftag0", "c0mputer", "guest", "rnoderator"),
        *("admin_", "sys-tem", "easy", "Maximum", "beginner"),
    ],
)
def test_reserved_names_are_refused_at_sign_up(db_url, name):
    with client_for(db_url) as client:
        answer = sign_up(client, name)
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "name_reserved"
        assert answer.json()["field"] == "name"
        assert client.get("/api/session").json() == {"name": None}


@pytest.mark.parametrize("name", ["---", "___", "-_-"])
def test_a_name_without_a_letter_or_digit_is_refused(sqlite_url, name):
    with client_for(sqlite_url) as client:
        answer = sign_up(client, name)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "name"
        assert "letter or digit" in answer.json()["message"]
        assert answer.json()["code"] == "name_letter"


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [("anno", "ann0"), ("bill", "bi1l"), ("emma", "ernma"), ("ann0", "anno")],
)
def test_a_lookalike_of_an_existing_account_is_refused(db_url, existing, lookalike):
    with client_for(db_url) as client:
        assert sign_up(client, existing).status_code == 201
        client.cookies.clear()
        answer = sign_up(client, lookalike)
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "name_too_like"
        assert existing in answer.json()["message"]
        # a name UTS #39 does not fold stays free (docs/security.md, "Names")
        assert sign_up(client, existing + "q").status_code == 201


def test_the_lookalike_check_holds_in_the_store_too(db_url):
    """Two sign-ups that both pass the route's early look: the insert checks again."""
    from shiftago.interfaces.server.accounts.store import (
        NameTooLike,
        account_like,
        create_account,
    )

    with client_for(db_url) as client:
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        create_account(store, "anno", "x")
        assert account_like(store, "ANN0") == "anno"
        assert account_like(store, "\u0430nn\u043e") == "anno"  # Cyrillic a and o
        assert account_like(store, "annq") is None
        with pytest.raises(NameTooLike):
            create_account(store, "ann0", "x")


def test_the_migration_folds_the_names_of_existing_accounts(db_url):
    """Accounts made before the name keys get theirs from the migration."""
    from alembic import command

    from shiftago.interfaces.server.db.store import migrate, migration_config

    url = db_url
    engine = open_engine(url)
    config = migration_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008")
        connection.exec_driver_sql(
            "INSERT INTO accounts (name, password_hash, created) "
            "VALUES ('ann0', 'x', '2026-01-01 00:00:00+00:00')"
        )
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(select(AccountRow.name_key)).scalar_one() == "anno"
    engine.dispose()
    with client_for(url) as client:
        answer = sign_up(client, "anno")
        assert answer.status_code == 409 and answer.json()["code"] == "name_too_like"


def test_two_lookalike_sign_ups_at_once_cannot_both_be_stored(db_url, monkeypatch):
    """Issue 55: the second of two sign-ups that both passed the early look (here the
    look sees nothing, as before the first was committed) fails on the unique name key
    and is refused in the same words, 409 name_too_like."""
    from shiftago.interfaces.server.accounts import routes
    from shiftago.interfaces.server.accounts import store as account_store

    with client_for(db_url) as client:
        assert sign_up(client, "anno").status_code == 201
        monkeypatch.setattr(routes, "account_like", lambda db, name: None)
        seen: list[str] = []
        real = account_store._name_with_key

        def first_blind(s: Any, key: str) -> str | None:
            seen.append(key)
            return None if len(seen) == 1 else real(s, key)

        monkeypatch.setattr(account_store, "_name_with_key", first_blind)
        client.cookies.clear()
        answer = sign_up(client, "ann0")
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "name_too_like" and "anno" in answer.json()["message"]
        assert seen == ["anno", "anno"]
        with client.app.state.hub.store.sessions() as s:  # type: ignore[attr-defined]
            assert s.scalars(select(AccountRow.name)).all() == ["anno"]


def test_the_migration_keeps_accounts_that_share_a_name_key(db_url):
    """Accounts made before the check may share a key: the oldest keeps it, the later
    ones keep their names (their key marked), and a new lookalike is still refused."""
    from alembic import command

    from shiftago.interfaces.server.db.store import migrate, migration_config

    engine = open_engine(db_url)
    config = migration_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008")
        for name in ("bill", "bi1l"):
            connection.exec_driver_sql(
                "INSERT INTO accounts (name, password_hash, created) "
                f"VALUES ('{name}', 'x', '2026-01-01 00:00:00+00:00')"
            )
    migrate(engine)
    with engine.connect() as connection:
        keys = connection.execute(select(AccountRow.name, AccountRow.name_key)).all()
    engine.dispose()
    assert sorted(keys) == [("bi1l", "bill#2"), ("bill", "bill")]
    with client_for(db_url) as client:
        answer = sign_up(client, "bil1")
        assert answer.status_code == 409 and answer.json()["code"] == "name_too_like"
        assert "bill" in answer.json()["message"]


def cookie_flags(answer: Any) -> dict[str, str]:
    """Each set cookie's name and its attributes (lower case)."""
    flags = {}
    for header in answer.headers.get_list("set-cookie"):
        name = header.split("=", 1)[0]
        flags[name] = header.lower()
    return flags


def test_cookie_flags_over_http(sqlite_url):
    with client_for(sqlite_url) as client:
        flags = cookie_flags(sign_up(client))
    session, csrf = flags["shiftago_session"], flags["csrf"]
    assert "httponly" in session and "samesite=lax" in session and "path=/" in session
    assert "max-age=2592000" in session  # 30 days
    assert "secure" not in session
    assert "httponly" not in csrf and "samesite=strict" in csrf
    device = flags["shiftago_device"]  # the known-device cookie: a year, never for scripts
    assert "httponly" in device and "samesite=lax" in device and "max-age=31536000" in device
    assert "secure" not in device


def test_cookies_are_secure_behind_https_through_a_trusted_proxy(sqlite_url):
    with client_for(sqlite_url, peer="127.0.0.1") as client:
        answer = client.post(
            "/api/accounts",
            json={"name": "ann", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert answer.status_code == 201
        flags = cookie_flags(answer)
        assert "secure" in flags["shiftago_session"] and "secure" in flags["csrf"]
    with client_for(sqlite_url, peer="203.0.113.9") as client:  # no trusted proxy: ignored
        answer = client.post(
            "/api/session",
            json={"name": "ann", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert answer.status_code == 200
        assert "secure" not in cookie_flags(answer)["shiftago_session"]


def test_cookies_are_secure_where_the_public_url_is_https(sqlite_url):
    # a proxy that does not pass the scheme on: the request looks like http
    with client_for(sqlite_url, public_url="https://shiftago.example.org") as client:
        flags = cookie_flags(sign_up(client))
        assert "secure" in flags["shiftago_session"] and "secure" in flags["csrf"]
        assert "secure" in flags["shiftago_device"]
        answer = client.delete("/api/session", headers={"X-CSRF-Token": client.cookies["csrf"]})
        assert answer.status_code in (200, 204), answer.text
        assert "secure" in cookie_flags(answer)["shiftago_session"]  # cleared as it was set


def test_a_cookie_change_needs_the_csrf_token_or_the_app_s_origin(sqlite_url):
    with client_for(sqlite_url) as client:
        sign_up(client)
        body = {"variant": "express", "players": 2}
        bare = client.post("/api/games", json=body)
        assert bare.status_code == 403 and bare.json()["code"] == "csrf"
        foreign = client.post("/api/games", json=body, headers={"Origin": "https://evil.example"})
        assert foreign.status_code == 403
        wrong = client.post("/api/games", json=body, headers={"X-CSRF-Token": "guess"})
        assert wrong.status_code == 403
        # a token equal to a planted csrf cookie is not the session's: refused too
        real = client.cookies["csrf"]
        client.cookies.set("csrf", "planted", domain="testserver.local")
        planted = client.post("/api/games", json=body, headers={"X-CSRF-Token": "planted"})
        assert planted.status_code == 403
        # the token the session was given is what counts, with or without its cookie
        client.cookies.delete("csrf")
        alone = client.post("/api/games", json=body, headers={"X-CSRF-Token": real})
        assert alone.status_code == 201, alone.text
        client.cookies.set("csrf", real, domain="testserver.local")
        assert client.delete("/api/session").status_code == 403  # signing out too
        assert client.get("/api/session").json()["name"] == "ann"
        token = client.post("/api/games", json=body, headers=csrf_headers(client))
        assert token.status_code == 201, token.text
        other_host = client.post("/api/games", json=body, headers={"Origin": "http://localhost"})
        assert other_host.status_code == 403  # not this app's host
        # without a session cookie a request acts for nobody and needs no token
        client.cookies.clear()
        assert client.post("/api/games", json=body).status_code == 201


def test_the_app_s_own_origin_is_enough(sqlite_url):
    with client_for(sqlite_url, public_url="https://shiftago.example") as client:
        sign_up(client)
        answer = client.post(
            "/api/games",
            json={"variant": "express", "players": 2},
            headers={"Origin": "https://shiftago.example"},
        )
        assert answer.status_code == 201, answer.text


def test_an_expired_or_unknown_session_is_a_guest(sqlite_url):
    with client_for(sqlite_url) as client:
        client.cookies.set("shiftago_session", "made-up")
        assert client.get("/api/session").json() == {"name": None}
        answer = client.post("/api/games", json={"variant": "express", "players": 2})
        assert answer.status_code == 201


def test_many_wrong_passwords_are_slowed_down(sqlite_url):
    with client_for(sqlite_url, logins_per_minute=3) as client:
        sign_up(client)  # one attempt of this address
        client.cookies.clear()
        answers = [
            client.post("/api/session", json={"name": "ann", "password": f"wrong {n:04}"})
            for n in range(3)
        ]
        assert [a.status_code for a in answers] == [401, 401, 429]
        assert int(answers[-1].headers["Retry-After"]) >= 1
        # the right password waits too: the name is over its allowance
        right = client.post("/api/session", json={"name": "ann", "password": PASSWORD})
        assert right.status_code == 429


def test_wrong_passwords_are_counted_per_account_name_too(sqlite_url):
    """Guesses at one account from many addresses (through a trusted proxy) are counted
    together: beyond the account's budget an address that failed is refused before its
    password is checked, while one without failures (the owner's) is still let in."""
    with client_for(sqlite_url, peer="127.0.0.1", failed_logins_per_account=2) as client:
        sign_up(client, headers={"X-Forwarded-For": "192.0.2.1"})

        def attempt(address: str, password: str = "wrong password", name: str = "ann") -> int:
            client.cookies.clear()
            return client.post(
                "/api/session",
                json={"name": name, "password": password},
                headers={"X-Forwarded-For": address},
            ).status_code

        statuses = [attempt(f"198.51.100.{n}") for n in range(3)]
        assert statuses == [401, 401, 401]  # each address's first guess is checked
        assert attempt("198.51.100.0") == 429  # the account's budget is spent
        assert attempt("198.51.100.9", name="bob") == 401  # another name: not limited
        assert attempt("192.0.2.1", PASSWORD) == 200  # the owner is not locked out


def test_adopt_gives_the_account_the_seats_of_the_browser(sqlite_url):
    with client_for(sqlite_url) as client:
        game, (orange, green) = create(client)
        other, (other_orange, _) = create(client)
        assert client.post("/api/session/adopt", json={"tokens": [orange or ""]}).status_code == 401
        sign_up(client, "ann")
        headers = csrf_headers(client)
        ask = {"tokens": [orange, "not-a-seat"], "check": True}
        for _ in range(2):  # asking changes nothing
            checked = client.post("/api/session/adopt", json=ask, headers=headers)
            assert checked.status_code == 200 and checked.json() == {"games": [game]}
        assert [s.get("account") for s in client.get(f"/api/games/{game}").json()["seats"]] == [
            None,
            None,
        ]
        answer = client.post(
            "/api/session/adopt", json={"tokens": [orange, "not-a-seat"]}, headers=headers
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"games": [game]}
        seats = client.get(f"/api/games/{game}").json()["seats"]
        assert [s.get("account") for s in seats] == ["ann", None]
        assert [s["name"] for s in seats] == ["ann", "Green"]  # unnamed: the account's name
        checked = client.post("/api/session/adopt", json=ask, headers=headers)
        assert checked.json() == {"games": []}  # nothing left to add
        # a seat with an account keeps it
        client.post("/api/session", json={"name": "ann", "password": PASSWORD}, headers=headers)
        client.cookies.clear()
        sign_up(client, "bob")
        again = client.post(
            "/api/session/adopt",
            json={"tokens": [orange, green, other_orange]},
            headers=csrf_headers(client),
        )
        assert sorted(again.json()["games"]) == sorted([game, other])
        seats = client.get(f"/api/games/{game}").json()["seats"]
        assert [s.get("account") for s in seats] == ["ann", "bob"]


def test_a_game_from_an_imported_record_is_never_adopted(sqlite_url):
    """Played elsewhere (or here before), an imported game would count again on the
    profile: its seats stay without an account, even when one seat is asked for."""
    record = '[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L3 2. Td 3. R5 *\n'
    with client_for(sqlite_url) as client:
        answer = client.post("/api/games/import", json={"record": record})
        assert answer.status_code == 201, answer.text
        imported = answer.json()["id"]
        orange = answer.json()["seats"][0]["join_url"].split("?seat=")[1]
        made, (made_orange, _) = create(client)
        sign_up(client, "ann")
        headers = csrf_headers(client)
        tokens = {"tokens": [orange, made_orange]}
        checked = client.post("/api/session/adopt", json=tokens | {"check": True}, headers=headers)
        assert checked.json() == {"games": [made]}
        adopted = client.post("/api/session/adopt", json=tokens, headers=headers)
        assert adopted.json() == {"games": [made]}
        seats = client.get(f"/api/games/{imported}").json()["seats"]
        assert [s.get("account") for s in seats] == [None, None]


def test_games_imported_before_the_flag_are_known_by_their_headers(db_url):
    """Migration 0016 marks the games stored before it whose record kept an Event or a
    Date header; a game made here has neither."""
    record = '[Event "Club night"]\n[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L3 *\n'
    with client_for(db_url) as client:
        imported = client.post("/api/games/import", json={"record": record}).json()["id"]
        made, _ = create(client)
    engine = open_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0015")
    migrate(engine)
    with engine.connect() as connection:
        flags = dict(connection.execute(select(GameRow.id, GameRow.imported)).all())
    engine.dispose()
    assert flags == {imported: True, made: False}


def test_a_profile_lists_an_unlisted_game_to_its_player_only(sqlite_url):
    """A game made without ``public`` (against the computer, with a friend) stays off
    the player's public profile unless rated; the player signed in sees it there."""
    with client_for(sqlite_url) as client:
        unlisted, (orange, _) = create(client)
        listed, (listed_orange, _) = create(client, public=True)
        sign_up(client, "ann")
        adopted = client.post(
            "/api/session/adopt",
            json={"tokens": [orange, listed_orange]},
            headers=csrf_headers(client),
        )
        assert sorted(adopted.json()["games"]) == sorted([unlisted, listed])
        own = client.get("/api/players/ann").json()["games"]
        assert sorted(own) == sorted([unlisted, listed])
        recent = [g["id"] for g in client.get("/api/players/ann/games").json()["games"]]
        assert sorted(recent) == sorted([unlisted, listed])
        client.cookies.clear()  # anybody else
        assert client.get("/api/players/ann").json()["games"] == [listed]
        assert [g["id"] for g in client.get("/api/players/ann/games").json()["games"]] == [listed]


# --- the account's own password and closing (PUT /api/account/password, POST
# /api/account/close): the current password confirms each, checked and limited as a
# sign-in is; a new password ends every other session; a closed account signs in no
# more, and keeps its games and name.

NEW_PASSWORD = "staple battery"


@contextmanager
def browsers(db_url: str, n: int = 2, **options: Any) -> Iterator[list[TestClient]]:
    """``n`` browsers (each its own cookies) on one app."""
    options.setdefault("bot_delay", 0)
    app = create_app(db_url, **options)
    clients = [TestClient(app, client=("203.0.113.9", 50000 + i)) for i in range(n)]
    with clients[0]:
        yield clients


def sign_in_as_ann(client: TestClient, password: str = PASSWORD) -> int:
    return client.post("/api/session", json={"name": "ann", "password": password}).status_code


def change(client: TestClient, password: str, new_password: str) -> Any:
    body = {"password": password, "new_password": new_password}
    return client.put("/api/account/password", json=body, headers=csrf_headers(client))


def close(client: TestClient, password: str) -> Any:
    return client.post(
        "/api/account/close", json={"password": password}, headers=csrf_headers(client)
    )


def test_a_new_password_ends_the_other_sessions_and_keeps_this_one(db_url):
    with browsers(db_url) as (here, there):
        assert here.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).is_success
        assert sign_in_as_ann(there) == 200
        wrong = change(here, "not her password", NEW_PASSWORD)
        assert wrong.status_code == 403
        assert wrong.json()["code"] == "wrong_password" and wrong.json()["field"] == "password"
        assert there.get("/api/session").json()["name"] == "ann"  # nothing changed

        done = change(here, PASSWORD, NEW_PASSWORD)
        assert done.status_code == 200, done.text
        assert done.json()["name"] == "ann"
        assert here.get("/api/session").json()["name"] == "ann"
        assert there.get("/api/session").json() == {"name": None}
        assert sign_in_as_ann(there, PASSWORD) == 401
        assert sign_in_as_ann(there, NEW_PASSWORD) == 200


@pytest.mark.parametrize(
    ("new_password", "code"),
    [("short", "password_length"), ("password123", "password_common")],
)
def test_a_new_password_keeps_the_rules_of_a_new_account(sqlite_url, new_password, code):
    with browsers(sqlite_url, 1) as (here,):
        here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        refused = change(here, PASSWORD, new_password)
        assert refused.status_code == 422
        assert refused.json()["field"] == "new_password" and refused.json()["code"] == code
        here.cookies.clear()
        assert sign_in_as_ann(here, PASSWORD) == 200


def test_closing_the_account_signs_it_out_for_good_and_keeps_its_name(db_url):
    with browsers(db_url) as (here, there):
        here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        assert sign_in_as_ann(there) == 200
        assert close(here, "not her password").status_code == 403
        assert there.get("/api/session").json()["name"] == "ann"  # still open

        done = close(here, PASSWORD)
        assert done.status_code == 200, done.text
        assert done.json() == {"name": None}
        for browser in (here, there):
            assert browser.get("/api/session").json() == {"name": None}
        refused = here.post("/api/session", json={"name": "ann", "password": PASSWORD})
        assert refused.status_code == 403 and refused.json()["code"] == "account_closed"
        assert here.get("/api/players/ann").json()["closed"] is True
        taken = here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        assert taken.status_code == 409


def test_signed_out_browsers_change_nothing(sqlite_url):
    with browsers(sqlite_url, 1) as (here,):
        here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        here.delete("/api/session", headers=csrf_headers(here))
        body = {"password": PASSWORD, "new_password": NEW_PASSWORD}
        assert here.put("/api/account/password", json=body).status_code == 401
        assert here.post("/api/account/close", json={"password": PASSWORD}).status_code == 401
        assert sign_in_as_ann(here) == 200


def test_without_the_csrf_header_nothing_changes(sqlite_url):
    with browsers(sqlite_url, 1) as (here,):
        here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        body = {"password": PASSWORD, "new_password": NEW_PASSWORD}
        assert here.put("/api/account/password", json=body).status_code == 403
        assert here.post("/api/account/close", json={"password": PASSWORD}).status_code == 403
        assert here.get("/api/session").json()["name"] == "ann"


def test_wrong_passwords_here_count_as_wrong_sign_ins(sqlite_url):
    """A browser left signed in is no way round the limit of wrong passwords."""
    with browsers(sqlite_url, 1, failed_logins_per_account_and_address=2) as (here,):
        here.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        statuses = [change(here, f"wrong password {n}", NEW_PASSWORD).status_code for n in range(3)]
        assert statuses == [403, 403, 429]
        assert close(here, PASSWORD).status_code == 429
        assert here.get("/api/session").json()["name"] == "ann"

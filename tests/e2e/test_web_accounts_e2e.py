"""End to end (issue 17): the account widget in headless Chromium: signing up shows the
name, linked to the profile; the browser's games are added to the account (a change made
with the session cookie, so the page sends the CSRF token); the profile page shows the
ratings and draws their history; the leaderboard lists settled ratings."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from argon2 import extract_parameters
from argon2.profiles import get_default_parameters
from test_web_e2e import create

from shiftago.formats.record import parse_records
from shiftago.interfaces.server.accounts.store import close_account, find_account
from shiftago.interfaces.server.db.schema import AccountRow, RatingChangeRow, RatingRow
from shiftago.interfaces.server.db.store import open_engine
from shiftago.interfaces.server.games.store import Store
from support.web_fixtures import LiveServer, NewContext


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test signs up an account of its own name (ann,
    bea, cleo) and reads only its own games; the one rating given (ann's) is the
    leaderboard's only one."""
    return shared_server


def give_rating(
    server: LiveServer, name: str, game_id: str, rating: float, deviation: float
) -> None:
    """An express-2 rating and one history point, as a rated game would leave them."""
    store = Store(open_engine(server.db_url))
    try:
        account = find_account(store, name)
        assert account is not None
        stamp = dt.datetime.now(dt.UTC)
        with store.sessions.begin() as s:
            s.add(
                RatingRow(
                    account_id=account.id,
                    category="express-2",
                    rating=rating,
                    deviation=deviation,
                    volatility=0.06,
                    games=1,
                    updated=stamp,
                )
            )
            s.add(
                RatingChangeRow(
                    account_id=account.id,
                    game_id=game_id,
                    category="express-2",
                    rating_before=1500.0,
                    rating_after=rating,
                    deviation_after=deviation,
                    at=stamp,
                )
            )
    finally:
        store.dispose()


def stored_hash(server: LiveServer, name: str) -> str:
    """The password hash the server stored for the account ``name``."""
    store = Store(open_engine(server.db_url))
    try:
        with store.sessions() as s:
            return str(s.query(AccountRow).filter_by(name=name).one().password_hash)
    finally:
        store.dispose()


def sign_up(page: Any, name: str) -> None:
    """Sign up as a new user does: the header's account widget, on the page as it is."""
    page.click("[data-testid=account-open]")
    boxes = [
        page.locator(f"[data-testid=account-form] input[name={field}]").bounding_box()
        for field in ("name", "password")
    ]
    assert boxes[0] and boxes[1] and boxes[1]["height"] == boxes[0]["height"] >= 36  # styled alike
    page.fill("[data-testid=account-form] input[name=name]", name)
    page.fill("[data-testid=account-form] input[name=password]", "correct horse")
    page.click("[data-testid=sign-up]")
    page.locator("[data-testid=account-name]").wait_for()


def start_from_home(page: Any) -> str:
    """Start the game the home page's form describes; the new game's id."""
    page.click("[data-testid=start-game]")
    page.wait_for_url("**/play/**")
    return str(page.url.split("/play/")[1].split("?")[0])


def test_sign_up_adopt_and_the_profile(live_server: LiveServer, new_context: NewContext):
    game = create(live_server, variant="express", players=2)
    token = game["seats"][0]["join_url"].split("?seat=")[1]
    # ...and both seats of another: people who took turns at one screen, whose seats
    # nobody can tell apart, are never offered (a walk added such a game to an account)
    both = create(live_server, variant="express", players=2)
    both_tokens = {s["colour"]: s["join_url"].split("?seat=")[1] for s in both["seats"]}
    context = new_context()
    page = context.new_page()
    page.goto(live_server.url + "/")
    # the browser holds a seat of the game (as after playing it here)
    page.evaluate(
        "entry => localStorage.setItem('shiftago.games', entry)",
        json.dumps({game["id"]: {"tokens": {"o": token}}, both["id"]: {"tokens": both_tokens}}),
    )
    page.reload()
    sign_up(page, "Ann")
    name = page.locator("[data-testid=account-name]")
    assert name.text_content() == "ann"
    # a serve process hashes at the library's costs (the tests' own process does not:
    # support.cheap_hashing)
    assert extract_parameters(stored_hash(live_server, "ann")) == get_default_parameters()
    assert name.get_attribute("href") == "/players/ann"
    cookies = {c["name"]: c for c in context.cookies()}
    assert (
        cookies["shiftago_session"]["httpOnly"] and cookies["shiftago_session"]["sameSite"] == "Lax"
    )

    # offered because the browser holds a seat with no account yet, and counted
    adopt = page.locator("[data-testid=adopt]")
    assert adopt.text_content() == "Add 1 game from this browser"
    adopt.click()
    page.wait_for_function(
        "() => document.querySelector('.account-note').textContent === '1 game added'"
    )
    assert adopt.count() == 0
    seats = live_server.api("GET", f"/api/games/{game['id']}").json()["seats"]
    assert [s["account"] for s in seats] == ["ann", None]
    seats = live_server.api("GET", f"/api/games/{both['id']}").json()["seats"]
    assert [s["account"] for s in seats] == [None, None]
    page.reload()  # nothing left to add: nothing offered
    name.wait_for()
    page.wait_for_load_state("networkidle")
    assert adopt.count() == 0

    give_rating(live_server, "ann", game["id"], 1662.5, 90.0)
    name.click()
    page.wait_for_url("**/players/ann")
    row = page.locator("[data-testid=ratings] tr[data-category=express-2]")
    row.wait_for()
    assert row.locator("td").all_text_contents() == ["Express, 2 players", "1663", "±90", "1"]
    assert page.locator("[data-testid=player-closed]").is_hidden()  # an open account
    page.locator("[data-testid=history-plot] circle").wait_for()
    assert page.locator("[data-testid=history-plot] circle").count() == 1
    games = page.locator("[data-testid=games] tbody tr")
    assert games.count() == 1

    page.goto(live_server.url + "/")
    page.click("header nav >> text=Leaderboard")  # the home page links to it
    page.wait_for_url("**/leaderboard")
    first = page.locator("[data-testid=leaderboard] tbody tr").first
    first.wait_for()
    assert first.locator("td").all_text_contents() == ["1", "ann", "1,663", "±90", "1"]
    category = page.locator("[data-testid=category]")
    assert category.input_value() == "express-2"
    assert category.locator("option:checked").inner_text() == "Express, 2 players"

    # signing out from the widget forgets the session
    page.click("[data-testid=sign-out]")
    page.locator("[data-testid=account-open]").wait_for()
    assert live_server.api("GET", "/api/session").json() == {"name": None}
    assert "shiftago_session" not in {c["name"] for c in context.cookies()}


def test_signing_up_in_a_browser_that_holds_no_game_then_starting_games(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    sign_up(page, "Bea")
    # the name and the sign-out button, nothing offered to add and no stray text
    assert page.locator("[data-testid=adopt]").count() == 0
    assert page.inner_text("[data-testid=account]").split() == ["bea", "Sign", "out"]

    # a game started here against the computer is hers at once: on her page, her seat's
    page.select_option("[data-testid=seat-kind-1]", "computer")
    assert page.get_attribute("[data-testid=seat-name-0]", "placeholder") == "bea"
    game_id = start_from_home(page)
    seats = live_server.api("GET", f"/api/games/{game_id}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("bea", "bea"), ("Computer", None)]
    own = page.request.get(live_server.url + "/api/players/bea").json()
    assert own["games"] == [game_id]
    # not listed publicly: on her page for her only
    assert live_server.api("GET", "/api/players/bea").json()["games"] == []

    # two seats at this screen (taking turns): whose each is, the page cannot tell
    page.goto(live_server.url + "/")
    page.locator("[data-testid=account-name]").wait_for()
    page.select_option("[data-testid=seat-kind-1]", "here")
    assert page.get_attribute("[data-testid=seat-name-0]", "placeholder") == "Orange"
    shared = start_from_home(page)
    seats = live_server.api("GET", f"/api/games/{shared}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("Orange", None), ("Green", None)]
    own = page.request.get(live_server.url + "/api/players/bea").json()
    assert own["games"] == [game_id]

    # her page offers her games as one file of records, the unlisted one included
    page.goto(live_server.url + "/players/bea")
    with page.expect_download() as download:
        page.click("[data-testid=records-link]")
    assert download.value.suggested_filename == "bea-shiftago.txt"
    [record] = parse_records(Path(download.value.path()).read_text())
    assert [seat.name for seat in record.seats] == ["bea", "Computer"]
    # a visitor is told what the empty list leaves out, not that she never played
    visitor = new_context().new_page()
    visitor.goto(live_server.url + "/players/bea")
    visitor.locator("#no-games").wait_for()
    assert visitor.inner_text("#no-games") == "No public or rated games yet."


def test_the_page_of_a_player_who_does_not_exist(live_server: LiveServer, new_context: NewContext):
    page = new_context().new_page()
    page.goto(live_server.url + "/players/nobody-here")
    error = page.locator("#player-error")
    error.wait_for()
    assert error.inner_text() == "There is no player nobody-here."
    for part in ("#ratings-part", "#games-card"):  # there, and hidden
        assert page.locator(part).count() == 1
        assert page.locator(part).is_hidden()


def test_a_closed_account_is_signed_out_and_says_so(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    sign_up(page, "cleo")
    store = Store(open_engine(live_server.db_url))
    try:  # what `shiftago admin close-account cleo` does
        assert close_account(store, "cleo") is not None
    finally:
        store.dispose()
    page.reload()  # the browser's session ended with the account
    page.locator("[data-testid=account-open]").wait_for()
    page.click("[data-testid=account-open]")
    page.fill("[data-testid=account-form] input[name=name]", "cleo")
    page.fill("[data-testid=account-form] input[name=password]", "correct horse")
    page.click("[data-testid=sign-in]")
    error = page.locator("[data-testid=account-error]")
    error.wait_for()
    assert "This account is closed." in error.inner_text()  # errors.js, by its code
    assert page.locator("[data-testid=account-name]").count() == 0
    page.goto(live_server.url + "/players/cleo")
    page.locator("[data-testid=player-closed]").wait_for()
    assert page.locator("[data-testid=player-name]").inner_text() == "cleo"


def dora(password: str) -> dict[str, str]:
    """A sign-in's body for the account of the test below."""
    return {"name": "dora", "password": password}


def test_a_player_changes_the_password_and_closes_the_account_on_the_own_page(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    sign_up(page, "dora")
    elsewhere = new_context().new_page()  # a second browser signed in as her
    elsewhere.goto(live_server.url + "/")
    answer = elsewhere.request.post(
        live_server.url + "/api/session", data={"name": "dora", "password": "correct horse"}
    )
    assert answer.ok
    page.goto(live_server.url + "/players/dora")
    page.locator("[data-testid=own-account]").wait_for()

    def change(current: str, new: str, again: str) -> None:
        page.fill("[data-testid=current-password]", current)
        page.fill("[data-testid=new-password]", new)
        page.fill("[data-testid=new-password-again]", again)
        page.click("[data-testid=password-change]")

    change("correct horse", "staple battery", "staple batery")
    assert page.inner_text("#password-error") == "The two new passwords differ."
    change("not her password", "staple battery", "staple battery")
    page.wait_for_function("() => document.querySelector('#password-error').textContent")
    assert page.inner_text("#password-error") == "Wrong password."
    assert live_server.api("POST", "/api/session", json=dora("correct horse")).is_success
    change("correct horse", "staple battery", "staple battery")
    page.locator("[data-testid=password-done]").wait_for()
    assert page.input_value("[data-testid=current-password]") == ""
    assert elsewhere.request.get(live_server.url + "/api/session").json() == {"name": None}
    assert page.request.get(live_server.url + "/api/session").json()["name"] == "dora"
    assert live_server.api("POST", "/api/session", json=dora("staple battery")).is_success

    page.click("#close-account-box summary")
    page.fill("[data-testid=close-password]", "staple battery")
    with page.expect_navigation():
        page.click("[data-testid=close-account]")
    page.locator("[data-testid=player-closed]").wait_for()
    page.locator("[data-testid=account-open]").wait_for()  # signed out
    assert page.locator("[data-testid=own-account]").is_hidden()
    refused = live_server.api("POST", "/api/session", json=dora("staple battery"))
    assert refused.status_code == 403 and refused.json()["code"] == "account_closed"


def test_find_a_player_by_the_beginning_of_the_name(
    live_server: LiveServer, new_context: NewContext
):
    for name in ("erin", "erik", "zoltan"):
        answer = live_server.api(
            "POST", "/api/accounts", json=dora("correct horse") | {"name": name}
        )
        assert answer.status_code == 201, answer.text
    page = new_context().new_page()
    page.goto(live_server.url + "/leaderboard")
    page.fill("[data-testid=find-name]", "nobody")
    page.click("[data-testid=find-go]")
    page.locator("[data-testid=find-error]").wait_for()
    assert page.inner_text("[data-testid=find-error]") == "There is no player nobody."
    page.fill("[data-testid=find-name]", "ER")
    page.wait_for_function("() => document.querySelectorAll('#find-names option').length === 2")
    assert page.eval_on_selector_all("#find-names option", "os => os.map(o => o.value)") == [
        "erik",
        "erin",
    ]
    assert page.locator("[data-testid=find-error]").is_hidden()
    page.click("[data-testid=find-go]")  # the beginning of two names: both are named
    page.locator("[data-testid=find-error]").wait_for()
    assert page.inner_text("[data-testid=find-error]") == "Several names begin with ER: erik, erin."
    page.fill("[data-testid=find-name]", "Erin")
    with page.expect_navigation():
        page.click("[data-testid=find-go]")
    assert page.url.endswith("/players/erin")
    page.locator("[data-testid=player-name]:has-text('erin')").wait_for()
    page.goto(live_server.url + "/leaderboard")
    page.fill("[data-testid=find-name]", "zolt")  # the beginning of one name is enough
    with page.expect_navigation():
        page.click("[data-testid=find-go]")
    assert page.url.endswith("/players/zoltan")


def test_escape_closes_the_sign_in_form(live_server: LiveServer, new_context: NewContext):
    """The form opened by "Sign in" kept the keyboard in its name field on Escape (a
    screen reader's walk): Escape closes it and the keyboard is back on the button."""
    page = new_context().new_page()
    page.goto(live_server.url + "/how-to-play")
    page.focus("[data-testid=account-open]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.name === 'name'")
    page.keyboard.press("Escape")
    assert page.is_hidden("[data-testid=account-form]")
    assert page.get_attribute("[data-testid=account-open]", "aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "account-open"

"""The lobby in Chromium (issue 17, "Open challenges"): a 3-player challenge opened in
one browser and accepted from two others; all three pages land in the game, each on its
own seat. ``shiftago serve`` runs in a subprocess; every wait is on a condition."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from test_web_accounts_e2e import sign_up

from support import waiting
from support.web_fixtures import LiveServer, NewContext

PLAY = re.compile(r".*/play/[^/?]+\?seat=.+")


def open_seeks(server: LiveServer) -> list[dict[str, Any]]:
    seeks: list[dict[str, Any]] = server.api("GET", "/api/seeks").json()["seeks"]
    return seeks


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module, its lobby empty when a test begins, as a new server's
    is: a challenge of an earlier test is gone once it fills, or a few seconds after its
    page closed (``LEAVE_GRACE``). The accounts' names are each test's own: a guest may
    not take a name like an account's."""
    waiting.wait_until(
        lambda: open_seeks(shared_server), lambda seeks: seeks == [], what="an empty lobby"
    )
    return shared_server


def home(new_context: NewContext, server: LiveServer) -> Any:
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-live=true]")
    return page


def public_games(server: LiveServer) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = server.api("GET", "/api/games?public=true").json()["games"]
    return games


def seat_of(page: Any) -> tuple[str, str]:
    """The game and the seat's secret of a page that plays."""
    parts = urlsplit(page.url)
    return parts.path.rsplit("/", 1)[1], parse_qs(parts.query)["seat"][0]


def three_player_challenge(maker: Any, joiner: Any, time: str | None = None) -> None:
    """``maker`` (Ann) opens a 3-player challenge, ``joiner`` (Ben) takes a place in it
    and waits for the third."""
    maker.select_option("[data-testid=seek-players]", "3")
    if time is not None:
        maker.select_option("[data-testid=seek-time]", time)
    maker.fill("[data-testid=seek-name]", "Ann")
    maker.click("[data-testid=create-seek]")
    maker.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    joiner.fill("[data-testid=seek-name]", "Ben")
    joiner.click("[data-testid=seek] [data-testid=accept-seek]")
    joiner.wait_for_selector("[data-testid=seek] [data-testid=seek-waiting]")


def test_a_three_player_challenge_filled_from_three_browsers(
    live_server: LiveServer, new_context: NewContext
):
    public_before = {g["id"] for g in public_games(live_server)}
    ann = home(new_context, live_server)
    ben = home(new_context, live_server)
    cid = home(new_context, live_server)

    three_player_challenge(ann, ben, time="3+2")
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=seek]')?.textContent.includes('2/3')"
    )
    # no game yet: the public games are the ones from before the challenge
    assert {g["id"] for g in public_games(live_server)} == public_before

    cid.wait_for_function(
        "() => document.querySelector('[data-testid=seek]')?.textContent.includes('Ben')"
    )
    cid.fill("[data-testid=seek-name]", "Cid")
    cid.click("[data-testid=seek] [data-testid=accept-seek]")

    for page in (ann, ben, cid):
        page.wait_for_url(PLAY)
        page.wait_for_selector("[data-testid=status]")
    seats = [seat_of(page) for page in (ann, ben, cid)]
    assert len({game for game, _ in seats}) == 1
    assert len({secret for _, secret in seats}) == 3
    game_id = seats[0][0]

    game = live_server.api("GET", f"/api/games/{game_id}").json()
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Ben", "Cid"]
    assert game["clock"]["initial"] == 180 and game["clock"]["increment"] == 2
    for page, (_, secret) in zip((ann, ben, cid), seats, strict=True):
        remembered = page.evaluate(
            "(id) => JSON.parse(localStorage.getItem('shiftago.games') || '{}')[id]", game_id
        )
        assert secret in remembered["tokens"].values()
    assert live_server.api("GET", "/api/seeks").json()["seeks"] == []


def meet_in_a_rated_challenge(creator: Any, acceptor: Any) -> str:
    """``creator`` opens a rated challenge (as the form stands), ``acceptor`` takes it;
    both pages land on their seats. The game's id."""
    creator.wait_for_selector("[data-testid=seek-rated]:not([disabled])")
    creator.check("[data-testid=seek-rated]")
    creator.click("[data-testid=create-seek]")
    creator.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    # a new account's rating is provisional: it reads 1500? as on its cards
    acceptor.wait_for_selector("[data-testid=seek] [data-testid=accept-seek]")
    assert "(1500?)" in acceptor.text_content("[data-testid=seek]")
    acceptor.click("[data-testid=seek] [data-testid=accept-seek]")
    for page in (creator, acceptor):
        page.wait_for_url(PLAY)
    return seat_of(creator)[0]


def test_signed_up_on_the_home_page_two_players_meet_in_a_rated_challenge(
    live_server: LiveServer, new_context: NewContext
):
    ann = home(new_context, live_server)
    ben = home(new_context, live_server)
    assert ann.is_disabled("[data-testid=seek-rated]")  # a guest plays casual games
    for page, name in ((ann, "anna"), (ben, "benno")):
        sign_up(page, name)  # no reload: the form follows the header's account
        assert page.is_enabled("[data-testid=seek-rated]")
        assert page.is_hidden("[data-testid=seek-name]")

    # a rating range the server would refuse is refused on the page, in its own words
    ann.check("[data-testid=seek-rated]")
    for low, high in (("1800", "1200"), ("-50", ""), ("", "5000")):
        ann.fill("#seek-min", low)
        ann.fill("#seek-max", high)
        ann.click("[data-testid=create-seek]")
        ann.locator("#seek-error").wait_for()
        assert "two whole numbers from 0 to 4000, the lowest first" in ann.inner_text("#seek-error")
    assert live_server.api("GET", "/api/seeks").json()["seeks"] == []
    ann.fill("#seek-min", "")
    ann.fill("#seek-max", "")
    ann.uncheck("[data-testid=seek-rated]")

    game_id = meet_in_a_rated_challenge(ann, ben)
    game = live_server.api("GET", f"/api/games/{game_id}").json()
    assert game["rated"] is True
    assert sorted(s["account"] for s in game["seats"]) == ["anna", "benno"]

    # signing out takes the rated choice away again
    ann.goto(live_server.url + "/")
    ann.wait_for_selector("#lobby[data-live=true]")
    ann.check("[data-testid=seek-rated]")
    ann.click("[data-testid=sign-out]")
    ann.locator("[data-testid=account-open]").wait_for()
    assert ann.is_disabled("[data-testid=seek-rated]")
    assert not ann.is_checked("[data-testid=seek-rated]")
    assert ann.is_visible("[data-testid=seek-name]")


def test_a_custom_time_out_of_range_is_refused_in_its_own_words(
    live_server: LiveServer, new_context: NewContext
):
    page = home(new_context, live_server)
    page.select_option("[data-testid=seek-time]", "custom")
    error = page.locator("#seek-error")
    for minutes, seconds, increment, said in (
        ("0.1", "0", "3", "minutes of a custom time are a whole number from 0 to 180"),
        ("500", "0", "3", "minutes of a custom time are a whole number from 0 to 180"),
        ("0", "60", "3", "seconds of a custom time are a whole number from 0 to 59"),
        ("0", "9", "3", "A custom time is 10 seconds to 3 hours"),
        ("180", "1", "3", "A custom time is 10 seconds to 3 hours"),
        ("5", "0", "-1", "increment of a custom time is a whole number of seconds"),
    ):
        page.fill("#seek-minutes", minutes)
        page.fill("#seek-seconds", seconds)
        page.fill("#seek-increment", increment)
        page.click("[data-testid=create-seek]")
        error.wait_for()
        assert said in error.inner_text()
    assert live_server.api("GET", "/api/seeks").json()["seeks"] == []  # nothing was made
    page.fill("#seek-minutes", "0")
    page.fill("#seek-seconds", "30")
    page.fill("#seek-increment", "2")
    page.click("[data-testid=create-seek]")
    page.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    assert error.is_hidden()
    assert "0:30+2" in page.inner_text("[data-testid=seek]")
    [seek] = live_server.api("GET", "/api/seeks").json()["seeks"]
    assert seek["clock"]["initial"] == 30 and seek["clock"]["increment"] == 2
    # the lobby left empty for the next test, without the wait for the page's grace
    page.click("[data-testid=seek] [data-testid=cancel-seek]")
    waiting.wait_until(lambda: open_seeks(live_server), lambda seeks: seeks == [], what="seeks")


def test_a_guest_is_asked_to_sign_in_to_accept_a_rated_challenge(
    live_server: LiveServer, new_context: NewContext
):
    dee = home(new_context, live_server)
    guest = home(new_context, live_server)
    sign_up(dee, "dee")
    dee.check("[data-testid=seek-rated]")
    dee.click("[data-testid=create-seek]")
    dee.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    offer = guest.locator("[data-testid=seek] [data-testid=accept-needs-account]")
    offer.wait_for()
    assert offer.inner_text() == "Sign in to accept"
    assert guest.locator("[data-testid=seek] [data-testid=accept-seek]").count() == 0
    sign_up(guest, "eve")  # no reload: the list follows the header's account
    guest.click("[data-testid=seek] [data-testid=accept-seek]")
    for page in (dee, guest):
        page.wait_for_url(PLAY)


def test_an_accounts_challenge_is_its_own_on_its_other_device(
    live_server: LiveServer, new_context: NewContext
):
    """An Italian walk made a challenge on her tablet and was offered "Accept" on it on
    her phone, signed in to the same account: there it is hers, and she may cancel it."""
    tablet = home(new_context, live_server)
    sign_up(tablet, "gia")
    tablet.click("[data-testid=create-seek]")
    tablet.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    phone_context = new_context()
    answer = phone_context.request.post(
        live_server.url + "/api/session", data={"name": "gia", "password": "correct horse"}
    )
    assert answer.status == 200, answer.text()
    phone = phone_context.new_page()
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("#lobby[data-live=true]")
    phone.wait_for_selector("[data-testid=seek] [data-testid=seek-waiting]")
    assert phone.locator("[data-testid=seek] [data-testid=accept-seek]").count() == 0
    phone.click("[data-testid=seek] [data-testid=cancel-seek]")  # by the session alone
    tablet.wait_for_selector("[data-testid=seek]", state="detached")
    assert open_seeks(live_server) == []


def test_a_place_taken_in_a_challenge_its_maker_cancels_is_told_so(
    live_server: LiveServer, new_context: NewContext
):
    """A player who had joined a 3-player challenge saw its row go without a word when
    its maker cancelled it (a tablet walk)."""
    ann = home(new_context, live_server)
    ben = home(new_context, live_server)
    three_player_challenge(ann, ben)
    ann.click("[data-testid=seek] [data-testid=cancel-seek]")
    ben.wait_for_selector("[data-testid=seek]", state="detached")
    ben.wait_for_selector("#seek-error:not([hidden])")
    assert ben.text_content("#seek-error") == "The challenge you joined ended before it filled."
    assert ann.is_hidden("#seek-error")  # its maker cancelled it: nothing to tell


def test_a_challenge_with_a_computer_seat_fills_with_its_people(
    live_server: LiveServer, new_context: NewContext
):
    """Three players and one computer seat: two people fill it, the computer plays the
    third seat at the level chosen; a challenge with the computer is not rated."""
    ann = home(new_context, live_server)
    ben = home(new_context, live_server)
    assert ann.is_hidden("#seek-computer-box")  # 2 players: no room for the computer
    ann.select_option("[data-testid=seek-players]", "3")
    assert [o.get_attribute("value") for o in ann.locator("#seek-computers option").all()] == [
        "0",
        "1",
    ]
    assert ann.is_disabled("[data-testid=seek-level]")
    ann.select_option("[data-testid=seek-computers]", "1")
    ann.wait_for_selector("[data-testid=seek-level] option[value='2']", state="attached")
    ann.select_option("[data-testid=seek-level]", "2")
    ann.fill("[data-testid=seek-name]", "Ann")
    ann.click("[data-testid=create-seek]")
    ann.wait_for_selector("[data-testid=seek] [data-testid=cancel-seek]")
    listed = ben.wait_for_selector("[data-testid=seek]:has-text('1 computer seat, level 2')")
    assert "1/2" in listed.inner_text()  # Ann of the two people's places
    ben.fill("[data-testid=seek-name]", "Ben")
    ben.click("[data-testid=seek] [data-testid=accept-seek]")
    for page in (ann, ben):
        page.wait_for_url(PLAY)
    game = live_server.api("GET", f"/api/games/{seat_of(ann)[0]}").json()
    kinds = sorted((s["kind"], s["name"], s.get("level")) for s in game["seats"])
    assert kinds == [("computer", "Computer", 2), ("human", "Ann", None), ("human", "Ben", None)]
    assert game["rated"] is False


def test_the_challenge_s_computer_level_is_the_one_last_chosen(
    live_server: LiveServer, new_context: NewContext
):
    """A level chosen for a computer seat on the home page's form is the lobby's too, as
    the level chosen in the lobby is the form's next time: one player, one level."""
    page = home(new_context, live_server)
    page.wait_for_selector("[data-testid=seek-level] option[value='5']", state="attached")
    gentle = page.input_value("[data-testid=seek-level]")
    page.wait_for_selector("[data-testid=seat-level-1] option[value='5']", state="attached")
    page.select_option("[data-testid=seat-level-1]", "5")
    page.reload()
    page.wait_for_selector("#lobby[data-live=true]")
    page.wait_for_selector("[data-testid=seek-level] option[value='5']", state="attached")
    assert (gentle, page.input_value("[data-testid=seek-level]")) == ("2", "5")
    page.select_option("[data-testid=seek-players]", "3")
    page.select_option("[data-testid=seek-computers]", "1")
    page.select_option("[data-testid=seek-level]", "4")
    page.reload()
    page.wait_for_selector("[data-testid=seat-level-1] option[value='4']", state="attached")
    assert page.input_value("[data-testid=seat-level-1]") == "4"


def test_the_menus_lobby_link_lands_on_the_lobby_on_a_phone(
    live_server: LiveServer, new_context: NewContext
):
    """On a phone the cards above the lobby fill after the browser has scrolled to
    ``#lobby``; the page keeps the lobby at the top while it settles (a French phone walk
    landed a thousand pixels above it, in the new-game form)."""
    phone = new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ).new_page()
    phone.goto(live_server.url + "/leaderboard")
    phone.click("header [data-testid=menu-toggle]")
    phone.click("header nav[data-testid=menu] a[href='/#lobby']")
    phone.wait_for_selector("#lobby[data-live=true]")
    # the seats' computer levels come last of what fills the form above the lobby
    phone.wait_for_function(
        "() => document.querySelectorAll('select[data-testid^=seat-level-] option').length > 0"
    )
    phone.wait_for_function(
        "() => Math.abs(document.getElementById('lobby').getBoundingClientRect().top) < 2"
    )
    assert phone.evaluate("scrollY") > 1000

"""Games that follow the account, in Chromium (issue 49): two browser contexts signed in
as the same account, where a game started in one is played on in the other with its seat
and clock; the header's count of the games waiting for the player, and the notification
of a turn in a game not in view; a challenge to a named player sent, accepted, played."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from test_web_abort_notify_e2e import RECORD_NOTIFICATIONS, notifications
from test_web_e2e import OpenSeat, create, play, playable, read, seat, wait_until

from support.board_clicks import PLAYABLE
from support.web_fixtures import LiveServer, NewContext

__all__ = ["seat"]  # the fixture, used by name

PASSWORD = "correct horse"


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test signs up accounts of its own (names no other
    test of the module takes) and reads only their games."""
    return shared_server


def account_context(new_context: NewContext, server: LiveServer, name: str, new: bool) -> Any:
    """A browser context signed in as ``name`` (a new account when ``new``)."""
    context = new_context()
    path = "/api/accounts" if new else "/api/session"
    answer = context.request.post(server.url + path, data={"name": name, "password": PASSWORD})
    assert answer.status in (200, 201), answer.text()
    return context


def seconds(text: str) -> float:
    """A clock's "m:ss" in seconds."""
    minutes, rest = text.strip().split(":")
    return int(minutes) * 60 + float(rest)


def waiting_count(page: Any) -> str:
    """The header's count, asked for again as when the page comes back into view."""
    page.evaluate("() => window.dispatchEvent(new Event('focus'))")
    return str(page.get_attribute("[data-testid=games-waiting]", "data-count") or "")


def test_a_game_started_in_one_browser_is_played_on_in_another(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    first = account_context(new_context, live_server, "ada", new=True).new_page()
    first.goto(live_server.url + "/")
    first.select_option("[data-testid=seat-kind-1]", "friend")
    first.select_option("#first", "o")
    first.select_option("[data-testid=game-clock]", "10+5")
    first.click("[data-testid=start-game]")
    first.wait_for_selector("#invites:not([hidden])")
    link = first.input_value("[data-testid=invite-g]")
    game_id = urlsplit(link).path.rsplit("/", 1)[1]
    first.click("#go-game")
    first.wait_for_selector(PLAYABLE)
    friend = seat(live_server, link, game_id)
    play(live_server, game_id, first, "L4")
    friend.send({"type": "act", "action": "R4", "seen": 1})
    wait_until(lambda: len(read(live_server, game_id)["actions"]) == 2, what="green's action")

    # another browser, signed in to the same account, holding no seat secret
    other = account_context(new_context, live_server, "ada", new=False).new_page()
    other.goto(live_server.url + "/")
    other.wait_for_selector("[data-testid=games-waiting]:not([hidden])")
    assert other.text_content("[data-testid=games-waiting]") == "1 game waits for you"
    mine = other.locator(f'[data-testid=my-game][data-to-act=true][href="/play/{game_id}"]')
    assert "Your turn" in mine.inner_text()
    mine.click()
    other.wait_for_selector(PLAYABLE)  # orange's seat, by the session
    assert "seat=" not in other.url
    # the game in view is not counted among those that wait (its title calls instead)
    wait_until(lambda: waiting_count(other) == "0", what="the game in view not counted")
    assert other.text_content("#conn") != "Watching live"
    game = read(live_server, game_id)
    left = game["clock"]["remaining"][0]
    shown = seconds(other.text_content("[data-testid=clock-o]") or "")
    # orange's own time, running (the page shows whole seconds, rounded up)
    assert left - 5 <= shown <= left + 1.5, (shown, left)
    action = playable(other)[0]
    after = play(live_server, game_id, other, action)
    assert after["actions"][-1] == action and after["turn"] == "g"
    first.wait_for_function(
        "(n) => window.shiftago.version === n", arg=len(after["actions"])
    )  # the first browser follows
    wait_until(lambda: waiting_count(other) == "0", what="no game waiting")
    assert other.is_hidden("[data-testid=games-waiting]")


def test_a_turn_in_a_game_not_in_view_is_counted_and_notified(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    context = account_context(new_context, live_server, "amy", new=True)
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(
        """
        window.notes = [];
        const Real = window.Notification;
        window.Notification = class extends Real {
          constructor(title, options) { super(title, options); window.notes.push(options.tag); }
        };
        """
    )
    made = create(live_server, variant="express", players=2, first="g")  # by a guest
    orange, green = (s["join_url"] for s in made["seats"])
    game_id = made["id"]
    page = context.new_page()
    page.goto(orange)  # orange's seat, joined by its link while signed in: the account's
    page.wait_for_selector("[data-testid=player-o]")
    wait_until(
        lambda: read(live_server, game_id)["seats"][0].get("account") == "amy", what="the seat"
    )
    page.goto(live_server.url + "/players/amy")
    page.wait_for_selector("[data-testid=notify-waiting]:not([hidden])")
    # it stands after the account's name and says what it is for: before the name it
    # stood alone by the site's name, unexplained (a French walk)
    notify = page.locator("[data-testid=notify-waiting]")
    name_box = page.locator("[data-testid=account-name]").bounding_box()
    notify_box = notify.bounding_box()
    assert name_box and notify_box and notify_box["x"] > name_box["x"]
    assert "when it is my turn" in (notify.get_attribute("title") or "")
    page.click("[data-testid=notify-waiting]")
    page.wait_for_selector("[data-testid=notify-waiting]", state="hidden")
    assert waiting_count(page) in ("0", "")
    assert page.is_hidden("[data-testid=games-waiting]")

    friend = seat(live_server, green, game_id)
    friend.send({"type": "act", "action": "L3", "seen": 0})
    wait_until(lambda: read(live_server, game_id)["turn"] == "o", what="orange's turn")
    wait_until(lambda: waiting_count(page) == "1", what="the header's count")
    counter = page.locator("[data-testid=games-waiting]")
    assert counter.is_visible() and counter.get_attribute("href") == "/#my-games"
    assert page.evaluate("() => window.notes") == [f"shiftago-{game_id}"]
    # the profile's "Playing" link opens the seat for its owner
    page.wait_for_selector("[data-testid=playing-link]")
    assert page.get_attribute("[data-testid=playing-link]", "href") == f"/play/{game_id}"
    page.click("[data-testid=playing-link]")
    page.wait_for_selector(PLAYABLE)
    # once over, it opens the seat too (its rematch offered), not a spectator's page
    friend.send({"type": "resign"})
    wait_until(lambda: read(live_server, game_id)["status"] != "playing", what="the end")
    page.goto(live_server.url + "/players/amy")
    page.wait_for_selector("[data-testid=finished-link]")
    assert page.get_attribute("[data-testid=finished-link]", "href") == f"/play/{game_id}"
    page.click("[data-testid=finished-link]")
    page.wait_for_selector("#rematch:not([hidden])")


def test_a_challenge_to_a_named_player_is_sent_accepted_and_played(
    live_server: LiveServer, new_context: NewContext
):
    ben = account_context(new_context, live_server, "ben", new=True).new_page()
    ann = account_context(new_context, live_server, "ann", new=True).new_page()
    ben.goto(live_server.url + "/")
    ann.goto(live_server.url + "/players/ben")
    ann.wait_for_selector("#challenge-card:not([hidden])")
    ann.select_option("[data-testid=challenge-variant]", "expert")
    ann.select_option("[data-testid=challenge-time]", "5+3")
    ann.check("[data-testid=challenge-rated]")
    ann.click("[data-testid=challenge-send]")
    sent = ann.wait_for_selector("[data-testid=challenge-sent]")
    assert "You challenged ben: Expert, 5+3, rated" in sent.inner_text()

    received = ben.wait_for_selector("[data-testid=challenge-received]", timeout=15_000)
    assert "ann challenges you: Expert, 5+3, rated" in received.inner_text()
    ben.click("[data-testid=challenge-accept]")
    ben.wait_for_url("**/play/**")
    ann.wait_for_url("**/play/**", timeout=15_000)  # the challenger's page follows
    game_id = urlsplit(ben.url).path.rsplit("/", 1)[1]
    assert urlsplit(ann.url).path == f"/play/{game_id}"
    game = read(live_server, game_id)
    assert game["rated"] is True and game["variant"] == "expert"
    assert game["clock"]["control"] == "5+3"
    pages = {s["colour"]: (ann if s["account"] == "ann" else ben) for s in game["seats"]}
    for _ in range(2):
        to_act = pages[read(live_server, game_id)["turn"]]
        to_act.wait_for_selector(PLAYABLE)
        play(live_server, game_id, to_act, playable(to_act)[0])
    assert len(read(live_server, game_id)["actions"]) == 2


def test_a_challenge_received_is_counted_in_the_header_and_notified_on_any_page(
    live_server: LiveServer, new_context: NewContext
):
    """A challenge showed only in a card far down the home page: a player elsewhere on
    the site never saw it, notifications on or not (a walk). The header counts the
    challenges received on every page, and one that comes is notified once asked for."""
    cleo_context = account_context(new_context, live_server, "cleo", new=True)
    cleo_context.grant_permissions(["notifications"], origin=live_server.url)
    cleo_context.add_init_script(RECORD_NOTIFICATIONS)
    cleo_context.add_init_script("localStorage.setItem('shiftago.notify', 'on')")
    cleo = cleo_context.new_page()
    cleo.goto(live_server.url + "/learn")
    counter = cleo.locator("[data-testid=challenges-waiting]")
    cleo.wait_for_function("() => window.__notifications !== undefined")
    assert counter.is_hidden()

    dan = account_context(new_context, live_server, "dan", new=True).new_page()
    dan.goto(live_server.url + "/players/cleo")
    dan.wait_for_selector("#challenge-card:not([hidden])")
    dan.click("[data-testid=challenge-send]")
    dan.wait_for_selector("[data-testid=challenge-sent]")

    cleo.evaluate("() => window.dispatchEvent(new Event('focus'))")  # as on coming back
    counter.wait_for()
    assert counter.text_content() == "1 challenge for you"
    assert counter.get_attribute("href") == "/#challenges"
    found = wait_until(lambda: notifications(cleo), what="the notification")
    assert [(n["title"], n["body"]) for n in found] == [
        ("Shiftago: a challenge", "dan challenges you.")
    ]
    cleo.evaluate("() => window.dispatchEvent(new Event('focus'))")
    cleo.wait_for_timeout(500)
    assert len(notifications(cleo)) == 1  # the same challenge is not news again

    counter.click()
    received = cleo.wait_for_selector("[data-testid=challenge-received]")
    assert "dan challenges you" in received.inner_text()
    cleo.click("[data-testid=challenge-decline]")
    counter.wait_for(state="hidden")  # the count follows the home page's list

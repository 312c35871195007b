"""Talking on the game page (issue 17), in Chromium: the chat shows text as text and can
be hidden, a draw offered and accepted ends the game, and the title calls on one's turn.

Browser tests live in files of their own that run after the others: the session's
browser keeps an event loop running in the main thread, which ``asyncio.run`` refuses.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_web_e2e import hotseat

from support.heard import LISTEN, said
from support.web_fixtures import LiveServer, StartServer

TITLE_CALLS = "() => document.title.startsWith('● Your turn')"
CONNECTED = (
    "() => document.querySelector('[data-testid=connection]')?.dataset.state === 'connected'"
)


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own games and accounts. The chat's
    limit (5 messages in 10 seconds an address, no option raises it) is one for all the
    tests on it: they say 4 in all, and the test of that limit starts its own server."""
    return shared_server


def two_players(live_server, new_context, listen=False, **options):
    """Ann's and Ben's pages of a new game, each in a context of its own (``options``;
    ``listen``: each page writes down what its live regions say, support/heard.py)."""
    answer = live_server.api(
        "POST",
        "/api/games",
        json={"first": "o", "seats": [{"name": "Ann"}, {"name": "Ben"}]},
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    pages = []
    for seat in created["seats"]:
        context = new_context(**options)
        if listen:
            context.add_init_script(LISTEN)
        page = context.new_page()
        page.goto(seat["join_url"])
        page.wait_for_function(CONNECTED)
        pages.append(page)
    return created, pages


def test_chat_shows_markup_as_text_and_hides_on_mute(live_server, new_context):
    _, (ann, ben) = two_players(live_server, new_context)
    ann.get_by_test_id("chat-input").fill("<b>x</b>")
    ann.get_by_test_id("chat-input").press("Enter")
    message = ben.get_by_test_id("chat-message").first
    message.wait_for()
    assert "<b>x</b>" in message.inner_text()
    assert message.locator("b", has_text="x").count() == 0  # the name's <b> only
    assert ben.locator("[data-testid=chat-message] .chat-text").first.inner_text() == "<b>x</b>"
    ben.get_by_test_id("chat-mute").click()
    ben.wait_for_function(
        "() => !document.querySelector('[data-testid=chat-message]')?.checkVisibility()"
    )
    ben.reload()
    ben.get_by_test_id("chat-mute").wait_for()
    # lines sent before the socket is back come with the history, not as new ones
    ben.wait_for_function(CONNECTED)
    assert ben.get_by_test_id("chat-mute").inner_text() == "Show chat"  # remembered
    # what comes while the chat is hidden is counted on its button (not the history)
    for text in ("still there?", "your turn"):
        ann.get_by_test_id("chat-input").fill(text)
        ann.get_by_test_id("chat-input").press("Enter")
        ann.locator(".chat-text", has_text=text).wait_for()
    mute = ben.get_by_test_id("chat-mute")
    ben.wait_for_function(
        "() => document.querySelector('[data-testid=chat-mute]').textContent"
        " === 'Show chat (2 new)'"
    )
    mute.click()
    ben.get_by_test_id("chat-message").first.wait_for()
    assert ben.locator("[data-testid=chat-message]").count() == 3
    mute.click()
    assert mute.inner_text() == "Show chat"  # read: the count starts again


def test_title_calls_on_ones_turn_and_an_accepted_draw_ends_the_game(live_server, new_context):
    _, (ann, ben) = two_players(live_server, new_context)
    ann.wait_for_function("() => window.shiftago.game && window.shiftago.game.may.o.act")
    assert not ben.evaluate(TITLE_CALLS)
    ann.evaluate("() => document.querySelector('[data-testid=action-input]').value = 'L3'")
    ann.locator("#action-go").click()
    ben.wait_for_function(TITLE_CALLS)
    ann.wait_for_function("() => !document.title.startsWith('● Your turn')")
    ann.get_by_test_id("offer-draw").click()
    ben.get_by_test_id("accept-draw").click()
    for page in (ann, ben):
        page.wait_for_function(
            "() => window.shiftago.game && window.shiftago.game.status === 'over draw o g'"
        )
        page.get_by_test_id("result").wait_for()
        assert "agreement" in page.get_by_test_id("result").inner_text()
    ben.wait_for_function("() => !document.title.startsWith('● Your turn')")


def test_the_player_whose_draw_offer_is_declined_is_told(live_server, new_context):
    _, (ann, ben) = two_players(live_server, new_context)
    ann.wait_for_function("() => window.shiftago.game && window.shiftago.game.may.o.draw")
    ann.get_by_test_id("offer-draw").click()
    ben.get_by_test_id("decline-draw").click()
    ann.wait_for_function("() => window.shiftago.game && !window.shiftago.game.draw_offer")
    # the buttons that hid took the keyboard's place with them: it goes on to a control
    # that is shown (the action field), never back to the page's start
    ben.wait_for_function("() => document.activeElement?.id === 'action-input'")
    said = ann.wait_for_selector("#notice:not([hidden])").text_content()
    assert said == "Your draw offer was declined."
    assert ben.is_hidden("#notice")  # Ben, who declined, needs no telling


def test_a_message_refused_for_coming_too_fast_stays_in_the_box(
    start_server: StartServer, new_context
):
    _, (ann, _) = two_players(start_server(), new_context)  # its own chat limit
    box = ann.get_by_test_id("chat-input")
    for n in range(5):  # the most a player may say in 10 seconds
        box.fill(f"message {n}")
        box.press("Enter")
    ann.wait_for_function(
        "() => document.querySelectorAll('[data-testid=chat-message]').length === 5"
    )
    box.fill("one too many")
    box.press("Enter")
    # said under the chat's line, where the writer looks: above the board it was off a
    # phone's screen (a French walk)
    said = ann.get_by_test_id("chat-error")
    said.wait_for()
    assert "at most 5 chat messages in 10 seconds" in said.inner_text()
    assert ann.is_hidden("#notice")
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=chat-input]').value === 'one too many'"
    )


def test_a_message_too_long_is_refused_in_words_and_kept_to_shorten(
    start_server: StartServer, new_context
):
    """A pasted text over the 300 characters a message may have is not cut silently (a
    French walk lost 94% of one): it is refused in words and stays in the box."""
    _, (ann, ben) = two_players(start_server(), new_context)  # its own chat limit
    box = ann.get_by_test_id("chat-input")
    box.fill("word " * 1000)
    box.press("Enter")
    said = ann.get_by_test_id("chat-error")
    said.wait_for()
    assert said.inner_text() == "A chat message has at most 300 characters; this one has 4,999."
    assert len(box.input_value()) == 5000
    box.fill("a short one")
    assert said.is_hidden()  # short enough now: the refusal goes
    box.press("Enter")
    ben.locator(".chat-text", has_text="a short one").wait_for()
    assert ben.locator("[data-testid=chat-message]").count() == 1


def test_on_a_phone_a_message_below_the_board_is_called_to_the_reader(
    start_server: StartServer, new_context
):
    """On a phone the chat lies far below the board: a message that comes while it is
    out of sight shows a button at the foot of the screen, which leads to it."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    _, (ann, ben) = two_players(start_server(), new_context, **phone)  # its own chat limit
    caller = ben.get_by_test_id("chat-caller")
    assert caller.is_hidden()
    for text in ("hello Ben", "your turn soon"):
        ann.get_by_test_id("chat-input").fill(text)
        ann.get_by_test_id("chat-input").press("Enter")
        ann.locator(".chat-text", has_text=text).wait_for()
    ben.wait_for_function(
        "() => document.querySelector('[data-testid=chat-caller]')?.textContent"
        " === '2 new chat messages'"
    )
    assert caller.is_visible()
    assert ann.get_by_test_id("chat-caller").is_hidden()  # the writer's own are not called
    caller.click()
    caller.wait_for(state="hidden")
    assert ben.locator(".chat-text", has_text="your turn soon").is_visible()
    assert ben.evaluate("document.activeElement.dataset.testid") == "chat-input"


def test_a_guest_named_like_an_account_is_marked_in_the_chat_and_on_its_card(
    live_server, new_context
):
    """The chat marks a guest named like an account; a guest's seat with no name typed
    is its colour, in each reader's language."""
    made = live_server.api(
        "POST", "/api/accounts", json={"name": "annika", "password": "a long password"}
    )
    assert made.status_code == 201, made.text
    answer = live_server.api(
        "POST", "/api/games", json={"first": "o", "seats": [{"name": "annika"}, {}]}
    )
    assert answer.status_code == 201, answer.text
    pages = []
    for seat, locale in zip(answer.json()["seats"], ("en-GB", "fr-FR"), strict=True):
        page = new_context(locale=locale).new_page()
        page.goto(seat["join_url"])
        page.wait_for_function(CONNECTED)
        pages.append(page)
    guest, green = pages
    guest.get_by_test_id("chat-input").fill("I am annika")
    guest.get_by_test_id("chat-input").press("Enter")
    message = green.get_by_test_id("chat-message").first
    message.wait_for()
    assert message.get_by_test_id("guest-mark").inner_text() == "invité"
    assert message.locator("b").inner_text() == "annika"
    assert guest.get_by_test_id("guest-o").inner_text() == "guest"
    assert green.get_by_test_id("guest-g").inner_text() == "invité"
    # a screen reader hears the colour after a name, not after the colour itself
    heads = green.locator("[data-testid^=player-] .player-head")
    assert [" ".join(text.split()) for text in heads.all_text_contents()] == [
        "annika (orange) à jouer",
        "Vert",
    ]
    green.get_by_test_id("chat-input").fill("Bonjour")
    green.get_by_test_id("chat-input").press("Enter")
    for page, name in ((guest, "Green"), (green, "Vert")):
        said = page.locator("[data-testid=chat-message]", has_text="Bonjour")
        said.wait_for()
        assert said.locator("b").inner_text() == name


def test_on_a_phone_a_button_gone_leaves_the_typing_field_alone(live_server, new_context):
    """On a touch screen the focus of a button that hid itself went on to the action
    field, whose keyboard then covered half the board: it goes to the next control."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    _, (ann, ben) = two_players(live_server, new_context, **phone)
    assert ann.evaluate("matchMedia('(pointer: coarse)').matches")
    ann.wait_for_function("() => window.shiftago.game && window.shiftago.game.may.o.draw")
    ann.get_by_test_id("offer-draw").click()
    ben.get_by_test_id("decline-draw").click()
    ann.wait_for_function("() => window.shiftago.game && !window.shiftago.game.draw_offer")
    ben.wait_for_function("() => document.activeElement !== document.body")
    assert ben.evaluate("document.activeElement.id") != "action-input"


def test_on_a_phone_a_draw_offer_is_said_by_the_status_and_answered_by_the_board(
    live_server, new_context
):
    """A phone showed an opponent's offer only in the controls, a screen below the board,
    while the status said whose turn it was: the status says the offer while it stands
    (once, to a screen reader), and its answers lie under the board, in sight."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    _, (ann, ben) = two_players(live_server, new_context, listen=True, **phone)
    ann.wait_for_function("() => window.shiftago.game && window.shiftago.game.may.o.draw")
    ann.get_by_test_id("offer-draw").click()
    status = ben.get_by_test_id("status")
    expect(status).to_have_text("Ann (orange) offers a draw. Ann (orange) to play.")
    expect(ann.get_by_test_id("status")).to_have_text(
        "You offered a draw. Your turn, Ann (orange): push a marble in."
    )
    assert ben.evaluate("scrollY") == 0
    for answer in ("accept-draw", "decline-draw"):
        expect(ben.get_by_test_id(answer)).to_be_in_viewport(ratio=1)
    expect(ann.get_by_test_id("accept-draw")).to_be_hidden()  # one's own offer
    ben.wait_for_timeout(1500)  # presence and clock renders say nothing again
    assert [s for s in said(ben) if "offers a draw" in s] == [
        "Ann (orange) offers a draw. Ann (orange) to play."
    ]
    # beside the board, on a laptop, the answers stay with the other controls, in sight
    ben.set_viewport_size({"width": 1366, "height": 768})
    expect(ben.locator("#controls [data-testid=accept-draw]")).to_be_in_viewport(ratio=1)
    ben.get_by_test_id("decline-draw").click()
    expect(status).to_have_text("Ann (orange) to play.")
    expect(ben.get_by_test_id("draw-offered")).to_be_hidden()
    expect(ann.get_by_test_id("status")).to_have_text("Your turn, Ann (orange): push a marble in.")


def test_at_one_screen_the_seat_to_act_offers_the_draw(live_server, new_context):
    """With both seats at one screen the offer was always orange's, even with green to
    act, and its button named no colour: it is the seat's to act, as resigning is."""
    game_id, page = hotseat(live_server, new_context, "express")
    offer = page.get_by_test_id("offer-draw")
    expect(offer).to_have_text("Offer a draw (orange)")
    expect(page.get_by_test_id("resign")).to_have_text("Resign (orange)")
    page.get_by_test_id("action-input").fill("L3")
    page.locator("#action-go").click()
    expect(offer).to_have_text("Offer a draw (green)")
    expect(page.get_by_test_id("resign")).to_have_text("Resign (green)")
    offer.click()
    page.wait_for_function("() => window.shiftago.game.draw_offer === 'g'")
    assert live_server.api("GET", f"/api/games/{game_id}").json()["draw_offer"] == "g"
    expect(page.get_by_test_id("status")).to_have_text(
        "Green offers a draw. Your turn, Green: push a marble in."
    )
    expect(offer).to_be_hidden()
    page.get_by_test_id("accept-draw").click()  # orange answers, at the same screen
    page.wait_for_function("() => window.shiftago.game.status === 'over draw o g'")

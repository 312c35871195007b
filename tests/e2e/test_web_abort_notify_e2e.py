"""Aborting and the correspondence "your turn" notification on the game page (issue 17),
in Chromium: the abort button of a seat that has not acted yet ends the game without a
result on both pages; a hidden page whose person asked for notifications shows one when
the turn comes, and only then.

Browser tests live in files of their own that run after the others: the session's
browser keeps an event loop running in the main thread, which ``asyncio.run`` refuses.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import create, read, wait_until

from support.web_fixtures import LiveServer, NewContext

CONNECTED = (
    "() => document.querySelector('[data-testid=connection]')?.dataset.state === 'connected'"
)
# Records each notification the page makes (and still makes it), and lets the test say
# whether the page is hidden; the permission itself is the context's.
RECORD_NOTIFICATIONS = """
(() => {
  window.__notifications = [];
  window.__hidden = false;
  const Real = window.Notification;
  function Recording(title, options) {
    window.__notifications.push({ title, ...(options || {}) });
    return Real ? new Real(title, options) : {};
  }
  Recording.requestPermission = (...args) => Real.requestPermission(...args);
  Object.defineProperty(Recording, "permission", { get: () => Real.permission });
  window.Notification = Recording;
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true,
    get: () => window.__hidden,
  });
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true,
    get: () => (window.__hidden ? "hidden" : "visible"),
  });
})();
"""


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own game and reads only it
    (the home page's list is the browser's own games)."""
    return shared_server


def seat_pages(
    server: LiveServer, new_context: NewContext, contexts: list[Any] | None = None, **spec: Any
) -> tuple[str, list[Any]]:
    """A game of Ann (o, first) and Ben (g), each on their own page (in ``contexts``
    when given); the game's id and the pages, connected."""
    created = create(server, first="o", seats=[{"name": "Ann"}, {"name": "Ben"}], **spec)
    pages = []
    for i, seat in enumerate(created["seats"]):
        context = contexts[i] if contexts else new_context()
        page = context.new_page()
        page.goto(seat["join_url"])
        page.wait_for_function(CONNECTED)
        pages.append(page)
    return created["id"], pages


def act(page: Any, action: str) -> None:
    """Play ``action`` through the page's action box."""
    page.wait_for_function("() => window.shiftago.game && window.shiftago.game.turn !== null")
    page.evaluate("(a) => document.querySelector('[data-testid=action-input]').value = a", action)
    page.locator("#action-go").click()


def test_the_abort_button_before_ones_first_action_ends_the_game_on_both_pages(
    live_server: LiveServer, new_context: NewContext
):
    game_id, (ann, ben) = seat_pages(live_server, new_context)
    for page in (ann, ben):  # nobody has played: each may abort
        page.get_by_test_id("abort").wait_for()
    act(ann, "L3")
    ann.wait_for_function("() => window.shiftago.game && window.shiftago.game.version === 1")
    ann.get_by_test_id("abort").wait_for(state="hidden")  # Ann has played
    ben.wait_for_function("() => window.shiftago.game && window.shiftago.game.version === 1")
    ben.get_by_test_id("abort").click()  # asked first: "No" keeps the game
    ben.locator("#abort-no").click()
    ben.get_by_test_id("abort").wait_for()
    assert read(live_server, game_id)["status"] == "playing g insert"
    ben.get_by_test_id("abort").click()
    ben.get_by_test_id("abort-confirm").click()
    for page in (ann, ben):
        page.wait_for_function(
            "() => window.shiftago.game && window.shiftago.game.status === 'over aborted'"
        )
        page.get_by_test_id("result").wait_for()
        text = page.get_by_test_id("result").inner_text()
        assert "aborted by Ben" in text and "no result" in text, text
        # one sentence, without "Game over: The game was aborted ... (green) (no result)"
        status = page.get_by_test_id("status").inner_text()
        assert status.startswith("The game was aborted by Ben") and status.endswith(
            "): no result."
        ), status
        page.get_by_test_id("abort").wait_for(state="hidden")
    game = read(live_server, game_id)
    assert game["result"] == {
        "winners": [],
        "reason": "aborted",
        "line": None,
        "by": ["g"],
        "waited": False,  # Ben chose to abort: the clock did not
    }
    ben.goto(live_server.url)  # the home page lists it among Ben's finished games
    listed = ben.locator(f'#mine-over [data-game="{game_id}"] .g-state')
    listed.wait_for()
    assert listed.inner_text() == "The game was aborted by Ben: no result."


def test_resigning_asks_first_and_ends_the_game(live_server: LiveServer, new_context: NewContext):
    game_id, (ann, ben) = seat_pages(live_server, new_context)
    ann.get_by_test_id("abort").wait_for()  # nobody has played: Ann may abort
    ann.get_by_test_id("resign").click()
    # the question stands alone: no "Abort the game" beside its answers
    assert ann.get_by_test_id("abort").is_hidden()
    ann.locator("#resign-no").click()  # "No": the button is back, the game goes on
    ann.get_by_test_id("resign").wait_for()
    ann.get_by_test_id("abort").wait_for()
    assert read(live_server, game_id)["status"] == "playing o insert"
    ann.get_by_test_id("resign").click()
    ann.get_by_test_id("resign-confirm").click()
    ben.wait_for_function(
        "() => window.shiftago.game && window.shiftago.game.status === 'over winner g'"
    )
    assert read(live_server, game_id)["result"]["reason"] == "resignation"
    ann.get_by_test_id("resign").wait_for(state="hidden")
    # the keyboard's place is not lost with the buttons that hid: it is on the result's
    # words, the rematch one Tab on (not on it: a blind player's next Enter started one)
    ann.wait_for_function("() => document.activeElement?.id === 'result-text'")
    ann.keyboard.press("Tab")
    assert ann.evaluate("() => document.activeElement.id") == "rematch"
    # the home page's list says how the game ended, and when: two finished games of the
    # same players read alike, "Ben won" (a French walk)
    ben.goto(live_server.url)
    item = ben.locator(f'#mine-over [data-game="{game_id}"]')
    item.locator(".g-state").wait_for()
    assert item.locator(".g-state").inner_text() == "Ben wins by resignation."
    ended = read(live_server, game_id)["updated"]
    assert item.locator("time.g-when").get_attribute("datetime") == ended


def test_with_three_players_the_resign_question_says_the_game_ends_for_all(
    live_server: LiveServer, new_context: NewContext
):
    """One resignation ends a 3-player game for everyone, the others sharing the win; the
    question did not say so (a German family's walk)."""
    created = create(
        live_server,
        players=3,
        first="o",
        seats=[{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}],
    )
    page = new_context().new_page()
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_function(CONNECTED)
    page.get_by_test_id("resign").click()
    assert page.inner_text("#resign-question") == (
        "Really resign? The game ends for everyone: the others share the win."
    )


def notifications(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__notifications")
    return found


def test_a_hidden_page_that_asked_is_notified_when_its_correspondence_turn_comes(
    live_server: LiveServer, new_context: NewContext
):
    ben_context = new_context()
    ben_context.grant_permissions(["notifications"], origin=live_server.url)
    ben_context.add_init_script(RECORD_NOTIFICATIONS)
    game_id, (ann, ben) = seat_pages(
        live_server, new_context, [new_context(), ben_context], clock={"days": 2}
    )
    button = ben.get_by_test_id("notify")
    button.wait_for()

    # not asked for yet: Ben's turn comes to his hidden page without a notification
    ben.evaluate("() => { window.__hidden = true; }")
    act(ann, "L3")
    ben.wait_for_function("() => window.shiftago.game.version === 1")
    assert notifications(ben) == []
    ben.evaluate("() => { window.__hidden = false; }")
    act(ben, read(live_server, game_id)["legal"][0])
    ann.wait_for_function("() => window.shiftago.game.version === 2")

    button.click()  # asks the browser, which the context lets
    button.wait_for(state="hidden")
    # a visible page is not notified: the title and the sound call instead
    act(ann, read(live_server, game_id)["legal"][0])
    ben.wait_for_function("() => window.shiftago.game.version === 3")
    assert notifications(ben) == []
    act(ben, read(live_server, game_id)["legal"][0])
    ann.wait_for_function("() => window.shiftago.game.version === 4")

    ben.evaluate("() => { window.__hidden = true; }")
    act(ann, read(live_server, game_id)["legal"][0])
    found = wait_until(lambda: notifications(ben), what="the notification")
    assert len(found) == 1
    assert found[0]["title"] == "Shiftago: your turn"
    assert found[0]["tag"] == f"shiftago-{game_id}"

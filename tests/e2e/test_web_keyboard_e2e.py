"""End to end: what a player with only a keyboard and a screen reader gets.

A skip link first on every page, one top heading on the board pages, the board one Tab
stop, the resign question left with Escape, the sign-in error tied to its field, and
Copy buttons that say which link they copy (defects found by a keyboard-only walk of the
site).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import (
    BOARD_STOP,
    ann_and_ben,
    focused_action,
    hotseat,
    open_page,
    play,
    tab_to,
)

from support.board_clicks import PLAYABLE
from support.web_fixtures import LiveServer, NewContext

FOCUSED_TESTID = "() => document.activeElement.dataset.testid || document.activeElement.id"


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own game or account."""
    return shared_server


def anns_page(server: LiveServer, new_context: NewContext) -> Any:
    """Ann's page of a new game between Ann and Ben (orange, first)."""
    created = ann_and_ben(server)
    return open_page(new_context(), created["seats"][0]["join_url"])


def headings(page: Any) -> list[tuple[str, str]]:
    """The page's headings a screen reader meets, in document order: (level tag, text);
    those in hidden parts (a dialog not shown) are not among them."""
    return [
        (tag, text.strip())
        for tag, text in page.eval_on_selector_all(
            "h1, h2, h3",
            """hs => hs.filter(h => h.getClientRects().length > 0)
                       .map(h => [h.tagName.toLowerCase(), h.textContent])""",
        )
    ]


def test_the_first_tab_stop_skips_to_the_main_content(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = new_context().new_page()
    page.goto(live_server.url + "/leaderboard")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_TESTID) == "skip-link"
    assert page.is_visible("[data-testid=skip-link]")  # shown once focused
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.tagName") == "MAIN"


def test_the_board_is_one_tab_stop_that_keeps_its_place(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """Every playable arrow was a Tab stop: 28 presses to pass the board. It is one stop
    now (a roving tabindex), the arrow keys move inside it, and Tab back into the board
    lands where the keyboard left it."""
    page = anns_page(live_server, new_context)
    page.wait_for_selector(PLAYABLE, state="attached")
    assert page.locator(PLAYABLE).count() == 28
    tab_to(page, BOARD_STOP)
    assert focused_action(page) == "L1"
    assert page.locator('.shiftago-board [tabindex="0"]').count() == 1
    in_board = "() => !!document.activeElement.closest('.shiftago-board')"
    page.keyboard.press("Tab")
    assert not page.evaluate(in_board)  # one Tab leaves the board
    page.keyboard.press("Shift+Tab")
    assert focused_action(page) == "L1"
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    assert focused_action(page) == "L4"
    page.keyboard.press("Shift+Tab")
    assert not page.evaluate(in_board)
    page.keyboard.press("Tab")
    assert focused_action(page) == "L4"
    assert page.locator('.shiftago-board [tabindex="0"]').count() == 1
    # Home and End: the first and the last playable action (they only scrolled the page)
    order = page.eval_on_selector_all(
        '.shiftago-board [data-action][aria-disabled="false"]',
        "ns => ns.map(n => n.dataset.action)",
    )
    page.keyboard.press("End")
    assert focused_action(page) == order[-1]
    page.keyboard.press("Home")
    assert focused_action(page) == order[0] == "L1"


def test_the_board_pages_open_with_one_top_heading(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """The game, analysis, puzzle and lesson pages had no h1 (the lesson's came after
    its "Goal"): the heading shortcut lands on the page's subject first."""
    page = anns_page(live_server, new_context)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=page-heading]').textContent"
        " === 'Express, 2 players'"
    )
    found = headings(page)
    assert [tag for tag, _ in found].count("h1") == 1 and found[0][0] == "h1", found
    for path, title in (
        ("/analysis", "Analysis board"),
        ("/puzzles", "Puzzles"),
        ("/learn/push", None),
    ):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        found = headings(page)
        assert found and found[0][0] == "h1", (path, found)
        assert [tag for tag, _ in found].count("h1") == 1, (path, found)
        if title is not None:
            assert found[0][1] == title, (path, found)
        else:  # the lesson's title, as its card shows it
            assert found[0][1] and found[0][1] == page.inner_text("#lesson-title"), found


def test_escape_leaves_the_resign_question_and_gives_the_focus_back(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = anns_page(live_server, new_context)
    page.wait_for_selector("[data-testid=resign]")
    page.focus("[data-testid=resign]")
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED_TESTID) == "resign-confirm"  # "Yes, resign"
    box = page.locator("#resign-confirm")
    assert box.get_attribute("role") == "group"
    assert page.inner_text("#" + (box.get_attribute("aria-labelledby") or "")) == "Really resign?"
    page.keyboard.press("Escape")
    assert page.is_hidden("#resign-confirm")
    assert page.evaluate(FOCUSED_TESTID) == "resign"


def test_the_focus_follows_the_sign_up_form_to_its_error_and_to_the_account(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.click("[data-testid=account-open]")
    name = page.locator("[data-testid=account-form] input[name=name]")
    assert name.get_attribute("aria-describedby") == "account-rules"
    assert name.get_attribute("aria-invalid") is None
    name.fill("ab")  # too short
    page.fill("[data-testid=account-form] input[name=password]", "a long enough password")
    page.click("[data-testid=sign-up]")
    page.wait_for_selector("[data-testid=account-error]")
    assert name.get_attribute("aria-invalid") == "true"
    assert name.get_attribute("aria-describedby") == "account-error account-rules"
    assert page.evaluate("() => document.activeElement.name") == "name"
    password = page.locator("[data-testid=account-form] input[name=password]")
    assert password.get_attribute("aria-invalid") is None
    # mended, the account is made: the focus goes to the account's name, which took the
    # form's place (it fell to the page's start, 71 Tabs from the header's links), and
    # after signing out to the button that signs in again
    name.fill("keyboard-kim")
    page.click("[data-testid=sign-up]")
    page.wait_for_selector("[data-testid=account-name]")
    page.wait_for_function("() => document.activeElement.dataset.testid === 'account-name'")
    page.focus("[data-testid=sign-out]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.dataset.testid === 'account-open'")


def test_each_copy_button_is_named_with_the_link_it_copies(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = anns_page(live_server, new_context)
    # the rows come one by one (the watch link first): a fresh clone's run read one
    page.wait_for_function("() => document.querySelectorAll('#share-list li button').length >= 2")
    names = page.eval_on_selector_all(
        "#share-list li",
        """rows => rows.map(row => {
          const button = row.querySelector('button');
          const ids = (button.getAttribute('aria-labelledby') || '').split(' ');
          return ids.map(id => document.getElementById(id).textContent.trim()).join(' ');
        })""",
    )
    labels = page.eval_on_selector_all(
        "#share-list .share-label", "spans => spans.map(s => s.textContent.trim())"
    )
    assert len(names) >= 2 and len(set(names)) == len(names), names
    assert names == [f"Copy {label}" for label in labels]


def test_each_players_panel_is_named_by_its_head(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A player's panel was an unnamed article whose words ran together: it is named by
    its head, the player's name, colour and turn."""
    page = anns_page(live_server, new_context)
    page.wait_for_selector("[data-testid=player-o] .turn")
    named = page.eval_on_selector(
        "[data-testid=player-o]",
        "a => document.getElementById(a.getAttribute('aria-labelledby')).textContent",
    )
    assert named.split() == ["Ann", "(orange)", "to", "play"], named


@pytest.mark.parametrize("path", ["/", "/how-to-play"])
def test_no_tab_stop_is_inside_a_picture(
    live_server: LiveServer, new_context: NewContext, path: str
) -> None:
    """The home page's push and the how-to's boards are images: their arrows and lines
    took 28 Tab stops each, read out as buttons "not allowed now" (a keyboard walk)."""
    page = new_context().new_page()
    page.goto(live_server.url + path)
    page.wait_for_selector(".picture[role=img]")
    pictures = page.locator("svg.picture").count()
    assert pictures >= 1
    stops = 0
    while True:
        page.keyboard.press("Tab")
        place = page.evaluate(
            """() => { const a = document.activeElement;
                       return [a.tagName, !!a.closest('svg.picture')]; }"""
        )
        assert place[1] is False, f"a Tab stop inside a picture after {stops} stops"
        stops += 1
        if place[0] == "BODY" or stops > 200:
            break
    assert stops < 200


def test_a_game_won_from_the_board_hands_the_focus_to_the_result(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """The winning action chosen on the board left the focus there, with nothing left to
    play, and the result with its Rematch out of sight above (a keyboard walk)."""
    game_id, page = hotseat(live_server, new_context, "express")
    for action in ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7"]:
        play(live_server, game_id, page, action)
    page.wait_for_selector(PLAYABLE)
    tab_to(page, BOARD_STOP)
    while focused_action(page) != "L1":
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    # the result's words, read at once; the rematch one Tab on
    page.wait_for_function("() => document.activeElement.id === 'result-text'")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "rematch"
    box = page.locator("[data-testid=result]").bounding_box()
    height = page.evaluate("() => window.innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_game_and_analysis_pages_have_a_heading_for_each_part(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """The game page's board and players had no heading, only a region's name: a screen
    reader's heading keys went from the page's title to "Actions" (a blind player's
    walk). Each part has one now, hidden where the design shows the part plainly."""
    page = anns_page(live_server, new_context)
    page.wait_for_selector("[data-testid=player-o] .turn")
    found = [text for tag, text in headings(page) if tag == "h2"]
    assert found[:2] == ["Board", "Players"], found
    assert "Record and position" in found, found
    # each heading names its part, and comes before what it heads
    for title, part in (("board-title", "#board"), ("players-title", "[data-testid=player-o]")):
        assert page.evaluate(
            """([id, part]) => { const h = document.getElementById(id);
                 const section = h.closest('section');
                 return section.getAttribute('aria-labelledby') === id
                   && section.contains(document.querySelector(part))
                   && !!(h.compareDocumentPosition(document.querySelector(part))
                         & Node.DOCUMENT_POSITION_FOLLOWING); }""",
            [title, part],
        ), title
    page.goto(live_server.url + "/analysis")
    page.wait_for_selector("[data-testid=engine-lines]", state="attached")
    found = [text for tag, text in headings(page) if tag == "h2"]
    assert found[0] == "Board" and "Position" in found, found


def test_the_computer_s_level_comes_before_the_button_it_sets(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """The level came after "Play the computer" in the reading and Tab order: a screen
    reader's user met the button before the choice it acts on (a blind player's walk).
    It comes first now, at a laptop's width and on a phone, both inside the screen."""
    for viewport in ({"width": 1280, "height": 800}, {"width": 375, "height": 740}):
        page = new_context(viewport=viewport).new_page()
        page.goto(live_server.url + "/")
        page.wait_for_selector(
            "[data-testid=play-computer-level] option[value='7']", state="attached"
        )
        page.focus("[data-testid=play-computer-level]")
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED_TESTID) == "play-computer", viewport
        for part in ("play-computer-level", "play-computer"):
            box = page.locator(f"[data-testid={part}]").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], part
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("path", ["/", "/how-to-play"])
def test_a_picture_is_one_image_to_a_screen_reader(
    live_server: LiveServer, new_context: NewContext, path: str
) -> None:
    """Each small board drawn as a picture was an image holding 49 more, its cells (a
    blind player's walk heard 400 images on the how-to page): it is one image, named by
    its short label."""
    page = new_context().new_page()
    page.goto(live_server.url + path)
    page.wait_for_selector(".picture[role=img]")
    if path == "/":  # the puzzle of the day's picture too
        page.wait_for_selector("#daily-board .picture[role=img]")
    pictures = page.locator("svg.picture")
    assert pictures.count() >= 2
    for n in range(pictures.count()):
        picture = pictures.nth(n)
        label = picture.get_attribute("aria-label")
        tree = picture.aria_snapshot().splitlines()  # one line: no cells inside it
        assert label and len(tree) == 1 and f'img "{label}"' in tree[0], tree
        assert picture.get_attribute("aria-description") is None


@pytest.mark.parametrize("phone", [False, True])
def test_after_a_language_is_chosen_the_keyboard_is_back_on_the_picker(
    live_server: LiveServer, new_context: NewContext, phone: bool
) -> None:
    """The page in the new language started the keyboard at its top: a screen reader's
    user had to find the place again (a blind player's walk). The picker has it, on a
    phone behind the menu button, opened."""
    viewport = {"width": 375, "height": 740} if phone else {"width": 1280, "height": 800}
    page = new_context(viewport=viewport, locale="en").new_page()
    page.goto(live_server.url + "/leaderboard")
    if phone:
        page.click("[data-testid=menu-toggle]")
    page.focus("[data-testid=language-picker]")
    page.keyboard.press("ArrowDown")  # Deutsch
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_attribute("html", "lang") == "de"
    page.wait_for_function("() => document.activeElement.dataset.testid === 'language-picker'")
    assert page.is_visible("[data-testid=language-picker]")
    # once only: the next page opens as any page does
    page.goto(live_server.url + "/leaderboard")
    page.wait_for_selector("header [data-testid=sound-toggle]", state="attached")
    assert page.evaluate(FOCUSED_TESTID) != "language-picker"

"""The pages as a new player meets them (issue 49), in Chromium: one header and menu on
every page, its buttons on one row and the cards' contents inside them at a laptop's
width in every language, the theme and the sound on every page, a first visit that
welcomes and plays the computer gently, the points in view on a phone in Expert, ratings
beside the names in a rated game, and no players' chat in a game played at one screen."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import (
    PHONE,
    OpenSeat,
    ann_and_ben,
    create,
    hotseat,
    open_page,
    read,
    seat,
    wait_until,
)
from test_web_lobby_e2e import meet_in_a_rated_challenge
from test_web_rated_e2e import in_context, signed_up

from shiftago.interfaces.shared.catalogues import LANGUAGES
from support.web_fixtures import LiveServer, NewContext

__all__ = ["seat"]  # the fixture, used by name

MENU = [
    ("Play", "/#play"),
    ("Lobby", "/#lobby"),
    ("Analysis board", "/analysis"),
    ("Puzzles", "/puzzles"),
    ("Leaderboard", "/leaderboard"),
    ("Learn", "/learn"),
    ("How to play", "/how-to-play"),
]
#: The dark theme's background (style.css, --bg), as the browser computes it.
DARK_BG = "rgb(21, 19, 15)"


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own games and accounts (names of its
    own) and reads only them."""
    return shared_server


def every_page(server: LiveServer, player: str) -> dict[str, str]:
    """An address of each page: home, a game, analysis, how to play, leaderboard, the
    lessons and a lesson, a profile (of ``player``, a new account) and the 404 page."""
    game = ann_and_ben(server)
    answer = server.api("POST", "/api/accounts", json={"name": player, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return {
        "home": "/",
        "game": f"/watch/{game['id']}",
        "analysis": "/analysis",
        "puzzles": "/puzzles",
        "howto": "/how-to-play",
        "leaderboard": "/leaderboard",
        "learn": "/learn",
        "lesson": "/learn/push",
        "profile": f"/players/{player}",
        "404": "/no/such/page",
    }


def header(page: Any) -> dict[str, Any]:
    """What the header holds, once its buttons are mounted (on a phone, folded behind the
    menu button)."""
    page.wait_for_selector("header [data-testid=theme-toggle]", state="attached")
    page.wait_for_selector("header [data-testid=account] button", state="attached")
    menu = page.eval_on_selector_all(
        "header nav[data-testid=menu] a",
        "links => links.map(a => [a.textContent.trim(), a.getAttribute('href')])",
    )
    return {
        "menu": [tuple(link) for link in menu],
        "brand": page.text_content("header .brand"),
        "sound": page.locator("header [data-testid=sound-toggle]").count(),
        "waiting": page.locator("header [data-testid=games-waiting]").count(),
        "lang": page.get_attribute("html", "lang"),
    }


def test_every_page_has_the_one_header_and_menu(live_server: LiveServer, new_context: NewContext):
    page = new_context().new_page()
    seen = {}
    for name, path in every_page(live_server, "zed").items():
        page.goto(live_server.url + path)
        seen[name] = header(page)
    first = seen["home"]
    assert first["menu"] == MENU
    assert first == {"menu": MENU, "brand": "Shiftago", "sound": 1, "waiting": 1, "lang": "en"}
    for name, found in seen.items():
        assert found == first, name
    # the page one is on is marked in the menu
    page.goto(live_server.url + "/leaderboard")
    assert page.get_attribute("nav a[aria-current=page]", "href") == "/leaderboard"


#: Where each shown part of the header is (its children, and those of the box the menu
#: button opens on a phone), two frames on (the header fits itself on the window's
#: resize event, before the next frame): whether its top is above the site name's
#: bottom, that is on the first row; and whether every menu entry is inside the window.
HEADER_ROWS = """() => new Promise((done) => requestAnimationFrame(() => {
 requestAnimationFrame(() => {
  const header = document.querySelector("header.top");
  const line = header.querySelector(".brand").getBoundingClientRect().bottom;
  const more = header.querySelector(".header-more");
  const parts = [...header.children]
    .flatMap((child) => child === more ? [...more.children] : [child]);
  const shown = parts.filter((child) => child.getClientRects().length > 0);
  const links = [...header.querySelectorAll("nav a")].map((a) => a.getBoundingClientRect());
  done({
    first: Object.fromEntries(shown.map((child) => [
      child.dataset.testid || child.className, child.getBoundingClientRect().top < line,
    ])),
    menuInView: links.every((box) => box.left >= 0 && box.right <= innerWidth),
  });
 });
}))"""


#: The cards whose contents are wider than they are (the opening book's table in Spanish
#: and Dutch once), by their ids or classes.
CARDS_TOO_NARROW = """() => [...document.querySelectorAll(".card")]
  .filter((card) => card.getClientRects().length > 0 && card.scrollWidth > card.clientWidth)
  .map((card) => card.id || card.className)"""


def test_the_header_and_the_cards_fit_a_laptops_width_in_every_language(
    live_server: LiveServer, new_context: NewContext
):
    """At a laptop's width (1280 pixels) the name, the page's title, the account, the
    buttons and the language picker share the first row in every language, on the
    widest pages; the menu is beside them where it fits (1920 pixels) and on a row of its
    own where it does not, never a button alone on a second row. Both ways on one page:
    the header fits itself again when the window changes. No card's contents are wider
    than the card."""
    game = ann_and_ben(live_server)
    pages = {"home": "/", "game": f"/watch/{game['id']}", "analysis": "/analysis"}
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    for language in LANGUAGES:
        for name, path in pages.items():
            page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(f"{live_server.url}{path}?lang={language}")
            header(page)
            if name == "game":
                page.wait_for_function(
                    "() => document.getElementById('game-title').textContent !== ''"
                )
            if name == "analysis":
                page.wait_for_selector("[data-testid=book-lines] tr")
            wider = page.evaluate(CARDS_TOO_NARROW)
            assert wider == [], (language, name, wider)
            for width in (1280, 1920, 1280):
                page.set_viewport_size({"width": width, "height": 800})
                rows = page.evaluate(HEADER_ROWS)
                where = (language, name, width)
                assert rows["menuInView"], where
                menu = rows["first"].pop("menu")
                assert all(rows["first"].values()), (where, rows["first"])
                assert {"account", "language-picker"} <= set(rows["first"]), where
                if width == 1920:
                    assert menu, where


def test_no_board_page_scrolls_sideways_on_a_phone_in_any_language(
    live_server: LiveServer, new_context: NewContext
):
    """The pages with a board and a row of controls under it fit a phone's 390 pixels in
    every language (the analysis board's "Try" row once did not in French and Dutch)."""
    game = ann_and_ben(live_server)
    paths = ("/analysis", "/puzzles", "/learn/push", f"/watch/{game['id']}")
    page = new_context(**PHONE).new_page()
    for language in LANGUAGES:
        for path in paths:
            page.goto(f"{live_server.url}{path}?lang={language}")
            header(page)
            page.wait_for_selector("#board svg")
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, (language, path, overflow)


def test_a_long_name_in_a_refusal_wraps_on_a_phone(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """ "There is no player xxxx..." for a 300-letter name made the page 3,125 pixels
    wide on a 390-pixel phone (a Dutch walk): a refusal's words wrap anywhere."""
    page = new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/players/{'x' * 300}?lang=nl")
    page.wait_for_selector("#player-error:not([hidden])")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


def test_on_a_phone_the_header_is_one_row_and_its_menu_button_opens_the_rest(
    live_server: LiveServer, new_context: NewContext
):
    """Signed in, in Dutch, on a phone, the header took four rows (a quarter of the
    screen): the menu, the account, the notifications' offer and the preferences now fold
    behind a menu button beside the site's name and the games that wait. The button opens
    them under it; Escape closes them and gives the focus back, as does a tap on the
    page. Wider, the button is not there and every part is in the header itself."""
    context = new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/?lang=nl")
    answer = page.request.post(
        f"{live_server.url}/api/accounts", data={"name": "annemarie", "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{live_server.url}/?lang=nl")
    header(page)
    page.wait_for_selector("header [data-testid=account] .account-name", state="attached")
    toggle = page.locator("[data-testid=menu-toggle]")
    folded = ["menu", "account", "language-picker", "theme-toggle", "sound-toggle"]

    def shown() -> dict[str, bool]:
        return {part: page.is_visible(f"header [data-testid={part}]") for part in folded}

    def height() -> float:
        return float(page.eval_on_selector("header.top", "e => e.getBoundingClientRect().height"))

    assert toggle.inner_text().strip().endswith("Menu")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.get_attribute("aria-controls") == "header-more"
    assert not any(shown().values())
    assert height() < 70, height()
    # opened: every part in view and inside the screen, the links under the button
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert all(shown().values()), shown()
    assert height() > 150
    button = toggle.evaluate("e => e.getBoundingClientRect().bottom")
    links = page.eval_on_selector_all(
        "header nav a", "links => links.map((a) => a.getBoundingClientRect().toJSON())"
    )
    assert len(links) == len(MENU)
    assert all(box["top"] >= button and box["left"] >= 0 and box["right"] <= 390 for box in links)
    assert min(box["height"] for box in links) >= 36  # a finger tall
    # Escape from inside closes it and gives the focus back to the button
    page.focus("header nav a")
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.dataset.testid") == "menu-toggle"
    assert not any(shown().values())
    # a tap on the page closes it too; a tap on a link inside it goes there
    toggle.click()
    page.click("main h1")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    page.click("header nav a[href='/learn']")
    page.wait_for_url("**/learn*")
    # a tablet, upright or across, folds it too (its header took three or four rows)
    for width, tall in ((768, 1024), (1024, 768)):
        page.set_viewport_size({"width": width, "height": tall})
        page.wait_for_function("() => document.querySelector('header.top').offsetHeight < 70")
        assert toggle.is_visible() and not any(shown().values())
    # a laptop: no button, every part in the header itself
    page.set_viewport_size({"width": 1280, "height": 800})
    header(page)
    assert page.locator("[data-testid=menu-toggle]").is_hidden()
    assert all(shown().values()), shown()


def test_on_a_phone_the_sign_in_form_opens_inside_the_screen(
    live_server: LiveServer, new_context: NewContext
):
    """In the folded menu the account sits at the left, and the sign-in form, hung from
    its right edge, lay mostly off the screen (x = -181 of its 256 pixels): it opens in
    the menu's flow now, its whole width on the screen, and signs a new player up."""
    page = new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/?lang=es")
    header(page)
    page.click("[data-testid=menu-toggle]")
    page.click("[data-testid=account-open]")
    form = page.locator("[data-testid=account-form]")
    box = form.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    for part in ("sign-in", "sign-up"):
        button = page.locator(f"[data-testid={part}]").bounding_box()
        assert button and button["x"] >= 0 and button["x"] + button["width"] <= 390, part
    page.fill("[data-testid=account-form] input[name=name]", "telefono")
    page.fill("[data-testid=account-form] input[name=password]", "correct horse")
    page.click("[data-testid=sign-up]")
    page.wait_for_selector("header [data-testid=account] .account-name", state="attached")
    assert page.text_content("header [data-testid=account] .account-name") == "telefono"


def test_dark_mode_and_the_sound_button_on_every_page(
    live_server: LiveServer, new_context: NewContext
):
    pages = every_page(live_server, "zoe")
    page = new_context(color_scheme="light").new_page()
    page.goto(live_server.url + "/how-to-play")
    theme = page.locator("[data-testid=theme-toggle]")
    while theme.get_attribute("data-theme-choice") != "dark":
        theme.click()
    sound = page.locator("[data-testid=sound-toggle]")

    # as the theme button: the words say the state, the name what a press does (a
    # constant "Mute sounds" read "Mute" to a sighted player whatever the state)
    def says() -> tuple[str, str | None, str | None]:
        return (
            sound.inner_text().strip(),
            sound.get_attribute("aria-label"),
            sound.get_attribute("aria-pressed"),
        )

    assert says() == ("Sound on", "Sounds are on: press to turn them off", None)
    sound.click()
    assert says() == ("Sound off", "Sounds are off: press to turn them on", None)
    for name, path in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_selector("[data-testid=sound-toggle]")
        assert page.get_attribute("html", "data-theme") == "dark", name
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == DARK_BG, (name, background)
        assert page.inner_text("[data-testid=sound-toggle]").strip() == "Sound off", name
    page.click("[data-testid=sound-toggle]")
    assert page.inner_text("[data-testid=sound-toggle]").strip() == "Sound on"


def game_of(page: Any) -> str:
    page.wait_for_url("**/play/**")
    return page.url.split("/play/")[1].split("?")[0]


def test_a_first_visit_plays_the_computer_gently_then_at_the_level_chosen(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    sentence = page.inner_text("[data-testid=welcome-sentence]")
    assert sentence.startswith("Shiftago is a board game")
    picture = page.locator("[data-testid=welcome-picture] svg[role=img]")
    assert "pushed in at L3" in (picture.get_attribute("aria-label") or "")
    assert page.locator("[data-testid=welcome-picture] svg .marble").count() == 7
    assert page.get_attribute("[data-testid=learn-rules]", "href") == "/how-to-play"
    page.wait_for_selector("[data-testid=play-computer-level] option[value='7']", state="attached")
    assert page.input_value("[data-testid=play-computer-level]") == "2"
    assert page.input_value("[data-testid=seat-level-1]") == "2"  # the form's too

    page.click("[data-testid=play-computer]")
    game = read(live_server, game_of(page))
    assert (game["variant"], game["players"]) == ("express", 2)
    assert [s["kind"] for s in game["seats"]] == ["human", "computer"]
    assert game["seats"][1]["level"] == 2

    page.goto(live_server.url + "/")
    page.wait_for_selector("[data-testid=play-computer-level] option[value='7']", state="attached")
    page.select_option("[data-testid=play-computer-level]", "4")
    page.click("[data-testid=play-computer]")
    assert read(live_server, game_of(page))["seats"][1]["level"] == 4

    # the level chosen last is the one offered next time, here and in the form
    page.goto(live_server.url + "/")
    page.wait_for_selector("[data-testid=play-computer-level] option[value='7']", state="attached")
    assert page.input_value("[data-testid=play-computer-level]") == "4"
    assert page.input_value("[data-testid=seat-level-1]") == "4"
    page.select_option("[data-testid=seat-level-1]", "3")  # chosen in the form
    page.reload()
    page.wait_for_selector("[data-testid=play-computer-level] option[value='7']", state="attached")
    assert page.input_value("[data-testid=play-computer-level]") == "3"


def test_on_a_phone_in_expert_the_points_are_in_view(
    live_server: LiveServer, new_context: NewContext
):
    game = create(
        live_server,
        variant="expert",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
    )
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = open_page(phone, game["seats"][0]["join_url"])
    for colour in ("o", "g"):
        points = page.locator(f"[data-testid=strip-score-{colour}]")
        points.wait_for()
        assert points.inner_text() == "0 points"
        # in the first screen, without scrolling
        top, bottom = points.evaluate(
            "n => [n.getBoundingClientRect().top, n.getBoundingClientRect().bottom]"
        )
        assert 0 <= top < bottom <= 844, (top, bottom)
    assert page.evaluate("() => window.scrollY") == 0
    # no empty news line above the board: the board follows the strip
    assert not page.locator("#event").is_visible()
    gap = page.evaluate(
        "() => document.getElementById('board').getBoundingClientRect().top"
        " - document.getElementById('clock-strip').getBoundingClientRect().bottom"
    )
    assert 0 <= gap < 24, gap
    # on a desktop the player cards beside the board show the points: no strip there
    desk = open_page(new_context(), game["seats"][1]["join_url"])
    desk.locator("[data-testid=score-o]").wait_for()
    assert desk.locator("[data-testid=clock-strip]").is_hidden()


def test_a_rated_game_shows_the_ratings_beside_the_names(
    live_server: LiveServer, new_context: NewContext
):
    ann = in_context(signed_up(new_context, live_server, "ann"), live_server)
    ben = in_context(signed_up(new_context, live_server, "ben"), live_server)
    game_id = meet_in_a_rated_challenge(ann, ben)
    assert read(live_server, game_id)["rated"] is True
    for page in (ann, ben):
        for colour in ("o", "g"):
            rating = f"[data-testid=rating-{colour}]"
            page.wait_for_function(
                "(s) => document.querySelector(s)?.textContent === '1500?'", arg=rating
            )
    # a casual game shows none
    casual = ann_and_ben(live_server)
    page = open_page(new_context(), casual["seats"][0]["join_url"])
    page.locator("[data-testid=player-o]").wait_for()
    assert page.locator("[data-testid^=rating-]").count() == 0


def test_a_game_at_one_screen_has_no_players_chat(live_server: LiveServer, new_context: NewContext):
    # two browsers, one seat each: the players can write to each other
    game = ann_and_ben(live_server)
    apart = open_page(new_context(), game["seats"][0]["join_url"])
    apart.locator("[data-testid=chat-input]").wait_for()
    assert apart.locator("#chat").is_visible()
    # both seats in one browser: nobody to write to
    game_id, page = hotseat(live_server, new_context, "express")
    wait_until(lambda: page.locator("[data-testid=player-o] .badge.you").count() == 1)
    page.wait_for_function("() => document.getElementById('chat').hidden")
    assert not page.locator("[data-testid=chat-input]").is_visible()
    assert read(live_server, game_id)["players"] == 2


def test_on_a_phone_the_small_controls_are_a_finger_tall(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    """A phone walk measured a lesson's title (its card's only link) 19 px tall, the
    analysis board's folding titles 23 px, a check box 13 px and a review's actions
    19 px. Each is now at least about a finger's 40 px, the whole lesson card opens it."""
    page = new_context(**PHONE).new_page()
    page.goto(live_server.url + "/learn")
    card = page.locator("[data-testid=lesson]").first
    card.wait_for()
    box = card.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] - 12, box["y"] + box["height"] - 8)
    page.wait_for_url("**/learn/push")
    # a lesson's step marks and its link back: 30 px wide and 16 px tall to a Dutch
    # tablet walk
    page.locator("[data-testid=steps] button").first.wait_for()
    for mark in page.locator("[data-testid=steps] button").all():
        mark_box = mark.bounding_box() or {"height": 0, "width": 0}
        assert mark_box["height"] >= 40 and mark_box["width"] >= 40
    assert (page.get_by_test_id("all-lessons").bounding_box() or {"height": 0})["height"] >= 40
    page.goto(live_server.url + "/analysis")
    for summary in page.locator("summary").all():
        assert (summary.bounding_box() or {"height": 0})["height"] >= 40
    page.goto(live_server.url + "/puzzles")
    check = page.locator("[data-testid=streak-mode]")
    check.wait_for()
    assert (check.bounding_box() or {"height": 0})["height"] >= 20
    link = page.get_by_test_id("puzzle-link")
    link.wait_for()
    assert (link.bounding_box() or {"height": 0})["height"] >= 40
    created = create(live_server, variant="express", players=2, first="o")
    game_id = created["id"]
    seat(live_server, created["seats"][0]["join_url"], game_id).act("L1", live_server, game_id)
    seat(live_server, created["seats"][1]["join_url"], game_id).send({"type": "resign"})
    wait_until(lambda: read(live_server, game_id)["result"], what="the resignation")
    page.goto(live_server.url + f"/watch/{game_id}")  # over: its actions step the replay
    # the list is drawn again as the page's news come: asked of whichever is there
    page.wait_for_function(
        """() => { const move = document.querySelector('.move[role=button]');
                   return move && move.getBoundingClientRect().height >= 40; }"""
    )
    # the game is over: nothing live to watch (a tablet walk read "Watching live" there)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=connection]')?.dataset.state === 'connected'"
    )
    assert page.text_content("[data-testid=connection]") == "Connected"
    # the replay's slider (16 px), the player-count choices (37 px) and a check box's
    # label (28 px) to an Italian tablet walk
    slider = page.locator("#rp-range")
    slider.wait_for()
    assert (slider.bounding_box() or {"height": 0})["height"] >= 40
    page.goto(live_server.url + "/")
    for choice in page.locator("#player-count label").all():
        assert (choice.bounding_box() or {"height": 0})["height"] >= 40
    for label in page.locator("label.check").all():
        if label.is_visible():
            assert (label.bounding_box() or {"height": 0})["height"] >= 40, label.inner_text()

"""The pages for a player who sees poorly (a low-vision walk): a larger default text size
reflows the pages as a zoom does, a short screen shows the whole board, a narrow one
scrolls no page sideways, the dark theme keeps the marbles' edges and the current step
readable, and the sign-in form's labels stay in view while one types."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import ann_and_ben, create
from test_web_pages_e2e import CARDS_TOO_NARROW, header

from support.web_fixtures import LiveServer, NewContext

#: The WCAG contrast ratio of two CSS colours (rgb() or rgba() as computed).
CONTRAST = r"""([a, b]) => {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own games and reads only them."""
    return shared_server


def larger_text(context: Any) -> Any:
    """A page of ``context`` with Chromium's default text size at 150% (24 pixels), set
    through its DevTools protocol as the browser's settings set it (not the page zoom)."""
    page = context.new_page()
    settings = context.new_cdp_session(page)
    settings.send("Page.enable")
    settings.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    return page


def test_a_larger_default_text_size_reflows_the_pages_as_a_zoom_does(
    live_server: LiveServer, new_context: NewContext
):
    """A browser's default text size at 150% (24 pixels, not the page zoom: a German
    walk's setting) makes the layouts' widths grow with the text, so at a laptop's width
    the game and analysis pages go to one column, and no card's contents are wider than
    the card (the opening book's table and the computer's lines were cut in the side
    column, whose width was in pixels)."""
    game = ann_and_ben(live_server)
    page = larger_text(new_context(viewport={"width": 1280, "height": 800}))
    for path in ("/", f"/watch/{game['id']}", "/analysis", "/puzzles", "/learn/push"):
        page.goto(live_server.url + path)
        header(page)
        if path == "/analysis":
            page.wait_for_selector("[data-testid=book-lines] tr")
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "24px"
        wider = page.evaluate(CARDS_TOO_NARROW)
        assert wider == [], (path, wider)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (path, overflow)
        if path == "/analysis":  # the side column under the board, as at 150% zoom
            board = page.locator("#board").bounding_box()
            engine = page.locator(".card.engine").bounding_box()
            assert board is not None and engine is not None
            assert engine["y"] >= board["y"] + board["height"], (board, engine)


def test_a_short_screen_held_sideways_shows_the_whole_board(
    live_server: LiveServer, new_context: NewContext
):
    """A laptop at 200% zoom (640 by 400 CSS pixels) and a phone in landscape: the board
    was the screen's width, 640 pixels tall in 400, and a player scrolled at every turn."""
    game = ann_and_ben(live_server)
    for viewport in ({"width": 640, "height": 400}, {"width": 844, "height": 390}):
        page = new_context(viewport=viewport).new_page()
        for path in (game["seats"][0]["join_url"], "/analysis", "/puzzles", "/learn/push"):
            page.goto(path if path.startswith("http") else live_server.url + path)
            page.wait_for_selector("#board svg")
            board = page.locator("#board svg").bounding_box()
            assert board is not None
            assert board["height"] <= viewport["height"], (viewport, path, board)
            assert board["width"] >= 0.75 * viewport["height"], (viewport, path, board)


def test_no_page_scrolls_sideways_at_320_pixels(live_server: LiveServer, new_context: NewContext):
    """WCAG 1.4.10's width (1280 pixels at 400%): the how-to page's points table scrolls
    in its own box, not the page."""
    page = new_context(viewport={"width": 320, "height": 256}).new_page()
    for path in ("/how-to-play", "/", "/learn/push"):
        page.goto(live_server.url + path)
        header(page)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (path, overflow)


def test_the_dark_theme_keeps_the_marbles_edges_and_the_current_step_readable(
    live_server: LiveServer, new_context: NewContext
):
    """A dark marble edge on the dark cells read at 2.2:1, and the current step's points
    and judgement kept the dark theme's light inks on its yellow (1.2:1); one's own
    challenge in the lobby had a fixed light background under light text (1.1:1)."""
    game = create(
        live_server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
    )
    page = new_context(color_scheme="dark").new_page()
    page.goto(game["seats"][0]["join_url"])
    page.wait_for_selector("#board svg")
    page.fill("#typed input", "L3")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .marble-shape .body")
    edge = page.evaluate(
        """() => [getComputedStyle(document.querySelector("#board .marble-shape .body")).stroke,
                  getComputedStyle(document.querySelector("#board .cell")).fill]"""
    )
    assert page.evaluate(CONTRAST, edge) >= 3, edge
    # the current step with points and a judgement, and one's own challenge, as the
    # review and the lobby draw them
    pairs = page.evaluate(
        """() => {
          const list = document.createElement("ol");
          list.className = "moves";
          list.innerHTML = '<li><span class="move current" data-judgement="blunder">' +
            '<span class="act">Tg</span> <span class="pts">+2</span> ' +
            '<span class="pts zero">+0</span><span class="mark">??</span></span></li>';
          const seek = document.createElement("li");
          seek.className = "seek mine";
          seek.innerHTML =
            '<span class="seek-what">Express</span><span class="seek-who">Guest</span>';
          document.querySelector("main").append(list, seek);
          const ink = (node) => getComputedStyle(node).color;
          const ground = (node) => {
            for (let n = node; n; n = n.parentElement) {
              const bg = getComputedStyle(n).backgroundColor;
              if (bg !== "rgba(0, 0, 0, 0)") return bg;
            }
            return "rgb(0, 0, 0)";
          };
          const current = list.querySelectorAll(".move.current, .move.current *");
          const parts = [...current, ...seek.children];
          return parts.map((node) => [node.className, ink(node), ground(node)]);
        }"""
    )
    for name, ink, ground in pairs:
        assert page.evaluate(CONTRAST, [ink, ground]) >= 4.5, (name, ink, ground)


def test_the_sign_in_form_labels_its_fields_in_view(
    live_server: LiveServer, new_context: NewContext
):
    """Placeholders were the only visible labels, gone once one typed."""
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    header(page)
    page.click("[data-testid=account-open]")
    for label, field in (("Account name", "name"), ("Password", "password")):
        box = page.get_by_text(label, exact=True)
        assert box.is_visible(), label
        page.get_by_label(label, exact=True).fill("something typed")
        assert box.is_visible(), label
        assert page.get_attribute(f"input[name={field}]", "placeholder") is None

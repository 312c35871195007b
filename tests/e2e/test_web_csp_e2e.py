"""The pages work under their Content-Security-Policy (security.py) in a real Chromium:
no inline script, style attribute or handler is refused on any of them, and the game's
and the analysis' sockets (``connect-src 'self'``) connect.

Every ``wait_for_function`` here is a function, never an expression: Playwright polls an
expression with ``eval``, which the policy refuses (and reports) like any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shiftago.interfaces.server.door.security import CONTENT_SECURITY_POLICY, DOCS_POLICY
from support.board_clicks import PLAYABLE
from support.web_fixtures import LiveServer, NewContext


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: its pages' policy is the same for every test; the games
    are each test's own."""
    return shared_server


# Reports every violation of the policy to the test, on every page the context opens.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


class Watched:
    """A browser context whose pages report policy violations and console errors."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.violations: list[str] = []
        self.console: list[str] = []
        self.requests: list[str] = []
        context.expose_binding("__cspViolation", lambda _source, text: self.violations.append(text))
        context.add_init_script(REPORT_VIOLATIONS)

    def open(self, url: str, status: int = 200, policy: str = CONTENT_SECURITY_POLICY) -> Any:
        page = self.context.new_page()
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.console.append(str(e)))
        # every request the page makes, to tell one that leaves the server
        page.on("request", lambda r: self.requests.append(r.url))
        response = page.goto(url)
        assert response is not None and response.status == status, url
        assert response.headers["content-security-policy"] == policy
        page.wait_for_function("() => document.styleSheets[0]?.cssRules.length > 0")
        return page

    def clean(self) -> None:
        """No violation so far, and nothing in the console that looks like one."""
        refused = [m for m in self.console if "Content Security Policy" in m]
        assert self.violations == [] and refused == [], (self.violations, self.console)

    def silent(self) -> None:
        """No console error of any kind (a failed request is one: a game never reviewed
        must not answer the page's first look at its review with a 404)."""
        assert self.violations == [] and self.console == [], (self.violations, self.console)


@pytest.fixture
def watched(new_context: NewContext) -> Iterator[Watched]:
    yield Watched(new_context())


def test_the_home_and_how_to_pages(live_server: LiveServer, watched: Watched) -> None:
    page = watched.open(live_server.url + "/")
    page.wait_for_selector("#variant-list input")  # drawn by home.js
    page.wait_for_selector("#prefs button")  # the theme and sound toggles (prefs.js)
    page = watched.open(live_server.url + "/how-to-play")
    page.wait_for_selector("#pic-marbles svg")  # the pictures, drawn by board.js
    watched.clean()


def test_the_analysis_board_analyses_over_its_socket(
    live_server: LiveServer, watched: Watched
) -> None:
    page = watched.open(live_server.url + "/analysis")
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=position]') || {}).textContent?.trim()"
    )
    page.wait_for_selector("[data-testid=engine-line]", timeout=20_000)  # over /ws/analysis
    watched.clean()


def test_a_game_against_the_computer_from_the_home_page_and_watched(
    live_server: LiveServer, watched: Watched
) -> None:
    page = watched.open(live_server.url + "/")
    page.wait_for_selector("[data-testid=seat-level-1]")
    page.select_option("[data-testid=seat-level-1]", "1")
    page.select_option("#first", "o")  # the person starts: one action, then the computer's
    page.click("[data-testid=start-game]")  # a POST from the page: its Origin is let in
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("?")[0]
    page.wait_for_selector(PLAYABLE)
    action = page.eval_on_selector(PLAYABLE, "n => n.dataset.action")
    # Playwright's own click: it waits until the arrow stands still and would take the
    # click (a notice that comes in may move the board under a click by coordinates)
    page.locator(f'[data-action="{action}"][aria-disabled="false"]').first.click()
    # the computer answers over the game's socket: two actions on the page's list (the
    # server's first search loads the compiled engine, slow on a busy machine)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=moves] .move').length === 2",
        timeout=60_000,
    )
    game = live_server.api("GET", f"/api/games/{game_id}").json()
    assert game["actions"][0] == action and len(game["actions"]) == 2

    watcher = watched.open(f"{live_server.url}/watch/{game_id}")
    watcher.wait_for_function(
        "(p) => document.querySelector('[data-testid=position]').textContent.trim() === p",
        arg=game["position"],
    )
    watched.silent()


def test_the_not_found_page(live_server: LiveServer, watched: Watched) -> None:
    watched.context.add_init_script("localStorage.setItem('shiftago.theme', 'dark')")
    page = watched.open(live_server.url + "/no/such/page", status=404)
    assert "Page not found" in (page.text_content("h1") or "")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")  # prefs.js
    watched.clean()


def test_the_api_page_shows_swagger_ui_from_this_server(
    live_server: LiveServer, watched: Watched
) -> None:
    """/docs (linked from every page's footer) draws the API from the server's own
    files: it shows on a server without the internet and sends nobody to a CDN."""
    page = watched.open(live_server.url + "/docs", policy=DOCS_POLICY)
    page.wait_for_selector(".swagger-ui .information-container .title")
    assert "Shiftago" in (page.text_content(".swagger-ui .information-container .title") or "")
    page.wait_for_selector(".opblock-tag-section")  # the operations, from /openapi.json
    assert [u for u in watched.requests if not u.startswith(live_server.url)] == []
    watched.silent()


def test_an_inline_script_would_be_reported(live_server: LiveServer, watched: Watched) -> None:
    """The watch itself works: a page that breaks the policy is seen breaking it."""
    page = watched.open(live_server.url + "/")
    page.evaluate(
        "() => { const s = document.createElement('div');"
        " s.setAttribute('style', 'color: red'); document.body.append(s);"
        " const i = document.createElement('script'); i.textContent = 'window.x = 1';"
        " document.body.append(i); }"
    )
    page.wait_for_timeout(200)
    assert any("script-src" in v for v in watched.violations), watched.violations
    assert any("style-src" in v for v in watched.violations), watched.violations

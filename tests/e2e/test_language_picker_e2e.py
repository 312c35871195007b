"""The language picker in Chromium (issue 50), with the pseudo catalogue as German:
choosing a language changes the page's, it stays after a reload (the ``lang``
cookie), and when signed in the account keeps it (``PUT /api/account/language``), so
that another browser signed in to the same account, with no cookie of its own, gets
it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.unmarked import build_pseudo
from support.web_fixtures import LiveServer, NewContext, StartServer

PICKER = "[data-testid=language-picker]"


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_pseudo(tmp_path_factory.mktemp("pseudo"))


@pytest.fixture
def server(start_server: StartServer, pseudo: Path) -> LiveServer:
    env = {"SHIFTAGO_LOCALE_DIR": str(pseudo), "SHIFTAGO_PREVIEW_LANGUAGES": "1"}
    return start_server(env=env)


def sign_in(page: Any, button: str) -> None:
    page.click("[data-testid=account-open]")
    page.fill("[data-testid=account-form] input[name=name]", "annika")
    page.fill("[data-testid=account-form] input[name=password]", "correct horse")
    page.click(f"[data-testid={button}]")
    page.locator("[data-testid=account-name]").wait_for()


def choose(page: Any, lang: str) -> None:
    with page.expect_navigation():
        page.select_option(PICKER, lang)
    assert page.get_attribute("html", "lang") == lang


def test_the_picker_changes_the_language_for_the_browser_and_the_account(
    server: LiveServer, new_context: NewContext
) -> None:
    page = new_context(locale="en").new_page()
    page.goto(server.url + "/leaderboard")
    assert page.get_attribute("html", "lang") == "en"
    choose(page, "de")
    assert page.inner_text("#board-title") == "⟦Leaderboard⟧"
    page.goto(server.url + "/leaderboard")  # no ?lang=: the cookie holds
    assert page.get_attribute("html", "lang") == "de"
    page.reload()
    assert page.get_attribute("html", "lang") == "de"
    choose(page, "en")
    page.goto(server.url + "/how-to-play")
    assert page.get_attribute("html", "lang") == "en"

    # signed in, the choice is the account's too
    sign_in(page, "sign-up")
    choose(page, "de")
    other = new_context(locale="en").new_page()  # another browser: no lang cookie
    other.goto(server.url + "/leaderboard")
    assert other.get_attribute("html", "lang") == "en"
    sign_in(other, "sign-in")  # the open page asks for itself again, in the account's
    other.wait_for_function("() => document.documentElement.lang === 'de'")
    other.locator("[data-testid=account-name]").wait_for()
    other.goto(server.url + "/leaderboard")
    assert other.get_attribute("html", "lang") == "de"
    assert other.context.cookies(server.url) and not [
        c for c in other.context.cookies(server.url) if c["name"] == "lang"
    ]
    assert other.inner_text("#board-title") == "⟦Leaderboard⟧"


def test_the_arrow_keys_move_through_the_languages_and_enter_chooses(
    server: LiveServer, new_context: NewContext
) -> None:
    """A screen reader's user reads the choices with the arrow keys: Chromium changed the
    closed list's value on each, and the page loaded itself in each language in turn, the
    keyboard's place lost (a French walk). Enter chooses; each name is in its language."""
    page = new_context(locale="en").new_page()
    page.goto(server.url + "/leaderboard")
    assert page.eval_on_selector_all(
        f"{PICKER} option", "els => els.every((o) => o.lang === o.value)"
    )
    page.focus(PICKER)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("html", "lang") == "en"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "language-picker"
    wanted = page.input_value(PICKER)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_attribute("html", "lang") == wanted != "en"

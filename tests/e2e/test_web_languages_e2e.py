"""The site's languages in Chromium (issue 50, first part): ``?lang=de`` gives the
German header and the converted leaderboard page in German, scripts included; the
picker changes the language, and the choice stays after a reload."""

from __future__ import annotations

from support.web_fixtures import NewContext, StartServer

GERMAN_MENU = [
    "Spielen",
    "Lobby",
    "Analysebrett",
    "Aufgaben",
    "Rangliste",
    "Lernen",
    "Spielanleitung",
]


def test_lang_de_gives_the_german_header_and_leaderboard(
    start_server: StartServer, new_context: NewContext
) -> None:
    # the other pages are still English: German is offered here as a preview
    server = start_server(env={"SHIFTAGO_PREVIEW_LANGUAGES": "1"})
    page = new_context().new_page()
    page.goto(server.url + "/leaderboard?lang=de")
    assert page.get_attribute("html", "lang") == "de"
    menu = page.eval_on_selector_all(
        "header nav a", "links => links.map(a => a.textContent.trim())"
    )
    assert menu == GERMAN_MENU
    page.wait_for_selector("header [data-testid=sound-toggle]")
    assert page.inner_text("[data-testid=sound-toggle]").strip() == "Ton an"
    assert "Hell" in page.inner_text("[data-testid=theme-toggle]") or "Auto" in page.inner_text(
        "[data-testid=theme-toggle]"
    )
    assert page.get_attribute("[data-testid=theme-toggle]", "aria-label").startswith("Farbschema")
    assert page.inner_text("#board-title") == "Rangliste"
    # the script's words: the categories, with the language's plural form
    page.wait_for_function("() => document.querySelectorAll('#category option').length > 0")
    options = page.eval_on_selector_all("#category option", "os => os.map(o => o.textContent)")
    assert "Express, 2 Spieler" in options and "Expert, 3 Spieler" in options
    assert page.inner_text("#board-empty") == "Hier hat noch niemand eine gefestigte Wertung."
    # the picker: English, and it stays after a reload (the lang cookie)
    assert page.input_value("[data-testid=language-picker]") == "de"
    with page.expect_navigation():
        page.select_option("[data-testid=language-picker]", "en")
    assert page.get_attribute("html", "lang") == "en"
    page.goto(server.url + "/leaderboard")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#board-title") == "Leaderboard"
    page.wait_for_selector("header [data-testid=sound-toggle]")
    assert page.inner_text("[data-testid=sound-toggle]").strip() == "Sound on"

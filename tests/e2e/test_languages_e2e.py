"""The site in each language, with the real catalogues (issue 50): a browser whose
``Accept-Language`` is de, es, it, fr or nl gets the home, game, analysis and lobby
pages in that language (``<html lang>``), with no English sentence left: no msgid of
three words or more (but those the language's same-as-english.txt lists) in the
visible text.

It passes only once the translations have landed and no page is still English
(languages.UNCONVERTED empty): until then only English is offered."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from shiftago.interfaces.shared.catalogues import LOCALE_DIR, PLACEHOLDER, same_as_english
from support.web_fixtures import LiveServer, NewContext

LANGS = ("de", "es", "it", "fr", "nl")


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each language's test makes its own game; the lobby
    then lists the earlier ones' games too, which must be in the language as well."""
    return shared_server


def english_sentences(lang: str) -> list[str]:
    """The template's msgids of three words or more, as a page would show them (their
    placeholders cut out: the longest piece between them), but those ``lang`` keeps."""
    with (LOCALE_DIR / "shiftago.pot").open("rb") as file:
        template = read_po(file)
    kept = same_as_english(LOCALE_DIR, lang)
    found = []
    for message in template:
        text = message.id if isinstance(message.id, str) else (message.id or ("",))[0]
        if not text or text in kept:
            continue
        piece = max(PLACEHOLDER.split(text.replace("%%", "%")), key=lambda p: len(p or ""))
        piece = (piece or "").strip(" .,:;")
        if len(re.findall(r"[^\W\d_]+", piece)) >= 3:
            found.append(piece)
    return found


def visible(page: Any) -> str:
    page.wait_for_load_state("networkidle")
    return " ".join(str(page.evaluate("() => document.body.innerText")).split())


@pytest.mark.parametrize("lang", LANGS)
def test_the_browsers_language_gives_its_pages(
    lang: str, live_server: LiveServer, new_context: NewContext
) -> None:
    sentences = english_sentences(lang)
    created = live_server.api(
        "POST",
        "/api/games",
        json={"variant": "express", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    page = new_context(locale=lang).new_page()
    left: dict[str, list[str]] = {}
    for name, address in [
        ("home", "/"),
        ("lobby", "/#lobby"),
        ("game", created["seats"][0]["join_url"].removeprefix(live_server.url)),
        ("analysis", "/analysis"),
    ]:
        page.goto(live_server.url + address)
        assert page.get_attribute("html", "lang") == lang, name
        text = visible(page)
        english = [sentence for sentence in sentences if sentence in text]
        if english:
            left[name] = english
    assert left == {}


def test_the_names_the_server_gives_seats_read_in_each_language(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A game started from the French home page with no names typed stores the server's
    names, not French words; each page says them in its own language, and two computers
    by their colours."""
    page = new_context(locale="fr").new_page()
    page.goto(live_server.url + "/?lang=fr")
    page.check("#player-count input[value='3']")
    for seat in (1, 2):
        page.select_option(f"[data-testid=seat-kind-{seat}]", "computer")
        page.select_option(f"[data-testid=seat-level-{seat}]", "1")
    assert page.get_attribute("[data-testid=seat-name-1]", "placeholder") == "Ordinateur"
    page.click("[data-testid=start-game]")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("?")[0]
    seats = live_server.api("GET", f"/api/games/{game_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Orange", "Computer", "Computer"]

    def names(page: Any) -> list[str]:
        page.wait_for_selector("[data-testid=player-b] .player-name")
        return [page.inner_text(f"[data-testid=player-{c}] .player-name").strip() for c in "ogb"]

    assert names(page) == ["Orange", "Ordinateur (vert)", "Ordinateur (bleu)"]
    page.goto(live_server.url + "/?lang=fr")
    mine = page.locator("[data-testid=my-game] .g-names")
    assert mine.inner_text().strip() == "Orange · Ordinateur (vert) · Ordinateur (bleu)"

    english = new_context(locale="en").new_page()
    english.goto(live_server.url + f"/watch/{game_id}?lang=en")
    assert names(english) == ["Orange", "Computer (green)", "Computer (blue)"]


#: Each visible choice list of the home page's seats whose longest choice is wider than
#: the list shows: [test id, the choice, its width, the room for it] (20 px for the arrow).
CUT_CHOICES = """() => [...document.querySelectorAll('#seats select')]
  .filter((select) => select.getClientRects().length > 0)
  .map((select) => {
    const style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.style.font = style.font;
    probe.style.whiteSpace = 'pre';
    document.body.append(probe);
    let widest = 0, longest = '';
    for (const option of select.options) {
      probe.textContent = option.text;
      if (probe.offsetWidth > widest) [widest, longest] = [probe.offsetWidth, option.text];
    }
    probe.remove();
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;
    return [select.dataset.testid, longest, widest, Math.round(room)];
  })
  .filter(([, , widest, room]) => widest > room)"""


#: How far the seats reach past the form's right edge, in pixels.
SEATS_OVERFLOW = """() => {
  const box = document.getElementById('seats');
  return box.scrollWidth - box.clientWidth;
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_every_seat_choice_shows_whole_in_every_language(
    width: int, live_server: LiveServer, new_context: NewContext
) -> None:
    """The seats' lists held "ohne Ausgleic…" and "Stufe 4 (Gelegenheitssp…" on a
    desktop (a German family's walk): columns of fixed widths, set for other words."""
    page = new_context(viewport={"width": width, "height": 900}).new_page()
    for lang in ("en", *LANGS):
        page.goto(f"{live_server.url}/?lang={lang}")
        page.check("input[name=players][value='4']")
        for seat in (1, 3):
            page.select_option(f"[data-testid=seat-kind-{seat}]", "computer")
        page.wait_for_selector("[data-testid=seat-handicap-0] option[value='6']", state="attached")
        page.wait_for_selector("[data-testid=seat-level-1] option[value='7']", state="attached")
        assert page.evaluate(CUT_CHOICES) == [], (lang, width)
        assert page.evaluate(SEATS_OVERFLOW) <= 1, (lang, width)


#: The seat to act's name and its turn label: [the name's hidden width, the label].
NAME_AND_TURN = """(colour) => {
  const head = document.querySelector(`[data-testid=player-${colour}] .player-head`);
  const name = head.querySelector('.player-name');
  const turn = head.querySelector('.turn');
  return [name.scrollWidth - name.clientWidth, turn ? turn.textContent.trim() : ''];
}"""


NAMES = ("Mamma Giulia Rossini", "Papà", "Sofia")


def test_a_name_beside_the_turn_label_is_not_cut(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """An Italian family's walk read "Mamma …  deve conteggiare" on a desktop: the label
    goes under the name when both do not fit."""
    answer = live_server.api(
        "POST",
        "/api/games",
        json={
            "variant": "expert",
            "players": 3,
            "first": "o",
            "seats": [{"name": n, "kind": "human"} for n in NAMES],
        },
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/watch/{game_id}?lang=it")
    page.wait_for_selector("[data-testid=player-o] .turn:not(:empty)")
    hidden, label = page.evaluate(NAME_AND_TURN, "o")
    assert label and hidden <= 0, (hidden, label)
    assert page.inner_text("[data-testid=player-o] .player-name") == "Mamma Giulia Rossini"

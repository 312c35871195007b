"""No page template shows a word the catalogues lack (issue 50): every page, rendered
in German with the pseudo catalogue (each message ⟦its English⟧), has no word outside
the brackets in its text or in the attributes a person reads. The templates still
English are those languages.UNCONVERTED names, and no others: the list cannot lie."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shiftago.interfaces.server import languages
from shiftago.interfaces.server.languages import UNCONVERTED, Catalogues
from support.server_support import client_for, create
from support.unmarked import build_pseudo, offending, texts_of, unmarked

WEB = Path(__file__).resolve().parents[2] / "src/shiftago/interfaces/server/web"


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_pseudo(tmp_path_factory.mktemp("pseudo"))


@pytest.fixture(scope="module")
def client(pseudo: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "db.sqlite"
    with client_for(f"sqlite:///{db}", preview_languages=True, locale_dir=pseudo) as c:
        yield c


#: Each page template and an address that renders it (``{game}``: a game's id).
PAGES = {
    "index.html": "/",
    "game.html": "/play/{game}",
    "analysis.html": "/analysis",
    "puzzles.html": "/puzzles",
    "players.html": "/players/ann",
    "leaderboard.html": "/leaderboard",
    "howto.html": "/how-to-play",
    "learn.html": "/learn",
    "lesson.html": "/learn/push",
    "404.html": "/no/such/page",
}


def test_every_page_template_is_scanned() -> None:
    assert set(PAGES) == {path.name for path in WEB.glob("*.html")} - {"layout.html"}


def findings(client: TestClient) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    game_id, _ = create(client)
    for template, address in PAGES.items():
        answer = client.get(address.format(game=game_id), params={"lang": "de"})
        assert '<html lang="de">' in answer.text, template
        found[template] = offending(answer.text)
    return found


def test_the_scan_sees_texts_and_attributes() -> None:
    html = (
        '<p>⟦Play⟧ <b>Shiftago</b> L3 ±12</p><script>var x = "Hidden";</script>'
        '<button title="Undo move" aria-label="⟦Undo⟧">⟦Undo⟧</button>'
        '<input type="submit" value="Send"><input name="q" value="data">'
        '<img alt="⟦A board with {n} marbles⟧" placeholder="Your name">'
    )
    assert offending(html) == ["[title] Undo move", "[value] Send", "[placeholder] Your name"]
    assert "Hidden" not in " ".join(texts_of(html))
    assert unmarked("⟦⟦ann⟧ won⟧ and then xa1-e1") == ["and", "then"]


def test_the_converted_templates_show_no_unmarked_word(client: TestClient) -> None:
    """Every template but those UNCONVERTED names (all of them, once it is empty) says
    its words through the catalogues; the layout (the header) is in every page."""
    found = findings(client)
    left = {
        name: texts for name, texts in found.items() if texts and f"web/{name}" not in UNCONVERTED
    }
    assert left == {}


def test_unconverted_names_exactly_the_english_templates(client: TestClient) -> None:
    english = {f"web/{name}" for name, texts in findings(client).items() if texts}
    assert english == {name for name in UNCONVERTED if name.startswith("web/")}


def test_once_no_page_is_english_every_complete_language_is_offered(
    pseudo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(languages, "UNCONVERTED", ("web/index.html",))
    assert Catalogues(pseudo).complete == ("en",)  # a page still English: English only
    assert Catalogues(pseudo, preview=True).complete == ("en", "de")
    monkeypatch.setattr(languages, "UNCONVERTED", ())
    assert Catalogues(pseudo).complete == ("en", "de")

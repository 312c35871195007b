"""The page renderer (interfaces/server/pages.py): every page of the package extends the
one layout, so each has the same header and menu, keeps its own ids, and marks where it
is; a missing template answers 404 and a template folder of plain files still works."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shiftago.interfaces.server.app import WEB_DIR
from shiftago.interfaces.server.pages import CURRENT, MENU, Pages

PAGES = [
    "index.html",
    "game.html",
    "analysis.html",
    "howto.html",
    "leaderboard.html",
    "players.html",
    "404.html",
]


class Parts(HTMLParser):
    """The parts of a page the tests read: the header's links, ids, test ids, scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.in_header = 0
        self.menu: list[tuple[str, str, str | None]] = []
        self.ids: list[str] = []
        self.testids: list[str] = []
        self.scripts: list[str] = []
        self.lang: str | None = None
        self._link: dict[str, str | None] | None = None
        self.headers = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "header":
            self.in_header += 1
            self.headers += 1
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if a.get("data-testid"):
            self.testids.append(str(a["data-testid"]))
        if tag == "script":
            self.scripts.append(str(a.get("src")))
        if tag == "a" and self.in_header and a.get("data-menu"):
            self._link = {"href": a.get("href"), "current": a.get("aria-current"), "text": ""}

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._link["text"] = (self._link["text"] or "") + data

    def handle_endtag(self, tag: str) -> None:
        if tag == "header":
            self.in_header -= 1
        if tag == "a" and self._link is not None:
            link, self._link = self._link, None
            self.menu.append((str(link["text"]).strip(), str(link["href"]), link["current"]))


def parts(html: str) -> Parts:
    found = Parts()
    found.feed(html)
    return found


@pytest.fixture(scope="module")
def pages() -> Pages:
    return Pages(WEB_DIR)


@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_the_one_header(pages: Pages, name: str):
    html = pages.render(name)
    assert html is not None
    found = parts(html)
    assert found.lang == "en" and found.headers == 1
    assert [(text, href) for text, href, _ in found.menu] == [(w, h) for _, h, w in MENU]
    current = [text for text, _, mark in found.menu if mark == "page"]
    expected = [w for key, _, w in MENU if key == CURRENT.get(name)]
    assert current == expected
    for testid in ("site-header", "menu", "account", "games-waiting"):
        assert testid in found.testids, testid
    assert "prefs" in found.ids
    assert found.scripts[:2] == ["/static/header.js", "/static/waiting.js"]
    assert html.count('data-testid="games-waiting"') == 1
    # every template tag was rendered: none reaches the browser
    assert not re.search(r"{%|%}|{{|}}", html)


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("index.html", ["new-game", "seats", "lobby", "mine-playing", "import-form"]),
        ("game.html", ["game-title", "conn", "board", "status", "chat", "players", "clock-strip"]),
        ("analysis.html", ["engine-conn", "board", "lines", "variation", "editor"]),
        ("players.html", ["player-name", "ratings", "games"]),
    ],
)
def test_each_page_keeps_its_own_ids(pages: Pages, name: str, kept: list[str]):
    found = parts(pages.render(name) or "")
    for element_id in kept:
        assert found.ids.count(element_id) == 1, element_id


def test_the_home_page_welcomes(pages: Pages):
    found = parts(pages.render("index.html") or "")
    wanted = ("welcome", "welcome-sentence", "play-computer", "learn-rules", "welcome-picture")
    for testid in wanted:
        assert testid in found.testids, testid
    assert "play" in found.ids  # the menu's "Play" leads here


def test_how_to_play_keeps_the_accuracy_formula_to_the_docs(pages: Pages):
    html = pages.render("howto.html") or ""
    assert 'id="accuracy"' in html
    assert "103.1668" not in html and "e<sup>" not in html
    assert "103.1668" in (Path(__file__).parents[2] / "docs" / "analysis.md").read_text()


def test_a_missing_page_says_so(pages: Pages, tmp_path: Path):
    assert pages.render("nowhere.html") is None
    answer = pages.page("nowhere.html")
    assert answer.status_code == 404 and b"nowhere.html" in answer.body
    bare = Pages(tmp_path)  # no 404 template either: a few words
    missing = bare.not_found()
    assert missing.status_code == 404 and b"not there" in missing.body


def test_a_folder_of_plain_files_is_served_as_it_is(tmp_path: Path):
    (tmp_path / "index.html").write_text("<title>plain & simple</title>")
    assert Pages(tmp_path).render("index.html") == "<title>plain & simple</title>"


def test_the_404_page_comes_from_its_template(pages: Pages):
    answer = pages.not_found()
    assert answer.status_code == 404
    body = bytes(answer.body).decode()
    assert "Page not found" in body and 'data-testid="menu"' in body

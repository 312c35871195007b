"""The pages: Jinja2 templates in the web folder, rendered on the server.

Every page extends ``layout.html``, which holds the one header (the site's name, the
menu, the account box, the theme and sound buttons, the count of waiting games) so that
the pages cannot drift apart; each page fills in its own ``main`` block. A page's
template takes the file name the page was served from before (``index.html``, ...), so
a web folder of plain HTML files is served as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from starlette.responses import HTMLResponse, JSONResponse, Response

#: The menu's entries (key, address, words), the same on every page, in this order.
MENU: Final[tuple[tuple[str, str, str], ...]] = (
    ("play", "/#play", "Play"),
    ("lobby", "/#lobby", "Lobby"),
    ("analysis", "/analysis", "Analysis board"),
    ("leaderboard", "/leaderboard", "Leaderboard"),
    ("howto", "/how-to-play", "How to play"),
)

#: Which menu entry each page is (``aria-current`` marks it); a page not here marks none.
CURRENT: Final[dict[str, str]] = {
    "index.html": "lobby",
    "analysis.html": "analysis",
    "leaderboard.html": "leaderboard",
    "howto.html": "howto",
}

#: What a missing 404 template is replaced with: a few words and a way home.
NOT_FOUND_WORDS: Final = (
    '<!doctype html><title>Not found</title><p>This page is not there. <a href="/">Shiftago</a></p>'
)


@dataclass(frozen=True)
class MenuEntry:
    """One link of the menu, as the layout draws it."""

    key: str
    href: str
    words: str


class Pages:
    """The templates of one web folder (the package's, or a test's own)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = Environment(
            loader=FileSystemLoader(folder),
            autoescape=select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
        )
        self.env.globals["menu"] = [MenuEntry(*entry) for entry in MENU]

    def render(self, name: str) -> str | None:
        """The page ``name`` as HTML, or None when its template is not there."""
        try:
            template = self.env.get_template(name)
        except TemplateNotFound:
            return None
        return template.render(current=CURRENT.get(name, ""))

    def page(self, name: str) -> Response:
        """The page as a response; a missing template answers 404 and says which."""
        html = self.render(name)
        if html is None:
            return JSONResponse({"message": f"the page {name} is not there"}, status_code=404)
        return HTMLResponse(html)

    def not_found(self) -> Response:
        """The 404 page, or a few words when its template is not there."""
        html = self.render("404.html")
        return HTMLResponse(NOT_FOUND_WORDS if html is None else html, status_code=404)

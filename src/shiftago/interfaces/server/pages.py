"""The pages: Jinja2 templates in the web folder, rendered on the server.

Every page extends ``layout.html``, which holds the one header (the site's name, the
menu, the account box, the theme and sound buttons, the count of waiting games) so that
the pages cannot drift apart; each page fills in its own ``main`` block. A page's
template takes the file name the page was served from before (``index.html``, ...), so
a web folder of plain HTML files is served as it is.

The words are the catalogues' (:mod:`.languages`): a template says ``{% trans %}`` or
``_()``, and is rendered with the gettext of the language the request is served in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from starlette.responses import HTMLResponse, JSONResponse, Response

from shiftago.interfaces.server.languages import DEFAULT, Catalogues, names


def N_(words: str) -> str:
    """Marks ``words`` for the catalogues (``pybabel extract -k N_``); the template
    translates them when it shows them."""
    return words


#: The menu's entries (key, address, words), the same on every page, in this order.
MENU: Final[tuple[tuple[str, str, str], ...]] = (
    ("play", "/#play", N_("Play")),
    ("lobby", "/#lobby", N_("Lobby")),
    ("analysis", "/analysis", N_("Analysis board")),
    ("puzzles", "/puzzles", N_("Puzzles")),
    ("leaderboard", "/leaderboard", N_("Leaderboard")),
    ("learn", "/learn", N_("Learn")),
    ("howto", "/how-to-play", N_("How to play")),
)

#: Which menu entry each page is (``aria-current`` marks it); a page not here marks none.
CURRENT: Final[dict[str, str]] = {
    "index.html": "play",  # the home page opens on its new-game card; the lobby is below
    "analysis.html": "analysis",
    "puzzles.html": "puzzles",
    "leaderboard.html": "leaderboard",
    "howto.html": "howto",
    "learn.html": "learn",
    "lesson.html": "learn",
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

    def __init__(self, folder: Path, catalogues: Catalogues | None = None) -> None:
        self.folder = folder
        self.catalogues = catalogues if catalogues is not None else Catalogues()
        self.env = Environment(
            loader=FileSystemLoader(folder),
            autoescape=select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
            extensions=["jinja2.ext.i18n"],
        )
        self.env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
        self.env.globals["menu"] = [MenuEntry(*entry) for entry in MENU]
        self.env.globals["languages"] = names(self.catalogues.complete)

    def render(self, name: str, lang: str = DEFAULT) -> str | None:
        """The page ``name`` in ``lang`` as HTML, or None when its template is not there."""
        try:
            template = self.env.get_template(name)
        except TemplateNotFound:
            return None
        words = self.catalogues.translations(lang)
        return template.render(
            current=CURRENT.get(name, ""),
            lang=lang,
            gettext=words.gettext,
            ngettext=words.ngettext,
            _=words.gettext,
        )

    def page(self, name: str, lang: str = DEFAULT) -> Response:
        """The page as a response; a missing template answers 404 and says which."""
        html = self.render(name, lang)
        if html is None:
            return JSONResponse(
                {"message": f"the page {name} is not there", "code": "not_found"},
                status_code=404,
            )
        return HTMLResponse(html)

    def not_found(self, lang: str = DEFAULT) -> Response:
        """The 404 page, or a few words when its template is not there."""
        html = self.render("404.html", lang)
        return HTMLResponse(NOT_FOUND_WORDS if html is None else html, status_code=404)

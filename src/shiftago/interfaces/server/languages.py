"""The site's languages: which catalogues it offers, and which one a request is served
in (WEBAPI.md, "Languages").

A language is offered (the picker, the negotiation) only when its catalogue translates
every message of the template (``shiftago.pot``) and no page is still English
(:data:`UNCONVERTED`): the site never shows a half-translated language. The catalogues
themselves are read by :mod:`shiftago.interfaces.shared.catalogues`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

from babel import Locale, negotiate_locale

from shiftago.interfaces.shared import catalogues as shared
from shiftago.interfaces.shared.catalogues import DEFAULT, LANGUAGES, LOCALE_DIR

__all__ = ["COOKIE", "COOKIE_SECONDS", "DEFAULT", "LANGUAGES", "LOCALE_DIR", "Catalogues"]

#: The cookie ``?lang=`` sets, and its life (a year).
COOKIE: Final = "lang"
COOKIE_SECONDS: Final = 365 * 24 * 3600

#: The templates and scripts whose words are not in the catalogues yet: while any is
#: left, only English is offered (unless previewing, ``Settings.preview_languages``).
#: tests/server/test_unmarked_words.py and test_unmarked_scripts.py check that it names
#: exactly those in which a word is left unmarked.
UNCONVERTED: Final = ()


class Catalogues(shared.Catalogues):
    """Every language's catalogue, and the languages the site offers."""

    def __init__(self, folder: Path = LOCALE_DIR, *, preview: bool = False) -> None:
        super().__init__(folder)
        if not preview and UNCONVERTED:
            self.complete = (DEFAULT,)

    def choose(
        self,
        query: str | None = None,
        cookie: str | None = None,
        account: str | None = None,
        accept: str | None = None,
    ) -> str:
        """The language to serve: the first offered of ``?lang=``, the cookie, the
        account's setting, ``Accept-Language``, English (WEBAPI.md, "Languages")."""
        for asked in (query, cookie, account):
            if asked and asked.lower() in self.complete:
                return asked.lower()
        if accept:
            found = negotiate_locale(accepted(accept), self.complete, sep="-")
            if found:
                return found.split("-")[0].lower()
        return DEFAULT


def accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, the most wanted first."""
    ranked: list[tuple[float, int, str]] = []
    for number, part in enumerate(header.split(",")[:20]):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and name != "*" and q > 0:
            ranked.append((-q, number, name.strip()))
    return [name for _, _, name in sorted(ranked)]


def names(langs: Iterable[str]) -> Mapping[str, str]:
    """Each language's name in itself, for the picker (``Deutsch``, ``español``)."""
    return {lang: Locale.parse(lang).get_display_name(lang) or lang for lang in langs}

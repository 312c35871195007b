"""The site's languages: the catalogues (gettext ``.po``, read at start), which languages
are complete enough to offer, and which one a request is served in.

A language is offered (the picker, the negotiation) only when its catalogue translates
every message of the template (``shiftago.pot``) and no page is still English
(:data:`UNCONVERTED`): the site never shows a half-translated language. The ``.po`` files
are read here and turned into :class:`babel.support.Translations` in memory (the
repository holds no compiled ``.mo``). docs/translating.md says how a language is added.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from babel import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

#: The languages the site is written for, English first (the msgids are English).
LANGUAGES: Final = ("en", "de", "es", "it", "fr", "nl")
#: What a request falls back to.
DEFAULT: Final = "en"
#: The cookie ``?lang=`` sets, and its life (a year).
COOKIE: Final = "lang"
COOKIE_SECONDS: Final = 365 * 24 * 3600
#: The catalogues' domain: ``<lang>/LC_MESSAGES/shiftago.po`` beside ``shiftago.pot``.
DOMAIN: Final = "shiftago"
#: The package's catalogues.
LOCALE_DIR: Final = Path(__file__).resolve().parents[2] / "locale"

#: The templates and scripts whose words are not in the catalogues yet: while any is
#: left, only English is offered (unless previewing, ``Settings.preview_languages``).
UNCONVERTED: Final = (
    "web/index.html",
    "web/game.html",
    "web/analysis.html",
    "web/howto.html",
    "web/players.html",
    "static/account.js",
    "static/analysis.js",
    "static/announce.js",
    "static/api.js",
    "static/challenges.js",
    "static/chat.js",
    "static/clock.js",
    "static/connection.js",
    "static/controls.js",
    "static/editor.js",
    "static/game.js",
    "static/home.js",
    "static/howto.js",
    "static/lobby.js",
    "static/moves.js",
    "static/panels.js",
    "static/players.js",
    "static/playfrom.js",
    "static/rated.js",
    "static/replay.js",
    "static/review.js",
    "static/state.js",
    "static/timecontrol.js",
    "static/turn.js",
    "static/variations.js",
    "static/waiting.js",
    "static/welcome.js",
    "static/board/",
)

#: CLDR's plural categories in gettext's order: Babel numbers a catalogue's plural forms
#: by the categories of the language's rule in this order.
PLURAL_ORDER: Final = ("zero", "one", "two", "few", "many", "other")
#: A placeholder: Python's ``%(name)s`` (templates, Python) or ``{name}`` (scripts).
PLACEHOLDER: Final = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


class CatalogueError(ValueError):
    """A catalogue that cannot be used as it is (its file or its plural forms)."""


def placeholders(text: str) -> frozenset[str]:
    """The names of the placeholders in ``text``."""
    return frozenset(a or b for a, b in PLACEHOLDER.findall(text))


def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR categories of ``lang``'s plural forms, in the catalogue's order: the
    pages map ``Intl.PluralRules``'s category to its index here."""
    tags = Locale.parse(lang).plural_form.tags | {"other"}
    return tuple(tag for tag in PLURAL_ORDER if tag in tags)


def missing(catalog: Catalog, template: Catalog) -> list[str]:
    """What the catalogue lacks against the template, one line each: untranslated or
    fuzzy messages, plural forms not all given, placeholders unlike the msgid's."""
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        key = message.id
        text = key if isinstance(key, str) else key[0]
        mine = catalog.get(key, context=message.context)
        given = () if mine is None else mine.string
        forms = tuple(given) if isinstance(given, tuple | list) else (given,)
        if mine is None or not any(forms):
            found.append(f"untranslated: {text!r}")
            continue
        if mine.fuzzy:
            found.append(f"fuzzy: {text!r}")
        if isinstance(key, tuple) and (len(forms) != catalog.num_plurals or not all(forms)):
            found.append(f"plural forms missing: {text!r}")
        wanted = placeholders(key if isinstance(key, str) else key[1]) | placeholders(text)
        for form in forms:
            if form and placeholders(form) != wanted:
                found.append(f"placeholders unlike the msgid's: {text!r} -> {form!r}")
                break
    return found


@dataclass(frozen=True)
class Catalogue:
    """One language's messages, as the server and the pages read them."""

    lang: str
    catalog: Catalog
    translations: Translations
    #: The pages' copy (``GET /static/i18n/{lang}.json``) and its ETag.
    json: bytes
    etag: str


def _read(path: Path, lang: str) -> Catalog:
    try:
        with path.open("rb") as file:
            return read_po(file, locale=lang, domain=DOMAIN)
    except (OSError, ValueError) as error:
        raise CatalogueError(f"{path}: {error}") from error


def _page_copy(lang: str, catalog: Catalog) -> bytes:
    """The messages the scripts need: msgid (singular) -> text or plural forms."""
    categories = plural_categories(lang)
    if len(categories) != catalog.num_plurals:
        raise CatalogueError(
            f"{lang}: {catalog.num_plurals} plural forms, but CLDR has {len(categories)}"
        )
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = list(message.string)
            if all(forms):
                messages[message.id[0]] = forms
        else:
            messages[str(message.id)] = str(message.string)
    body = {"lang": lang, "plural": list(categories), "messages": messages}
    return json.dumps(body, ensure_ascii=False, sort_keys=True).encode()


class Catalogues:
    """Every language's catalogue in ``folder``, read once per process."""

    def __init__(self, folder: Path = LOCALE_DIR, *, preview: bool = False) -> None:
        self.folder = folder
        self.template = _read(folder / f"{DOMAIN}.pot", DEFAULT)
        self.by_lang: dict[str, Catalogue] = {}
        self.gaps: dict[str, list[str]] = {}
        for lang in LANGUAGES:
            path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
            if not path.exists():
                continue
            catalog = _read(path, lang)
            if lang == DEFAULT:  # the msgids are English: an empty msgstr is the msgid
                for message in catalog:
                    if message.id and not message.string:
                        message.string = message.id
            mo = io.BytesIO()
            write_mo(mo, catalog)
            mo.seek(0)
            copy = _page_copy(lang, catalog)
            etag = '"' + hashlib.sha256(copy).hexdigest()[:20] + '"'
            self.by_lang[lang] = Catalogue(lang, catalog, Translations(mo, DOMAIN), copy, etag)
            self.gaps[lang] = [] if lang == DEFAULT else missing(catalog, self.template)
        whole = preview or not UNCONVERTED
        #: The languages offered: English, and each complete one while no page is English.
        self.complete: tuple[str, ...] = tuple(
            lang
            for lang in LANGUAGES
            if lang == DEFAULT or (whole and lang in self.gaps and not self.gaps[lang])
        )

    def translations(self, lang: str) -> Translations:
        """The gettext of ``lang`` (English's when it has no catalogue)."""
        found = self.by_lang.get(lang) or self.by_lang.get(DEFAULT)
        return found.translations if found is not None else Translations()

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

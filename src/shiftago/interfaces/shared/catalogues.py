"""Shiftago's words in its players' languages: the gettext catalogues (``.po``, one per
language, read through Babel), which are complete, and the ``gettext`` of each. The web
app, the terminal game and the terminal app read the same catalogues.

The ``.po`` files are read here and turned into :class:`babel.support.Translations` in
memory (the repository holds no compiled ``.mo``). docs/translating.md says how a
language is added.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from babel import Locale
from babel.dates import format_date, format_time
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.numbers import format_decimal
from babel.support import Translations

#: The languages the site is written for, English first (the msgids are English).
LANGUAGES: Final = ("en", "de", "es", "it", "fr", "nl")
#: The language of the msgids, and what everything falls back to.
DEFAULT: Final = "en"
#: The catalogues' domain: ``<lang>/LC_MESSAGES/shiftago.po`` beside ``shiftago.pot``.
DOMAIN: Final = "shiftago"
#: The package's catalogues.
LOCALE_DIR: Final = Path(__file__).resolve().parents[2] / "locale"


#: CLDR's plural categories in gettext's order: Babel numbers a catalogue's plural forms
#: by the categories of the language's rule in this order.
PLURAL_ORDER: Final = ("zero", "one", "two", "few", "many", "other")
#: A placeholder: Python's ``%(name)s`` (templates, Python) or ``{name}`` (scripts).
PLACEHOLDER: Final = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
#: The file, beside a language's ``LC_MESSAGES``, of the msgids that are rightly the
#: same in that language as in English (names, "Express", "OK"), one a line.
SAME_AS_ENGLISH: Final = "same-as-english.txt"
#: A letter (of any script): a message with none outside its placeholders ("±{n}") is
#: never "left in English".
_LETTER: Final = re.compile(r"[^\W\d_]")


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


def same_as_english(folder: Path, lang: str) -> frozenset[str]:
    """The msgids ``lang`` rightly leaves as in English (``<lang>/same-as-english.txt``:
    one msgid a line, ``#`` comments); none when the file is absent."""
    path = folder / lang / SAME_AS_ENGLISH
    if not path.exists():
        return frozenset()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _has_words(text: str) -> bool:
    return bool(_LETTER.search(PLACEHOLDER.sub("", text)))


def missing(catalog: Catalog, template: Catalog, same: frozenset[str] = frozenset()) -> list[str]:
    """What the catalogue lacks against the template, one line each: untranslated or
    fuzzy messages, plural forms not all given, placeholders unlike the msgid's, and
    messages left as their English text unless ``same`` lists them (a translator who
    copies the msgid has not translated it)."""
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
        english = (key,) if isinstance(key, str) else tuple(key)
        if text not in same and _has_words(text) and all(f in english for f in forms if f):
            found.append(f"same as English: {text!r}")
        if isinstance(key, tuple) and (len(forms) != catalog.num_plurals or not all(forms)):
            found.append(f"plural forms missing: {text!r}")
        # a plural form may name the singular msgid's fields, the plural's, or both
        # (Click's "Did you mean {possibility}?" and its "{possibilities}")
        wanted = placeholders(key if isinstance(key, str) else key[1]) | placeholders(text)
        allowed = {wanted, placeholders(english[0]), placeholders(english[-1])}
        for form in forms:
            if form and placeholders(form) not in allowed:
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


@dataclass(frozen=True)
class _Folder:
    """What :class:`Catalogues` reads from one folder: the template, each language's
    catalogue and what it lacks."""

    template: Catalog
    by_lang: Mapping[str, Catalogue]
    gaps: Mapping[str, list[str]]


#: Folders read, by their files' names, sizes and times: each app (a test makes many)
#: and each page renderer would otherwise parse every ``.po`` again, the largest part of
#: an app's start-up. A changed file is a new key, so an edited catalogue is read again.
_FOLDERS: dict[tuple[object, ...], _Folder] = {}


def _files_of(folder: Path) -> list[Path]:
    files = [folder / f"{DOMAIN}.pot"]
    for lang in LANGUAGES:
        files += [folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po", folder / lang / SAME_AS_ENGLISH]
    return files


def _state(path: Path) -> tuple[str, int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), found.st_size, found.st_mtime_ns)


def _read_folder(folder: Path) -> _Folder:
    """The folder's catalogues, read once for each state of its files."""
    key = tuple(_state(path) for path in _files_of(folder))
    if key not in _FOLDERS:
        _FOLDERS[key] = _parse_folder(folder)
    return _FOLDERS[key]


def _parse_folder(folder: Path) -> _Folder:
    template = _read(folder / f"{DOMAIN}.pot", DEFAULT)
    by_lang: dict[str, Catalogue] = {}
    gaps: dict[str, list[str]] = {}
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
        by_lang[lang] = Catalogue(lang, catalog, Translations(mo, DOMAIN), copy, etag)
        same = same_as_english(folder, lang)
        gaps[lang] = [] if lang == DEFAULT else missing(catalog, template, same)
    return _Folder(template, by_lang, gaps)


class Catalogues:
    """Every language's catalogue in ``folder``, read once per process (again when a
    file of it changes). The catalogues are shared: nobody changes them."""

    def __init__(self, folder: Path = LOCALE_DIR) -> None:
        self.folder = folder
        read = _read_folder(folder)
        self.template = read.template
        self.by_lang: dict[str, Catalogue] = dict(read.by_lang)
        self.gaps: dict[str, list[str]] = {lang: list(gaps) for lang, gaps in read.gaps.items()}
        #: English, and each language whose catalogue lacks nothing.
        self.complete: tuple[str, ...] = tuple(
            lang
            for lang in LANGUAGES
            if lang == DEFAULT or (lang in self.gaps and not self.gaps[lang])
        )

    def translations(self, lang: str) -> Translations:
        """The gettext of ``lang`` (English's when it has no catalogue)."""
        found = self.by_lang.get(lang) or self.by_lang.get(DEFAULT)
        return found.translations if found is not None else Translations()


#: The errors whose first argument is an English template to translate
#: (:class:`shiftago.core.errors.TranslatableError` and its subclasses that are raised).
ERROR_KEYWORDS: Final = (
    "TranslatableError",
    "ShiftagoError",
    "ParseError",
    "InvalidPositionError",
    "IllegalActionError",
    "GameOverError",
    "RecordError",
    "SourceError",
    "MatchSetupError",
    "TimeControlError",
)
#: ``pybabel extract``'s keywords: gettext's defaults, ``N_`` (pages.py, the core's
#: errors) and ``N_plural`` (the command line), the scripts' ``t`` and ``tn``
#: (``scripts/catalogues.py``; docs/translating.md), and the errors' templates.
KEYWORDS: Final = (
    *("-k", "N_", "-k", "N_plural:1,2", "-k", "t", "-k", "tn:1,2"),
    *(option for name in ERROR_KEYWORDS for option in ("-k", name)),
)
#: The marks of a pseudo catalogue's messages.
PSEUDO_OPEN: Final = "⟦"
PSEUDO_CLOSE: Final = "⟧"


def write_pseudo(template: Path, folder: Path, lang: str = "de") -> Path:
    """A catalogue of ``lang`` in ``folder`` (beside a copy of ``template``) whose every
    message is its English text in ⟦brackets⟧: served, any word on a page outside the
    brackets is one the catalogues lack. Returns the ``.po`` written."""
    with template.open("rb") as file:
        catalog = read_po(file, locale=lang, domain=DOMAIN)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            forms = [message.id[0]] + [message.id[1]] * (catalog.num_plurals - 1)
            message.string = tuple(f"{PSEUDO_OPEN}{form}{PSEUDO_CLOSE}" for form in forms)
        else:
            message.string = f"{PSEUDO_OPEN}{message.id}{PSEUDO_CLOSE}"
    folder.mkdir(parents=True, exist_ok=True)
    if template.resolve() != (folder / f"{DOMAIN}.pot").resolve():
        (folder / f"{DOMAIN}.pot").write_bytes(template.read_bytes())
    target = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as file:
        write_po(file, catalog)
    return target


#: The environment variables a terminal's language comes from, in POSIX's order.
LANGUAGE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def terminal_language(
    asked: str | None, environ: Mapping[str, str], offered: tuple[str, ...]
) -> str:
    """The language of a terminal program: ``--lang`` when given, else the first offered
    language named by ``LANGUAGE`` (a ``:`` list), ``LC_ALL``, ``LC_MESSAGES`` or
    ``LANG`` (``de_DE.UTF-8`` is German), else English. A ``--lang`` that is not offered
    is an error, so that a typo is said, not ignored."""
    if asked is not None:
        code = asked.strip().lower().replace("_", "-").split("-")[0]
        if code not in offered:
            raise ValueError(
                _("unknown language %(asked)s: choose one of %(offered)s")
                % {"asked": repr(asked), "offered": ", ".join(offered)}
            )
        return code
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if code in ("c", "posix"):
                return DEFAULT
            if code in offered:
                return code
    return DEFAULT


class Words:
    """The words of one program in one language: ``_()`` and ``ngettext()`` as gettext's
    (``%(name)s`` placeholders), chosen once when the program starts."""

    def __init__(self, translations: Translations | None = None, lang: str = DEFAULT) -> None:
        self.lang = lang
        self.translations = translations if translations is not None else Translations()

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)


_words = Words()


def use_language(lang: str, catalogues: Catalogues | None = None) -> Words:
    """Make ``lang`` the language of :func:`_` and :func:`ngettext` in this process (a
    terminal program has one player, so one language)."""
    words = Words((catalogues or Catalogues()).translations(lang), lang)
    set_words(words)
    return words


def current_language() -> str:
    """The language :func:`use_language` chose ("en" until then)."""
    return _words.lang


def terminal_words(asked: str | None, environ: Mapping[str, str]) -> Words:
    """Choose a terminal program's language (:func:`terminal_language`, among the
    complete catalogues of :data:`LOCALE_DIR`) and make it that of :func:`_`; a
    ``--lang`` not offered is a :class:`ValueError` that says which are."""
    catalogues = Catalogues(LOCALE_DIR)
    return use_language(terminal_language(asked, environ, catalogues.complete), catalogues)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues where it is translated later, by ``_()``."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural form for the catalogues, translated later by
    ``ngettext`` (Click's, :mod:`shiftago.interfaces.cli.words`)."""
    return singular, plural


def set_words(words: Words) -> None:
    """Make ``words`` those of :func:`_` and :func:`ngettext` in this process."""
    global _words
    _words = words


def whole_number(n: int) -> str:
    """``n`` with the digits grouped as the language writes them (3,416,348 in English,
    3 416 348 in French)."""
    return format_decimal(n, locale=current_language())


def moment(when: datetime) -> str:
    """A date and time as the language writes them ("07.12.2026 11:07" in German, where
    the ISO form 2026-12-07 read as foreign: a German walk)."""
    language = current_language()
    day = format_date(when, "medium", locale=language)
    return f"{day} {format_time(when, 'short', locale=language)}"


def decimal_value(value: float) -> str:
    """A search's value in the language's digits, as :func:`format_value` writes it in
    English: an integer bare and ungrouped (9999), others with three decimals (0.358 in
    English, 0,358 in German, where 0.358 read as a thousands point: a German walk)."""
    if float(value).is_integer():
        return format_decimal(int(value), format="0", locale=current_language())
    return format_decimal(value, format="0.000", locale=current_language())


def _(message: str) -> str:
    """``message`` in the terminal's language (``pybabel extract`` finds the calls)."""
    return _words.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the terminal's language."""
    return _words.ngettext(singular, plural, n)

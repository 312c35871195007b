"""A small set of catalogues for the terminal programs' language tests: German complete,
Italian not, so that only English and German are offered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import Words

HEAD = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""
#: A few of the game's words (the template) and their German.
WORDS = {
    "%(colour)s to insert> ": "%(colour)s setzt ein> ",
    "%(who)s plays %(action)s": "%(who)s spielt %(action)s",
    "orange": "Orange",
    "green": "Grün",
    "Leaving": "Ende",
    "%(why)s.": "%(why)s.",
}


#: The plural rules as Babel writes them: German's, Italian's (one, many, other).
PLURALS = {
    "it": "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
}


def write(folder: Path, lang: str, words: dict[str, str]) -> None:
    plural = PLURALS.get(lang, "nplurals=2; plural=(n != 1);")
    text = HEAD.format(lang=lang, plural=plural) + "".join(
        f'msgid "{key}"\nmsgstr "{value}"\n\n' for key, value in words.items()
    )
    if lang == "pot":
        (folder / "shiftago.pot").write_text(text, encoding="utf-8")
        return
    (folder / lang / "LC_MESSAGES").mkdir(parents=True)
    (folder / lang / "LC_MESSAGES" / "shiftago.po").write_text(text, encoding="utf-8")


@pytest.fixture
def fixture_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """German complete, Italian not: only English and German are offered. The words
    of the process are English again after the test."""
    folder = tmp_path / "locale"
    folder.mkdir()
    write(folder, "pot", dict.fromkeys(WORDS, ""))
    write(folder, "de", WORDS)
    write(folder, "it", {"orange": "arancione"})
    monkeypatch.setattr(catalogues, "LOCALE_DIR", folder)
    monkeypatch.setattr(catalogues, "_words", Words())
    yield folder

"""The game's terms in the real catalogues are the rulebook's (docs/translating.md):
where a rulebook names a thing, no message of that language calls it otherwise, in a
label or in a sentence."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from shiftago.interfaces.shared.catalogues import LOCALE_DIR

#: Per language: the word the rulebook uses, and the words that would stand for it.
TERMS = {
    "de": [("Ablagefach", r"\bVorr[aä]te?\b"), ("Kugel", r"\bMurmel")],
    "es": [("compartimento", r"\breservas?\b"), ("bola", r"\bcanicas?\b")],
    "it": [("vano portabiglie", r"\briserv[ae]\b"), ("patta", r"\bpareggi")],
    # French has no rulebook here: the table's usual words (a draw is "nulle")
    "fr": [("nulle", r"(?<!d')\bégalités?\b")],
}


def translations(lang: str) -> list[str]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "shiftago.po").open("rb") as file:
        catalogue = read_po(file)
    found: list[str] = []
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend(s for s in strings if s)
    return found


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_each_language_says_the_rulebooks_word(lang: str) -> None:
    texts = translations(lang)
    for word, other in TERMS[lang]:
        assert any(word.lower() in text.lower() for text in texts), (lang, word)
        stray = [text for text in texts if re.search(other, text, re.IGNORECASE)]
        assert stray == [], (lang, word, stray)


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_take_back_is_not_said_as_resume_or_abort(lang: str) -> None:
    """ "Take back" beside "resume the game" and "abort the game": each its own words."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "shiftago.po").open("rb") as file:
        catalogue = read_po(file)
    said = {message.id: message.string for message in catalogue if message.id}
    take_back = said["Take back"]
    resume = said["Resume the unfinished game from %(when)s?"].split()[0]  # its verb first
    assert take_back not in (said["Abort the game"], resume)
    assert said["Yes, take back"] != said["Yes, abort"]

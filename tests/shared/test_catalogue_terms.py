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


def messages(lang: str) -> dict[str, str]:
    """Each singular msgid's translation (a plural's first form)."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "shiftago.po").open("rb") as file:
        catalogue = read_po(file)
    said = {}
    for message in catalogue:
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        text = message.string[0] if isinstance(message.string, tuple) else message.string
        if msgid and text:
            said[msgid] = text
    return said


#: A take-back, said in English as "take back": one verb per language in every message
#: (Italian said "Ritira", "annulla" and "Annullato"; "annullare" is Cancel and Abort
#: there), each pattern found in it and none of the words that stand for it elsewhere.
TAKE_BACK = {
    "de": ([r"zurück", r"nehm|genommen|nimm"], r"rückgängig"),
    "es": ([r"deshac|deshech|deshaz"], r"retroced|anul"),
    "fr": ([r"repr(en|is|ise)"], r"recul|annul"),
    "it": ([r"ritir"], r"annull"),
    "nl": ([r"terug"], r"ongedaan"),
}
#: The handicap: the rulebook's word (Italian's "equilibrio competitivo", German's
#: "Spielstärkeausgleich", Spanish's "compensación"; French and Dutch say "handicap")
#: in every message about it, and no other (Italian said "handicap" and "Turni saltati"
#: too).
HANDICAP = {
    "de": (r"spielstärkeausgleich", r"\bhandicap|\bausgleich\b"),
    "es": (r"compensaci", r"\bhandicap|\bventaja"),
    "fr": (r"\bhandicap", r"\bavantage"),
    "it": (r"equilibrio competitivo", r"\bhandicap|^turni saltati$"),
    "nl": (r"\bhandicap", r"\bvoorgift"),
}


@pytest.mark.parametrize("lang", sorted(TAKE_BACK))
def test_a_take_back_has_one_verb_in_each_language(lang: str) -> None:
    needed, other = TAKE_BACK[lang]
    about = {
        msgid: text
        for msgid, text in messages(lang).items()
        if re.search(r"\b(take|takes|taken|took) (them )?back\b", msgid, re.IGNORECASE)
        and "worker" not in msgid  # a worker takes back its jobs: no action of a game
    }
    assert len(about) >= 15, sorted(about)
    wrong = {
        msgid: text
        for msgid, text in about.items()
        if not all(re.search(p, text, re.IGNORECASE) for p in needed)
        or re.search(other, text, re.IGNORECASE)
    }
    assert wrong == {}, (lang, wrong)


@pytest.mark.parametrize("lang", sorted(HANDICAP))
def test_the_handicap_has_one_name_in_each_language(lang: str) -> None:
    term, other = HANDICAP[lang]
    about = {
        msgid: text
        for msgid, text in messages(lang).items()
        if re.search(r"\bhandicaps?\b", msgid, re.IGNORECASE)
    }
    assert len(about) >= 15, sorted(about)
    wrong = {
        msgid: text
        for msgid, text in about.items()
        if not re.search(term, text, re.IGNORECASE) or re.search(other, text, re.IGNORECASE)
    }
    assert wrong == {}, (lang, wrong)


#: An action of the game, said in English as "action": the word the language's catalogue
#: uses for it, never the other one it also knows (a Dutch walk read "acties" in the
#: puzzles' heading and "zetten" beneath it; French took back "le coup" on one page and
#: "une action" on the next).
ACTION = {
    "fr": r"\bcoups?\b",
    "nl": r"\bacties?\b",
}


@pytest.mark.parametrize("lang", sorted(ACTION))
def test_an_action_has_one_word_in_each_language(lang: str) -> None:
    about = {
        msgid: text
        for msgid, text in messages(lang).items()
        if re.search(r"\bactions?\b|\btake back\b", msgid, re.IGNORECASE)
    }
    assert len(about) >= 30, sorted(about)
    wrong = {msgid: text for msgid, text in about.items() if re.search(ACTION[lang], text)}
    assert wrong == {}, (lang, wrong)

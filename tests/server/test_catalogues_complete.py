"""Every language of LANGUAGES is complete in the real catalogues: every message
translated, none fuzzy, every plural form, the msgid's placeholders, nothing left in
English but the language's same-as-english.txt (docs/translating.md). It fails until
the translators have filled the catalogues (issue 50); ``catalogues.py check`` says
what is left."""

from __future__ import annotations

import re

from shiftago.interfaces.shared.catalogues import LANGUAGES, LOCALE_DIR, Catalogues


def test_every_language_is_complete() -> None:
    catalogues = Catalogues(LOCALE_DIR)
    assert sorted(catalogues.by_lang) == sorted(LANGUAGES)
    lacking = {
        lang: [*gaps[:10], f"... {len(gaps)} in all"]
        for lang, gaps in catalogues.gaps.items()
        if gaps
    }
    assert lacking == {}


#: French sets a narrow or no-break space before : ; ! ? and inside « »: a plain space
#: there lets a line break come before the sign (a phone walk found it in 53 messages).
_PLAIN_SPACE_IN_FRENCH = re.compile(r" [:;!?](?=\s|$)|« | »")
#: The messages whose signs are notation, not punctuation (a record's marks).
_NOTATION = ("(! ? !! ?? !? ?!)",)


def test_french_punctuation_keeps_its_space() -> None:
    french = Catalogues(LOCALE_DIR).by_lang["fr"].catalog
    plain = []
    for message in french:
        forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in forms:
            notation = any(n in (text or "") for n in _NOTATION)
            if message.id and text and not notation and _PLAIN_SPACE_IN_FRENCH.search(text):
                plain.append(text[:80])
    assert plain == []

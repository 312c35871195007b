"""Every language of LANGUAGES is complete in the real catalogues: every message
translated, none fuzzy, every plural form, the msgid's placeholders, nothing left in
English but the language's same-as-english.txt (docs/translating.md). It fails until
the translators have filled the catalogues (issue 50); ``catalogues.py check`` says
what is left."""

from __future__ import annotations

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

"""The catalogues' rules (interfaces/shared/catalogues.py, docs/translating.md): a
language is complete only when every message is translated, none fuzzy, every plural
form given, the placeholders the msgid's, and no message left as its English text unless
the language's ``same-as-english.txt`` lists it; and the pseudo catalogue that marks
every message."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import (
    Catalogues,
    missing,
    same_as_english,
    use_language,
    whole_number,
    write_pseudo,
)

HEAD = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""
#: The template: a word, a name, a sentence with a placeholder, a symbol, a plural.
MESSAGES = [
    ("Play", None),
    ("Express", None),
    ("Hello %(name)s", None),
    ("±{deviation}", None),
    ("{n} game", "{n} games"),
]


def po(lang: str, strings: dict[str, str | tuple[str, str]], fuzzy: tuple[str, ...] = ()) -> str:
    text = HEAD.format(lang=lang)
    for msgid, plural in MESSAGES:
        flags = "#, fuzzy\n" if msgid in fuzzy else ""
        given = strings.get(msgid, "" if plural is None else ("", ""))
        if plural is None:
            text += f'{flags}msgid "{msgid}"\nmsgstr "{given}"\n\n'
        else:
            one, other = given
            text += (
                f'{flags}msgid "{msgid}"\nmsgid_plural "{plural}"\n'
                f'msgstr[0] "{one}"\nmsgstr[1] "{other}"\n\n'
            )
    return text


GERMAN: dict[str, str | tuple[str, str]] = {
    "Play": "Spielen",
    "Express": "Express",
    "Hello %(name)s": "Hallo %(name)s",
    "±{deviation}": "±{deviation}",
    "{n} game": ("{n} Partie", "{n} Partien"),
}


def folder_with(tmp_path: Path, lang: str, text: str, same: str | None = None) -> Path:
    (tmp_path / "shiftago.pot").write_text(po("en", {}), encoding="utf-8")
    where = tmp_path / lang / "LC_MESSAGES"
    where.mkdir(parents=True)
    (where / "shiftago.po").write_text(text, encoding="utf-8")
    if same is not None:
        (tmp_path / lang / "same-as-english.txt").write_text(same, encoding="utf-8")
    return tmp_path


def gaps(tmp_path: Path, strings: dict[str, str | tuple[str, str]], **kw: object) -> list[str]:
    same = kw.pop("same", "# the names\nExpress\n")
    text = po("de", strings, **kw)  # type: ignore[arg-type]
    fresh = tmp_path / str(len(list(tmp_path.iterdir())))  # a folder per call
    fresh.mkdir()
    return Catalogues(folder_with(fresh, "de", text, same)).gaps["de"]  # type: ignore[arg-type]


def test_a_whole_catalogue_lacks_nothing(tmp_path: Path) -> None:
    assert gaps(tmp_path, GERMAN) == []


def test_an_untranslated_message_is_missing(tmp_path: Path) -> None:
    assert gaps(tmp_path, {**GERMAN, "Play": ""}) == ["untranslated: 'Play'"]


def test_a_fuzzy_message_is_missing(tmp_path: Path) -> None:
    assert gaps(tmp_path, GERMAN, fuzzy=("Play",)) == ["fuzzy: 'Play'"]


def test_every_plural_form_is_given(tmp_path: Path) -> None:
    found = gaps(tmp_path, {**GERMAN, "{n} game": ("{n} Partie", "")})
    assert found == ["plural forms missing: '{n} game'"]


def test_the_placeholders_are_the_msgids(tmp_path: Path) -> None:
    found = gaps(tmp_path, {**GERMAN, "Hello %(name)s": "Hallo %(nom)s"})
    assert found == ["placeholders unlike the msgid's: 'Hello %(name)s' -> 'Hallo %(nom)s'"]


def test_a_message_left_in_english_is_missing(tmp_path: Path) -> None:
    found = gaps(tmp_path, {**GERMAN, "Play": "Play", "{n} game": ("{n} game", "{n} games")})
    assert found == ["same as English: 'Play'", "same as English: '{n} game'"]


def test_only_the_listed_words_may_stay_english(tmp_path: Path) -> None:
    # without the list, "Express" left as it is counts as untranslated
    assert gaps(tmp_path, GERMAN, same=None) == ["same as English: 'Express'"]
    # a comment naming a msgid does not list it
    assert gaps(tmp_path, GERMAN, same="# Express\n") == ["same as English: 'Express'"]
    # listed for another language only: still missing here
    assert gaps(tmp_path, GERMAN, same="Play\n") == ["same as English: 'Express'"]


def test_the_list_is_read_a_msgid_a_line(tmp_path: Path) -> None:
    (tmp_path / "it").mkdir()
    (tmp_path / "it" / "same-as-english.txt").write_text(
        "# comment\n\n  Express  \nOK\n#OK too\n", encoding="utf-8"
    )
    assert same_as_english(tmp_path, "it") == frozenset({"Express", "OK"})
    assert same_as_english(tmp_path, "nl") == frozenset()


def test_missing_compares_against_the_template(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "de", po("de", GERMAN))
    template = read_po((folder / "shiftago.pot").open("rb"))
    catalog = read_po((folder / "de/LC_MESSAGES/shiftago.po").open("rb"), locale="de")
    assert missing(catalog, template) == ["same as English: 'Express'"]
    assert missing(catalog, template, frozenset({"Express"})) == []


def test_the_pseudo_catalogue_marks_every_message(tmp_path: Path) -> None:
    template = tmp_path / "in.pot"
    template.write_text(po("en", {}), encoding="utf-8")
    written = write_pseudo(template, tmp_path / "pseudo")
    assert written == tmp_path / "pseudo/de/LC_MESSAGES/shiftago.po"
    assert (tmp_path / "pseudo/shiftago.pot").read_bytes() == template.read_bytes()
    words = Catalogues(tmp_path / "pseudo").translations("de")
    assert words.gettext("Hello %(name)s") == "⟦Hello %(name)s⟧"
    assert words.ngettext("{n} game", "{n} games", 1) == "⟦{n} game⟧"
    assert words.ngettext("{n} game", "{n} games", 5) == "⟦{n} games⟧"


def test_a_plural_form_may_name_the_fields_of_either_msgid() -> None:
    """Click's ``ngettext("Did you mean {possibility}?", "(... {possibilities}?)", n)``:
    each form fills the fields of its own msgid."""
    pair = ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)")
    template = Catalog(locale="en")
    template.add(pair)
    catalog = Catalog(locale="de")
    catalog.add(pair, ("Meintest du {possibility}?", "(Eines davon: {possibilities}?)"))
    assert missing(catalog, template) == []
    wrong = Catalog(locale="de")
    wrong.add(pair, ("Meintest du {possibility}?", "(Eines davon: {choices}?)"))
    assert missing(wrong, template) == [
        "placeholders unlike the msgid's: 'Did you mean {possibility}?' -> "
        "'(Eines davon: {choices}?)'"
    ]


def _error_classes() -> tuple[set[str], set[str]]:
    """The classes of the package that derive from ``TranslatableError`` (by name, over
    the source), and those of them raised somewhere with a string literal first."""
    import ast

    source = Path(__file__).resolve().parents[2] / "src" / "shiftago"
    bases: dict[str, set[str]] = {}
    raised: set[str] = set()
    for path in source.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {b.id for b in node.bases if isinstance(b, ast.Name)}
                bases.setdefault(node.name, set()).update(names)
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call, args = node.exc.func, node.exc.args
                if isinstance(call, ast.Name) and args and isinstance(args[0], ast.Constant):
                    raised.add(call.id)
    derived = {"TranslatableError"}
    while True:
        more = {name for name, up in bases.items() if up & derived} - derived
        if not more:
            return derived, raised & derived
        derived |= more


def test_every_error_raised_with_a_template_is_an_extraction_keyword() -> None:
    from shiftago.interfaces.shared.catalogues import ERROR_KEYWORDS

    derived, raised = _error_classes()
    assert set(ERROR_KEYWORDS) <= derived, set(ERROR_KEYWORDS) - derived
    assert raised <= set(ERROR_KEYWORDS), raised - set(ERROR_KEYWORDS)


def test_a_whole_number_is_grouped_as_the_language_writes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The terminal app's engine line counts its nodes so ("3416348 nœuds" was hard to
    read in French)."""
    monkeypatch.setattr(catalogues, "_words", catalogues.Words())  # put back after
    said = {}
    for lang in ("en", "fr", "de"):
        use_language(lang)
        said[lang] = whole_number(3_416_348)
    assert said == {"en": "3,416,348", "fr": "3\u202f416\u202f348", "de": "3.416.348"}

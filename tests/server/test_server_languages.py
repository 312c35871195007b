"""The site's languages (interfaces/server/languages.py): which catalogues are complete,
the order in which a request's language is chosen (WEBAPI.md, "Languages"), ``<html
lang>``, the ``lang`` cookie, the account's setting, the scripts' JSON catalogue, and the
``code`` every error answer carries."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from shiftago.interfaces.server import languages
from shiftago.interfaces.server.languages import (
    LANGUAGES,
    LOCALE_DIR,
    Catalogues,
    accepted,
)
from shiftago.interfaces.shared.catalogues import KEYWORDS, plural_categories
from support.accounts_support import as_account, sign_up
from support.server_support import client_for

ROOT = Path(__file__).resolve().parents[2]
I18N_JS = ROOT / "src/shiftago/interfaces/server/web/static/i18n.js"

HEADER = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""
TEMPLATE = """msgid "Play"
msgstr "{play}"

#, python-format
msgid "Hello %(name)s"
msgstr "{hello}"

msgid "{{n}} game"
msgid_plural "{{n}} games"
msgstr[0] "{one}"
msgstr[1] "{other}"
"""
TWO = "nplurals=2; plural=(n != 1);"
#: Italian's and French's rule as Babel writes it: one, many (a million...), other.
THREE = "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"


def write(folder: Path, lang: str, plural: str = TWO, **words: str) -> None:
    values = {"play": "", "hello": "", "one": "", "other": "", **words}
    text = HEADER.format(lang=lang, plural=plural) + TEMPLATE.format(**values)
    if plural == THREE:
        text += f'msgstr[2] "{values["other"]}"\n'
    if lang == "pot":
        (folder / "shiftago.pot").write_text(text, encoding="utf-8")
        return
    where = folder / lang / "LC_MESSAGES"
    where.mkdir(parents=True)
    (where / "shiftago.po").write_text(text, encoding="utf-8")


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A small set of catalogues: German complete, Dutch not, Italian with a placeholder
    unlike its msgid's, French with a plural form missing."""
    write(tmp_path, "pot")
    write(tmp_path, "en")
    de = {"play": "Spielen", "hello": "Hallo %(name)s", "one": "{n} Partie", "other": "{n} Partien"}
    write(tmp_path, "de", **de)
    write(tmp_path, "nl", play="Spelen")
    it = {"play": "Gioca", "hello": "Ciao %(nome)s", "one": "{n} partita", "other": "{n} partite"}
    write(tmp_path, "it", THREE, **it)
    fr = {"play": "Jouer", "hello": "Bonjour %(name)s", "one": "{n} partie", "other": ""}
    write(tmp_path, "fr", THREE, **fr)
    return tmp_path


def test_only_complete_catalogues_are_offered(small: Path) -> None:
    catalogues = Catalogues(small, preview=True)
    assert catalogues.complete == ("en", "de")
    assert catalogues.gaps["nl"] == [
        "untranslated: 'Hello %(name)s'",
        "untranslated: '{n} game'",
    ]
    assert catalogues.gaps["it"] == [
        "placeholders unlike the msgid's: 'Hello %(name)s' -> 'Ciao %(nome)s'"
    ]
    assert catalogues.gaps["fr"] == ["plural forms missing: '{n} game'"]
    assert "es" not in catalogues.by_lang  # no file: not offered, no error
    assert catalogues.translations("de").ngettext("{n} game", "{n} games", 2) == "{n} Partien"
    assert catalogues.translations("nl").gettext("Hello %(name)s") == "Hello %(name)s"


def test_no_language_but_english_while_a_page_is_english(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(languages, "UNCONVERTED", ("web/new-page.html",))
    assert Catalogues(small).complete == ("en",)
    assert "de" in Catalogues(small, preview=True).complete


def test_each_source_beats_the_next(small: Path) -> None:
    choose = Catalogues(small, preview=True).choose
    assert choose("de", "en", "en", "en") == "de"  # ?lang=
    assert choose(None, "de", "en", "en") == "de"  # the cookie
    assert choose(None, None, "de", "en") == "de"  # the account's setting
    assert choose(None, None, None, "fr;q=1, de-AT;q=0.8, en;q=0.5") == "de"  # browser's
    assert choose(None, None, None, None) == "en"
    # a language not offered is passed over, never served half translated
    assert choose("nl", "fr", "it", "nl, it") == "en"
    assert choose("xx", "de") == "de"


def test_accept_language_is_read_by_its_weights() -> None:
    assert accepted("en;q=0.5, de-DE, fr;q=0.9, *;q=0.1, it;q=0") == ["de-DE", "fr", "en"]
    assert accepted("de;q=nonsense, nl") == ["nl"]


def test_the_plural_categories_are_in_gettexts_order() -> None:
    for lang in LANGUAGES:
        catalog = read_po((LOCALE_DIR / lang / "LC_MESSAGES" / "shiftago.po").open("rb"))
        assert len(plural_categories(lang)) == catalog.num_plurals, lang
    assert plural_categories("fr") == ("one", "many", "other")
    assert plural_categories("de") == ("one", "other")


def test_the_pages_index_of_a_plural_form_is_gettexts() -> None:
    """i18n.js maps Intl.PluralRules' category to a form's index: the same index as the
    catalogue's own gettext rule, in every language, for the numbers that differ."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    numbers = [0, 1, 2, 3, 5, 11, 21, 101, 1000000, 2000000, 1000001]
    script = (
        f"import {{ pluralIndex }} from {json.dumps(I18N_JS.as_uri())};\n"
        f"const langs = {json.dumps({lang: plural_categories(lang) for lang in LANGUAGES})};\n"
        f"const numbers = {json.dumps(numbers)};\n"
        "const out = {};\n"
        "for (const [lang, cats] of Object.entries(langs)) {\n"
        "  const rules = new Intl.PluralRules(lang);\n"
        "  out[lang] = numbers.map((n) => pluralIndex(n, cats, (x) => rules.select(x)));\n"
        "}\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for lang in LANGUAGES:
        catalog = read_po((LOCALE_DIR / lang / "LC_MESSAGES" / "shiftago.po").open("rb"))
        wanted = [_gettext_index(catalog.plural_expr, n) for n in numbers]
        assert found[lang] == wanted, lang


def _gettext_index(expression: str, n: int) -> int:
    """A gettext plural expression (C syntax) evaluated for ``n``, as gettext does."""
    return int(gettext.c2py(expression)(n))


def test_the_template_is_up_to_date_with_the_code(tmp_path: Path) -> None:
    """Every message the templates, scripts and Python mark is in shiftago.pot: the
    extraction was run after the last change of words (scripts/catalogues.py extract)."""
    pybabel = Path(shutil.which("pybabel") or ROOT / ".venv/bin/pybabel")
    venv = Path(__import__("sys").executable).with_name("pybabel")
    out = tmp_path / "now.pot"
    subprocess.run(
        [str(venv if venv.exists() else pybabel), "extract", "-F", "babel.cfg",
         *KEYWORDS, "--no-location", "-o", str(out), "src"],
        cwd=ROOT, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    now = {m.id for m in read_po(out.open("rb")) if m.id}
    kept = {m.id for m in read_po((LOCALE_DIR / "shiftago.pot").open("rb")) if m.id}
    assert now == kept


def test_the_german_model_is_complete() -> None:
    """The converted parts are translated into German whole, placeholders and plurals
    included (the model for the other languages)."""
    catalogues = Catalogues(LOCALE_DIR, preview=True)
    assert catalogues.gaps["de"] == []
    assert "de" in catalogues.complete


# --- the app -------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(f"sqlite:///{tmp_path / 'db.sqlite'}", preview_languages=True) as c:
        yield c


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]*)"', text)
    assert found is not None
    return found.group(1)


def test_a_page_names_its_language_and_keeps_the_choice(client: TestClient) -> None:
    english = client.get("/leaderboard")
    assert html_lang(english.text) == "en" and "Leaderboard" in english.text
    assert "lang" not in english.cookies
    german = client.get("/leaderboard?lang=de")
    assert html_lang(german.text) == "de"
    assert '<h1 id="board-title">Rangliste</h1>' in german.text
    assert ">Spielen</a>" in german.text  # the menu
    assert german.cookies.get("lang") == "de"
    assert 'data-testid="language-picker"' in german.text
    assert '<option value="de" lang="de" selected>Deutsch</option>' in german.text
    # the cookie holds: the next page comes in German without ?lang=
    assert html_lang(client.get("/how-to-play").text) == "de"
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and "Seite nicht gefunden" in missing.text
    # a language not offered (no catalogue) changes nothing
    client.cookies.clear()
    portuguese = client.get("/?lang=pt", headers={"accept-language": "pt, de;q=0.5"})
    assert html_lang(portuguese.text) == "de" and "lang" not in portuguese.cookies


def test_the_account_setting_beats_the_browser(client: TestClient) -> None:
    cookies = sign_up(client, "ann")
    with as_account(client, cookies):
        csrf = {"x-csrf-token": cookies["csrf"]}
        refused = client.put("/api/account/language", json={"language": "xx"}, headers=csrf)
        assert refused.status_code == 422 and refused.json()["code"] == "invalid"
        answer = client.put("/api/account/language", json={"language": "de"}, headers=csrf)
        assert answer.status_code == 200 and answer.json() == {"language": "de"}
        page = client.get("/leaderboard", headers={"accept-language": "en"})
        assert html_lang(page.text) == "de"
        assert client.get("/api/session").json()["language"] == "de"
        client.put("/api/account/language", json={"language": None}, headers=csrf)
        assert html_lang(client.get("/leaderboard", headers={"accept-language": "en"}).text) == "en"
    signed_out = client.put("/api/account/language", json={"language": "de"})
    assert signed_out.status_code in (401, 403) and signed_out.json()["code"]


def test_the_scripts_catalogue_is_json_with_its_plural_rule(client: TestClient) -> None:
    answer = client.get("/static/i18n/de.json")
    assert answer.status_code == 200
    body = answer.json()
    assert body["lang"] == "de" and body["plural"] == ["one", "other"]
    assert body["messages"]["Sound on"] == "Ton an"
    assert body["messages"]["{variant}, {n} player"] == ["{variant}, {n} Spieler"] * 2
    etag = answer.headers["etag"]
    again = client.get("/static/i18n/de.json", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.headers["etag"] == etag
    fr = client.get("/static/i18n/fr.json").json()
    assert fr["plural"] == ["one", "many", "other"]
    unknown = client.get("/static/i18n/xx.json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"


def test_every_error_answer_carries_a_code(client: TestClient) -> None:
    cases = [
        client.get("/api/no/such/route"),  # Starlette's 404
        client.delete("/api/levels"),  # 405
        client.post("/api/games", json={"players": "many"}),  # FastAPI's validation
        client.get("/api/games/nosuchgame"),
        client.get("/api/players/nobody"),
    ]
    for answer in cases:
        body = answer.json()
        assert answer.status_code >= 400, answer.text
        assert isinstance(body.get("code"), str) and body["code"], answer.text
        assert isinstance(body.get("message"), str), answer.text
    assert [a.json()["code"] for a in cases[:2]] == ["not_found", "method_not_allowed"]

"""The terminal game's language (issue 50): ``shiftago play --lang xx``, else the
environment's ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``, among the complete
catalogues; English otherwise. A fixture catalogue stands in for the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from shiftago.interfaces.cli import cli
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import Words, terminal_language

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
def fixture_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """German complete, Italian not: only English and German are offered. The words
    of the process are English again after the test."""
    folder = tmp_path / "locale"
    folder.mkdir()
    write(folder, "pot", dict.fromkeys(WORDS, ""))
    write(folder, "de", WORDS)
    write(folder, "it", {"orange": "arancione"})
    monkeypatch.setattr(catalogues, "LOCALE_DIR", folder)
    monkeypatch.setattr(catalogues, "_words", Words())
    return folder


def play(tmp_path: Path, args: list[str], **env: str) -> Result:
    environment = {"SHIFTAGO_HOME": str(tmp_path / "home"), "LANGUAGE": "", "LC_ALL": ""}
    environment |= {"LC_MESSAGES": "", "LANG": "", **env}
    return CliRunner().invoke(
        cli, ["play", "--first", "o", "--new", *args], input="L3\nquit\n", env=environment
    )


def test_lang_de_says_the_catalogues_words(fixture_catalogues: Path, tmp_path: Path) -> None:
    result = play(tmp_path, ["--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Orange setzt ein> L3" in result.output
    assert "Orange spielt L3" in result.output
    assert "Grün setzt ein> quit" in result.output
    # a message the catalogue lacks is said in English, its values in German
    assert "Ende: the game is saved" in result.output


def test_the_environment_picks_german_when_offered(
    fixture_catalogues: Path, tmp_path: Path
) -> None:
    german = play(tmp_path, [], LANG="de_DE.UTF-8")
    assert "Orange spielt L3" in german.output
    # Italian's catalogue is incomplete: not offered, so English
    italian = play(tmp_path, [], LANG="it_IT.UTF-8")
    assert italian.exit_code == 0 and "orange plays L3" in italian.output
    # LC_ALL comes before LANG, and C is English whatever follows
    english = play(tmp_path, [], LC_ALL="C", LANG="de_DE.UTF-8")
    assert "orange plays L3" in english.output
    # --lang beats the environment
    assert "orange plays L3" in play(tmp_path, ["--lang", "en"], LANG="de_DE.UTF-8").output


def test_a_bad_lang_is_a_usage_error_and_nothing_is_played(
    fixture_catalogues: Path, tmp_path: Path
) -> None:
    for asked in ("xx", "it"):  # unknown, and known but incomplete
        result = play(tmp_path, ["--lang", asked])
        assert result.exit_code == 2
        assert f"unknown language '{asked}': choose one of en, de" in result.output
        assert "plays" not in result.output and "> " not in result.output
        assert not (tmp_path / "home" / "autosave.txt").exists()


def test_terminal_language_reads_the_variables_in_posix_order() -> None:
    offered = ("en", "de", "fr")
    assert terminal_language(None, {"LANG": "de_DE.UTF-8"}, offered) == "de"
    assert terminal_language(None, {"LANGUAGE": "nl:fr", "LANG": "de"}, offered) == "fr"
    assert terminal_language(None, {"LC_MESSAGES": "fr_FR", "LANG": "de_DE"}, offered) == "fr"
    assert terminal_language(None, {"LC_ALL": "POSIX", "LANG": "de_DE"}, offered) == "en"
    assert terminal_language(None, {"LANG": "it_IT"}, offered) == "en"
    assert terminal_language("DE-at", {}, offered) == "de"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        terminal_language("xx", {"LANG": "de_DE"}, offered)

"""The terminal game's language (issue 50): ``shiftago play --lang xx``, else the
environment's ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``, among the complete
catalogues; English otherwise. A fixture catalogue stands in for the real ones."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from shiftago.core import Game, Rules, Variant
from shiftago.interfaces.cli import cli
from shiftago.interfaces.play.session import yes_no_again, yes_no_hint, yes_or_no
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import Catalogues, Words, terminal_language
from shiftago.interfaces.shared.game_words import status
from shiftago.interfaces.shared.newgame import SetupError, parse_colour
from support.catalogue_fixtures import write


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


def test_the_rows_under_the_board_line_up_whatever_the_labels_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A language's label for the supply may be far longer than English's: each row's
    numbers still begin in the same column."""
    folder = tmp_path / "locale"
    folder.mkdir()
    words = {"supply": "vano portabiglie", "points": "punti", "skips": "salti"}
    write(folder, "pot", dict.fromkeys(words, ""))
    write(folder, "it", words)
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language("it", Catalogues(folder))
    rules = Rules(Variant.EXPERT, 3, handicap=(0, 1, 0))
    rows = status(Game(rules, first=0).state).splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["vano", "punti", "salti"]
    assert len({row.index(" o ") for row in rows}) == 1, rows


@pytest.mark.parametrize(
    ("yes", "no", "answers"),
    [
        ("oui", "non", {"oui": True, "o": True, "Y": True, "non": False, "n": False}),
        ("sí", "no", {"si": True, "sí": True, "s": True, "no": False, "yes": True}),
        ("ja", "nee", {"ja": True, "j": True, "nee": False, "n": False, "maybe": None}),
    ],
)
def test_a_question_takes_yes_and_no_in_the_language_and_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, yes: str, no: str, answers: dict[str, bool]
) -> None:
    folder = tmp_path / "locale"
    folder.mkdir()
    words = {"yes": yes, "no": no, "Please answer %(yes)s or %(no)s.": "%(yes)s/%(no)s?"}
    write(folder, "pot", dict.fromkeys(words, ""))
    write(folder, "it", words)
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language("it", Catalogues(folder))
    assert {word: yes_or_no(word) for word in answers} == answers
    # the hint after the question gives the language's letters, the default's in capitals
    first = _plain_letter(yes), _plain_letter(no)
    assert yes_no_hint(True) == f" [{first[0].upper()}/{first[1]}] "
    assert yes_no_hint(False) == f" [{first[0]}/{first[1].upper()}] "
    # an answer that is neither is told the same letters the hint shows
    assert yes_no_again() == f"{first[0]}/{first[1]}?"


def _plain_letter(word: str) -> str:
    return unicodedata.normalize("NFD", word)[0]


def test_a_colour_is_named_in_the_language_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "locale"
    folder.mkdir()
    words = {"orange": "orange", "green": "vert", "blue": "bleu", "white": "blanc"}
    write(folder, "pot", dict.fromkeys(words, ""))
    write(folder, "it", words)
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language("it", Catalogues(folder))
    assert [parse_colour(word, 4) for word in ("Vert", "g", "green", "blanc", "w")] == [
        1,
        1,
        1,
        3,
        3,
    ]
    with pytest.raises(SetupError, match=r"'rouge'.* o \(orange\), g \(vert\), b \(bleu\)"):
        parse_colour("rouge", 3)


def finished(rules: Rules, actions: list[str]) -> Game:
    game = Game(rules, first=0)
    for action in actions:
        game.play(action)
    assert game.is_over
    return game


#: Orange's line on rank 1, green's on rank 7: orange's fifth push wins (Express), or
#: makes a line to score (Expert).
RANK_1 = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]


@pytest.mark.parametrize("lang", catalogues.LANGUAGES)
def test_the_result_under_the_board_names_the_winners_with_one_bracket_each(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result "vince arancione (o) (fila)": the reason in brackets after the
    winner's letter read two brackets in a row (an Italian walk). Whatever the reason,
    the only brackets are the seats' letters, in every language."""
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language(lang)
    games = [
        (finished(Rules(Variant.EXPRESS, 2), RANK_1), 1),
        (finished(Rules(Variant.EXPERT, 2, action_limit=10), [*RANK_1, "xa1-e1"]), 1),
        (finished(Rules(Variant.EXPRESS, 3, action_limit=3), ["L1", "L2", "L3"]), 3),
    ]
    for game, seats in games:
        head = status(game.state).splitlines()[0]
        assert ") (" not in head and head.count("(") == seats == head.count(")"), head
    from shiftago.interfaces.shared.game_words import DRAWN_HEAD, WON_HEAD

    for template in [*WON_HEAD.values(), *DRAWN_HEAD.values()]:
        said = catalogues._(template) % {"variant": "Expert", "n": 2, "who": "X (o)"}
        assert said.count("(") == 1 and ") (" not in said, said

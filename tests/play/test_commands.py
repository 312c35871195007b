"""The line game's commands in the language's words as well as in English, and its help
and rules filled to the terminal's width (an Italian family typed "aiuto" and read
lines broken at 100 columns on an 80-column terminal)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from shiftago.core import Action, ShiftagoError
from shiftago.interfaces.cli import cli
from shiftago.interfaces.play.commands import (
    COMMANDS,
    HELP,
    QUIT,
    UNDO,
    command_of,
    help_text,
    language_words,
    word_of,
    yes_or_no,
)
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import LANGUAGES, Catalogues, Words, _
from support.catalogue_fixtures import write

ORANGE_WINS = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]


@pytest.fixture(autouse=True)
def english_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's words are English again after each test (``--lang`` changes them)."""
    monkeypatch.setattr(catalogues, "_words", Words())


def play(home: Path, lang: str, lines: list[str], columns: int = 80) -> Result:
    env = {"SHIFTAGO_HOME": str(home), "LANGUAGE": "", "LC_ALL": "C", "COLUMNS": str(columns)}
    text = "".join(line + "\n" for line in lines)
    args = ["play", "--lang", lang, "--new", "--first", "o"]
    return CliRunner().invoke(cli, args, input=text, env=env)


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("error:", "errore:"))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_a_language_gives_a_command_is_taken_and_is_no_action(lang: str) -> None:
    """Each command has its word in each language (English's are its own), taken only
    where no action of the notation, other command or yes/no answer reads the same."""
    catalogues.use_language(lang)
    taken = language_words()
    if lang == "en":
        assert taken == {}
        return
    assert sorted(c.name for c in taken.values()) == sorted(c.name for c in COMMANDS)
    for command in COMMANDS:
        word = _(command.word)
        assert word == word.strip().lower() and len(word.split()) == 1, (lang, word)
        with pytest.raises(ShiftagoError):
            Action.parse(word)
        assert yes_or_no(word) is None, (lang, word)
        assert command_of(word) is command and command_of(word.upper()) is command
        assert word_of(command) == word
        for english in command.english:  # the English words stay
            assert command_of(english) is command


def test_a_word_that_reads_as_an_action_or_as_another_thing_is_not_taken(
    tmp_path: Path,
) -> None:
    """A translation that is an action (L3, xa1-e1), another command's English word, an
    answer to a yes/no question or two words is left aside: the English word works."""
    folder = tmp_path / "locale"
    folder.mkdir()
    words = {
        "yes": "sì",
        "no": "no",
        "command word: undo": "l3",
        "command word: legal": "xa1-e1",
        "command word: board": "help",
        "command word: quit": "si",
        "command word: save": "salva file",
        "command word: rules": "regole",
        "command word: help": "aiuto",
        "command word: position": "aiuto",  # twice: neither is taken
    }
    write(folder, "pot", dict.fromkeys(words, ""))
    write(folder, "it", words)
    catalogues.use_language("it", Catalogues(folder))
    assert {word: command.name for word, command in language_words().items()} == {"regole": "rules"}
    assert command_of("L3") is None and command_of("l3") is None  # an action
    assert command_of("undo") is UNDO and word_of(UNDO) == "undo"
    assert command_of("help") is HELP and command_of("si") is None and command_of("q") is QUIT


def test_the_italian_family_s_words_work_and_the_help_shows_them(tmp_path: Path) -> None:
    lines = ["L1", "aiuto", "posizione", "ritira", "posizione", "regole ora", "salva"]
    record = tmp_path / "partita.txt"
    lines += [f"salva {record}", "L2", "help", "undo", "esci"]
    result = play(tmp_path / "home", "it", lines)
    out = result.output
    assert result.exit_code == 0, out
    assert "  ritira         ritira l'ultima azione" in out
    assert "  salva FILE     scrive la registrazione della partita in FILE" in out
    assert "  esci           esci (la partita resta salvata" in out
    assert "Anche le parole inglesi funzionano: legal, undo, save, board," in out
    assert "ritirato: L1" in out and "ritirato: L2" in out
    positions = [line for line in out.splitlines() if line.startswith("express")]
    assert positions == [
        "express 2 7/7/7/7/7/7/o6 g insert 21,22 0,0 0,0",
        "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
    ]
    assert errors(out) == [
        "errore: regole non vuole niente dopo di sé, ricevuto: 'ora'",
        "errore: salva vuole un nome di file: salva FILE",
    ]
    assert record.exists()
    assert out.count("Scrivi un'azione o un comando") == 2  # aiuto and help
    assert out.rstrip().endswith("Uscita.")  # back at the empty board: nothing to resume


def test_the_hints_and_refusals_name_the_language_s_words(tmp_path: Path) -> None:
    result = play(tmp_path / "home", "it", [*ORANGE_WINS, "pippo"])
    flowing = " ".join(result.output.split())
    assert "scrivi 'salva FILE' per salvarla, 'ritira' per ritirare un'azione, 'esci'" in flowing
    assert "'pippo' non è un'azione né un comando (scrivi aiuto per l'elenco)" in flowing


def test_a_word_of_the_language_at_the_resume_question_is_meant_for_the_game(
    tmp_path: Path,
) -> None:
    """A script written for a new game is not spent on the question: its command in
    the language's words stops the setup as an English command does."""
    home = tmp_path / "home"
    play(home, "it", ["L1"])
    env = {"SHIFTAGO_HOME": str(home), "LANGUAGE": "", "LC_ALL": "C"}
    result = CliRunner().invoke(cli, ["play", "--lang", "it"], input="posizione\n", env=env)
    assert result.exit_code == 2, result.output
    assert "--resume" in result.output and "--new" in result.output


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns", [80, 60])
def test_help_rules_and_result_fit_the_terminal_s_width(
    tmp_path: Path, lang: str, columns: int
) -> None:
    """Every line but a file's path (which is never broken) fits: the help, the rules,
    the result under the board and the hints after it."""
    home = tmp_path / "home"
    result = play(home, lang, ["help", "rules", *ORANGE_WINS], columns)
    assert result.exit_code == 0, result.output
    lines = result.output.replace(str(home / "last-game.txt"), "PATH").splitlines()
    assert max(len(line) for line in lines) < columns, [
        line for line in lines if len(line) >= columns
    ]
    catalogues.use_language(lang)
    assert help_text(columns - 1) in result.output


def test_the_help_s_descriptions_line_up_in_one_column() -> None:
    rows = help_text(79).splitlines()[1:]
    starts = {len(row) - len(row.lstrip()) for row in rows if row.startswith(" " * 3)}
    assert starts == {17}  # the continuation lines, under the descriptions
    assert rows[0].startswith("  L3 R3 Tc Bc    insert a marble")
    assert any(row.startswith("  save FILE      write the game record to FILE") for row in rows)

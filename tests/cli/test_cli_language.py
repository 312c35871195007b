"""The command line in the terminal's language: its help texts and messages come from
the catalogues (``interfaces/cli/words.py``), and so do Click's own words."""

from __future__ import annotations

import ast
import errno
import inspect
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from shiftago.core import Game, Rules, Variant
from shiftago.formats.record import Record, format_record
from shiftago.formats.record_model import Seat
from shiftago.interfaces.cli import cli
from shiftago.interfaces.cli import words as cli_words
from shiftago.interfaces.cli.words import CLICK_WORDS, compiled_catalogue, use
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PSEUDO_CLOSE,
    PSEUDO_OPEN,
    write_pseudo,
)

#: A format field of Click's messages with its conversion: ``{name!r}``.
FIELD = re.compile(r"\{(\w+)(![rsa])?\}")
#: A message of the pseudo catalogue, as a help page shows it (wrapped over lines).
MARKED = re.compile(re.escape(PSEUDO_OPEN) + r"[^" + PSEUDO_CLOSE + r"]*" + re.escape(PSEUDO_CLOSE))


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """The command line in German for one test (its compiled catalogue in a fresh cache),
    English again after it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGUAGE", "")
    use("de")
    yield
    use("en")


def _template_ids() -> set[str]:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as file:
        template = read_po(file)
    found: set[str] = set()
    for message in template:
        if message.id:
            found.update((message.id,) if isinstance(message.id, str) else message.id)
    return found


def _commands(
    command: click.Command, path: str = "shiftago"
) -> Iterator[tuple[str, click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, f"{path} {name}")


def _click_messages() -> set[str]:
    """Every message Click's sources pass to gettext, and every other string of them
    (``"required"`` reaches gettext from a variable)."""
    found: set[str] = set()
    for source in Path(click.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_click_still_says_each_of_its_words_the_catalogues_hold() -> None:
    clicks = _click_messages()
    for entry in CLICK_WORDS:
        for message in (entry,) if isinstance(entry, str) else entry:
            assert message in clicks, message


def test_every_help_text_of_every_command_is_in_the_template() -> None:
    template = _template_ids()
    texts = 0
    for path, command in _commands(cli):
        assert isinstance(command, cli_words.TranslatedCommand), path
        for raw in (command.__dict__.get("help"), command.__dict__.get("short_help")):
            if raw:
                assert inspect.cleandoc(raw) in template, path
                texts += 1
        for param in command.params:
            raw = param.__dict__.get("help") if isinstance(param, click.Option) else None
            if raw and param.name not in ("help", "version"):
                assert isinstance(param, cli_words.TranslatedOption), f"{path} {param.name}"
                assert inspect.cleandoc(raw) in template, f"{path} {param.name}"
                texts += 1
    assert texts > 100


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_keeps_the_format_fields_of_click_s_words(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file, locale=lang)
    for entry in CLICK_WORDS:
        texts = (entry,) if isinstance(entry, str) else entry
        message = catalog.get(entry)
        assert message is not None and message.string, (lang, entry)
        english = {frozenset(FIELD.findall(text)) for text in texts}
        forms = (message.string,) if isinstance(message.string, str) else message.string
        for form in forms:
            assert frozenset(FIELD.findall(form)) in english, (lang, entry, form)


def test_german_help_says_the_catalogue_s_words(german: None) -> None:
    result = CliRunner().invoke(cli, ["play", "--help"])
    assert result.exit_code == 0, result.output
    english = CliRunner(env={"LANGUAGE": ""}).invoke(cli, ["play", "--help"])
    assert not result.output.startswith("Usage:")
    assert "Show this message and exit." not in result.output
    assert "The variant of a new game." not in result.output
    assert result.output != english.output


def test_a_german_usage_error_is_german_and_runs_nothing(german: None) -> None:
    result = CliRunner().invoke(cli, ["play", "--players", "9"])
    assert result.exit_code == 2
    assert "Invalid value for" not in result.output
    assert "Try 'shiftago play -h' for help." not in result.output
    assert "--players" in result.output and "9" in result.output


def test_a_path_refused_by_click_names_its_kind_in_german(german: None, tmp_path: Path) -> None:
    """Click names a path's kind ("File") when the option is made, at import: the
    kind is read in the language of the moment the refusal is said."""
    result = CliRunner().invoke(cli, ["play", "--load", str(tmp_path)])
    assert result.exit_code == 2
    assert f"Datei '{tmp_path}' ist ein Verzeichnis" in result.output, result.output


def test_lang_speaks_clicks_refusals_of_the_line_itself(tmp_path: Path) -> None:
    """An option Click cannot parse is refused before any option's callback runs: the
    console script reads --lang first."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "LANGUAGE": "en"}
    for line, words in [
        (["play", "--lang", "de", "--new", "--position"], "Option '--position' braucht ein"),
        (["tui", "--bogus", "--lang=de"], "Unbekannte Option '--bogus'"),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "shiftago", *line],
            capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 2
        assert words in done.stderr, done.stderr
    # a --lang that is no language is refused in the terminal's
    done = subprocess.run(
        [sys.executable, "-m", "shiftago", "play", "--lang", "xx"],
        capture_output=True, text=True, env={**env, "LANGUAGE": "de"}, timeout=60, check=False,
    )  # fmt: skip
    assert "unbekannte Sprache 'xx': wähle eine von en, de" in done.stderr, done.stderr


def test_clicks_kinds_of_value_and_options_placeholder_are_german(german: None) -> None:
    """Click names a number's kind in its refusal and its help ("integer range") and
    writes [OPTIONS] in the usage line: each in the catalogue's words."""
    refused = CliRunner().invoke(cli, ["play", "--seed", "q"])
    assert refused.exit_code == 2
    assert "'q' ist kein gültiger Wert vom Typ ganze Zahl" in refused.output, refused.output
    helped = CliRunner().invoke(cli, ["play", "--help"]).output
    assert helped.startswith("Aufruf: cli play [OPTIONEN]")
    assert "--level GANZE ZAHL IM BEREICH" in helped and "INTEGER" not in helped
    # the project's own placeholders and Click's COMMAND [ARGS]... are German too
    assert "--first FARBE" in helped and "COLOUR" not in helped
    grouped = CliRunner().invoke(cli, ["--help"]).output
    assert grouped.startswith("Aufruf: cli [OPTIONEN] BEFEHL [ARGUMENTE]..."), grouped
    # an argument's kind too, not only an option's
    argued = CliRunner().invoke(cli, ["admin", "delete-message", "abc"])
    assert "'abc' ist kein gültiger Wert vom Typ ganze Zahl im Bereich" in argued.output


def _options(command: click.Command) -> Iterator[click.Option]:
    """Every option of ``command`` and of its subcommands."""
    yield from (p for p in command.params if isinstance(p, click.Option))
    for sub in getattr(command, "commands", {}).values():
        yield from _options(sub)


@pytest.mark.parametrize("language", ["de", "es", "fr", "it", "nl"])
def test_an_option_s_help_names_its_placeholder_as_the_help_line_shows_it(
    language: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """'--svg ORDNER ... nach DIR schreiben': the placeholder was translated and the help
    went on naming the English one (a German walk)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGUAGE", "")
    use(language)
    try:
        wrong = []
        for option in _options(cli):
            english_help = option.__dict__.get("help")
            english_metavar = option.__dict__.get("metavar")
            if not english_help or not english_metavar or not english_metavar.isupper():
                continue
            shown = option.metavar
            named = re.search(rf"\b{english_metavar}\b", english_help)
            said = shown and re.search(rf"\b{re.escape(shown)}\b", option.help or "")
            if shown and shown != english_metavar and named and not said:
                wrong.append((option.opts[0], shown, option.help))
        assert wrong == []
    finally:
        use("en")


def test_the_console_script_speaks_the_environment_s_language(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env |= {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-m", "shiftago", "--help"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not done.stdout.startswith("Usage:")
    assert "Shiftago, the board game" not in done.stdout
    env["LANG"] = "C"
    english = subprocess.run(
        [sys.executable, "-m", "shiftago", "--help"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert english.stdout.startswith("Usage: ")  # "Usage: python -m shiftago"
    assert "Shiftago, the board game" in english.stdout


def test_the_compiled_catalogue_is_made_once_and_again_when_the_po_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "locale"
    po = folder / "de" / "LC_MESSAGES" / f"{DOMAIN}.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Usage:"\nmsgstr "Aufruf:"\n', encoding="utf-8")
    first = compiled_catalogue("de", folder)
    assert first is not None and (first / "de" / "LC_MESSAGES" / f"{DOMAIN}.mo").exists()
    assert compiled_catalogue("de", folder) == first
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Usage:"\nmsgstr "Gebrauch:"\n', encoding="utf-8")
    second = compiled_catalogue("de", folder)
    assert second is not None and second != first
    assert compiled_catalogue("xx", folder) is None


def test_every_word_of_every_help_page_comes_from_the_catalogues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a pseudo catalogue whose every message is ⟦its English⟧, what stands outside
    the brackets on each help page is names (commands, options, metavars, choices) only."""
    folder = tmp_path / "pseudo"
    write_pseudo(LOCALE_DIR / f"{DOMAIN}.pot", folder, "de")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", folder)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGUAGE", "")
    names = {"shiftago"}
    for _path, command in _commands(cli):
        names.update(command.name or "" for _ in [0])
        for param in command.params:
            if isinstance(param.type, click.Choice):
                names.update(str(choice) for choice in param.type.choices)
    use("de")
    try:
        for path, _command in _commands(cli):
            args = path.split()[1:]
            result = CliRunner().invoke(cli, [*args, "--help"])
            assert result.exit_code == 0, (path, result.output)
            outside = MARKED.sub(" ", result.output)
            words = {
                word
                for word in re.findall(r"[^\W\d_][\w'-]+", outside)
                if not word.isupper() and word.lower() not in names
            }
            flags = set(re.findall(r"--?[\w-]+", outside))
            left = {w for w in words if not any(w in flag for flag in flags)}
            assert left == set(), (path, left)
    finally:
        use("en")


def test_show_says_its_words_in_the_terminal_s_language(german: None) -> None:
    position = "expert 2 gggg3/7/7/7/7/7/o3o2 o insert 20,18 2,0 0,0"
    result = CliRunner().invoke(cli, ["show", position])
    assert result.exit_code == 0, result.output
    assert "Expert, 2 Spieler: Orange (o) schiebt ein" in result.output
    assert "players" not in result.output and "to insert" not in result.output
    # the board and the notation are the same in every language
    assert "1 o . . . o . ." in result.output


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("it", "equilibrio competitivo: verde salta 2 turni e blu salta 1 turno"),
        ("de", "Spielstärkeausgleich: Grün setzt 2 Züge aus und Blau setzt 1 Zug aus"),
    ],
)
def test_show_names_the_handicap_in_the_game_s_words(
    english_after: None, tmp_path: Path, lang: str, words: str
) -> None:
    """The handicap as the language's rulebook names it (Italian's "equilibrio
    competitivo"), each seat that skips and how many turns."""
    game = Game(Rules(Variant.EXPRESS, 3, handicap=(0, 2, 1)), first=0)
    path = tmp_path / "handicap.txt"
    path.write_text(format_record(Record.from_game(game)) + "\n")
    use(lang)
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0].split("; ")[1] == words


@pytest.mark.parametrize(
    ("result", "termination", "words"),
    [
        ("g", "resignation", "Grün gewinnt durch Aufgabe"),
        ("o", "time", "Orange gewinnt auf Zeit"),
        ("o", "time forfeit", "Orange gewinnt auf Zeit"),
        ("*", "aborted", "kein Ergebnis (das Spiel wurde abgebrochen)"),
        ("o=g", "agreement", "das Spiel endet unentschieden (durch Einigung)"),
    ],
)
def test_show_says_a_record_s_result_in_the_terminal_s_language(
    german: None, tmp_path: Path, result: str, termination: str, words: str
) -> None:
    game = Game(Rules(), first=0)
    for action in ("L1", "L7", "L1"):
        game.play(action)
    path = tmp_path / "ended.txt"
    record = Record.from_game(game, result=result, termination=termination)
    path.write_text(format_record(record) + "\n")
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.rstrip().endswith(f"beendet: {words}"), shown.output[-200:]
    assert "won" not in shown.output and "result" not in shown.output


def test_analyse_says_its_words_in_the_terminal_s_language(german: None) -> None:
    position = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
    result = CliRunner().invoke(cli, ["analyse", position, "--depth", "1", "--top", "2"])
    assert result.exit_code == 0, result.output
    assert f"Stellung: {position}" in result.output
    for english in ("position:", "evaluation:", "best line:", "legal actions not shown"):
        assert english not in result.output
    # the columns, the unit and the level's name are the catalogue's too
    assert re.search(r"Rang  Zug +Wert  Variante\n", result.output), result.output
    assert "Einheit: Centi-Einheiten" in result.output and "(Maximum)" in result.output
    for english in ("rank", "centi-units", "(maximum)"):
        assert english not in result.output


def test_analyse_writes_values_with_the_language_s_decimal_comma(
    german: None, tmp_path: Path
) -> None:
    """German writes 0,358: "0.358" beside "261.120 Knoten" read as a thousands point (a
    German walk). The record's comments are read by a person too: the same digits, and
    the record reads back (an Italian family read English and decimal points there)."""
    from shiftago.formats.record import parse_record

    game = Game.from_actions(Rules(Variant.EXPERT, 3), ["L1", "L7", "Td"], first=0)
    path = tmp_path / "game.txt"
    path.write_text(format_record(Record.from_game(game)))
    result = CliRunner().invoke(cli, ["analyse", str(path), "--nodes", "300"])
    assert result.exit_code == 0, result.output
    said, record = result.output.split('[Variant "expert"]')
    assert "um mehr als 0,100" in said and "um mehr als 0,050" in said
    assert re.search(r"Orange L1 +\+0,\d{3} ", said), said
    assert not re.search(r"\d\.\d{3}", said), said
    assert re.search(r"1\. L1 \{\+0,\d{3}\}", record), record
    assert "Jeder Wert gilt für den Platz, der gezogen hat; Einheit: der mittlere" in (
        " ".join(record.split())
    )
    assert list(parse_record('[Variant "expert"]' + record).actions) == game.history


def test_the_terminal_app_s_engine_lines_have_the_language_s_digits(german: None) -> None:
    from shiftago.core import Action
    from shiftago.engine.bot import Progress, RankedAction
    from shiftago.interfaces.tui.panel import engine_lines

    lines = (
        RankedAction(Action.parse("Be"), 0.358, (Action.parse("Be"), Action.parse("Tb"))),
        RankedAction(Action.parse("L1"), 9999.0),
    )
    shown = engine_lines(Progress(5, 0.358, 0, 261120, 1.0, lines))
    assert shown.splitlines() == [
        "Engine, Tiefe 5, 261.120 Knoten",
        "1.   0,358  Be Tb",
        "2.    9999  L1",
    ]


def test_every_unit_a_level_gives_is_in_the_catalogues() -> None:
    from shiftago.core import Rules, Variant
    from shiftago.engine.levels import LADDER, bot_for_level
    from shiftago.interfaces.analyse import UNIT_MESSAGES

    for rung in LADDER:
        bot = bot_for_level(rung.number, seed=0)
        for variant in Variant:
            for players in (2, 3, 4):
                unit = bot.for_rules(Rules(variant, players)).value_unit
                assert unit in UNIT_MESSAGES, (rung.number, variant, players)


def test_book_show_says_its_words_in_the_terminal_s_language(german: None) -> None:
    runner = CliRunner()
    shown = runner.invoke(cli, ["book", "show", "--position", "L4"])
    assert shown.exit_code == 0, shown.output
    rows = shown.output.splitlines()
    assert rows[0].startswith("Stellung express 2 7/7/7/o6/7/7/7 g insert")
    assert "(Buchschlüssel " in rows[0]
    assert rows[1].split() == ["Zug", "Partien", "Siege", "Remis", "Ergebnis", "Wert", "bewiesen"]
    outside = runner.invoke(cli, ["book", "show", "--position", "L1 L1 L1 L1 L1 L1"])
    assert outside.exit_code == 0 and outside.output.startswith("nicht im Buch: ")
    other = runner.invoke(cli, ["book", "show", "--players", "3", "--position",
                                "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"])  # fmt: skip
    assert other.exit_code == 1 and "weichen von denen des Buchs ab" in other.output


def test_errors_of_the_rooms_below_are_said_in_the_terminal_s_language(
    german: None, tmp_path: Path
) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["show", "express 2 7/7/7/7/7/7/x6 o insert 22,22 0,0 0,0"])
    assert bad.exit_code != 0
    assert "Zeile 1 des Spielfelds enthält 'x'" in bad.output, bad.output
    assert "rank 1" not in bad.output and "expected" not in bad.output
    # a broken record: the line, the problem and the nested action error, all German
    record = tmp_path / "broken.txt"
    record.write_text(
        '[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L3 2. Q9 *\n', encoding="utf-8"
    )
    broken = runner.invoke(cli, ["show", str(record)])
    assert broken.exit_code != 0
    assert "broken.txt:5: 'Q9' ist kein Zug: Einschieben ist" in broken.output, broken.output
    assert "is not" not in broken.output and "insertion" not in broken.output
    # the match's settings
    level = runner.invoke(cli, ["arena", "greedy", "level:9", "--games", "2"])
    assert level.exit_code != 0 and "level:3" in level.output
    assert "needs one of the levels" not in level.output


def test_a_refused_start_of_serve_is_said_in_the_terminal_s_language(
    german: None, tmp_path: Path
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        db = f"sqlite:///{tmp_path / 'games.db'}"
        refused = CliRunner().invoke(cli, ["serve", "--db", db, "--port", str(port)])
    assert refused.exit_code == 1
    assert f"auf 127.0.0.1:{port} kann nicht bedient werden: " in refused.output, refused.output
    assert "cannot serve" not in refused.output


def test_admin_s_refusal_of_a_new_password_is_said_in_the_terminal_s_language(
    german: None, tmp_path: Path
) -> None:
    from support.server_support import client_for

    url = f"sqlite:///{tmp_path / 'server.db'}"
    with client_for(url):
        pass  # the schema
    refused = CliRunner().invoke(
        cli, ["admin", "--db", url, "sign-out", "ann", "--new-password"], input="short\nshort\n"
    )
    assert refused.exit_code == 2
    assert "Ein Passwort hat 8 bis 200 Zeichen." in refused.output, refused.output


def test_arena_says_its_tables_in_the_terminal_s_language(german: None, tmp_path: Path) -> None:
    run = CliRunner().invoke(
        cli,
        ["arena", "greedy@depth=1", "level:1", "greedy", "--players", "3", "--games", "6",
         "--results", str(tmp_path / "r.jsonl"), "--quiet"],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Express, 3 Spieler: 6 von 6 Partien (2 Eröffnungen aus 2 Zufall")
    assert lines[1].split()[:6] == [
        "Rang",
        "Teilnehmer",
        "Partien",
        "Siege",
        "Remis",
        "Niederlagen",
    ]
    assert "Kreuztabelle, Zeile gegen Spalte: Siege-Remis-Niederlagen (Punkte)" in lines
    for english in ("players", "games", "participant", "crosstable", "points", "wins"):
        assert english not in run.stdout


@pytest.fixture
def english_after(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A test whose command line chooses another language: English again after it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGUAGE", "")
    yield
    use("en")


def test_lang_takes_effect_for_the_help_and_clicks_own_words(
    english_after: None, tmp_path: Path
) -> None:
    """``--lang`` is read before the other options: the help that follows it and Click's
    words around an error are in its language, as with ``LANGUAGE``."""
    helped = CliRunner().invoke(cli, ["tui", "--lang", "es", "--help"])
    assert helped.exit_code == 0, helped.output
    assert (
        helped.output.startswith("Uso: cli tui")
        and "Mostrar este mensaje y salir." in helped.output
    )
    refused = CliRunner().invoke(
        cli,
        ["play", "--plain", "--new", "--lang", "de", "--handicap", "7,0"],
        input="quit\n",
        env={"SHIFTAGO_HOME": str(tmp_path)},
    )
    assert refused.exit_code != 0
    assert "Fehler: jeder Spielstärkeausgleich ist 0 bis 6 ausgesetzte Züge" in refused.output


def test_a_files_refusal_and_a_records_players_in_the_terminals_language(
    german: None, tmp_path: Path
) -> None:
    """The system's refusals are English whatever the terminal says: the common ones
    are said in the catalogue's words; so are a record's kinds of player."""
    from shiftago.formats.source import SourceError, read_text
    from shiftago.interfaces.shared.game_words import error_words

    assert error_words(OSError(errno.EACCES, "Permission denied")) == "keine Berechtigung"
    missing = tmp_path / "nowhere.txt"
    with pytest.raises(SourceError) as refused:
        read_text(missing)
    assert error_words(refused.value).endswith(": diese Datei gibt es nicht")
    game = Game(Rules(), first=0)
    game.play("L1")
    path = tmp_path / "game.txt"
    record = Record.from_game(game, seats=[Seat(None, "human"), Seat(None, "computer", 2)])
    path.write_text(format_record(record) + "\n")
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert "Orange: Mensch, Grün: Computer, Stufe 2" in shown.output, shown.output
    assert "human" not in shown.output

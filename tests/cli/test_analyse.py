"""``shiftago analyse``: positions judged, records reviewed, as text and JSON."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from shiftago.core import Game, Rules, State
from shiftago.core.actions import Action
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction, format_value
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.engine.review import iter_review
from shiftago.formats.record import Record, format_record, format_records, parse_record
from shiftago.formats.record_json import record_from_json
from shiftago.interfaces.analyse import Settings, position_document, write_position, write_record
from shiftago.interfaces.cli import cli
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import Words
from shiftago.interfaces.stp import StpEngine

THREAT = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
SAVES = {"Bb", "Bc", "Bd", "Be"}
THREE = "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0"
MIDDLE = "express 2 4o2/2g4/3o3/2g1g2/1gooo2/2g4/1gggg2 o insert 16,13 0,0 0,0"
FAST = ("--level", "5", "--depth", "2")


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["analyse", *args], input=stdin)


def as_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def blunder_record(tmp_path: Path, name: str = "blunder.txt") -> Path:
    """Orange ignores green's double threat (R5) and green wins (L1)."""
    game = Game(position=THREAT)
    for action in ("R5", "L1"):
        game.play(action)
    path = tmp_path / name
    path.write_text(format_record(Record.from_game(game)) + "\n")
    return path


# --- positions ------------------------------------------------------------------------
def test_a_level_beyond_the_ladder_is_refused_by_the_option_in_the_readers_words() -> None:
    # "unknown level 9: the levels are 1 to 7" came in English from an Italian command:
    # the option's range is said in the language's words, as play's --level is
    result = invoke(MIDDLE, "--level", "9")
    assert result.exit_code == 2
    assert "9 is not in the range 1<=x<=7" in result.output


def test_a_position_as_text() -> None:
    result = invoke(THREAT, *FAST)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1 . g g g g . ." in out  # the board
    assert "unit: centi-units" in out
    assert "evaluation: " in out and "for orange" in out
    assert "best line: B" in out
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 28
    assert rows[0][1] in SAVES
    assert [int(r[0]) for r in rows] == list(range(1, 29))


def test_a_position_as_json() -> None:
    doc = as_json(invoke(MIDDLE, *FAST, "--json", "--top", "5"))
    assert doc["kind"] == "position" and doc["position"] == MIDDLE
    assert doc["to_act"] == "o" and doc["phase"] == "insert"
    assert doc["level"] == 5 and doc["limits"]["depth"] == 2
    assert doc["unit"].startswith("centi-units") and doc["point_of_view"] == "mover"
    assert doc["legal"] == 28 and len(doc["ranked"]) == 5
    best = doc["ranked"][0]
    assert set(best) == {"action", "value", "pv", "seat_values"}
    assert doc["evaluation"] == best["value"] and doc["pv"] == best["pv"]
    assert best["pv"][0] == best["action"]
    values = [r["value"] for r in doc["ranked"]]
    assert values == sorted(values, reverse=True)


def test_three_players_say_that_the_value_is_the_movers() -> None:
    result = invoke(THREE, "--level", "1")
    assert result.exit_code == 0, result.output
    assert "the value above is the mover's only" in result.stdout
    doc = as_json(invoke(THREE, "--level", "1", "--json"))
    assert doc["seat_values"] is None and doc["evaluation"] == 1000
    assert doc["ranked"][0]["action"] in ("L1", "Bd")  # both make a line of four


def test_the_default_level_is_the_strongest() -> None:
    doc = as_json(invoke(THREAT, "--depth", "1", "--json"))
    assert doc["level"] == default_level()


@pytest.mark.parametrize(
    ("position", "level", "options"),
    [
        (MIDDLE, "5", "depth=3"),
        (MIDDLE, "7", "nodes=3000"),
        (THREAT, "1", ""),
        (THREE, "4", ""),
        ("expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0", "7", "depth=2"),
        # the level's own budget for the game: 2,000 iterations, twice its Express budget
        ("express 4 3bgg1/7/w5o/7/7/7/6o b insert 20,20,21,21 0,0,0,0 0,0,0,0", "3", ""),
    ],
)
def test_the_engine_protocol_gives_the_same_analysis(
    position: str, level: str, options: str
) -> None:
    engine = StpEngine()
    assert engine.handle("newgame express 2 first=o seed=5") == "=\n\n"
    assert engine.handle(f"setposition {position}") == "=\n\n"
    response = engine.handle(f"analyse level={level} {options}")
    assert response is not None and response.startswith("=\n")
    protocol = [line for line in response.splitlines()[1:] if line]
    args = [part for word in options.split() for part in f"--{word}".split("=")]
    doc = as_json(invoke(position, "--level", level, "--seed", "5", "--json", *args))
    ours = [" ".join([r["action"], _text(r["value"]), *r["pv"]]) for r in doc["ranked"]]
    assert ours == protocol


def _text(value: float) -> str:
    return format_value(value)


# --- records ----------------------------------------------------------------------------
def test_a_record_with_a_blunder_as_text(tmp_path: Path) -> None:
    path = blunder_record(tmp_path)
    result = invoke(str(path), *FAST)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "values: from the point of view of the seat that acted" in lines
    first = next(line for line in lines if line.startswith("  1."))
    second = next(line for line in lines if line.startswith("  2."))
    assert first.split()[1:4] == ["orange", "R5", "-9998"] and " ?? " in first
    assert first.split()[first.split().index("best") + 1] in SAVES
    assert second.split()[1:4] == ["green", "L1", "+9999"] and "?" not in second
    assert "green wins with a line" in lines
    assert "orange: 1 blunder, 0 mistakes, 0 inaccuracies" in lines


def test_a_record_as_json(tmp_path: Path) -> None:
    path = blunder_record(tmp_path)
    doc = as_json(invoke(str(path), *FAST, "--json", "--threshold", "50"))
    assert doc["kind"] == "record" and doc["variant"] == "express" and doc["players"] == 2
    assert doc["threshold"] == 50 and doc["result"] == "g"
    assert doc["marks"] == {"??": "blunder", "?": "mistake", "?!": "inaccuracy"}
    first, second = doc["plies"]
    assert first["number"] == 1 and first["turn"] == 1 and first["seat"] == "o"
    assert first["position"] == THREAT and first["action"] == "R5"
    assert first["mark"] == "??" and first["mark_name"] == "blunder"
    assert first["best"] in SAVES and first["value"] == -9998
    assert first["loss"] == first["best_value"] - first["value"]
    assert first["best_pv"][0] == first["best"] and first["pv"] == ["R5", "L1"]
    assert second["seat"] == "g" and second["mark"] == "" and second["loss"] == 0


def test_the_default_threshold_is_the_bots(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["analyse", "--help"])
    assert result.exit_code == 0
    assert "Default: the bot's own" in " ".join(result.output.split())
    path = blunder_record(tmp_path)
    doc = as_json(invoke(str(path), *FAST, "--json"))
    assert doc["threshold"] == bot_for_level(5).mistake_threshold == 100
    text = invoke(str(path), "--level", "1").stdout
    assert "mistake (worse than the best action by more than 100)" in text


def test_the_review_is_written_into_the_record(tmp_path: Path) -> None:
    path = blunder_record(tmp_path)
    result = invoke(str(path), *FAST)
    assert result.exit_code == 0, result.output
    text = result.stdout.split("the game with its marks and values:\n\n", 1)[1]
    record = parse_record(text)
    assert record.actions == (Action.parse("R5"), Action.parse("L1"))
    blunder, win = record.notes
    assert blunder.mark == "??" and blunder.nags == (4,)
    assert blunder.comment is not None and blunder.comment.startswith("-")
    (best,) = blunder.variations
    assert str(best.actions[0]) in SAVES and best.notes[0].comment is not None
    assert win.nags == () and win.comment is not None and win.comment.startswith("+")
    assert record.comment is not None and "level 5" in record.comment
    doc = as_json(invoke(str(path), *FAST, "--json"))
    assert record_from_json(doc["record"]) == record


def test_a_record_from_standard_input_and_one_game_of_several(tmp_path: Path) -> None:
    game = Game(position=THREAT)
    game.play("Bc")
    short = Record.from_game(game)
    blunder = blunder_record(tmp_path).read_text()
    text = format_records([short]) + "\n" + blunder
    doc = as_json(invoke("-", *FAST, "--json", "--game", "2", stdin=text))
    assert doc["game"] == 2 and [p["action"] for p in doc["plies"]] == ["R5", "L1"]
    result = invoke("-", *FAST, stdin=text)
    assert result.stdout.startswith("<stdin> holds 2 games; this is game 1.")
    assert "not over" in result.stdout


# --- errors ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-file.txt"], "Error: no-such-file.txt: no such file"),
        (["express 2 nonsense"], "Error: bad position: a position has 8 fields"),
        (["express 2 7/7/7/7/7/7/7 q insert 22,22 0,0 0,0"], "Error: bad position:"),
        (
            ["express 2 7/7/7/7/7/7/7 o insert 0,22 0,0 0,0"],
            "Error: the game is over: the game is a draw (no marbles); nothing to analyse",
        ),
    ],
)
def test_bad_input_exits_2(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stdout == ""


def test_a_broken_record_and_a_missing_game(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text('[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. L1 2. Q9 *\n')
    result = invoke(str(broken))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {broken}:5: 'Q9' is not an action")
    result = invoke(str(blunder_record(tmp_path)), "--game", "2")
    assert result.exit_code == 2 and "holds 1 game(s), not a game 2" in result.stderr


def test_bad_options_are_usage_errors() -> None:
    for args in (["--depth", "0"], ["--threshold", "-1"], ["--top", "0"]):
        result = invoke(THREAT, *args)
        assert result.exit_code == 2 and "Invalid value" in result.output


def test_through_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shiftago", "analyse", "nowhere.txt"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "Error: nowhere.txt: no such file (a position string has 8 fields)\n"
    path = blunder_record(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "shiftago", "analyse", str(path), "--level", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plies"][0]["mark"] == "??"


# --- values per seat --------------------------------------------------------------------
class PerSeatBot(Bot):
    """A stand-in for a bot that judges for every seat (values made up)."""

    name = "per-seat"
    value_unit = "made-up shares"

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        return [
            RankedAction(a, 0.5 - i / 100, (a,), (0.5 - i / 100, 0.25, 0.25 + i / 100))
            for i, a in enumerate(state.legal_actions())
        ]


def test_values_per_seat_are_shown_where_the_bot_gives_them(tmp_path: Path) -> None:
    state = State.from_position(THREE)
    bot = PerSeatBot()
    settings = Settings(level=1, limits=Limits(), top=2, threshold=0.03)
    out = io.StringIO()
    write_position(out, state, bot.analyse(state), bot, settings)
    assert "per seat: o +0.500, g +0.250, b +0.250" in out.getvalue()
    doc = position_document(state, bot.analyse(state), bot, settings)
    assert doc["seat_values"] == [0.5, 0.25, 0.25]
    game = Game(position=THREE)
    game.play("L3")  # the third legal action: worth 0.02 less than the best
    out = io.StringIO()
    reviews = iter_review(bot, zip(game.states, game.history, strict=False), threshold=0.03)
    write_record(out, "game", Record.from_game(game), game, reviews, bot, settings, 1)
    text = out.getvalue()
    assert "(only the mover's" not in text
    assert "?! inaccuracy (by more than 0.015)" in text
    assert "  1. orange L3        +0.480 ?!  [o +0.480, g +0.250, b +0.270] best L1" in text


def test_a_record_ended_by_a_resignation_says_so(tmp_path: Path) -> None:
    game = Game(Rules(), first=0)
    for action in ("L1", "L7", "L1"):
        game.play(action)
    path = tmp_path / "resigned.txt"
    record = Record.from_game(game, result="o", termination="resignation")
    path.write_text(format_record(record) + "\n")
    analysed = invoke(str(path), *FAST)
    assert analysed.exit_code == 0, analysed.output
    assert "orange wins by resignation" in analysed.stdout.splitlines()
    assert "not over" not in analysed.stdout
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.rstrip().endswith("ended: orange wins by resignation")


def test_a_timed_analysis_warms_up_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Under a movetime the searches are compiled and the bot's tables made by a one-node
    search first (as the engine does), so the first position's time is all search."""
    from shiftago.interfaces import analyse as module

    seen: list[Limits] = []
    real = bot_for_level(1, 0)

    class Recording(Bot):
        name = real.name
        value_unit = real.value_unit

        def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
            seen.append(limits)
            return real.analyse(state, Limits(depth=1))

    warmed: list[bool] = []
    monkeypatch.setattr(module, "bot_for_level", lambda level, seed: Recording())
    monkeypatch.setattr(module, "warm_up_searches", lambda: warmed.append(True))
    settings = Settings(level=1, limits=Limits(movetime_ms=50))
    module.analyse("express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0", io.StringIO(), settings)
    assert warmed == [True]
    assert [(s.depth, s.nodes, s.movetime_ms) for s in seen] == [(1, 1, None), (None, None, 50)]
    seen.clear()
    module.analyse(
        "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        io.StringIO(),
        Settings(level=1, limits=Limits(depth=2)),
    )
    assert [(s.depth, s.nodes) for s in seen] == [(2, None)]  # untimed: nothing to warm


# --- the annotated record in the reader's language --------------------------------------
@pytest.mark.parametrize(
    ("lang", "about", "value"),
    [
        ("de", "Jeder Wert gilt für den Platz, der gezogen hat", "+0,480"),
        ("it", "Ogni valore è per il posto che ha giocato", "+0,480"),
        ("fr", "Chaque valeur est pour la place qui a joué", "+0,480"),
        ("en", "Each value is for the seat that acted", "+0.480"),
    ],
)
def test_the_review_s_comments_speak_the_language_and_the_record_still_reads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str, about: str, value: str
) -> None:
    """The comments a person reads in the record the review writes (its values and
    what judged them) came in English with decimal points whatever the language: they
    are the catalogue's words and the language's digits now, and the record, headers
    and actions as in every language, reads back as it was written, in ``show`` too."""
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language(lang)
    bot = PerSeatBot()
    settings = Settings(level=1, limits=Limits(), top=2, threshold=0.03)
    game = Game(position=THREE)
    game.play("L3")  # the third legal action: not the best, so the best line comes too
    out = io.StringIO()
    reviews = iter_review(bot, zip(game.states, game.history, strict=False), threshold=0.03)
    write_record(out, "game", Record.from_game(game), game, reviews, bot, settings, 1)
    heading = catalogues._("the game with its marks and values:")
    text = out.getvalue().split(heading + "\n\n", 1)[1]
    record = parse_record(text)
    assert record.comment is not None and about in record.comment
    (note,) = record.notes
    assert note.comment == value
    (best,) = note.variations
    assert best.notes[0].comment == value.replace("480", "500")
    assert parse_record(format_record(record)) == record
    path = tmp_path / "reviewed.txt"
    path.write_text(text)
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "1. " in shown.output and "L3" in shown.output


def test_the_json_document_keeps_its_record_in_english(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The JSON document is for programs: its record's comments stay English, with a
    decimal point, whatever the terminal's language (as its other fields do)."""
    path = blunder_record(tmp_path)
    monkeypatch.setattr(catalogues, "_words", Words())
    catalogues.use_language("it")
    result = invoke(str(path), *FAST)
    assert result.exit_code == 0, result.output
    heading = catalogues._("the game with its marks and values:")
    record = parse_record(result.stdout.split(heading + "\n\n", 1)[1])
    assert record.comment is not None and "livello 5" in record.comment
    assert "Ogni valore è per il posto che ha giocato" in record.comment
    doc = as_json(invoke(str(path), *FAST, "--json"))
    comment = record_from_json(doc["record"]).comment
    assert comment is not None and "Each value is for the seat that acted" in comment

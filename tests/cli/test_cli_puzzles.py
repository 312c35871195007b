"""``shiftago puzzles generate`` and ``check`` (interfaces/puzzles.py): the same seed
writes the same file, every puzzle written is re-proven by ``check``, and ``check``
exits 1 naming a puzzle that does not hold."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from click.testing import CliRunner, Result

from shiftago.core import Action, Game, Rules, Variant
from shiftago.engine.puzzles.shipped import shipped
from shiftago.formats.record_model import Record, format_records
from shiftago.interfaces.cli import cli

ONE_WIN = "express 2 7/7/4o2/3o3/go5/1o5/o6 o insert 17,21 0,0 0,0"
TWO_WINS = "express 2 7/7/7/7/7/7/oooo3 o insert 18,22 0,0 0,0"
#: A puzzle line that holds: orange wins with L3.
GOOD = {
    "id": "good", "variant": "express", "players": 2, "position": ONE_WIN, "actions": 1,
    "solution": ["L3"], "themes": ["win-in-1"], "rating": 1000,
}  # fmt: skip


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_the_same_seed_writes_the_same_puzzles_and_check_proves_them(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    for out in (first, second):
        result = invoke("puzzles", "generate", "--self-play", "3", "--seed", "4", "--out", str(out))
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    checked = invoke("puzzles", "check", str(first))
    assert checked.exit_code == 0, checked.output
    assert "puzzles proven" in checked.output


def test_generate_stops_at_the_limit_and_keeps_to_the_most_actions(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    result = invoke(
        "puzzles", "generate", "--self-play", "20", "--max-actions", "1", "--limit", "2",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2
    assert {line["actions"] for line in lines} == {1}


def test_check_names_a_puzzle_that_does_not_hold(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    good = GOOD
    bad = {**good, "id": "two-solutions", "position": TWO_WINS, "solution": ["L1"]}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    result = invoke("puzzles", "check", str(path))
    assert result.exit_code == 1
    assert "two-solutions" in result.output
    assert "good:" not in result.output
    assert "1 of 2 puzzles proven" in result.output


def test_check_names_every_line_that_is_no_puzzle_and_checks_the_others(
    tmp_path: Path,
) -> None:
    """It stopped at the first line it could not read, and json's "line 2 column 1"
    counted inside that line (a referee's walk)."""
    path = tmp_path / "p.jsonl"
    good = GOOD
    unreadable = {**good, "id": "bad-position", "position": "express 2 7/7 o insert"}
    lines = [json.dumps(good), json.dumps(unreadable), '{"id": "cut"\n', "", "[1, 2]"]
    path.write_text("\n".join(lines) + "\n" + json.dumps({**good, "id": "last"}) + "\n")
    result = invoke("puzzles", "check", str(path))
    assert result.exit_code == 1
    said = [line for line in result.output.splitlines() if line != "puzzles"]  # the bar's
    assert said[0].startswith("line 2: puzzle 'bad-position': "), said
    assert said[1] == "line 3: not JSON at column 13: Expecting ',' delimiter", said
    assert said[2] == "line 6: a puzzle line is a JSON object", said
    assert said[3] == "2 of 5 puzzles proven", said


def test_check_says_its_words_in_the_terminal_s_language(tmp_path: Path) -> None:
    from shiftago.interfaces.cli.words import use

    path = tmp_path / "p.jsonl"
    good = {**GOOD, "actions": 2, "themes": ["win-in-2"]}  # a win in 1: it fails
    path.write_text(json.dumps(good) + "\n")
    use("de")
    try:
        result = invoke("puzzles", "check", str(path))
    finally:
        use("en")
    assert result.exit_code == 1
    assert "Zeile 1: Aufgabe good: " in result.output, result.output
    assert "0 von 1 Aufgabe bewiesen" in result.output, result.output


def test_generate_needs_games() -> None:
    result = invoke("puzzles", "generate")
    assert result.exit_code == 2
    assert "--self-play" in result.output


def test_generate_finds_the_puzzle_in_a_record(tmp_path: Path) -> None:
    # a game set up at ONE_WIN where orange plays R3 (missing the win), green then
    # plays Ta, and the puzzle is the position before orange's miss
    game = Game(Rules(Variant.EXPRESS, 2), position=ONE_WIN)
    for action in ("R3", "Ta"):
        game.play(Action.parse(action))
    records = tmp_path / "games.txt"
    records.write_text(format_records([Record.from_game(game)]))
    out = tmp_path / "p.jsonl"
    result = invoke("puzzles", "generate", "--from", str(records), "--out", str(out))
    assert result.exit_code == 0, result.output
    found = [json.loads(line) for line in out.read_text().splitlines()]
    first = next(p for p in found if p["position"] == ONE_WIN)
    assert first["solution"] == ["L3"]
    assert first["source"] == "games.txt game 1"


def test_retag_finds_the_defend_theme_and_changes_nothing_else(tmp_path: Path) -> None:
    defended = next(p for p in shipped() if "defend" in p.themes)
    quiet = next(p for p in shipped() if "defend" not in p.themes)
    lines = [json.loads(defended.to_json()), json.loads(quiet.to_json())]
    lines[0]["themes"] = [t for t in lines[0]["themes"] if t != "defend"]
    path = tmp_path / "old.jsonl.gz"
    text = "".join(json.dumps(line) + "\n" for line in lines)
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    result = invoke("puzzles", "retag", str(path), "--out", str(path))
    assert result.exit_code == 0, result.output
    assert "1 of 2 puzzles have other themes now" in result.output
    again = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]
    assert again[0] == json.loads(defended.to_json())
    assert again[1] == json.loads(quiet.to_json())
    assert invoke("puzzles", "check", str(path)).exit_code == 0


def test_retag_of_a_file_that_is_not_there_is_refused(tmp_path: Path) -> None:
    result = invoke("puzzles", "retag", str(tmp_path / "none.jsonl"), "--out", "x.jsonl")
    assert result.exit_code != 0
    assert not (tmp_path / "x.jsonl").exists()

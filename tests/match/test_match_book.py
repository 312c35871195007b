"""Opening books: reading a book, checking its lines, and matches played from one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from shiftago.core import Rules
from shiftago.formats.record import parse_record
from shiftago.interfaces import arena_report
from shiftago.interfaces.cli import cli
from shiftago.match import MatchConfig, run_match
from shiftago.match.book import book_opening, parse_book, read_book

FAST = ("greedy@depth=1", "level:2")
#: Orange pushes five marbles into rank 1 (a1-e1) while Green fills rank 7: a win.
FIVE_IN_RANK_ONE = "L1 L7 L1 L7 L1 L7 L1 L7 L1"


def test_a_book_is_read_line_by_line_in_any_accepted_spelling():
    book = parse_book("# my book\n\nl3, TC\n  R1 bd   # comment\n#L5\nTa\n", "mine.txt")
    assert [entry.actions for entry in book.lines] == [("L3", "Tc"), ("R1", "Bd"), ("Ta",)]
    assert [entry.line for entry in book.lines] == [3, 4, 6]
    assert len(book) == 3
    # The digest follows the actions, not their spelling.
    assert parse_book("L3 Tc").lines[0].digest == book.lines[0].digest
    assert parse_book("Tc L3").lines[0].digest != book.lines[0].digest


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("L3\nL3 Q9\n", "b.txt line 2: 'Q9' is not an action"),
        ("L3 xa1-z9", "b.txt line 1: 'z9' is not a cell"),
        ("# only a comment\n\n", "b.txt has no openings"),
        ("", "b.txt has no openings"),
    ],
)
def test_a_misspelt_book_is_refused_with_its_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_book(text, "b.txt")


def test_an_unreadable_book_names_the_file(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read the opening book .*missing\.txt"):
        read_book(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00L3")
    with pytest.raises(ValueError, match="cannot read the opening book"):
        read_book(binary)


def test_a_book_opening_is_played_from_the_empty_board():
    book = parse_book("L3 Tc\nR1\n")
    assert [str(a) for a in book_opening(book, Rules(), 0)] == ["L3", "Tc"]
    assert [str(a) for a in book_opening(book, Rules(players=3), 1)] == ["R1"]
    with pytest.raises(ValueError, match="has 2 openings, no opening 2"):
        book_opening(book, Rules(), 2)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("L3 xa1-a5", "line 2: action 2 \\(xa1-a5\\) is not legal here"),
        (FIVE_IN_RANK_ONE, "line 2: the opening ends the game"),
        (FIVE_IN_RANK_ONE + " R2", "line 2: the game is over before action 10 \\(R2\\)"),
    ],
)
def test_a_line_that_cannot_be_played_is_refused_with_its_line(line, message):
    book = parse_book(f"L3\n{line}\n", "b.txt")
    with pytest.raises(ValueError, match=message):
        book_opening(book, Rules(), 1)


def config(tmp_path: Path, book_text: str, **changes: object) -> MatchConfig:
    path = tmp_path / "book.txt"
    path.write_text(book_text)
    settings: dict[str, object] = {
        "participants": FAST,
        "games": 4,
        "book": read_book(path),
        "results": tmp_path / "m.jsonl",
        "date": "2026-01-02",
    }
    return MatchConfig(**{**settings, **changes})  # type: ignore[arg-type]


def test_a_match_plays_the_book_in_order_from_every_seat(tmp_path):
    result = run_match(config(tmp_path, "Ta Bg R4\nL1 L1\nR7\n"))
    assert result.openings == 2 and len(result.games) == 4
    assert "(2 openings from " in arena_report.summary(
        result
    ) and "book.txt" in arena_report.summary(result)
    assert result.to_json()["settings"]["opening_plies"] is None
    starts: dict[int, set[tuple[str, ...]]] = {}
    for game in result.games:
        record = parse_record((tmp_path / "m-records" / game.record_file).read_text())
        expected = ("Ta", "Bg", "R4") if game.opening == 0 else ("L1", "L1")
        starts.setdefault(game.opening, set()).add(tuple(map(str, record.actions[: len(expected)])))
        assert record.event is not None
        assert f"opening {game.opening} of book.txt line {game.opening + 1} " in record.event
    assert starts == {0: {("Ta", "Bg", "R4")}, 1: {("L1", "L1")}}
    assert {g.seats[0] for g in result.games if g.opening == 0} == set(FAST)


def test_a_results_file_tells_books_apart(tmp_path):
    first = run_match(config(tmp_path, "Ta\nTb\n"))
    assert first.played == 4
    assert run_match(config(tmp_path, "Ta\nTb\n")).resumed == 4
    # Another second line: the first opening's games are resumed, the second's played.
    other = run_match(config(tmp_path, "Ta\nTc\n"))
    assert (other.resumed, other.played) == (2, 2)
    # Random openings never take a book's games for their own.
    drawn = run_match(replace(config(tmp_path, "Ta\n", games=2), book=None))
    assert (drawn.resumed, drawn.played) == (0, 2)


def test_a_book_too_short_for_the_games_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"book\.txt has 1 opening; 4 games need 2"):
        config(tmp_path, "Ta\n")
    # Three participants in pairs: 3 groups of 2 seatings an opening.
    with pytest.raises(ValueError, match="has 1 opening; 7 games need 2"):
        config(tmp_path, "Ta\n", participants=(*FAST, "greedy"), games=7)


def test_a_line_illegal_under_the_match_rules_stops_it_before_any_game(tmp_path):
    with pytest.raises(ValueError, match="line 2: the opening ends the game"):
        run_match(config(tmp_path, f"Ta\n{FIVE_IN_RANK_ONE}\n"))
    assert not (tmp_path / "m.jsonl").exists()


def test_a_line_the_match_leaves_unplayed_is_checked_too(tmp_path):
    """The whole book is checked before any game, not only the openings played."""
    with pytest.raises(ValueError, match="line 3: action 1 \\(xa1-e1\\) is not legal here"):
        run_match(config(tmp_path, "Ta\nTb\nxa1-e1\n", games=2))
    assert not (tmp_path / "m.jsonl").exists()


def arena(*args: str):
    return CliRunner().invoke(cli, ["arena", *args], catch_exceptions=False)


def test_arena_takes_its_openings_from_a_file(tmp_path):
    book = tmp_path / "openings.txt"
    book.write_text("# two openings\nL4 R4\nTd\n")
    results = tmp_path / "r.jsonl"
    run = arena(*FAST, "--openings", str(book), "--games", "4", "--results", str(results))
    assert run.exit_code == 0, run.output
    assert run.stdout.startswith(f"Express, 2 players: 4 of 4 games (2 openings from {book}")
    assert len(results.read_text().splitlines()) == 4


def test_arena_refuses_a_bad_book(tmp_path):
    results = tmp_path / "r.jsonl"
    book = tmp_path / "openings.txt"
    book.write_text("L4 R4\nTd Bq\n")
    run = arena(*FAST, "--openings", str(book), "--results", str(results))
    assert run.exit_code == 2 and "openings.txt line 2: 'Bq' is not an action" in run.output
    book.write_text("L4 R4\n")
    run = arena(*FAST, "--openings", str(book), "--opening-plies", "3", "--results", str(results))
    assert run.exit_code == 2 and "--openings and --opening-plies do not go together" in run.output
    run = arena(*FAST, "--openings", str(book), "--games", "4", "--results", str(results))
    assert run.exit_code == 2 and "has 1 opening; 4 games need 2" in run.output
    run = arena(*FAST, "--openings", str(tmp_path / "none.txt"), "--results", str(results))
    assert run.exit_code == 2 and "cannot read the opening book" in run.output
    assert not results.exists()

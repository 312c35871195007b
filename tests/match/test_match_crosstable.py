"""The crosstable of three or more participants, the match's records file, ``--report``."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from shiftago.formats.record import parse_records
from shiftago.interfaces import arena_report
from shiftago.interfaces.arena_report import format_crosstable
from shiftago.interfaces.cli import cli
from shiftago.match import MatchConfig, run_match
from shiftago.match.crosstable import crosstable

#: Three fast, deterministic participants of different strength.
THREE = ("random", "greedy@depth=1", "level:2")


def match(tmp_path: Path, games: int, players: int = 2) -> MatchConfig:
    return MatchConfig(
        participants=THREE,
        players=players,
        games=games,
        results=tmp_path / "m.jsonl",
        date="2026-01-02",
    )


def test_the_crosstable_of_three_participants_adds_up(tmp_path):
    result = run_match(match(tmp_path, 12))  # 2 openings, 3 pairings, both seats
    table = result.crosstable
    rows = {r.key: r for r in result.standings.rows}
    assert table.names == THREE
    for i, j in itertools.permutations(range(3), 2):
        cell, mirror = table.cell(i, j), table.cell(j, i)
        between = [g for g in result.games if {THREE[i], THREE[j]} == set(g.seats)]
        assert cell.games == mirror.games == len(between) == 4
        assert (cell.wins, cell.draws, cell.losses) == (mirror.losses, mirror.draws, mirror.wins)
        assert cell.points + mirror.points == cell.games
        mine = sum(g.points[g.seats.index(THREE[i])] for g in between)
        assert cell.points == mine  # two players: the games' own points
    for i, key in enumerate(THREE):
        others = [table.cell(i, j) for j in range(3) if j != i]
        assert sum(c.games for c in others) == rows[key].games
        assert sum(c.wins for c in others) == rows[key].wins
        assert sum(c.points for c in others) == rows[key].points
    # the weakest is beaten by both others: an Elo below zero, its interval around it
    for j in (1, 2):
        elo = table.cell(0, j).elo
        assert elo is not None and elo.elo < 0 and elo.low <= elo.elo <= elo.high
        assert table.cell(j, 0).elo.elo == -elo.elo  # type: ignore[union-attr]
    text = arena_report.tables(result)
    assert format_crosstable(table) in text
    lines = text.splitlines()
    head = lines.index("crosstable, row against column: wins-draws-losses (points)")
    assert lines[head + 1].split() == [*THREE, "points"]
    random_row = lines[head + 2].split()
    assert random_row[0] == "random" and random_row[-1] == f"{rows['random'].points:g}/8"
    assert "Elo of row against column, ± half the 95% interval" in lines
    data = result.to_json()["crosstable"]
    assert data["participants"] == list(THREE)
    assert len(data["pairs"]) == 6
    for pair in data["pairs"]:
        cell = table.cell(THREE.index(pair["participant"]), THREE.index(pair["opponent"]))
        assert (pair["wins"], pair["draws"], pair["losses"], pair["points"]) == (
            cell.wins,
            cell.draws,
            cell.losses,
            cell.points,
        )


def test_three_players_compare_the_two_seats_of_each_game(tmp_path):
    result = run_match(match(tmp_path, 3, players=3))
    table = crosstable(result.participants, result.games)
    for i, j in itertools.permutations(range(3), 2):
        cell, mirror = table.cell(i, j), table.cell(j, i)
        assert cell.games == 3  # all three sit in every game
        assert (cell.wins, cell.draws) == (mirror.losses, mirror.draws)
        assert cell.points + mirror.points == 3
        more = sum(
            1
            for g in result.games
            if g.points[g.seats.index(THREE[i])] > g.points[g.seats.index(THREE[j])]
        )
        assert cell.wins == more


def test_one_records_file_holds_every_game_of_the_match(tmp_path):
    first = run_match(match(tmp_path, 6))
    games_file = tmp_path / "m-games.txt"
    assert first.config.games_path == games_file
    records = parse_records(games_file.read_text())
    assert len(records) == 6
    # a resumed match rewrites it with the earlier games too, in schedule order
    second = run_match(match(tmp_path, 12))
    assert (second.resumed, second.played) == (6, 6)
    records = parse_records(games_file.read_text())
    assert len(records) == len(second.games) == 12
    for record, game in zip(records, second.games, strict=True):
        assert record.result == game.result
        assert len(record.actions) == game.actions
        names = [p.name for p in second.participants]
        by_key = {p.key: p.name for p in second.participants}
        assert list(record.names) == [by_key[key] for key in game.seats]
        assert set(record.names) <= set(names)
        assert (tmp_path / "m-records" / str(game.record_file)).read_text().strip() in (
            games_file.read_text()
        )


def test_two_matches_of_one_results_file_each_rewrite_the_games_file(tmp_path):
    """A bot author ran a second match into the same results file: its games file then
    held the second match, and running the first again (every game resumed) left it so."""
    games_file = tmp_path / "m-games.txt"
    first = run_match(match(tmp_path, 3))
    other = run_match(replace(match(tmp_path, 3), participants=("random", "greedy")))
    assert [r.result for r in parse_records(games_file.read_text())] == [
        g.result for g in other.games
    ]
    again = run_match(match(tmp_path, 3))
    assert (again.resumed, again.played) == (len(first.games), 0)
    records = parse_records(games_file.read_text())
    assert len(records) == len(first.games) and {n for r in records for n in r.names} == {
        p.name for p in first.participants
    }


def test_report_prints_the_tables_of_a_partial_match_and_plays_nothing(tmp_path):
    results = tmp_path / "m.jsonl"
    arena = ["arena", *THREE, "--results", str(results), "-q"]
    assert CliRunner().invoke(cli, [*arena, "--games", "6"]).exit_code == 0
    before = results.read_text()
    run = CliRunner().invoke(cli, [*arena, "--games", "12", "--report"])
    assert run.exit_code == 0, run.output
    assert "6 of 12 games" in run.stdout and "0 played now" in run.stdout
    assert "crosstable, row against column" in run.stdout
    assert results.read_text() == before
    report = CliRunner().invoke(cli, [*arena, "--games", "12", "--report", "--json"])
    data = json.loads(report.stdout)
    assert sum(pair["games"] for pair in data["crosstable"]["pairs"]) == 2 * 6


def test_report_without_a_results_file_says_so_and_makes_none(tmp_path):
    """A mistyped --results would otherwise look like a match not yet begun."""
    missing = tmp_path / "typo.jsonl"
    run = CliRunner().invoke(cli, ["arena", *THREE, "--results", str(missing), "--report"])
    assert run.exit_code == 2
    assert f"--report reads a results file, and {missing} is none" in run.output
    assert not missing.exists()


def test_report_of_the_same_engines_in_another_order_says_why_it_finds_none(tmp_path):
    """A bot author listed the engines in another order and read "0 of 6 games" as lost
    results."""
    results = tmp_path / "m.jsonl"
    first = ["arena", *THREE, "--results", str(results), "-q", "--games", "6"]
    assert CliRunner().invoke(cli, first).exit_code == 0
    swapped = ["arena", *reversed(THREE), "--results", str(results), "--games", "6"]
    run = CliRunner().invoke(cli, [*swapped, "--report"])
    assert run.exit_code == 0, run.output
    assert "0 of 6 games" in run.stdout
    assert f"{results} holds 6 games, none of this match" in run.stderr
    assert "the participants in the order given" in run.stderr
    same = CliRunner().invoke(cli, [*first[:-3], "--games", "6", "--report"])
    assert "none of this match" not in same.stderr

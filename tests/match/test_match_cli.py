"""``shiftago arena``: the command line around run_match."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from shiftago.interfaces.cli import cli

FAST = ["greedy@depth=1", "level:2"]


def arena(*args: str):
    return CliRunner().invoke(cli, ["arena", *args], catch_exceptions=False)


def test_arena_prints_the_table_and_keeps_results(tmp_path):
    results = tmp_path / "out.jsonl"
    run = arena(*FAST, "--games", "4", "--results", str(results), "--seed", "3")
    assert run.exit_code == 0, run.output
    out = run.stdout
    assert out.startswith("Express, 2 players: 4 of 4 games (2 openings of 2 random actions")
    assert "rank  participant" in out
    # an interval, or none where one side took every point
    head_to_head = r"^greedy@depth=1 vs level:2: [+-]\S+ Elo \((95%: |every point to )"
    assert re.search(head_to_head, out, re.MULTILINE)
    assert len(results.read_text().splitlines()) == 4
    assert len(list((tmp_path / "out-records").iterdir())) == 4


def test_arena_json_and_resume(tmp_path):
    results = tmp_path / "m.jsonl"
    first = arena(*FAST, "--games", "2", "--results", str(results), "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert (data["played"], data["resumed"], data["games"]) == (2, 0, 2)
    assert [p["name"] for p in data["participants"]] == FAST
    assert data["elo"]["model"] in ("pentanomial", "trinomial")

    again = arena(*FAST, "--games", "4", "--results", str(results), "--json")
    data = json.loads(again.stdout)
    assert (data["played"], data["resumed"], data["games"]) == (2, 2, 4)
    assert "resuming: 2 of 4 games" in again.stderr
    assert sum(p["games"] for p in data["participants"]) == 8

    # -q keeps the one note that changes what the table means: nothing was played now
    # (an engine edited and run again with the same command played nothing, unsaid)
    quiet = arena(*FAST, "--games", "4", "--results", str(results), "--json", "-q")
    assert quiet.stderr == "resuming: 4 of 4 games are in " + str(results) + "\n"
    assert json.loads(quiet.stdout)["played"] == 0


def test_arena_options_reach_the_match(tmp_path):
    run = arena(
        "greedy",
        "level:2",
        "level:1",
        "--players",
        "3",
        "--variant",
        "expert",
        "--games",
        "3",
        "--depth",
        "1",
        "--opening-plies",
        "1",
        "--handicap",
        "1,0,0",
        "--limit",
        "500",
        "--no-records",
        "--results",
        str(tmp_path / "r.jsonl"),
        "--json",
    )
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    settings = data["settings"]
    assert settings["participants"] == ["greedy@depth=1", "level:2@depth=1", "level:1@depth=1"]
    assert (settings["variant"], settings["players"], settings["opening_plies"]) == ("expert", 3, 1)
    assert (settings["handicap"], settings["action_limit"]) == ([1, 0, 0], 500)
    assert settings["records"] is None and not (tmp_path / "r-records").exists()
    assert all(p["mu"] is not None for p in data["participants"])
    line = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert "limit=500 plies=1" in line["key"]


def test_arena_sprt_stops_and_prints_the_verdict(tmp_path):
    run = arena(
        "greedy",
        "greedy@depth=1",
        "--games",
        "60",
        "--sprt",
        "-100,100",
        "--results",
        str(tmp_path / "r.jsonl"),
    )
    assert run.exit_code == 0, run.output
    assert "stopped early by the SPRT" in run.stdout
    assert "SPRT elo0=-100 elo1=100 alpha=0.05 beta=0.05: LLR" in run.stdout
    assert "H1 accepted" in run.stdout


def test_arena_refuses_bad_input(tmp_path):
    results = str(tmp_path / "r.jsonl")
    run = arena("greedy", "nobody", "--results", results)
    assert run.exit_code == 2 and "unknown participant 'nobody'" in run.output
    run = arena("greedy", "level:2", "level:1", "--sprt", "0,10", "--results", results)
    assert run.exit_code == 2 and "SPRT compares two participants" in run.output
    run = arena("greedy", "level:2", "--sprt", "10,0", "--results", results)
    assert run.exit_code == 2 and "elo0 must be below elo1" in run.output
    run = arena("greedy", "level:2", "--clock", "3+2", "--movetime", "100", "--results", results)
    assert run.exit_code == 2 and "--clock and --movetime do not go together" in run.output
    run = arena("greedy", "level:2", "--clock", "3+2", "--timeout", "5", "--results", results)
    assert run.exit_code == 2 and "--clock and --timeout do not go together" in run.output
    run = arena("greedy@movetime=50", "level:2", "--clock", "1+0", "--results", results)
    assert run.exit_code == 2 and "greedy@movetime=50: a clock and a movetime" in run.output
    run = arena("greedy", "level:2", "--clock", "3 minutes", "--results", results)
    assert run.exit_code == 2 and "minutes+seconds, such as 3+2" in run.output
    run = arena("greedy", "level:2", "--clock", "2 days", "--results", results)
    assert run.exit_code == 2 and "a match clock is minutes+seconds" in run.output
    run = arena("greedy", "level:2", "--limit", "99999999999999999999", "--results", results)
    assert run.exit_code == 2 and "1<=x<=1000000000000000000" in run.output  # no traceback
    assert not Path(results).exists()


def test_arena_with_a_clock_prints_it_and_the_losses_on_time(tmp_path):
    results = tmp_path / "r.jsonl"
    run = arena(*FAST, "--games", "2", "--clock", "1+0", "--results", str(results))
    assert run.exit_code == 0, run.output
    summary, header = run.stdout.splitlines()[:2]
    assert summary.startswith("Express, 2 players, clock 1+0: 2 of 2 games")
    assert header.split()[5:] == ["losses", "lost", "on", "time", "score", "ms/move"]
    line = json.loads(results.read_text().splitlines()[0])
    assert line["key"].endswith(" clock=1+0")
    assert line["reason"] is not None and len(line["clock_left_s"]) == 2
    assert "clock 1+0" in (tmp_path / "r-records" / line["record_file"]).read_text()


def test_arena_through_a_real_process(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "shiftago", "arena", *FAST, "--games", "2", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["played"] == 2
    assert (tmp_path / "arena.jsonl").exists() and (tmp_path / "arena-records").is_dir()
    assert run.stderr == ""  # no progress bar when standard error is not a terminal


def test_the_start_up_limit_of_the_command_is_the_matchs():
    """The command line writes the default out (the match package is imported only when a
    match runs); it is the engine's own limit."""
    from shiftago.match.external import STARTUP_TIMEOUT

    arena_command = cli.commands["arena"]
    (option,) = [p for p in arena_command.params if p.name == "startup_timeout"]
    assert option.default == STARTUP_TIMEOUT

"""The OpenSpiel AlphaZero example runs as written, tiny: one training step of two
self-play games at 2 simulations a move, then two evaluation games per opponent."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the rl extra: pip install shiftago[rl]")
pytest.importorskip("flax", reason="the jax extra: pip install shiftago[jax]")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_alphazero.py"


def run_example(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *options],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=EXAMPLE.parents[1],
    )


def test_quick_run_writes_checkpoints_and_logs_and_prints_the_evaluation(
    tmp_path: Path,
) -> None:
    done = run_example("--quick", "--seed", "1", "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr[-3000:]
    run = tmp_path / "run"
    config = json.loads((run / "config.json").read_text())
    assert config["game"] == "python_shiftago(variant=express,players=2,observation=table)"
    assert config["observation_shape"] == [12, 7, 7] and config["output_size"] == 668
    assert (run / "checkpoint-0").is_dir() and (run / "checkpoint--1").is_dir()
    steps = [json.loads(line) for line in (run / "learner.jsonl").read_text().splitlines()]
    assert [step["step"] for step in steps] == [1]
    assert steps[0]["total_trajectories"] >= 1 and steps[0]["loss"]["policy"] > 0
    for opponent in ("random", "greedy"):
        line = re.search(
            rf"^evaluation: alphazero vs {opponent}: (\d+) wins, (\d+) draws, (\d+) losses "
            r"in 2 games, score (\d\.\d\d)$",
            done.stdout,
            re.MULTILINE,
        )
        assert line, done.stdout
        wins, draws, losses, score = line.groups()
        assert int(wins) + int(draws) + int(losses) == 2
        assert float(score) == (int(wins) + int(draws) / 2) / 2


def test_more_than_two_players_is_refused_before_anything_runs(tmp_path: Path) -> None:
    done = run_example("--players", "3", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert "2-player zero-sum games only" in done.stderr
    assert not (tmp_path / "run").exists()

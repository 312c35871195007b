"""The examples run as written: each is started as a script, the way a reader would."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="the examples extra: pip install shiftago[examples]")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def quick_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The quick run of seed 3 with its final matches, and the folder it wrote: both
    tests read it (a run is most of their time)."""
    out = tmp_path_factory.mktemp("selfplay") / "one"
    return run_example("--quick", "--seed", "3", "--out", str(out)), out


def test_selfplay_value_quick_run_prints_the_arena_tables(
    quick_run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, _ = quick_run
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # The baseline before training, then both matches after it, each with the arena's
    # table (a row per participant) and its head-to-head Elo line.
    for first, second in (("untrained", "greedy"), ("valuenet", "random"), ("valuenet", "greedy")):
        line = rf"^{first} vs {second}: [+-]\S+ Elo \((95%: |every point to )"
        assert re.search(line, out, re.MULTILINE), out
    assert out.count("rank  participant  games  wins  draws  losses") == 3
    rows = re.findall(r"^\s+[12]\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s", out, re.MULTILINE)
    assert len(rows) == 6
    for _name, games, wins, draws, losses in rows:
        assert int(games) == int(wins) + int(draws) + int(losses) == 4
    assert re.search(r"trained on \d+ self-play games", out)
    assert "prove nothing" in out


def run_example(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "selfplay_value.py"), *options],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=EXAMPLES.parent,
    )


def test_selfplay_value_gives_the_same_learning_curve_twice(
    quick_run: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    # the second run skips the final matches, which come after the curve
    first, one = quick_run
    second = run_example(
        "--quick", "--seed", "3", "--out", str(tmp_path / "two"), "--arena-games", "0"
    )
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    curve = (one / "curve.csv").read_bytes()
    assert curve == (tmp_path / "two" / "curve.csv").read_bytes()
    lines = curve.decode().splitlines()
    assert lines[0] == "games,positions,td_error,drawn,score_vs_greedy"
    rows = [line.split(",") for line in lines[1:]]
    assert rows[0][0] == "0" and int(rows[-1][0]) >= 96  # from the start to the budget
    assert len(rows) == 3  # at 0 games, after 48 and at the end
    assert all(0 <= float(row[4]) <= 1 for row in rows)
    assert int(rows[1][1]) > 0 and float(rows[1][2]) > 0  # positions learnt, TD error
    assert "After training" not in second.stdout
    other = run_example(
        "--quick", "--seed", "4", "--out", str(tmp_path / "four"), "--arena-games", "0"
    )
    assert other.returncode == 0, other.stderr
    assert (tmp_path / "four" / "curve.csv").read_bytes() != curve  # the seed counts

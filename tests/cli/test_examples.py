"""The examples run as written: each is started as a script, the way a reader would."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="the examples extra: pip install shiftago[examples]")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_selfplay_value_quick_run_prints_the_arena_tables() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "selfplay_value.py"), "--quick", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=EXAMPLES.parent,
    )
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

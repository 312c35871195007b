"""The web page's pure script modules (``server/web/static``), tested by Node's own test
runner: ``tests/server/web/*.test.mjs`` import the modules as the browser does."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent / "web"


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.test.mjs")))
def test_the_script_tests_pass(script: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run(
        [node, "--test", str(SCRIPTS / script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr

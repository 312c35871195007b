"""The package without its ``web`` extra: the library, the engine and the arena run,
and the web app's commands say how to install what they need.

The test environment has every extra installed, so each run here starts a Python whose
imports of the web extra's modules fail, as they do where the extra is not installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from shiftago.interfaces.cli.extras import WEB_MODULES

ROOT = Path(__file__).resolve().parents[2]

#: Runs ``shiftago ARGS...`` (argv[2:]) with the modules named in argv[1] unimportable.
WITHOUT = r"""
import sys
blocked = set(sys.argv[1].split(","))

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
sys.argv = ["shiftago", *sys.argv[2:]]
from shiftago.interfaces.cli import main
main()
"""


def shiftago_without_web(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    blocked = ",".join([*WEB_MODULES.values(), "starlette"])
    env = {**os.environ, "LANGUAGE": "en", "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, blocked, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def test_the_web_extra_s_modules_are_the_extra_of_pyproject():
    """The list the commands check is the extra pip installs: a package added to one
    and not the other would make the check pass where the server then fails."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[\[<>=~!; ]", spec, maxsplit=1)[0].lower() for spec in extras["web"]}
    assert names == set(WEB_MODULES)


@pytest.mark.parametrize(
    "command",
    [
        ["serve"],
        ["worker", "--redis", "redis://127.0.0.1:1"],
        ["admin", "chat", "abc"],
        ["loadtest", "http://127.0.0.1:1"],
    ],
)
def test_the_web_app_s_commands_say_how_to_install_it(command):
    ran = shiftago_without_web(*command)
    assert ran.returncode == 1, ran.stderr
    assert "the web app needs packages that are not installed (fastapi," in ran.stderr
    assert "pip install 'shiftago[web]'" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_the_engine_and_the_arena_run_without_it(tmp_path):
    engine = shiftago_without_web("engine", stdin="protocol_version\nnewgame express 2\nquit\n")
    assert engine.returncode == 0, engine.stderr
    assert engine.stdout.startswith("= 1\n\n=\n\n")
    arena = shiftago_without_web(
        "arena", "greedy@depth=1", "random", "--games", "2", "-q", cwd=tmp_path
    )
    assert arena.returncode == 0, arena.stderr
    assert "greedy@depth=1" in arena.stdout and (tmp_path / "arena.jsonl").is_file()

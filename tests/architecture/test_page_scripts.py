"""The pages' scripts keep the package's shape: no module over the lines a Python module
may have (test_imports.py), so that each stays one concept a reader can hold."""

from __future__ import annotations

from pathlib import Path

from test_imports import MAX_LINES

#: The pages' scripts.
STATIC = Path(__file__).resolve().parents[2] / "src" / "shiftago" / "interfaces" / "server"
STATIC = STATIC / "web" / "static"


def test_no_page_script_is_over_the_limit() -> None:
    scripts = sorted(STATIC.rglob("*.js"))
    assert len(scripts) > 40
    too_long = {
        str(path.relative_to(STATIC)): lines
        for path in scripts
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}

"""The pages' scripts keep the package's shape: no module over the lines a Python module
may have (test_imports.py), so that each stays one concept a reader can hold, and no
import that the script no longer uses (ruff's F401 for the Python modules)."""

from __future__ import annotations

import re
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


#: One ``import { a, b as c } from "./x.js";`` statement; group 1 holds the names.
IMPORT = re.compile(r'import\s*\{([^}]*)\}\s*from\s*"[^"]+";')


def unused_imports(source: str) -> list[str]:
    """The names a script imports by name and uses nowhere else in it."""
    unused = []
    for statement in IMPORT.finditer(source):
        rest = source[: statement.start()] + source[statement.end() :]
        for imported in statement.group(1).split(","):
            local = imported.split(" as ")[-1].strip()
            # A use is the name alone: not part of a longer name, nor a property
            # (``x.name``), though a spread (``...name``) is a use.
            alone = rf"(?<![\w$])(?<!(?<!\.\.)\.){re.escape(local)}(?![\w$])"
            if local and not re.search(alone, rest):
                unused.append(local)
    return unused


def test_unused_imports_are_found() -> None:
    source = 'import { a, b as c, d } from "./x.js";\nc(d.a);\nf(...d, x.b);\n'
    assert unused_imports(source) == ["a"]


def test_no_page_script_imports_what_it_does_not_use() -> None:
    unused = {
        str(path.relative_to(STATIC)): names
        for path in sorted(STATIC.rglob("*.js"))
        if (names := unused_imports(path.read_text(encoding="utf-8")))
    }
    assert unused == {}

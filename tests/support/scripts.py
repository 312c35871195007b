"""The repository's scripts (``scripts/NAME.py``, not a package) as modules, so that a
test runs the very code a developer runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def script_module(name: str) -> ModuleType:
    """``scripts/NAME.py`` loaded as a module named ``NAME_script``."""
    spec = importlib.util.spec_from_file_location(f"{name}_script", ROOT / f"scripts/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

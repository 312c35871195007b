"""Numba's cache of the compiled code goes stale with any of the sources it was compiled
from, not only the function's own file (:mod:`shiftago.engine.compiled_cache`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from numba import njit
from numba.core import caching

from shiftago.engine import compiled_cache
from shiftago.engine.compiled_cache import (
    COMPILED_SOURCES,
    LOCATORS,
    PACKAGE_ROOT,
    compiled_here,
    sources_digest,
)
from shiftago.engine.search import negamax
from shiftago.env import spaces


def _copy_of_sources(tmp_path: Path) -> Path:
    root = tmp_path / "shiftago"
    for package in COMPILED_SOURCES:
        shutil.copytree(
            PACKAGE_ROOT / package,
            root / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    (root / "interfaces").mkdir()
    (root / "interfaces" / "server.py").write_text("PORT = 8000\n")
    return root


def test_the_digest_changes_with_any_compiled_source_and_only_with_those(
    tmp_path: Path,
) -> None:
    root = _copy_of_sources(tmp_path)
    before = sources_digest(root)
    assert sources_digest(root) == before
    (root / "interfaces" / "server.py").write_text("PORT = 8001\n")
    assert sources_digest(root) == before
    tables = root / "engine" / "kernel" / "tables.py"
    tables.write_text(tables.read_text() + "\n# changed\n")
    changed = sources_digest(root)
    assert changed != before
    rules = root / "core" / "rules.py"
    rules.write_text(rules.read_text().replace("10", "11", 1))
    assert sources_digest(root) not in (before, changed)


def test_the_digest_is_of_the_installed_sources() -> None:
    assert sources_digest() == sources_digest(PACKAGE_ROOT, COMPILED_SOURCES)
    assert len(sources_digest()) == 64


def test_the_compiled_packages_are_told_from_the_rest() -> None:
    assert compiled_here(negamax.__file__)
    assert compiled_here(spaces.__file__)
    assert compiled_here(str(PACKAGE_ROOT / "core" / "rules.py"))
    assert not compiled_here(str(PACKAGE_ROOT / "interfaces" / "cli" / "__init__.py"))
    assert not compiled_here(__file__)


def _locator(dispatcher: object) -> object:
    return dispatcher._cache._impl._locator  # type: ignore[attr-defined]


def test_a_search_function_is_stamped_with_all_the_sources() -> None:
    locator = _locator(negamax.negamax)
    assert type(locator) in LOCATORS
    own, whole = locator.get_source_stamp()  # type: ignore[attr-defined]
    assert whole == sources_digest()
    numbas = compiled_cache._numba_class("InTreeCacheLocator")
    py_func = negamax.negamax.py_func
    assert own == numbas(py_func, negamax.__file__).get_source_stamp()


def test_functions_of_other_code_keep_numbas_own_locators() -> None:
    @njit(cache=True)
    def twice(x: int) -> int:
        return 2 * x

    assert type(_locator(twice)) not in LOCATORS
    assert isinstance(_locator(twice), caching._CacheLocator)


def test_installing_again_changes_nothing() -> None:
    classes = list(compiled_cache._numba_class("CacheImpl")._locator_classes)
    assert classes[: len(LOCATORS)] == list(LOCATORS)
    compiled_cache.install()
    assert compiled_cache._numba_class("CacheImpl")._locator_classes == classes

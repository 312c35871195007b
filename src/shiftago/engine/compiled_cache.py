"""Numba's cache of the compiled kernel and searches, kept in step with all their sources.

Numba checks a cached function only against its own source file, yet the compiled code
holds the functions it calls and the constants it reads from other modules: after a
change to ``kernel/tables.py`` alone (an update of a checkout), the cached searches of
``search/negamax.py`` would still run with the old tables. Here the stamp that numba
compares is the digest of every source that compiled code can reach, so any change in
them makes every cached function compile again. Functions outside these packages keep
numba's own locators.

Importing this module runs :func:`install`; the ``__init__`` of each package with
compiled code (``engine.kernel``, ``engine.search``, ``engine.mcts``, ``env``) imports
it first, so that it runs before their ``@njit(cache=True)`` decorators.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from numba.core import caching

#: The package ``shiftago``.
PACKAGE_ROOT: Path = Path(__file__).resolve().parent.parent

#: The packages whose modules compiled code runs or reads (their constants are frozen
#: into it), relative to :data:`PACKAGE_ROOT`.
COMPILED_SOURCES: tuple[str, ...] = (
    "core",
    "engine/kernel",
    "engine/search",
    "engine/mcts",
    "env",
)


def sources_digest(root: Path = PACKAGE_ROOT, packages: tuple[str, ...] = COMPILED_SOURCES) -> str:
    """A digest of every ``.py`` file under ``packages`` of ``root``: their paths and
    contents, in a fixed order."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


@functools.cache
def _installed_digest() -> str:
    return sources_digest()


def compiled_here(source: str, root: Path = PACKAGE_ROOT) -> bool:
    """Whether the file ``source`` is one of the sources :data:`COMPILED_SOURCES` holds."""
    path = Path(source).resolve()
    return any(path.is_relative_to(root / package) for package in COMPILED_SOURCES)


class _WholeSourcesStamp:
    """A locator of this package's functions whose stamp also changes with any of
    their sources (mixed in before one of numba's source-file locators)."""

    def get_source_stamp(self) -> Any:
        return (super().get_source_stamp(), _installed_digest())  # type: ignore[misc]

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not compiled_here(py_file):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


def _numba_class(name: str) -> Any:
    """One of numba's caching classes (older releases name them with a leading ``_``)."""
    return getattr(caching, name, None) or getattr(caching, "_" + name)


class UserProvidedLocator(_WholeSourcesStamp, _numba_class("UserProvidedCacheLocator")):  # type: ignore[misc]
    """``NUMBA_CACHE_DIR`` when it is set."""


class InTreeLocator(_WholeSourcesStamp, _numba_class("InTreeCacheLocator")):  # type: ignore[misc]
    """``__pycache__`` beside the source, where it can be written."""


class UserWideLocator(_WholeSourcesStamp, _numba_class("UserWideCacheLocator")):  # type: ignore[misc]
    """The user's cache folder otherwise (an installation that cannot be written)."""


#: In numba's order of preference; each declines a function that is not this package's.
LOCATORS: tuple[type, ...] = (UserProvidedLocator, InTreeLocator, UserWideLocator)


def install() -> None:
    """Put :data:`LOCATORS` before numba's own (once; later calls change nothing)."""
    classes = _numba_class("CacheImpl")._locator_classes
    if classes[: len(LOCATORS)] != list(LOCATORS):
        classes[:0] = LOCATORS


install()

"""Suite-wide settings: the markers each test gets from what it uses, and on CI
(``CI=true``) a skipped test fails the run."""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

pytest_plugins = ["support.web_fixtures", "support.catalogue_fixtures"]

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")

TESTS = Path(__file__).resolve().parent
E2E = TESTS / "e2e"

#: What in a test's code (its own, its fixtures' and that of the test modules' functions
#: and classes it uses) gives it a marker: the names it uses (``sys.executable``: it runs a
#: Python program of the project, a server, a worker, the engine, in a process of its own),
#: the fixtures it asks for, and for PostgreSQL also a string (``"postgresql"`` given to
#: ``fresh_database``, ``"postgres_url"`` to ``request.getfixturevalue``).
REDIS_WORDS = frozenset({"redis_url", "redis_server", "RedisServer"})
POSTGRES_WORDS = frozenset({"postgres_url", "postgresql", "PostgresCluster"})
PROCESS_WORDS = frozenset({"executable"})


def _is_ours(thing: object) -> bool:
    """Whether ``thing`` is defined in a file of the tests (not pytest's, not the app's)."""
    module = sys.modules.get(getattr(thing, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    return path is not None and Path(path).resolve().is_relative_to(TESTS)


def _codes(thing: object) -> Iterator[types.CodeType]:
    """The code objects of a function, or of a class's methods."""
    if isinstance(thing, type):
        for member in vars(thing).values():
            yield from _codes(getattr(member, "__func__", getattr(member, "fget", member)))
    elif isinstance(thing, types.FunctionType):
        yield thing.__code__


def _words(thing: object, seen: set[int], strings: set[str]) -> set[str]:
    """The names that ``thing``'s code uses, followed into the functions and classes of
    the tests' own modules that it names; the strings it holds go to ``strings``."""
    found: set[str] = set()
    spaces = getattr(thing, "__globals__", None) or vars(sys.modules[thing.__module__])
    pending = list(_codes(thing))
    while pending:
        code = pending.pop()
        if id(code) in seen:
            continue
        seen.add(id(code))
        found.update(code.co_names)
        for constant in code.co_consts:
            if isinstance(constant, str):
                strings.add(constant)
            elif isinstance(constant, types.CodeType):
                pending.append(constant)
        for name in code.co_names:
            value = spaces.get(name)
            if isinstance(value, list | tuple) and sys.executable in value:
                found.add("executable")  # a command line such as [sys.executable, "-m", ...]
            elif isinstance(value, type | types.FunctionType) and _is_ours(value):
                found |= _words(value, seen, strings)
    return found


def _fixture_functions(item: pytest.Item) -> Iterable[object]:
    """The functions of the fixtures ``item`` uses (its own included, transitively)."""
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for definition in getattr(info, "name2fixturedefs", {}).get(name, ()):
            yield getattr(definition.func, "__wrapped__", definition.func)


def markers_for(item: pytest.Item) -> set[str]:
    """The markers ``item`` gets: ``e2e`` by its folder; ``postgres``, ``redis`` and
    ``multiprocess`` by the words its code and its fixtures' code use. A test run on each
    database gets ``postgres`` for its PostgreSQL case only."""
    path = Path(str(item.path)).resolve()
    marks = {"e2e"} if path.is_relative_to(E2E) else set()
    function = getattr(item, "function", None)
    if function is None or not path.is_relative_to(TESTS):
        return marks  # a doctest
    seen: set[int] = set()
    strings: set[str] = set()
    words = _words(function, seen, strings)
    for fixture in _fixture_functions(item):
        if _is_ours(fixture):
            words |= _words(fixture, seen, strings)
    words |= set(getattr(item, "fixturenames", ()))
    parameters = list(getattr(getattr(item, "callspec", None), "params", {}).values())
    on_postgres = (words | strings) & POSTGRES_WORDS
    if "postgresql" in parameters or ("sqlite" not in parameters and on_postgres):
        marks.add("postgres")
    if words & REDIS_WORDS:
        marks.add("redis")
    if words & PROCESS_WORDS:
        marks.add("multiprocess")
    return marks


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test before ``-m`` selects (this hook runs ahead of pytest's own)."""
    for item in items:
        for name in sorted(markers_for(item)):
            item.add_marker(name)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Where the collected tests brought the server in, its passwords are hashed cheaply
    in this process (:mod:`support.cheap_hashing`); a run of the core alone never loads
    the server."""
    if "shiftago.interfaces.server.accounts.accounts" in sys.modules:
        from support import cheap_hashing

        cheap_hashing.install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """CI must not pass with tests skipped: a missing browser or database is a failure.
    Under pytest-xdist the controller counts: every worker's reports reach its reporter."""
    if os.environ.get("CI") != "true" or hasattr(session.config, "workerinput"):
        return
    reporter: Any = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped:
        if reporter:
            reporter.write_line(f"CI=true: {skipped} skipped test(s) fail the run", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

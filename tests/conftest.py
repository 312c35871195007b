"""Suite-wide settings: on CI (``CI=true``) a skipped test fails the run."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

pytest_plugins = ["support.web_fixtures"]

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """CI must not pass with tests skipped: a missing browser or database is a failure."""
    if os.environ.get("CI") != "true":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped:
        if reporter:
            reporter.write_line(f"CI=true: {skipped} skipped test(s) fail the run", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

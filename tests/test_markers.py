"""The markers of tests/conftest.py: ``-m`` picks each test by what it needs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKERS = ("e2e", "postgres", "redis", "multiprocess")

#: Collects the paths given (in a fresh interpreter: this one's modules are taken) and
#: prints each test's id with the markers above that it carries, as JSON.
COLLECT = f"""
import json, sys, pytest
class Report:
    def pytest_collection_finish(self, session):
        marks = {{item.nodeid: sorted(m.name for m in item.iter_markers() if m.name in {MARKERS!r})
                 for item in session.items}}
        print("MARKS " + json.dumps(marks))
pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *sys.argv[1:]],
            plugins=[Report()])
"""


def markers_of(*paths: str) -> dict[str, list[str]]:
    """Each test id under ``paths`` with its markers."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, *paths],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("MARKS ")]
    assert lines, done.stdout + done.stderr
    found: dict[str, list[str]] = json.loads(lines[0].removeprefix("MARKS "))
    return found


def test_each_marker_picks_what_the_tests_use() -> None:
    marks = markers_of(
        "tests/e2e/test_web_fixtures.py",
        "tests/server/test_server_ws.py",
        "tests/server/test_server_jobs.py",
        "tests/stp/test_stp_session.py",
    )
    # by folder: a browser
    assert {test for test, names in marks.items() if "e2e" in names} == {
        test for test in marks if test.startswith("tests/e2e/")
    }
    # a test run on each database: its PostgreSQL case only
    ws = "tests/server/test_server_ws.py::test_hello_as_a_seat_and_as_a_spectator"
    assert marks[f"{ws}[postgresql]"] == ["postgres"] and marks[f"{ws}[sqlite]"] == []
    fixtures = "tests/e2e/test_web_fixtures.py::"
    assert "postgres" in marks[fixtures + "test_postgres_url_is_a_working_database"]
    assert "redis" in marks[fixtures + "test_redis_url_is_a_working_empty_redis"]
    # a server process (start_server), a program of the project run as a process
    jobs = "tests/server/test_server_jobs.py::test_healthz_shows_the_jobs_waiting_for_a_worker"
    assert marks[jobs] == ["multiprocess", "redis"]
    session = "tests/stp/test_stp_session.py::"
    assert "multiprocess" in marks[session + "test_serve_honours_stop_and_the_end_of_input"]
    assert not any("multiprocess" in names for test, names in marks.items() if "_ws" in test)
    # and none of them: the fast inner loop keeps most
    assert sum(not names for names in marks.values()) > len(marks) / 2

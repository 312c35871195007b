"""Pytest fixtures for the web app's tests: a PostgreSQL server, a live server, a browser.

Loaded as a plugin by ``tests/conftest.py``. What they need from the system (Debian's
``chromium``, ``postgresql`` and ``redis-server`` packages) is installed by
``scripts/test``; without it a test is skipped, and on CI (``CI=true``) it fails,
saying what is missing.

- ``postgres_url``: a throwaway PostgreSQL cluster for the session, as a SQLAlchemy URL
  (``postgresql+psycopg://postgres@127.0.0.1:PORT/shiftago``). ``SHIFTAGO_POSTGRES_URL``
  names an existing server instead.
- ``redis_url``: ``redis-server`` on a free port with a directory of its own and no
  persistence, for the session, emptied for each test.
- ``live_server``: ``shiftago serve`` in a subprocess on a free port with a fresh SQLite
  file (a copy of one migrated once per process, :mod:`support.migrated`); ``.url``,
  ``.db_url``, ``.restart(hard=False)``, ``.kill()``, ``.stop()``, ``.start()``, ``.log()``.
  ``start_server(db_url=None, args=(), env=None, bot_delay=None)`` starts more
  (``bot_delay``: seconds the computer waits before it acts).
- ``shared_server``: one ``shiftago serve`` for a module's tests (its limits per address
  raised), for a module whose ``live_server`` it is.
- ``browser``: Chromium (``SHIFTAGO_CHROMIUM`` or ``/usr/bin/chromium``, never a browser
  of Playwright's own) through Playwright's sync API, headless, for the session.
- ``new_context(**options)``: a browser context with reduced motion and short timeouts,
  closed after the test; ``page``: a page in one.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest

from support.migrated import seed_sqlite

ON_CI = os.environ.get("CI") == "true"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright waits this long (milliseconds) for an element or a navigation by default.
DEFAULT_TIMEOUT_MS = 10_000


def missing(what: str) -> NoReturn:
    """Skip the test for want of ``what``; on CI, fail it: nothing may be skipped there."""
    message = f"{what} (scripts/test installs it; see scripts/_system.sh)"
    if ON_CI:
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


#: Ports below Linux's ephemeral range (32768-60999), so that no outgoing connection
#: takes one: each test worker hands out ports from a block of its own.
PORT_BASE = 20000
PORTS_PER_WORKER = 1000
_next_port = itertools.count(random.randrange(PORTS_PER_WORKER))


def free_port() -> int:
    """A free local port. Under pytest-xdist, one of this worker's own block: a port found
    free here and bound a moment later by a server is never another worker's choice
    meanwhile."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    first = PORT_BASE + worker * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = first + next(_next_port) % PORTS_PER_WORKER
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {first}-{first + PORTS_PER_WORKER - 1}")


# ---------------------------------------------------------------- PostgreSQL


def postgres_bindir() -> Path | None:
    """The newest PostgreSQL server's ``bin`` folder (``SHIFTAGO_PG_BIN`` overrides)."""
    if os.environ.get("SHIFTAGO_PG_BIN"):
        return Path(os.environ["SHIFTAGO_PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresCluster:
    """A throwaway cluster in a temporary folder, on loopback, trusting local users.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres``
    user and its programs run through ``runuser``; as anyone else they run as that user.
    """

    def __init__(self, bindir: Path, database: str = "shiftago") -> None:
        self.bindir = bindir
        self.database = database
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="shiftago-pg-"))
        self.data = self.dir / "data"
        self.as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.database}"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(
            command, cwd=self.dir, capture_output=True, text=True, timeout=60, check=False
        )
        if done.returncode:
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
            )

    def start(self) -> None:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w",
            "start",
        )  # fmt: skip
        self._run(
            "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", self.database
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A SQLAlchemy URL of an empty PostgreSQL database, for the whole session."""
    if os.environ.get("SHIFTAGO_POSTGRES_URL"):
        yield os.environ["SHIFTAGO_POSTGRES_URL"]
        return
    bindir = postgres_bindir()
    if bindir is None or not (bindir / "pg_ctl").exists():
        missing("PostgreSQL server programs not found (Debian package postgresql)")
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
    except Exception as error:
        cluster.stop()
        pytest.fail(f"could not start a PostgreSQL cluster: {error}", pytrace=False)
    try:
        yield cluster.url
    finally:
        cluster.stop()


class RedisServer:
    """Debian's ``redis-server`` on a free local port, with a directory of its own and no
    persistence: the Redis of the tests that run several processes."""

    def __init__(self, program: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="shiftago-redis-"))
        self.port = free_port()
        self.process = self.spawn(program, self.port, self.dir)

    @staticmethod
    def spawn(program: str, port: int, directory: Path) -> subprocess.Popen[bytes]:
        """Start ``redis-server`` (again, after a stop: it comes back empty)."""
        return subprocess.Popen(
            [
                program,
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--dir", str(directory),
                "--save", "",
                "--appendonly", "no",
                "--daemonize", "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def wait(self, timeout: float = 20.0) -> None:
        import redis

        deadline = time.monotonic() + timeout
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        if self.process.poll() is None:
            self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A Redis server for the whole session (Debian package redis-server)."""
    program = shutil.which("redis-server")
    if program is None:
        missing("redis-server not found (Debian package redis-server)")
    server = RedisServer(program)
    try:
        server.wait()
    except Exception as error:
        server.stop()
        pytest.fail(f"could not start redis-server: {error}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied for this test."""
    import redis

    redis.Redis.from_url(redis_server.url).flushall()
    return redis_server.url


# ---------------------------------------------------------------- the live server


class LiveServer:
    """``shiftago serve`` in a subprocess, to be stopped, killed and started again."""

    def __init__(
        self,
        home: Path,
        db_url: str | None = None,
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
        bot_delay: float | None = None,
    ) -> None:
        self.home = home
        self.bot_delay = bot_delay
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_url = db_url or f"sqlite:///{home / 'shiftago.db'}"
        self.args = list(args)
        self.env = {**os.environ, "SHIFTAGO_HOME": str(home), **(env or {})}
        self.log_path = home / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        delay = [] if self.bot_delay is None else ["--bot-delay", str(self.bot_delay)]
        return [
            sys.executable, "-m", "shiftago", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db_url,
            *delay, *self.args,
        ]  # fmt: skip

    def log(self) -> str:
        """What the server printed so far (all its runs)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 30.0) -> None:
        assert self.process is None, "already running"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.command(), env=self.env, cwd=self.home, stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self.process = None
                raise RuntimeError(f"shiftago serve exited with {code}:\n{self.log()[-4000:]}")
            try:
                httpx.get(self.url + "/", timeout=1.0)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop(hard=True)
        raise RuntimeError(f"shiftago serve did not answer in {timeout}s:\n{self.log()[-4000:]}")

    def stop(self, hard: bool = False) -> None:
        """Stop the server: SIGTERM (SIGKILL after 10 s), or at once with ``hard``."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        if hard:
            process.kill()
        else:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def kill(self) -> None:
        """Kill the server (SIGKILL): nothing it had not stored yet survives."""
        self.stop(hard=True)

    def restart(self, hard: bool = False) -> None:
        """Stop (``hard``: kill) and start again on the same database and port."""
        self.stop(hard=hard)
        self.start()

    def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One request to the server's HTTP API."""
        return httpx.request(method, self.url + path, timeout=10.0, **kwargs)


StartServer = Callable[..., LiveServer]
#: The servers a test started, by the test's item: a failed test shows their logs.
STARTED_SERVERS = pytest.StashKey[list[LiveServer]]()
#: How much of each server's log a failed test shows (its end).
LOG_SHOWN = 6000


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed test that started servers reports the end of their logs: a failure on CI
    (a slow machine, a race) is then told by what the servers said at the time."""
    report = yield
    if report.failed:
        for number, server in enumerate(item.stash.get(STARTED_SERVERS, []), start=1):
            report.sections.append(
                (f"server {number} ({server.url}) log", server.log()[-LOG_SHOWN:])
            )
    return report


@pytest.fixture
def start_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StartServer]:
    """``start_server(db_url=None, args=(), env=None, bot_delay=None)``: a started
    :class:`LiveServer` (``bot_delay``: seconds the computer waits before it acts)."""
    servers: list[LiveServer] = []
    shown = request.node.stash.setdefault(STARTED_SERVERS, [])

    def start(
        db_url: str | None = None,
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
        bot_delay: float | None = None,
    ) -> LiveServer:
        server = LiveServer(tmp_path_factory.mktemp("server"), db_url, args, env, bot_delay)
        if db_url is None:
            seed_sqlite(server.db_url)  # its own new file: migrated once per process
        servers.append(server)
        shown.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def live_server(start_server: StartServer) -> LiveServer:
    """A fresh ``shiftago serve`` on SQLite for one test."""
    return start_server()


#: The shared server's limits per address, raised far above what a module's tests ask
#: for together: on a fast machine they make more games, imports and reviews a minute
#: than one address may. Each test of a limit starts a server of its own.
SHARED_SERVER_ARGS = tuple(
    word
    for option in (
        "--games-per-minute",
        "--imports-per-minute",
        "--analyses-per-minute",
        "--live-analyses-per-minute",
        "--puzzle-attempts-per-minute",
        "--logins-per-minute",
        "--reviews-per-address",
        "--computer-games-per-address",
        "--sockets-per-address",
    )
    for word in (option, "10000")
)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One ``shiftago serve`` on SQLite for a whole module (see ``shared_server``)."""
    server = LiveServer(tmp_path_factory.mktemp("server"), args=SHARED_SERVER_ARGS)
    seed_sqlite(server.db_url)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def shared_server(request: pytest.FixtureRequest, module_server: LiveServer) -> LiveServer:
    """The module's ``shiftago serve``, for tests that make games of their own and need
    neither an empty database nor a limit per address: a server per test is the larger
    part of an e2e test's time (docs/testing.md). A module opts in by making its
    ``live_server`` this one. Started again if a test left it stopped; a failed test
    shows the end of its log."""
    if module_server.process is None or module_server.process.poll() is not None:
        module_server.process = None
        module_server.start()
    request.node.stash.setdefault(STARTED_SERVERS, []).append(module_server)
    return module_server


# ---------------------------------------------------------------- the browser


def chromium_path() -> str | None:
    path = os.environ.get("SHIFTAGO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's), driven by Playwright, for one test module: while
    Playwright's sync API is open, its event loop runs in the main thread, where the
    tests of other modules that call ``asyncio.run`` could not start theirs."""
    path = chromium_path()
    if path is None:
        missing("Chromium not found (Debian package chromium, or set SHIFTAGO_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python not installed (pyproject's test extra)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


NewContext = Callable[..., Any]


@pytest.fixture
def new_context(browser: Any) -> Iterator[NewContext]:
    """``new_context(**options)``: a fresh browser context (its own storage, cookies)."""
    contexts: list[Any] = []

    def make(**options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        options.setdefault("viewport", {"width": 1280, "height": 800})
        context = browser.new_context(**options)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture
def page(new_context: NewContext) -> Any:
    """A page in a fresh browser context."""
    return new_context().new_page()

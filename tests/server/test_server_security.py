"""The app's door (security.py, docs/security.md): forwarded headers from trusted proxies
only, the Origin check, the security headers, and the SQLite file of its owner only."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from shiftago.interfaces.server import app as app_module
from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.db.store import open_engine
from shiftago.interfaces.server.door.redaction import RedactSecrets
from shiftago.interfaces.server.door.security import (
    CONTENT_SECURITY_POLICY,
    DOCS_POLICY,
    Proxies,
    Security,
    client_address,
    is_local_host,
    limit_key,
    origin_allowed,
    origin_of,
)
from shiftago.interfaces.server.settings import Settings
from support.server_support import client_for, create


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'security.db'}"


# ---------------------------------------------------------------- forwarded headers


async def _echo(request: Request) -> JSONResponse:
    """What a route sees of the request after the middleware."""
    forwarded = sorted(
        k for k in request.headers if k.startswith("x-forwarded") or k == "forwarded"
    )
    return JSONResponse(
        {
            "client": client_address(request),
            "scheme": request.url.scheme,
            "host": request.headers.get("host"),
            "forwarded": forwarded,
        }
    )


async def _echo_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_json(
        {"client": client_address(websocket.scope), "scheme": websocket.url.scheme}
    )
    await websocket.close()


def echo_client(peer: str, **settings: Any) -> TestClient:
    """A test client, seen as coming from ``peer``, of an app that echoes what it sees."""
    inner = Starlette(
        routes=[Route("/", _echo, methods=["GET", "POST"]), WebSocketRoute("/ws", _echo_socket)]
    )
    return TestClient(Security(inner, Settings(**settings)), client=(peer, 40000))


FORWARDED = {
    "X-Forwarded-For": "198.51.100.7, 10.1.2.3",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "games.example.net",
    "Forwarded": "for=192.0.2.1",
    "X-Forwarded-Prefix": "/evil",
}


def test_a_trusted_proxy_s_forwarded_headers_are_applied_then_removed():
    client = echo_client(
        "127.0.0.1",
        trusted_proxies=("127.0.0.1", "10.0.0.0/8"),
        allowed_hosts=("games.example.net",),
    )
    seen = client.get("/", headers=FORWARDED).json()
    # the rightmost address that no trusted proxy stands for is the client
    assert seen == {
        "client": "198.51.100.7",
        "scheme": "https",
        "host": "games.example.net",
        "forwarded": [],
    }


def test_anyone_else_s_forwarded_headers_are_removed_unread():
    client = echo_client("203.0.113.9")
    seen = client.get("/", headers=FORWARDED).json()
    assert seen == {
        "client": "203.0.113.9",
        "scheme": "http",
        "host": "testserver",
        "forwarded": [],
    }


def test_a_forged_address_left_of_the_proxy_s_is_not_believed():
    client = echo_client("127.0.0.1")
    seen = client.get("/", headers={"X-Forwarded-For": "127.0.0.1, 1.2.3.4"}).json()
    assert seen["client"] == "1.2.3.4"  # the client's own header said 127.0.0.1 before it
    everyone_trusted = client.get("/", headers={"X-Forwarded-For": "127.0.0.1"}).json()
    assert everyone_trusted["client"] == "127.0.0.1"


@pytest.mark.parametrize("host", ["evil.example/path", "a b", "x@y", "[::1", "a" * 261])
def test_a_forwarded_host_that_is_no_host_or_too_long_is_400(host):
    client = echo_client("127.0.0.1", allowed_hosts=("a" * 261,))
    answer = client.get("/", headers={"X-Forwarded-Host": host})
    assert answer.status_code == 400 and "X-Forwarded-Host" in answer.json()["message"]
    assert answer.headers["x-frame-options"] == "DENY"


def test_an_empty_forwarded_host_is_ignored():
    client = echo_client("127.0.0.1")
    assert client.get("/", headers={"X-Forwarded-Host": ""}).json()["host"] == "testserver"


def test_a_forwarded_host_is_checked_against_the_allowed_hosts():
    client = echo_client("127.0.0.1", public_url="https://shiftago.example.org")
    refused = client.get("/", headers={"X-Forwarded-Host": "evil.example"})
    assert refused.status_code == 421 and refused.headers["x-frame-options"] == "DENY"
    for host in ("shiftago.example.org", "shiftago.example.org:8443"):
        seen = client.get("/", headers={"X-Forwarded-Host": host}).json()
        assert seen["host"] == host


def test_a_websocket_s_forwarded_scheme_is_wss():
    with echo_client("::1").websocket_connect(
        "/ws", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}
    ) as ws:
        assert ws.receive_json() == {"client": "198.51.100.7", "scheme": "wss"}


@pytest.mark.parametrize(
    ("entries", "address", "trusted"),
    [
        (("127.0.0.1", "::1"), "127.0.0.1", True),
        (("127.0.0.1", "::1"), "::1", True),
        (("127.0.0.1",), "::ffff:127.0.0.1", True),
        (("10.0.0.0/8",), "10.200.3.4", True),
        (("10.0.0.0/8",), "11.0.0.1", False),
        (("fd00::/8",), "fd12::1", True),
        (("127.0.0.1",), "testclient", False),
        (("*",), "203.0.113.9", True),
        ((), "127.0.0.1", False),
    ],
)
def test_trusted_proxies_are_addresses_or_networks(entries, address, trusted):
    assert (address in Proxies(entries)) is trusted


def test_a_trusted_proxy_that_is_no_address_is_an_error_at_start(sqlite_url):
    with pytest.raises(ValueError, match=r"proxy\.example"):
        Proxies(["proxy.example"])
    with pytest.raises(ValueError, match="a trusted proxy is an address"):
        create_app(sqlite_url, trusted_proxies=("127.0.0.1", "proxy.example"))


# ---------------------------------------------------------------- the Origin check


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Shiftago.Example.org/", "https://shiftago.example.org"),
        ("https://shiftago.example.org:443/play", "https://shiftago.example.org"),
        ("http://shiftago.example.org:8080", "http://shiftago.example.org:8080"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("null", "null"),
    ],
)
def test_origins_are_compared_as_browsers_write_them(url, origin):
    assert origin_of(url) == origin


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("localhost", True),
        ("localhost:8000", True),
        ("127.0.0.1:8000", True),
        ("192.168.1.20", True),
        ("[::1]:8000", True),
        ("[::1]", True),
        ("shiftago.example.org", False),
        ("localhost.evil.example:8000", False),
        ("127.0.0.1.nip.io", False),
        ("", False),
    ],
)
def test_without_configured_hosts_only_loopback_or_ip_hosts_count(host, local):
    assert is_local_host(host) is local


@pytest.mark.parametrize(
    ("settings", "origin", "host", "allowed"),
    [
        ({}, None, "evil.example", True),  # a script, not a browser
        ({}, "http://localhost:8000", "localhost:8000", True),
        ({}, "http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ({}, "http://[::1]:8000", "[::1]:8000", True),
        ({}, "https://localhost:8000", "localhost:8000", True),
        ({}, "http://localhost:9999", "localhost:8000", False),
        ({}, "http://evil.example", "evil.example", False),  # DNS rebinding
        ({}, "null", "localhost:8000", False),
        ({"public_url": "https://shiftago.example.org"}, "https://shiftago.example.org", "x", True),
        ({"public_url": "https://shiftago.example.org"}, "http://shiftago.example.org", "x", False),
        (
            {"public_url": "https://shiftago.example.org"},
            "http://localhost:8000",
            "localhost:8000",
            False,
        ),
        ({"allowed_hosts": ("games.example.net",)}, "https://games.example.net", "x", True),
        (
            {"allowed_hosts": ("games.example.net:8443",)},
            "https://games.example.net:8443",
            "x",
            True,
        ),
        ({"allowed_hosts": ("games.example.net",)}, "https://evil.example", "evil.example", False),
        (
            {"public_url": "https://a.example", "allowed_hosts": ("b.example",)},
            "http://b.example",
            "x",
            True,
        ),
    ],
)
def test_origin_allowed(settings, origin, host, allowed):
    assert origin_allowed(origin, host, Settings(**settings)) is allowed


def test_a_foreign_page_s_request_that_changes_something_is_refused(sqlite_url):
    with client_for(sqlite_url) as client:
        evil = {"origin": "http://evil.example"}
        answer = client.post("/api/games", json={}, headers=evil)
        assert answer.status_code == 403
        assert "evil.example" in answer.json()["message"]
        assert answer.headers["x-frame-options"] == "DENY"
        assert client.get("/api/levels", headers=evil).status_code == 200  # reading is harmless
        # reached by a foreign name (DNS rebinding): not answered at all (below)
        rebound = {"origin": "http://evil.example", "host": "evil.example"}
        assert client.post("/api/games", json={}, headers=rebound).status_code == 421
        assert client.post("/api/games", json={}).status_code == 201  # a script: no Origin
        own = {"origin": "http://localhost:8000", "host": "localhost:8000"}
        assert client.post("/api/games", json={}, headers=own).status_code == 201


def test_a_configured_origin_is_the_only_one(sqlite_url):
    settings = {"public_url": "https://shiftago.example.org", "allowed_hosts": ("b.example",)}
    with client_for(sqlite_url, **settings) as client:
        for origin in ("https://shiftago.example.org", "https://b.example", "http://b.example"):
            assert client.post("/api/games", json={}, headers={"origin": origin}).status_code == 201
        for origin in ("http://testserver", "https://evil.example"):
            assert client.post("/api/games", json={}, headers={"origin": origin}).status_code == 403


@pytest.mark.parametrize("path", ["/ws/games/{id}", "/ws/analysis"])
def test_a_foreign_page_s_socket_is_closed_before_the_upgrade(sqlite_url, path):
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        url = path.format(id=game_id)
        for headers in (
            {"origin": "http://evil.example", "host": "evil.example"},  # DNS rebinding
            {"origin": "http://evil.example"},
        ):
            with (
                pytest.raises(WebSocketDisconnect) as closed,
                client.websocket_connect(url, headers=headers),
            ):
                pass
            assert closed.value.code == 1008
        with client.websocket_connect(
            url, headers={"origin": "http://127.0.0.1:8000", "host": "127.0.0.1:8000"}
        ) as ws:
            ws.send_json({"type": "ping"} if "analysis" in path else {"type": "hello"})
            assert ws.receive_json()["type"] in ("pong", "welcome")


# ---------------------------------------------------------------- headers


def test_every_answer_has_the_security_headers(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        answers = [
            client.get("/"),
            client.get(f"/play/{game_id}?seat=x"),
            client.get("/static/style.css"),
            client.get("/api/levels"),
            client.get("/no/such/page"),
            client.get("/api/games/nothere"),
            client.post("/api/games", json={"players": 9}),
            client.post("/api/games", content="[NaN]"),
        ]
        for answer in answers:
            assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, answer.url
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
        assert client.get("/docs").headers["content-security-policy"] == DOCS_POLICY


def test_the_policy_allows_the_pages_own_files_only():
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


# ---------------------------------------------------------------- serving


def test_run_leaves_forwarded_headers_to_the_app_and_redacts_its_logs(monkeypatch, sqlite_url):
    import uvicorn

    seen: dict[str, Any] = {}

    def served(server: uvicorn.Server, sockets: list[Any]) -> None:
        seen.update(config=server.config, sockets=sockets)

    monkeypatch.setattr(uvicorn.Server, "run", served)
    settings = Settings(trusted_proxies=("10.0.0.0/8",))
    app_module.run(port=0, db_url=sqlite_url, settings=settings)
    [listening] = seen["sockets"]  # bound before the banner: the address is served
    assert listening.getsockname()[0] == "127.0.0.1"
    listening.close()
    assert seen["config"].proxy_headers is False
    config = seen["config"].log_config
    assert config["filters"]["redact_secrets"]["()"] is RedactSecrets
    assert all("redact_secrets" in h["filters"] for h in config["handlers"].values())


# ---------------------------------------------------------------- the SQLite file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_sqlite_file_is_its_owner_s_only(tmp_path):
    path = tmp_path / "new.db"
    engine = open_engine(f"sqlite:///{path}")
    assert mode(path) == 0o600  # before SQLite writes anything
    with engine.begin() as connection:
        connection.exec_driver_sql("PRAGMA journal_mode=WAL")
        connection.exec_driver_sql("CREATE TABLE t (x)")
        connection.exec_driver_sql("INSERT INTO t VALUES (1)")
    assert (tmp_path / "new.db-wal").exists() and mode(tmp_path / "new.db-wal") == 0o600
    engine.dispose()


def test_an_existing_sqlite_file_is_made_its_owner_s_only(tmp_path):
    path = tmp_path / "old.db"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    open_engine(f"sqlite:///{path}").dispose()
    assert mode(path) == 0o600


def test_the_served_database_is_its_owner_s_only(sqlite_url, tmp_path):
    with client_for(sqlite_url) as client:
        create(client)
    assert mode(tmp_path / "security.db") == 0o600


def test_an_in_memory_database_is_left_alone():
    open_engine("sqlite://").dispose()
    open_engine("sqlite:///:memory:").dispose()


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2::17", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("testclient", "testclient"),
    ],
)
def test_an_ipv6_client_counts_by_its_64_network(address, key):
    assert limit_key(address) == key


# ---------------------------------------------------------------- hosts


def _assert_headers(answer: Any) -> None:
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, answer.url
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_a_foreign_host_is_421_with_the_headers(sqlite_url):
    with client_for(sqlite_url) as client:
        for path in ("/", "/api/levels", "/healthz"):
            answer = client.get(path, headers={"host": "evil.example"})
            assert answer.status_code == 421, path
            assert "--allowed-host" in answer.json()["message"]
            _assert_headers(answer)
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect("/ws/lobby", headers={"host": "evil.example"}),
        ):
            pass
        assert closed.value.code == 1008


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "testserver", "TestServer"],
)
def test_loopback_names_and_the_listening_address_are_answered(sqlite_url, host):
    with client_for(sqlite_url) as client:  # a test client listens at "testserver"
        assert client.get("/api/levels", headers={"host": host}).status_code == 200


def test_the_public_url_and_allowed_hosts_are_answered(sqlite_url):
    settings = {"public_url": "https://shiftago.example.org", "allowed_hosts": ("b.example:8443",)}
    with client_for(sqlite_url, **settings) as client:
        for host in ("shiftago.example.org", "b.example", "b.example:8443", "localhost"):
            assert client.get("/api/levels", headers={"host": host}).status_code == 200, host
        for host in ("evil.example", "shiftago.example.org.evil.example", "a" * 300):
            assert client.get("/api/levels", headers={"host": host}).status_code == 421, host


def test_the_name_the_server_listens_at_is_answered(sqlite_url, monkeypatch):
    with client_for(sqlite_url, listening_host="shiftago.lan") as client:
        assert client.get("/api/levels", headers={"host": "shiftago.lan:8000"}).status_code == 200
        assert client.get("/api/levels", headers={"host": "evil.example"}).status_code == 421
    with client_for(sqlite_url, listening_host="0.0.0.0") as client:
        assert client.get("/api/levels", headers={"host": "evil.example"}).status_code == 421
    told: list[Settings] = []
    monkeypatch.setattr(app_module, "check_services", lambda *a: None)
    monkeypatch.setattr(app_module, "listen", lambda host, port: None)

    def made(db: str, settings: Settings) -> Any:  # the app run() serves, its settings kept
        told.append(settings)
        return create_app(db, settings=settings)

    monkeypatch.setattr(app_module, "create_app", made)
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets: None)
    app_module.run(host="shiftago.lan", port=8000, db_url=sqlite_url, settings=Settings())
    assert told[0].listening_host == "shiftago.lan"


def test_metrics_answer_no_foreign_host_even_from_this_machine(sqlite_url):
    app = create_app(sqlite_url)
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        assert client.get("/metrics").status_code == 200
        assert client.get("/metrics", headers={"host": "evil.example"}).status_code == 421


def test_join_links_never_come_from_the_host_header(sqlite_url):
    with TestClient(create_app(sqlite_url), client=("127.0.0.1", 40000)) as client:
        for headers in ({"host": "localhost:8000"}, {"x-forwarded-host": "localhost:9"}):
            answer = client.post("/api/games", json={}, headers=headers).json()
            assert answer["seats"][0]["join_url"].startswith("http://testserver/play/")


def test_the_served_url_is_the_address_the_connection_reached():
    from shiftago.interfaces.server.door.hosts import served_url

    assert served_url({"scheme": "http", "server": ("192.0.2.7", 8000)}, None) == (
        "http://192.0.2.7:8000"
    )
    assert served_url({"server": ("x", 1)}, "https://a.example/") == "https://a.example"
    # this machine's loopback: named as the browser named it, if by a loopback name
    # (the links share the page's origin), else localhost as serve prints it
    for host, expected in [
        (b"127.0.0.1:8000", "http://127.0.0.1:8000"),
        (b"localhost:8000", "http://localhost:8000"),
        (b"[::1]:8000", "http://[::1]:8000"),
        (b"evil.example:8000", "http://localhost:8000"),
        (None, "http://localhost:8000"),
    ]:
        headers = [] if host is None else [(b"host", host)]
        scope = {"scheme": "http", "server": ("127.0.0.1", 8000), "headers": headers}
        assert served_url(scope, None) == expected, host
    assert served_url({"scheme": "https", "server": ("::1", 80)}, None) == "http://localhost"


# ---------------------------------------------------------------- an unhandled error


def test_an_unhandled_error_is_a_500_with_the_headers(sqlite_url):
    app = create_app(sqlite_url)

    @app.get("/api/fails")
    async def fails() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/fails")
        assert answer.status_code == 500
        assert "try again" in answer.json()["message"]
        _assert_headers(answer)

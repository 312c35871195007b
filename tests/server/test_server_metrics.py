"""``GET /metrics`` (metrics.py): the process's figures for Prometheus, by route template,
only to the addresses let in; requests refused at the door are counted too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from shiftago.interfaces.server import create_app
from support.server_support import connect, create


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'metrics.db'}"


@contextmanager
def client_at(db_url: str, peer: str, **options: Any) -> Iterator[TestClient]:
    """The app, its requests coming from ``peer``."""
    options.setdefault("bot_delay", 0)
    with TestClient(create_app(db_url, **options), client=(peer, 50000)) as client:
        yield client


def figures(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) to value."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def requests(found: dict[Any, float], route: str, method: str, status: str) -> float:
    key = (
        "shiftago_http_requests_total",
        (("method", method), ("route", route), ("status", status)),
    )
    return found.get(key, 0.0)


def test_requests_are_counted_by_route_template_and_status(sqlite_url):
    with client_at(sqlite_url, "127.0.0.1") as client:
        game_id, tokens = create(client)
        for _ in range(3):
            assert client.get(f"/api/games/{game_id}").status_code == 200
        assert client.get("/api/games/no-such-game").status_code == 404
        assert client.get("/no/such/page").status_code == 404
        refused = client.post(
            "/api/games", json={"variant": "express"}, headers={"Origin": "https://evil.example"}
        )
        assert refused.status_code == 403  # refused at the door: counted all the same
        found = figures(client)
    assert requests(found, "/api/games/{game_id}", "GET", "200") == 3
    assert requests(found, "/api/games/{game_id}", "GET", "404") == 1
    assert requests(found, "/api/games", "POST", "201") == 1
    assert requests(found, "/api/games", "POST", "403") == 1
    assert requests(found, "unmatched", "GET", "404") == 1
    # no label holds a game id (or a seat's secret): the templates only
    routes = {dict(labels).get("route") for _, labels in found}
    assert not any(game_id in str(route) for route in routes)
    assert not any(token and token in str(route) for token in tokens for route in routes)
    timed = ("shiftago_http_request_seconds_count", (("route", "/api/games/{game_id}"),))
    assert found[timed] == 4
    assert ("process_resident_memory_bytes", ()) in found


def test_games_sockets_and_actions_are_the_figures_of_the_moment(sqlite_url):
    with client_at(sqlite_url, "127.0.0.1") as client:
        game_id, tokens = create(client, first="o")
        with connect(client, game_id) as player:
            player.hello(tokens[0])
            assert player.act("L1", 0)["type"] == "action"
            found = figures(client)
            assert found[("shiftago_games_in_memory", ())] == 1
            assert found[("shiftago_game_connections", ())] == 1
            assert found[("shiftago_websockets_open", (("kind", "game"),))] == 1
            assert found[("shiftago_actions_stored_total", ())] == 1
        found = figures(client)
    assert found[("shiftago_websockets_open", (("kind", "game"),))] == 0
    assert found[("shiftago_websockets_total", (("kind", "game"),))] == 1


def test_only_the_addresses_let_in_get_the_figures(sqlite_url):
    with client_at(sqlite_url, "203.0.113.9") as client:
        assert client.get("/metrics").status_code == 404
    with client_at(sqlite_url, "10.1.2.3", metrics_from=("10.0.0.0/8",)) as client:
        assert client.get("/metrics").status_code == 200
    # through the proxy on this machine a request is its client's, not the proxy's
    with client_at(sqlite_url, "127.0.0.1") as client:
        answer = client.get("/metrics", headers={"X-Forwarded-For": "198.51.100.7"})
        assert answer.status_code == 404
        assert client.get("/metrics").status_code == 200


def test_the_jobs_per_kind_are_figures_without_redis(sqlite_url):
    """Issue 55: without Redis too, the jobs queued, running and the oldest's wait."""
    with client_at(sqlite_url, "127.0.0.1") as client:
        found = figures(client)
    for name in ("shiftago_jobs_queued", "shiftago_jobs_running", "shiftago_jobs_oldest_seconds"):
        for kind in ("move", "review"):
            assert found[(name, (("kind", kind),))] == 0.0

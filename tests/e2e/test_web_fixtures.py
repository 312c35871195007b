"""The web tests' own machinery: a real PostgreSQL server and a real Chromium."""

from __future__ import annotations

import psycopg


def test_postgres_url_is_a_working_database(postgres_url):
    assert postgres_url.startswith("postgresql+psycopg://postgres@127.0.0.1:")
    with psycopg.connect(postgres_url.replace("+psycopg", "")) as connection:
        connection.execute("CREATE TABLE probe (n integer)")
        connection.execute("INSERT INTO probe VALUES (42)")
        row = connection.execute("SELECT n, current_user FROM probe").fetchone()
    assert row == (42, "postgres")


def test_redis_url_is_a_working_empty_redis(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    assert client.dbsize() == 0
    client.set("shiftago:probe", "1")
    assert client.get("shiftago:probe") == b"1"


def test_browser_renders_and_clicks(page):
    page.set_content(
        "<button data-action='L3' onclick=\"document.querySelector('[data-testid=status]')"
        ".textContent = 'clicked ' + this.dataset.action\">L3</button>"
        "<p data-testid='status'>waiting</p>"
    )
    page.click("[data-action=L3]")
    assert page.text_content("[data-testid=status]") == "clicked L3"
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.screenshot()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_shared_server_a_test_stopped_is_started_again(module_server, request):
    module_server.stop()
    server = request.getfixturevalue("shared_server")
    assert server is module_server
    assert server.api("GET", "/").status_code == 200

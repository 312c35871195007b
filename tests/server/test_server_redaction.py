"""Seat secrets never reach the logs (redaction.py)."""

from __future__ import annotations

import io
import logging
import logging.config

import httpx
import pytest

from shiftago.interfaces.server.door.redaction import RedactSecrets, log_config, redact
from shiftago.interfaces.server.games.creating import new_token
from support.server_support import client_for
from support.web_fixtures import LiveServer

#: A seat secret of the form :func:`new_token` makes, fixed so that every test worker
#: collects the same cases.
TOKEN = "Zk3q9R_vX2mB7tLw-4YhPn8cJd5sGfA1"


def test_the_fixed_token_has_a_seat_secrets_form() -> None:
    assert len(TOKEN) == len(new_token())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"/play/AbCdEfGhIjKl?seat={TOKEN}", "/play/AbCdEfGhIjKl?seat=…"),
        (f"/play/AbCdEfGhIjKl?step=3&seat={TOKEN}&x=1", "/play/AbCdEfGhIjKl?step=3&seat=…&x=1"),
        (f"/anything?TOKEN={TOKEN}", "/anything?TOKEN=…"),
        # a name with letters percent-encoded, which the server reads as the same name
        ("/play/AbCdEfGhIjKl?%73eat=short", "/play/AbCdEfGhIjKl?%73eat=…"),
        ("/api/seeks/x?to%6Ben=short", "/api/seeks/x?to%6Ben=…"),
        ("/api/seeks/x?%54%4F%4B%45%4E=short", "/api/seeks/x?%54%4F%4B%45%4E=…"),
        (f"/play/{TOKEN}", "/play/…"),
        (f"/play/{TOKEN}/more?a=b", "/play/…/more?a=b"),
        ("/play/AbCdEfGhIjKl", "/play/AbCdEfGhIjKl"),  # a game's id is no secret
        ("/watch/AbCdEfGhIjKl?step=4", "/watch/AbCdEfGhIjKl?step=4"),
        ("/static/connection.js", "/static/connection.js"),
        (
            "/analysis?position=express%202%20o%20insert",
            "/analysis?position=express%202%20o%20insert",
        ),
    ],
)
def test_redact(text, expected):
    assert redact(text) == expected


def access_record(path: str) -> logging.LogRecord:
    """A record as uvicorn's access log makes it."""
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("203.0.113.9:5000", "GET", path, "1.1", 200),
        None,
    )


def test_the_access_record_keeps_its_shape():
    record = access_record(f"/play/AbCdEfGhIjKl?seat={TOKEN}")
    assert RedactSecrets().filter(record) is True
    assert record.args == ("203.0.113.9:5000", "GET", "/play/AbCdEfGhIjKl?seat=…", "1.1", 200)


def test_create_app_redacts_uvicorn_s_logs(tmp_path, caplog):
    with client_for(f"sqlite:///{tmp_path / 'r.db'}"):
        pass
    caplog.set_level(logging.INFO)
    for name in ("uvicorn.access", "uvicorn.error"):
        # another test's uvicorn may have left the logger at a higher level
        caplog.set_level(logging.INFO, logger=name)
        logger = logging.getLogger(name)
        logger.addHandler(caplog.handler)  # uvicorn's loggers need not propagate
        try:
            logger.handle(access_record(f"/play/AbCdEfGhIjKl?seat={TOKEN}"))
            logger.info(
                '%s - "WebSocket %s" [accepted]', "203.0.113.9:5000", f"/ws/x?token={TOKEN}"
            )
        finally:
            logger.removeHandler(caplog.handler)
    assert caplog.records
    assert TOKEN not in caplog.text
    assert "/play/AbCdEfGhIjKl?seat=…" in caplog.text and "/ws/x?token=…" in caplog.text
    access = next(r for r in caplog.records if r.name == "uvicorn.access")
    assert isinstance(access.args, tuple) and len(access.args) == 5 and access.args[4] == 200


def test_run_s_log_config_redacts_at_the_handlers_too():
    config = log_config()
    stream = io.StringIO()
    config["handlers"]["access"]["stream"] = stream
    # uvicorn's handlers on a logger of the test's own, which has no filter of its own
    name = "shiftago.test.redaction"
    config["loggers"] = {name: {"handlers": ["access"], "level": "INFO", "propagate": False}}
    logging.config.dictConfig(config)
    logger = logging.getLogger(name)
    try:
        logger.info('%s - "%s %s HTTP/%s" %d', "1.2.3.4:1", "GET", f"/p?seat={TOKEN}", "1.1", 200)
    finally:
        logger.handlers.clear()
    assert "/p?seat=…" in stream.getvalue() and TOKEN not in stream.getvalue()


def test_a_served_join_link_leaves_no_secret_in_the_log(live_server: LiveServer):
    created = live_server.api("POST", "/api/games", json={}).json()
    join_url = created["seats"][0]["join_url"]
    secret = join_url.split("seat=")[1]
    assert httpx.get(join_url, timeout=10).status_code == 200
    assert (
        httpx.get(f"{live_server.url}/play/{created['id']}?step=0&seat={secret}").status_code == 200
    )
    log = live_server.log()
    assert f"/play/{created['id']}?seat=…" in log, log[-2000:]
    assert secret not in log

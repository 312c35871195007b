"""Seat secrets kept out of the logs.

A seat's secret travels in its join link (``/play/{id}?seat=TOKEN``), which a browser
asks for like any page, so uvicorn's access log would print it. :class:`RedactSecrets`
replaces the value of every ``seat`` and ``token`` query parameter, and any path part
as long as a secret, with ``…`` in the records of the loggers it is put on (the other
ways secrets travel, the ``hello`` and ``takeback`` messages, are never logged).
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any, Final

#: The loggers whose records may hold a requested path: uvicorn's access log, and its
#: main log, which names each WebSocket's path.
LOGGERS: Final = ("uvicorn.access", "uvicorn.error")


def _name(word: str) -> str:
    """A pattern of a query parameter's name with any of its letters percent-encoded, as
    the server reads ``?%73eat=`` as ``?seat=``."""
    return "".join(f"(?:{c}|%{ord(c.lower()):02x}|%{ord(c.upper()):02x})" for c in word)


#: A secret's value in a query string.
SECRET_PARAMETER = re.compile(
    rf"([?&;](?:{_name('seat')}|{_name('token')})=)[^&;#\s\"']*", re.IGNORECASE
)
#: A path part as long as a secret (``secrets.token_urlsafe(24)``: 32 characters); game
#: ids are 12 characters, so nothing the app names in a path looks like one.
SECRET_PART = re.compile(r"(?<=/)[A-Za-z0-9_-]{32,}(?=[/?#;\s\"']|$)")
REDACTED: Final = "…"


def redact(text: str) -> str:
    """``text`` with every secret that a path or a query could carry replaced."""
    text = SECRET_PARAMETER.sub(rf"\g<1>{REDACTED}", text)
    return SECRET_PART.sub(REDACTED, text)


class RedactSecrets(logging.Filter):
    """A filter that changes the records it sees (never drops one): their message and
    each of their text arguments, redacted (uvicorn's access record keeps its shape:
    client, method, path, HTTP version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redacted(value) for key, value in record.args.items()}
        return True


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


def redact_logs() -> None:
    """Put :class:`RedactSecrets` on uvicorn's loggers (once, however many apps)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


#: The loggers of the app itself, which uvicorn's configuration leaves without a
#: handler: their lines (the migrations run, the downtime the clocks skipped, events sent
#: once Redis was back) go to standard error as a worker's do.
APP_LOGGERS: Final = ("shiftago",)


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, with the app's own loggers (:data:`APP_LOGGERS`)
    at INFO and :class:`RedactSecrets` on every handler, so that a record reaching them
    from any logger is redacted."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["app"] = {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
    config["handlers"]["app"] = {
        "formatter": "app",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
    }
    for name in APP_LOGGERS:
        # propagating too: a serve process's root logger has no handler, and a test's
        # capture (on the root) still hears the app after a command ran in its process
        config["loggers"][name] = {"handlers": ["app"], "level": "INFO", "propagate": True}
    config.setdefault("filters", {})["redact_secrets"] = {"()": RedactSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_secrets")
    return config

"""What ``shiftago serve``, ``worker`` and ``admin`` check before they start: that the
database and Redis answer, and that the address can be listened on, so that a wrong
setting ends with one line that says which, not a traceback or a banner for an address
that is not served."""

from __future__ import annotations

import fcntl
import os
import socket
from pathlib import Path
from typing import IO

from shiftago.interfaces.server.db.store import (
    DATABASE_AWAY,
    database_revisions,
    known_revisions,
    sqlite_file,
)
from shiftago.interfaces.server.runtime import shown_url
from shiftago.interfaces.shared.catalogues import _

#: How long a start waits for Redis to answer (seconds).
REDIS_WAIT_SECONDS = 5.0


class StartupError(Exception):
    """The process cannot start: the words say what to fix."""


def check_services(db_url: str, redis_url: str | None) -> None:
    """Raise :class:`StartupError` unless Redis when given, and the database, answer.
    Redis comes first: reaching a SQLite database makes its file, which a start refused
    for Redis should not leave behind."""
    if redis_url:
        import redis

        client = redis.Redis.from_url(redis_url, socket_connect_timeout=REDIS_WAIT_SECONDS)
        try:
            client.ping()
        except redis.RedisError as error:
            raise StartupError(
                _("cannot reach Redis %(url)s: %(error)s")
                % {"url": shown_url(redis_url), "error": error}
            ) from None
        finally:
            client.close()
    check_schema(_revisions(db_url))


def _revisions(db_url: str) -> list[str]:
    """The migrations the database is at; :class:`StartupError` when it cannot be reached."""
    try:
        return database_revisions(db_url)
    except DATABASE_AWAY as error:
        reason = str(getattr(error, "orig", error)).splitlines()[0]
        raise StartupError(
            _("cannot reach the database %(url)s: %(error)s")
            % {"url": shown_url(db_url), "error": reason}
        ) from None


def check_served_database(db_url: str) -> None:
    """Raise :class:`StartupError` unless ``db_url`` is a database the serve processes
    have made (for ``shiftago admin``, which works beside them and makes nothing): a
    SQLite file that is there, reachable, migrated, by no newer shiftago."""
    if db_url.startswith("sqlite") and not Path(sqlite_file(db_url) or "").is_file():
        raise StartupError(
            _("there is no database at %(url)s: give --db, the database of the serve processes")
            % {"url": shown_url(db_url)}
        )
    found = _revisions(db_url)
    if not found:
        raise StartupError(
            _(
                "the database %(url)s holds no site yet: `shiftago serve` makes its tables "
                "at its first start"
            )
            % {"url": shown_url(db_url)}
        )
    check_schema(found)


def hold_the_only_process(db_url: str, redis_url: str | None) -> IO[bytes] | None:
    """Without Redis, only one serve process may use a SQLite file: two would not tell
    each other of the games they change (docs/deploy.md). The first holds a lock beside
    the file for as long as it runs (the system lets it go when the process ends, killed
    or not); a second raises :class:`StartupError`. Returns the open lock (None where no
    lock is needed), to be kept."""
    database = sqlite_file(db_url)
    if redis_url or database is None:
        return None
    # private as the database beside it
    handle = os.fdopen(os.open(f"{database}.serve-lock", os.O_WRONLY | os.O_CREAT, 0o600), "wb")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StartupError(
            _(
                "another shiftago serve runs on %(url)s: without Redis one process only "
                "serves a database (several need --redis, docs/deploy.md)"
            )
            % {"url": shown_url(db_url)}
        ) from None
    return handle


def check_schema(found: list[str]) -> None:
    """Raise :class:`StartupError` when a newer shiftago migrated the database (``found``:
    the migrations it is at): this version does not know its schema, and cannot go back
    to its own (migrations only go forward)."""
    known = known_revisions()
    newer = [revision for revision in found if revision not in known]
    if newer:
        raise StartupError(
            _(
                "the database's schema is at revision %(found)s, which this shiftago does "
                "not know (it knows up to %(known)s): a newer version migrated it. Run that "
                "version, or restore the backup taken before the upgrade (docs/deploy.md, "
                '"Upgrading")'
            )
            % {"found": ", ".join(newer), "known": max(known)}
        )


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for the server to accept on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        raise StartupError(
            _("cannot serve on %(host)s:%(port)s: %(error)s")
            % {"host": host, "port": port, "error": error.strerror or error}
        ) from None
    listening.set_inheritable(True)
    return listening

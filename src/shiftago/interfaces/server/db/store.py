"""The database as a whole: opening it, migrating it, and what every feature's store
shares (the :class:`Database` its stores run on, the time helpers, :class:`Conflict`).

The SQL of each feature lives in that feature's ``store.py`` (``games/store.py``,
``seeks/store.py``, ``accounts/store.py``...), and nowhere else. Every store method is
synchronous and short; the app calls them from a worker thread (one for SQLite, which
takes one writer at a time, a few for PostgreSQL) so that the event loop never waits on
the disk. What comes out are plain values, not ORM objects, so nothing is loaded lazily
behind the app's back.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from dataclasses import fields
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, make_url, select, text
from sqlalchemy.exc import ArgumentError, InterfaceError, NoSuchModuleError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import sessionmaker

from shiftago.interfaces.server.db.schema import Base

log = logging.getLogger("shiftago.server")

MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock taken while migrating (any number; "shiftago" in ASCII).
MIGRATION_LOCK = 0x73686966746167


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive times; every time the app stores is UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def epoch(value: dt.datetime) -> float:
    return utc(value).timestamp()


def from_epoch(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_named(value_type: type, row_type: type[Base]) -> tuple[str, ...]:
    """The fields of the dataclass ``value_type`` that a same-named column of
    ``row_type`` keeps as they are: a store copies these both ways by name, so that such
    a field is declared in the value and the table only."""
    columns = row_type.__table__.c
    return tuple(f.name for f in fields(value_type) if f.name in columns)


def check_url(url: str) -> None:
    """Raise ValueError unless ``url`` is a database URL this shiftago can use: its form,
    a database SQLAlchemy knows, and its driver installed."""
    try:
        make_url(url).get_dialect().import_dbapi()
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise ValueError(str(error)) from None


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite ``url`` (None for another database, or one in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return parsed.database


def open_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, a patient lock wait, and a file
    that only its owner can read (it holds every seat's secret's hash and every game).

    A plain ``postgresql://`` (or ``postgres://``) URL uses psycopg 3, the driver the
    package depends on.
    """
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            url = "postgresql+psycopg://" + url.removeprefix(plain)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        database = engine.url.database
        if database and database != ":memory:" and not database.startswith("file:"):
            path = Path(database)
            if path.parent.is_dir():
                # mode 0600 from the start; SQLite gives its -wal and -journal files the same
                path.touch(mode=0o600)
                for suffix in ("", "-wal", "-shm", "-journal"):
                    side = Path(f"{database}{suffix}")
                    if side.exists():
                        side.chmod(0o600)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            # Write-ahead log, synced at checkpoints: a commit is in the log (the OS has
            # it) before it returns, so a killed process loses nothing; only a power cut
            # can lose the last commits (docs/deploy.md, "SQLite").
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migration_config() -> Config:
    """Alembic's configuration: the migrations of this package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (a no-op when it is there), and log
    the revisions it went from and to when it ran any."""
    config = migration_config()
    if engine.dialect.name == "sqlite":
        _migrate_sqlite(engine, config)
        return
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # processes starting at once on an empty database migrate one after another
            # (held to the end of this transaction)
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        _upgrade(connection, config)


def _upgrade(connection: Connection, config: Config) -> None:
    """Run the migrations on ``connection`` and say what they changed."""
    before = MigrationContext.configure(connection).get_current_revision()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
    after = MigrationContext.configure(connection).get_current_revision()
    if after != before:
        was = "a new database" if before is None else f"migration {before}"
        log.info("the database was brought from %s to migration %s", was, after)


def _migrate_sqlite(engine: Engine, config: Config) -> None:
    """Migrate with SQLite's foreign keys off, then check them before committing.

    SQLite alters most of a table by making it anew and dropping the old one (Alembic's
    batch mode); with foreign keys on, that drop deletes every row that refers to the
    table (``ON DELETE CASCADE``): a game's seats and actions. SQLite changes the
    setting only outside a transaction, so it is set before the migration's begins.
    """
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
        try:
            with connection.begin():
                _upgrade(connection, config)
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migration left rows that refer to none: {broken[:5]}")
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def database_revisions(url: str) -> list[str]:
    """The migrations the database at ``url`` is at, after asking it a plain question
    first; raises one of :data:`DATABASE_AWAY` when it cannot be reached."""
    engine = open_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            return list(MigrationContext.configure(connection).get_current_heads())
    finally:
        engine.dispose()


def known_revisions() -> set[str]:
    """The migrations this version of shiftago has."""
    scripts = ScriptDirectory.from_config(migration_config())
    return {script.revision for script in scripts.walk_revisions()}


#: What the database driver raises when the database cannot be reached (down, the
#: connection dropped, no connection free in time): nothing was stored, and the same
#: change may succeed later.
DATABASE_AWAY: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeout)
#: The words for a change refused because of it (HTTP 503, socket error ``unavailable``).
DATABASE_AWAY_WORDS = "the database cannot be reached now: nothing was stored; try again"


class Conflict(Exception):
    """A change made from a revision of the game that is no longer the stored one:
    another process (or a computer's answer) changed the game first. Nothing was stored."""


class Database:
    """The engine and its sessions, which every feature's store runs on."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as connection:
            connection.execute(select(1))

    def dispose(self) -> None:
        self.engine.dispose()

"""A new database for a test, made by copying one migrated once per process instead of
running every migration again (most of an app's start-up): a SQLite file, or a
PostgreSQL database made from a template."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path


@functools.cache
def migrated_sqlite() -> Path:
    """A SQLite file migrated to the newest schema, made once per test process: a copy
    of it stands for a new database, which the app would migrate the same way (fifteen
    migrations, most of an app's start-up on SQLite)."""
    from shiftago.interfaces.server.db.store import migrate, open_engine

    folder = Path(tempfile.mkdtemp(prefix="shiftago-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "migrated.db"
    engine = open_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # the last connection's close checkpoints the write-ahead log
    return path


def seed_sqlite(db_url: str) -> None:
    """When ``db_url`` names a SQLite file that does not exist yet, make it a copy of
    :func:`migrated_sqlite`. Its mode is left as a new file's: the app must make it its
    owner's only. Any other database, or a file that exists, is left as it is:
    migrations' own tests start from there."""
    from sqlalchemy.engine import make_url

    url = make_url(db_url)
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return
    path = Path(database)
    if database.startswith("file:") or path.exists() or not path.parent.is_dir():
        return
    shutil.copyfile(migrated_sqlite(), path)


@functools.cache
def migrated_postgres(server_url: str) -> str:
    """The name of a database on the PostgreSQL server of ``server_url``, migrated to
    the newest schema once per test process: the template of :func:`seed_postgres`."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from shiftago.interfaces.server.db.store import migrate, open_engine

    name = f"migrated_{os.getpid()}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    engine = open_engine(url)
    migrate(engine)
    engine.dispose()  # a template takes no connections
    return name


def seed_postgres(db_url: str) -> None:
    """When ``db_url`` names an empty PostgreSQL database (no table yet, nobody
    connected), make it anew as a copy of :func:`migrated_postgres`; a database with
    anything in it, or in use, is left as it is."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.pool import NullPool

    url = make_url(db_url)
    if url.get_backend_name() != "postgresql" or not url.database:
        return
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as connection:
        tables = connection.execute(
            text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        ).scalar_one()
    engine.dispose()
    if tables:
        return
    server = url.set(database="postgres").render_as_string(hide_password=False)
    template = migrated_postgres(server)
    admin = create_engine(server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{url.database}"'))
            connection.execute(text(f'CREATE DATABASE "{url.database}" TEMPLATE "{template}"'))
    except DBAPIError:
        pass  # in use after all: the app migrates it itself
    finally:
        admin.dispose()

"""A new SQLite database for a test, made by copying one migrated once per process
instead of running every migration again (most of an app's start-up on SQLite)."""

from __future__ import annotations

import atexit
import functools
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

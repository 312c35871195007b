"""Upgrades keep what is stored: a database at any earlier migration, with a row in every
table (each row referring to the others' rows), comes to the newest one with every row
and every reference in place. SQLite alters a table by making it anew and dropping the
old one, and with foreign keys on, that drop took every row that refers to it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from shiftago.interfaces.server.db.store import (
    known_revisions,
    migrate,
    migration_config,
    open_engine,
)
from support.server_support import fresh_database

#: Every migration but the newest, oldest first: where an installation may stand.
EARLIER = sorted(known_revisions())[:-1]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def a_value(column: sa.Column[Any], number: int) -> Any:
    """A value of ``column``'s type that fits it (``number`` keeps strings apart)."""
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return False
    if isinstance(kind, sa.Integer):
        return number
    if isinstance(kind, sa.Float | sa.Numeric):
        return 1.5
    if isinstance(kind, sa.DateTime):
        return dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    if isinstance(kind, sa.Date):
        return dt.date(2026, 12, 1)
    if isinstance(kind, sa.LargeBinary):
        return b"x"
    if isinstance(kind, sa.JSON):
        return {}
    length = getattr(kind, "length", None) or 40
    return f"v{number}"[:length]


def fill_every_table(connection: sa.Connection) -> dict[str, dict[str, Any]]:
    """One row in each table, parents first; each foreign key column (nullable ones too)
    refers to its parent's row. The references of each table's row, by table."""
    tables = sa.MetaData()
    tables.reflect(connection)
    references: dict[str, dict[str, Any]] = {}
    rows: dict[str, dict[str, Any]] = {}
    for number, table in enumerate(tables.sorted_tables, start=1):
        if table.name == "alembic_version":
            continue
        row: dict[str, Any] = {}
        references[table.name] = {}
        for column in table.columns:
            parents = [k for k in column.foreign_keys if k.column.table.name in rows]
            if parents:
                parent = parents[0].column
                row[column.name] = rows[parent.table.name][parent.name]
                references[table.name][column.name] = row[column.name]
            elif column.foreign_keys:
                continue  # a table's reference to itself, or a parent not filled: none
            elif not column.nullable or column.primary_key:
                row[column.name] = a_value(column, number)
        connection.execute(table.insert().values(**row))
        rows[table.name] = row
    return references


def stored_references(connection: sa.Connection, references: dict[str, dict[str, Any]]) -> Any:
    """What each table holds of the columns in ``references``: a list of rows each (a
    table without references: ``{"row": 1}`` for each row)."""
    stored = {}
    for name, columns in references.items():
        asked = [sa.column(c) for c in columns] or [sa.literal(1).label("row")]
        query = sa.select(*asked).select_from(sa.table(name))
        stored[name] = [dict(found._mapping) for found in connection.execute(query)]
    return stored


@pytest.mark.parametrize("start", EARLIER)
def test_an_upgrade_keeps_every_row_and_every_reference(db_url, start):
    engine = open_engine(db_url)
    config = migration_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, start)
        references = fill_every_table(connection)
    assert {"games", "seats", "actions"} <= references.keys()
    migrate(engine)
    with engine.connect() as connection:
        kept = stored_references(connection, references)
        on = (
            db_url.startswith("postgresql")
            or connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
        )
    engine.dispose()
    assert kept == {name: [columns or {"row": 1}] for name, columns in references.items()}
    assert on  # SQLite's foreign keys are on again for the connections the app goes on with


def test_serve_says_which_migrations_it_ran_and_its_own_lines(start_server, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = open_engine(db_url)
    config = migration_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, EARLIER[-1])
    engine.dispose()
    server = start_server(db_url=db_url)
    log = server.log()
    newest = max(known_revisions())
    # the app's lines, with the time and level an operator reads them by
    said = f"INFO shiftago.server the database was brought from migration {EARLIER[-1]} to"
    assert f"{said} migration {newest}" in log, log[-2000:]
    assert "INFO shiftago.server no heartbeat was stored" in log  # a first start stores none

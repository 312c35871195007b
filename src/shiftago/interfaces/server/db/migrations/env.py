"""Alembic's environment: migrate the connection the app hands over (or the URL given)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from shiftago.interfaces.server.db.schema import Base

target_metadata = Base.metadata


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


def run_offline() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; anything else (a doctest collector)
# only imports it, and then there is nothing to migrate.
if hasattr(context, "config"):
    if context.is_offline_mode():
        run_offline()
    else:
        run_migrations()

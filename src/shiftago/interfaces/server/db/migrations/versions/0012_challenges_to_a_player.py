"""Challenges to a named player: ``seeks.to_account_id``.

A seek addressed to one account is that account's to accept or decline; the lobby does
not list it, and it stays open while its creator is away (docs/web-protocol.md,
"Challenges to a player"). A seat's ``account_id`` (0004) already says which account
holds it.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _keeping_places(change: Callable[[], None]) -> None:
    """Run ``change`` of the ``seeks`` table; on SQLite, batch mode copies the table and
    drops the old one, whose places would go with it (ON DELETE CASCADE): they are kept
    aside and put back."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("CREATE TEMPORARY TABLE kept_places AS SELECT * FROM seek_places")
    change()
    if sqlite:
        op.execute("DELETE FROM seek_places")
        op.execute("INSERT INTO seek_places SELECT * FROM kept_places")
        op.execute("DROP TABLE kept_places")


def upgrade() -> None:
    def change() -> None:
        with op.batch_alter_table("seeks") as batch:
            batch.add_column(sa.Column("to_account_id", sa.Integer(), nullable=True))
            batch.create_foreign_key(
                "fk_seeks_to_account_id_accounts",
                "accounts",
                ["to_account_id"],
                ["id"],
                ondelete="CASCADE",
            )
            batch.create_index("ix_seeks_to_account_id", ["to_account_id"])

    _keeping_places(change)


def downgrade() -> None:
    def change() -> None:
        with op.batch_alter_table("seeks") as batch:
            batch.drop_index("ix_seeks_to_account_id")
            batch.drop_constraint("fk_seeks_to_account_id_accounts", type_="foreignkey")
            batch.drop_column("to_account_id")

    _keeping_places(change)

"""Names people can trust: ``accounts.name_key`` and ``chat.guest``.

An account's name key is its folded form (:func:`shiftago.interfaces.server.db.names.
name_key`: the UTS #39 confusables skeleton between two case foldings), indexed, so a
new name too like an existing one is refused by one query; the migration computes it
for the accounts made before it. A chat line said by a guest (no account) is marked,
so that a page can show a guest as a guest; the lines stored before it count as the
accounts' (the mark is new, nothing older can be told apart).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from shiftago.interfaces.server.db.names import name_key

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(80), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_key", sa.String()),
    )
    connection = op.get_bind()
    for account_id, name in connection.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_key=name_key(name))
        )
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_key", existing_type=sa.String(80), nullable=False)
        batch.create_index("ix_accounts_name_key", ["name_key"])
    with op.batch_alter_table("chat") as batch:
        batch.add_column(
            sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("guest")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_name_key")
        batch.drop_column("name_key")

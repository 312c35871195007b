"""Unique name keys: two sign-ups with lookalike names cannot both be stored.

Migration 0009 indexed ``accounts.name_key`` without making it unique (accounts made
before the check may share one), so two sign-ups that each passed the early look could
both be stored. Here the index becomes unique. Accounts that already share a key keep
their names: the oldest keeps the key, each later one gets the key marked with its id
(``anno#12``; ``#`` is in no name, so no new name folds to it), and a new name like
theirs is still refused as like the oldest.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: The key column's width (``String(80)``).
KEY_WIDTH = 80


def upgrade() -> None:
    accounts = sa.table(
        "accounts", sa.column("id", sa.Integer()), sa.column("name_key", sa.String())
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name_key).order_by(accounts.c.id)
    ).all()
    seen: set[str] = set()
    for account_id, key in rows:
        if key not in seen:
            seen.add(key)
            continue
        mark = f"#{account_id}"
        connection.execute(
            accounts.update()
            .where(accounts.c.id == account_id)
            .values(name_key=key[: KEY_WIDTH - len(mark)] + mark)
        )
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_name_key")
        batch.create_index("ix_accounts_name_key", ["name_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_name_key")
        batch.create_index("ix_accounts_name_key", ["name_key"])

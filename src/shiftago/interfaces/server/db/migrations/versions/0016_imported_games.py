"""Whether a game was made from an imported record.

An imported record's seats are never adopted into an account (docs/web-protocol.md,
"Games of an account"): the game was played elsewhere, and on a profile it would count
again. ``games.imported`` says so; games imported before it are known by the Event or
Date header they kept, and one imported without either is taken for a game made here.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("imported", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    games = sa.table(
        "games",
        sa.column("imported", sa.Boolean()),
        sa.column("event", sa.String(200)),
        sa.column("record_date", sa.String(10)),
    )
    op.execute(
        games.update()
        .where(sa.or_(games.c.event.is_not(None), games.c.record_date.is_not(None)))
        .values(imported=True)
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("imported")

"""Closed accounts: ``accounts.closed``, when a moderator closed the account.

A closed account cannot sign in and is not on the leaderboard; its games, ratings and
name stay (``shiftago admin close-account``, docs/deploy.md "Moderation").

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("closed", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("closed")

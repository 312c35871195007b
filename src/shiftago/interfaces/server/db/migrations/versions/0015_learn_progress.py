"""Lessons (issue 51): how many steps of each lesson an account has completed.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("lesson", sa.String(40), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_learn_progress_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "lesson", name="pk_learn_progress"),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")

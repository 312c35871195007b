"""Honest clocks: the ``heartbeat`` table, ``games.clock_paused`` and ``seats.opened``.

Serve processes touch the heartbeat every few seconds; a process that starts after all
were down shifts the running clocks by the pause, and records it in ``clock_paused``. A
seat's ``opened`` is when its person first came: clocks wait for every person
(docs/web-protocol.md, "Clocks").

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("beat", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_heartbeat")),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_paused", sa.Float(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("opened", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("opened")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_paused")
    op.drop_table("heartbeat")

"""What an imported record says of itself: its event and the date it was played.

``games.event`` and ``games.record_date`` (``YYYY-MM-DD``) keep an imported record's
``Event`` and ``Date`` headers, so that its record comes back as it was imported; a
game made here has neither (its record's date is the day it was made).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("event", sa.String(200), nullable=True))
        batch.add_column(sa.Column("record_date", sa.String(10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record_date")
        batch.drop_column("event")

"""Computer seats in a lobby challenge of 3 or 4 players.

``seeks.computers`` seats are the computer's, at ``seeks.computer_level``; people take
the other places, and the game is made when they are all taken (docs/web-protocol.md,
"The lobby"). Seeks stored before have none.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("computers", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("computer_level", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("computer_level")
        batch.drop_column("computers")

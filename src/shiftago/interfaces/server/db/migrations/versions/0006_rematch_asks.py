"""Rematches by consent: the seats that asked for a rematch of a finished game.

``games.rematch_asked`` holds one bit per seat (bit 0 for the first seat): the seats
whose holders asked for the next game. The next game is made once every seat a person
holds has asked (docs/web-protocol.md, "Client to server").

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch_asked", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_asked")

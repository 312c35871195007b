"""Serving at scale (issue 16): each game's revision and its owner.

``revision`` counts every stored change of a game (actions, take-backs, endings, seats);
a change is stored only if the revision is still the one it was made from, so that two
processes never both change the same version of a game. ``owner`` is the address that
created the game: the limits and the fair share of the computer's time are per owner.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.create_index("ix_games_owner", ["owner"])
    # a game stored before has had as many changes as it has actions, as far as anyone knows
    op.execute("UPDATE games SET revision = version")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_owner")
        batch.drop_column("owner")
        batch.drop_column("revision")

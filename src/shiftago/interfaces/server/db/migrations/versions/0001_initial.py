"""The first schema: games, seats and actions.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("handicap", sa.String(32), nullable=False),
        sa.Column("first", sa.Integer(), nullable=True),
        sa.Column("position", sa.Text(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("action_limit", sa.Integer(), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("result", sa.String(16), nullable=True),
        sa.Column("termination", sa.String(32), nullable=True),
        sa.Column("previous_id", sa.String(24), nullable=True),
        sa.Column("next_id", sa.String(24), nullable=True),
        sa.Column("tournament_target", sa.Integer(), nullable=True),
        sa.Column("tournament_wins", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_public", "games", ["public"])
    op.create_index("ix_games_updated", "games", ["updated"])
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seats"),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("notation", sa.String(16), nullable=False),
        sa.Column("played", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_actions_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "number", name="pk_actions"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_token_hash", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_games_finished", table_name="games")
    op.drop_index("ix_games_updated", table_name="games")
    op.drop_index("ix_games_public", table_name="games")
    op.drop_table("games")

"""Puzzles (issue 51): the proven puzzles, the accounts' puzzle ratings, rated rounds.

The shipped set of puzzles is loaded into ``puzzles`` by the app when a puzzle is
first asked for (``puzzles/store.py``), not here: a new version's set then reaches an
existing database too, and a database that serves no puzzles stays small.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("themes", sa.String(200), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_puzzles"),
    )
    op.create_index("ix_puzzles_rating", "puzzles", ["rating"])
    op.create_table(
        "puzzle_players",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("puzzles", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_puzzle_players_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", name="pk_puzzle_players"),
    )
    op.create_table(
        "puzzle_rounds",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(24), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_puzzle_rounds_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name="fk_puzzle_rounds_puzzle_id_puzzles",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "puzzle_id", name="pk_puzzle_rounds"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_rounds")
    op.drop_table("puzzle_players")
    op.drop_index("ix_puzzles_rating", table_name="puzzles")
    op.drop_table("puzzles")

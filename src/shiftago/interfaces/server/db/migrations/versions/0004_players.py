"""Online play (issue 17): clocks, accounts, sessions, ratings, seeks and chat.

A timed game keeps its time control, the seconds left per seat when the running clock
last started, and when the running seat's time runs out (the flag sweep's index); each
action keeps the clocks right after it. Seats may belong to accounts. A rated game
changes its accounts' ratings once (``rating_changes`` holds one row per account and
game). Seeks are the lobby's open challenges, filled place by place.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", _TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name", name="uq_accounts_name"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", _TIME, nullable=False),
        sa.Column("expires", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_sessions_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_ratings_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "category", name="pk_ratings"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_rating_changes_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_rating_changes_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rating_changes"),
        sa.UniqueConstraint("account_id", "game_id", name="uq_rating_changes_account_id"),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    op.create_index("ix_rating_changes_game_id", "rating_changes", ["game_id"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("clock_initial", sa.Float(), nullable=True),
        sa.Column("clock_increment", sa.Float(), nullable=True),
        sa.Column("clock_days", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating_min", sa.Integer(), nullable=True),
        sa.Column("rating_max", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("created", _TIME, nullable=False),
        sa.Column("seen", _TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
    )
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.create_index("ix_seeks_seen", "seeks", ["seen"])
    op.create_table(
        "seek_places",
        sa.Column("seek_id", sa.String(24), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["seek_id"], ["seeks.id"], name="fk_seek_places_seek_id_seeks", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_seek_places_account_id_accounts",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("seek_id", "place", name="pk_seek_places"),
    )
    op.create_index("ix_seek_places_token_hash", "seek_places", ["token_hash"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_chat_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat"),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("clock_initial", sa.Float(), nullable=True))
        batch.add_column(sa.Column("clock_increment", sa.Float(), nullable=True))
        batch.add_column(sa.Column("clock_days", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_remaining", sa.String(80), nullable=True))
        batch.add_column(sa.Column("clock_since", _TIME, nullable=True))
        batch.add_column(sa.Column("clock_running", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_deadline", _TIME, nullable=True))
        batch.add_column(sa.Column("draw_offer", sa.Integer(), nullable=True))
        batch.create_index("ix_games_clock_deadline", ["clock_deadline"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_seats_account_id_accounts", "accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("clock", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("clock")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account_id_accounts", type_="foreignkey")
        batch.drop_column("account_id")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_clock_deadline")
        for column in (
            "draw_offer",
            "clock_deadline",
            "clock_running",
            "clock_since",
            "clock_remaining",
            "clock_days",
            "clock_increment",
            "clock_initial",
            "rated",
        ):
            batch.drop_column(column)
    for table in ("chat", "seek_places", "seeks", "rating_changes", "ratings", "sessions"):
        op.drop_table(table)
    op.drop_table("accounts")

"""Online play, the gaps (issue 17): who is still at a seek's place, who ended a game,
and a declined draw offer.

``seek_places.seen`` is when the holder of a place was last there (a page that holds
it, or a script that asks about it): an acceptor's place nobody has seen for a while is
freed. ``games.ended_by`` is the seat that ended a game the rules did not end (it
resigned, aborted, ran out of time, was away). ``games.draw_declined`` and
``draw_declined_version`` are the seat whose draw offer was declined and the game's
version then: it offers again only after an action, whichever process it asks.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seek_places") as batch:
        batch.add_column(sa.Column("seen", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE seek_places SET seen = joined")  # a place stored before: seen then
    with op.batch_alter_table("seek_places") as batch:
        batch.alter_column("seen", existing_type=sa.DateTime(timezone=True), nullable=False)
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("draw_declined", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("draw_declined_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("ended_by", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for column in ("ended_by", "draw_declined_version", "draw_declined"):
            batch.drop_column(column)
    with op.batch_alter_table("seek_places") as batch:
        batch.drop_column("seen")

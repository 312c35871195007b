"""The site's language an account chose: ``accounts.language``.

A signed-in player's pages come in it where no ``?lang=`` or ``lang`` cookie says
otherwise (WEBAPI.md, "Languages"); None leaves it to the browser's ``Accept-Language``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")

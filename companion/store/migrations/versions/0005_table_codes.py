"""A code per club table (issue 17 section 3): each table of a drawn round has its own code,
and a device that joined with one may change that table's game only.

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
    with op.batch_alter_table("club_evening_tables") as batch:
        batch.add_column(sa.Column("code", sa.String(32), nullable=True))
        batch.create_unique_constraint("uq_club_evening_tables_code", ["code"])
    with op.batch_alter_table("table_devices") as batch:
        batch.add_column(sa.Column("game_id", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_devices") as batch:
        batch.drop_column("game_id")
    with op.batch_alter_table("club_evening_tables") as batch:
        batch.drop_constraint("uq_club_evening_tables_code", type_="unique")
        batch.drop_column("code")

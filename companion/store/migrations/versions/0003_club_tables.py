"""The shared table's state in the database: its codes, its devices and their rights, so
that several server processes of a club admit the same devices (docs/sharing.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("join_code", sa.String(32), nullable=False),
        sa.Column("host_code", sa.String(64), nullable=False),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("port", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_shared_tables"),
    )
    op.create_table(
        "table_devices",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("shared_tables.id", ondelete="CASCADE", name="fk_table_devices_table_id_shared_tables"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("browser", sa.String(40), nullable=False),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("connections", sa.Integer, nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_table_devices"),
        sa.UniqueConstraint("key", name="uq_table_devices_key"),
        sa.UniqueConstraint("table_id", "number", name="uq_table_devices_table_id_number"),
    )


def downgrade() -> None:
    op.drop_table("table_devices")
    op.drop_table("shared_tables")

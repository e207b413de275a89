"""Club evenings (issue 17): an evening, its players, its rounds' draws and its tables' games.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "club_evenings",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("season", sa.String(100), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("odd_players", sa.String(20), nullable=False),
        sa.Column("sit_out", sa.String(20), nullable=False),
        sa.Column("sit_out_fixed", sa.Integer, nullable=False),
        sa.Column("prizes", sa.JSON, nullable=False),
        sa.Column("fixed_pairs", sa.Boolean, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_club_evenings"),
    )
    op.create_table(
        "club_evening_players",
        sa.Column("evening_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("present", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("evening_id", "player_id", name="pk_club_evening_players"),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["club_evenings.id"], name="fk_club_evening_players_evening_id_club_evenings", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_club_evening_players_player_id_players"),
    )
    op.create_table(
        "club_evening_rounds",
        sa.Column("evening_id", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("draw", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("evening_id", "number", name="pk_club_evening_rounds"),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["club_evenings.id"], name="fk_club_evening_rounds_evening_id_club_evenings", ondelete="CASCADE"
        ),
    )
    op.create_table(
        "club_evening_tables",
        sa.Column("evening_id", sa.Integer, nullable=False),
        sa.Column("round_number", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("evening_id", "round_number", "table_number", name="pk_club_evening_tables"),
        sa.UniqueConstraint("game_id", name="uq_club_evening_tables_game_id"),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["club_evenings.id"], name="fk_club_evening_tables_evening_id_club_evenings", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_club_evening_tables_game_id_games"),
    )


def downgrade() -> None:
    op.drop_table("club_evening_tables")
    op.drop_table("club_evening_rounds")
    op.drop_table("club_evening_players")
    op.drop_table("club_evenings")

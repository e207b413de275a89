"""First schema: players, games, their seating and the raw rounds.

Revision ID: 0001
Revises:
Create Date: 2025-11-22
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
        "players",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name", name="uq_players_name"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("uuid", sa.String(36), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seating", sa.JSON, nullable=False),
        sa.Column("teams", sa.JSON, nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String, nullable=False),
        sa.Column("location", sa.String, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("uuid", name="uq_games_uuid"),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_game_players"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_players_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_game_players_player_id_players"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("edited_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_rounds"),
        sa.UniqueConstraint("game_id", "position", name="uq_rounds_game_id_position"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rounds_game_id_games", ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("rounds")
    op.drop_table("game_players")
    op.drop_table("games")
    op.drop_table("players")

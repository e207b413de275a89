"""Cached summaries and indexes for fast history lists and statistics.

The new columns start empty; the store fills them from the rules when it opens the
database (see Store._rebuild_missing_summaries), since a migration cannot replay games.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("sides", sa.JSON, nullable=True))
        batch.add_column(sa.Column("totals", sa.JSON, nullable=True))
        batch.add_column(sa.Column("winners", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rounds_played", sa.Integer, nullable=True))
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("score", sa.Integer, nullable=True))
        batch.add_column(sa.Column("won", sa.Boolean, nullable=True))
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_game_players_player_id", "game_players")
    op.drop_index("ix_games_status", "games")
    op.drop_index("ix_games_created_at", "games")
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("won")
        batch.drop_column("score")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rounds_played")
        batch.drop_column("winners")
        batch.drop_column("totals")
        batch.drop_column("sides")

"""Saved games, players, history, statistics and backups (see service.Store).

The UI and the CLI use only this package's API, never SQL. Scores are always
recomputed from the raw round entries by ``companion.rules``.
"""

from typing import TYPE_CHECKING

from companion.store.errors import NotFoundError, StaleError, StoreError
from companion.store.records import (
    GameRecord,
    GameSummary,
    HeadToHead,
    ImportReport,
    PlayerProfile,
    PlayerResult,
    PlayerStats,
    RulesetStats,
)

if TYPE_CHECKING:
    from companion.store.service import Store


def __getattr__(name: str) -> "type[Store]":
    """``Store`` is imported on first use: the command line and the app's first screen
    should not wait for SQLAlchemy, SQLModel and Alembic to load."""
    if name == "Store":
        from companion.store.service import Store

        return Store
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Store", "StoreError", "StaleError", "NotFoundError", "GameRecord", "GameSummary",
    "PlayerProfile", "PlayerResult", "PlayerStats", "RulesetStats", "HeadToHead", "ImportReport",
]

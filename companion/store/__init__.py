"""Saved games, players, history, statistics and backups (see service.Store).

The UI and the CLI use only this package's API, never SQL. Scores are always
recomputed from the raw round entries by ``companion.rules``.
"""

from companion.store.errors import NotFoundError, StaleError, StoreError
from companion.store.records import (
    GameRecord,
    GameSummary,
    HeadToHead,
    ImportReport,
    PlayerProfile,
    PlayerStats,
    RulesetStats,
)
from companion.store.service import Store

__all__ = [
    "Store", "StoreError", "StaleError", "NotFoundError", "GameRecord", "GameSummary",
    "PlayerProfile", "PlayerStats", "RulesetStats", "HeadToHead", "ImportReport",
]

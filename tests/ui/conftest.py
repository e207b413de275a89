"""Screens are tested against the real store on a temporary SQLite file."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from companion.store import Store


@pytest.fixture
def store(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'companion.sqlite3'}") as s:
        yield s


NOW = datetime(2026, 3, 14, 12, 0, tzinfo=timezone.utc)


def fixed_now() -> datetime:
    return NOW


def play(store, game_id: int, entries: list[dict]):
    """Save rounds one after another, as the scoreboard would; the last record."""
    record = store.open_game(game_id)
    for entry in entries:
        record = store.add_round(game_id, entry, expected_version=record.version)
    return record


def bever_totals(**totals: int) -> dict:
    return {"totals": dict(totals)}

"""The store as the screens see it.

Screens are handed one of three things: the ``Store`` itself, a browser session's
``LiveStore`` (companion.share.live: the same methods, each checked against the device's
rights) or, while the database is still opening, a ``StoreWhenOpen`` (below; the app's
placeholders in companion.ui.app wait for the store or open it). ``GameStore`` is what all
of them offer; mypy checks each against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from companion.store.records import (
    GameRecord,
    GameSummary,
    HeadToHead,
    ImportReport,
    PlayerProfile,
    PlayerResult,
    PlayerStats,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

    from companion.store.service import Store


class GameStore(Protocol):
    """Reading games and players, and changing them, as a screen does (see ``Store``)."""

    @property
    def url(self) -> URL:
        """The database's address: what tells one store's games from another's (companion.share.feed)."""
        ...

    # --- reads ---------------------------------------------------------------------------

    def open_game(self, game_id: int) -> GameRecord: ...

    def in_progress(self) -> list[GameSummary]: ...

    def history(
        self,
        ruleset: str | None = None,
        player: str | None = None,
        status: str | None = None,
        page: int = 0,
        page_size: int = 50,
        since: datetime | None = None,
    ) -> list[GameSummary]: ...

    def players(self) -> list[PlayerProfile]: ...

    def player_stats(self, name: str) -> PlayerStats: ...

    def player_results(self, name: str) -> list[PlayerResult]: ...

    def head_to_head(self, name: str, other: str) -> HeadToHead: ...

    def export_text(self) -> str: ...

    # --- changes -------------------------------------------------------------------------

    def create_game(
        self,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        note: str = "",
        location: str = "",
    ) -> GameRecord: ...

    def add_round(self, game_id: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord: ...

    def edit_round(self, game_id: int, index: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord: ...

    def undo_round(self, game_id: int, expected_version: int) -> GameRecord: ...

    def abandon(self, game_id: int, expected_version: int | None = None) -> GameRecord: ...

    def reopen(self, game_id: int, expected_version: int | None = None) -> GameRecord: ...

    def set_details(self, game_id: int, note: str, location: str) -> GameRecord: ...

    def add_player(self, name: str) -> PlayerProfile: ...

    def import_text(self, text: str | bytes, source: str) -> ImportReport: ...


class StoreWhenOpen:
    """A ``GameStore`` whose ``Store`` may not be open yet: each use asks ``opened`` for it
    (a subclass says how it is found or waited for)."""

    def opened(self) -> Store:
        raise NotImplementedError

    @property
    def url(self) -> URL:
        return self.opened().url

    def open_game(self, game_id: int) -> GameRecord:
        return self.opened().open_game(game_id)

    def in_progress(self) -> list[GameSummary]:
        return self.opened().in_progress()

    def history(
        self,
        ruleset: str | None = None,
        player: str | None = None,
        status: str | None = None,
        page: int = 0,
        page_size: int = 50,
        since: datetime | None = None,
    ) -> list[GameSummary]:
        return self.opened().history(ruleset, player, status, page, page_size, since)

    def players(self) -> list[PlayerProfile]:
        return self.opened().players()

    def player_stats(self, name: str) -> PlayerStats:
        return self.opened().player_stats(name)

    def player_results(self, name: str) -> list[PlayerResult]:
        return self.opened().player_results(name)

    def head_to_head(self, name: str, other: str) -> HeadToHead:
        return self.opened().head_to_head(name, other)

    def export_text(self) -> str:
        return self.opened().export_text()

    def create_game(
        self,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        note: str = "",
        location: str = "",
    ) -> GameRecord:
        return self.opened().create_game(ruleset, players, options, teams, note, location)

    def add_round(self, game_id: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        return self.opened().add_round(game_id, entry, expected_version)

    def edit_round(self, game_id: int, index: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        return self.opened().edit_round(game_id, index, entry, expected_version)

    def undo_round(self, game_id: int, expected_version: int) -> GameRecord:
        return self.opened().undo_round(game_id, expected_version)

    def abandon(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        return self.opened().abandon(game_id, expected_version)

    def reopen(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        return self.opened().reopen(game_id, expected_version)

    def set_details(self, game_id: int, note: str, location: str) -> GameRecord:
        return self.opened().set_details(game_id, note, location)

    def add_player(self, name: str) -> PlayerProfile:
        return self.opened().add_player(name)

    def import_text(self, text: str | bytes, source: str) -> ImportReport:
        return self.opened().import_text(text, source)


if TYPE_CHECKING:

    def _the_store_is_a_game_store(store: Store) -> GameStore:
        return store

    def _a_store_when_open_is_a_game_store(store: StoreWhenOpen) -> GameStore:
        return store

"""Live updates between the devices at a table, and the rights check on every change.

Every browser session sees the store through its own ``LiveStore``: only while its device
is still at the table (Stop sharing takes every joined device out, for good), reads pass
through; a change needs scorer rights too (the checks are here, on the server, whatever
the screen shows) and, once saved, is announced to every other session. A session that hears of a
change reloads what it shows from the store if the change concerns it (the screens
decide which), so the store stays the one source of truth and a message never carries state that could be
stale by the time it arrives: a game's change names only the game and its new version, and the
record is read once for all the sessions of the process (companion.share.feed).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, cast

from companion.i18n import _
from companion.share.feed import feed, lists
from companion.share.table import Device
from companion.store import StaleError, StoreError
from companion.store.protocol import StoreWhenOpen
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

    from companion.store.club import Evenings
    from companion.store.protocol import GameStore
    from companion.store.service import Store

TOPIC = "companion.live"
"""The pub/sub topic every session of the server listens on."""


@dataclass(frozen=True)
class GameChanged:
    """A game was started, or a round saved, edited or undone, or the game abandoned."""

    game_id: int
    version: int
    """The game's version after the change: a session that already shows it (or newer) has nothing to read."""


@dataclass(frozen=True)
class PlayersChanged:
    """A player profile was added."""


@dataclass(frozen=True)
class GamesRestored:
    """Games and players were added from a backup file (Restore in settings)."""


@dataclass(frozen=True)
class EveningChanged:
    """A club evening was created or changed: players checked in or out, a round drawn (its
    tables' games started), the evening closed."""

    evening_id: int


@dataclass(frozen=True)
class DevicesChanged:
    """A device joined, came or went, or had its rights changed: the hosts' device list."""


@dataclass(frozen=True)
class RoleChanged:
    """Device ``number`` may now keep score, or may now only watch."""

    number: int


@dataclass(frozen=True)
class DeviceEnded:
    """A host ended device ``number``'s access: its pages close, in every process."""

    number: int


@dataclass(frozen=True)
class JoinCodeChanged:
    """A host made a new join code: the pages that show it show the new one."""


Message = GameChanged | PlayersChanged | GamesRestored | EveningChanged | DevicesChanged | RoleChanged | DeviceEnded | JoinCodeChanged


class NotAllowedError(StoreError):
    """A change asked for by a device that may only watch."""

    def __init__(self) -> None:
        super().__init__(_("This device can only watch. Ask the host to let it keep score."))


class OtherTableError(StoreError):
    """A change asked for by a device that scores one club table's game (it joined with that
    table's code), to another game, or a new game or player."""

    def __init__(self) -> None:
        super().__init__(_("This device keeps score for its own table only. Ask the host to change another game."))


class LeftTableError(StoreError):
    """Anything asked for by a device that is no longer at the table (sharing stopped, or a host ended its access)."""

    def __init__(self) -> None:
        super().__init__(_("This device is no longer at the table: sharing has stopped, or the host ended its access. Ask the host for the code."))


READS = frozenset({"open_game", "in_progress", "history", "players", "player_stats", "player_results", "head_to_head", "export_text"})
GAME_CHANGES = frozenset({"create_game", "add_round", "edit_round", "undo_round", "abandon", "reopen", "set_details"})
PLAYER_CHANGES = frozenset({"add_player"})
RESTORES = frozenset({"import_text"})
"""Adding a backup's games: the host's alone, as the saved games are the host's."""
SERVER_ONLY = frozenset({"close", "memory", "export_json", "import_json", "export_csv", "silent"})
"""Store methods no browser session reaches: they act on the server's files or its lifetime,
or say what the server's connection to its database is like."""


class LiveStore:
    """The store as one device's session sees it (see the module docstring).

    It offers exactly the store's READS and changes (GAME_CHANGES, PLAYER_CHANGES,
    RESTORES), so a store method added later is unavailable to sessions until it is
    classified there and offered here.
    """

    def __init__(
        self,
        store: GameStore,
        device: Device,
        announce: Callable[[Message], None],
        seated: Callable[[Device], bool],
        confirmed: Callable[[Device], bool] | None = None,
    ):
        self._store = store
        self.device = device
        self._announce = announce
        self._seated = seated
        """Whether a device is at the table as it is now (asked on every use, never remembered)."""
        self._confirmed = confirmed or seated
        """The same, and the device's rights read again, from where the whole server keeps
        them (asked before every change: another process may have ended it a moment ago)."""

    def announce(self, message: Message) -> None:
        """Tell every other session of the server (e.g. that a device's rights changed)."""
        self._announce(message)

    def latest_game(self, game_id: int, version: int) -> GameRecord:
        """Game ``game_id`` at ``version`` or newer, read once for all the sessions of this
        process that show it (companion.share.feed)."""
        self._may_read()
        return feed.latest(str(self._store.url), game_id, version, self._store.open_game)

    @property
    def url(self) -> URL:
        return self._store.url

    # --- reads: only while the device is at the table ----------------------------------------

    def open_game(self, game_id: int) -> GameRecord:
        self._may_read()
        return self._store.open_game(game_id)

    def in_progress(self) -> list[GameSummary]:
        self._may_read()
        return lists.read(str(self._store.url), "in_progress", {}, self._store.in_progress)

    def history(
        self,
        ruleset: str | None = None,
        player: str | None = None,
        status: str | None = None,
        page: int = 0,
        page_size: int = 50,
        since: datetime | None = None,
    ) -> list[GameSummary]:
        self._may_read()
        asked = {"ruleset": ruleset, "player": player, "status": status, "page": page, "page_size": page_size, "since": since}
        read = partial(self._store.history, ruleset, player, status, page, page_size, since)
        return lists.read(str(self._store.url), "history", asked, read)

    def players(self) -> list[PlayerProfile]:
        self._may_read()
        return lists.read(str(self._store.url), "players", {}, self._store.players)

    def player_stats(self, name: str) -> PlayerStats:
        self._may_read()
        return self._store.player_stats(name)

    def player_results(self, name: str) -> list[PlayerResult]:
        self._may_read()
        return self._store.player_results(name)

    def head_to_head(self, name: str, other: str) -> HeadToHead:
        self._may_read()
        return self._store.head_to_head(name, other)

    def export_text(self) -> str:
        self._may_read()
        return self._store.export_text()

    # --- changes: a scorer's, announced to the other sessions once saved ---------------------

    def create_game(
        self,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        note: str = "",
        location: str = "",
    ) -> GameRecord:
        self._may_change()
        return self._game_changed(self._store.create_game(ruleset, players, options, teams, note, location))

    def add_round(self, game_id: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._unless_stale(game_id, expected_version, partial(self._store.add_round, game_id, entry)))

    def edit_round(self, game_id: int, index: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._unless_stale(game_id, expected_version, partial(self._store.edit_round, game_id, index, entry)))

    def undo_round(self, game_id: int, expected_version: int) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._unless_stale(game_id, expected_version, partial(self._store.undo_round, game_id)))

    def _unless_stale(self, game_id: int, expected_version: int, change: Callable[..., GameRecord]) -> GameRecord:
        """``change(expected_version=...)``. Refused because the game moved on, whoever shows
        it at the version this device had reads it again: the move may be this device's own
        change, saved as the database's connection dropped (the page was told it failed, and
        no one was told of it); a change another device announced is read by no one again."""
        try:
            return change(expected_version=expected_version)
        except StaleError:
            lists.changed()
            self._announce(GameChanged(game_id, expected_version + 1))
            raise

    def abandon(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._store.abandon(game_id, expected_version))

    def reopen(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._store.reopen(game_id, expected_version))

    def set_details(self, game_id: int, note: str, location: str) -> GameRecord:
        self._may_change(game_id)
        return self._game_changed(self._store.set_details(game_id, note, location))

    def add_player(self, name: str) -> PlayerProfile:
        self._may_change()
        profile = self._store.add_player(name)
        lists.changed()
        self._announce(PlayersChanged())
        return profile

    def import_text(self, text: str | bytes, source: str) -> ImportReport:
        """Adding a backup's games: the host's alone, as the saved games are the host's."""
        self._may_change()
        if not self.device.is_host:
            raise StoreError("Only the host's device can restore a backup into this Companion.")
        report = self._store.import_text(text, source)
        lists.changed()
        self._announce(GamesRestored())
        return report

    def evenings(self) -> Evenings:
        """The club evenings as this session sees them: read while at the table, run by the
        host; each of their reads and changes checked like the games' (``LiveEvenings``)."""
        from companion.share.live_evenings import LiveEvenings  # the database's club tables: not on the first page's path

        store = self._store
        return LiveEvenings(store.opened() if isinstance(store, StoreWhenOpen) else cast("Store", store), self)

    # --- the checks ---------------------------------------------------------------------------

    def _may_read(self) -> None:
        if not self._seated(self.device):
            raise LeftTableError()

    def _may_change(self, game_id: int | None = None) -> None:
        """Checks a change of game ``game_id`` (None: a new game or player, a backup, an evening)."""
        if not self._confirmed(self.device):
            raise LeftTableError()
        if not self.device.can_score:
            raise NotAllowedError()
        if not self.device.may_change(game_id):
            raise OtherTableError()

    def _may_organise(self) -> None:
        self._may_change()
        if not self.device.is_host:
            raise StoreError("Only the host's device runs a club evening.")

    def _evening_changed(self, evening_id: int, players: bool) -> None:
        """A club evening's change is saved (``LiveEvenings``): the lists and its page follow."""
        lists.changed()
        if players:  # a name checked in may be a new player profile
            self.announce(PlayersChanged())
        self.announce(EveningChanged(evening_id))

    def _game_changed(self, record: GameRecord) -> GameRecord:
        lists.changed()
        feed.put(str(self._store.url), record)
        self._announce(GameChanged(record.id, record.version))
        return record


if TYPE_CHECKING:

    def _a_session_sees_a_game_store(store: LiveStore) -> GameStore:
        return store

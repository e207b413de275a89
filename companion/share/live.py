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
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from companion.i18n import _
from companion.share.feed import feed, lists
from companion.share.table import Device
from companion.store import StoreError

if TYPE_CHECKING:
    from companion.store import Store

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
class DevicesChanged:
    """A device joined, came or went, or had its rights changed: the hosts' device list."""


@dataclass(frozen=True)
class RoleChanged:
    """Device ``number`` may now keep score, or may now only watch."""

    number: int


Message = GameChanged | PlayersChanged | GamesRestored | DevicesChanged | RoleChanged


class NotAllowedError(StoreError):
    """A change asked for by a device that may only watch."""

    def __init__(self) -> None:
        super().__init__(_("This device can only watch. Ask the host to let it keep score."))


class LeftTableError(StoreError):
    """Anything asked for by a device that is no longer at the table (sharing stopped)."""

    def __init__(self) -> None:
        super().__init__(_("This device is no longer at the table: sharing has stopped. Ask the host for the new code."))


READS = frozenset({"open_game", "in_progress", "history", "players", "player_stats", "player_results", "head_to_head", "export_text"})
GAME_CHANGES = frozenset({"create_game", "add_round", "edit_round", "undo_round", "abandon", "reopen", "set_details"})
PLAYER_CHANGES = frozenset({"add_player"})
RESTORES = frozenset({"import_text"})
"""Adding a backup's games: the host's alone, as the saved games are the host's."""
LISTS = frozenset({"in_progress", "history", "players"})
"""Reads that many pages show at once after a change: read once for all of them (companion.share.feed)."""
SERVER_ONLY = frozenset({"close", "memory", "export_json", "import_json", "export_csv"})
"""Store methods no browser session reaches: they act on the server's files or its lifetime."""


class LiveStore:
    """The store as one device's session sees it (see the module docstring).

    Anything not listed in READS or the changes is refused, so a store method added
    later is unavailable to sessions until it is classified here.
    """

    def __init__(self, store: Store, device: Device, announce: Callable[[Message], None], seated: Callable[[Device], bool]):
        self._store = store
        self.device = device
        self._announce = announce
        self._seated = seated
        """Whether a device is at the table as it is now (asked on every use, never remembered)."""

    def announce(self, message: Message) -> None:
        """Tell every other session of the server (e.g. that a device's rights changed)."""
        self._announce(message)

    def latest_game(self, game_id: int, version: int) -> Any:
        """Game ``game_id`` at ``version`` or newer, read once for all the sessions of this
        process that show it (companion.share.feed)."""
        if not self._seated(self.device):
            raise LeftTableError()
        return feed.latest(str(self._store.url), game_id, version, self._store.open_game)

    def __getattr__(self, name: str) -> Any:
        if name in READS:
            return partial(self._read, name)
        if name in GAME_CHANGES or name in PLAYER_CHANGES or name in RESTORES:
            return partial(self._change, name)
        raise AttributeError(f"a browser session cannot use Store.{name}")

    def _read(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self._seated(self.device):
            raise LeftTableError()
        read = partial(getattr(self._store, name), *args, **kwargs)
        if name in LISTS and not args:
            return lists.read(str(self._store.url), name, kwargs, read)
        return read()

    def _change(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self._seated(self.device):
            raise LeftTableError()
        if not self.device.can_score:
            raise NotAllowedError()
        if name in RESTORES and not self.device.is_host:
            raise StoreError("Only the host's device can restore a backup into this Companion.")
        result = getattr(self._store, name)(*args, **kwargs)
        lists.changed()
        if name in GAME_CHANGES:
            feed.put(str(self._store.url), result)
            self._announce(GameChanged(result.id, result.version))
        else:
            self._announce(GamesRestored() if name in RESTORES else PlayersChanged())
        return result

"""The game as it is after a change, and the lists that show games and players, read from
the store once for every session that shows them.

A change saved through this process leaves its result here (``put``); a change heard of
from elsewhere is read by the first session that asks for it (``latest``) and every
other session of the process gets that same record. Records are frozen, so sharing one
between sessions is safe; only the newest version of each game is kept, and only for the
games changed lately, so the feed does not grow with the evening. Games are told apart by
their database too (a test, or a restart on another database, may reuse a game's number).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

if TYPE_CHECKING:
    from companion.store import GameRecord

KEPT_GAMES = 256
"""Games whose newest record is kept: more than the tables of a club evening."""


class GameFeed:
    """The newest known record of each lately changed game. Safe to share between threads."""

    def __init__(self, kept: int = KEPT_GAMES):
        self._records: OrderedDict[tuple[str, int], GameRecord] = OrderedDict()
        self._kept = kept
        self._lock = threading.Lock()

    def put(self, database: str, record: GameRecord) -> None:
        """``record`` was just saved in ``database``: the sessions that follow its game get it."""
        with self._lock:
            self._keep(database, record)

    def latest(self, database: str, game_id: int, version: int, read: Callable[[int], GameRecord]) -> GameRecord:
        """Game ``game_id`` at ``version`` or newer: from the feed when it has it, else
        ``read`` once (sessions asking at the same time wait for that one read)."""
        with self._lock:
            known = self._records.get((database, game_id))
            if known is not None and known.version >= version:
                return known
            return self._keep(database, read(game_id))

    def _keep(self, database: str, record: GameRecord) -> GameRecord:
        """Keep ``record`` unless a newer one is known; the newest one (lock held)."""
        key = (database, record.id)
        known = self._records.get(key)
        if known is None or known.version <= record.version:
            self._records[key] = known = record
        self._records.move_to_end(key)
        while len(self._records) > self._kept:
            self._records.popitem(last=False)
        return known


feed = GameFeed()
"""The feed of this server process, shared by all its sessions."""


Item = TypeVar("Item")

KEPT_LISTS = 64
"""Different list reads kept between two changes (home, the history's pages and filters, players)."""


class ListReads:
    """The lists read from the store since the last change this process knows of (a change
    saved through it, or heard of from another process): the sessions that show the same
    list after a change get one read between them. Safe to share between threads."""

    def __init__(self, kept: int = KEPT_LISTS):
        self._lists: OrderedDict[tuple[Any, ...], list[Any]] = OrderedDict()
        self._kept = kept
        self._lock = threading.Lock()

    def changed(self) -> None:
        """Something stored changed: every list is read again when next asked for."""
        with self._lock:
            self._lists.clear()

    def read(self, database: str, name: str, kwargs: Mapping[str, object], read: Callable[[], list[Item]]) -> list[Item]:
        """The list ``name`` with ``kwargs`` as read since the last change, else ``read()``
        once (sessions asking at the same time wait for that one read); a copy each time."""
        key = (database, name, tuple(sorted(kwargs.items())))
        with self._lock:
            known = self._lists.get(key)
            if known is None:
                known = self._lists[key] = read()
                while len(self._lists) > self._kept:
                    self._lists.popitem(last=False)
            return list(known)


lists = ListReads()
"""The list reads of this server process, shared by all its sessions."""


KEPT_DERIVED = 128
"""Games (in one language) whose newest record's derived read-outs are kept: a club
evening's tables in a language or two."""


class Derived:
    """What the screens derive from a record (a scoreboard's sides, rounds, chart points and
    lines, in one language), derived once for every session of the process that shows that
    same record (``feed`` hands them all the same one). Records are frozen and the read-outs
    are only read, so sharing them is safe. Only each game's newest version is kept, and only
    for the lately shown games: the older versions' read-outs, each as long as its game,
    would otherwise stay until they dropped out, a game's length of them for every round.
    Safe to share between threads."""

    def __init__(self, kept: int = KEPT_DERIVED):
        self._known: OrderedDict[tuple[str, int, str], tuple[int, dict[str, Any]]] = OrderedDict()
        self._kept = kept
        self._lock = threading.Lock()

    def get(self, database: str, record: GameRecord, language: str, name: str, derive: Callable[[], Item]) -> Item:
        """``derive()``'s value for ``record`` of ``database`` in ``language``, derived once;
        ``name`` tells the read-outs apart. A version older than the game's newest known one
        (a session that has not followed yet) is derived for that session alone."""
        key = (database, record.id, language)
        with self._lock:
            known = self._known.get(key)
            if known is None or known[0] < record.version:
                known = self._known[key] = (record.version, {})
            elif known[0] > record.version:
                known = None
            if known is not None:
                self._known.move_to_end(key)
                while len(self._known) > self._kept:
                    self._known.popitem(last=False)
                values = known[1]
                if name in values:
                    return cast(Item, values[name])
        value = derive()  # outside the lock: two sessions may derive the same value at once, harmlessly
        if known is None:
            return value
        with self._lock:
            return cast(Item, values.setdefault(name, value))


derived = Derived()
"""The derived read-outs of this server process, shared by all its sessions."""

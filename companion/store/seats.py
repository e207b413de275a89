"""The shared table's state in the database: its codes, its devices, their rights and
names, and when each was last connected. Every server process of a club reads and writes
it here, so any process admits a device another one let in, with the rights it has
(companion.share.table keeps the process's view of it).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Iterator

import sqlalchemy as sa

from companion.store.models import EVENING_TABLES, EVENINGS, SHARED_TABLES, TABLE_DEVICES
from companion.clock import utc_now
from companion.store.service import Store, _inserted_id

ENDED = "ended"
"""The role kept for a device whose access a host ended: its row stays (its number is not
given to another device), but its key lets it in no more and no list shows it."""


@dataclass(frozen=True)
class SeatRecord:
    """One device of a shared table as the database has it."""

    number: int
    key: str
    browser: str
    system: str
    role: str
    name: str
    connections: int
    seen_at: datetime
    game_id: int | None = None
    """The one game it may change, having joined with a club table's code (None: any game its role allows)."""


class Seats:
    """The shared tables of one database. ``store`` is called on first use (the store may
    still be opening when sharing starts). Safe to share between threads and processes."""

    def __init__(self, store: Callable[[], Store]):
        self._open = store
        self._lock = threading.Lock()

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """One change at a time per process (an in-memory database has one connection for all threads)."""
        with self._lock, self._open()._write() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self._lock, self._open()._read() as conn:
            yield conn

    def open_table(self, join_code: str, host_code: str, address: str, port: int) -> int:
        """A new shared table with these codes; any table still shared ends (its devices with it)."""
        now = utc_now()
        with self._write() as conn:
            conn.execute(sa.update(SHARED_TABLES).where(SHARED_TABLES.c.stopped_at.is_(None)).values(stopped_at=now))
            result = conn.execute(
                sa.insert(SHARED_TABLES).values(join_code=join_code, host_code=host_code, address=address, port=port, started_at=now)
            )
            return _inserted_id(result)

    def codes(self, table_id: int) -> tuple[str, str] | None:
        """(join code, host code) of the table as they are now; None once it has stopped."""
        with self._read() as conn:
            row = conn.execute(
                sa.select(SHARED_TABLES.c.join_code, SHARED_TABLES.c.host_code)
                .where(SHARED_TABLES.c.id == table_id, SHARED_TABLES.c.stopped_at.is_(None))
            ).first()
        return None if row is None else (row.join_code, row.host_code)

    def new_join_code(self, table_id: int, code: str) -> None:
        with self._write() as conn:
            conn.execute(sa.update(SHARED_TABLES).where(SHARED_TABLES.c.id == table_id).values(join_code=code))

    def stop_table(self, table_id: int) -> None:
        with self._write() as conn:
            conn.execute(sa.update(SHARED_TABLES).where(SHARED_TABLES.c.id == table_id).values(stopped_at=utc_now()))

    def add_device(
        self, table_id: int, key: str, browser: str, system: str, role: str, guests_at_most: int, game_id: int | None = None
    ) -> SeatRecord | None:
        """A new device with the next number (``game_id``: the one game it may change); None
        when ``role`` is a guest's and the table already has ``guests_at_most`` devices that are not hosts."""
        now = utc_now()
        with self._write() as conn:
            # Processes admitting to one table at once take turns on its row (PostgreSQL; SQLite
            # writes one at a time anyway): the count and the next number are each one's own.
            conn.execute(sa.select(SHARED_TABLES.c.id).where(SHARED_TABLES.c.id == table_id).with_for_update())
            if role != "host":
                guests = conn.execute(
                    sa.select(sa.func.count()).where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.role.not_in(("host", ENDED)))
                ).scalar_one()
                if guests >= guests_at_most:
                    return None
            number = conn.execute(
                sa.select(sa.func.coalesce(sa.func.max(TABLE_DEVICES.c.number), 0) + 1).where(TABLE_DEVICES.c.table_id == table_id)
            ).scalar_one()
            values = dict(table_id=table_id, number=number, key=key, browser=browser[:40], system=system[:40],
                          role=role, name="", connections=0, seen_at=now, game_id=game_id)  # fmt: skip
            conn.execute(sa.insert(TABLE_DEVICES).values(**values))
            return _seat(values)

    def device(self, table_id: int, key: str) -> SeatRecord | None:
        """Device ``key`` while its table is shared (after a Stop sharing its key lets nobody in)."""
        with self._read() as conn:
            row = conn.execute(
                sa.select(TABLE_DEVICES)
                .join(SHARED_TABLES, SHARED_TABLES.c.id == TABLE_DEVICES.c.table_id)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.key == key, SHARED_TABLES.c.stopped_at.is_(None),
                       TABLE_DEVICES.c.role != ENDED)
            ).first()
        return None if row is None else _seat(row._mapping)

    def devices(self, table_id: int) -> list[SeatRecord]:
        """The table's devices but those whose access was ended."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(TABLE_DEVICES)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.role != ENDED)
                .order_by(TABLE_DEVICES.c.number)
            ).all()
        return [_seat(row._mapping) for row in rows]

    def club_table_game(self, code: str) -> int | None:
        """The game of the club table whose code is ``code``, while that table's round is its
        evening's newest and the evening is open; None otherwise (a later draw made new codes)."""
        same_evening = EVENING_TABLES.alias("same_evening")
        newest = (
            sa.select(sa.func.max(same_evening.c.round_number))
            .where(same_evening.c.evening_id == EVENING_TABLES.c.evening_id)
            .scalar_subquery()
        )
        with self._read() as conn:
            return conn.execute(
                sa.select(EVENING_TABLES.c.game_id)
                .join(EVENINGS, EVENINGS.c.id == EVENING_TABLES.c.evening_id)
                .where(EVENING_TABLES.c.code == code, EVENINGS.c.closed_at.is_(None), EVENING_TABLES.c.round_number == newest)
            ).scalar_one_or_none()

    def set_role(self, table_id: int, number: int, role: str) -> None:
        """The host's choice of rights replaces a club table's: the device is a scorer of every game, or a viewer."""
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.number == number,
                       TABLE_DEVICES.c.role.not_in(("host", ENDED)))
                .values(role=role, game_id=None)
            )

    def seat_at_club_table(self, table_id: int, key: str, game_id: int) -> None:
        """Device ``key`` (not a host) joined with a club table's code: it scores that table's game, and only that one."""
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.key == key,
                       TABLE_DEVICES.c.role.not_in(("host", ENDED)))
                .values(role="scorer", game_id=game_id)
            )

    def end_device(self, table_id: int, number: int) -> None:
        """Device ``number`` is out for good (hosts stay: the host code would let them in again anyway)."""
        self.set_role(table_id, number, ENDED)

    def set_host(self, table_id: int, key: str) -> None:
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.key == key, TABLE_DEVICES.c.role != ENDED)
                .values(role="host")
            )

    def rename(self, table_id: int, number: int, name: str) -> None:
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES).where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.number == number).values(name=name)
            )

    def connected(self, table_id: int, key: str, change: int) -> None:
        """A connection of device ``key`` opened (+1) or closed (-1), in any process: it was seen now."""
        connections = TABLE_DEVICES.c.connections + change
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES)
                .where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.key == key)
                .values(connections=sa.case((connections < 0, 0), else_=connections), seen_at=utc_now())
            )

    def seen(self, table_id: int, keys: list[str]) -> None:
        """Devices ``keys`` are still connected to this process: they were seen now."""
        with self._write() as conn:
            conn.execute(
                sa.update(TABLE_DEVICES).where(TABLE_DEVICES.c.table_id == table_id, TABLE_DEVICES.c.key.in_(keys)).values(seen_at=utc_now())
            )


def _seat(values: Any) -> SeatRecord:
    return SeatRecord(
        number=values["number"], key=values["key"], browser=values["browser"], system=values["system"],
        role=values["role"], name=values["name"], connections=values["connections"], seen_at=values["seen_at"],
        game_id=values["game_id"],
    )  # fmt: skip

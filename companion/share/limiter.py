"""Slowing down code guessing: each client gets a few free wrong tries, then must wait
before every further try, twice as long each time (up to a cap).

Clients are told apart by network address. An IPv6 device can pick any address in its
/64 network, so the whole /64 counts as one client.
"""

from __future__ import annotations

import ipaddress
import threading
from dataclasses import dataclass

FREE_TRIES = 3
FIRST_WAIT = 2.0
LONGEST_WAIT = 300.0
FORGET_AFTER = 3600.0
"""A client with no wrong try for this long starts again with free tries."""


def client_key(address: str | None) -> str:
    """The key wrong tries are counted under for a client's network address."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "unknown"
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class _Record:
    wrong: int
    last_wrong: float
    next_try: float


class WrongTries:
    """Wrong tries per client and how long each must wait before the next try.

    ``now`` is always passed in (seconds, e.g. time.monotonic()), so the arithmetic is
    plain and testable. Safe to share between threads.
    """

    def __init__(
        self,
        free: int = FREE_TRIES,
        first_wait: float = FIRST_WAIT,
        longest_wait: float = LONGEST_WAIT,
        forget_after: float = FORGET_AFTER,
    ):
        self.free = free
        self.first_wait = first_wait
        self.longest_wait = longest_wait
        self.forget_after = forget_after
        self._records: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def wait(self, client: str, now: float) -> float:
        """Seconds ``client`` must still wait before it may try a code (0 when it may)."""
        with self._lock:
            record = self._current(client, now)
            return max(0.0, record.next_try - now) if record else 0.0

    def wrong(self, client: str, now: float) -> float:
        """Count a wrong try; the wait it earns (0 while free tries are left)."""
        with self._lock:
            self._forget_old(now)
            record = self._current(client, now) or _Record(0, now, now)
            record.wrong += 1
            record.last_wrong = now
            wait = self.wait_after(record.wrong)
            record.next_try = now + wait
            self._records[client] = record
            return wait

    def right(self, client: str) -> None:
        """A right code: whoever knows it has nothing left to guess."""
        with self._lock:
            self._records.pop(client, None)

    def wait_after(self, wrong: int) -> float:
        """The wait after the ``wrong``-th wrong try in a row."""
        if wrong <= self.free:
            return 0.0
        return min(self.first_wait * 2.0 ** (wrong - self.free - 1), self.longest_wait)

    def _current(self, client: str, now: float) -> _Record | None:
        record = self._records.get(client)
        if record and self._forgotten(record, now):
            del self._records[client]
            return None
        return record

    def _forget_old(self, now: float) -> None:
        """Drop clients that stopped trying long ago, so the records stay few."""
        for client in [c for c, r in self._records.items() if self._forgotten(r, now)]:
            del self._records[client]

    def _forgotten(self, record: _Record, now: float) -> bool:
        return now - record.last_wrong >= self.forget_after and now >= record.next_try

"""When the server collects its garbage: Python's full collection stops everything, so on a
club server it should neither walk what never becomes garbage nor fall inside a change
going out to every device."""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from typing import Callable


def collect_less() -> None:
    """Python's full garbage collection walks every object, with everything else stopped. On a
    club server holding 100 devices' pages that was 430,000 objects, 160 to 280 ms every 8 to
    10 s, and it made a save reach the last device late. Once the store is open, the modules,
    classes and models loaded so far never become garbage: frozen, no collection walks them
    again. A collection also starts after ten times as many new objects as Python's default,
    and the full one waits for a quiet moment (``QuietCollector``)."""
    gc.freeze()
    gc.set_threshold(GC_NEW_OBJECTS, gc.get_threshold()[1], NEVER)
    quiet_collector.start()


GC_NEW_OBJECTS = 7000
"""New objects, less those freed, that start a garbage collection (Python's default: 700)."""

NEVER = 2**31 - 1
"""A threshold never reached: Python then starts no full collection by itself."""


class QuietCollector:
    """Runs Python's full garbage collection when the server has a quiet moment.

    Even with ``collect_less``, a full collection stopped a club server with 100 devices for
    150 to 350 ms. Python starts one when new objects trip its thresholds, which is most often
    while a change goes out to every device: in a 120-round run 3 of the 4 full collections
    fell inside a round, and the last device got that round that much later. Here the full
    collection waits until no page has been shown or updated for ``QUIET_S`` (``busy`` says
    when one is) and the server's event loop has nothing left to do, such as messages still
    to send (it answers at once); it comes at the latest ``LATEST_S`` after it was due.
    """

    QUIET_S = 0.2
    LATEST_S = 60.0
    DUE_AFTER = 10
    """Younger collections since the last full one that make it due (Python's own threshold)."""
    IDLE_S = 0.005
    """How soon an event loop with nothing to do runs a callback handed to it."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        pending: Callable[[], int] = lambda: gc.get_count()[2],
        collect: Callable[[], object] = gc.collect,
    ):
        self._clock, self._pending, self._collect = clock, pending, collect
        self._busy_at = clock()
        self._due_at: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watching_in: int | None = None
        """The process the thread watches in (a forked process has no thread, whatever it inherited)."""
        self._lock = threading.Lock()

    def busy(self) -> None:
        """A page is being shown or updated: not now."""
        self._busy_at = self._clock()

    def serving(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop that serves the pages: a collection waits until it is idle."""
        self._loop = loop

    def step(self) -> bool:
        """Collect if it is due and the moment is quiet (or it waited long enough); whether it did."""
        now = self._clock()
        if self._pending() < self.DUE_AFTER:
            self._due_at = None  # collected meanwhile (by a loop that answered late, say)
            return False
        if self._due_at is None:
            self._due_at = now
        if now - self._due_at >= self.LATEST_S:
            self._collect()
        elif now - self._busy_at < self.QUIET_S or not self._on_idle_loop():
            return False
        self._due_at = None
        return True

    def _on_idle_loop(self) -> bool:
        """Collect on the serving loop if it has nothing else to do (or here when there is no
        loop); whether it did."""
        loop = self._loop
        if loop is None or not loop.is_running():  # a stopped loop would never run the callback
            self._collect()
            return True
        asked, ran, done = time.monotonic(), [False], threading.Event()

        def on_loop() -> None:
            if time.monotonic() - asked < self.IDLE_S:
                self._collect()
                ran[0] = True
            done.set()

        loop.call_soon_threadsafe(on_loop)
        done.wait(self.QUIET_S)
        return ran[0]

    def start(self) -> None:
        """Watch for quiet moments in a background thread, once per process."""
        with self._lock:
            if self._watching_in != os.getpid():
                self._watching_in = os.getpid()
                threading.Thread(target=self._watch, name="quiet-collector", daemon=True).start()

    def _watch(self) -> None:
        while True:
            time.sleep(self.QUIET_S / 2)
            self.step()


quiet_collector = QuietCollector()

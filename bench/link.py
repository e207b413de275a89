"""A link that delays every packet, in front of a local server: a phone on Wi-Fi, on one machine.

A page and its server on one machine answer each other within a millisecond, where a phone
on a table's Wi-Fi waits tens of milliseconds for each round trip (more when it saves
power). ``DelayedLink`` listens on a port of its own and passes each connection's bytes on
to the server's port and back, each chunk ``delay`` seconds after it came, in order.

The link can also be cut (``cut``, then ``mend``): every connection through it closes and
new ones are closed as they come, as a club's database restarting does to its server, to
that server alone (tests/browser/test_club_database_away.py). Or it can fall silent
(``silence``, then ``mend``): every connection through it closes, as the operating system
gives up a connection whose sent bytes go unacknowledged, and new ones are taken and never
answered, as by a database host whose network went down (tests/store/test_silent_host.py and
tests/store/test_relay.py).
"""

from __future__ import annotations

import asyncio
import threading
import time
from types import TracebackType

from tests.browser.phone import free_port

CHUNK = 65536


class DelayedLink:
    """``with DelayedLink(port, delay) as link``: open ``link.port`` to reach ``port`` late."""

    def __init__(self, target_port: int, delay: float):
        self.target_port = target_port
        self.delay = delay
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._open: set[asyncio.StreamWriter] = set()
        """Both ends of every connection passing through (the link's loop only)."""
        self._cut = False
        self._silent = False

    def __enter__(self) -> DelayedLink:
        self._thread.start()
        self._ready.wait()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()

    def cut(self) -> None:
        """Close every connection through the link, and each new one as it comes, until ``mend``."""
        asyncio.run_coroutine_threadsafe(self._cut_off(True), self._loop).result()

    def silence(self) -> None:
        """Close every connection through the link, and hold each new one unanswered, until ``mend``."""
        asyncio.run_coroutine_threadsafe(self._cut_off(True, silent=True), self._loop).result()

    def mend(self) -> None:
        asyncio.run_coroutine_threadsafe(self._cut_off(False), self._loop).result()

    async def _cut_off(self, cut: bool, silent: bool = False) -> None:
        self._cut, self._silent = cut, silent
        for writer in list(self._open) if cut else []:
            writer.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._connect, "127.0.0.1", self.port))
        self._ready.set()
        self._loop.run_forever()
        self._server.close()
        connections = asyncio.all_tasks(self._loop)
        for task in connections:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*connections, return_exceptions=True))
        self._loop.close()

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._cut:
            try:
                if self._silent:
                    await reader.read()  # until the caller gives up
            except (OSError, asyncio.CancelledError):  # the link closes meanwhile
                pass
            writer.close()
            return
        ends = {writer}
        self._open |= ends
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            ends.add(server_writer)
            self._open |= ends
            await asyncio.gather(self._carry(reader, server_writer), self._carry(server_reader, writer), return_exceptions=True)
        except (OSError, asyncio.CancelledError):  # no server, or the link closes with the connection open
            writer.close()
        finally:
            self._open -= ends

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Pass on what ``reader`` gets, each chunk ``delay`` after it came (reading goes on meanwhile)."""
        due: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, chunk = await due.get()
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                if not chunk:
                    writer.close()
                    return
                writer.write(chunk)
                await writer.drain()

        delivering = asyncio.ensure_future(deliver())
        try:
            while True:
                chunk = await reader.read(CHUNK)
                due.put_nowait((time.monotonic() + self.delay, chunk))
                if not chunk:
                    break
            await delivering
        finally:
            delivering.cancel()

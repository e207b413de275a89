"""The real web app (Flet's, behind companion's guard) served on 127.0.0.1 in a thread, and a
bare client of Flet's websocket protocol: what a browser page, or a script posing as one,
sends and gets. No browser, so the tests that use it are quick."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from typing import Any, Callable

import msgpack  # type: ignore[import-untyped]  # no type information
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

REGISTER_CLIENT, CONTROL_EVENT, INVOKE_METHOD, SESSION_CRASHED = 1, 3, 5, 6
TIMEOUT = 10.0


class Served:
    """An ASGI app served by the app's own uvicorn set-up on 127.0.0.1, in a thread."""

    def __init__(self, asgi_app):
        from companion.share.network import web_server

        self.server = web_server(asgi_app)
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.socket]))

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(TIMEOUT)

    def run(self, coroutine) -> Any:
        """Run ``coroutine`` in the server's event loop (where the app's sessions live)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT)

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"


class FletClient:
    """One page's websocket, speaking Flet's protocol as little as a page must: it registers
    and answers the server's method calls (local storage, etc.) with nothing."""

    def __init__(self, served: Served, host: str | None = None, origin: str | None = None):
        headers = {"Host": host or served.base}
        if origin is not None:
            headers["Origin"] = origin
        self.ws = connect(f"ws://127.0.0.1:{served.port}/ws", additional_headers=headers, open_timeout=TIMEOUT).__enter__()
        self.received: list[list] = []

    def send(self, message: list) -> None:
        self.ws.send(b"\x00" + msgpack.packb(message))

    def send_raw(self, data: bytes) -> None:
        self.ws.send(data)

    def register(self, route: str = "/", session_id: str | None = None) -> str:
        """Register as a page at ``route`` (back in session ``session_id``); the session id given."""
        self.send([REGISTER_CLIENT, {"session_id": session_id, "page_name": "", "page": {"route": route, "width": 360, "height": 740}}])
        return self.until(REGISTER_CLIENT)[1]["session_id"]

    def receive(self, timeout: float = TIMEOUT) -> list:
        data = self.ws.recv(timeout=timeout)
        message: list  # [action, body]: a body as Flet's protocol has it
        try:
            message = msgpack.unpackb(data[1:], strict_map_key=False) if data[:1] == b"\x00" else [None, data]
        except ValueError:
            message = [None, data]
        self.received.append(message)
        if message[0] == INVOKE_METHOD:
            body = message[1]
            self.send([INVOKE_METHOD, {"control_id": body["control_id"], "call_id": body["call_id"], "result": None, "error": None}])
        return message

    def until(self, action: int, timeout: float = TIMEOUT) -> list:
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if message[0] == action:
                return message

    def wait_for(self, condition: Callable[[], Any], what: str) -> None:
        """Take and answer what the server sends until ``condition()`` holds."""
        deadline = time.monotonic() + TIMEOUT
        while not condition():
            assert time.monotonic() < deadline, f"never: {what}"
            with contextlib.suppress(TimeoutError):
                self.receive(0.02)

    def drain(self, seconds: float) -> None:
        """Take (and answer) what the server sends for ``seconds``, or until it closes."""
        deadline = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            while time.monotonic() < deadline:
                self.receive(deadline - time.monotonic())

    def close(self) -> None:
        self.ws.close()


def refused(served: Served, **headers) -> bool:
    """Whether a websocket with these headers is turned away before it opens."""
    try:
        FletClient(served, **headers).close()
    except InvalidStatus as err:
        return err.response.status_code == 403
    return False


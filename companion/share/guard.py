"""What the web server lets through to the app (docs/security.md).

``Guard`` wraps the web app (Flet's ASGI app) on every listener:

- a request must name, in its ``Host``, an address the app serves (its own, the share
  address, localhost names), and a browser's ``Origin`` must be that same address: a web
  page from elsewhere, or a name that was made to point at this machine (DNS rebinding),
  cannot drive the app;
- while nothing is shared, only connections to this machine's loopback address are
  served, whatever listener is open;
- a websocket connection (one browser page) is a ``Visit``: it must get in (the app calls
  ``Visit.admit``) within ``WAITING_SECONDS``, at most ``MAX_WAITING`` may wait at once,
  and a visit that ends without getting in is forgotten at once (``forget``), so
  codeless connections cost nothing lasting;
- a device never gets a traceback: Flet sends one to the browser when a handler fails
  (its "session crashed" message); the guard replaces it with one sentence.
- a page is not cross-origin isolated, so that Flutter draws it in one thread, and runs
  scripts of this site only (``page_headers``).

Pure ASGI, no Flet: the app side is in companion.ui.access.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ipaddress
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable
from urllib.parse import urlsplit

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type information

from companion.i18n import _
from companion.share.address import is_loopback

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_WAITING = 32
"""Browser pages that may wait at once for a code (a table is a handful of phones)."""
WAITING_SECONDS = 90.0
"""How long a page may stay without getting in before it is closed (the browser then
reconnects to a fresh join screen by itself)."""
INBOX_LIMIT = 256
"""Messages from a browser the app has not taken yet before the connection is closed."""
LINGER_SECONDS = 2.0
"""How long the app may go on with a connection its browser has left before it is stopped."""
WEBSOCKET_PATH = "/ws"
"""Where Flet's web client opens its websocket (Flet's default, which Companion keeps)."""
SESSION_CRASHED = 6
"""Flet's protocol: the action of the message that shows a failed page to the browser."""


class Visit:
    """One websocket connection, i.e. one browser page, while it lasts."""

    def __init__(self, headers: dict[bytes, bytes] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self.headers = headers or {}
        """The websocket handshake's headers, names in lower case (the page says what its device remembers in a cookie: companion.ui.handshake)."""
        self._ended = asyncio.Event()
        self.admitted = False
        self.gone = False
        """The connection has ended (a page that never got in is then forgotten)."""
        self.page: object | None = None
        """The app's own handle on this visit's page (set by the app), for ``forget``."""

    def admit(self) -> None:
        """The page got in (a code, a device key, or this machine's own user)."""
        self.admitted = True

    def close(self) -> None:
        """End the connection (safe from any thread); the browser reconnects afresh."""
        self._loop.call_soon_threadsafe(self._ended.set)


current_visit: contextvars.ContextVar[Visit | None] = contextvars.ContextVar("companion_visit", default=None)
"""The visit the running code serves: set for the whole of a websocket connection, so
every task the app starts for it (Flet copies the context into them) sees it."""


def host_name(netloc: str) -> str:
    """The host part of ``host[:port]`` (IPv6 in brackets), lower case, without a final dot."""
    try:
        return (urlsplit(f"//{netloc}").hostname or "").rstrip(".")
    except ValueError:  # e.g. an unclosed "[" in an IPv6 address
        return ""


def same_address(name: str, served: str) -> bool:
    """Whether a host name from a request is the address ``served`` (addresses compared as addresses)."""
    try:
        return ipaddress.ip_address(name) == ipaddress.ip_address(served.strip("[]"))
    except ValueError:
        return name == served.lower().rstrip(".")


class Guard:
    """ASGI middleware: see the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        addresses: Callable[[], Iterable[str]],
        sharing: Callable[[], bool],
        forget: Callable[[Visit], Awaitable[None]],
    ):
        self.app = app
        self._addresses = addresses
        self._sharing = sharing
        self._forget = forget
        self._visits: set[Visit] = set()

    @property
    def waiting(self) -> int:
        """Pages connected now that have not got in."""
        return sum(not visit.admitted for visit in self._visits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self._serves(scope):
            await _refuse(scope, send)
            return
        if scope["type"] == "http":
            await self.app(scope, receive, page_headers(send))
            return
        if scope["path"] != WEBSOCKET_PATH:  # no other address takes a websocket
            await send({"type": "websocket.close", "code": 1008})
            return
        if self.waiting >= MAX_WAITING:
            await send({"type": "websocket.close", "code": 1013})  # try again later
            return
        await self._visit(scope, receive, send)

    def _serves(self, scope: Scope) -> bool:
        """Whether the request names an address the app serves, and comes from a page of it."""
        headers = dict(scope.get("headers") or [])
        server = scope.get("server")
        if not self._sharing() and not (server and is_loopback(server[0])):
            return False
        netloc = headers.get(b"host", b"").decode("latin-1")
        name = host_name(netloc)
        if not name or not any(same_address(name, served) for served in self._addresses()):
            return False
        origin = headers.get(b"origin")
        if origin is None:  # not a browser page: nothing another site could make it send
            return True
        try:
            scheme, origin_netloc = urlsplit(origin.decode("latin-1"))[:2]
        except ValueError:
            return False
        return scheme in ("http", "https") and origin_netloc.lower() == netloc.lower()

    async def _visit(self, scope: Scope, receive: Receive, send: Send) -> None:
        visit = Visit(dict(scope.get("headers") or []))
        self._visits.add(visit)
        closed = False  # the connection is closed (by the browser, or here): nothing more goes out

        inbox: asyncio.Queue[Message] = asyncio.Queue()

        async def read_browser() -> None:
            """Read what the browser sends even while the app does not (a Flet connection whose
            page failed to start stops reading): its leaving is always seen."""
            nonlocal closed
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    closed = True
                    visit._ended.set()
                    return
                if inbox.qsize() >= INBOX_LIMIT:  # sent faster than the app takes it, or to an app that stopped
                    visit.close()
                    return
                inbox.put_nowait(message)

        async def receive_from_browser() -> Message:
            if inbox.empty() and not visit._ended.is_set():
                message, ending = asyncio.ensure_future(inbox.get()), asyncio.ensure_future(visit._ended.wait())
                await asyncio.wait((message, ending), return_when=asyncio.FIRST_COMPLETED)
                ending.cancel()
                if message.done():
                    return message.result()
                message.cancel()
            if not inbox.empty():
                return inbox.get_nowait()
            return {"type": "websocket.disconnect", "code": 1000}  # the browser left, or the connection was closed here

        async def send_to_browser(message: Message) -> None:
            nonlocal closed
            if closed:
                return  # the app goes on sending to a page that has gone: nothing to do
            if message["type"] == "websocket.close":
                closed = True
            elif message["type"] == "websocket.send" and message.get("bytes"):
                message = {"type": "websocket.send", "bytes": _without_traceback(message["bytes"])}
            try:
                await send(message)
            except Exception:  # the browser went away meanwhile
                closed = True
                visit._ended.set()

        async def close_unless_admitted() -> None:
            await asyncio.sleep(WAITING_SECONDS)
            if not visit.admitted:
                visit.close()

        token = current_visit.set(visit)
        try:
            serving = asyncio.ensure_future(self.app(scope, receive_from_browser, send_to_browser))
        finally:
            current_visit.reset(token)
        reading = asyncio.ensure_future(read_browser())
        deadline = asyncio.ensure_future(close_unless_admitted())
        ending = asyncio.ensure_future(visit._ended.wait())
        try:
            await asyncio.wait((serving, ending), return_when=asyncio.FIRST_COMPLETED)
            self._visits.discard(visit)  # gone: it waits no more
            visit.gone = True
            if not serving.done():  # the visit has ended: the app gets a moment to tidy up
                await send_to_browser({"type": "websocket.close", "code": 1000})
                await asyncio.wait((serving,), timeout=LINGER_SECONDS)
        finally:
            for task in (serving, reading, deadline, ending):
                task.cancel()
            with contextlib.suppress(BaseException):
                await serving  # its failure was the browser's leaving, or is Flet's to log
            self._visits.discard(visit)
            visit.gone = True
            await send_to_browser({"type": "websocket.close", "code": 1000})
            if not visit.admitted and visit.page is not None:
                await self._forget(visit)


async def _refuse(scope: Scope, send: Send) -> None:
    """Turn away a request for an address the app does not serve: one sentence, nothing else."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})  # before accepting: the browser gets 403
        return
    body = _("Companion does not answer at this address. Open the address Companion shows.").encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _without_traceback(frame: bytes) -> bytes:
    """``frame`` as the browser should get it: Flet's "session crashed" message carries the
    error and its traceback; the browser gets one sentence instead."""
    if frame[:3] != bytes([0x00, 0x92, SESSION_CRASHED]):  # [0x00][msgpack [action, body]]
        return frame
    sentence = _("Something went wrong on this page. Reload the page to go on.")
    packed: bytes = msgpack.packb([SESSION_CRASHED, {"message": sentence}])
    return b"\x00" + packed


EMBEDDER_POLICY = b"cross-origin-embedder-policy"

SCRIPT_POLICY = "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:"
"""The page runs scripts of its own site only (``page_headers``); the offline web app's page
says the same (scripts/build_phone_app.py). 'unsafe-eval' lets browsers that predate
'wasm-unsafe-eval' compile the client's WebAssembly."""


def page_headers(send: Send) -> Send:
    """The headers of what the server sends a browser, changed in two ways.

    - Flet's server sends every page a Cross-Origin-Embedder-Policy beside its Opener-Policy,
      which makes the page cross-origin isolated, and Flutter then draws it in two threads:
      the page's own lays text out while a worker paints. In Flet 1.0.5's client the two
      share Skia's glyph cache unguarded (flutter/flutter#190039): under new text the page's
      memory is corrupted and the page freezes for good, a core spinning. Without the
      embedder policy the page is not isolated, and the renderer draws in the page's thread
      alone. The opener policy stays.
    - Flet's client asks a site on the internet for a script at each start (Rive's
      animation runtime, from cdn.jsdelivr.net; the app shows no Rive animation): that
      site would learn of every start, and a phone would download the runtime each time.
      ``SCRIPT_POLICY`` keeps the browser from asking.
    """

    async def send_changed(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(name, value) for name, value in message.get("headers", []) if name.lower() != EMBEDDER_POLICY]
            headers.append((b"content-security-policy", SCRIPT_POLICY.encode()))
            message = {**message, "headers": headers}
        await send(message)

    return send_changed


UNUSED_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"})
"""What Flet's web app (FastAPI) serves by default and Companion never uses."""


def drop_unused_routes(fastapi_app: Starlette) -> None:
    """Serve nothing the app does not use: the API pages FastAPI adds (Flet's web app is a
    FastAPI app mounted in another) and Flet's sign-in callback go; such an address gets
    the app's page like any unknown one."""
    routes = fastapi_app.router.routes
    routes[:] = [r for r in routes if getattr(r, "path", None) not in UNUSED_PATHS]
    for route in routes:
        mounted: Any = getattr(route, "app", None)  # a mounted app, or a route's endpoint
        if hasattr(mounted, "router"):
            drop_unused_routes(mounted)

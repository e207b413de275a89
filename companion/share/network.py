"""Opening a running app to the local network, and closing it again (Share this table).

An app started without ``--share`` listens on 127.0.0.1 only. Its Share this table page
can open it to the network: a second listener for the same web app, on this machine's
network address and the same port, so that the phones at the table can reach it. Closing
it stops that listener; the app keeps listening on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import socket
from typing import TYPE_CHECKING, Any, Callable

from companion.i18n import _
from companion.share.address import configured_address, is_loopback, lan_address

if TYPE_CHECKING:
    import uvicorn

TRUSTED_PROXY_VARIABLE = "COMPANION_TRUSTED_PROXY"
"""Environment variable: the address(es) of a reverse proxy in front of Companion (comma
separated). Only requests from there may say, in X-Forwarded-For, which client they carry;
without it such headers are ignored, so no client can pass for another (e.g. to get fresh
tries at the code, see companion.share.limiter)."""


def unknown_proxies(value: str) -> list[str]:
    """The entries of a $COMPANION_TRUSTED_PROXY ``value`` that are neither an address nor a
    network: uvicorn would keep each as a name that no request comes from, so the proxy meant
    would not be trusted, without a word. ``*`` alone trusts every client (uvicorn's meaning,
    refused by ``every_client``); beside other entries it is such a name too."""
    entries = _entries(value)
    unknown = []
    for entry in entries if entries != ["*"] else []:
        try:
            (ipaddress.ip_network if "/" in entry else ipaddress.ip_address)(entry)
        except ValueError:
            unknown.append(entry)
    return unknown


def every_client(value: str) -> str | None:
    """The entry of a $COMPANION_TRUSTED_PROXY ``value`` that names every address (``*`` alone,
    ``0.0.0.0/0``, ``::/0``), if any: every client could then say, in X-Forwarded-For, that it
    is another, and get fresh tries at the code as often as it likes."""
    entries = _entries(value)
    if entries == ["*"]:
        return "*"
    for entry in entries:
        try:
            if "/" in entry and ipaddress.ip_network(entry).prefixlen == 0:
                return entry
        except ValueError:
            continue
    return None


def _entries(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def web_server(asgi_app: Callable[..., Any], **options: Any) -> uvicorn.Server:
    """The uvicorn server of each listener of the web app, all configured alike."""
    import uvicorn

    trusted = os.environ.get(TRUSTED_PROXY_VARIABLE, "").strip()
    config = uvicorn.Config(
        asgi_app,
        log_level="critical",  # quiet, as under Flet's own server: a tab closing mid-message is no news
        ws="websockets-sansio",
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        server_header=False,
        **options,
    )
    return uvicorn.Server(config)


def share_address() -> str | None:
    """Where the phones reach this machine: $COMPANION_SHARE_ADDRESS, else its network
    address; None when it is on no network."""
    configured = configured_address()
    if configured:
        return configured
    found = lan_address()
    return None if is_loopback(found) else found


class NetworkError(Exception):
    """The app cannot be opened to the network; ``message`` says why, in the host's words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; NetworkError saying why in the user's words when it cannot be."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listening = socket.create_server((host, port), family=family, backlog=128)
    except OSError as err:
        # a name not found (the socket library passes on getaddrinfo's codes, which are
        # negative: their text is "Unknown error -2"), or an address of another machine
        if (err.errno or 0) < 0 or err.errno == errno.EADDRNOTAVAIL:
            reason = _("this machine has no such address")
        else:
            reason = os.strerror(err.errno) if err.errno else str(err)
        raise NetworkError(
            _("Companion cannot listen on {address} port {port}: {reason}").format(address=host, port=port, reason=reason)
        ) from err
    return listening


async def started(server: uvicorn.Server, serving: asyncio.Task[None]) -> bool:
    """Whether a uvicorn ``server``, serving in the task ``serving``, has started; False when
    it stopped before it did."""
    while not server.started:
        if serving.done():
            return False
        await asyncio.sleep(0.01)
    return True


class NetworkListener:
    """The optional second listener of a running web app (an ASGI app served by uvicorn)."""

    def __init__(self, asgi_app: Callable[..., Any], port: int, address: Callable[[], str | None] = share_address):
        self._asgi_app = asgi_app
        self.port = port
        self._address = address
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.address: str | None = None
        """Where it listens while open; None while closed."""
        self._changing = asyncio.Lock()  # two taps on Share: one listener

    @property
    def is_open(self) -> bool:
        return self.address is not None

    async def open(self) -> str:
        """Listen on the network address too; the address. NetworkError when it cannot."""
        async with self._changing:
            if self.address is None:
                self.address = await self._start()
            return self.address

    async def close(self) -> None:
        """Stop listening on the network address; the phones joined through it are cut off."""
        async with self._changing:
            if self._server is not None and self._task is not None:
                self._server.should_exit = True
                await self._task
                self._server = self._task = self.address = None

    async def _start(self) -> str:
        address = self._address()
        if address is None:
            raise NetworkError(
                _("This computer is not connected to a network, so the phones cannot reach it. "
                  "Connect it to the Wi-Fi the phones use and try again.")
            )
        listening = bind(address, self.port)
        # No lifespan: the app's start and stop belong to its first listener, not to this one.
        self._server = server = web_server(self._asgi_app, lifespan="off")
        self._task = task = asyncio.create_task(server.serve(sockets=[listening]))
        if not await started(server, task):
            self._server = self._task = None
            raise NetworkError(_("Companion could not listen on {address}.").format(address=address))
        return address

_listener: NetworkListener | None = None


def set_listener(listener: NetworkListener | None) -> None:
    """The running app's NetworkListener; None where it cannot open itself to the network
    (a desktop window, or an app already listening on the network with ``--share``)."""
    global _listener
    _listener = listener


def listener() -> NetworkListener | None:
    return _listener

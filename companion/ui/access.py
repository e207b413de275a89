"""Who reaches the running web app: the guard around Flet's web app (companion.share.guard)
told what this app serves, and the one place that ends a Flet session for good.

Flet keeps a browser's session for an hour after the browser goes away and gives it back
to any connection that names its id. A session that must not come back (a page that never
got in, a device that left the table when sharing stopped) is taken out of Flet's registry
here, so its browser's next connection starts afresh, at the join screen.
"""

from __future__ import annotations

import flet as ft

from companion.share import guard, network
from companion.share.address import ALL_INTERFACES, configured_address

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def guarded(web_app, host: str):
    """Flet's web app as every listener serves it (see companion.share.guard)."""
    guard.drop_unused_routes(web_app)
    return guard.Guard(web_app, lambda: served_addresses(host), sharing, _forget_visit)


def served_addresses(host: str) -> set[str]:
    """The addresses a request may name: this machine's names, the address the app listens
    on, the share address while shared, and $COMPANION_SHARE_ADDRESS."""
    from companion.share.sharing import current_table  # with the QR code maker: not before the server listens

    addresses = set(LOCAL_NAMES)
    if host not in ALL_INTERFACES:
        addresses.add(host)
    listener = network.listener()
    if listener is not None and listener.address:
        addresses.add(listener.address)
    table = current_table()
    if table is not None:
        addresses.add(table.invitation.address)
    configured = configured_address()
    if configured:
        addresses.add(configured)
    return addresses


def sharing() -> bool:
    from companion.share.sharing import current_table

    return current_table() is not None


def arrived(page: ft.Page) -> None:
    """A page started: its visit (connection) knows it, to forget it if it never gets in."""
    visit = guard.current_visit.get()
    if visit is not None:
        visit.page = page


def left(visit: guard.Visit | None) -> bool:
    """Whether the page of ``visit`` went before it got in: it is forgotten, nothing more to show it."""
    return visit is not None and visit.gone and not visit.admitted


async def _forget_visit(visit: guard.Visit) -> None:
    if isinstance(visit.page, ft.Page):
        await forget(visit.page)


async def forget(page: ft.Page) -> None:
    """End ``page``'s Flet session for good: a browser naming its id gets a new session.

    flet_web 1.0.5 offers no public way to find a session's key in its registry, so the
    registry is searched for the page's session (tests/share/test_access.py sees this hold).
    """
    from flet_web.fastapi.flet_app_manager import app_manager  # type: ignore[import-untyped]  # flet-web ships no type information

    sessions = app_manager._FletAppManager__sessions
    for key, session in list(sessions.items()):
        if session is page.session:
            await app_manager.delete_session(key)

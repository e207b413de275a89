"""Keeping a browser page whole across a lost connection.

Flet keeps a session for an hour after its browser goes away (a locked phone, a Wi-Fi
hiccup, a reload) and the browser reconnects to it by itself. Two things are needed then:

- whatever changed elsewhere meanwhile is read again: the session's ``on_back`` does that
  (companion.ui.session reloads the page from the store);
- with Flet 1.0.5, a browser that reconnects to a page that did not change while it was
  away takes no update afterwards: it would show that page forever. So the page always
  changes while away: it gets a notice that the connection was lost, taken off when back.

``watch(page)`` comes first in ``main``, so that a connection lost while the session is
still starting is covered too.
"""

from __future__ import annotations

from typing import Callable

import flet as ft

from companion.i18n import _

KEY = "companion.connection"
"""Key of the page's ConnectionWatch in its session's store."""


def connected(page: ft.Page) -> bool:
    """Whether the page's browser is connected (Flet forgets the session of one gone for good)."""
    try:
        return page.session.connection is not None
    except RuntimeError:
        return False


class ConnectionWatch:
    """Marks the page while its browser is away and calls ``on_away`` / ``on_back``."""

    def __init__(self, page: ft.Page):
        self.page = page
        self.on_away: Callable[[], None] | None = None
        self.on_back: Callable[[], None] | None = None
        self.notice: ft.Control | None = None
        page.on_disconnect = self._away
        page.on_connect = self._back
        page.session.store.set(KEY, self)

    def _away(self) -> None:
        if self.on_away:
            self.on_away()
        self.notice = ft.Container(
            ft.Text(_("Connection lost. Catching up…"), color=ft.Colors.ON_TERTIARY_CONTAINER),
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
            border_radius=16,
            padding=ft.Padding.symmetric(horizontal=16, vertical=8),
            top=8,
            left=8,
        )
        self.page.overlay.append(self.notice)
        self.page.update()

    def _back(self) -> None:
        if self.notice in self.page.overlay:
            self.page.overlay.remove(self.notice)
        self.notice = None
        if self.on_back:
            self.on_back()
        self.page.update()


def ids_apart_from_other_processes() -> None:
    """Number this process's controls from a random point of its own.

    Flet numbers controls from one counter per process, starting at 3; a forked club
    worker, or a server started again, counts exactly as the process before it did. A
    browser whose process died reconnects to a new one, which starts a new session and
    sends its page over the controls still on the screen; where a new control has the id
    of an old one the browser can mix them up: the device's storage then never answered
    (the device was asked for its code again). Ids from far apart ranges never meet.
    """
    import itertools
    import secrets

    from flet.controls.id_counter import ControlId

    ControlId._counter = itertools.count(CONTROL_IDS_FROM + secrets.randbelow(CONTROL_IDS_SPREAD))


CONTROL_IDS_FROM = 1 << 20
CONTROL_IDS_SPREAD = 1 << 30
"""A process's first control id is somewhere in [2**20, 2**20 + 2**30): far beyond the few
ids Flet gives out at import, and within 31 bits for any client."""


def watch(page: ft.Page) -> ConnectionWatch:
    """The page's watch, made now if need be (see the module docstring)."""
    return page.session.store.get(KEY) or ConnectionWatch(page)

"""Controls built once and kept in step with a plain state object.

Each block registers a small sync function that copies the state onto its controls; an
intent handler changes the state and re-runs every sync, and the update after the handler
sends the changes (of ``root`` alone when one is set, else Flet's automatic update of the
whole page). Controls stay in place, so a text field never loses focus while the player
types and fast taps are never lost to a rebuild.
"""

from __future__ import annotations

from typing import Callable

import flet as ft

from companion.ui.widgets import tagged


class SyncedControls:
    """The sync functions of one screen or form, and the intents that re-run them."""

    def __init__(self):
        self._syncs: list[Callable[[], None]] = []
        self.root: ft.Control | None = None
        """The control that holds every control a sync changes, once it is on a page: an
        intent then updates it alone. Flet's automatic update after a handler compares the
        whole page, every page on the stack beneath too: 7 to 29 ms of the server for each
        key of a round-entry keypad."""

    def bind(self, sync: Callable[[], None]) -> None:
        """Run ``sync`` now and after every intent."""
        self._syncs.append(sync)
        sync()

    def intent(self, change: Callable[[], None]) -> Callable:
        """An event handler that applies ``change`` to the state and refreshes the controls."""

        def handler(e=None):
            change()
            self.refresh()
            root = self.root
            page = shown_on(root) if root is not None else None
            if page is not None:
                page.update(root)

        return handler

    def refresh(self) -> None:
        for sync in self._syncs:
            sync()

    def switch(self, label: str, identifier: str, value: Callable[[], bool], flip: Callable[[], None]) -> ft.Control:
        """A switch that shows ``value()`` and calls ``flip`` when turned."""


        control = ft.Switch(label=label, on_change=self.intent(flip))

        def sync():
            control.value = value()

        self.bind(sync)
        return tagged(control, identifier)


def shown_on(control: ft.BaseControl) -> ft.Page | None:
    """The page ``control`` is shown on, if any (taken off it, it is in no page's index)."""
    try:
        page = control.page  # Flet's walk up the parents
    except RuntimeError:  # on no page
        return None
    return page if page.session.index.get(control._i) is control else None

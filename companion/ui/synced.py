"""Controls built once and kept in step with a plain state object.

Each block registers a small sync function that copies the state onto its controls; an
intent handler changes the state and re-runs every sync, and the update after the handler
sends the changes (the controls in ``root`` that changed, when it is set, else Flet's
automatic update of the whole page). Controls stay in place, so a text field never loses
focus while the player types and fast taps are never lost to a rebuild.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import flet as ft

from companion.ui.together import update_together
from companion.ui.widgets import tagged


class SyncedControls:
    """The sync functions of one screen or form, and the intents that re-run them."""

    def __init__(self):
        self._syncs: list[Callable[[], None]] = []
        self.on_change: Callable[[], None] | None = None
        """Told after every intent, once the controls show it (a round's form: its draft kept on the device)."""
        self.root: ft.Control | None = None
        """The control that holds every control a sync changes, once it is on a page: an
        intent then updates what changed in it (``unsent``). Flet's automatic update after a
        handler compares the whole page, every page on the stack beneath too: 7 to 29 ms of
        the server for each key of a round-entry keypad."""

    def bind(self, sync: Callable[[], None]) -> None:
        """Run ``sync`` now and after every intent. A sync gives fields new values; it does
        not change a list or value object in place (``unsent`` would not see it)."""
        self._syncs.append(sync)
        sync()

    def intent(self, change: Callable[[], None]) -> Callable:
        """An event handler that applies ``change`` to the state and refreshes the controls."""

        def handler(e=None):
            change()
            self.refresh()
            if self.on_change is not None:
                self.on_change()
            root = self.root
            page = shown_on(root) if root is not None else None
            if page is None:
                return
            to_send = unsent(root)
            if to_send:
                update_together(page, to_send)
            else:  # nothing changed: nothing to send, and no automatic update comparing the whole page
                ft.context.mark_update_called()

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


def unsent(root: ft.BaseControl) -> list[ft.BaseControl]:
    """The controls in ``root`` (itself included) with a change not yet sent, the topmost of
    each branch: updating these sends what the syncs changed, where updating ``root`` had
    Flet compare every control of the form at every tap (on the largest of the forms, 385
    controls: 71,000 Python calls a tap). Syncs assign: a list or value object changed in place
    would go unseen (a test taps through every form and compares it whole afterwards)."""
    found: list[ft.BaseControl] = []
    waiting: list[Any] = [root]
    seen: set[int] = set()  # an object shared by two controls, or noted twice, is looked at once
    while waiting:
        item = waiting.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, ft.BaseControl) and changed(item):
            found.append(item)
            continue
        for children in getattr(item, "__prev_lists", {}).values():
            waiting.extend(children)
        waiting.extend(getattr(item, "__prev_classes", {}).values())
        for children in getattr(item, "__prev_dicts", {}).values():
            waiting.extend(children.values())
    return found


def changed(control: ft.BaseControl) -> bool:
    """Whether ``control`` differs from what was last sent of it: a field given a new value
    (Flet's ``_dirty``), or a list, dict or object in it that is not the one Flet's encoder
    noted when it sent it (``__prev_*``; see ``differs``). A control never sent is part of
    a changed one."""
    if getattr(control, "_dirty", None):
        return True
    lists = getattr(control, "__prev_lists", None)
    if lists is None:
        return False
    classes, dicts = getattr(control, "__prev_classes", {}), getattr(control, "__prev_dicts", {})
    for name, sent in lists.items():
        now = getattr(control, name)
        if not isinstance(now, list) or len(now) != len(sent):
            return True
        for item, was in zip(now, sent):
            if item is not was and differs(item, was):
                return True
    for name, sent in classes.items():
        if getattr(control, name) is not sent:
            return True
    for name, sent in dicts.items():
        now = getattr(control, name)
        if not isinstance(now, dict) or now.keys() != sent.keys():
            return True
        for key, was in sent.items():
            if now[key] is not was and differs(now[key], was):
                return True
    for name in getattr(type(control), "_structural_fields", ()):
        if name not in lists and name not in classes and name not in dicts:
            now = getattr(control, name)  # a list, dict or object given since (scalars such as _i are not noted)
            if (isinstance(now, (list, dict)) and now) or dataclasses.is_dataclass(now):
                return True
    return False


def differs(now: Any, sent: Any) -> bool:
    """Whether an item of a list or dict, not the one sent, differs from it: another control
    or object (an equal one too: Flet sends it as new), or a plain value that is not equal."""
    return dataclasses.is_dataclass(now) or dataclasses.is_dataclass(sent) or now != sent


def shown_on(control: ft.BaseControl) -> ft.Page | None:
    """The page ``control`` is shown on, if any (taken off it, it is in no page's index)."""
    try:
        page = control.page  # Flet's walk up the parents
    except RuntimeError:  # on no page
        return None
    return page if page.session.index.get(control._i) is control else None

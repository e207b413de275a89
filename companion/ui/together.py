"""Several controls' changes sent to the browser as one message.

Flet's ``page.update(a, b, c)`` sends each control's changes as a message of its own, and a
browser takes them in between frames: a viewer's scoreboard, its parts sent as six
messages, was drawn three times for one saved round (a trace of one viewer's page: frames
of 58, 26 and 25 ms of its renderer's time, docs/sharing.md, "The top of the board first").
Here each control is compared just as Flet compares it on its own, and all their changes go
as one patch of the control that holds them all: one message, drawn in one go.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import Message, MessageAction, PatchControlBody


def update_together(page: ft.Page, controls: Sequence[ft.Control]) -> None:
    """Send the changes of ``controls`` (shown on ``page``, none inside another one's
    compared part) to the browser in one message; as ``page.update(*controls)`` where they
    have no common holder on the page or the device is not connected."""
    session = page.session
    placed = places(controls) if len(controls) > 1 and session.connection is not None else None
    if placed is None:
        page.update(*controls)
        return
    root, paths = placed
    ft.context.mark_update_called()  # as page.update: the handler's automatic update of the whole page is not needed
    ops: list[Any] = []
    added: list[BaseControl] = []
    removed: list[BaseControl] = []
    for control, path in zip(controls, paths):
        patch, came, went = ObjectPatch.from_diff(control, control, control_cls=BaseControl, path=path)
        ops.extend(patch.patch)
        added.extend(came)
        removed.extend(went)
    if ops:
        session.connection.send_message(Message(MessageAction.PATCH_CONTROL, PatchControlBody(root._i, ObjectPatch(ops).to_message())))
    _note(session.index, added, removed)


def places(controls: Sequence[BaseControl]) -> tuple[BaseControl, list[list[Any]]] | None:
    """The innermost control that holds all of ``controls``, and the path from it to each (as
    Flet's patches name a place: field names and list positions); None when they are not
    all on one page."""
    chains = [ancestors(control) for control in controls]
    common = set.intersection(*(set(map(id, chain)) for chain in chains))
    root = next((holder for holder in chains[0] if id(holder) in common), None)
    if root is None:
        return None
    paths = []
    for chain in chains:
        path: list[Any] = []
        for child, holder in zip(chain, chain[1:]):
            if child is root:
                break
            place = place_in(holder, child)
            if place is None:
                return None
            path[:0] = place
        paths.append(path)
    return root, paths


def ancestors(control: BaseControl) -> list[BaseControl]:
    """``control`` and the controls that hold it, innermost first, up to the page."""
    chain = [control]
    while (holder := chain[-1].parent) is not None:
        chain.append(holder)
    return chain


def place_in(holder: BaseControl, child: BaseControl) -> list[Any] | None:
    """Where ``holder`` keeps ``child``: a field, or a field and a list position. The fields
    Flet noted holding a control or a list when it last sent ``holder`` are looked at first:
    a control has some seventy fields, and a change's controls sit ten deep in a page."""
    noted = [*getattr(holder, "__prev_classes", {}), *getattr(holder, "__prev_lists", {})]
    return _place_among(holder, child, noted) or _place_among(holder, child, [field.name for field in dataclasses.fields(holder)])


def _place_among(holder: BaseControl, child: BaseControl, names: list[str]) -> list[Any] | None:
    for name in names:
        value = getattr(holder, name, None)
        if value is child:
            return [name]
        if isinstance(value, list):
            for position, item in enumerate(value):
                if item is child:
                    return [name, position]
    return None


def _note(index: Any, added: list[BaseControl], removed: list[BaseControl]) -> None:
    """Keep the session's index of controls as ``Session.patch_control`` keeps it: every
    control added is in it before any is told it was mounted, so that an event from the
    browser finds the control it names."""
    for control in removed:
        index.pop(control._i, None)
    for control in added:
        index[control._i] = control
    added_ids = {control._i for control in added}
    removed_ids = {control._i for control in removed}
    for control in removed:
        if control._i not in added_ids:
            control.will_unmount()
    for control in added:
        if control._i not in removed_ids:
            control.did_mount()

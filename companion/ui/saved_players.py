"""The saved players (profiles in the store) offered as chips wherever players are named:
New game's table, a club evening's players and its late arrivals."""

from __future__ import annotations

from typing import Callable, Sequence

import flet as ft

from companion.store import StoreError
from companion.ui import widgets


def saved_players(app) -> list[str]:
    """The saved profiles' names; none while the store cannot be read."""
    try:
        return [p.name for p in app.store.players()]
    except StoreError:
        return []


def saved_chips(names: Sequence[str], pick: Callable[[str], None]) -> list[ft.Control]:
    """A chip per saved player not yet chosen (``saved-<name>``); a tap picks that player."""
    return [
        widgets.tagged(
            ft.Chip(label=ft.Text(name), leading=ft.Icon(ft.Icons.ADD, size=16), on_click=lambda _e=None, n=name: pick(n)),
            f"saved-{name}",
        )
        for name in names
    ]

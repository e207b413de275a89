"""The rules reference screen: every game's rules in the app's language, searchable.

``reference_view(ruleset_id=None, options=None)`` returns the screen's content. With a
``ruleset_id`` it opens that game's rules; with that game's ``options`` (e.g.
``game.options`` from the scoreboard) the passages explaining them are highlighted and
show how the game is set. The search field finds every passage of every game that
mentions a term, ignoring case and accents.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):
``reference-search`` the search field, ``reference-game-<id>`` the game picker,
``reference-summary`` the line above the passages, ``reference-passage-<game>-<id>``
each passage (``<game>`` a ruleset id, ``<id>`` the passage's heading id), with
``reference-setting-<game>-<option>`` on a highlighted option's setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import flet as ft

from companion.i18n import _
from companion.ui.referee.widgets import Binder
from companion.ui.reference.state import ReferenceState, ShownPassage

__all__ = ["reference_view", "ReferenceState"]


def reference_view(ruleset_id: str | None = None, options: Mapping[str, Any] | None = None) -> ft.Control:
    """The searchable rules reference, opened on ``ruleset_id`` with ``options`` highlighted."""
    return view(ReferenceState(ruleset_id, options))


def view(state: ReferenceState) -> ft.Control:
    """Search field and game picker stay put; the passages below follow the state."""
    screen = Binder()
    search = ft.TextField(label=_("Search the rules"), prefix_icon=ft.Icons.SEARCH)
    def searched(e: ft.Event[ft.TextField]) -> None:
        state.set_query(e.control.value)
        screen.refresh()

    search.on_change = searched
    summary = ft.Text(weight=ft.FontWeight.W_600, size=18)

    def sync():
        search.value = state.query
        summary.value = state.summary()

    screen.bind(sync)
    return ft.Column(
        [
            ft.Semantics(content=search, identifier="reference-search"),
            screen.choice(state.games, lambda: "" if state.searching else state.game, state.choose_game, "reference-game"),
            ft.Semantics(content=summary, identifier="reference-summary"),
            screen.section(lambda: [_passage(shown, state.searching) for shown in state.passages()]),
        ],
        spacing=12,
    )


def _passage(shown: ShownPassage, searching: bool) -> ft.Control:
    passage = shown.passage
    lines: list[ft.Control] = []
    if searching:
        lines.append(ft.Text(shown.game, size=12, color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_600))
    lines.append(ft.Text(passage.title, size=17, weight=ft.FontWeight.W_600))
    if shown.setting:
        lines.append(
            ft.Semantics(
                content=ft.Container(
                    ft.Text(shown.setting, size=12, weight=ft.FontWeight.W_600, color=ft.Colors.ON_TERTIARY_CONTAINER),
                    bgcolor=ft.Colors.TERTIARY_CONTAINER,
                    border_radius=12,
                    padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                ),
                identifier=f"reference-setting-{passage.ruleset_id}-{passage.option}",
            )
        )
    lines.append(ft.Markdown(value=passage.body, extension_set=ft.MarkdownExtensionSet.GITHUB_FLAVORED))
    highlighted = shown.highlighted
    return ft.Semantics(
        content=ft.Container(
            ft.Column(lines, spacing=6),
            padding=16,
            border_radius=12,
            bgcolor=ft.Colors.SECONDARY_CONTAINER if highlighted else ft.Colors.SURFACE_CONTAINER_LOW,
            border=ft.Border.all(2, ft.Colors.TERTIARY) if highlighted else None,
        ),
        identifier=f"reference-passage-{passage.ruleset_id}-{passage.id}",
    )

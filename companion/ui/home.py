"""Home: the games in progress (tap to resume) and the ways into the rest of the app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable

import flet as ft

from companion.i18n import _
from companion.store import StoreError
from companion.ui import widgets
from companion.ui.routes import Page, Route
from companion.ui.share_panel import share_action
from companion.ui.summary import GameCard, game_card


class HomeState:
    """The in-progress list, newest first, or the store's complaint if it cannot be read.

    ``can_start`` is false on a viewer's device at a shared table: it may follow games but
    not start one, so it is neither offered nor invited to.
    """

    def __init__(
        self, store, now: Callable[[], datetime] = lambda: datetime.now().astimezone(), can_start: bool = True
    ):
        self._store = store
        self._now = now
        self.can_start = can_start
        self.games: list[GameCard] = []
        self.error: str | None = None
        self.loaded = False

    def load(self) -> None:
        self.loaded = True
        try:
            summaries = self._store.in_progress()
        except StoreError as err:
            self.games, self.error = [], err.message
            return
        now = self._now()
        self.games = [game_card(s, now) for s in summaries]
        self.error = None

    @property
    def empty_message(self) -> str | None:
        if not self.loaded or self.games or self.error:
            return None
        if not self.can_start:
            return _("No games in progress.")
        return _("No games in progress. Start one with New game.")


def show(app) -> ft.View:
    state = HomeState(app.store, can_start=app.device.may_change(None))
    if app.store_open:  # else the list follows when it opens (App.store_opened)
        state.load()
    return view(app, state)


def view(app, state: HomeState) -> ft.View:
    body: list[ft.Control] = []
    if state.can_start:
        body.append(
            widgets.tagged(
                widgets.SteadyFilledButton(
                    _("New game"),
                    icon=ft.Icons.ADD,
                    on_click=lambda: app.go("/new"),
                    style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=24, vertical=18)),
                    expand=True,
                ),
                "new-game",
            )
        )
    body.append(widgets.section_title(_("In progress")))
    games = ft.Column(_games(app, state), spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    body.append(games)
    more = ft.Column(_more(app) if state.loaded else [], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    body.append(more)
    page_view = widgets.screen(app, "/", _("Companion"), body, home=True, actions=[share_action(app)])
    page_view.data = HomeParts(games, more, state.can_start)
    return page_view


def _more(app) -> list[ft.Control]:
    return [
        widgets.section_title(_("More")),
        ft.Card(
            content=ft.Column(
                [
                    _nav_tile(app, ft.Icons.HISTORY, _("History"), _("Finished and abandoned games"), "/history"),
                    _nav_tile(app, ft.Icons.PEOPLE, _("Players"), _("Profiles and statistics"), "/players"),
                    _nav_tile(app, ft.Icons.EMOJI_EVENTS, _("Club evenings"), _("Many tables, one ranking"), "/event"),
                    _nav_tile(app, ft.Icons.MENU_BOOK, _("Rules"), _("Look up a rule, settle a dispute"), "/rules"),
                    _nav_tile(app, ft.Icons.SETTINGS, _("Settings"), _("Language and theme"), "/settings"),
                ],
                spacing=0,
            ),
        ),
    ]


@dataclass(frozen=True)
class HomeParts:
    """What ``fill`` and ``complete`` change in a home page, and whom it was built for."""

    games: ft.Column
    more: ft.Column
    can_start: bool


def can_fill(app, page_view: ft.View) -> bool:
    """Whether ``fill`` brings this home page up to date: it was built for the device's
    present rights, and the store is open to read the list from."""
    return app.store_open and isinstance(page_view.data, HomeParts) and page_view.data.can_start == app.device.may_change(None)


def fill(app, page_view: ft.View) -> None:
    """List the games in progress again in a home page already shown (the store has just
    opened, or a game changed). Only that list changes, so a tap on New game at that
    very moment is not lost."""
    state = HomeState(app.store, can_start=app.device.may_change(None))
    state.load()
    page_view.data.games.controls = _games(app, state)
    complete(app, page_view)


def complete(app, page_view: ft.View) -> None:
    """Add the More section to a home page drawn before the store opened, whose first frame
    went without it (``fill`` brings it with the list, ``App.store_opening`` before it on the
    phone's own app): without the section's five rows the frame that shows New game is drawn
    sooner (docs/performance.md)."""
    parts = page_view.data
    if isinstance(parts, HomeParts) and not parts.more.controls:
        parts.more.controls = _more(app)


def _games(app, state: HomeState) -> list[ft.Control]:
    """The in-progress section: the games, or why there are none, or a placeholder until the store is open."""
    if state.error:
        return [widgets.error_banner(state.error)]
    if not state.loaded:
        return [
            ft.Container(
                content=ft.ProgressRing(width=24, height=24, stroke_width=3),
                alignment=ft.Alignment.CENTER,
                padding=16,
                on_size_change=app.page_drawn,  # the browser has laid it out
            )
        ]
    if state.empty_message:
        return [widgets.tagged(widgets.empty_state(ft.Icons.STYLE, state.empty_message), "no-games")]
    return [
        widgets.game_tile(card, lambda _e=None, gid=card.game_id: app.go(Route(Page.GAME, game_id=gid).path), icon=ft.Icons.PLAY_ARROW)
        for card in state.games
    ]


def _nav_tile(app, icon, title: str, subtitle: str, route: str) -> ft.Control:
    return widgets.tagged(
        ft.ListTile(
            leading=ft.Icon(icon, color=ft.Colors.PRIMARY),
            title=ft.Text(title),
            subtitle=ft.Text(subtitle),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda: app.go(route),
        ),
        "nav-" + route.strip("/"),
    )

"""Home: the games in progress (tap to resume) and the ways into the rest of the app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Callable

import flet as ft

from companion.i18n import _
from companion.store import StoreError
from companion.ui import widgets
from companion.ui.routes import Page, Route
from companion.ui.share_panel import share_action
from companion.ui.summary import GameCard, game_card

if TYPE_CHECKING:
    from companion.ui.new_game import NewGameScreen


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


def show(app, listed: bool = True) -> ft.View:
    """Home's page; not ``listed``, its frame without the games in progress (home beneath a
    page a device opened first, e.g. a table's game: its list is read again, ``fill``, when
    home comes on top, so it is not built for every device that joins a club evening)."""
    state = HomeState(app.store, can_start=app.device.may_change(None))
    if app.store_open and listed:  # else the list follows when it opens (App.store_opened) or home is shown
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
    share = share_action(app)
    page_view = widgets.screen(app, "/", _("Companion"), [], home=True, actions=[share])
    layers = Layers(app, page_view, body, share) if state.can_start else None
    if layers is None:
        widgets.set_body(page_view, body)
    page_view.data = HomeParts(games, more, layers)
    return page_view


class Layers:
    """Home's page with a New game screen built under it once home is drawn. A tap on New
    game uncovers it, which costs the browser a repaint; a page of its own would first be
    built and laid out (75 ms against 228 ms, docs/performance.md). The covered layer takes
    no taps, no keyboard focus and nothing of the screen reader's. Back covers New game
    again, and a fresh one is built under home."""

    def __init__(self, app, page_view: ft.View, body: list[ft.Control], share: ft.Control):
        self.app = app
        self.view = page_view
        self.share = share
        self.back = widgets.back_button(app)
        # on the column: a layer is positioned in the stack, and a wrapper that reports its
        # size would come between it and the stack (Flutter then draws nothing)
        self.home_column = ft.Column([widgets.constrained(body)], scroll=ft.ScrollMode.AUTO, on_size_change=self._drawn)
        self.home_held = widgets.Deferred(self.home_column)
        self.home_content = ft.Semantics(content=self.home_held)
        self.home = _layer(self.home_content)
        self.stack = ft.Stack([self.home], expand=True)
        page_view.controls = [self.stack]
        page_view.scroll = None
        self.new_game: NewGameScreen | None = None
        self.under_held = widgets.Deferred()
        self.under_content = ft.Semantics(content=self.under_held)
        self.under = _layer(self.under_content)
        _cover(self.under, self.under_content, covered=True)
        self.uncovered = False

    def _drawn(self) -> None:
        """Home is laid out (or resized): build New game under it if it is not there yet."""
        if self.new_game is not None:
            ft.context.disable_auto_update()
            return
        self.prepare()

    def prepare(self) -> None:
        """A fresh New game screen, under home (covered: see ``_show``)."""
        from companion.ui import new_game  # LATER_SCREENS: not on the first page's path

        self.new_game = new_game.prepared(self.app, own_page=False)
        # Start's bar is built with the layer, not set as the page's bottom bar when
        # uncovered: a tap then waits for no building (71 ms against 126 ms, docs/performance.md)
        self.under_held.content = self.new_game.layout
        self.stack.controls = [self.under, self.home]

    def uncover(self) -> bool:
        """Show the New game screen built under home; False when it is not built yet.

        Only the page's bar and the layers' switches change, so what the layers hold is not
        compared: that took the server 8 to 11 ms of the tap's answer (docs/performance.md)."""
        if self.new_game is None:
            return False
        if not self.uncovered:
            self.uncovered = True
            self._show(new_game=True)
            with widgets.held([self.home_held, self.under_held]):
                self.app.page.update(self.view)
        return True

    def cover(self) -> None:
        """Show home again; a fresh New game screen follows under it, in the next message,
        so that home is drawn first."""
        if not self.uncovered:
            return
        self.uncovered = False
        self._show(new_game=False)
        self.new_game = None
        self.app.page.run_task(self._prepare_again)

    async def _prepare_again(self) -> None:
        if self.new_game is None and not self.uncovered:
            self.prepare()
            self.stack.update()

    async def _back(self) -> None:
        """A phone's back gesture on New game: home, and the gesture itself is let go."""
        self.app.back()
        await self.view.confirm_pop(False)

    def _show(self, new_game: bool) -> None:
        widgets.set_title(self.view, _("New game") if new_game else _("Companion"))
        bar = widgets.app_bar(self.view)
        bar.leading = self.back if new_game else None
        self.share.visible = not new_game
        self.view.can_pop = not new_game  # a phone's back gesture goes back to home, not out of the app
        self.view.on_confirm_pop = self._back if new_game else None
        self.home.opacity = 0 if new_game else 1
        _cover(self.home, self.home_content, covered=new_game)
        _cover(self.under, self.under_content, covered=not new_game)


def _layer(content: ft.Control) -> ft.Container:
    """A layer of home's page: it fills the page, and hides what lies under it."""
    return ft.Container(content, bgcolor=ft.Colors.SURFACE, left=0, top=0, right=0, bottom=0, opacity=1)


def _cover(layer: ft.Container, content: ft.Semantics, covered: bool) -> None:
    """A covered layer takes no taps, no keyboard focus and nothing of the screen reader's."""
    layer.ignore_interactions = layer.disabled = content.exclude_semantics = covered


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
    layers: Layers | None
    """None on a viewer's home, which offers no New game."""

    @property
    def can_start(self) -> bool:
        return self.layers is not None


def layers_of(page_view: ft.View | None) -> Layers | None:
    """The layers of a home page (None for any other page, or a viewer's home)."""
    parts = page_view.data if page_view is not None else None
    return parts.layers if isinstance(parts, HomeParts) else None


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
    parts = page_view.data
    parts.games.controls = _games(app, state)
    complete(app, page_view)
    if parts.layers is not None:
        parts.layers.cover()
        if parts.layers.new_game is not None:
            from companion.ui import new_game  # LATER_SCREENS

            new_game.fill(app, parts.layers.new_game)


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

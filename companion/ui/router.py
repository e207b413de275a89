"""One browser session: which page each route shows, the theme switch, its language, short messages.

Routes (the back arrow and the browser's back button both walk down the stack):

    /                        home
    /new                     new game
    /game/<id>               scoreboard of a game
    /game/<id>/round         enter the next round (same page as the scoreboard)
    /game/<id>/round/<i>     correct round i, counted from 0 (same page)
    /history, /history/<id>  finished games; a game opened from here is read-only
    /players, /players/<name>
    /share                   Share this table: QR code, address, the joined devices
    /table, /table/<id>      table view for a TV: the newest game in progress, or game <id>
    /rules, /rules/<ruleset>/referee
    <game>/rules, <game>/referee   a game's rules (its options highlighted) or its referee,
                             where <game> is /game/<id> or /history/<id>
    /settings                language and theme of this device
"""

from __future__ import annotations

import threading
from typing import Callable

import flet as ft

from companion.rules import IDS
from companion.i18n import _
from companion.share.table import Device
from companion.ui import home, settings, share, widgets
from companion.ui.scoreboard import GameScreen, ScoreboardState

THEME_KEY = "companion.theme"

LATER_SCREENS = ("history", "new_game", "players", "rulesets")
"""Screens imported when first shown, or in the background once the first page is up
(companion.ui.app.load_later): importing them before it would hold back the first page."""


ROUTE_NUMBER_DIGITS = 20
"""The most digits a game id or round number in an address can have (ids stay below 2^63,
19 digits); a longer number is no address of ours, and ``int`` need not read it."""


def route_number(part: str) -> bool:
    """Whether ``part`` of an address is a number: ASCII digits only (``isdigit`` also takes
    '²' and other scripts' digits, which ``int`` refuses or reads otherwise), not too many."""
    return part.isascii() and part.isdecimal() and len(part) <= ROUTE_NUMBER_DIGITS


def stack(route: str) -> list[str]:
    """The routes on the navigation stack for ``route``: home first, ``route`` last."""
    parts = [p for p in route.split("?")[0].split("/") if p]
    if not parts:
        return ["/"]
    head = parts[0]
    if head in ("game", "history") and len(parts) >= 2 and route_number(parts[1]):
        under = ["/"] if head == "game" else ["/", "/history"]
        game = f"/{head}/{parts[1]}"
        if len(parts) == 2:
            return [*under, game]
        if len(parts) == 3 and parts[2] in ("rules", "referee"):
            return [*under, game, f"{game}/{parts[2]}"]
        if head == "game" and parts[2] == "round" and len(parts) == 3:
            return ["/", game + "/round"]
        if head == "game" and parts[2] == "round" and len(parts) == 4 and route_number(parts[3]):
            return ["/", f"{game}/round/{parts[3]}"]
        return ["/"]
    if head == "history" and len(parts) == 1:
        return ["/", "/history"]
    if head == "table" and (len(parts) == 1 or (len(parts) == 2 and route_number(parts[1]))):
        return ["/", "/" + "/".join(parts)]
    if head == "players" and len(parts) <= 2:
        return ["/", "/players"] + ([f"/players/{parts[1]}"] if len(parts) == 2 else [])
    if head == "rules" and len(parts) == 3 and parts[1] in IDS and parts[2] == "referee":
        return ["/", "/rules", f"/rules/{parts[1]}/referee"]
    if head in ("new", "rules", "settings", "share") and len(parts) == 1:
        return ["/", f"/{head}"]
    return ["/"]


class App:
    """The pages of one session. The page on top is rebuilt (or refreshed) whenever shown."""

    def __init__(self, page: ft.Page, store, device: Device | None = None, store_open: bool = True):
        self.page = page
        self.store = store
        self.store_open = store_open
        """False while the store is still opening (the first moments after the server starts):
        home then draws its frame without the list, and ``store_opened`` fills it in."""
        self.drawn = threading.Event()
        """Set once the browser has laid out home's frame (``page_drawn``): the store opens
        after that, so that its work does not compete with drawing the first page."""
        self.device = device or Device.this_machine()
        """Whose session this is: a viewer's pages have no controls that change a game."""
        self.games: dict[int, GameScreen] = {}
        self._views: dict[str, ft.View] = {}
        self._prefs = settings.device_storage(page)
        self.language = settings.device_language(page)
        self.language.on_change = self.refresh
        page.on_route_change = self._route_change
        page.on_view_pop = self._view_pop

    # --- navigation -------------------------------------------------------------------

    def go(self, route: str) -> None:
        """Show ``route`` now and record it in the browser's history."""
        self.show(route)
        if self.page.route != route:
            self.page.navigate(route)

    def show(self, route: str) -> None:
        while self.page.pop_dialog() is not None:  # messages belong to the page they were shown on
            pass
        routes = stack(route)
        views = [self._views[r] if r in self._views and r != routes[-1] else self._build(r) for r in routes]
        self._views = dict(zip(routes, views))
        self.page.views.clear()
        self.page.views.extend(views)
        self.page.update()

    def page_drawn(self) -> None:
        ft.context.disable_auto_update()  # nothing changed: no update to send
        self.drawn.set()

    def store_opened(self) -> None:
        """The store has opened: a home page drawn before it shows its list now."""
        self.store_open = True
        if self.page.views and self.page.views[-1].route == "/":
            home.fill(self, self.page.views[-1])
            self.page.update()

    def refresh(self) -> None:
        """Build every page again (kept pages speak the language they were built in)."""
        self.page.title = _("Companion")
        self._views.clear()
        self.games.clear()
        self.show(self.page.views[-1].route if self.page.views else self.page.route or "/")

    def _route_change(self, e: ft.RouteChangeEvent) -> None:
        if stack(e.route)[-1] != (self.page.views[-1].route if self.page.views else None):
            self.show(e.route)

    def _view_pop(self, e: ft.ViewPopEvent) -> None:
        routes = stack(self.page.views[-1].route if self.page.views else "/")
        self.go(routes[-2] if len(routes) > 1 else "/")

    def _build(self, route: str) -> ft.View:
        parts = [p for p in route.split("/") if p]
        if not parts:
            shown = self._views.get("/")
            if shown is not None and home.can_fill(self, shown):
                home.fill(self, shown)
                return shown
            return home.show(self)
        from companion.ui import history, new_game, players, rulesets  # LATER_SCREENS: not on the first page's path

        if parts[0] == "new":
            return new_game.show(self)
        if parts[0] == "share":
            return share.share_view(self)
        if parts[0] == "table":
            return share.table_view(self, int(parts[1]) if len(parts) == 2 else None)
        if parts[0] == "settings":
            return settings.show(self)
        if parts[0] == "rules":
            return rulesets.show(self) if len(parts) == 1 else rulesets.show_referee(self, route, parts[1])
        if len(parts) == 3 and parts[2] in ("rules", "referee"):
            return rulesets.show_for_game(self, route, int(parts[1]), referee=parts[2] == "referee")
        if parts[0] == "history":
            if len(parts) == 1:
                return history.show(self)
            state = ScoreboardState(self.store, int(parts[1]), read_only=True)
            state.load()
            screen = GameScreen(self, state, route)
            screen.show_board(route)
            return screen.view
        if parts[0] == "players":
            return players.show_list(self) if len(parts) == 1 else players.show_player(self, players.player_from_route(parts[1]))
        return self._game(int(parts[1]), route, int(parts[3]) if len(parts) == 4 else None, len(parts) > 2)

    def _game(self, game_id: int, route: str, index: int | None, entering: bool) -> ft.View:
        """The game's page (kept for the session, so switching between board and form is in place)."""
        screen = self.games.get(game_id)
        if screen is None:
            screen = self.games[game_id] = GameScreen(self, ScoreboardState(self.store, game_id), route)
        s = screen.state
        s.read_only = not self.device.can_score  # rights can change while the page is kept
        s.load()
        allowed = s.record is not None and (
            s.can_enter if index is None else s.can_edit and index < len(s.game.rounds)
        )
        if entering and allowed:
            screen.show_entry(route, index)
        else:
            screen.show_board(f"/game/{game_id}")
        return screen.view

    # --- theme and messages -------------------------------------------------------------

    @property
    def dark(self) -> bool:
        return self.page.theme_mode == ft.ThemeMode.DARK

    def toggle_theme(self) -> None:
        self._set_theme(not self.dark)
        self.page.run_task(self._prefs.set, THEME_KEY, "dark" if self.dark else "light")

    async def restore_theme(self) -> None:
        """The theme this browser chose last time (the first screen never waits for it)."""
        try:
            saved = await self._prefs.get(THEME_KEY)
        except Exception:  # a browser without local storage simply keeps the default
            return
        if saved in ("dark", "light") and (saved == "dark") != self.dark:
            self._set_theme(saved == "dark")

    def _set_theme(self, dark: bool) -> None:
        self.page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
        for view in self.page.views:  # relabel the switches in place: a form being filled in stays as it is
            for action in (view.appbar.actions or []) if view.appbar else []:
                if isinstance(action, ft.Semantics) and action.identifier == "theme-switch":
                    action.content.tooltip = widgets.theme_switch_label(dark)
        self.page.update()

    def notify(self, message: str, action: str | None = None, on_action: Callable[[], None] | None = None) -> None:
        """A short message at the bottom, optionally with one action (e.g. Redo).

        Showing it counts as the handler's update, so the page is updated here too:
        whatever the handler changed before calling this reaches the screen.
        """
        self.page.show_dialog(
            ft.SnackBar(
                ft.Text(message),
                action=action,
                on_action=(lambda: on_action()) if on_action else None,
                duration=ft.Duration(seconds=5),
                behavior=ft.SnackBarBehavior.FLOATING,
            )
        )
        self.page.update()

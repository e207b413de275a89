"""The app: routes between the screens, the theme, messages, and starting the server.

Routes (each a page on the navigation stack, so the back arrow and the browser's back
button both work):

    /                        home
    /new                     new game
    /game/<id>               scoreboard of a game
    /game/<id>/round         enter the next round
    /game/<id>/round/<i>     correct round i (from 0)
    /history, /history/<id>  finished games; a game opened from here is read-only
    /players, /players/<name>
    /rules
"""

from __future__ import annotations

import os
from typing import Callable

import flet as ft

from companion.i18n import _
from companion.store import Store, StoreError
from companion.ui import history, home, new_game, players, rulesets, theme
from companion.ui.scoreboard import EntryScreen, ScoreboardScreen, ScoreboardState

THEME_KEY = "companion.theme"

_database_url: str | None = None
_store: Store | None = None


def shared_store() -> Store:
    """One store per server process, shared by every browser session."""
    global _store
    if _store is None:
        _store = Store(_database_url)
    return _store


def stack(route: str) -> list[str]:
    """The routes under ``route`` on the navigation stack, home first, ``route`` last."""
    parts = [p for p in route.split("?")[0].split("/") if p]
    if not parts:
        return ["/"]
    head = parts[0]
    if head == "game" and len(parts) >= 2 and parts[1].isdigit():
        board = f"/game/{parts[1]}"
        if len(parts) == 2:
            return ["/", board]
        if parts[2] == "round" and len(parts) == 3:
            return ["/", board, board + "/round"]
        if parts[2] == "round" and len(parts) == 4 and parts[3].isdigit():
            return ["/", board, f"{board}/round/{parts[3]}"]
    if head == "history" and (len(parts) == 1 or (len(parts) == 2 and parts[1].isdigit())):
        return ["/", "/history"] + ([f"/history/{parts[1]}"] if len(parts) == 2 else [])
    if head == "players" and len(parts) <= 2:
        return ["/", "/players"] + ([f"/players/{parts[1]}"] if len(parts) == 2 else [])
    if head in ("new", "rules") and len(parts) == 1:
        return ["/", f"/{head}"]
    return ["/"]


class App:
    """One browser session: its pages, theme and messages."""

    def __init__(self, page: ft.Page, store: Store):
        self.page = page
        self.store = store
        self.boards: dict[int, ScoreboardState] = {}
        self._views: dict[str, ft.View] = {}
        self._prefs = ft.SharedPreferences()
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
        views = []
        for r in routes:
            view = self._build(r) if r == routes[-1] or r not in self._views else self._views[r]
            self._views[r] = view
            views.append(view)
        self._views = {r: self._views[r] for r in routes}
        self.page.views.clear()
        self.page.views.extend(views)
        self.page.update()

    def _route_change(self, e: ft.RouteChangeEvent) -> None:
        current = self.page.views[-1].route if self.page.views else None
        if e.route != current:
            self.show(e.route)

    def _view_pop(self, e: ft.ViewPopEvent) -> None:
        routes = stack(self.page.views[-1].route if self.page.views else "/")
        self.go(routes[-2] if len(routes) > 1 else "/")

    def _build(self, route: str) -> ft.View:
        parts = [p for p in route.split("/") if p]
        if not parts:
            return home.show(self)
        if parts[0] == "new":
            return new_game.show(self)
        if parts[0] == "rules":
            return rulesets.show(self)
        if parts[0] == "history":
            if len(parts) == 1:
                return history.show(self)
            state = ScoreboardState(self.store, int(parts[1]), read_only=True)
            state.load()
            return ScoreboardScreen(self, state, route).view
        if parts[0] == "players":
            return players.show_list(self) if len(parts) == 1 else players.show_player(self, players.player_from_route(parts[1]))
        board = self._board(int(parts[1]))
        if len(parts) == 2:
            return ScoreboardScreen(self, board, route).view
        index = int(parts[3]) if len(parts) == 4 else None
        if board.record is None or (index is None and not board.can_enter) or (index is not None and not (board.can_edit and index < len(board.game.rounds))):
            return ScoreboardScreen(self, board, route).view
        return EntryScreen(self, board, index, route).view

    def _board(self, game_id: int) -> ScoreboardState:
        """The scoreboard state of a game, shared by its scoreboard and its entry page."""
        board = self.boards.get(game_id)
        if board is None:
            board = self.boards[game_id] = ScoreboardState(self.store, game_id)
        board.load()
        return board

    # --- theme and messages -------------------------------------------------------------

    @property
    def dark(self) -> bool:
        return self.page.theme_mode == ft.ThemeMode.DARK

    def toggle_theme(self) -> None:
        self.page.theme_mode = ft.ThemeMode.LIGHT if self.dark else ft.ThemeMode.DARK
        self.page.update()
        self.page.run_task(self._prefs.set, THEME_KEY, "dark" if self.dark else "light")

    async def restore_theme(self) -> None:
        """The theme this browser chose last time (the first screen never waits for it)."""
        try:
            saved = await self._prefs.get(THEME_KEY)
        except Exception:  # a browser without local storage simply keeps the default
            return
        if saved in ("dark", "light") and saved != ("dark" if self.dark else "light"):
            self.page.theme_mode = ft.ThemeMode.DARK if saved == "dark" else ft.ThemeMode.LIGHT
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


def main(page: ft.Page) -> None:
    """Build the app in a page (one per browser session)."""
    page.title = _("Companion")
    theme.apply(page, dark=page.platform_brightness == ft.Brightness.DARK)
    try:
        store = shared_store()
    except StoreError as err:
        page.views[0].controls = [ft.Text(_("The saved games cannot be opened: {reason}").format(reason=err.message))]
        page.update()
        return
    app = App(page, store)
    app.show(page.route or "/")
    page.run_task(app.restore_theme)


def serve(host: str = "127.0.0.1", port: int = 8550, database_url: str | None = None, desktop: bool = False) -> None:
    """Start the app: a web server on ``host:port`` (prints the address), or a desktop window."""
    global _database_url
    _database_url = database_url
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    os.environ["FLET_SERVER_PORT"] = str(port)
    os.environ["FLET_SERVER_IP"] = host
    try:
        shared_store()  # fail here, with the store's message, rather than in the first browser
    except StoreError as err:
        raise SystemExit(_("companion: the saved games cannot be opened: {reason}").format(reason=err.message))
    if desktop:
        ft.run(main, assets_dir=str(theme.ASSETS_DIR))
        return
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(_("Companion is running: open http://{host}:{port}/ in a browser.").format(host=shown, port=port), flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, assets_dir=str(theme.ASSETS_DIR), no_cdn=True)

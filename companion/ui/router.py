"""One browser session: which page each route shows (the routes are read in
companion.ui.routes), the theme switch, its language, short messages."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from functools import partial
from typing import TYPE_CHECKING, Callable

import flet as ft

from companion.i18n import _
from companion.share.table import Device
from companion.store.errors import StoreError
from companion.store.protocol import GameStore
from companion.ui import home, reconnect, settings, share_panel, widgets
from companion.ui.awake import ScreenAwake
from companion.ui.garbage import quiet_collector
from companion.ui.handshake import THEME_KEY, THEMES
from companion.ui.round_entry.drafts import Drafts
from companion.ui.routes import Page, Route, parse
from companion.ui.scoreboard import GameScreen, ScoreboardState
from companion.ui.together import update_together

if TYPE_CHECKING:
    from companion.ui.new_game import NewGameScreen

DRAFTS_KEY = "companion.drafts"
"""The rounds this device is entering (companion.ui.round_entry.drafts), in its own storage."""

LATER_SCREENS = ("history", "new_game", "players", "rulesets", "table_view")
"""Screens imported when first shown, or in the background once the first page is up
(companion.ui.app.load_later): importing them before it would hold back the first page."""

STORE_SCREENS = ("club",)
"""Screens that need the database libraries (the club evenings' store), imported when first
shown or once the store has opened, which imports those libraries (companion.ui.app)."""


def stack(route: str) -> list[str]:
    """The routes on the navigation stack for ``route``: home first, ``route`` last
    (the back arrow and the browser's back button both walk down it)."""
    return [page.path for page in parse(route).stack]


class App:
    """The pages of one session. The page on top is rebuilt (or refreshed) whenever shown."""

    def __init__(self, page: ft.Page, store: GameStore, device: Device | None = None, store_open: bool = True):
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
        self._theme_chosen = False
        """Whether the switch was tapped in this session: the device's saved theme, asked for
        as the session starts, then no longer applies (its answer may come after the tap)."""
        self.drafts = Drafts(keep=lambda told: widgets.on_device(page, self._prefs.set, DRAFTS_KEY, told))
        """Rounds being entered, kept until saved or discarded, on the device too."""
        self.language = settings.device_language(page)
        self.language.on_change = self.refresh
        self.awake = ScreenAwake(lambda: settings.wakelock(page), page.run_task)
        self._pushed: deque[str] = deque()
        """The addresses ``go`` asked the browser for whose route change has not come back
        yet. Until it does, ``page.route`` is the address before them, and when it does it
        names a page the app may have left already: a tap answered in between (Enter round
        the moment a saved round's scoreboard shows) would be undone by showing it again."""
        self._asking: ft.AlertDialog | None = None
        """The last question a tap asked (``ask``)."""
        self._after_question: str | None = None
        """The page on screen, to show again once the open question is answered (``show``)."""
        page.on_route_change = self._route_change
        page.on_view_pop = self._view_pop

    # --- navigation -------------------------------------------------------------------

    def go(self, route: str) -> None:
        """Show ``route`` now and record it in the browser's history."""
        self.show(route)
        address = self._pushed[-1] if self._pushed else self.page.route
        if address != route:
            self._pushed.append(route)
            self.page.navigate(route)

    def show(self, route: str) -> None:
        """Show ``route``. The page on screen shown again (a change elsewhere, a device joining,
        the browser back after a lost connection) while a question asked on it is open waits
        until it is answered: shown now, the page would close the question, and what was typed
        in it (a device's name) with it, or leave it on the screen, unanswerable."""
        if self._asking is not None and self._asking.open and route == self.shown_route:
            self._after_question = route
            return
        self._after_question = None
        quiet_collector.busy()
        while self.page.pop_dialog() is not None:  # messages belong to the page they were shown on
            pass
        routes, target = stack(route), parse(route)
        if self._uncovered(routes):
            self.awake.follow(target)
            return
        views = [self._views[r] if r in self._views and r != routes[-1] else self._built(r, beneath=r != routes[-1]) for r in routes]
        self._views = dict(zip(routes, views))
        self.awake.follow(target)
        if len(views) == len(self.page.views) and all(view is shown for view, shown in zip(views, self.page.views)):
            # the top page changed in place (e.g. a round saved): those beneath are not compared again
            screen = self.games.get(target.game_id) if target.game_id is not None else None
            if screen is not None and screen.view is views[-1]:
                screen.send(self.page)
            else:
                self.page.update(views[-1])
            return
        self.page.views.clear()
        self.page.views.extend(views)
        self.page.update()

    def _uncovered(self, routes: list[str]) -> bool:
        """Whether ``routes`` is New game over home, and home's page, alone on the screen,
        now shows the New game screen built under it (``home.Layers``; sent)."""
        shown = self.page.views[0] if len(self.page.views) == 1 else None
        layers = home.layers_of(shown) if shown is not None and shown is self._views.get("/") else None  # not a page kept from before a refresh
        return routes == ["/", "/new"] and layers is not None and layers.uncover()

    @property
    def shown_route(self) -> str:
        """The route of the page on screen: home's page may show New game (``home.Layers``)."""
        if not self.page.views:
            return self.page.route or "/"
        top = self.page.views[-1]
        layers = home.layers_of(top)
        return "/new" if layers is not None and layers.uncovered else top.route

    def follow(self, record) -> Callable[[], None] | None:
        """Show ``record``, a game changed elsewhere, on its scoreboard in place. The top of the
        board (the totals, what comes next) goes to the browser now; what this returns sends
        the rest (the rounds' table, the chart), in a later turn (``session.in_two_turns``):
        every device of the process gets the top before any device gets the rest. None when
        the page does not show that game's scoreboard (it is then shown anew). The other pages
        that follow games (``widgets.FollowsGames``: the table view, a club evening's ranking)
        get what changed on them in one message."""
        follower = widgets.follower_of(self.page.views[-1] if self.page.views else None)
        if follower is not None:
            changed = follower.follow(record)
            if changed is None:
                return None
            if changed:
                quiet_collector.busy()
                update_together(self.page, changed)
            return lambda: None  # all of it went in one message: nothing is left for a later turn
        screen = self.games.get(record.id)
        if screen is None or not self._shows_board(screen):
            return None
        quiet_collector.busy()
        top, *rest = screen.follow(record)  # the parts that changed, a message for each group: neither the rest of the page nor the pages beneath are compared again for every device
        with widgets.sent_after([control for group in rest for control in group]):
            update_together(self.page, top)
        return partial(self._send_followed, screen, rest)

    def database_answers(self) -> None:
        """The database answers again (the process heard it): the page on screen no longer
        says that it does not (``widgets.HearsTheDatabase``)."""
        top = self.page.views[-1] if self.page.views else None
        screen = next((screen for screen in self.games.values() if screen.view is top), None) or self.new_game_shown() or (top.data if top is not None else None)
        changed = screen.database_answers() if isinstance(screen, widgets.HearsTheDatabase) else []
        if changed:
            update_together(self.page, changed)

    def _shows_board(self, screen: GameScreen) -> bool:
        return bool(self.page.views) and self.page.views[-1] is screen.view and screen.shows_board

    def _send_followed(self, screen: GameScreen, groups: list[list[ft.Control]]) -> None:
        """The rest of a followed change, unless the page has left that scoreboard meanwhile
        (a round's form, another page: the board is then compared whole when shown again,
        and these changes go with it), or its browser has gone (one that comes back is sent
        the whole page)."""
        if not self._shows_board(screen) or not reconnect.connected(self.page):
            screen.rest_unsent()
            return
        quiet_collector.busy()
        for group in groups:
            update_together(self.page, group)

    def page_drawn(self) -> None:
        ft.context.disable_auto_update()  # nothing changed: no update to send
        self.drawn.set()

    def store_opening(self) -> None:
        """The store starts opening on the device itself (the phone's own app), holding its one
        Python thread for a second or two: home's More section shows meanwhile, as the
        browser draws the page in a thread of its own. (A server's store opens in a thread of
        its own; the section comes there with the list, so that it does not arrive at the
        moment New game may be tapped.)"""
        shown = self.page.views[-1] if self.page.views else None
        if shown is not None and shown.route == "/":
            home.complete(self, shown)
            self.page.update()

    def store_opened(self) -> None:
        """The store has opened: a home page drawn before it shows its list now, a New game
        page its saved players."""
        self.store_open = True
        if not self.page.views:
            return
        shown, route = self.page.views[-1], self.shown_route
        if route == "/":
            home.fill(self, shown)
        elif route == "/new":
            from companion.ui import new_game  # LATER_SCREENS

            layers = home.layers_of(shown)  # New game uncovered on home's page, or a page of its own
            new_game.fill(self, layers.new_game if layers is not None and layers.new_game is not None else shown.data)
        else:
            return
        self.page.update()

    def refresh(self) -> None:
        """Build every page again (kept pages speak the language they were built in). A page
        built again while it is on screen keeps what was chosen and typed on it (New game,
        the club's new evening, a late arrival's name): the device's language can come late,
        the moment New game is tapped as home shows."""
        self.page.title = _("Companion")
        self._views.clear()
        self.games.clear()
        self.show(self.shown_route)

    def new_game_shown(self) -> NewGameScreen | None:
        """The New game screen on screen: uncovered on home's page, or a page of its own."""
        from companion.ui.new_game import NewGameScreen  # LATER_SCREENS

        if self.shown_route != "/new":
            return None
        top = self.page.views[-1]
        layers = home.layers_of(top)
        shown = layers.new_game if layers is not None else top.data
        return shown if isinstance(shown, NewGameScreen) else None

    def _route_change(self, e: ft.RouteChangeEvent) -> None:
        """The browser's address changed: show its page, unless it is shown already (the
        address follows ``go``), when there is nothing to send and the whole page is not
        compared again (which the browser's drawing of that page would wait for). The
        address ``go`` asked for is shown already, or was left for a later page."""
        if self._pushed and e.route == self._pushed[0]:
            self._pushed.popleft()
            ft.context.disable_auto_update()
            return
        self._pushed.clear()  # the browser's own move (back, forward, an address typed): it comes after those
        if not self.page.views or stack(e.route)[-1] != self.shown_route:
            self.show(e.route)
        else:
            ft.context.disable_auto_update()

    def back(self) -> None:
        """One page down the stack: the app bar's back arrow, a phone's back gesture."""
        routes = stack(self.shown_route)
        self.go(routes[-2] if len(routes) > 1 else "/")

    def _view_pop(self, e: ft.ViewPopEvent) -> None:
        self.back()

    def _built(self, route: str, beneath: bool) -> ft.View:
        """The page at ``route``; one the store cannot be read for (a club's database away for
        a moment) says so, with Try again: the session goes on, where it ended before."""
        try:
            return self._build(route, beneath)
        except StoreError as err:
            again = ft.OutlinedButton(_("Try again"), icon=ft.Icons.AUTORENEW, on_click=lambda: self.show(route))
            body = [widgets.error_banner(err.message, identifier="page-error"), widgets.tagged(again, "page-try-again")]
            return widgets.screen(self, route, _("Companion"), body)

    def _build(self, route: str, beneath: bool = False) -> ft.View:
        """The page at ``route``: ``beneath`` another one, home is built without its list."""
        target = parse(route)
        if target.page is Page.HOME:
            shown = self._views.get("/")
            if shown is not None and home.can_fill(self, shown):
                home.fill(self, shown)
                return shown
            return home.show(self, listed=not beneath)
        from companion.ui import history, new_game, players, rulesets, table_view  # LATER_SCREENS: not on the first page's path

        match target:
            case Route(page=Page.NEW):
                return new_game.show(self, self.new_game_shown())
            case Route(page=Page.SHARE):
                return share_panel.share_view(self)
            case Route(page=Page.TABLE | Page.TABLE_OF_GAME, game_id=game_id):
                return table_view.table_view(self, game_id)
            case Route(page=Page.SETTINGS):
                return settings.show(self)
            case Route(page=Page.RULES):
                return rulesets.show(self)
            case Route(page=Page.REFEREE, ruleset=str(ruleset)):
                return rulesets.show_referee(self, route, ruleset)
            case Route(page=Page.GAME_RULES | Page.FINISHED_RULES, game_id=int(game_id)):
                return rulesets.show_for_game(self, route, game_id, referee=False)
            case Route(page=Page.GAME_REFEREE | Page.FINISHED_REFEREE, game_id=int(game_id)):
                return rulesets.show_for_game(self, route, game_id, referee=True)
            case Route(page=Page.HISTORY):
                return history.show(self)
            case Route(page=Page.FINISHED, game_id=int(game_id)):
                state = ScoreboardState(self.store, game_id, read_only=True)
                state.load()
                screen = GameScreen(self, state, route)
                screen.show_board(route)
                return screen.view
            case Route(page=Page.EVENTS):
                from companion.ui import club  # STORE_SCREENS

                return club.show_list(self)
            case Route(page=Page.EVENT, evening=int(evening)):
                from companion.ui import club  # STORE_SCREENS

                return club.show_evening(self, evening)
            case Route(page=Page.PLAYERS):
                return players.show_list(self)
            case Route(page=Page.PLAYER, player=str(player)):
                return players.show_player(self, player)
            case Route(page=Page.GAME | Page.ENTRY | Page.CORRECTION, game_id=int(game_id)):
                return self._game(game_id, target)
        return home.show(self)  # every page is matched above; this keeps the types whole

    def _game(self, game_id: int, route: Route) -> ft.View:
        """The game's page (kept for the session, so switching between board and form is in place)."""
        screen = self.games.get(game_id)
        if screen is None:
            screen = self.games[game_id] = GameScreen(self, ScoreboardState(self.store, game_id), route.path)
        s = screen.state
        s.read_only = not self.device.may_change(game_id)  # rights can change while the page is kept
        if not s.just_saved:
            s.load()
        s.just_saved = False
        index = route.round
        allowed = s.record is not None and (
            s.can_enter if index is None else s.can_edit and index < len(s.game.rounds)
        )
        if route.page is not Page.GAME and allowed:
            screen.show_entry(route.path, index)
            return screen.view
        screen.show_board(Route(Page.GAME, game_id=game_id).path)
        ended = self.drafts.ended(game_id, s.game, s.loaded.uuid) if s.record is not None else None
        if ended:
            self.notify(ended)
        return screen.view

    # --- theme and messages -------------------------------------------------------------

    @property
    def dark(self) -> bool:
        return self.page.theme_mode == ft.ThemeMode.DARK

    def toggle_theme(self) -> None:
        self._theme_chosen = True
        self._set_theme(not self.dark)
        widgets.on_device(self.page, self._prefs.set, THEME_KEY, "dark" if self.dark else "light")

    async def restore_from_device(self) -> None:
        """What this device kept from its last visit (the first screen never waits for it):
        the theme it chose, and the rounds it was entering."""
        await asyncio.gather(self._restore_theme(), self._restore_drafts())

    async def _restore_theme(self) -> None:
        try:
            saved = await self._prefs.get(THEME_KEY)
        except Exception:  # a browser without local storage simply keeps the default
            return
        if saved in THEMES and (saved == "dark") != self.dark and not self._theme_chosen:
            self._set_theme(saved == "dark")

    async def _restore_drafts(self) -> None:
        try:
            saved = await self._prefs.get(DRAFTS_KEY)
        except Exception:  # a browser without local storage: the drafts last as long as the session
            return
        games = self.drafts.restore(saved if isinstance(saved, str) else None)
        route = self.shown_route
        if self.page.views and parse(route).game_id in games:
            self.show(route)  # the scoreboard's button says "Continue round", the form shows what was entered

    def _set_theme(self, dark: bool) -> None:
        self.page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
        for view in self.page.views:  # relabel the switches in place: a form being filled in stays as it is
            for action in (view.appbar.actions or []) if isinstance(view.appbar, ft.AppBar) else []:
                if isinstance(action, ft.Semantics) and action.identifier == "theme-switch" and action.content is not None:
                    action.content.tooltip = widgets.theme_switch_label(dark)
        self.page.update()

    def ask(self, dialog: ft.AlertDialog) -> None:
        """Show ``dialog``, a question a tap asks (Abandon, a device's name), unless the last
        one is still open: a second tap, sent before the first one's dialog showed, would lay
        a second dialog under it, to be answered again."""
        if self._asking is not None and self._asking.open:
            return
        self._asking = dialog
        own = dialog.on_dismiss

        def answered() -> None:
            if own is not None:
                own()  # type: ignore[call-arg]  # the questions' own take no event (Flet passes one only to a handler that takes it)
            if self._after_question is not None and self._after_question == self.shown_route:
                self.show(self._after_question)

        dialog.on_dismiss = answered
        self.page.show_dialog(dialog)

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

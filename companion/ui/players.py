"""Players: the saved profiles, and each player's record from the store's statistics."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

import flet as ft

from companion import i18n
from companion.i18n import _, ngettext
from companion.store import HeadToHead, PlayerStats, StoreError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.chart import score_chart
from companion.ui.glyphs import undrawable_name
from companion.ui.modes import ModeStats, by_mode, percent, wins_over_time
from companion.ui.routes import Page, Route
from companion.ui.summary import GameCard, game_card

GAMES_LISTED = 50
"""The player's newest games listed on their page; the history lists them all."""


class PlayersState:
    def __init__(self, store: GameStore):
        self._store = store
        self.names: list[str] = []
        self.error: str | None = None
        self.name_error: str | None = None

    def load(self) -> None:
        try:
            self.names = [p.name for p in self._store.players()]
            self.error = None
        except StoreError as err:
            self.error = err.message

    def add(self, name: str) -> bool:
        """Save a new profile; a name already saved is refused so typos do not pass silently."""
        name = name.strip()
        if not name:
            self.name_error = _("Type a name first.")
            return False
        if name in self.names:
            self.name_error = _("{name} is already saved.").format(name=name)
            return False
        if (unshown := undrawable_name(name)) is not None:
            self.name_error = unshown
            return False
        try:
            self._store.add_player(name)
        except StoreError as err:
            self.name_error = err.message
            return False
        self.name_error = None
        self.load()
        return True

    @property
    def empty_message(self) -> str | None:
        if self.names or self.error:
            return None
        return _("No players yet. Everyone who sits down at a new game is saved here.")


class PlayerState:
    def __init__(self, store: GameStore, name: str, now: Callable[[], datetime] = lambda: datetime.now().astimezone()):
        self._store = store
        self._now = now
        self.name = name
        self.stats: PlayerStats | None = None
        self.results: list = []
        self.games: list[GameCard] = []
        self.others: list[str] = []
        self.rival: str | None = None
        self.head: HeadToHead | None = None
        self.error: str | None = None

    def load(self) -> None:
        try:
            self.stats = self._store.player_stats(self.name)
            self.results = self._store.player_results(self.name)
            now = self._now()
            self.games = [
                game_card(s, now) for s in self._store.history(player=self.name, page_size=GAMES_LISTED) if s.status != "in_progress"
            ]
            self.others = [p.name for p in self._store.players() if p.name != self.name]
        except StoreError as err:
            self.error = err.message

    def choose_rival(self, other: str | None) -> None:
        self.rival = other
        self.head = None
        if other is None:
            return
        try:
            self.head = self._store.head_to_head(self.name, other)
            self.error = None
        except StoreError as err:
            self.error = err.message

    @property
    def summary(self) -> str:
        s = self.stats
        if s is None or not s.played:
            return _("No finished games yet.")
        return _("{played} · {wins} won ({rate})").format(
            played=ngettext("{n} game", "{n} games", s.played).format(n=s.played),
            wins=s.wins,
            rate=percent(s.win_rate),
        )

    def lines(self) -> list[ModeStats]:
        """The record per game mode (an average over two modes would describe neither)."""
        return by_mode(self.results)

    def chart(self) -> dict[str, list[int]] | None:
        """Wins counted up over the finished games, oldest first; None before the first."""
        if not self.results:
            return None
        return {_("Wins"): wins_over_time(self.results)}

    @property
    def head_line(self) -> str:
        h = self.head
        if h is None:
            return ""
        if not h.games_together:
            return _("{a} and {b} have not finished a game together yet.").format(a=h.player, b=h.other)
        text = _("{games} together: {a} won {wa}, {b} won {wb}.").format(
            games=ngettext("{n} game", "{n} games", h.games_together).format(n=h.games_together),
            a=h.player,
            wa=h.wins,
            b=h.other,
            wb=h.other_wins,
        )
        if h.shared_wins:
            text += " " + ngettext(
                "They won {n} of them together.", "They won {n} of them together.", h.shared_wins
            ).format(n=h.shared_wins)
        return text


# --- views ---------------------------------------------------------------------------------


class PlayersScreen(widgets.ReadAgain):
    def __init__(self, app, state: PlayersState):
        self.app = app
        self.state = state
        self.language = i18n.language()
        self.name_field = ft.TextField(label=_("New player"), on_submit=self._add, expand=True, dense=True)
        self.view = widgets.screen(app, "/players", _("Players"), [])
        self.view.data = self
        self.render()

    def read_again(self) -> None:
        self.state = PlayersState(self.app.store)
        self.state.load()

    def render(self) -> None:
        s = self.state
        body: list[ft.Control] = []
        if s.error:
            body.append(widgets.error_banner(s.error))
        body.append(
            ft.Row(
                [
                    widgets.tagged(self.name_field, "new-player-name", expand=True),
                    widgets.tagged(ft.IconButton(ft.Icons.PERSON_ADD, tooltip=_("Save player"), on_click=self._add), "save-player"),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        )
        if s.name_error:
            body.append(widgets.tagged(ft.Text(s.name_error, color=ft.Colors.ERROR), "name-error"))
        if s.empty_message:
            body.append(widgets.empty_state(ft.Icons.PEOPLE, s.empty_message))
        if s.names:
            body.append(
                ft.Card(
                    ft.Column(
                        [
                            widgets.tagged(
                                ft.ListTile(
                                    leading=ft.CircleAvatar(content=ft.Text(name[:1].upper()), radius=18),
                                    title=ft.Text(name),
                                    trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                                    on_click=lambda _e=None, n=name: self.app.go(Route(Page.PLAYER, player=n).path),
                                ),
                                f"player-{name}",
                            )
                            for name in s.names
                        ],
                        spacing=0,
                    ),
                    margin=0,
                )
            )
        widgets.set_body(self.view, body)

    def _add(self, e: ft.Event) -> None:
        typed = e.data if isinstance(e.data, str) else self.name_field.value  # Enter sends the text with it
        if self.state.add(typed or ""):
            self.name_field.value = ""
        self.render()
        if self.state.name_error:  # Enter took the focus: the name is corrected in place
            widgets.on_device(self.app.page, self.name_field.focus)


class PlayerScreen(widgets.ReadAgain):
    def __init__(self, app, state: PlayerState):
        self.app = app
        self.state = state
        self.language = i18n.language()
        self.view = widgets.screen(app, Route(Page.PLAYER, player=state.name).path, state.name, [])
        self.view.data = self
        self.render()

    def read_again(self) -> None:
        """The rival chosen for the head-to-head stays."""
        rival = self.state.rival
        self.state = PlayerState(self.app.store, self.state.name)
        self.state.load()
        if rival is not None:
            self.state.choose_rival(rival)

    def render(self) -> None:
        s = self.state
        body: list[ft.Control] = []
        if s.error:
            body.append(widgets.error_banner(s.error))
        body.append(
            ft.Row(
                [
                    ft.CircleAvatar(content=ft.Text(s.name[:1].upper(), size=22), radius=28),
                    ft.Column([ft.Text(s.name, size=22, weight=ft.FontWeight.W_600), widgets.tagged(ft.Text(s.summary, color=ft.Colors.ON_SURFACE_VARIANT), "player-summary")], spacing=2, expand=True),
                ],
                spacing=16,
            )
        )
        for line in s.lines():
            body.append(self._stat_card(line))
        chart = s.chart()
        if chart:
            body.append(widgets.section_title(_("Wins over time")))
            body.append(widgets.tagged(score_chart(chart, height=160), "player-chart"))
        if s.others:
            body.append(widgets.section_title(_("Head to head")))
            body.append(
                ft.Row(
                    [
                        widgets.tagged(
                            ft.Chip(label=ft.Text(name), selected=s.rival == name, on_select=lambda _e=None, n=name: self._rival(n)),
                            f"rival-{name}",
                        )
                        for name in s.others
                    ],
                    wrap=True,
                    spacing=8,
                    run_spacing=8,
                )
            )
            if s.head_line:
                body.append(widgets.tagged(ft.Text(s.head_line), "head-to-head"))
        if s.games:
            body.append(widgets.section_title(_("Games")))
            for card in s.games:
                body.append(widgets.game_tile(card, lambda _e=None, gid=card.game_id: self.app.go(Route(Page.FINISHED, game_id=gid).path)))
        widgets.set_body(self.view, body)

    def _stat_card(self, line: ModeStats) -> ft.Control:
        def figure(value: str, label: str) -> ft.Control:
            return ft.Column(
                [ft.Text(value, size=20, weight=ft.FontWeight.W_600), ft.Text(label, size=11, color=ft.Colors.ON_SURFACE_VARIANT)],
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                expand=True,
            )

        return widgets.tagged(
            ft.Card(
                ft.Container(
                    ft.Column(
                        [
                            ft.Text(line.mode, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY),
                            # the long labels ("winstpercentage") share a row of two, so no word is broken at 360 px
                            ft.Row([figure(line.played, _("played")), figure(line.wins, _("won")), figure(line.average, _("average"))]),
                            ft.Row([figure(line.win_rate, _("win rate")), figure(line.best, _("best"))]),
                        ],
                        spacing=10,
                    ),
                    padding=16,
                ),
                margin=0,
            ),
            f"stats-{line.mode}",
        )

    def _rival(self, name: str) -> None:
        self.state.choose_rival(None if self.state.rival == name else name)
        self.render()


def show_list(app) -> ft.View:
    """/players. Read again while it is on screen (a player saved elsewhere, the browser back
    after a lost connection), it keeps a new player's name half typed."""
    shown = widgets.shown_again(app, Route(Page.PLAYERS).path, PlayersScreen)
    if shown is not None:
        return shown
    state = PlayersState(app.store)
    state.load()
    return PlayersScreen(app, state).view


def show_player(app, name: str) -> ft.View:
    """A player's page. Read again while it is on screen (a game ended elsewhere), it keeps
    the rival chosen for the head-to-head."""
    shown = widgets.shown_again(app, Route(Page.PLAYER, player=name).path, PlayerScreen)
    if shown is not None:
        return shown
    state = PlayerState(app.store, name)
    state.load()
    return PlayerScreen(app, state).view

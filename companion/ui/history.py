"""History: finished and abandoned games, newest first, filtered by game, player and outcome."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Callable

import flet as ft

from companion import i18n, rules
from companion.i18n import _
from companion.store import StoreError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.routes import Page, Route
from companion.ui.summary import GameCard, game_card

PAGE_SIZE = 50
STATUS_FILTERS = (None, "finished", "abandoned")
"""None shows both finished and abandoned games; games in progress live on the home screen."""
PERIODS = (None, "today", "week", "month", "year")
"""How far back the history reaches, counted in whole days from today; None: any time."""
PERIOD_DAYS = {"today": 0, "week": 6, "month": 29, "year": 364}


def period_start(period: str | None, now: datetime) -> datetime | None:
    """The first moment a period holds: the start of today, or of the day 6, 29 or 364 days before."""
    if period is None:
        return None
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return today - timedelta(days=PERIOD_DAYS[period])


def period_label(period: str | None) -> str:
    return {
        None: _("Any time"),
        "today": _("Today"),
        "week": _("Last 7 days"),
        "month": _("Last 30 days"),
        "year": _("Last 12 months"),
    }[period]


class HistoryState:
    def __init__(self, store: GameStore, now: Callable[[], datetime] = lambda: datetime.now().astimezone()):
        self._store = store
        self._now = now
        self.ruleset: str | None = None
        self.player: str | None = None
        self.status: str | None = None
        self.period: str | None = None
        self.games: list[GameCard] = []
        self.players: list[str] = []
        self.more = False
        self.error: str | None = None
        self._pages = 0

    @property
    def rulesets(self) -> list[tuple[str, str]]:
        return [(r.id, r.name) for r in rules.rulesets()]

    def load(self, pages: int = 1) -> None:
        """Read the first ``pages`` pages again with the current filters."""
        try:
            self.players = [p.name for p in self._store.players()]
        except StoreError as err:
            self.error = err.message
            return
        self.games, self._pages = [], 0
        self.load_more()
        while self.more and self._pages < pages and self.error is None:
            self.load_more()

    def read_again(self) -> None:
        """Read again what is listed: the filters chosen, and as many pages as were shown."""
        self.load(pages=self._pages)

    def load_more(self) -> None:
        try:
            page = self._store.history(
                ruleset=self.ruleset,
                player=self.player,
                status=self.status,
                page=self._pages,
                page_size=PAGE_SIZE,
                since=period_start(self.period, self._now()),
            )
        except StoreError as err:
            self.error = err.message
            return
        self.error = None
        self._pages += 1
        self.more = len(page) == PAGE_SIZE
        now = self._now()
        self.games += [game_card(s, now) for s in page if s.status != "in_progress"]

    def filter_ruleset(self, ruleset_id: str | None) -> None:
        self.ruleset = ruleset_id
        self.load()

    def filter_player(self, name: str | None) -> None:
        self.player = name
        self.load()

    def filter_status(self, status: str | None) -> None:
        self.status = status
        self.load()

    def filter_period(self, period: str | None) -> None:
        self.period = period
        self.load()

    @property
    def empty_message(self) -> str | None:
        if self.games or self.error or self.more:
            return None
        if self.ruleset or self.player or self.status or self.period:
            return _("No games match these filters.")
        return _("No finished games yet. Games appear here when they end.")


def status_label(status: str | None) -> str:
    return {None: _("Finished and abandoned"), "finished": _("Finished"), "abandoned": _("Abandoned")}[status]


class HistoryScreen(widgets.ReadAgain):
    def __init__(self, app, state: HistoryState):
        self.app = app
        self.state = state
        self.language = i18n.language()
        self.view = widgets.screen(app, "/history", _("History"), [])
        self.view.data = self
        self.render()

    def read_again(self) -> None:
        self.state.read_again()

    def render(self) -> None:
        s = self.state
        body: list[ft.Control] = []
        if s.error:
            body.append(widgets.error_banner(s.error))
        body.append(
            self._chips(
                "filter-game",
                [(None, _("All games")), *s.rulesets],
                s.ruleset,
                s.filter_ruleset,
            )
        )
        if s.players:
            body.append(self._chips("filter-player", [(None, _("Everyone"))] + [(p, p) for p in s.players], s.player, s.filter_player))
        body.append(self._chips("filter-status", [(k, status_label(k)) for k in STATUS_FILTERS], s.status, s.filter_status))
        body.append(self._chips("filter-period", [(k, period_label(k)) for k in PERIODS], s.period, s.filter_period))
        if s.empty_message:
            body.append(widgets.empty_state(ft.Icons.HISTORY, s.empty_message))
        for card in s.games:
            body.append(widgets.game_tile(card, lambda _e=None, gid=card.game_id: self.app.go(Route(Page.FINISHED, game_id=gid).path)))
        if s.more:
            body.append(widgets.tagged(ft.TextButton(_("Show older games"), on_click=self._more), "history-more"))
        widgets.set_body(self.view, body)

    def _chips(self, identifier: str, choices: list[tuple[str | None, str]], current, pick) -> ft.Control:
        """A row of filter chips; those that do not fit go on the next line, never out of sight."""
        return ft.Row(
            [
                widgets.tagged(
                    ft.Chip(
                        label=ft.Text(label),
                        selected=key == current,
                        on_select=lambda _e=None, k=key: self._do(pick, k),
                        show_checkmark=False,
                    ),
                    f"{identifier}-{key or 'all'}",
                )
                for key, label in choices
            ],
            wrap=True,  # every chip in sight at 360 px, however many players or long their names
            spacing=8,
            run_spacing=4,
        )

    def _do(self, pick, key) -> None:
        pick(key)
        self.render()

    def _more(self) -> None:
        self.state.load_more()
        self.render()


def show(app) -> ft.View:
    """/history. Read again while it is on screen (a game ended elsewhere, at a club every few
    minutes), it keeps the filters chosen, the games listed and where it was scrolled to."""
    shown = widgets.shown_again(app, "/history", HistoryScreen)
    if shown is not None:
        return shown
    state = HistoryState(app.store)
    state.load()
    return HistoryScreen(app, state).view

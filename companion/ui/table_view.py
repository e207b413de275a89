"""The table view for a TV or laptop: a game's scoreboard and chart only, in type large
enough to read across a room."""

from __future__ import annotations

import re

import flet as ft

from companion.i18n import _
from companion.store import StoreError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.chart import ScoreChart
from companion.ui.format import points
from companion.ui.routes import Page, Route
from companion.ui.scoreboard import ScoreboardState, SideRow

NAME_SIZE = 36
"""A side's name in large type, as a TV across the room reads it."""

NAME_LETTERS = 10
"""How many letters of a name in large type a phone's line holds (360 px wide): about ten."""


def names_size(names: list[str]) -> float:
    """The size of the sides' names in large type, one for all: smaller when a word of one
    would not fit a phone's line, so that a name breaks between words ("Bartholomeus"
    whole), not inside one. Never under 24, which is still large on a TV."""
    longest = max((len(word) for name in names for word in re.split(r"[\s-]+", name)), default=0)
    return NAME_SIZE if longest <= NAME_LETTERS else max(24, round(NAME_SIZE * NAME_LETTERS / (longest + 1), 1))  # a letter to spare


class TableViewState:
    """The game a TV shows: the one asked for, or the newest in progress (a new game shows up by itself)."""

    def __init__(self, store: GameStore, game_id: int | None = None):
        self._store = store
        self.game_id = game_id
        self.board: ScoreboardState | None = None
        self.error: str | None = None

    def load(self) -> None:
        game_id = self.game_id
        if game_id is None:
            try:
                playing = self._store.in_progress()
            except StoreError as err:
                self.board, self.error = None, err.message
                return
            game_id = playing[0].id if playing else None
        if game_id is None:
            self.board, self.error = None, None
            return
        self.board = ScoreboardState(self._store, game_id, read_only=True)
        self.error = None if self.board.load() else self.board.error
        if self.error:
            self.board = None

    @property
    def empty_message(self) -> str | None:
        if self.board or self.error:
            return None
        return _("No game in progress. It appears here as soon as one starts.")


def table_view(app, game_id: int | None) -> ft.View:
    """Scoreboard and chart only, in type large enough to read across a room."""
    return TableScreen(app, game_id).view


class TableScreen(widgets.FollowsGames):
    """The table view of one game, kept so that a round saved elsewhere changes its totals,
    lines and chart in place (``follow``), as on every scoreboard: the big screen then draws
    what changed, not a page built anew with its chart at every round."""

    def __init__(self, app, game_id: int | None):
        route = Route(Page.TABLE) if game_id is None else Route(Page.TABLE_OF_GAME, game_id=game_id)
        self.state = state = TableViewState(app.store, game_id)
        state.load()
        board = state.board
        self.title = ft.Text(board.title if board else _("Table view"), size=28, weight=ft.FontWeight.W_600)
        self.totals: list[BigTotal] = []
        self.lines: list[ft.Text] = []
        self.chart: ScoreChart | None = None
        self._shape = _layout(board)
        body: list[ft.Control] = []
        if state.error:
            body.append(widgets.error_banner(state.error))
        if state.empty_message:
            body.append(widgets.empty_state(ft.Icons.TV, state.empty_message))
        if board:
            banner = board.banner
            if banner:
                body.append(
                    widgets.tagged(
                        ft.Text(f"{banner.title} {banner.text}", size=34, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
                        "table-banner",
                        live_region=True,
                    )
                )
            sides = board.sides()
            size = names_size([side.name for side in sides])
            self.totals = [BigTotal(row, size) for row in sides]
            self.lines = [ft.Text(size=22, color=ft.Colors.ON_SURFACE_VARIANT) for _line in range(2)]
            self._show_lines(board)
            chart = _chart_to_come()
            if board.game.rounds:
                self.chart = ScoreChart(board.chart(), height=CHART_HEIGHT, text_size=20)
                chart = widgets.tagged(self.chart.control, "table-chart")
            body.append(
                ft.ResponsiveRow(
                    [ft.Column([ft.Column([t.control for t in self.totals], spacing=8), *self.lines], col={"xs": 12, "md": 5}),
                     ft.Container(chart, col={"xs": 12, "md": 7})],
                    spacing=24,
                    run_spacing=24,
                )
            )
        self.view = ft.View(
            route=route.path,
            appbar=ft.AppBar(
                title=self.title,
                leading=widgets.back_button(app),
                automatically_imply_leading=False,
                bgcolor=ft.Colors.SURFACE_CONTAINER,
            ),
            controls=[widgets.tagged(ft.Container(ft.Column(body, spacing=24), padding=24), "table-view")],
            scroll=ft.ScrollMode.AUTO,
            padding=0,
            bgcolor=ft.Colors.SURFACE,
        )
        self.view.data = self

    def follow(self, record) -> list[ft.Control] | None:
        """Show ``record``, the shown game after a change elsewhere, in place: the controls that
        changed (none: another game, which leaves the page as it is). None when the page must
        be built anew: the change alters what the page holds (the first round's chart, the
        game's end, which on ``/table`` also moves on to the next game in progress, or a newer
        game in progress there, ``_moves_to``)."""
        board = self.state.board
        if board is None or record.id != board.game_id:
            return None if self._moves_to(record) else []
        board.follow(record)
        if _layout(board) != self._shape:
            return None
        self.title.value = board.title
        for total, row in zip(self.totals, board.sides()):
            total.show(row)
        self._show_lines(board)
        changed: list[ft.Control] = [self.title, *(t.control for t in self.totals), *self.lines]
        if self.chart is not None:
            self.chart.show(board.chart())
            changed.append(self.chart.chart)
        return changed

    def _moves_to(self, record) -> bool:
        """Whether ``record``, another game than the one shown, changes what the page shows:
        on ``/table``, a game in progress newer than the shown one (a new game, a game
        taken up again) or any game in progress where none was shown (or an error). Other
        games' saves leave it as it is, so a club's TV is not built anew at every table's save."""
        state = self.state
        if state.game_id is not None:
            return False  # /table/<n> shows its game only
        if state.board is None:
            return state.error is not None or record.status == "in_progress"
        shown = state.board.loaded
        return record.status == "in_progress" and (record.created_at, record.id) > (shown.created_at, shown.id)

    def _show_lines(self, board: ScoreboardState) -> None:
        shown = [t for t in (board.progress, board.next_up) if t]
        for line, text in zip(self.lines, shown + [""] * len(self.lines)):
            line.value, line.visible = text, bool(text)


CHART_HEIGHT = 420


def _chart_to_come() -> ft.Control:
    """The chart's place before round 1: said, not left blank, to a room that looks at a TV."""
    return widgets.tagged(
        ft.Card(
            ft.Container(
                ft.Column(
                    [
                        ft.Icon(ft.Icons.SHOW_CHART, size=56, color=ft.Colors.OUTLINE),
                        ft.Text(
                            _("The chart starts after the first round."),
                            size=22,
                            text_align=ft.TextAlign.CENTER,
                            color=ft.Colors.ON_SURFACE_VARIANT,
                        ),
                    ],
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    alignment=ft.MainAxisAlignment.CENTER,
                    spacing=12,
                    tight=True,
                ),
                height=CHART_HEIGHT,
                padding=24,
                alignment=ft.Alignment.CENTER,
            ),
            margin=0,  # as the chart's card has
        ),
        "table-chart-to-come",
    )


def _layout(board: ScoreboardState | None) -> tuple:
    """What decides the table view's parts: while it stays the same, a change only changes
    their contents."""
    if board is None:
        return (None,)
    return (board.game_id, board.banner, bool(board.game.rounds), tuple(row.name for row in board.sides()))


class BigTotal:
    """One side's name and total in large type, its row lit while it leads."""

    def __init__(self, row: SideRow, name_size: float):
        self.name = ft.Text(size=name_size, weight=ft.FontWeight.W_600, expand=True)
        self.total = ft.Text(size=72, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.RIGHT)
        # a long name on a phone's width takes a line of its own, whole, over the total
        named = ft.Row([ft.Container(width=18, height=18, bgcolor=row.color, border_radius=9), self.name], spacing=16, col={"xs": 12, "sm": 8})
        self.box = ft.Container(
            ft.ResponsiveRow([named, ft.Container(self.total, col={"xs": 12, "sm": 4})], vertical_alignment=ft.CrossAxisAlignment.CENTER, run_spacing=0),
            padding=ft.Padding.symmetric(horizontal=20, vertical=8),
            border_radius=16,
        )
        self.control = widgets.tagged(self.box, f"table-total-{row.name}")
        self.show(row)

    def show(self, row: SideRow) -> None:
        self.name.value, self.total.value = row.name, points(row.total)
        self.total.color = ft.Colors.PRIMARY if row.leading else ft.Colors.ON_SURFACE
        self.box.bgcolor = ft.Colors.PRIMARY_CONTAINER if row.leading else None
        self.control.label = f"{row.name} {row.total}"

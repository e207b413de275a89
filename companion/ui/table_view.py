"""The table view for a TV or laptop: a game's scoreboard and chart only, in type large
enough to read across a room."""

from __future__ import annotations

import flet as ft

from companion.i18n import _
from companion.store import StoreError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.chart import score_chart
from companion.ui.format import points
from companion.ui.routes import Page, Route
from companion.ui.scoreboard import ScoreboardState


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
    route = Route(Page.TABLE) if game_id is None else Route(Page.TABLE_OF_GAME, game_id=game_id)
    state = TableViewState(app.store, game_id)
    state.load()
    board = state.board
    title = board.title if board else _("Table view")
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
        lines = [t for t in (board.progress, board.next_up) if t]
        totals = ft.Column([_big_total(row) for row in board.sides()], spacing=8)
        chart = widgets.tagged(score_chart(board.chart(), height=420, text_size=20), "table-chart") if board.game.rounds else ft.Container()
        body.append(
            ft.ResponsiveRow(
                [ft.Column([totals, *[ft.Text(t, size=22, color=ft.Colors.ON_SURFACE_VARIANT) for t in lines]], col={"xs": 12, "md": 5}),
                 ft.Container(chart, col={"xs": 12, "md": 7})],
                spacing=24,
                run_spacing=24,
            )
        )
    view = ft.View(
        route=route.path,
        appbar=ft.AppBar(
            title=ft.Text(title, size=28, weight=ft.FontWeight.W_600),
            leading=widgets.back_button(app),
            automatically_imply_leading=False,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
        controls=[widgets.tagged(ft.Container(ft.Column(body, spacing=24), padding=24), "table-view")],
        scroll=ft.ScrollMode.AUTO,
        padding=0,
        bgcolor=ft.Colors.SURFACE,
    )
    return view


def _big_total(row) -> ft.Control:
    return widgets.tagged(
        ft.Container(
            ft.Row(
                [
                    ft.Container(width=18, height=18, bgcolor=row.color, border_radius=9),
                    ft.Text(row.name, size=36, weight=ft.FontWeight.W_600, expand=True, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(points(row.total), size=72, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY if row.leading else ft.Colors.ON_SURFACE),
                ],
                spacing=16,
            ),
            padding=ft.Padding.symmetric(horizontal=20, vertical=8),
            bgcolor=ft.Colors.PRIMARY_CONTAINER if row.leading else None,
            border_radius=16,
        ),
        f"table-total-{row.name}",
        label=f"{row.name} {row.total}",
    )

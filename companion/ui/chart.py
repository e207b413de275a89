"""The score chart: each side's running total as a line. The scoreboard and the table view
both draw it; flet_charts is imported only when a chart is drawn, off the first page's path."""

from __future__ import annotations

import flet as ft

from companion.ui import widgets
from companion.ui.format import points
from companion.ui.theme import side_color


def score_chart(series: dict[str, list[int]], height: int = 220, text_size: int = 12) -> ft.Control:
    """Each side's running total as a line, with a legend; ``height`` and ``text_size`` grow on the table view."""
    return ScoreChart(series, height, text_size).control


class ScoreChart:
    """The score chart of one page, kept so that a new round only adds its points (``show``)."""

    def __init__(self, series: dict[str, list[int]], height: int = 220, text_size: int = 12):
        import flet_charts as fch  # type: ignore[import-untyped]  # no type information; a tenth of a second to import: kept off the first page's path (app.load_with_store)

        self._fch = fch
        self.lines = [
            fch.LineChartData(points=[], color=side_color(i), stroke_width=3, curved=False, rounded_stroke_cap=True)
            for i in range(len(series))
        ]
        # axes and grid lines kept, their spacing set in place: a new round sends only what moved
        self.left_axis = fch.ChartAxis(label_size=40)
        self.bottom_axis = fch.ChartAxis(label_size=24)
        self.chart = fch.LineChart(
            data_series=self.lines, height=height, interactive=True, left_axis=self.left_axis, bottom_axis=self.bottom_axis, animation=AT_ONCE
        )
        self.show(series)
        legend = ft.Row(
            [
                ft.Row([ft.Container(width=12, height=4, bgcolor=side_color(i), border_radius=2), ft.Text(side, size=text_size)], spacing=6, tight=True)
                for i, side in enumerate(series)
            ],
            wrap=True,
            spacing=14,
        )
        self.control = widgets.tagged(
            ft.Card(ft.Container(ft.Column([self.chart, legend], spacing=10), padding=ft.Padding.only(left=4, right=16, top=16, bottom=12)), margin=0),
            "score-chart",
        )

    def _point(self, x: int, y: int, tooltip: str):
        # its tooltip given as an object: from text, flet_charts makes a new one whenever the point is compared
        return widgets.frozen(self._fch.LineChartDataPoint(x, y, tooltip=self._fch.LineChartDataPointTooltip(text=tooltip)))

    def show(self, series: dict[str, list[int]]) -> None:
        """Each side's running totals: the points already drawn stay (frozen: a moved point is a
        new one), changed and new ones are added."""
        fch = self._fch
        values = [v for line in series.values() for v in line]
        low, high = min(values + [0]), max(values + [0])
        step = nice_step(max(high - low, 1) / 4)
        rounds = len(next(iter(series.values()))) - 1
        kept = drawn_rounds(rounds)
        for data, (side, line) in zip(self.lines, series.items()):
            drawn = {(point.x, point.y): point for point in data.points}
            data.points[:] = [drawn.get((x, line[x])) or self._point(x, line[x], f"{side}: {points(line[x])}") for x in kept]
            data.point = rounds <= 20
        x_step = max(1, nice_step(rounds / 6)) if rounds > 6 else 1
        chart = self.chart
        chart.min_x, chart.max_x = 0, max(rounds, 1)
        chart.min_y = (low // step) * step
        chart.max_y = -(-high // step) * step if high > 0 else step
        self.left_axis.label_spacing, self.bottom_axis.label_spacing = step, x_step
        if chart.horizontal_grid_lines is None or chart.horizontal_grid_lines.interval != step:
            chart.horizontal_grid_lines = fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=0.5)
        if chart.vertical_grid_lines is None or chart.vertical_grid_lines.interval != x_step:
            chart.vertical_grid_lines = fch.ChartGridLines(interval=x_step, color=ft.Colors.OUTLINE_VARIANT, width=0.5)


AT_ONCE = ft.Animation(duration=ft.Duration())
"""A new round's points are drawn at once, not moved there: the chart's default animation drew
150 ms of frames on every phone that shows it, at every round (on a table's shared screens
that held back the last one)."""


CHART_POINTS = 30
"""Points drawn per line at most: a long game's chart thins out its older rounds, so a
page's size on the server does not grow with the rounds it has watched."""


def drawn_rounds(rounds: int) -> list[int]:
    """The rounds (0 = the start) whose totals a line draws: every one up to CHART_POINTS,
    beyond that every 2nd, 4th, 8th... one, always with the start and the latest round. The
    step doubles, so a longer game keeps the points drawn before, less every other one
    (a step of 3 after 2 would move nearly every point, sent again to every device)."""
    step = 1
    while rounds > CHART_POINTS * step:
        step *= 2
    kept = list(range(0, rounds + 1, step))
    if kept[-1] != rounds:
        kept.append(rounds)
    return kept


def nice_step(raw: float) -> int:
    """A round grid step (1, 2, 5, 10, 20, 50...) near ``raw``."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= raw:
                return step * factor
        step *= 10

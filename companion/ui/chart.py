"""The score chart: each side's running total as a line. The scoreboard and the table view
both draw it; flet_charts is imported only when a chart is drawn, off the first page's path."""

from __future__ import annotations

import flet as ft

from companion.ui import widgets
from companion.ui.format import points
from companion.ui.theme import side_color


def score_chart(series: dict[str, list[int]], height: int = 220, text_size: int = 12) -> ft.Control:
    """Each side's running total as a line, with a legend; ``height`` and ``text_size`` grow on the table view."""
    import flet_charts as fch  # type: ignore[import-untyped]  # no type information; a tenth of a second to import: kept off the first page's path (app.load_later)

    values = [v for line in series.values() for v in line]
    low, high = min(values + [0]), max(values + [0])
    span = max(high - low, 1)
    step = nice_step(span / 4)
    rounds = len(next(iter(series.values()))) - 1
    data = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(x, y, tooltip=f"{side}: {points(y)}") for x, y in enumerate(line)],
            color=side_color(i),
            stroke_width=3,
            curved=False,
            rounded_stroke_cap=True,
            point=rounds <= 20,
        )
        for i, (side, line) in enumerate(series.items())
    ]
    x_step = max(1, nice_step(rounds / 6)) if rounds > 6 else 1
    chart = fch.LineChart(
        data_series=data,
        min_x=0,
        max_x=max(rounds, 1),
        min_y=(low // step) * step,
        max_y=-(-high // step) * step if high > 0 else step,
        height=height,
        left_axis=fch.ChartAxis(label_size=40, label_spacing=step),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=x_step),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=0.5),
        vertical_grid_lines=fch.ChartGridLines(interval=x_step, color=ft.Colors.OUTLINE_VARIANT, width=0.5),
        interactive=True,
    )
    legend = ft.Row(
        [
            ft.Row([ft.Container(width=12, height=4, bgcolor=side_color(i), border_radius=2), ft.Text(side, size=text_size)], spacing=6, tight=True)
            for i, side in enumerate(series)
        ],
        wrap=True,
        spacing=14,
    )
    return widgets.tagged(
        ft.Card(ft.Container(ft.Column([chart, legend], spacing=10), padding=ft.Padding.only(left=4, right=16, top=16, bottom=12)), margin=0),
        "score-chart",
    )


def nice_step(raw: float) -> int:
    """A round grid step (1, 2, 5, 10, 20, 50...) near ``raw``."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= raw:
                return step * factor
        step *= 10

"""Flet building blocks the referee screens share: switches, choices, steppers, verdicts.

Every block takes ready-made values and handlers; the screens' state objects decide.
Each tappable block gets an identifier for browser tests
(``[flt-semantics-identifier='...']``).
"""

from __future__ import annotations

from typing import Callable, Sequence

import flet as ft

from companion.i18n import _

TAP = 48
"""Smallest height of anything a player taps (Material's minimum touch target)."""


def tagged(control: ft.Control, identifier: str) -> ft.Semantics:
    return ft.Semantics(content=control, identifier=identifier)


def heading(text: str) -> ft.Control:
    return ft.Text(text, size=13, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY)


def switch(label: str, identifier: str, value: bool, on_change: Callable) -> ft.Control:
    return tagged(ft.Switch(label=label, value=value, on_change=on_change), identifier)


def choice(options: Sequence[tuple[str, str]], selected: str, on_pick: Callable[[str], Callable], identifier: str) -> ft.Control:
    """One button per option (value, label); the selected one is filled.

    Each button is tagged ``<identifier>-<value>``.
    """
    buttons = []
    for value, label in options:
        kind = ft.FilledButton if value == selected else ft.OutlinedButton
        buttons.append(tagged(kind(label, on_click=on_pick(value), height=TAP), f"{identifier}-{value}"))
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def stepper(label: str, value: int, on_step: Callable[[int], Callable], identifier: str, low: int, high: int) -> ft.Control:
    """A labelled number with minus and plus buttons (``<identifier>-minus`` / ``-plus``)."""
    return ft.Row(
        [
            ft.Text(label, expand=True),
            tagged(
                ft.IconButton(icon=ft.Icons.REMOVE, on_click=on_step(-1), disabled=value <= low, tooltip=_("Fewer")),
                f"{identifier}-minus",
            ),
            tagged(ft.Text(str(value), size=20, weight=ft.FontWeight.W_600, width=40, text_align=ft.TextAlign.CENTER),
                   identifier),
            tagged(
                ft.IconButton(icon=ft.Icons.ADD, on_click=on_step(1), disabled=value >= high, tooltip=_("More")),
                f"{identifier}-plus",
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def notice(message: str | None, identifier: str) -> ft.Control:
    """A short hint about a tap that was refused; nothing when there is none."""
    if not message:
        return ft.Container(height=0)
    return tagged(ft.Text(message, color=ft.Colors.ERROR), identifier)


def verdict(good: bool, headline: str, lines: Sequence[str], identifier: str) -> ft.Control:
    """The referee's answer: a coloured card with a headline and the reasons."""
    background = ft.Colors.PRIMARY_CONTAINER if good else ft.Colors.ERROR_CONTAINER
    foreground = ft.Colors.ON_PRIMARY_CONTAINER if good else ft.Colors.ON_ERROR_CONTAINER
    icon = ft.Icons.CHECK_CIRCLE_OUTLINE if good else ft.Icons.CANCEL_OUTLINED
    body = [
        ft.Row(
            [ft.Icon(icon, color=foreground), ft.Text(headline, size=18, weight=ft.FontWeight.W_600, color=foreground,
                                                    expand=True)],
            spacing=8,
        ),
        *(ft.Text(line, color=foreground) for line in lines if line),
    ]
    return tagged(
        ft.Container(ft.Column(body, spacing=6), bgcolor=background, border_radius=12, padding=16),
        identifier,
    )


def facts(rows: Sequence[tuple[str, str]], identifier: str) -> ft.Control:
    """Label and value pairs, e.g. "Winning so far" and the card."""
    return tagged(
        ft.Column(
            [
                ft.Row([ft.Text(label, expand=True), ft.Text(value, weight=ft.FontWeight.W_600)], spacing=8)
                for label, value in rows
            ],
            spacing=4,
        ),
        identifier,
    )

"""Flet building blocks of the referee screens and the rules reference: keys, choices, steppers, verdicts.

Controls are built once. Each block registers with a ``Binder`` a small sync function
that copies the state onto its controls; an intent handler changes the state and re-runs
every sync, and Flet's automatic update after the handler sends the changes. Tap targets
stay in place, so quick taps are never lost to a rebuilt screen. Only read-outs (a
verdict, the cards in a pile) are rebuilt, inside ``binder.section``.

Each tappable block gets an identifier for browser tests
(``[flt-semantics-identifier='...']``).
"""

from __future__ import annotations

from typing import Callable, Sequence

from functools import partial
import flet as ft

from companion.i18n import _
from companion.ui.synced import SyncedControls
from companion.ui.widgets import SteadyFilledButton, tagged

TAP = 48
"""Smallest height of anything a player taps (Material's minimum touch target)."""

KEY_SHAPE = ft.RoundedRectangleBorder(radius=8)


def key_style(selected: bool, color=None, narrow: bool = False, marked: bool = False) -> ft.ButtonStyle:
    """A tappable key or choice: filled when selected, tinted when ``marked`` (a second
    kind of selection), quiet otherwise. A ``narrow`` key has no inner padding, so "10"
    or "10♥" fits on one line."""
    padding = 0 if narrow else ft.Padding.symmetric(horizontal=14)
    if selected:
        return ft.ButtonStyle(padding=padding, shape=KEY_SHAPE, bgcolor=ft.Colors.PRIMARY, color=ft.Colors.ON_PRIMARY)
    if marked:
        return ft.ButtonStyle(
            padding=padding, shape=KEY_SHAPE, bgcolor=ft.Colors.TERTIARY, color=ft.Colors.ON_TERTIARY
        )
    return ft.ButtonStyle(
        padding=padding, shape=KEY_SHAPE, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, color=color or ft.Colors.ON_SURFACE
    )


def heading(text: str) -> ft.Control:
    return ft.Text(text, size=13, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY)


class Binder(SyncedControls):
    """Keeps a screen's controls in step with its state."""

    def rooted(self, content: ft.Column) -> ft.Column:
        """The screen's ``content``, which holds every control a sync changes: a tap updates
        what changed in it, where Flet's automatic update compared the whole page."""
        self.root = content
        return content

    # --- blocks -------------------------------------------------------------------------

    def section(self, build: Callable[[], Sequence[ft.Control]]) -> ft.Column:
        """A read-out rebuilt after every intent."""
        column = ft.Column(spacing=8)

        def sync():
            column.controls = list(build())

        self.bind(sync)
        return column

    def key(
        self,
        text: str,
        identifier: str,
        on_tap: Callable[[], None],
        selected: Callable[[], bool] = lambda: False,
        disabled: Callable[[], bool] = lambda: False,
        width: int | None = None,
        color=None,
        marked: Callable[[], bool] = lambda: False,
    ) -> ft.Semantics:
        """A button that stays put; its look follows ``selected``, ``marked`` and ``disabled``."""
        control = SteadyFilledButton(text, on_click=self.intent(on_tap), width=width, height=TAP)

        def sync():
            control.style = key_style(selected(), color, narrow=width is not None, marked=marked())
            control.disabled = disabled()

        self.bind(sync)
        return tagged(control, identifier)

    def choice(
        self,
        options: Sequence[tuple[str, str]],
        selected: Callable[[], str],
        pick: Callable[[str], None],
        identifier: str,
        visible: Callable[[str], bool] = lambda value: True,
    ) -> ft.Control:
        """One key per option (value, label), tagged ``<identifier>-<value>``; the selected one filled."""
        def chosen(value: str) -> Callable[[], bool]:
            return lambda: selected() == value

        keys: list[ft.Control] = []
        for value, label in options:
            key = self.key(label, f"{identifier}-{value}", partial(pick, value), chosen(value))
            keys.append(key)

            def sync(key=key, value=value):
                key.visible = visible(value)

            self.bind(sync)
        return ft.Row(keys, wrap=True, spacing=8, run_spacing=8)

    def stepper(
        self,
        label: Callable[[], str] | str,
        value: Callable[[], int],
        step: Callable[[int], None],
        identifier: str,
        low: int,
        high: int,
    ) -> ft.Control:
        """A labelled number with minus and plus buttons (``<identifier>-minus`` / ``-plus``)."""
        caption = ft.Text(expand=True)
        number = ft.Text(size=20, weight=ft.FontWeight.W_600, width=40, text_align=ft.TextAlign.CENTER)
        minus = ft.IconButton(icon=ft.Icons.REMOVE, on_click=self.intent(lambda: step(-1)), tooltip=_("Fewer"))
        plus = ft.IconButton(icon=ft.Icons.ADD, on_click=self.intent(lambda: step(1)), tooltip=_("More"))

        def sync():
            caption.value = label() if callable(label) else label
            number.value = str(value())
            minus.disabled = value() <= low
            plus.disabled = value() >= high

        self.bind(sync)
        return ft.Row(
            [caption, tagged(minus, f"{identifier}-minus"), tagged(number, identifier), tagged(plus, f"{identifier}-plus")],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )


def notice(message: str | None, identifier: str) -> list[ft.Control]:
    """A short hint about a tap that was refused; nothing when there is none."""
    return [tagged(ft.Text(message, color=ft.Colors.ERROR), identifier)] if message else []


def verdict(good: bool, headline: str, lines: Sequence[str], identifier: str) -> ft.Control:
    """The referee's answer: a coloured card with a headline and the reasons."""
    background = ft.Colors.PRIMARY_CONTAINER if good else ft.Colors.ERROR_CONTAINER
    foreground = ft.Colors.ON_PRIMARY_CONTAINER if good else ft.Colors.ON_ERROR_CONTAINER
    icon = ft.Icons.CHECK_CIRCLE_OUTLINE if good else ft.Icons.CANCEL_OUTLINED
    body: list[ft.Control] = [
        ft.Row(
            [
                ft.Icon(icon, color=foreground),
                ft.Text(headline, size=18, weight=ft.FontWeight.W_600, color=foreground, expand=True),
            ],
            spacing=8,
        ),
        *(ft.Text(line, color=foreground) for line in lines if line),
    ]
    return tagged(ft.Container(ft.Column(body, spacing=6), bgcolor=background, border_radius=12, padding=16), identifier)


def facts(rows: Sequence[tuple[str, str]], identifier: str) -> ft.Control:
    """Label and value pairs, e.g. "Winning so far" and the card."""
    return tagged(
        ft.Column(
            [
                ft.Row(  # the value takes the room left and wraps, so the label keeps its words whole
                    [ft.Text(label), ft.Text(value, weight=ft.FontWeight.W_600, expand=True, text_align=ft.TextAlign.RIGHT)],
                    spacing=8,
                )
                for label, value in rows
            ],
            spacing=4,
        ),
        identifier,
    )

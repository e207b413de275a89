"""The Flet frame every round-entry form shares, and its building blocks.

Controls are built once; each block registers a small sync function that copies the
state onto its controls. An intent handler changes the state and re-runs every sync,
and Flet's automatic update after the handler sends the changes. Keeping the controls
(text fields above all) in place means a field never loses focus while the player types.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

import flet as ft

from companion.i18n import _
from companion.ui.round_entry.state import EntryState, Keypad
from companion.ui.synced import SyncedControls
from companion.ui.widgets import SteadyTonalButton, tagged

TAP = 48
"""Smallest height of anything a player taps (Material's minimum touch target)."""
LINE = 20
"""The height of a line of a button's text (Material's label text: 14 px on a 20 px line)."""


class EntryForm(SyncedControls):
    """The frame of a round-entry form: body, preview, status line, Cancel and Save."""

    def __init__(self, state: EntryState, on_save: Callable[[dict], None], on_cancel: Callable[[], None] | None = None):
        super().__init__()
        self.state = state
        self.on_save = on_save
        self.on_cancel = on_cancel

    # --- building blocks --------------------------------------------------------------

    def slot(
        self,
        identifier: str,
        label: str,
        text: Callable[[], str],
        selected: Callable[[], bool],
        on_tap: Callable[[], None],
        width: float | None = None,
        strong: bool = False,
        expand: bool | int = False,
    ) -> ft.Control:
        """A tappable box showing a value; highlighted while selected.

        A fixed ``width``, or ``expand`` to take a share of its Row (narrow screens).
        """
        shown = ft.Text(size=20 if strong else 18, weight=ft.FontWeight.BOLD if strong else None)
        box = ft.Container(
            content=shown,
            width=width,
            height=TAP,
            alignment=ft.Alignment.CENTER,
            border_radius=ft.BorderRadius.all(8),
            on_click=self.intent(on_tap),
            ink=True,
        )

        def sync():
            shown.value = text()
            on = selected()
            box.bgcolor = ft.Colors.PRIMARY_CONTAINER if on else ft.Colors.SURFACE_CONTAINER_HIGHEST
            box.border = ft.Border.all(2, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT)

        self.bind(sync)
        return tagged(box, identifier, label=label, button=True, expand=expand)

    def key(
        self,
        content: str | ft.Control,
        identifier: str,
        label: str,
        on_tap: Callable[[], None],
        enabled: Callable[[], bool] = lambda: True,
    ) -> ft.Control:
        """A big keypad-style button that shares its row's width with its neighbours."""
        button = SteadyTonalButton(
            content=ft.Text(content, size=20) if isinstance(content, str) else content,
            height=TAP + 4,
            on_click=self.intent(on_tap),
            style=ft.ButtonStyle(padding=ft.Padding.all(0), shape=ft.RoundedRectangleBorder(radius=8)),
        )

        def sync():
            button.disabled = not enabled()

        self.bind(sync)
        return tagged(button, identifier, label=label, expand=True)

    def keypad(self, hide_when_idle: bool = False) -> ft.Control:
        """Digits 0-9, clear and next, for the state's selected number (``state.cursor``).

        The state offers ``press(digit)``, ``backspace()`` and ``next()``. With
        ``hide_when_idle`` the keypad only shows while an input is selected.
        """
        state = self.state
        if not isinstance(state, Keypad):
            raise TypeError(f"{type(state).__name__} has no number keypad")

        def key(content, identifier, label, intent):
            return self.key(content, identifier, label, intent, enabled=lambda: state.cursor is not None)

        top = [key(str(d), f"entry-key-{d}", str(d), partial(state.press, d)) for d in range(5)]
        top.append(key(ft.Icon(ft.Icons.BACKSPACE_OUTLINED), "entry-key-back", _("Clear"), state.backspace))
        bottom = [key(str(d), f"entry-key-{d}", str(d), partial(state.press, d)) for d in range(5, 10)]
        bottom.append(key(ft.Icon(ft.Icons.ARROW_FORWARD), "entry-key-next", _("Next"), state.next))
        pad = ft.Column([ft.Row(top, spacing=4), ft.Row(bottom, spacing=4)], spacing=4)
        if hide_when_idle:

            def sync():
                pad.visible = state.cursor is not None

            self.bind(sync)
        return pad

    def button(
        self,
        text: str | Callable[[], str],
        identifier: str,
        on_tap: Callable[[], None],
        pressed: Callable[[], bool] = lambda: False,
        enabled: Callable[[], bool] = lambda: True,
        expand: bool | int = False,
    ) -> ft.Control:
        """An outlined button; it reads as pressed (filled) while ``pressed()``, for toggles. A
        line of text makes it ``TAP`` high, and it grows with more: a fixed height cut a team's
        long names."""
        caption = ft.Text(text if isinstance(text, str) else "", text_align=ft.TextAlign.CENTER)
        button = ft.OutlinedButton(content=caption, on_click=self.intent(on_tap))

        def sync():
            if callable(text):
                caption.value = text()
            on = pressed()
            button.disabled = not enabled()
            button.style = ft.ButtonStyle(
                bgcolor=ft.Colors.PRIMARY if on else None,
                color=ft.Colors.ON_PRIMARY if on else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=(TAP - LINE) / 2),
                visual_density=ft.VisualDensity.STANDARD,  # as on a phone: a desktop's compact density takes 16 px off
                shape=ft.RoundedRectangleBorder(radius=8),
            )

        self.bind(sync)
        return tagged(button, identifier, expand=expand)

    def error_line(self, message: Callable[[], str | None], identifier: str) -> ft.Control:
        """The inline message under an input; hidden while there is nothing to say."""
        text = ft.Text(color=ft.Colors.ERROR, size=14)
        line = tagged(text, identifier)

        def sync():
            msg = message()
            text.value = msg or ""
            line.visible = bool(msg)  # hide the wrapper: Semantics needs visible content

        self.bind(sync)
        return line

    # --- the frame --------------------------------------------------------------------

    def build(
        self,
        body: list[ft.Control],
        footer: Sequence[ft.Control] = (),
        subtitle: Callable[[], str] = lambda: "",
        pin_preview: bool = False,
        pin_scores: bool = False,
    ) -> EntryForm:
        """Scrolling body and preview above; fixed ``footer`` (keypads), status and buttons
        below; the form, its control in ``root``.

        ``subtitle()`` follows the round number in the heading (e.g. who deals). With
        ``pin_preview`` the preview moves above the footer while a number is typed
        (``state.cursor``), so that a keypad never hides it. With ``pin_scores`` the
        round's points and totals stay above the footer in a line of their own (``scores``),
        for a body taller than a phone's screen, below which the preview's every note is
        out of sight.
        """
        state = self.state
        title = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        note = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)

        def sync_heading():
            number = state.round_number
            title.value = _("Round {n}").format(n=number) if state.index is None else _("Edit round {number}").format(number=number)
            note.value = subtitle()

        self.bind(sync_heading)
        header = ft.Row([title, note], vertical_alignment=ft.CrossAxisAlignment.CENTER)
        preview = self._preview()
        below_body = ft.Column([preview])
        above_footer = ft.Column([self._scores()] if pin_scores else [])
        scroller = ft.Column(
            [header, *body, below_body],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
            spacing=8,
        )
        bottom = ft.Column([above_footer, *footer, self._status(), self._buttons()], spacing=6)
        if pin_preview:

            def sync():
                typing = state.cursor is not None
                below_body.controls = [] if typing else [preview]
                above_footer.controls = [preview] if typing else []

            self.bind(sync)
        self.root = ft.Container(  # no expand: the box it is shown in expands (RoundForm), and it fills that box
            content=ft.Column([scroller, bottom], expand=True, spacing=8),
            padding=ft.Padding.symmetric(horizontal=8, vertical=8),
        )
        return self

    def _preview(self) -> ft.Control:
        """The round's scores and notes once the entry is valid."""
        rows = ft.Column(spacing=2)
        panel = ft.Container(
            content=rows,
            padding=ft.Padding.all(10),
            border_radius=ft.BorderRadius.all(8),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
        )

        tagged_panel = tagged(panel, "entry-preview")

        def sync():
            preview = self.state.preview()
            tagged_panel.visible = preview is not None
            if preview is None:
                rows.controls = []
                return
            header = _("Round {n} scores").format(n=self.state.round_number)
            lines: list[ft.Control] = [
                ft.Row(
                    [
                        ft.Text(header, weight=ft.FontWeight.BOLD, expand=True),
                        ft.Text(_("Round"), width=64, text_align=ft.TextAlign.RIGHT),
                        ft.Text(_("Total"), width=64, text_align=ft.TextAlign.RIGHT),
                    ]
                )
            ]
            for side, points in preview.scores.items():
                row = ft.Row(
                    [
                        ft.Text(side, expand=True),
                        ft.Text(_gain(points), width=64, text_align=ft.TextAlign.RIGHT),
                        ft.Text(str(preview.totals[side]), width=64, text_align=ft.TextAlign.RIGHT),
                    ]
                )
                lines.append(tagged(row, f"entry-preview-{side}"))
            lines.extend(tagged(ft.Text(note, italic=True), f"entry-preview-note-{i}") for i, note in enumerate(preview.notes))
            rows.controls = lines

        self.bind(sync)
        return tagged_panel

    def _scores(self) -> ft.Control:
        """The round's points and each side's total after it, in one line ("Ann +5 → 12"),
        and that the round ends the game, once the entry is valid."""
        scores = ft.Text(size=14, weight=ft.FontWeight.W_600)
        ending = ft.Text(size=14, italic=True)
        line = tagged(
            ft.Container(
                ft.Column([scores, ending], spacing=2),
                padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                border_radius=ft.BorderRadius.all(8),
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
            ),
            "entry-scores",
        )

        def sync():
            preview = self.state.preview()
            line.visible = preview is not None
            if preview is None:
                return
            scores.value = " · ".join(  # a side's figures stay together on a line (no-break spaces)
                f"{side}\u00a0{_gain(points)}\u00a0→\u00a0{preview.totals[side]}"
                for side, points in preview.scores.items()
            )
            ending.value = preview.ending or ""
            ending.visible = preview.ending is not None

        self.bind(sync)
        return line

    def _status(self) -> ft.Control:
        text = ft.Text(size=14)

        def sync():
            wide = self.state.error_at(None)
            text.value = wide or self.state.status
            text.color = ft.Colors.ERROR if wide else ft.Colors.ON_SURFACE_VARIANT

        self.bind(sync)
        return tagged(text, "entry-status")

    def _buttons(self) -> ft.Control:
        def save(e=None):
            if self.state.valid:
                self.on_save(self.state.entry())

        save_button = ft.FilledButton(
            content=_("Save round"), icon=ft.Icons.CHECK, height=TAP + 4, on_click=save
        )

        def sync():
            save_button.disabled = not self.state.valid

        self.bind(sync)
        controls: list[ft.Control] = []
        if self.on_cancel is not None:
            cancel = ft.TextButton(content=_("Cancel"), height=TAP + 4, on_click=lambda e=None: self.on_cancel())
            controls.append(tagged(cancel, "entry-cancel"))
        controls.append(tagged(save_button, "entry-save", expand=True))
        return ft.Row(controls, spacing=8)


def _gain(points: int) -> str:
    """A round's points for a side, signed ("+5", "-3"), or "0"."""
    return f"{points:+d}" if points else "0"

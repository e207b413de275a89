"""The join screen: the only page a browser gets at a shared table before it is in."""

from __future__ import annotations

import time
from typing import Callable

import flet as ft

from companion.i18n import _
from companion.share import codes
from companion.share.table import Device, JoinRefused, Table
from companion.store.errors import StoreError
from companion.ui import widgets


class JoinState:
    """The join screen of one browser: the code typed and why the last one was refused."""

    def __init__(self, table: Table, address: str | None, user_agent: str, clock: Callable[[], float] = time.monotonic):
        self._table = table
        self._address = address
        self._user_agent = user_agent
        self._clock = clock
        self.message: str | None = None
        self.checking = True
        """Before the browser's saved key has been looked at: nothing to type yet."""
        self.away = False
        """Whether the table could not be reached at the last try (a club's database away for a
        moment): the screen then offers to try again, the browser's saved key included."""
        self.returning = False
        """Whether the browser that could not reach the table brought a device key: a device
        that was in (its server process restarted, say), which needs no code, only the table."""

    def arrive(self, key: str | None, code: str | None) -> Device | None:
        """The device this browser is: the one its saved ``key`` belongs to, with the rights a
        ``code`` it came with gives (a wrong one leaves it as it was); else the one the code
        lets in. None when neither does, with ``message`` saying why if there is a why."""
        self.away, self.message = False, None
        try:
            device = self._table.rejoin(key)
        except StoreError:
            self._unreachable(returning=key is not None)
            return None
        if code:
            device = self.submit(code, known=device) or device
        return device

    def submit(self, typed: str, known: Device | None = None) -> Device | None:
        """The device the code lets in, or None with ``message`` saying why not."""
        self.away = False
        if not codes.normalise(typed):
            self.message = _("Type the code shown on the host's screen.")
            return None
        try:
            device = self._table.admit(typed, self._address, self._user_agent, known=known)
        except JoinRefused as refused:
            self.message = refusal_message(refused)
            return None
        except StoreError:
            self._unreachable(returning=known is not None)
            return None
        self.message = None
        return device

    def _unreachable(self, returning: bool) -> None:
        """The table's database did not answer: said in words that name no server, to a
        browser that may have no code yet; to a device that was in, that it goes back by itself."""
        self.away, self.returning = True, returning
        if returning:
            self.message = _("The table cannot be reached just now. This page goes back to it by itself as soon as it can.")
        else:
            self.message = _("The table cannot be reached just now. Try again in a moment.")


def refusal_message(refused: JoinRefused) -> str:
    seconds = max(1, round(refused.wait))
    if refused.full:
        return _("This table is full. Ask the host to restart sharing.")
    if refused.wrong and refused.wait:
        return _("That code is not right. Too many wrong codes: wait {seconds} s before the next try.").format(seconds=seconds)
    if refused.wrong:
        return _("That code is not right. Check it on the host's screen.")
    return _("Too many wrong codes: try again in {seconds} s.").format(seconds=seconds)


class JoinScreen:
    """The only page a browser gets before it joins: no game, no player, nothing stored.

    Its field is kept across refusals, so a mistyped code can be corrected in place.
    """

    def __init__(self, state: JoinState, on_join: Callable[[str], None]):
        self.state = state
        self.field: ft.TextField = ft.TextField(
            label=_("Code"),
            hint_text="K7QM-2XHD",
            capitalization=ft.TextCapitalization.CHARACTERS,
            on_submit=lambda e: on_join(e.data if isinstance(e.data, str) else self.field.value or ""),
        )
        self.button = widgets.SteadyFilledButton(
            _("Join"),
            icon=ft.Icons.LOGIN,
            on_click=lambda: on_join(self.field.value or ""),
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=18)),
        )
        self.view = ft.View(route="/join", scroll=ft.ScrollMode.AUTO, padding=ft.Padding.only(top=48), bgcolor=ft.Colors.SURFACE)
        self.render()

    def render(self) -> None:
        self.field.label = _("Code")  # here, not only when built: the device's language may come after the join screen
        self.button.content = _("Try again") if self.state.away else _("Join")
        self.button.icon = ft.Icons.AUTORENEW if self.state.away else ft.Icons.LOGIN  # as every Try again
        if self.state.checking:
            body: list[ft.Control] = [ft.Container(ft.ProgressRing(), alignment=ft.Alignment.CENTER, padding=48)]
        else:
            returning = self.state.away and self.state.returning  # no code to ask for: the table is what is missing
            body = [
                ft.Icon(ft.Icons.GROUPS, size=56, color=ft.Colors.PRIMARY),
                ft.Text(
                    _("Back to the table") if returning else _("Join the table"),
                    size=24,
                    weight=ft.FontWeight.BOLD,
                    text_align=ft.TextAlign.CENTER,
                ),
            ]
            if not returning:
                body += [
                    ft.Text(
                        _("This game is shared by its host. Scan the QR code on the host's screen, or type the code shown there."),
                        text_align=ft.TextAlign.CENTER,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                    ),
                    widgets.tagged(self.field, "join-code"),
                ]
            if self.state.message:
                body.append(widgets.error_banner(self.state.message, identifier="join-error"))
            body.append(widgets.tagged(self.button, "join"))
        self.view.controls = [widgets.tagged(widgets.constrained(body), "join-screen")]

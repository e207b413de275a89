"""The Share this table page: the QR code and address to join, and for the host the
devices at the table and their rights; and the app bar's share button."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable

import flet as ft

from companion import device as this_device
from companion.i18n import _
from companion.share import codes, network, qr
from companion.share.live import DeviceEnded, DevicesChanged, JoinCodeChanged, Message, RoleChanged
from companion.share.sharing import announcement, current_table, start_sharing
from companion.share.table import DEVICE_NAME_LENGTH, Device, NameRefused, Role, Table
from companion.clock import utc_now
from companion.store.errors import StoreError
from companion.ui import session, widgets


def device_name(device: Device) -> str:
    """'Device 3 · Chrome on Android', or the name the host gave it: "Bob's phone · Chrome on Android"."""
    name = device.name or _("Device {number}").format(number=device.number)
    if device.browser and device.system:
        return f"{name} · " + _("{browser} on {system}").format(browser=device.browser, system=device.system)
    detail = device.browser or device.system
    return f"{name} · {detail}" if detail else name


def role_text(role: Role) -> str:
    return {Role.HOST: _("Host"), Role.SCORER: _("Keeps score"), Role.VIEWER: _("Watches")}[role]


@dataclass(frozen=True)
class DeviceRow:
    number: int
    name: str
    status: str
    role: str
    connected: bool
    grantable: bool
    scorer: bool


class SharePanelState:
    """What the Share this table page shows to ``device``, and the host's grants."""

    def __init__(self, table: Table | None, device: Device, now: Callable[[], datetime] = utc_now):
        self.table = table
        self.device = device
        self._now = now

    @property
    def sharing(self) -> bool:
        return self.table is not None

    @property
    def shared(self) -> Table:
        """The shared table (its address, code and devices exist only while sharing)."""
        if self.table is None:
            raise LookupError("this table is not shared")
        return self.table

    @property
    def join_url(self) -> str:
        return self.shared.invitation.join_url

    @property
    def code(self) -> str:
        return codes.grouped(self.shared.invitation.code)

    def qr_png(self) -> bytes:
        return qr.png(self.join_url)

    @property
    def you(self) -> str:
        """The device's own place at the table, in a sentence."""
        number = self.device.number
        if self.device.is_host:
            return _("This is device {number}: you host this table.").format(number=number)
        if self.device.can_score and self.device.game_id is not None:  # joined with a club table's code
            return _("This is device {number}: you keep score for your table's game.").format(number=number)
        if self.device.can_score:
            return _("This is device {number}: you keep score.").format(number=number)
        return _("This is device {number}: you watch. The host can let this device keep score.").format(number=number)

    def rows(self) -> list[DeviceRow]:
        """Every joined device but those gone for a while, for a host; nobody else sees the list."""
        if not (self.sharing and self.device.is_host):
            return []
        now = self._now()
        return [
            DeviceRow(
                number=d.number,
                name=device_name(d) + (" " + _("(this device)") if d is self.device else ""),
                status=_("Connected") if d.connected else _("Not connected"),
                role=role_text(d.role),
                connected=d.connected,
                grantable=not d.is_host,
                scorer=d.can_score,
            )
            for d in self.shared.devices()
            if d is self.device or not d.gone_for_a_while(now)
        ]

    def set_scorer(self, number: int, scorer: bool) -> None:
        self.shared.set_scorer(self.device, number, scorer)

    def rename(self, number: int, typed: str) -> str | None:
        """Name device ``number``; None when done, else why the name cannot be kept."""
        try:
            self.shared.rename(self.device, number, typed)
        except NameRefused as refused:
            return refused.message
        return None

    def end_access(self, number: int) -> None:
        """Device ``number`` is out (its pages close, its key lets it in no more), on every process."""
        self.shared.end_access(self.device, number)

    def new_join_code(self) -> None:
        """The old join code lets nobody in any more, through any process; the devices at the table stay."""
        self.shared.new_join_code(self.device)

    def how_to_stop(self, can_stop_here: bool) -> str | None:
        """For a host of a table shared from the command line (``--share``, a club server), where
        no button stops it: how sharing stops; None where the page offers Stop sharing, or to a guest."""
        if not self.device.is_host or can_stop_here:
            return None
        return _("This table was shared when Companion started: to stop sharing, stop Companion where it runs "
                 "(Ctrl+C). Then every device is out, on every server process.")  # fmt: skip

    def name_of(self, number: int) -> str:
        return next((d.name for d in self.shared.devices() if d.number == number), "")


def share_view(app) -> ft.View:
    """The /share page: the QR code and address, and for a host the devices and their rights."""
    state = SharePanelState(current_table(), app.device)
    if not state.sharing:
        return widgets.screen(app, "/share", _("Share this table"), _not_shared_body(app))
    body: list[ft.Control] = []
    body += [
        ft.Card(
            ft.Container(
                ft.Column(
                    [
                        widgets.tagged(
                            ft.Image(
                                src=state.qr_png(),
                                width=240,
                                height=240,
                                filter_quality=ft.FilterQuality.NONE,
                                semantics_label=_("QR code to join this table"),
                            ),
                            "share-qr",
                        ),
                        ft.Text(_("Scan with a phone on the same network"), color=ft.Colors.ON_SURFACE_VARIANT),
                        widgets.tagged(  # selectable text says nothing to a screen reader by itself
                            ft.Text(_("Code {code}").format(code=state.code), size=28, weight=ft.FontWeight.BOLD, selectable=True),
                            "share-code",
                            label=_("Code {code}").format(code=state.code),
                        ),
                        widgets.tagged(
                            ft.Text(state.join_url, selectable=True, text_align=ft.TextAlign.CENTER),
                            "share-address",
                            label=state.join_url,
                        ),
                    ],
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    spacing=8,
                ),
                padding=16,
            ),
            margin=0,
        ),
        widgets.tagged(ft.Text(state.you), "share-you"),
    ]
    if app.device.is_host:
        body.append(
            widgets.tagged(
                ft.OutlinedButton(_("New join code"), icon=ft.Icons.AUTORENEW, on_click=lambda: _new_join_code(app, state)),
                "new-join-code",
            )
        )
        body.append(ft.Text(_("The old code then lets nobody in; the devices at the table stay."), color=ft.Colors.ON_SURFACE_VARIANT))
    rows = state.rows()
    if rows:
        body.append(widgets.section_title(_("Devices at the table")))
        body.append(ft.Card(ft.Column([_device_tile(app, state, row) for row in rows], spacing=0), margin=0))
    body.append(
        widgets.tagged(
            ft.OutlinedButton(_("Table view for a TV or laptop"), icon=ft.Icons.TV, on_click=lambda: app.go("/table")),
            "open-table-view",
        )
    )
    listener = network.listener()
    if app.device.is_host and listener is not None and listener.is_open:
        body.append(
            widgets.tagged(
                ft.OutlinedButton(_("Stop sharing"), icon=ft.Icons.STOP_SCREEN_SHARE, on_click=lambda: app.page.run_task(_stop_sharing, app, listener)),
                "stop-sharing",
            )
        )
    how_to_stop = state.how_to_stop(can_stop_here=listener is not None and listener.is_open)
    if how_to_stop:
        body.append(widgets.tagged(ft.Text(how_to_stop, color=ft.Colors.ON_SURFACE_VARIANT), "share-how-to-stop"))
    return widgets.screen(app, "/share", _("Share this table"), body)


def sharing_unavailable() -> str | None:
    """Why this device cannot share its table, in one sentence; None on a computer's server.
    A phone (the native app, or the offline web app in its browser) serves no other device."""
    if this_device.can_serve_others():
        return None
    return _("This device cannot share the table: other phones can join only a table that Companion shares from a computer.")


def _not_shared_body(app, problem: str | None = None) -> list[ft.Control]:
    """The page of an app only this machine can reach: a button that shares it, where the
    app runs as a web server (else how to start it shared), and ``problem`` if that failed;
    on a device that cannot serve others, only why it cannot."""
    unavailable = sharing_unavailable()
    if unavailable:
        return [widgets.tagged(ft.Text(unavailable, size=16), "share-unavailable")]
    body: list[ft.Control] = [
        widgets.tagged(
            ft.Text(_("Only this computer can open Companion now, so nobody else can follow the game."), size=16),
            "share-off",
        )
    ]
    listener = network.listener()
    if listener is None:
        return body + [
            ft.Text(_("To let the phones at the table join, stop Companion and start it again with:")),
            ft.Container(
                ft.Text("companion run --share", selectable=True, font_family="monospace", size=16),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border_radius=8,
                padding=12,
            ),
            ft.Text(
                _("It then listens on the local network and shows a QR code here; only devices with its code get in."),
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
        ]
    body.append(
        ft.Text(
            _("Share it, and Companion also listens on this computer's address on the local network and shows a "
              "QR code here. Only devices with its code get in, and they can see every game, player and score "
              "stored here. Sharing lasts until you stop it or close Companion."),
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
    )
    if problem:
        body.append(widgets.error_banner(problem, identifier="share-error"))
    if app.device.is_host:
        body.append(
            widgets.tagged(
                widgets.SteadyFilledButton(
                    _("Share this table"),
                    icon=ft.Icons.QR_CODE_2,
                    on_click=lambda: app.page.run_task(_start_sharing, app, listener),
                    style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=24, vertical=18)),
                ),
                "start-sharing",
            )
        )
    return body


async def _start_sharing(app, listener: network.NetworkListener) -> None:
    """Open the running app to the network, share the table, and host it from this browser."""
    try:
        address = await listener.open()
    except network.NetworkError as err:
        view = app.page.views[-1]
        widgets.set_body(view, _not_shared_body(app, err.message))
        app.page.update()
        return
    table = start_sharing(address, listener.port)
    print(announcement(table), flush=True)  # the host link, for the host's own phone, goes to the terminal only
    await session.table_session(app.page).host(table)


async def _stop_sharing(app, listener: network.NetworkListener) -> None:
    """Close the app to the network again: the phones that joined are cut off."""
    await listener.close()
    await session.stop_sharing(keep=session.table_session(app.page))
    print(_("Companion has stopped sharing this table: only this computer can open it now."), flush=True)
    session.table_session(app.page).leave()


def _changed(change: Callable[[], None]) -> str | None:
    """Make a host's change of the table; None when made, else why not (a club's database
    away for a moment), to be said on the page: the session goes on, where it ended before."""
    try:
        change()
    except StoreError as err:
        return err.message
    return None


def _change_and_show(app, change: Callable[[], None], *told: Message) -> None:
    """A host's change of the table from Share this table: made and ``told`` to every
    session, or refused in words; either way the page shows the table as it is."""
    problem = _changed(change)
    for message in told if problem is None else ():
        app.store.announce(message)
    app.show("/share")  # a switch as the table has it
    if problem is not None:
        app.notify(problem)


def _new_join_code(app, state: SharePanelState) -> None:
    _change_and_show(app, state.new_join_code, JoinCodeChanged())


def _device_tile(app, state: SharePanelState, row: DeviceRow) -> ft.Control:
    def grant(e: ft.Event[ft.Switch]) -> None:
        _change_and_show(app, lambda: state.set_scorer(row.number, bool(e.control.value)), RoleChanged(row.number), DevicesChanged())

    trailing: ft.Control
    if row.grantable:
        trailing = widgets.tagged(
            ft.Switch(value=row.scorer, on_change=grant, tooltip=_("May enter rounds")),
            f"grant-{row.number}",
            label=_("Device {number} may enter rounds").format(number=row.number),
        )
    else:
        trailing = widgets.pill(row.role, ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY)
    return widgets.tagged(
        ft.ListTile(
            leading=ft.Icon(
                ft.Icons.PHONE_ANDROID if row.connected else ft.Icons.PHONELINK_OFF,
                color=ft.Colors.PRIMARY if row.connected else ft.Colors.OUTLINE,
            ),
            title=ft.Text(row.name),
            subtitle=ft.Text(f"{row.role} · {row.status}"),
            trailing=trailing,
            on_click=lambda: _ask_name(app, state, row.number, can_end=row.grantable),
        ),
        f"device-{row.number}",
        button=True,
        label=_("Name device {number}").format(number=row.number),
    )


def _ask_name(app, state: SharePanelState, number: int, can_end: bool) -> None:
    """A host names a device ("Bob's phone"), so that the list says whose it is, or (``can_end``,
    not a host's device) ends its access."""
    field = ft.TextField(label=_("Name of this device"), value=state.name_of(number), max_length=DEVICE_NAME_LENGTH, autofocus=True)

    # Whether the dialog changed the table: the page is shown again once the dialog has gone
    # (a page shown again under a dialog that is still closing keeps the dialog on the screen).
    changed = False

    def save() -> None:
        nonlocal changed
        try:
            problem = state.rename(number, field.value or "")
        except StoreError as err:  # a club's database away for a moment
            problem = err.message
        if problem is not None:
            field.error = problem
            return
        changed = True
        app.page.pop_dialog()
        app.store.announce(DevicesChanged())

    def end() -> None:
        nonlocal changed
        problem = _changed(lambda: state.end_access(number))
        if problem is not None:
            field.error = problem
            return
        changed = True
        app.page.pop_dialog()
        app.store.announce(DeviceEnded(number))
        app.store.announce(DevicesChanged())

    def dismissed() -> None:
        if changed:
            app.show("/share")

    field.on_submit = save
    content: ft.Control = widgets.tagged(field, "device-name")
    actions: list[ft.Control] = [ft.TextButton(_("Cancel"), on_click=lambda: app.page.pop_dialog())]
    if can_end:
        hint = _("Ending its access closes its pages at once. With the join code it can join again, as a new device: "
                 "make a new join code to keep it out.")  # fmt: skip
        content = ft.Column([content, ft.Text(hint, color=ft.Colors.ON_SURFACE_VARIANT)], tight=True)
        actions.append(widgets.tagged(ft.TextButton(_("End access"), on_click=end, style=ft.ButtonStyle(color=ft.Colors.ERROR)), "device-end"))
    actions.append(widgets.tagged(ft.FilledButton(_("Save"), on_click=save), "device-name-save"))
    title = ft.Text(_("Device {number}").format(number=number))
    app.ask(ft.AlertDialog(title=title, content=content, actions=actions, on_dismiss=dismissed))


def share_action(app) -> ft.Semantics:
    """The app bar button to the Share page; on a shared table it also shows the device's role."""
    action = widgets.tagged(ft.IconButton(ft.Icons.QR_CODE_2, on_click=lambda: app.go("/share")), "share")
    show_share_action(app, action)
    return action


def show_share_action(app, action: ft.Semantics, only_when_shared: bool = False) -> None:
    """Set ``share_action``'s icon and tooltip from the table as it is now. ``only_when_shared``:
    hidden while no table is shared (a game page's app bar has little room on a phone)."""
    button = action.content
    if not isinstance(button, ft.IconButton):
        raise TypeError("not a share action")
    if current_table() is None or app.device.is_host:
        button.icon, button.tooltip = ft.Icons.QR_CODE_2, _("Share this table")
    elif app.device.can_score:
        button.icon, button.tooltip = ft.Icons.EDIT_NOTE, _("You keep score at this shared table")
    else:
        button.icon, button.tooltip = ft.Icons.VISIBILITY, _("You watch this shared table")
    action.visible = not only_when_shared or current_table() is not None

"""Sharing the table in the app: who gets in, the "Share this table" panel, the table
view for a TV, and keeping every joined page live.

``open_session`` runs for each browser session. When the app is not shared, the session
is this machine's user, the host, as before. When it is shared (``companion run
--share``, or the Share this table page's button in a running app), the session sees
nothing but the join screen until it gets in with a code or
with the device key its browser kept from an earlier visit; what it may do then is its
device's role (companion.share.table). Its store is a ``LiveStore``: changes are checked
against the role and announced over Flet's pub/sub, and each session reloads its page
when a change concerns it (companion.share.live).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import flet as ft

from companion import device as this_device
from companion.i18n import _
from companion.share import codes, network, qr
from companion.share.address import reachable_address
from companion.share.live import TOPIC, DevicesChanged, LiveStore, Message, RoleChanged, refresh_needed, shows_only_stored_state
from companion.share.table import Device, Invitation, JoinRefused, Role, Table
from companion.store import StoreError
from companion.ui import reconnect, widgets
from companion.ui.settings import device_storage
from companion.ui.scoreboard import ScoreboardState, score_chart
from companion.ui.format import points

DEVICE_KEY = "companion.device"
"""Where a joined browser keeps its device key (its local storage, for this server's address)."""

SESSION_KEY = "companion.table_session"
"""Key of the page's TableSession in its Flet session's store."""

_table: Table | None = None


def start_sharing(host: str, port: int) -> Table:
    """Share this server's table: new codes, reachable at ``host``'s network address."""
    global _table
    _table = Table(Invitation(reachable_address(host), port))
    return _table


def stop_sharing() -> None:
    """The app is for this machine only again (its network listener has been closed)."""
    global _table
    _table = None


def current_table() -> Table | None:
    """The shared table, or None when the app is only for this machine."""
    return _table


def announcement(table: Table) -> str:
    """What ``companion run --share`` prints: how phones join, and the host's own link."""
    invitation = table.invitation
    return "\n".join(
        [
            _("Companion is sharing this table on the local network."),
            _("Phones at the table scan this code, or open {address} and type the code {code}:").format(
                address=invitation.base_url, code=codes.grouped(invitation.code)
            ),
            qr.terminal(invitation.join_url),
            _("Join link: {url}").format(url=invitation.join_url),
            _("Host link, for your own device only (it may enter rounds and let others do so):"),
            "  " + invitation.host_url,
        ]
    )


def route_code(route: str) -> str | None:
    """The code a link carried (``/?code=...``), if any."""
    _path, _sep, query = route.partition("?")
    for pair in query.split("&"):
        name, _eq, value = pair.partition("=")
        if name == "code" and value:
            return value
    return None


def route_path(route: str) -> str:
    return route.partition("?")[0] or "/"


def device_name(device: Device) -> str:
    """'Device 3 · Chrome on Android'."""
    name = _("Device {number}").format(number=device.number)
    if device.browser and device.system:
        return f"{name} · " + _("{browser} on {system}").format(browser=device.browser, system=device.system)
    detail = device.browser or device.system
    return f"{name} · {detail}" if detail else name


def role_text(role: Role) -> str:
    return {Role.HOST: _("Host"), Role.SCORER: _("Keeps score"), Role.VIEWER: _("Watches")}[role]


# --- join screen ----------------------------------------------------------------------------


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

    def submit(self, typed: str, known: Device | None = None) -> Device | None:
        """The device the code lets in, or None with ``message`` saying why not."""
        if not codes.normalise(typed):
            self.message = _("Type the code shown on the host's screen.")
            return None
        try:
            device = self._table.admit(typed, self._address, self._user_agent, known=known)
        except JoinRefused as refused:
            self.message = refusal_message(refused)
            return None
        self.message = None
        return device


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
        self.field = ft.TextField(
            label=_("Code"),
            hint_text="K7QM-2XHD",
            capitalization=ft.TextCapitalization.CHARACTERS,
            on_submit=lambda e: on_join(e.data if isinstance(e.data, str) else self.field.value or ""),
        )
        self.button = ft.FilledButton(
            _("Join"),
            icon=ft.Icons.LOGIN,
            on_click=lambda: on_join(self.field.value or ""),
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=18)),
        )
        self.view = ft.View(route="/join", scroll=ft.ScrollMode.AUTO, padding=ft.Padding.only(top=48), bgcolor=ft.Colors.SURFACE)
        self.render()

    def render(self) -> None:
        if self.state.checking:
            body: list[ft.Control] = [ft.Container(ft.ProgressRing(), alignment=ft.Alignment.CENTER, padding=48)]
        else:
            body = [
                ft.Icon(ft.Icons.GROUPS, size=56, color=ft.Colors.PRIMARY),
                ft.Text(_("Join the table"), size=24, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER),
                ft.Text(
                    _("This game is shared by its host. Scan the QR code on the host's screen, or type the code shown there."),
                    text_align=ft.TextAlign.CENTER,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
                widgets.semantic("join-code", self.field),
            ]
            if self.state.message:
                body.append(widgets.error_banner(self.state.message, identifier="join-error"))
            body.append(widgets.semantic("join", self.button))
        self.view.controls = [widgets.semantic("join-screen", widgets.constrained(body))]


# --- the session ----------------------------------------------------------------------------


class TableSession:
    """One browser session: let it in, build the app for its device, keep its page live."""

    def __init__(self, page: ft.Page, store, table: Table | None, make_app: Callable[[LiveStore, Device], object]):
        self.page = page
        self.store = store
        self.table = table
        self.make_app = make_app
        self.device: Device | None = None
        self.app = None
        self.connection = reconnect.watch(page)
        self.prefs = device_storage(page)
        page.session.store.set(SESSION_KEY, self)
        if table is not None:
            self.join = JoinState(table, page.client_ip, page.client_user_agent or "")
            self.join_screen = JoinScreen(self.join, self._try_code)

    def start(self) -> None:
        if self.table is None:
            self._enter(Device.this_machine())
            return
        self._show_join()
        self.page.run_task(self._arrive)

    async def _arrive(self) -> None:
        """Come back as the saved device, or get in with the link's code, or ask for one."""
        try:
            saved = await self.prefs.get(DEVICE_KEY)
        except Exception:  # no local storage: the browser simply joins afresh
            saved = None
        device = self.table.rejoin(saved if isinstance(saved, str) else None)
        code = route_code(self.page.route or "")
        if code:
            device = self.join.submit(code, known=device) or device
        self.join.checking = False
        if device is None:
            self._show_join()
            return
        await self._admitted(device)

    def _try_code(self, typed: str) -> None:
        device = self.join.submit(typed)
        if device is None:
            self._show_join()
            return
        self.page.run_task(self._admitted, device)

    async def _admitted(self, device: Device) -> None:
        if device.key:
            try:
                await self.prefs.set(DEVICE_KEY, device.key)
            except Exception:  # without local storage a reload asks for the code again
                pass
        self._enter(device)

    async def host(self, table: Table) -> None:
        """This session's browser hosts ``table``, which it has just shared (Share this table)."""
        self.table = table
        device = table.admit(table.invitation.host_code, self.page.client_ip, self.page.client_user_agent or "")
        await self._admitted(device)

    def leave(self) -> None:
        """Sharing has stopped: the session is this machine's user again, as before it started."""
        self.table = None
        self._enter(Device.this_machine())

    def _show_join(self) -> None:
        self.join_screen.render()
        if self.page.views[-1:] != [self.join_screen.view]:
            self.page.views.clear()
            self.page.views.append(self.join_screen.view)
        self.page.update()

    def _enter(self, device: Device) -> None:
        self.device = device
        self.app = self.make_app(LiveStore(self.store, device, self._announce), device)
        self.connection.on_away = lambda: self._connected(False)
        self.connection.on_back = self._back
        self._connected(True)
        self.app.go(route_path(self.page.route or "/"))  # a code in the address bar goes

    def _connected(self, connected: bool) -> None:
        """Hear of changes only while connected: a page gone for good costs nothing, and
        one that comes back reads everything again anyway."""
        if connected:
            self.page.pubsub.subscribe_topic(TOPIC, self._on_message)
        else:
            self.page.pubsub.unsubscribe_topic(TOPIC)
        if self.table is not None:
            self.table.connected(self.device, +1 if connected else -1)
            self._announce(DevicesChanged())

    def _announce(self, message: Message) -> None:
        self.page.pubsub.send_others_on_topic(TOPIC, message)

    async def _on_message(self, _topic: str, message: Message) -> None:
        if self.page.session.connection is None:  # went away after the message was sent
            return
        if refresh_needed(self._route(), message, self.device):
            self.page.run_task(self._refresh)  # in this page's own context

    async def _refresh(self) -> None:
        self.app.show(self._route())

    def _route(self) -> str:
        return self.page.views[-1].route if self.page.views else "/"

    def _back(self) -> None:
        """Back after a lost connection: whatever changed meanwhile is read again."""
        self._connected(True)
        if shows_only_stored_state(self._route()):
            self.app.show(self._route())


def table_session(page: ft.Page) -> TableSession:
    """The TableSession of a browser page (made by ``open_session``)."""
    return page.session.store.get(SESSION_KEY)


def open_session(page: ft.Page, store, make_app: Callable[[LiveStore, Device], object]) -> TableSession:
    """Start a browser session (see the module docstring); ``make_app`` builds its app."""
    session = TableSession(page, store, current_table(), make_app)
    session.start()
    return session


# --- Share this table -----------------------------------------------------------------------


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

    def __init__(self, table: Table | None, device: Device):
        self.table = table
        self.device = device

    @property
    def sharing(self) -> bool:
        return self.table is not None

    @property
    def join_url(self) -> str:
        return self.table.invitation.join_url

    @property
    def code(self) -> str:
        return codes.grouped(self.table.invitation.code)

    def qr_png(self) -> bytes:
        return qr.png(self.join_url)

    @property
    def you(self) -> str:
        """The device's own place at the table, in a sentence."""
        number = self.device.number
        if self.device.is_host:
            return _("This is device {number}: you host this table.").format(number=number)
        if self.device.can_score:
            return _("This is device {number}: you keep score.").format(number=number)
        return _("This is device {number}: you watch. The host can let this device keep score.").format(number=number)

    def rows(self) -> list[DeviceRow]:
        """Every joined device, for a host; nobody else sees the list."""
        if not (self.sharing and self.device.is_host):
            return []
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
            for d in self.table.devices()
        ]

    def set_scorer(self, number: int, scorer: bool) -> None:
        self.table.set_scorer(self.device, number, scorer)


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
                        widgets.semantic(
                            "share-qr",
                            ft.Image(
                                src=state.qr_png(),
                                width=240,
                                height=240,
                                filter_quality=ft.FilterQuality.NONE,
                                semantics_label=_("QR code to join this table"),
                            ),
                        ),
                        ft.Text(_("Scan with a phone on the same network"), color=ft.Colors.ON_SURFACE_VARIANT),
                        widgets.semantic(  # selectable text says nothing to a screen reader by itself
                            "share-code",
                            ft.Text(_("Code {code}").format(code=state.code), size=28, weight=ft.FontWeight.BOLD, selectable=True),
                            label=_("Code {code}").format(code=state.code),
                        ),
                        widgets.semantic(
                            "share-address",
                            ft.Text(state.join_url, selectable=True, text_align=ft.TextAlign.CENTER),
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
        widgets.semantic("share-you", ft.Text(state.you)),
    ]
    rows = state.rows()
    if rows:
        body.append(widgets.section_title(_("Devices at the table")))
        body.append(ft.Card(ft.Column([_device_tile(app, state, row) for row in rows], spacing=0), margin=0))
    body.append(
        widgets.semantic(
            "open-table-view",
            ft.OutlinedButton(_("Table view for a TV or laptop"), icon=ft.Icons.TV, on_click=lambda: app.go("/table")),
        )
    )
    listener = network.listener()
    if app.device.is_host and listener is not None and listener.is_open:
        body.append(
            widgets.semantic(
                "stop-sharing",
                ft.OutlinedButton(_("Stop sharing"), icon=ft.Icons.STOP_SCREEN_SHARE, on_click=lambda: app.page.run_task(_stop_sharing, app)),
            )
        )
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
        return [widgets.semantic("share-unavailable", ft.Text(unavailable, size=16))]
    body: list[ft.Control] = [
        widgets.semantic(
            "share-off",
            ft.Text(_("Only this computer can open Companion now, so nobody else can follow the game."), size=16),
        )
    ]
    if network.listener() is None:
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
            widgets.semantic(
                "start-sharing",
                ft.FilledButton(
                    _("Share this table"),
                    icon=ft.Icons.QR_CODE_2,
                    on_click=lambda: app.page.run_task(_start_sharing, app),
                    style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=24, vertical=18)),
                ),
            )
        )
    return body


async def _start_sharing(app) -> None:
    """Open the running app to the network, share the table, and host it from this browser."""
    listener = network.listener()
    try:
        address = await listener.open()
    except network.NetworkError as err:
        view = app.page.views[-1]
        widgets.set_body(view, _not_shared_body(app, err.message))
        app.page.update()
        return
    table = start_sharing(address, listener.port)
    print(announcement(table), flush=True)  # the host link, for the host's own phone, goes to the terminal only
    await table_session(app.page).host(table)


async def _stop_sharing(app) -> None:
    """Close the app to the network again: the phones that joined are cut off."""
    await network.listener().close()
    stop_sharing()
    print(_("Companion has stopped sharing this table: only this computer can open it now."), flush=True)
    table_session(app.page).leave()


def _device_tile(app, state: SharePanelState, row: DeviceRow) -> ft.Control:
    def grant(e: ft.Event[ft.Switch]) -> None:
        state.set_scorer(row.number, bool(e.control.value))
        app.store.announce(RoleChanged(row.number))
        app.store.announce(DevicesChanged())
        app.show("/share")

    trailing: ft.Control
    if row.grantable:
        trailing = widgets.semantic(
            f"grant-{row.number}",
            ft.Switch(value=row.scorer, on_change=grant, tooltip=_("May enter rounds")),
            label=_("Device {number} may enter rounds").format(number=row.number),
        )
    else:
        trailing = widgets.pill(row.role, ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY)
    return widgets.semantic(
        f"device-{row.number}",
        ft.ListTile(
            leading=ft.Icon(
                ft.Icons.PHONE_ANDROID if row.connected else ft.Icons.PHONELINK_OFF,
                color=ft.Colors.PRIMARY if row.connected else ft.Colors.OUTLINE,
            ),
            title=ft.Text(row.name),
            subtitle=ft.Text(f"{row.role} · {row.status}"),
            trailing=trailing,
        ),
    )


def share_action(app) -> ft.Control:
    """The app bar button to the Share page; on a shared table it also shows the device's role."""
    if current_table() is None or app.device.is_host:
        icon, tip = ft.Icons.QR_CODE_2, _("Share this table")
    elif app.device.can_score:
        icon, tip = ft.Icons.EDIT_NOTE, _("You keep score at this shared table")
    else:
        icon, tip = ft.Icons.VISIBILITY, _("You watch this shared table")
    return widgets.semantic("share", ft.IconButton(icon, tooltip=tip, on_click=lambda: app.go("/share")))


def game_actions(app) -> list[ft.Control]:
    """A game page's app bar has little room on a phone: the share button only when shared."""
    return [share_action(app)] if current_table() is not None else []


# --- table view -----------------------------------------------------------------------------


class TableViewState:
    """The game a TV shows: the one asked for, or the newest in progress (a new game shows up by itself)."""

    def __init__(self, store, game_id: int | None = None):
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
    route = "/table" if game_id is None else f"/table/{game_id}"
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
                widgets.semantic(
                    "table-banner",
                    ft.Text(f"{banner.title} {banner.text}", size=34, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
                    live_region=True,
                )
            )
        lines = [t for t in (board.progress, board.next_up) if t]
        totals = ft.Column([_big_total(row) for row in board.sides()], spacing=8)
        chart = widgets.semantic("table-chart", score_chart(board.chart(), height=420, text_size=20)) if board.game.rounds else ft.Container()
        body.append(
            ft.ResponsiveRow(
                [ft.Column([totals, *[ft.Text(t, size=22, color=ft.Colors.ON_SURFACE_VARIANT) for t in lines]], col={"xs": 12, "md": 5}),
                 ft.Container(chart, col={"xs": 12, "md": 7})],
                spacing=24,
                run_spacing=24,
            )
        )
    view = ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text(title, size=28, weight=ft.FontWeight.W_600), bgcolor=ft.Colors.SURFACE_CONTAINER),
        controls=[widgets.semantic("table-view", ft.Container(ft.Column(body, spacing=24), padding=24))],
        scroll=ft.ScrollMode.AUTO,
        padding=0,
        bgcolor=ft.Colors.SURFACE,
    )
    return view


def _big_total(row) -> ft.Control:
    return widgets.semantic(
        f"table-total-{row.name}",
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
        label=f"{row.name} {row.total}",
    )

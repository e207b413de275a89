"""One browser session of the app, shared or not: who gets in, and keeping its page live.

``open_session`` runs for each browser session. When the app is not shared, the session
is this machine's user, the host, as before. When it is shared (``companion run
--share``, or the Share this table page's button in a running app), the session sees
nothing but the join screen (companion.ui.join) until it gets in with a code or
with the device key its browser kept from an earlier visit; what it may do then is its
device's role (companion.share.table). Its store is a ``LiveStore``: changes are checked
against the role and announced over Flet's pub/sub, and each session reloads its page
when a change concerns it (companion.share.live, companion.ui.routes.refresh_needed).
"""

from __future__ import annotations

import asyncio
import weakref
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Generic, Protocol, TypeVar

import flet as ft

from companion.share import codes, feed, guard, relay, sharing
from companion.share.live import TOPIC, DeviceEnded, DevicesChanged, GameChanged, JoinCodeChanged, LiveStore, Message, RoleChanged
from companion.share.table import Device, Table
from companion.store import StoreError
from companion.ui import access, reconnect, widgets
from companion.ui.join import JoinScreen, JoinState
from companion.ui.routes import Page, Route, parse, refresh_needed
from companion.ui.settings import device_language, device_storage

if TYPE_CHECKING:
    from companion.store.protocol import GameStore
    from companion.store.records import GameRecord

DEVICE_KEY = "companion.device"
"""Where a joined browser keeps its device key (its local storage, for this server's address)."""

SESSION_KEY = "companion.table_session"
"""Key of the page's TableSession in its Flet session's store."""

AWAY_RETRY_S = 5.0
"""How long a join screen that could not reach the table (a club's database away for a
moment) waits before it tries again by itself."""

_sessions: weakref.WeakSet[TableSession[Any]] = weakref.WeakSet()
"""Every browser session of this server, so that Stop sharing reaches them all."""


async def stop_sharing(keep: TableSession[Any] | None = None) -> None:
    """The app is for this machine only again (its network listener has been closed): every
    session of the table but ``keep`` (the host's, which leaves it) ends, for good."""
    table = sharing.stop_sharing()
    for session in list(_sessions):
        if session is not keep and table is not None and session.table is table:
            await session.end()


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()
"""Per event loop (a server has one), the turn that the sessions following a change take."""


async def in_turn(update: Callable[[], None]) -> None:
    """Run ``update`` (a session's page following a change) when no other session's is running,
    then let the event loop send what it queued before the next session takes its turn.

    Every session that hears of a change would otherwise compute its update before any of
    them went out: flet_web queues a page's messages for a task of its own, which runs after
    every update already waiting. With 10 devices the first one then got its update when the
    last one did, and with 100 a quarter of a second late. In turn, each device gets its
    update as soon as it is ready, and a tap on the server in between is not kept waiting for
    all of them either.
    """
    loop = asyncio.get_running_loop()
    turn = _turns.get(loop)
    if turn is None:
        turn = _turns[loop] = asyncio.Lock()
    async with turn:
        update()
        await asyncio.sleep(0)  # the page's sender is due before the next turn: it goes first


async def in_two_turns(update: Callable[[], Callable[[], None] | None]) -> None:
    """Run ``update`` in a turn (``in_turn``), and what it leaves to send in a turn of its own
    after every turn already waiting (turns are taken in the order asked for): each device
    that follows a change gets the top of its board (its totals) before any device gets its
    rows and chart (docs/sharing.md, "Every device's top first")."""
    rest: Callable[[], None] | None = None

    def first() -> None:
        nonlocal rest
        rest = update()

    await in_turn(first)
    if rest is not None:
        await in_turn(rest)


class Screens(Protocol):
    """The app as a table session drives it (companion.ui.router.App)."""

    def go(self, route: str) -> None: ...

    def show(self, route: str) -> None: ...

    def follow(self, record: GameRecord) -> Callable[[], None] | None: ...

    def database_answers(self) -> None: ...

    @property
    def shown_route(self) -> str: ...


AppT = TypeVar("AppT", bound=Screens)


def hear_from_elsewhere(message: Message) -> None:
    """A message from another process of the server (companion.share.relay): every session
    of this process hears it as if announced here; what changed at the table (a device's
    rights, a device ended, the join code) is read first."""
    feed.lists.changed()
    table = sharing.current_table()
    if isinstance(message, RoleChanged) and table is not None:
        table.reload(message.number)
    elif isinstance(message, DeviceEnded) and table is not None:
        table.forget(message.number)
    elif isinstance(message, JoinCodeChanged) and table is not None:
        table.read_codes()
    for session in list(_sessions):
        session.hear(message)


def catch_up_everywhere() -> None:
    """Messages from the other processes may have been missed (companion.share.relay lost
    its connection for a moment): the table is read again, the pages of a device whose
    access ended meanwhile close, and every page that shows stored state reads it again."""
    feed.lists.changed()
    table = sharing.current_table()
    if table is not None:
        table.read_again()
    for session in list(_sessions):
        session.hear(None)


class TableSession(Generic[AppT]):
    """One browser session: let it in, build the app for its device, keep its page live."""

    def __init__(self, page: ft.Page, store: GameStore, table: Table | None, make_app: Callable[[LiveStore, Device], AppT]):
        self.page = page
        self.store = store
        self.table = table
        self.make_app = make_app
        self.device: Device | None = None
        self._saved_key: str | None = None
        """The device key the browser keeps (``DEVICE_KEY``), as it arrived."""
        self._retrying = False
        """Whether the join screen is trying again by itself (``_retry_while_away``)."""
        self._answers_again = asyncio.Event()
        """Set when this process hears the database again: the join screen then tries at once."""
        self._tapped = ""
        """The code typed when Join (or Try again) was last tapped."""
        self.app: AppT | None = None
        self.live: LiveStore | None = None
        """The store as this session's device may use it (set on entering, with ``app``)."""
        self.connection = reconnect.watch(page)
        self.visit = guard.current_visit.get()
        """The connection the page is on (None outside the web server), see companion.share.guard."""
        self.prefs = device_storage(page)
        page.session.store.set(SESSION_KEY, self)
        _sessions.add(self)
        if table is not None:
            self.join = JoinState(table, page.client_ip, page.client_user_agent or "")
            self.join_screen = JoinScreen(self.join, self._try_code)

    def start(self) -> None:
        if self.table is None:
            self._enter(Device.this_machine())
            return
        device_language(self.page).on_change = self._show_join  # until the app takes over: its language may come after the join screen
        self._show_join()
        self.page.run_task(self._arrive)

    async def _arrive(self) -> None:
        """Come back as the saved device, or get in with the link's code, or ask for one."""
        try:
            saved = await self.prefs.get(DEVICE_KEY)
        except Exception:  # no local storage: the browser simply joins afresh
            saved = None
        if access.left(self.visit) or self.table is None:  # (only a shared table has a join screen)
            return
        self._saved_key = saved if isinstance(saved, str) else None
        device = self._arrive_with("")  # nothing typed yet: the link's code, if any
        self.join.checking = False
        if device is None:
            self._show_join()
            self._retry_while_away()
            return
        await self._admitted(device)

    def _try_code(self, typed: str) -> None:
        self._tapped = typed
        device = self._arrive_with(typed) if self.join.away else self.join.submit(typed)
        if device is None:
            self._show_join()
            widgets.on_device(self.page, self.join_screen.field.focus)  # the code is corrected in place
            self._retry_while_away()
            return
        self.page.run_task(self._admitted, device)

    def _retry_while_away(self) -> None:
        """While the join screen says the table cannot be reached, try again every few
        seconds by itself: the phones of a club whose database restarted come back to their
        games without a tap, as the devices already in do (Try again stays for the impatient)."""
        if self.join.away and not self._retrying:
            self._retrying = True
            self.page.run_task(self._retry)

    async def _retry(self) -> None:
        try:
            while True:
                try:
                    await asyncio.wait_for(self._answers_again.wait(), AWAY_RETRY_S)
                except TimeoutError:
                    pass
                self._answers_again.clear()
                if not self.join.away or self.device is not None or access.left(self.visit):
                    return
                if not reconnect.connected(self.page):
                    continue  # a phone locked meanwhile: the next try comes when it is back
                device = self._arrive_with(self._tapped)  # not what the field holds now: a code half typed is no wrong try
                if device is not None:
                    await self._admitted(device)
                    return
                self._show_join()
        finally:
            self._retrying = False

    def _arrive_with(self, typed: str) -> Device | None:
        """The device the browser's saved key is, with the rights of the code ``typed`` (or
        else the link's): on arrival, and again after the table could not be reached."""
        return self.join.arrive(self._saved_key, typed if codes.normalise(typed) else parse(self.page.route or "").code)

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

    async def end(self) -> None:
        """Sharing has stopped, or a host ended this device's access: it hears nothing more, its
        store refuses everything (``seated``), its connection closes and Flet forgets it,
        so that its browser comes back, if ever, at the join screen."""
        try:
            pubsub = self.page.pubsub
        except RuntimeError:  # Flet has forgotten the page already (it left without getting in)
            return
        pubsub.unsubscribe_topic(TOPIC)
        if self.visit is not None:
            self.visit.close()
        await access.forget(self.page)

    def _show_join(self) -> None:
        self.join_screen.render()
        if self.page.views[-1:] != [self.join_screen.view]:
            self.page.views.clear()
            self.page.views.append(self.join_screen.view)
        self.page.update()

    def _enter(self, device: Device) -> None:
        self.device = device
        if self.visit is not None:
            self.visit.admit()
        self.live = LiveStore(self.store, device, self._announce, sharing.seated, sharing.confirmed)
        self.app = app = self.make_app(self.live, device)
        self.page.on_route_change = partial(self._route_changed, self.page.on_route_change)
        self.connection.on_away = lambda: self._connected(False)
        self.connection.on_back = self._back
        self._connected(True)
        path = parse(self.page.route or "/").path  # a code in the address bar goes
        if device.game_id is not None and path == "/":  # a club table's code, typed: its game is the page
            path = Route(Page.GAME, game_id=device.game_id).path
        app.go(path)

    def _route_changed(self, show: Callable[..., Any] | None, e: ft.RouteChangeEvent) -> None:
        """An address opened again in the same tab keeps its session (Flet reconnects it, so
        ``_arrive`` does not run again): a code it carries, e.g. a club table's QR code
        scanned by a phone already at the table, is tried as on arrival, then the page shows."""
        code = parse(e.route or "").code
        if code and self.device is not None and not self.device.is_this_machine:
            self.join.submit(code, known=self.device)  # the same device, with the code's rights if right
        if show is not None:  # the app's own handler (companion.ui.router.App)
            show(e)

    def _connected(self, connected: bool) -> None:
        """Hear of changes only while connected: a page gone for good costs nothing, and
        one that comes back reads everything again anyway."""
        if connected:
            self.page.pubsub.subscribe_topic(TOPIC, self._on_message)
        else:
            self.page.pubsub.unsubscribe_topic(TOPIC)
        if self.table is not None and self.device is not None:
            self.table.connected(self.device, +1 if connected else -1)
            self._announce(DevicesChanged())

    def _announce(self, message: Message) -> None:
        self.page.pubsub.send_others_on_topic(TOPIC, message)
        relay.send(message)  # and to the server's other processes, if any

    def hear(self, message: Message | None) -> None:
        """Hear ``message`` from another process (any thread), if this page is in and connected;
        None: whatever was missed, so the page is read again if it shows stored state (or the
        database answers again, so a join screen that could not reach the table tries at once)."""
        try:
            if self.page.session.connection is None:
                return
            if self.device is None:
                if message is None and self._retrying:
                    self.page.run_task(self._try_now)
                return
            if message is None:
                self.page.run_task(self._catch_up)
            else:
                self.page.run_task(self._on_message, TOPIC, message)
        except (AttributeError, RuntimeError):  # its connection went away meanwhile: it reads everything when back
            pass

    async def _try_now(self) -> None:
        self._answers_again.set()

    async def _on_message(self, _topic: str, message: Message) -> None:
        if self.page.session.connection is None or self.device is None:  # went away after the message was sent
            return
        if isinstance(message, DeviceEnded) and message.number == self.device.number and not self.device.is_this_machine:
            await self.end()
            return
        if refresh_needed(parse(self._route()), message, self.device):
            self.page.run_task(self._refresh, message)  # in this page's own context

    async def _catch_up(self) -> None:
        if self.device is not None and not sharing.seated(self.device):  # its access ended while messages were missed
            await self.end()
            return
        self._read_again()
        if self.app is not None:  # a round's form that said the database did not answer: it does now
            self.app.database_answers()

    def _read_again(self) -> None:
        """Show the page again from the store, unless someone is typing on it."""
        if parse(self._route()).shows_only_stored_state and self.app is not None:
            self.app.show(self._route())

    async def _refresh(self, message: Message) -> None:
        await in_two_turns(partial(self._show_change, message))

    def _show_change(self, message: Message) -> Callable[[], None] | None:
        """Show the change on the page: a game's, followed on its scoreboard, leaves the rest
        of the board to send later (``App.follow``)."""
        if self.app is None:
            return None
        rest = self._follow(message) if isinstance(message, GameChanged) else None
        if rest is None:
            self.app.show(self._route())
        return rest

    def _follow(self, message: GameChanged) -> Callable[[], None] | None:
        """Show a game's change in place on its scoreboard, its table view or a club evening's
        ranking (the game read once for every session of the process); None when the page is
        none of them."""
        route = parse(self._route())
        if self.live is None or self.app is None:
            return None
        if route.page not in (Page.TABLE, Page.EVENT) and (route.page not in (Page.GAME, Page.TABLE_OF_GAME) or route.game_id != message.game_id):
            return None  # /table and an evening show several games: their screens know which (``widgets.FollowsGames``)
        try:
            record = self.live.latest_game(message.game_id, message.version)
        except StoreError:  # e.g. the device has left the table: showing the page says so
            return None
        return self.app.follow(record)

    def _route(self) -> str:
        if self.app is not None:
            return self.app.shown_route
        return self.page.views[-1].route if self.page.views else "/"

    def _back(self) -> None:
        """Back after a lost connection (a new one): whatever changed meanwhile is read again."""
        self.visit = guard.current_visit.get() or self.visit
        if self.visit is not None:
            self.visit.admit()
        self._connected(True)
        self._read_again()


def table_session(page: ft.Page) -> TableSession[Any]:
    """The TableSession of a browser page (made by ``open_session``)."""
    return page.session.store.get(SESSION_KEY)


def open_session(page: ft.Page, store: GameStore, make_app: Callable[[LiveStore, Device], AppT]) -> TableSession[AppT]:
    """Start a browser session (see the module docstring); ``make_app`` builds its app."""
    session = TableSession(page, store, sharing.current_table(), make_app)
    session.start()
    return session

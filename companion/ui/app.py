"""Starting the app: ``serve`` runs the server, ``main`` builds the app in each browser page;
``device_main`` builds it on a phone that runs it by itself (``main.py``).

The server starts listening before the screens are loaded: they load in a background
thread while the browser fetches the Flutter client. The store (its database libraries
are the heaviest part) opens once the first page is drawn, so that it competes neither
with the browser loading the client nor with drawing the page: home shows its frame at
once and lists the games in progress as soon as the store is open. No screen loaded before
that imports the database libraries (the club evenings' screen, which needs them, is loaded
after the store: ``load_with_store``).
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING

import flet as ft

from companion.i18n import _
from companion.store.errors import StoreError
from companion.store.protocol import StoreWhenOpen
from companion.ui import theme
from companion.ui.garbage import collect_less, quiet_collector

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from companion.share.live import LiveStore
    from companion.share.table import Device
    from companion.store import Store
    from companion.ui.router import App


class SharedStore:
    """One store per server process, shared by every browser session, opened in the background,
    and tried again there while it cannot be opened: a page never waits for a database away."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.store: Store | None = None
        self._failure: StoreError | str | None = None
        """Why the store could not be opened: the store's error, said in each reader's language
        (``problem``), or a bug's own words."""
        self._screens = threading.Event()
        self._wanted = threading.Event()
        self._ready = threading.Event()
        self._started = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, url: str | None, serving: threading.Event | None = None) -> None:
        """Load the screens and open the store in the background; with ``serving``, load the
        screens once it is set (the server serves) and open the store when a session first wants it."""
        with self._started:
            if self._thread is None:
                self.url = url
                if serving is None:
                    self._wanted.set()
                self._thread = threading.Thread(target=self._open, args=(serving,), name="open-store", daemon=True)
                self._thread.start()

    def _open(self, serving: threading.Event | None) -> None:
        try:
            if serving is not None:
                serving.wait(SERVER_START_TIMEOUT)  # importing now would slow the server's own start
            load_screens()
            self._screens.set()
            load_later()  # while the browser still loads the client: a tap on the first page must not wait for it
            self._wanted.wait()
            self._open_store()
        except Exception as err:  # a bug, not the user's database: say so in the page too, not hang
            self._failure = repr(err)
            raise
        finally:
            self._screens.set()
            self._ready.set()
        while self.store is None:  # a club's database server restarting as the process first opened its store
            time.sleep(STORE_RETRY_S)
            self._open_store()

    def want(self) -> None:
        """Start opening the store now (a session needs it soon), without waiting for it."""
        self.start(os.environ.get("COMPANION_DATABASE_URL"))
        self._wanted.set()

    def wait_for_screens(self) -> None:
        self.start(os.environ.get("COMPANION_DATABASE_URL"))
        self._screens.wait()

    @property
    def is_open(self) -> bool:
        """Whether opening the store has ended (``get`` then answers at once)."""
        return self._ready.is_set()

    def get(self) -> Store | None:
        """The store, once open; None (with ``problem`` set) while it cannot be opened."""
        self.want()
        self._ready.wait()
        return self.store

    def _open_store(self) -> None:
        """Open the store, or note why it cannot be opened (``problem``, said once where the
        server was started, until it opens: then the pages that said so read again)."""
        from companion.store import Store

        try:
            store = Store(self.url)
        except StoreError as err:
            if self._failure is None:
                print(_("companion: the saved games cannot be opened: {reason}").format(reason=err.detail), file=sys.stderr)
            self._failure = err
            return
        from companion.ui.session import catch_up_everywhere

        store.answers_again = catch_up_everywhere
        load_with_store()
        collect_less()
        self.store = store
        if self._failure is not None:
            print(_("companion: the saved games can be opened again."), file=sys.stderr)
            self._failure = None
            catch_up_everywhere()

    @property
    def problem(self) -> str | None:
        """Why the store cannot be opened, in the current language; None while it can."""
        failure = self._failure
        return failure.detail if isinstance(failure, StoreError) else failure


STORE_RETRY_S = 5.0
"""Seconds between two tries to open a store that could not be opened: a club's database server
restarting as a process first opened its store left that process without one all evening."""


class OpeningStore(StoreWhenOpen):
    """The shared store as a session sees it while it may still be opening: each use waits for it."""

    def __init__(self, shared_store: SharedStore):
        self._shared = shared_store

    def opened(self) -> Store:
        store = self._shared.get()
        if store is None:
            raise StoreError("The saved games cannot be opened: {reason}", reason=self._shared.problem)
        return store


FIRST_PAGE_CONTROLS = (
    "SharedPreferences", "View", "AppBar", "ResponsiveRow", "Column", "Row", "Container",
    "Semantics", "Text", "Icon", "IconButton", "FilledButton", "ButtonStyle", "ProgressRing",
    "Card", "ListTile", "Stack",
)  # fmt: skip
"""The Flet names a session's first page uses. Flet imports a control's module the first time
it is named (about 150 ms for these); naming them while the browser loads the client keeps
that off the first page's path."""


def load_screens() -> None:
    """Import the screens, the rules and the controls of the first page."""
    import companion.ui.router  # noqa: F401

    for name in FIRST_PAGE_CONTROLS:
        getattr(ft, name)


GAME_PACKAGES = ("companion.rules", "companion.ui.games", "companion.ui.round_entry", "companion.ui.referee")
"""The packages with a module per game (``rules.game_module``), each imported when a game is
first named: New game names every game's rules."""


NEW_GAME_CONTROLS = ("TextField",)
"""The Flet names New game uses beyond the first page's (``FIRST_PAGE_CONTROLS``): it is built
under home once home is drawn, and a tap the moment home shows uncovers it."""


def load_later() -> None:
    """Import what only later pages need (the other screens, every game's modules) after what
    the first page needs and before the store opens, so that neither a page opened later nor
    a tap on the first page (New game the moment home shows) waits for it."""
    import importlib

    from companion.rules import IDS, game_module
    from companion.ui.router import LATER_SCREENS

    for name in LATER_SCREENS:
        importlib.import_module(f"companion.ui.{name}")
    for package in GAME_PACKAGES:
        for ruleset_id in IDS:
            game_module(package, ruleset_id)
    for name in NEW_GAME_CONTROLS:
        getattr(ft, name)


def load_with_store() -> None:
    """Import, once the store has opened, what only pages of its data need: the score chart
    (a game's page, a player's; a tenth of a second) and the screens that need the database
    libraries, which the store has just imported. Neither then competes with the browser
    loading the client or drawing the first page."""
    import importlib

    from companion.ui.router import STORE_SCREENS

    importlib.import_module("flet_charts")
    for name in STORE_SCREENS:
        importlib.import_module(f"companion.ui.{name}")


SERVER_START_TIMEOUT = 10.0
"""Seconds the screens wait for the server to start before loading anyway."""


shared = SharedStore()

DRAWN_TIMEOUT = 1.0
"""Seconds the store waits for the browser to lay out the first page before opening anyway."""


async def main(page: ft.Page) -> None:
    """Build the app in a page (one per browser session), in the language of its device.

    A page can go while it starts (a phone that opened the join link and left at once), and
    its session be closed under it. flet_web 1.0.5 then goes on with the session it has let
    go and logs a traceback, unless this ends in a BrokenPipeError, which it notes as the page
    gone: so a start whose connection went ends in one, whatever failed in it on the way.
    """
    session = page.session
    connection = session.connection
    try:
        await _start(page)
    except Exception:
        if session.connection is not None:  # a failure, with a page there to be told
            raise
    if session.connection is not connection:
        raise BrokenPipeError("the page went while it started")


async def _start(page: ft.Page) -> None:
    from companion.share import guard
    from companion.ui import access, handshake, reconnect
    from companion.ui.settings import device_language

    access.arrived(page)  # a page that never gets in is forgotten when it goes
    visit = guard.current_visit.get()
    if access.left(visit):  # gone already, before it started
        return
    reconnect.watch(page)  # first: a connection lost while the session starts is caught up too
    quiet_collector.serving(asyncio.get_running_loop())
    language = device_language(page)
    said = handshake.said(visit.headers) if visit is not None else None
    if said is not None:  # the page said its language as it connected: the device is asked once home is out
        language.take(said)
        await asyncio.to_thread(shared.wait_for_screens)
    else:
        await asyncio.gather(language.restore(), asyncio.to_thread(shared.wait_for_screens))
    if access.left(guard.current_visit.get()):
        return
    # The theme goes to the browser with the first page, not before it: a theme of its own
    # would be drawn on an empty page first.
    chosen_theme = said.theme if said is not None else None  # else the device's answer may change it after home
    theme.apply(page, dark=chosen_theme == "dark" if chosen_theme else page.platform_brightness == ft.Brightness.DARK)
    page.title = _("Companion")
    from companion.ui.session import open_session
    from companion.ui.router import App

    def start(session_store: LiveStore, device: Device) -> App:
        app = App(page, session_store, device, store_open=shared.is_open)
        page.run_task(app.restore_from_device)
        return app

    session = open_session(page, OpeningStore(shared), start)  # shows the first page, or the join screen of a shared table
    if said is not None:
        page.run_task(language.restore)
    if session.app is not None and not session.app.store_open:
        await asyncio.to_thread(session.app.drawn.wait, DRAWN_TIMEOUT)
    shared.want()  # a page that needed the store has already waited for it
    if await asyncio.to_thread(shared.get) is None:
        if session.table is None or session.device is not None:  # a browser not let in keeps the join screen, which says it (no server named)
            _show_store_problem(page, shared.problem)
    elif session.app is not None and not session.app.store_open:
        session.app.store_opened()


async def device_main(page: ft.Page) -> None:
    """Build the app on the device itself: the entry module (``main.py``) runs this, in a
    native phone build and in the offline web app alike.

    A device that cannot serve others has one user and one session, and no background
    thread (Python in a browser cannot start one): home shows its frame first, then the
    store opens right here (its database libraries are the slowest part of a start) and
    home lists the games. On a computer (``python main.py``) this is the server's ``main``.
    """
    from companion.device import can_serve_others, data_folder, in_browser

    answers_for_unknown_controls_dropped()
    if can_serve_others():
        await main(page)
        return
    from companion.ui.session import open_session
    from companion.ui.router import App
    from companion.ui.settings import device_language

    await device_language(page).restore()
    if in_browser():
        from companion.store.browser_storage import open_folder

        try:
            await open_folder(data_folder())
        except StoreError as err:
            _show_store_problem(page, err.detail)
            return
    load_screens()
    theme.apply(page, dark=page.platform_brightness == ft.Brightness.DARK)
    page.title = _("Companion")
    store = StoreOnFirstUse()

    def start(session_store: LiveStore, device: Device) -> App:
        app = App(page, session_store, device, store_open=False)
        page.run_task(app.restore_from_device)
        return app

    app = open_session(page, store, start).app
    assert app is not None, "a device's own session is let in at once (only a shared table asks for a code)"
    waited = 0.0
    while not app.drawn.is_set() and waited < DRAWN_TIMEOUT:  # the page goes out while Python waits
        await asyncio.sleep(DRAWN_POLL)
        waited += DRAWN_POLL
    app.store_opening()
    try:
        store.opened()
    except StoreError as err:
        _show_store_problem(page, err.detail)
        return
    app.store_opened()


DRAWN_POLL = 0.02
"""Seconds between looks at whether the device's first page is drawn."""


class StoreOnFirstUse(StoreWhenOpen):
    """The device's store (``$COMPANION_DATABASE_URL``, else its data folder), opened by the
    first use: a page that needs it before ``device_main`` opens it waits for it there."""

    def __init__(self) -> None:
        self._store: Store | None = None

    def opened(self) -> Store:
        if self._store is None:
            from companion.device import in_browser
            from companion.store import Store

            if in_browser():
                from companion.store.browser_storage import keep_each_commit

                keep_each_commit()
            self._store = Store()
        return self._store


def _show_store_problem(page: ft.Page, problem: str | None) -> None:
    """The page instead of the app when the saved games cannot be opened. A server tries
    again a few seconds later (``STORE_RETRY_S``): a database that was away for a moment is
    open again at the page's next load."""
    page.views.clear()
    page.views.append(
        ft.View(
            route="/",
            controls=[
                ft.Text(_("The saved games cannot be opened: {reason}").format(reason=problem), selectable=True),
                ft.Text(_("Once that is mended, reload the page."), color=ft.Colors.ON_SURFACE_VARIANT),
            ],
        )
    )
    page.update()


def serve(
    host: str = "127.0.0.1",
    port: int = 8550,
    database_url: str | None = None,
    desktop: bool = False,
    share: bool = False,
    workers: int = 1,
) -> None:
    """Start the app: a web server on ``host:port`` (prints the address), or a desktop window.

    With ``share`` the table is shared (docs/sharing.md): every browser needs a code to get in.
    Without it, the Share this table page can open the running app to the network. With
    ``workers`` above 1 (a club server, on PostgreSQL, shared) that many processes serve
    the one address.
    """
    url = database_url or os.environ.get("COMPANION_DATABASE_URL")
    answers_for_unknown_controls_dropped()
    if workers > 1:
        _serve_club(host, port, url, workers)
        return
    serving = threading.Event()
    shared.start(url, None if desktop else serving)
    os.environ["FLET_SERVER_PORT"] = str(port)
    os.environ["FLET_SERVER_IP"] = host
    if desktop:
        ft.run(main, assets_dir=str(theme.ASSETS_DIR))
        return
    from companion.share import network, sharing

    sharing.keep_tables_in(OpeningStore(shared).opened)
    try:
        listening = network.bind(host, port)
    except network.NetworkError as err:
        print(err.message, file=sys.stderr)
        raise SystemExit(1) from None
    if share:
        from companion.share.sharing import announcement, start_sharing

        print(announcement(start_sharing(host, port)), flush=True)
    else:
        print(_("Companion is running: open http://{host}:{port}/ in a browser.").format(host=_shown(host), port=port), flush=True)
    _relay_between_processes(url)
    try:
        asyncio.run(_listen(_web_app(host, share, port), listening, serving, host, port))
    except KeyboardInterrupt:  # Ctrl+C: the server has stopped
        pass


def _web_app(host: str, share: bool, port: int):
    from companion.share import network
    from companion.ui.access import guarded

    messages_logged_by_their_action()
    web_app = guarded(ft.run(main, export_asgi_app=True, assets_dir=str(theme.web_assets_dir()), no_cdn=True), host)
    network.set_listener(None if share else network.NetworkListener(web_app, port))
    return web_app


def messages_logged_by_their_action() -> None:
    """flet_web's ``send_message`` writes every message it sends into its debug log's text
    before the logger decides to drop it, and a message's text holds the whole patch, every
    control in it: about 0.4 ms of a device's 2.5 ms update. A message's text is now its
    action only (Flet's own debug log, when switched on, shows less)."""
    from flet.messaging.protocol import Message

    def action_only(message: Message) -> str:
        return f"Message({message.action.name})"

    Message.__repr__ = action_only  # type: ignore[method-assign,assignment]


def answers_for_unknown_controls_dropped() -> None:
    """A device's answer to a call for a control its session does not hold (one an update has
    let go while the answer was on its way, or a number the session never gave out) is
    dropped, and the call's caller waits on until its own timeout. flet 1.0.5 raises instead,
    and the exception ends the session's receive loop: the page stops answering, every later
    tap lost, with a traceback in the server's log (seen once in a CI run from a fresh clone,
    in the app that served a test page whose Back went unheard)."""
    from flet.messaging.session import Session

    handle = Session.handle_invoke_method_results
    if getattr(handle, "drops_unknown", False):
        return

    def handle_known(session: Session, control_id: int, call_id: str, result, error) -> None:
        if control_id in session.index:
            handle(session, control_id, call_id, result, error)

    handle_known.drops_unknown = True  # type: ignore[attr-defined]  # installed once
    Session.handle_invoke_method_results = handle_known  # type: ignore[method-assign,assignment]


def is_postgres(url: str | None) -> TypeIs[str]:
    return url is not None and url.startswith("postgresql")


def _relay_between_processes(url: str | None) -> None:
    """On PostgreSQL, hear the changes saved through the server's other processes (and tell them ours)."""
    if is_postgres(url):
        from companion.share import relay
        from companion.ui.session import catch_up_everywhere, hear_from_elsewhere

        relay.start(url, hear_from_elsewhere, catch_up_everywhere, lambda: shared.store is not None and shared.store.silent)


RESTART_PAUSE = 1.0
"""Seconds before a club server starts a process again that ended by itself."""


def _serve_club(host: str, port: int, url: str | None, workers: int) -> None:
    """A club server: ``workers`` processes accept on one shared socket (docs/sharing.md).

    This process binds the address and shares the table (its codes and devices are in the
    database, so every process admits the same devices), then forks the workers and starts
    one again if it ends; Ctrl+C or SIGTERM stops them all.
    """
    import signal

    from companion.share import network
    from companion.share.sharing import announcement, start_sharing
    from companion.store import Store

    if not is_postgres(url):
        print(_("companion: --workers needs a PostgreSQL database (--database-url postgresql+psycopg://...)."), file=sys.stderr)
        raise SystemExit(2)
    try:
        listening = network.bind(host, port)
    except network.NetworkError as err:
        print(err.message, file=sys.stderr)
        raise SystemExit(1) from None
    try:
        with Store(url) as store:  # the schema upgraded once, and the table's row made, before any worker starts
            from companion.share import sharing

            sharing.keep_tables_in(lambda: store)
            table = start_sharing(host, port)
            table.table_id
    except StoreError as err:
        print(_("companion: the saved games cannot be opened: {reason}").format(reason=err.detail), file=sys.stderr)
        raise SystemExit(1) from None
    print(announcement(table), flush=True)
    children: dict[int, int] = {}

    def fork(slot: int) -> None:
        pid = os.fork()
        if pid == 0:
            try:
                _club_worker(listening, host, port, url, table)
            finally:
                os._exit(0)
        children[pid] = slot

    def stop(*_args) -> None:
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    for slot in range(workers):
        fork(slot)
    try:
        while children:
            pid, status = os.wait()
            if pid in children:
                print(ended_message(pid, status), file=sys.stderr, flush=True)
                time.sleep(RESTART_PAUSE)
                fork(children.pop(pid))
    except KeyboardInterrupt:
        stop()


def ended_message(pid: int, status: int) -> str:
    """What the host reads when a club server's process ended by itself (``os.wait``'s
    ``status``): it is started again, so the club plays on, but a crash should not go unseen."""
    import signal

    code = os.waitstatus_to_exitcode(status)
    if code >= 0:
        how = _("exit code {code}").format(code=code)
    elif -code in {named.value for named in signal.Signals}:
        how = _("stopped by {signal}").format(signal=signal.Signals(-code).name)
    else:  # a signal Python has no name for
        how = _("stopped by signal {number}").format(number=-code)
    return _("companion: server process {pid} ended ({how}); a new one takes its place, and its phones reconnect by themselves.").format(pid=pid, how=how)


def _club_worker(listening: socket.socket, host: str, port: int, url: str, table) -> None:
    """One process of a club server: its own store, the shared table, the relay, the web app."""
    import signal

    from companion.share import sharing
    from companion.share.table import CLUB_MAX_DEVICES, Table
    from companion.store.seats import Seats

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop like Ctrl+C
    os.environ["FLET_FORCE_WEB_SERVER"] = "1"  # the browser is opened by nobody: a club's devices come by themselves
    serving = threading.Event()
    shared.start(url, serving)
    sharing.keep_tables_in(OpeningStore(shared).opened)
    sharing.adopt(Table(table.invitation, seats=Seats(OpeningStore(shared).opened), table_id=table.table_id, max_devices=CLUB_MAX_DEVICES))
    _relay_between_processes(url)
    try:
        asyncio.run(_listen(_web_app(host, True, port), listening, serving, host, port))
    except KeyboardInterrupt:
        pass


def _shown(host: str) -> str:
    """The host part of the address this machine's browser opens."""
    if host in ("127.0.0.1", "0.0.0.0", "::", ""):
        return "localhost"
    return f"[{host}]" if ":" in host else host


async def _listen(web_app, listening: socket.socket, serving: threading.Event, host: str, port: int) -> None:
    """Serve the web app on ``listening`` until Ctrl+C; set ``serving`` once it serves, and open
    it in this machine's browser then (unless FLET_FORCE_WEB_SERVER is set, as Flet's own
    server does)."""
    from companion.share.network import started, web_server
    from companion.ui.reconnect import ids_apart_from_other_processes

    ids_apart_from_other_processes()
    server = web_server(web_app)
    serve = asyncio.create_task(server.serve(sockets=[listening]))
    if await started(server, serve):
        serving.set()
        if not os.environ.get("FLET_FORCE_WEB_SERVER"):
            import webbrowser

            await asyncio.to_thread(webbrowser.open, f"http://{_shown(host)}:{port}/")
    await serve

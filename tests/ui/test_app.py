import asyncio
import contextvars
import json
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import flet as ft
import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.ui import handshake, theme
from companion.ui.app import SharedStore
from companion.ui.garbage import QuietCollector
from companion.ui.router import LATER_SCREENS, STORE_SCREENS, stack
from tests.ui.tree import ENCODE, served_page

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "route, pages",
    [
        ("/", ["/"]),
        ("", ["/"]),
        ("/new", ["/", "/new"]),
        ("/game/7", ["/", "/game/7"]),
        ("/game/7/round", ["/", "/game/7/round"]),  # the game's one page, showing the form
        ("/game/7/round/2", ["/", "/game/7/round/2"]),
        ("/history", ["/", "/history"]),
        ("/history/7", ["/", "/history", "/history/7"]),
        ("/players", ["/", "/players"]),
        ("/players/Ann%20Marie", ["/", "/players", "/players/Ann%20Marie"]),
        ("/rules", ["/", "/rules"]),
        ("/settings", ["/", "/settings"]),
        ("/rules/clubs/referee", ["/", "/rules", "/rules/clubs/referee"]),
        ("/rules/poker/referee", ["/"]),
        ("/game/7/rules", ["/", "/game/7", "/game/7/rules"]),
        ("/game/7/referee", ["/", "/game/7", "/game/7/referee"]),
        ("/history/7/rules", ["/", "/history", "/history/7", "/history/7/rules"]),
        ("/history/7/round", ["/"]),
        ("/game/seven", ["/"]),
        ("/game/7/round/x", ["/"]),
        ("/history/old", ["/"]),
        ("/nowhere", ["/"]),
    ],
)
def test_each_route_sits_on_a_stack_that_the_back_arrow_walks_down(route, pages):
    assert stack(route) == pages


def test_the_store_opens_in_the_background_and_is_shared(tmp_path):
    shared = SharedStore()
    shared.start(f"sqlite:///{tmp_path / 'companion.sqlite3'}")
    store = shared.get()
    assert store is not None and shared.problem is None
    assert shared.get() is store  # every session gets the same store
    store.close()


def test_a_database_that_cannot_be_opened_is_explained(tmp_path, capsys):
    shared = SharedStore()
    shared.start(f"sqlite:///{tmp_path / 'missing' / 'companion.sqlite3'}")
    assert shared.get() is None
    assert "cannot be written" in shared.problem  # the store's own words, shown in the page
    assert shared.problem in capsys.readouterr().err  # and printed where the server was started


def test_a_database_that_could_not_be_opened_is_tried_again_in_the_background(tmp_path, capsys, monkeypatch):
    """A club's database server restarting as a process first opened its store: the process
    tries again by itself, not while a page waits, and says so where the server was started."""
    from companion.ui import app

    monkeypatch.setattr(app, "STORE_RETRY_S", 0.05)
    caught_up = threading.Event()
    monkeypatch.setattr("companion.ui.session.catch_up_everywhere", caught_up.set)
    shared = SharedStore()
    folder = tmp_path / "away"
    shared.start(f"sqlite:///{folder / 'companion.sqlite3'}")
    assert shared.get() is None and shared.problem
    folder.mkdir()  # the database is back
    assert caught_up.wait(30), "the pages were not told that the saved games can be opened"
    store = shared.get()
    assert store is not None and shared.problem is None
    printed = capsys.readouterr().err
    assert printed.count("cannot be opened") == 1 and "companion: the saved games can be opened again." in printed
    store.close()


FIRST_PAGE_IN_A_FRESH_PROCESS = """
import sys
from types import SimpleNamespace

import flet as ft

from companion.share.table import Device
from companion.ui import app, home, theme
from companion.rules import IDS
from companion.ui.router import LATER_SCREENS, STORE_SCREENS

app.load_screens()
print("flet.controls.theme" in sys.modules)
before = set(sys.modules)
theme.apply(SimpleNamespace(web=True))
ft.SharedPreferences()
session = SimpleNamespace(device=Device.this_machine(), dark=False, go=None, toggle_theme=None, page_drawn=None)
home.complete(session, home.view(session, home.HomeState(None)))  # its first frame, and the rows that follow it
print(sorted(m for m in set(sys.modules) - before if m.split(".")[0] in ("flet", "flet_charts", "companion")))
print(sorted(m for m in [f"companion.ui.{name}" for name in LATER_SCREENS] + ["flet_charts"] if m in sys.modules))
game_modules = [f"{package}.{ruleset_id}" for package in app.GAME_PACKAGES for ruleset_id in IDS]
print(sorted(m for m in game_modules if m in sys.modules))
app.load_later()
print(sorted(name for name in LATER_SCREENS if f"companion.ui.{name}" in sys.modules))
print([m for m in game_modules if m not in sys.modules])
from companion.ui import new_game
before = set(sys.modules)
new_game.prepared(SimpleNamespace(page=None, store_open=False), own_page=False)  # as home's layer builds it
print(sorted(m for m in set(sys.modules) - before if m.split(".")[0] == "flet"))
import companion.store.browser_storage  # the offline web app mounts its folder before the first page
print(sorted({m.split(".")[0] for m in sys.modules} & {"sqlalchemy", "sqlmodel", "pydantic", "alembic", "flet_charts"}))
with_store = [f"companion.ui.{name}" for name in STORE_SCREENS] + ["flet_charts"]
print(sorted(m for m in with_store if m in sys.modules))
shared = app.SharedStore()
shared.start(sys.argv[1])
shared.get().close()
print(sorted(m for m in with_store if m in sys.modules))
"""


def test_the_first_page_imports_nothing_once_the_screens_are_loaded_and_leaves_the_rest_for_later(tmp_path):
    """Flet imports a control's module when the control is first named: a first page that
    named one FIRST_PAGE_CONTROLS lacks would import it while the browser waits. What comes
    later (the other screens, every game's modules) is loaded before the first tap needs it.
    The database libraries (half a second of CPU) and the score chart come with the store,
    once the first page is drawn: imported with the screens, they held back the browser
    loading the client."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PAGE_IN_A_FRESH_PROCESS, f"sqlite:///{tmp_path / 'companion.sqlite3'}"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    flets_theme_loaded, imported_late, later_loaded_early, games_loaded_early, later_loaded, games_missing, new_game_imported, *database = done.stdout.splitlines()
    assert flets_theme_loaded == "False"  # theme.SeededTheme stands for it: 0.1 s before the first page
    assert imported_late == "[]"
    assert later_loaded_early == "[]"
    assert games_loaded_early == "[]"
    assert later_loaded == str(sorted(LATER_SCREENS))
    assert games_missing == "[]"
    assert new_game_imported == "[]"  # New game, built under home for the first tap, imports nothing then
    libraries_before_the_store, with_store_before, with_store_after = database
    assert libraries_before_the_store == "[]"
    assert with_store_before == "[]"
    assert with_store_after == str(sorted([f"companion.ui.{name}" for name in STORE_SCREENS] + ["flet_charts"]))


PAGES_IN_A_FRESH_PROCESS = """
import sys

from companion.ui import app
from tests.ui.tree import served_app

app.load_screens()
app.load_later()
from companion.ui.router import App

shell, page, session = served_app(lambda page: App(page, None, store_open=False))
for route in sys.argv[1:]:
    shell.go(route)
print(sorted({m.split(".")[0] for m in sys.modules} & {"sqlalchemy", "sqlmodel", "pydantic", "alembic", "flet_charts"}))
print("companion.ui.club" in sys.modules)
"""


def test_pages_shown_before_the_store_opens_import_neither_the_club_screen_nor_the_database_libraries():
    """New game tapped the moment home shows, or the rules looked up, before the store has
    opened: the router imports the club screen (and with it the database libraries, half a
    second of CPU) only for the club's own pages, not within every tap."""
    done = subprocess.run(
        [sys.executable, "-c", PAGES_IN_A_FRESH_PROCESS, "/", "/new", "/rules", "/settings", "/"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert done.stdout.splitlines() == ["[]", "False"]


def test_the_web_assets_add_the_bundled_font_to_flutters_own_font_manifest(tmp_path):
    folder = theme.web_assets_dir(tmp_path)
    manifest = json.loads((folder / "assets" / "FontManifest.json").read_text())
    families = [entry["family"] for entry in manifest]
    assert families[-1] == theme.FONT and "MaterialIcons" in families  # Flutter's own icons are kept
    # the client downloads every font named before its first page: none the app never shows
    assert not [family for family in families if family.startswith("packages/")], families
    asset = manifest[-1]["fonts"][0]["asset"]
    assert (folder / "assets" / asset).read_bytes() == (theme.ASSETS_DIR / "fonts" / theme.FONT_FILE).read_bytes()
    assert (folder / "fonts" / theme.FONT_FILE).exists()  # the repository's assets are served too


def test_the_web_assets_page_is_flets_own_with_the_script_that_says_what_the_device_remembers(tmp_path):
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]

    served = (theme.web_assets_dir(tmp_path) / "index.html").read_text(encoding="utf-8")
    flets = (Path(get_package_web_dir()) / "index.html").read_text(encoding="utf-8")
    assert served.replace(handshake.SCRIPT, "") == flets
    assert "<!-- fletAppConfig -->" in served  # where Flet's server writes the page's settings


def test_every_start_serves_the_same_web_assets_folder_and_leaves_nothing_behind(tmp_path, monkeypatch):
    """A server stopped by a signal runs no clean-up: a folder of its own, made at each start,
    stayed behind every time."""
    cache = tmp_path / "cache"
    first = theme.web_assets_dir(cache)
    assert theme.web_assets_dir(cache) == first  # a second start, or a second process
    assert list(cache.iterdir()) == [first]
    upgraded = tmp_path / "assets"
    shutil.copytree(theme.ASSETS_DIR, upgraded)
    (upgraded / "fonts" / theme.FONT_FILE).write_bytes(b"another font")
    monkeypatch.setattr(theme, "ASSETS_DIR", upgraded)
    second = theme.web_assets_dir(cache)  # other assets, after an upgrade: a folder of their own
    assert second != first and (second / "fonts" / theme.FONT_FILE).read_bytes() == b"another font"
    assert sorted(cache.iterdir()) == sorted([first, second])


def test_web_assets_are_served_from_a_temporary_folder_where_the_cache_cannot_be_written(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    folder = theme.web_assets_dir(not_a_folder / "cache")
    assert json.loads((folder / "assets" / "FontManifest.json").read_text())[-1]["family"] == theme.FONT
    assert not folder.is_relative_to(tmp_path)


def sent_to_the_browser(show_theme) -> list:
    """What a fresh served page sends a browser once ``show_theme`` has set its theme."""

    def run() -> list:
        sent: list = []
        _session, page = served_page(sent)
        show_theme(page)
        page.update()
        return [msgpack.unpackb(msgpack.packb([message.action, message.body], default=ENCODE)) for message in sent]

    return contextvars.copy_context().run(run)  # Flet notes updates in the running context


def test_the_apps_theme_reaches_the_browser_as_flets_own_theme_would():
    """``theme.SeededTheme`` stands for ``ft.Theme`` (whose import costs the first page 0.1 s):
    the browser must get the very same light and dark themes."""

    def flets_theme(page: ft.Page) -> None:
        page.fonts = dict(theme.FONTS)
        page.theme = ft.Theme(color_scheme_seed=theme.SEED, font_family=theme.FONT)
        page.dark_theme = ft.Theme(color_scheme_seed=theme.SEED, font_family=theme.FONT)
        page.theme_mode = ft.ThemeMode.LIGHT

    apps = sent_to_the_browser(theme.apply)
    assert apps == sent_to_the_browser(flets_theme)
    assert "'theme', {'color_scheme_seed': '#2E7D5B', 'font_family': 'DejaVu Sans'" in str(apps)  # not compared empty


@pytest.mark.parametrize(
    "route",
    ["/game/²", "/history/¹", "/table/²", "/game/٣", "/game/7/round/²", "/game/" + "9" * 5000, "/table/" + "9" * 21],
)
def test_an_address_whose_number_is_not_plain_digits_or_far_too_long_leads_home(route):
    """``isdigit`` takes '²' and other scripts' digits, which ``int`` refuses or reads otherwise."""
    assert stack(route) == ["/"]


@pytest.mark.parametrize("head", ["game", "history", "table"])
def test_an_address_with_a_game_number_no_database_holds_says_there_is_no_such_game(store, head):
    from companion.ui.scoreboard import ScoreboardState
    from companion.ui.table_view import TableViewState

    route = f"/{head}/99999999999999999999"
    assert stack(route)[-1] == route
    board = ScoreboardState(store, 99999999999999999999)
    assert not board.load() and board.error == "There is no saved game number 99999999999999999999."
    table = TableViewState(store, 99999999999999999999)
    table.load()
    assert table.board is None and table.error == "There is no saved game number 99999999999999999999."


ROUTE_PARTS = st.sampled_from(
    ["game", "history", "table", "round", "rules", "referee", "players", "7", "0", "²", "٣", "9" * 20, "9" * 21, ""]
) | st.text(max_size=6)


@given(st.lists(ROUTE_PARTS, max_size=5).map(lambda parts: "/" + "/".join(parts)) | st.text())
def test_any_address_lands_on_a_stack_whose_numbers_the_app_can_read(route):
    """Random addresses: the stack starts home, is its own last page's stack, and each number
    in it is plain ASCII digits that ``int`` reads (how the pages are built)."""
    pages = stack(route)
    assert pages[0] == "/" and stack(pages[-1]) == pages
    for page in pages:
        for part in page.split("/"):
            if part.isdigit() and page.split("/")[1] in ("game", "history", "table"):
                assert part.isascii() and int(part) < 10**20


def test_the_address_following_a_page_already_shown_sends_nothing_and_compares_nothing():
    """``go`` shows a page, then the browser reports the new address: a route change for the
    page on top is not answered by Flet comparing the whole page again (its automatic update)."""
    from companion.ui.router import App

    def route_change(route: str) -> tuple[list[str], bool]:
        shown: list[str] = []
        app = App.__new__(App)
        app.page = SimpleNamespace(views=[SimpleNamespace(route="/new", data=None)])
        app.show = shown.append
        app._pushed = deque()
        ft.context.reset_auto_update()
        app._route_change(SimpleNamespace(route=route))
        return shown, ft.context.auto_update_enabled()

    assert contextvars.copy_context().run(route_change, "/new") == ([], False)
    assert contextvars.copy_context().run(route_change, "/history") == (["/history"], True)


def test_a_tap_answered_before_the_browser_reports_the_address_before_it_is_not_undone_by_that_report():
    """Save shows the scoreboard and asks for its address; Enter round, tapped the moment the
    scoreboard shows, can come before the browser's report of that address. The report then
    names a page already left: it is not shown again, and Enter round's own address follows."""
    from companion.ui.router import App

    shown: list[str] = []
    navigated: list[str] = []
    app = App.__new__(App)
    app.page = SimpleNamespace(route="/game/1/round", views=[], navigate=navigated.append)
    app.show = lambda route: (shown.append(route), setattr(app.page, "views", [SimpleNamespace(route=route, data=None)]))
    app._pushed = deque()

    def route_change(route: str) -> None:
        app.page.route = route
        contextvars.copy_context().run(app._route_change, SimpleNamespace(route=route))

    app.go("/game/1")  # Save
    app.go("/game/1/round")  # Enter round, before the browser reported /game/1
    route_change("/game/1")
    route_change("/game/1/round")
    assert shown == ["/game/1", "/game/1/round"] and navigated == ["/game/1", "/game/1/round"]
    route_change("/game/1")  # the browser's back button
    assert shown[-1] == "/game/1"


def test_a_page_shown_again_in_place_updates_that_page_and_not_the_pages_beneath():
    """A round saved shows the same game page again: the pages under it on the stack (home,
    with every game listed) are not compared again; a new page on top updates the page."""
    from companion.ui.router import App

    views = {"/": ft.View(route="/"), "/game/1": ft.View(route="/game/1"), "/history": ft.View(route="/history")}
    updated: list[tuple] = []
    app = App.__new__(App)
    app.page = SimpleNamespace(views=[], pop_dialog=lambda: None, update=lambda *controls: updated.append(controls))
    app.awake = SimpleNamespace(follow=lambda route: None)
    app._views, app.games, app._asking = {}, {}, None
    app._build = lambda route, beneath=False: views[route]

    app.show("/game/1")
    app.show("/game/1")
    app.show("/history")
    assert updated == [(), (views["/game/1"],), ()]
    assert app.page.views == [views["/"], views["/history"]]


def test_a_page_shown_again_under_its_open_question_waits_until_the_question_is_answered():
    """A page shown again (another device joined, a change elsewhere, the browser back after a
    lost connection) while a question asked on it is open would close it, and a device's name
    typed in it, or (a page built anew under it) leave it unanswerable: it is shown once the
    question is answered. Another page still closes the question."""
    from companion.ui.router import App

    built: list[str] = []
    asked: list[ft.AlertDialog] = []

    def show_dialog(dialog: ft.AlertDialog) -> None:
        dialog.open = True
        asked.append(dialog)

    def pop_dialog() -> ft.AlertDialog | None:
        dialog = asked.pop() if asked else None
        if dialog is not None:
            dialog.open = False
        return dialog

    app = App.__new__(App)
    app.page = SimpleNamespace(views=[], route="/", show_dialog=show_dialog, pop_dialog=pop_dialog, update=lambda *controls: None)
    app.awake = SimpleNamespace(follow=lambda route: None)
    app._views, app.games, app._asking, app._after_question = {}, {}, None, None
    app._build = lambda route, beneath=False: built.append(route) or ft.View(route=route)

    app.show("/share")
    dismissed: list[str] = []
    question = ft.AlertDialog(title=ft.Text("Device 2"), on_dismiss=lambda: dismissed.append("own"))
    app.ask(question)
    app.show("/share")  # a device joined
    assert built.count("/share") == 1 and asked == [question] and question.open
    pop_dialog()  # answered
    question.on_dismiss()
    assert dismissed == ["own"] and built.count("/share") == 2
    app.ask(ft.AlertDialog(title=ft.Text("Device 3")))
    app.show("/settings")
    assert asked == [] and built[-1] == "/settings"


def test_a_message_sent_to_a_browser_is_written_as_its_action_not_its_whole_patch(monkeypatch):
    """flet_web formats each message for its debug log whether the log is on or not."""
    from flet.messaging.protocol import Message, MessageAction, PatchControlBody

    from companion.ui.app import messages_logged_by_their_action

    monkeypatch.setattr(Message, "__repr__", object.__repr__)  # as Flet leaves it or not; put back after the test
    message = Message(MessageAction.PATCH_CONTROL, PatchControlBody(1, [ft.Column([ft.Text("row")])]))
    assert "PATCH_CONTROL" not in f"{message}"
    messages_logged_by_their_action()
    assert f"send_message: {message}" == "send_message: Message(PATCH_CONTROL)"


def test_a_device_s_answer_for_a_control_its_session_does_not_hold_is_dropped_and_the_session_goes_on(monkeypatch):
    """flet 1.0.5 raises on such an answer (an update let the control go while the answer was
    on its way, or the number was never given out), and that ends the session's receive loop:
    the page stops answering. Dropped, the session goes on, and a known control's answer still
    reaches its caller."""
    from flet.messaging.connection import Connection
    from flet.messaging.session import Session
    from flet.pubsub.pubsub_hub import PubSubHub

    from companion.ui.app import answers_for_unknown_controls_dropped

    monkeypatch.setattr(Session, "handle_invoke_method_results", Session.handle_invoke_method_results)  # put back after the test
    calls: list = []
    session = Session(cast(Connection, SimpleNamespace(pubsubhub=PubSubHub(), send_message=lambda m: calls.append(m.body))))
    answers_for_unknown_controls_dropped()

    async def asked() -> object:
        answer = asyncio.create_task(session.invoke_method(session.page._i, "get_device_info", None, timeout=5))
        await asyncio.sleep(0)  # the call goes out
        session.handle_invoke_method_results(879748434, calls[-1].call_id, {"wrong": True}, None)  # no such control
        session.handle_invoke_method_results(session.page._i, calls[-1].call_id, {"locales": []}, None)
        return await answer

    assert asyncio.run(asked()) == {"locales": []}


class Moments:
    """A QuietCollector on a clock the test moves, with younger collections it sets."""

    def __init__(self, pending: int):
        self.now = 0.0
        self.pending = pending
        self.collected: list[float] = []
        self.collector = QuietCollector(clock=lambda: self.now, pending=lambda: self.pending, collect=self._collect)

    def _collect(self) -> None:
        self.collected.append(self.now)
        self.pending = 0

    def at(self, now: float) -> bool:
        self.now = now
        return self.collector.step()


def test_a_full_collection_waits_until_no_page_has_been_updated_for_a_moment():
    moments = Moments(pending=QuietCollector.DUE_AFTER)
    moments.collector.busy()
    assert not moments.at(QuietCollector.QUIET_S / 2)  # a change is still going out to the devices
    assert moments.at(QuietCollector.QUIET_S)
    assert moments.collected == [QuietCollector.QUIET_S]
    assert not moments.at(10 * QuietCollector.QUIET_S)  # done: not again until it is due again


def test_a_full_collection_is_not_run_before_it_is_due():
    moments = Moments(pending=QuietCollector.DUE_AFTER - 1)
    assert not moments.at(100.0)
    assert moments.collected == []


def test_a_server_that_is_never_quiet_still_collects_once_it_has_waited_long_enough():
    moments = Moments(pending=QuietCollector.DUE_AFTER)
    for tenth in range(int(QuietCollector.LATEST_S * 10) + 1):  # a page updated every tenth of a second
        moments.now = tenth / 10
        moments.collector.busy()
        moments.collector.step()
    assert moments.collected == [QuietCollector.LATEST_S]


def test_a_full_collection_waits_for_the_serving_loop_to_have_nothing_left_to_do():
    loop = asyncio.new_event_loop()
    serving = threading.Thread(target=loop.run_forever, daemon=True)
    serving.start()
    try:
        moments = Moments(pending=QuietCollector.DUE_AFTER)
        moments.collector.serving(loop)
        loop.call_soon_threadsafe(time.sleep, 0.05)  # work ahead of it, e.g. messages still to send
        assert not moments.at(QuietCollector.QUIET_S)
        assert moments.collected == []
        assert moments.at(QuietCollector.QUIET_S)  # the loop has caught up
        assert moments.collected == [QuietCollector.QUIET_S]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        serving.join()
        loop.close()



@pytest.mark.parametrize(
    "status, how",
    [(0, "exit code 0"), (1 << 8, "exit code 1"), (9, "stopped by SIGKILL"), (15, "stopped by SIGTERM"), (40, "stopped by signal 40")],
)
def test_a_club_server_process_that_ended_by_itself_is_named_to_the_host(status, how):
    """The server starts it again, so the club plays on; the host's terminal says so."""
    from companion.ui.app import ended_message

    assert ended_message(4321, status) == (
        f"companion: server process 4321 ended ({how}); a new one takes its place, and its phones reconnect by themselves."
    )


def test_the_page_shown_when_the_saved_games_cannot_be_opened_says_why_and_what_then():
    """The server tries to open them again a few seconds later: a reload then finds them."""
    from companion.ui.app import _show_store_problem
    from tests.ui.tree import text

    def run() -> str:
        _session, page = served_page()
        _show_store_problem(page, "the folder is missing")
        return text(page.views[-1])

    shown = contextvars.copy_context().run(run)
    assert shown == "The saved games cannot be opened: the folder is missing Once that is mended, reload the page."


def test_why_the_store_cannot_be_opened_is_said_in_each_readers_language(tmp_path):
    """One server, pages in several languages: the store's reason is kept as the store's
    error, not as the words of whichever session happened to open it."""
    from companion import i18n

    shared = SharedStore()
    shared.start(f"sqlite:///{tmp_path / 'missing' / 'companion.sqlite3'}")
    with i18n.speaking("de"):
        assert shared.get() is None
    with i18n.speaking("nl"):
        dutch = shared.problem
    with i18n.speaking("en"):
        english = shared.problem
    assert "cannot be written" in english and dutch is not None and "cannot be written" not in dutch

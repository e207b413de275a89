"""The offline web app (``make phone-app``): built once per test run, served by a tiny static
server on 127.0.0.1, opened in Chromium at phone size. A game saved there is still there
when the page is opened again with the server gone: the app's service worker answers, and
the saved games come back from IndexedDB."""

from __future__ import annotations

import fcntl
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import tarfile
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser import test_games, test_language, test_screens
from tests.browser.conftest import PHONE, ROOT, STEP_TIMEOUT_MS, Phone, _need_chromium, stop
from tests.browser.phone import QUERY
from tests.browser.test_backup import companion_run, restore, saved_games
from tests.browser.test_games import save_round, start_game

pytestmark = pytest.mark.browser

FIRST_START_TIMEOUT_MS = 90_000
"""Python starts in the page itself: a first visit loads ~40 MB and the database libraries."""


@pytest.fixture(scope="session")
def phone_app(tmp_path_factory) -> Path:
    """The built folder, one per test run: the xdist workers share it (the first builds it)."""
    return built(tmp_path_factory, "phone-app")


@pytest.fixture(scope="session")
def phone_app_with_wasm_client(tmp_path_factory) -> Path:
    """The folder built with Flutter's WebAssembly client too (``--wasm-client``)."""
    return built(tmp_path_factory, "phone-app-wasm", "--wasm-client")


def built(tmp_path_factory, name: str, *options: str) -> Path:
    _need_chromium()
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's, not each worker's
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "sw.js").exists():
            subprocess.run([sys.executable, "scripts/build_phone_app.py", "--out", str(folder), *options], cwd=ROOT, check=True)
    return folder


class StaticServer:
    """The folder over HTTP on a free port of 127.0.0.1, as any static web server would serve it."""

    def __init__(self, folder: Path, port: int = 0):
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Quiet, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


class AppInPage(Phone):
    """The phone, where the app runs in the page itself: the first visit loads the page (and
    Python in it); a screen is then opened by its route after the '#', as a link would."""

    def open(self, route: str = "/") -> None:
        if self.page.url.startswith(self.base_url):
            self.page.evaluate("route => { location.hash = route; }", route)
            return
        self.page.goto(self.base_url + "#" + route, wait_until="commit")  # the load itself is waited for below, as long as a first visit takes
        self._started()

    def reload(self) -> None:
        """Load the page again, as the browser's reload button does (Python starts again)."""
        self.page.reload(wait_until="commit")
        self._started()

    def _started(self) -> None:
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=FIRST_START_TIMEOUT_MS)
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        shown = f"() => ({QUERY})('[flt-semantics-identifier]') !== null"  # the route's screen, built by Python
        self.page.wait_for_function(shown, polling="raf", timeout=FIRST_START_TIMEOUT_MS)


def open_app(context, url: str, output_dir: Path, outside: list[str], missing: list[str] | None = None) -> AppInPage:
    """The app in a new page; ``outside`` collects the requests that would leave the site
    (refused on their way out: Flet's client asks cdn.jsdelivr.net for a script unless the
    page's policy keeps it from asking), ``missing`` those the site answered with an error
    (a file the client wants and the folder lacks)."""
    page = context.new_page()

    def refused(route) -> None:
        outside.append(route.request.url)
        route.abort()

    page.route(lambda address: urlparse(address).hostname not in ("127.0.0.1", None), refused)
    if missing is not None:
        page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
    phone = AppInPage(page, url, output_dir)
    phone.open("/")
    return phone


FOLDERS = {"phone_app": False, "phone_app_with_wasm_client": True}
"""The two builds, by fixture: whether the folder has Flutter's WebAssembly client."""


@pytest.mark.parametrize("folder_fixture", FOLDERS)
def test_a_saved_round_is_there_after_closing_the_page_and_reopening_it_with_the_server_gone(chromium, folder_fixture, request, output_dir):
    """In either build; Chromium runs the WebAssembly client where the folder has it."""
    folder = request.getfixturevalue(folder_fixture)
    server = StaticServer(folder)
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    outside: list[str] = []
    missing: list[str] = []
    try:
        phone = open_app(context, server.url, output_dir, outside, missing)
        assert phone.page.evaluate("[Boolean(window._flutter_skwasmInstance), Boolean(window.flutterCanvasKit)]") == [FOLDERS[folder_fixture], not FOLDERS[folder_fixture]]
        game_id = start_game(phone, "beverbende", ["Ann", "Bob"])
        phone.tap("enter-round")
        phone.keys("3141" + "5926")
        save_round(phone, 2)  # the scoreboard confirms the round
        phone.page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # every file is cached
        phone.page.close()  # at once: the confirmed round must already be in IndexedDB
        server.stop()

        phone = open_app(context, server.url, output_dir, outside)
        phone.expect_text(f"game-{game_id}", "Ann")  # home lists the game in progress
        phone.tap(f"game-{game_id}")
        phone.expect_text("enter-round", "Enter round 2")
        phone.screenshot("phone-app-reopened")
    finally:
        context.close()
        if server.thread.is_alive():
            server.stop()
    assert outside == []
    assert missing == []  # every file the client asked for (NOTICES not among them) was in the folder


def back_up(phone: Phone, folder: Path) -> Path:
    """Tap Back up in settings; the downloaded file, once the app has said it is saved."""
    phone.open("/settings")
    with phone.page.expect_download() as download:
        phone.tap("back-up")
    backup = folder / download.value.suggested_filename
    download.value.save_as(backup)
    phone.expect_text("backup-done", f"Saved a backup of every game and player as {backup.name}")
    phone.tap("backup-ok")
    return backup


def the_game_on_home(phone: Phone) -> int:
    """The id of the one game home lists (ids are each database's own)."""
    phone.open("/")
    identifier = phone.until(
        f"""() => {{
            const e = ({QUERY})("[flt-semantics-identifier^='game-']");
            return e && e.getAttribute('flt-semantics-identifier');
        }}"""
    )
    return int(identifier.removeprefix("game-"))


def test_a_phone_s_history_moves_to_a_computer_and_back(chromium, phone_app, output_dir, tmp_path_factory, tmp_path):
    """Back up in the offline web app, Restore in ``make run`` on a computer (an empty
    database); a round more there, Back up, and Restore in the offline web app of a new phone
    (another address, so a browser storage of its own): the game and its rounds come along
    each way, and stay on the new phone across a reload."""
    old_phone_site, new_phone_site = StaticServer(phone_app), StaticServer(phone_app)
    computer, computer_url, computer_database = companion_run(tmp_path_factory, "computer")
    contexts = []
    outside: list[str] = []

    def device():
        context = chromium.new_context(viewport=PHONE, accept_downloads=True)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        contexts.append(context)
        return context

    try:
        old_phone = open_app(device(), old_phone_site.url, output_dir, outside)
        start_game(old_phone, "beverbende", ["Ann", "Bob"])
        old_phone.tap("enter-round")
        old_phone.keys("3141" + "5926")
        save_round(old_phone, 2)
        from_old_phone = back_up(old_phone, tmp_path)

        assert saved_games(computer_database) == []
        desk = Phone(device().new_page(), computer_url, output_dir)
        desk.open("/settings")
        restore(desk, from_old_phone)
        desk.expect_text("backup-done", r"Imported 1 game and 2 new players; 0 games already here\.")
        assert saved_games(computer_database) == [("beverbende", ["Ann", "Bob"], "in_progress", 1)]
        desk.tap("backup-ok")
        desk.tap(f"game-{the_game_on_home(desk)}")
        desk.expect_text("total-Ann", "9")  # 3 + 1 + 4 + 1
        desk.expect_text("total-Bob", "22")
        desk.tap("enter-round")
        desk.keys("2718" + "2818")
        save_round(desk, 3)
        from_computer = back_up(desk, tmp_path)

        new_phone = open_app(device(), new_phone_site.url, output_dir, outside)
        new_phone.open("/settings")
        restore(new_phone, from_computer)
        new_phone.expect_text("backup-done", r"Imported 1 game and 2 new players; 0 games already here\.")
        new_phone.tap("backup-ok")
        new_phone.reload()  # the restored game is in the browser's storage, not only in the page
        new_phone.tap(f"game-{the_game_on_home(new_phone)}")
        new_phone.expect_text("enter-round", "Enter round 3")
        new_phone.wait("round-2")
        new_phone.expect_text("total-Ann", "27")  # 9 + 18
        new_phone.expect_text("total-Bob", "41")  # 22 + 19
        new_phone.screenshot("phone-app-restored-from-computer")
    finally:
        for context in contexts:
            context.close()
        stop(computer)
        old_phone_site.stop()
        new_phone_site.stop()
    assert outside == []


FLOWS_AS_WITH_MAKE_RUN = (
    test_games.test_beverbende, test_games.test_clubs, test_games.test_klaverjassen, test_games.test_members_only,
    test_screens.test_rules_players_and_dark_theme,
    test_language.test_switching_to_dutch_in_settings_shows_home_in_dutch,  # last but one: the app speaks Dutch after it
    test_language.test_switching_to_german_then_french_then_english_shows_home_in_each,
)  # fmt: skip
"""The browser tests of the server's app a phone walks by itself: every game (refused entries,
undo, edit), history, rules and the referee, players, the theme, each of the four languages."""


def test_the_screens_work_as_with_make_run(chromium, phone_app, output_dir):
    """The same flows, one after another in one page (Python starts once), against the folder."""
    server = StaticServer(phone_app)
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    outside: list[str] = []
    try:
        screenshots = output_dir / "phone-app"  # beside the server's app's, not over them
        screenshots.mkdir(exist_ok=True)
        phone = open_app(context, server.url, screenshots, outside)
        for flow in FLOWS_AS_WITH_MAKE_RUN:
            flow(phone)
    finally:
        context.close()
        server.stop()


@pytest.mark.parametrize("folder_fixture", FOLDERS)
def test_the_folder_installs_and_runs_from_its_own_files(folder_fixture, request):
    phone_app = request.getfixturevalue(folder_fixture)
    manifest = json.loads((phone_app / "manifest.json").read_text())
    assert manifest["name"] == "Companion" and manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert all((phone_app / icon["src"]).is_file() for icon in manifest["icons"])
    cached = json.loads((phone_app / "sw.js").read_text().split("const FILES = ")[1].split(";\n")[0])
    files = {p.relative_to(phone_app).as_posix() for p in phone_app.rglob("*") if p.is_file()}
    assert set(cached) == (files - {"sw.js", "index.html"}) | {"./"}
    assert {"main.dart.js", "canvaskit/canvaskit.wasm"} <= files  # every browser's client
    assert ({"main.dart.wasm", "canvaskit/skwasm.wasm"} <= files) == FOLDERS[folder_fixture]
    assert "assets/fonts/MaterialIcons-Companion.otf" in files and "assets/fonts/MaterialIcons-Regular.otf" not in files  # 1.2 MB no page asks for
    with tarfile.open(phone_app / "app.tar.gz") as archive:
        names = set(archive.getnames())
    # Flet's worker installs with micropip from a package index what these two name
    assert not names & {"requirements.txt", "pyproject.toml"}
    assert {"main.py", "__pypackages__/pydantic_core/__init__.pyc", "companion/store/migrations/env.pyc"} <= names


def test_the_client_s_licences_are_in_the_folder_whole_and_compressed(phone_app):
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]  # no type information

    licences = (Path(get_package_web_dir()) / "assets" / "NOTICES").read_bytes()
    assert gzip.decompress((phone_app / "assets" / "NOTICES.gz").read_bytes()) == licences
    assert not (phone_app / "assets" / "NOTICES").exists()

"""Browser tests: the real app as a subprocess, driven in Debian's Chromium at phone size.

Each xdist worker starts its own server (free port, its own temporary SQLite database)
and its own headless Chromium; each test gets a fresh page. Without /usr/bin/chromium
the tests are skipped with the reason, except in CI (CI=true), where they fail.
Screenshots go to $COMPANION_TEST_OUTPUT/screenshots (default test-output/screenshots).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from companion.store import Store
from tests.browser.phone import CHROMIUM, PHONE, ROOT, STEP_TIMEOUT_MS, Phone, free_port, phones, renderers_stopped_after, start_app, stop

__all__ = [
    "CHROMIUM", "PHONE", "ROOT", "STEP_TIMEOUT_MS", "Phone", "free_port", "phones", "stop", "start_app", "start_app_with_a_game"
]

OUTPUT = Path(os.environ.get("COMPANION_TEST_OUTPUT", ROOT / "test-output"))


def _need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def start_app_with_a_game(
    tmp_path_factory, name: str, arguments: list[str], env_extra: dict[str, str] | None = None
) -> tuple[subprocess.Popen, int, int, Path, Path]:
    """``companion run`` with ``arguments`` on a free port, over a database with a game of
    Beverbende (Ann and Bob) in progress: the process, its port, the game's id, its log and
    the database (SQLite: a test may add a game to it while the app runs)."""
    port = free_port()
    database = tmp_path_factory.mktemp(name) / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        game_id = store.create_game("beverbende", ["Ann", "Bob"]).id
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    command = [sys.executable, "-m", "companion", "run", *arguments, "--port", str(port)]
    return start_app(command, port, database, log, env_extra), port, game_id, log, database


@pytest.fixture(scope="session")
def output_dir() -> Path:
    folder = OUTPUT / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    _need_chromium()
    port = free_port()
    database = tmp_path_factory.mktemp("app") / "companion.sqlite3"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"  # what the app printed, per worker
    process = start_app([sys.executable, "-m", "companion", "run", "--port", str(port)], port, database, log)
    yield f"http://127.0.0.1:{port}"
    stop(process)


@pytest.fixture
def phone(chromium, app_url, output_dir):
    with phones(chromium, output_dir) as open_phone:
        yield open_phone(app_url)


STALLED_TEST_S = 600
"""A browser test's longest run, with its failure's screenshot and its teardown: past it, a
page's renderer has stopped answering (the slowest test takes a few minutes on a loaded
machine)."""
WATCHED = pytest.StashKey[contextlib.ExitStack]()
STALLED = pytest.StashKey[threading.Event]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """From here to the end of the test's teardown, a page that stops answering fails the
    test after STALLED_TEST_S instead of holding the whole run (``renderers_stopped_after``):
    the failure's screenshot and the closing of its pages wait on the page too."""
    watched = contextlib.ExitStack()
    item.stash[STALLED] = watched.enter_context(renderers_stopped_after(STALLED_TEST_S))
    item.stash[WATCHED] = watched
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield
    if WATCHED in item.stash:
        item.stash[WATCHED].close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A screenshot of the page as it was when a browser test failed, for a person to look at;
    or, when its page stopped answering, a sentence that says so."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    stalled = item.stash.get(STALLED, None)
    if stalled is None or not stalled.is_set():
        try:
            for phone in (value for value in getattr(item, "funcargs", {}).values() if isinstance(value, Phone)):
                phone.screenshot(f"FAILED-{item.name}")
        except PlaywrightError:  # the page stopped answering meanwhile, and was stopped
            pass
    if stalled is not None and stalled.is_set():
        report.sections.append(("stalled", f"a page stopped answering: after {STALLED_TEST_S} s its browser renderer was stopped"))

"""Browser tests: the real app as a subprocess, driven in Debian's Chromium at phone size.

Each xdist worker starts its own server (free port, its own temporary SQLite database)
and its own headless Chromium; each test gets a fresh page. Without /usr/bin/chromium
the tests are skipped with the reason, except in CI (CI=true), where they fail.
Screenshots go to $COMPANION_TEST_OUTPUT/screenshots (default test-output/screenshots).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.store import Store

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
ROOT = Path(__file__).resolve().parents[2]
STEP_TIMEOUT_MS = 15_000
OUTPUT = Path(os.environ.get("COMPANION_TEST_OUTPUT", ROOT / "test-output"))


def _need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with code {process.returncode} before listening")
        try:  # serving, not only listening: the app binds its port before it has printed its links
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                response.read()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the app did not listen on port {port} within {timeout} s")


def start_app(
    command: list[str], port: int, database: Path | None, log: Path, env_extra: dict[str, str] | None = None
) -> subprocess.Popen:
    """Start a Flet app in web mode on ``port`` (offline renderer, no window), output to ``log``."""
    env = dict(os.environ, FLET_WEB_NO_CDN="1", FLET_FORCE_WEB_SERVER="1", FLET_SERVER_PORT=str(port), **(env_extra or {}))
    if database is not None:
        env["COMPANION_DATABASE_URL"] = f"sqlite:///{database}"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process)
    except RuntimeError as err:
        process.kill()
        raise RuntimeError(f"{err}\n{log.read_text(errors='replace')[-2000:]}") from None
    return process


def start_app_with_a_game(
    tmp_path_factory, name: str, arguments: list[str], env_extra: dict[str, str] | None = None
) -> tuple[subprocess.Popen, int, int, Path]:
    """``companion run`` with ``arguments`` on a free port, over a database with a game of
    Beverbende (Ann and Bob) in progress: the process, its port, the game's id and its log."""
    port = free_port()
    database = tmp_path_factory.mktemp(name) / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        game_id = store.create_game("beverbende", ["Ann", "Bob"]).id
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    command = [sys.executable, "-m", "companion", "run", *arguments, "--port", str(port)]
    return start_app(command, port, database, log, env_extra), port, game_id, log


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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


class Phone:
    """A page at phone size, with the few gestures the tests need, by semantics identifier."""

    def __init__(self, page, base_url: str, output_dir: Path):
        self.page = page
        self.base_url = base_url
        self.output_dir = output_dir

    def open(self, route: str = "/") -> None:
        self.page.goto(self.base_url + route)
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached")
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")

    def el(self, identifier: str):
        return self.page.locator(f"[flt-semantics-identifier='{identifier}']")

    def wait(self, identifier: str):
        locator = self.el(identifier)
        locator.wait_for(state="attached", timeout=STEP_TIMEOUT_MS)
        return locator

    def gone(self, identifier: str) -> None:
        self.el(identifier).wait_for(state="detached", timeout=STEP_TIMEOUT_MS)

    def tap(self, identifier: str) -> None:
        """Tap the control once it is enabled (a tap on a disabled one would be lost)."""
        self.enabled(identifier)
        self.wait(identifier).click()

    def keys(self, digits: str) -> None:
        for digit in digits:
            self.tap(f"entry-key-{digit}")

    def type(self, label: str, text: str) -> None:
        """Type into the field with that label, key by key as a person would, then Enter.

        Flutter moves the keyboard focus to its own editing element when a field is first
        focused, and a key pressed during that hand-over is lost; so the typed text is read
        back and typed again until it is all there.
        """
        box = self.page.get_by_role("textbox", name=label)
        box.click()
        for _attempt in range(3):
            self.page.wait_for_function("['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName)")
            self.page.keyboard.press("ControlOrMeta+A")
            self.page.keyboard.type(text)
            if self.page.evaluate("document.activeElement.value") == text:
                break
        self.page.keyboard.press("Enter")

    def texts(self, identifier: str) -> str:
        """Everything the control says: its own and its children's labels and text."""
        return self.wait(identifier).evaluate(
            "e => [e, ...e.querySelectorAll('*')]"
            ".map(x => [x.getAttribute('aria-label') || '', x.childElementCount ? '' : x.textContent || ''].join(' '))"
            ".join(' ')"
        )

    def expect_text(self, identifier: str, pattern: str) -> str:
        """Wait until the control's text matches ``pattern`` (a regular expression)."""
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while True:
            text = self.texts(identifier)
            if re.search(pattern, text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{identifier!r} shows {text!r}, not {pattern!r}")
            time.sleep(0.1)

    def disabled(self, identifier: str) -> bool:
        locator = self.wait(identifier)
        return locator.locator("[aria-disabled='true']").count() > 0 or locator.get_attribute("aria-disabled") == "true"

    def enabled(self, identifier: str) -> None:
        """Wait until the control can be used (Flutter marks disabled controls aria-disabled)."""
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while self.disabled(identifier):
            if time.monotonic() > deadline:
                raise AssertionError(f"{identifier!r} stayed disabled")
            time.sleep(0.05)

    def game_id(self) -> int:
        """The id of the game on screen, from the address (which follows the screen shortly)."""
        self.page.wait_for_url(re.compile(r".*/game/\d+"), timeout=STEP_TIMEOUT_MS)
        return int(re.search(r"/game/(\d+)", self.page.url).group(1))

    def screenshot(self, name: str, tall: int | None = None) -> Path:
        """The screen as the phone shows it; with ``tall``, also the whole page that high."""
        self.page.mouse.move(0, 0)  # no hover effects in the picture
        self.page.wait_for_timeout(600)  # let Flutter paint the last frame
        path = self.output_dir / f"{name}.png"
        self.page.screenshot(path=str(path))
        if tall:
            self.page.set_viewport_size({"width": PHONE["width"], "height": tall})
            self.page.wait_for_timeout(800)
            self.page.screenshot(path=str(self.output_dir / f"{name}-whole.png"))
            self.page.set_viewport_size(PHONE)
        return path


@pytest.fixture
def phone(chromium, app_url, output_dir):
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    page = context.new_page()
    yield Phone(page, app_url, output_dir)
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A screenshot of the page as it was when a browser test failed, for a person to look at."""
    outcome = yield
    report = outcome.get_result()
    phone = item.funcargs.get("phone") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and isinstance(phone, Phone):
        phone.screenshot(f"FAILED-{item.name}")

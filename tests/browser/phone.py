"""A page at phone size driven by semantics identifier: the browser tests' and the UI
benchmarks' one way to open the app, wait for a control and tap it.

Every wait looks in the page on every animation frame (``wait_for_function`` with
``polling="raf"``) for exactly what the next step needs: a control in Flutter's
accessibility tree, enabled, or saying a text. Playwright's own ``wait_for`` and
``expect`` look again only after growing pauses, 500 ms apart once the first half second
has passed, so on a busy machine a step noticed what it waited for late, or not before its
time ran out; a step that does not wait for what it needs acts on a screen still being
built. Nothing here sleeps, and the one step done again is typing, when the app did not
hear the keys (``Phone.type``), as a person types again into a field that showed nothing.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgpack  # type: ignore[import-untyped]  # no type information
from playwright.sync_api import TimeoutError as StepTimeout

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"]
PHONE = {"width": 360, "height": 740}
STEP_TIMEOUT_MS = 15_000
LOAD_TIMEOUT_MS = 60_000
"""Loading the app is the heaviest step: a fresh browser context fetches and compiles
Flutter's renderer (several MB of WebAssembly) before the first screen, which on two cores
shared with other work takes longer than a tap's answer."""

QUERY = """(selector) => {
    const find = (root) => root.querySelector(selector)
        || [...root.querySelectorAll('*')].filter(e => e.shadowRoot).map(e => find(e.shadowRoot)).find(Boolean);
    return find(document) || null;
}"""
"""The first element ``selector`` matches, in the page or in its shadow roots (where Flutter
may keep its accessibility tree), or null."""

QUERY_ALL = """(selector) => {
    const all = (root) => [...root.querySelectorAll(selector)]
        .concat(...[...root.querySelectorAll('*')].filter(e => e.shadowRoot).map(e => all(e.shadowRoot)));
    return all(document);
}"""
"""Every element ``selector`` matches, in the page and in its shadow roots."""

FIND = f"""(identifier) => ({QUERY})(`[flt-semantics-identifier='${{identifier}}']`)"""
"""The control with that identifier in Flutter's accessibility tree, or null."""

SAYS = """(element) => [element, ...element.querySelectorAll('*')]
    .map(x => [x.getAttribute('aria-label') || '', x.childElementCount ? '' : x.textContent || ''].join(' '))
    .join(' ')"""
"""Everything a control says: its own and its children's labels and text."""

DISABLED = """(element) => element.getAttribute('aria-disabled') === 'true'
    || element.querySelector("[aria-disabled='true']") !== null"""
"""Whether Flutter marks the control (or the button inside it) disabled."""

EDITING = """(element) => ['INPUT', 'TEXTAREA'].includes(element?.tagName)
    && element.getAttribute('autocorrect') === 'on'"""
"""Whether ``element`` is a text field's element that Flutter's editing has taken over. The
accessibility tree's copy of a field has autocorrect off; Flutter gives it the field's own
setting, on for every field of the app, when it takes it over. Until then the browser may
already focus it, and what is typed there is lost. Flutter leaves the setting when it lets
the element go, so this says the element was taken over once, not that it still is."""

FOCUSED = f"""(label) => ({EDITING})(document.activeElement)
    && (document.activeElement.getAttribute('aria-label') || '').toLowerCase().includes(label.toLowerCase())"""
"""Whether the keyboard's focus is in the editing element of the field with that label (a
part of it, any case, as ``get_by_role`` matches a name), not in one typed in before."""

COUNT_QUIET_FRAMES = """(() => {
  const Native = window.WebSocket;
  window.__quietFrames = 0;
  const frame = () => { window.__quietFrames += 1; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', () => { window.__quietFrames = 0; });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
"""Counts the frames drawn since the page last heard from the server (``page.add_init_script``)."""

SETTLED = "() => window.__quietFrames >= 10"
"""The page has heard nothing for ten frames (``COUNT_QUIET_FRAMES``): the updates of a
change, the answer to a tap, or a new session's start have all arrived. A field tapped or
typed in while one arrives can lose the browser's focus, with the keys typed next; a tap
can land on a control about to be replaced."""


CONFIGURED = """(element) => {
    element.__configured = 0;
    element.__watch?.disconnect();
    element.__watch = new MutationObserver(() => element.__configured++);
    element.__watch.observe(element, {attributes: true, attributeFilter: ['autocorrect']});
}"""
"""Counts, on the field's element, Flutter's settings written from now on: it writes them each
time it takes the element over for editing (the same value again included), so a count
above 0 after a tap says this tap's focus reached Flutter's editing."""


NOTE_SENT = """(() => {
    const note = (data) => {
        const log = window.__sentWhileTyping;
        if (!log) return;
        if (typeof data === 'string') log.push(new TextEncoder().encode(data));
        else if (data instanceof ArrayBuffer) log.push(new Uint8Array(data.slice(0)));
        else if (ArrayBuffer.isView(data)) log.push(new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)));
    };
    for (const [kind, method] of [[WebSocket, 'send'], [Worker, 'postMessage']]) {
        const original = kind.prototype[method];
        kind.prototype[method] = function (data, ...rest) { note(data); return original.call(this, data, ...rest); };
    }
})();"""
"""Notes, while a test types, each message the page sends to the app: over its connection to
the server, or to the offline web app's Python worker (copied before it is handed over)."""

SENT = """(expected) => (window.__sentWhileTyping || []).some(message => {
    next: for (let i = 0; i + expected.length <= message.length; i++) {
        for (let j = 0; j < expected.length; j++) if (message[i + j] !== expected[j]) continue next;
        return true;
    }
    return false;
})"""
"""Whether a message noted while typing holds the ``expected`` bytes."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(
    command: list[str], port: int, database: Path | None, log: Path, env_extra: dict[str, str] | None = None, root: Path = ROOT
) -> subprocess.Popen:
    """Start a Flet app in web mode on ``port`` (offline renderer, no window) in checkout
    ``root`` (``python -m`` then runs that checkout's package), output to ``log``, and wait
    until it serves. The wait looks every 10 ms: a benchmark times the first screen from the
    launch, and opens the page once the app serves."""
    env = dict(os.environ, FLET_WEB_NO_CDN="1", FLET_FORCE_WEB_SERVER="1", FLET_SERVER_PORT=str(port), **(env_extra or {}))
    if database is not None:
        env["COMPANION_DATABASE_URL"] = f"sqlite:///{database}"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]  # for stop(), which reads it
    try:
        _wait_until_served(port, process)
    except RuntimeError as err:
        process.kill()
        raise RuntimeError(f"{err}\n{log.read_text(errors='replace')[-2000:]}") from None
    return process


def _wait_until_served(port: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with code {process.returncode} before listening")
        try:  # serving, not only listening: the app binds its port before it has printed its links
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                response.read()
            return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"the app did not serve on port {port} within {timeout} s")


def stop(process: subprocess.Popen) -> None:
    """Stop an app ``start_app`` started; what it printed holds no traceback, whatever its
    pages did (a page that left as it started, say): the host reads that terminal."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    printed = process.log.read_text(errors="replace")  # type: ignore[attr-defined]  # set by start_app
    assert "Traceback" not in printed, f"the app printed a traceback ({process.log}):\n{printed[max(0, printed.find('Traceback') - 300):][:4000]}"  # type: ignore[attr-defined]


@contextmanager
def phones(chromium, output_dir: Path) -> Iterator[Callable[..., Phone]]:
    """``open_phone(base_url, **context_options)`` opens a phone of its own: a fresh browser
    context (its own storage, so a device of its own) at phone size. All are closed after."""
    contexts = []

    def open_phone(base_url: str, **context_options) -> Phone:
        context = chromium.new_context(viewport=PHONE, **context_options)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        contexts.append(context)
        return Phone(context.new_page(), base_url, output_dir)

    try:
        yield open_phone
    finally:
        for context in contexts:
            context.close()


@contextmanager
def renderers_stopped_after(seconds: float) -> Iterator[threading.Event]:
    """Stop this process's browser renderers if the block takes over ``seconds``; the event
    yielded says whether they were. A page whose renderer spins for good (as Flutter's two
    renderer threads made it do: ``companion.share.guard.page_headers``) makes every
    Playwright call wait on it, its timeout too, until someone kills the renderer; killed,
    the waiting call fails."""
    stopped = threading.Event()

    def stop_renderers() -> None:
        stopped.set()
        for pid in _descendants(os.getpid()):
            try:
                if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, 9)
            except OSError:  # gone meanwhile
                pass

    timer = threading.Timer(seconds, stop_renderers)
    timer.daemon = True  # never keeps a finished run waiting
    timer.start()
    try:
        yield stopped
    finally:
        timer.cancel()


def _descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and by them, and so on (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int(entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:  # gone meanwhile
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def js_regex(pattern: str) -> tuple[str, str]:
    """``pattern`` and its flags for JavaScript's RegExp: Python's leading ``(?s)``, ``(?i)``
    or ``(?m)`` become flags; the rest of the syntax the tests use is the same in both."""
    flags = re.match(r"\(\?([ims]+)\)", pattern)
    return (pattern[flags.end() :], flags.group(1)) if flags else (pattern, "")


class Phone:
    """A page at phone size, with the few gestures the tests need, by semantics identifier."""

    def __init__(self, page, base_url: str, output_dir: Path, step_timeout_ms: float = STEP_TIMEOUT_MS):
        self.page = page
        self.base_url = base_url
        self.output_dir = output_dir
        self.step_timeout_ms = step_timeout_ms
        page.add_init_script(NOTE_SENT)

    def until(self, condition: str, arg=None):
        """Wait until the JavaScript ``condition(arg)`` is truthy, looking on every frame; its value."""
        return self.page.wait_for_function(condition, arg=arg, polling="raf", timeout=self.step_timeout_ms).json_value()

    def open(self, route: str = "/") -> None:
        """Load ``route``, switch on Flutter's accessibility tree (where the controls are found)
        and wait for the first screen's controls in it."""
        self.page.goto(self.base_url + route)
        load = max(self.step_timeout_ms, LOAD_TIMEOUT_MS)
        placeholder = "() => document.querySelector('flt-semantics-placeholder') !== null"
        self.page.wait_for_function(placeholder, polling="raf", timeout=load)
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        shown = f"() => ({QUERY})('[flt-semantics-identifier]') !== null"
        self.page.wait_for_function(shown, polling="raf", timeout=load)

    def el(self, identifier: str):
        return self.page.locator(f"[flt-semantics-identifier='{identifier}']")

    def wait(self, identifier: str):
        """The control, once it is in the accessibility tree."""
        self.until(f"(identifier) => ({FIND})(identifier) !== null", identifier)
        return self.el(identifier)

    def gone(self, identifier: str) -> None:
        self.until(f"(identifier) => ({FIND})(identifier) === null", identifier)

    def tap(self, identifier: str) -> None:
        """Tap the control once it is enabled (a tap on a disabled one would be lost)."""
        self.enabled(identifier)
        self.el(identifier).click()

    def keys(self, digits: str) -> None:
        for digit in digits:
            self.tap(f"entry-key-{digit}")

    def type(self, label: str, text: str, enter: bool = True) -> None:
        """Type into the field with that label, key by key as a person would, then Enter
        (unless ``enter`` is False: the text left in the field, half typed).

        The keys count as typed once the page has sent the text to the app as the field's
        value (``NOTE_SENT``): the app heard them. Until then they may be lost, and are typed again:

        - Flutter moves the keyboard focus to its own editing element when a field is first
          focused, and a key pressed during that hand-over is lost.
        - The browser can focus the field's element before Flutter has taken it over for
          editing (``EDITING``): keys typed then stay in the element and Flutter never hears
          them. So after a tap the keys wait until Flutter has configured the element anew.
        - A field Flutter focused by itself (the first field of a screen that appears, in its
          accessibility mode) can lose its element's focus while the app still holds it as
          focused: Flutter then stops listening to the element, and a tap on the field
          changes nothing (seen under load, when the join screen was built as it appeared).
          So a field whose keys went unheard is left first (Tab, as on a keyboard) and
          tapped again.
        """
        heard = msgpack.packb("value") + msgpack.packb(text)  # the field's value as the page sends it to the app
        for attempt in range(3):
            if not self._focused(label, afresh=attempt > 0):
                continue
            self.page.evaluate("window.__sentWhileTyping = []")
            self.page.keyboard.press("ControlOrMeta+A")
            self.page.keyboard.type(text)
            try:
                self.page.wait_for_function(SENT, arg=list(heard), polling="raf", timeout=self.step_timeout_ms / 3)
            except StepTimeout:
                continue
            break
        else:
            raise AssertionError(f"{text!r} could not be typed into {label!r}: the app never heard the keys")
        self.page.evaluate("window.__sentWhileTyping = null")
        if enter:
            self.page.keyboard.press("Enter")

    def submit(self, label: str) -> None:
        """Enter in the field with that label, as it is: what it holds goes to the app."""
        for attempt in range(3):
            if self._focused(label, afresh=attempt > 0):
                self.page.keyboard.press("Enter")
                return
        raise AssertionError(f"the field {label!r} could not be focused")

    def _focused(self, label: str, afresh: bool) -> bool:
        """Whether the field with that label has the keyboard's focus, Flutter listening to it
        (see ``type``), after a tap on it if needed; ``afresh``: left first (Tab), then tapped."""
        box = self.page.get_by_role("textbox", name=label)
        if afresh:
            box.click()
            self.page.keyboard.press("Tab")
        if afresh or not self.page.evaluate(FOCUSED, label):
            box.evaluate(CONFIGURED)
            box.click()
            taken_over = f"(label) => ({FOCUSED})(label) && document.activeElement.__configured > 0"
            try:
                self.page.wait_for_function(taken_over, arg=label, polling="raf", timeout=self.step_timeout_ms / 3)
            except StepTimeout:
                return False
        return True

    def expect_focus(self, label: str) -> None:
        """Wait until the field with that label has the keyboard's focus, as after a tap on it."""
        try:
            self.until(FOCUSED, label)
        except StepTimeout as timeout:
            raise AssertionError(f"the field {label!r} did not get the focus") from timeout

    def texts(self, identifier: str) -> str:
        """Everything the control says: its own and its children's labels and text."""
        return self.until(f"(identifier) => {{ const e = ({FIND})(identifier); return e && [({SAYS})(e)]; }}", identifier)[0]

    def expect_text(self, identifier: str, pattern: str) -> str:
        """Wait until the control's text matches ``pattern`` (a regular expression); the text."""
        source, flags = js_regex(pattern)
        try:
            return self.until(
                f"""([identifier, source, flags]) => {{
                    const e = ({FIND})(identifier);
                    const text = e && ({SAYS})(e);
                    return e && new RegExp(source, flags).test(text) ? [text] : null;
                }}""",
                [identifier, source, flags],
            )[0]
        except StepTimeout as timeout:
            shown = self.page.evaluate(f"(identifier) => {{ const e = ({FIND})(identifier); return e && ({SAYS})(e); }}", identifier)
            raise AssertionError(f"{identifier!r} shows {shown!r}, not {pattern!r}") from timeout

    def expect_on_screen(self, pattern: str) -> str:
        """Wait until something on the screen (a message in a snack bar, say) matches ``pattern``; its text."""
        source, flags = js_regex(pattern)
        return self.until(
            f"""([source, flags]) => {{
                const text = ({SAYS})(document.body);
                return new RegExp(source, flags).test(text) ? [text] : null;
            }}""",
            [source, flags],
        )[0]

    def disabled(self, identifier: str) -> bool:
        self.wait(identifier)
        return self.page.evaluate(f"(identifier) => ({DISABLED})(({FIND})(identifier))", identifier)

    def enabled(self, identifier: str) -> None:
        """Wait until the control is there and can be used (Flutter marks disabled controls aria-disabled)."""
        try:
            self.until(f"(identifier) => {{ const e = ({FIND})(identifier); return e && !({DISABLED})(e); }}", identifier)
        except StepTimeout as timeout:
            raise AssertionError(f"{identifier!r} is missing or stayed disabled") from timeout

    def game_id(self) -> int:
        """The id of the game on screen, from the address (which follows the screen shortly)."""
        self.page.wait_for_url(re.compile(r".*/game/\d+"), timeout=self.step_timeout_ms)
        shown = re.search(r"/game/(\d+)", self.page.url)
        assert shown is not None, self.page.url  # the wait above saw it
        return int(shown.group(1))

    def screenshot(self, name: str, tall: int | None = None) -> Path:
        """The screen as the phone shows it; with ``tall``, also the whole page that high."""
        self.page.mouse.move(0, 0)  # no hover effects in the picture
        self.page.wait_for_timeout(600)  # let Flutter paint the last frame (a picture for people, not a check)
        path = self.output_dir / f"{name}.png"
        self.page.screenshot(path=str(path))
        if tall:
            self.page.set_viewport_size({"width": PHONE["width"], "height": tall})
            self.page.wait_for_timeout(800)
            self.page.screenshot(path=str(self.output_dir / f"{name}-whole.png"))
            self.page.set_viewport_size(PHONE)
        return path

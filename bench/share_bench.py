"""Live sharing benchmark: one scorer and N joined viewers in real browsers (Debian's
Chromium, headless, phone size), against the app started with ``--share``.

Measures:

- save to the last screen: from the pointer going down on Save on the scorer's phone to
  the last viewer's scoreboard showing the new total (each viewer page notes the moment
  in the page itself, on the same clock as the scorer's page, so polling from here adds
  nothing to the figure);
- save to the last browser: until the update's first message reached every viewer's
  browser. The difference is the browsers drawing: here all of them share this
  machine's cores and draw without a GPU, where at a real table each phone draws its own;
- the server's memory (resident set) with no browser, with the scorer joined (the first
  session also opens the store), with every viewer joined, and after the rounds.

Target (issue 5): every viewer within 1 s. Prints the figures; exits 1 when missed.

    python bench/share_bench.py [--viewers 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.store import Store  # noqa: E402
from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS, PHONE, Phone, free_port  # noqa: E402

TARGET_MS = 1000
TIMEOUT_MS = 60_000

WATCH = """([identifier, expected]) => {
  window.__shownAt = null;
  const look = () => {
    const el = document.querySelector(`[flt-semantics-identifier='${identifier}']`);
    const text = el ? [el, ...el.querySelectorAll('*')]
      .map(x => [x.getAttribute('aria-label') || '', x.childElementCount ? '' : x.textContent || ''].join(' ')).join(' ') : '';
    if (text.includes(expected)) { window.__shownAt = Date.now(); observer.disconnect(); }
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  look();
}"""

NOTE_FRAMES = """(() => {
  const Native = window.WebSocket;
  window.__framesAt = [];
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', () => window.__framesAt.push(Date.now()));
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
"""Notes when each message from the server arrives, to tell the server's share of the
time (until the update reaches the browser) from the browser's (drawing it)."""

MARK_PRESS = """() => {
  window.__pressedAt = null;
  window.addEventListener('pointerdown', () => { window.__pressedAt = Date.now(); }, {capture: true, once: true});
}"""


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_server(port: int, database: Path, log: Path) -> subprocess.Popen:
    env = dict(os.environ, FLET_WEB_NO_CDN="1", FLET_FORCE_WEB_SERVER="1", COMPANION_DATABASE_URL=f"sqlite:///{database}")
    command = [sys.executable, "-m", "companion", "run", "--share", "--host", "127.0.0.1", "--port", str(port)]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while "Join link:" not in log.read_text() or "?code=" not in log.read_text().split("Host link")[-1]:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(log.read_text())
        time.sleep(0.1)
    return process


def phone(chromium, base: str) -> Phone:
    """One person's phone: its own context (storage), so its own device at the table."""
    context = chromium.new_context(viewport=PHONE)
    context.add_init_script(NOTE_FRAMES)
    context.set_default_timeout(TIMEOUT_MS)
    return Phone(context.new_page(), base, ROOT, step_timeout_ms=TIMEOUT_MS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="share-bench-"))
    database = folder / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": args.rounds + 1}).id
    port = free_port()
    server = start_server(port, database, folder / "app.log")
    printed = (folder / "app.log").read_text()
    base = f"http://127.0.0.1:{port}"
    join = re.search(r"Join link: (\S+)", printed).group(1)[len(base):]
    host_link = re.search(r"^\s+(http://\S+\?code=\w{26})$", printed, re.MULTILINE).group(1)[len(base):]
    try:
        time.sleep(1.5)  # the store and screens load in the background after the port opens
        memory = {"no browser": rss_mib(server.pid)}
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    *CHROMIUM_ARGS,
                    # every phone at a table has its page in front: no background throttling
                    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                    "--disable-backgrounding-occluded-windows",
                ],
            )
            scorer = phone(chromium, base)
            scorer.open(host_link)
            scorer.wait("new-game")
            memory["the scorer joined"] = rss_mib(server.pid)
            viewers = []
            for _ in range(args.viewers):
                viewer = phone(chromium, base)
                viewer.open(join)
                viewer.wait("nav-history")  # a viewer is not offered New game
                viewer.open(f"/game/{game}")
                viewer.wait("total-Ann")
                viewers.append(viewer)
            scorer.open(f"/game/{game}")
            scorer.wait("enter-round")
            memory[f"{args.viewers} viewers and the scorer joined"] = rss_mib(server.pid)

            runs = []
            ann = 0
            for number in range(1, args.rounds + 1):
                scorer.tap("enter-round")
                scorer.wait("entry-key-0")
                scorer.keys("1111" + "2222")
                ann += 4
                for viewer in viewers:
                    viewer.page.evaluate(WATCH, ["total-Ann", f"Ann {ann}"])
                scorer.page.evaluate(MARK_PRESS)
                scorer.tap("entry-save")
                for viewer in viewers:
                    viewer.page.wait_for_function("window.__shownAt !== null", timeout=TIMEOUT_MS)
                pressed = scorer.page.evaluate("window.__pressedAt")
                shown = [viewer.page.evaluate("window.__shownAt") - pressed for viewer in viewers]
                reached = [viewer.page.evaluate("p => window.__framesAt.find(t => t >= p)", pressed) - pressed for viewer in viewers]
                runs.append((max(shown), statistics.median(shown), max(reached)))
                scorer.wait("enter-round")
                print(
                    f"round {number}: on the last viewer's screen after {max(shown)} ms (median viewer {statistics.median(shown):.0f} ms); "
                    f"the update had reached every viewer's browser after {max(reached)} ms",
                    flush=True,
                )
            memory["after the rounds"] = rss_mib(server.pid)
            chromium.close()
    finally:
        server.terminate()
        server.wait(timeout=10)

    last = [r[0] for r in runs]
    print()
    print(f"viewers: {args.viewers} (plus the scorer), rounds: {args.rounds}")
    print(f"save to the last viewer's screen: median {statistics.median(last):.0f} ms, worst {max(last)} ms (target < {TARGET_MS} ms)")
    print(f"save to a viewer's screen, median of medians: {statistics.median(r[1] for r in runs):.0f} ms")
    print(f"save to the update reaching the last viewer's browser (server and network only): median {statistics.median(r[2] for r in runs):.0f} ms, worst {max(r[2] for r in runs)} ms")
    for moment, mib in memory.items():
        print(f"server memory (RSS), {moment}: {mib:.0f} MiB")
    per_viewer = (memory[f"{args.viewers} viewers and the scorer joined"] - memory["the scorer joined"]) / args.viewers
    print(f"server memory per joined viewer: {per_viewer:.1f} MiB")
    return 0 if max(last) < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())

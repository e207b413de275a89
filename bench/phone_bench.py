"""Offline web app benchmark (``make phone-app``'s folder) in Debian's Chromium, headless, phone size.

Builds Companion's folder and, as the floor, a bare Flet app (a button that updates a text) the
same way (scripts/build_phone_app.py --bare), serves each from a static server on 127.0.0.1, and
measures, each against the bare app:

- first visit: from opening the address in a fresh browser profile (nothing cached) to the
  first screen being usable (its first button in the accessibility tree, looked for in the
  page on every frame);
- later visit: the same with the profile of an earlier visit (the service worker answers
  from its cache; Python and the app start again in the page);
- save to scoreboard: from the pointer going down on Save (a Beverbende round) to the
  scoreboard showing the next round; the floor is a bare button that updates a text;
- Enter round: from the pointer going down on Enter round to the round's form showing, in
  the same games (bench/ui_bench.py's);
- the folder's size.

With ``--baseline DIR`` (another checkout of Companion, e.g. the code before a change) that
checkout's folder is built too, with its own build script, and its visits are timed in turn
with the other two, beside this checkout's; so are its saves and Enter rounds, a game of each
in turn with this checkout's.

With ``--wasm-client`` both folders are built with Flutter's WebAssembly client
(scripts/build_phone_app.py), which Chromium then runs instead of the CanvasKit client, and
the saves and Enter rounds are timed beside a default folder's, the two apps taking turns.

Targets (issue 12): a later visit within 2x the bare app's and under 6 s; the folder under
40 MB. Prints the medians and every run; exits 1 when a target is missed.

    .venv/bin/python bench/phone_bench.py [--runs 5] [--wasm-client] [--baseline /path/to/older/checkout]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ui_bench import CHROMIUM, CHROMIUM_ARGS, FIND, PHONE, in_turn, save_rounds, timed_tap  # noqa: E402
from tests.browser.phone import Phone  # noqa: E402
from scripts.build_phone_app import folder_size  # noqa: E402
from tests.browser.test_phone_app import StaticServer  # noqa: E402

BARE_APP = '''
import flet as ft

def main(page: ft.Page):
    count = ft.Text("Saved 0")

    def save():
        count.value = f"Saved {int(count.value.split()[1]) + 1}"

    page.add(
        ft.Semantics(content=ft.FilledButton("Save", on_click=save), identifier="save"),
        ft.Semantics(content=count, identifier="count"),
    )

ft.run(main)
'''
"""The floor: the bare app's folder holds Flet alone (bench/ui_bench.py's bare app draws a
chart, which would need flet-charts in it too, and a bigger folder to download)."""

LATER_VISIT_RATIO = 2.0
LATER_VISIT_TARGET_S = 6.0
SIZE_TARGET_MB = 40.0
START_TIMEOUT_MS = 120_000


def visit(context, url: str, first: str) -> float:
    """Seconds from opening ``url`` in a new page of ``context`` to ``first`` being in the page."""
    page = context.new_page()
    began = time.time()
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=START_TIMEOUT_MS)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_function(f"({FIND})({first!r})", polling="raf", timeout=START_TIMEOUT_MS)
    shown = time.time() - began
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # every file cached for the next visit
    page.close()
    return shown


def visits(browser, url: str, first: str, runs: int) -> tuple[list[float], list[float]]:
    """First visits (a fresh profile each) and later visits (the profile of an earlier one)."""
    firsts, laters = [], []
    for _run in range(runs):
        context = browser.new_context(viewport=PHONE)
        firsts.append(visit(context, url, first))
        laters.append(visit(context, url, first))
        context.close()
    return firsts, laters


def app_saves(browser, clients: dict[str, tuple[str, bool]], runs: int) -> dict[str, tuple[list[float], list[float]]]:
    """For each folder (its address, and whether it has the WebAssembly client): milliseconds
    to save a Beverbende round, ``runs`` times or more, and to open each round's form. The
    folders take turns, a game of four rounds each, so that all see the same machine load.
    Each folder has two pages, opened first-last (for folders A and B: A, B, B, A) and taking
    its games in turn: the same folder in two pages opened one after the other was 3 to 12 ms
    slower in the one opened first (docs/performance.md, "The slow saves")."""
    names = list(clients)
    opened: dict[str, list[tuple]] = {name: [] for name in names}
    for name in [*names, *reversed(names)]:
        url, wasm_client = clients[name]
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        phone = Phone(page, url, ROOT, step_timeout_ms=START_TIMEOUT_MS)
        phone.open("")
        phone.wait("new-game")
        if page.evaluate("Boolean(window._flutter_skwasmInstance)") != wasm_client:  # the loader falls back by itself (e.g. no WebGL)
            raise SystemExit(f"{name}: the page did not run the client it was built for")
        opened[name].append((context, page, phone))
    found: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in clients}
    for game in range(-(-runs // 4)):
        for name in in_turn(names, game):
            _context, page, phone = opened[name][game % 2]

            def home(page=page, phone=phone) -> Phone:
                page.evaluate("location.hash = '/'")
                return phone

            saves, enters = save_rounds(page, 4, home)
            found[name][0].extend(saves)
            found[name][1].extend(enters)
    for pages in opened.values():
        for context, _page, _phone in pages:
            context.close()
    return found


def bare_taps(browser, url: str, runs: int) -> list[float]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=START_TIMEOUT_MS)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_function(f"({FIND})('save')", polling="raf", timeout=START_TIMEOUT_MS)
    times = [timed_tap(page, "save", "count", f"Saved {n}\\b") for n in range(1, runs + 1)]
    context.close()
    return times


def build(out: Path, bare: Path | None, wasm_client: bool, root: Path = ROOT) -> Path:
    """The folder of checkout ``root``, built by its own build script."""
    command = [sys.executable, "scripts/build_phone_app.py", "--out", str(out)] + (["--bare", str(bare)] if bare else [])
    command += ["--wasm-client"] if wasm_client else []
    subprocess.run(command, cwd=root, check=True, stdout=subprocess.DEVNULL)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wasm-client", action="store_true", help="both folders built with Flutter's WebAssembly client, which Chromium then uses")
    parser.add_argument("--baseline", type=Path, help="another checkout of Companion, its visits timed in turn with this one's")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        folder = Path(tmp)
        (folder / "bare_app.py").write_text(BARE_APP)
        bare_folder = build(folder / "bare", folder / "bare_app.py", args.wasm_client)
        app_folder = build(folder / "app", None, args.wasm_client)
        bare_server, app_server = StaticServer(bare_folder), StaticServer(app_folder)
        clients = {"app": (app_server.url, args.wasm_client)}
        if args.wasm_client:  # its taps beside the default folder's
            canvaskit_server = StaticServer(build(folder / "canvaskit", None, False))
            clients["canvaskit"] = (canvaskit_server.url, False)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        bare_first: list[float] = []
        bare_later: list[float] = []
        app_first: list[float] = []
        app_later: list[float] = []
        subjects = [(bare_server.url, "save", bare_first, bare_later), (app_server.url, "new-game", app_first, app_later)]
        baseline_first: list[float] = []
        baseline_later: list[float] = []
        if args.baseline:
            baseline_server = StaticServer(build(folder / "baseline", None, args.wasm_client, args.baseline.resolve()))
            subjects.append((baseline_server.url, "new-game", baseline_first, baseline_later))
            clients["baseline"] = (baseline_server.url, args.wasm_client)
        for run in range(args.runs):  # interleaved, so both see the same machine load
            for url, button, firsts, laters in in_turn(subjects, run):
                first, later = visits(browser, url, button, 1)
                firsts += first
                laters += later
        taps = bare_taps(browser, bare_server.url, args.runs)
        taken = app_saves(browser, clients, args.runs)
        saves, enters = taken["app"]
        browser.close()
        bare_server.stop()
        app_server.stop()
        if args.baseline:
            baseline_server.stop()
        if args.wasm_client:
            canvaskit_server.stop()
        bare_mb, app_mb = folder_size(bare_folder) / 1e6, folder_size(app_folder) / 1e6

    def median(values: list[float]) -> float:
        return statistics.median(values)

    ratio = median(app_later) / median(bare_later)
    client = "the WebAssembly client" if args.wasm_client else "the CanvasKit client"
    print(f"Offline web app benchmark (headless Chromium, {PHONE['width']}x{PHONE['height']}, {client}, median of {args.runs} runs)")
    print(f"  first visit to usable home   bare Flet {median(bare_first):5.1f} s   Companion {median(app_first):5.1f} s")
    print(f"  later visit to usable home   bare Flet {median(bare_later):5.1f} s   Companion {median(app_later):5.1f} s"
          f"   ratio {ratio:.2f} (targets <= {LATER_VISIT_RATIO} and < {LATER_VISIT_TARGET_S:.0f} s)")
    if args.baseline:
        print(f"  the baseline ({args.baseline}), in turn with both: first visit {median(baseline_first):5.1f} s,"
              f" later visit {median(baseline_later):5.1f} s, ratio {median(baseline_later) / median(bare_later):.2f}")
    print(f"  tap to updated screen        bare Flet {median(taps):5.0f} ms  Companion save to scoreboard {median(saves):5.0f} ms")
    print(f"  Enter round to its form                        Companion {median(enters):5.0f} ms")
    if "baseline" in taken:
        baseline_saves, baseline_enters = taken["baseline"]
        print(f"  the baseline, in turn: save {median(baseline_saves):.0f} ms, Enter round {median(baseline_enters):.0f} ms")
    if "canvaskit" in taken:
        canvaskit_saves, canvaskit_enters = taken["canvaskit"]
        print(f"  beside the CanvasKit client (the default folder), in turn: save {median(canvaskit_saves):.0f} ms, Enter round {median(canvaskit_enters):.0f} ms")
    print(f"  folder size                  bare Flet {bare_mb:5.1f} MB  Companion {app_mb:5.1f} MB (target < {SIZE_TARGET_MB:.0f} MB)")
    print("  runs (s):  bare first", _list(bare_first), " app first", _list(app_first))
    print("             bare later", _list(bare_later), " app later", _list(app_later))
    if args.baseline:
        print("             baseline first", _list(baseline_first), " baseline later", _list(baseline_later))
    print("  runs (ms): bare tap", _list(taps, "{:.0f}"), " app save", _list(saves, "{:.0f}"), " app Enter round", _list(enters, "{:.0f}"))
    if "baseline" in taken:
        print("             baseline save", _list(baseline_saves, "{:.0f}"), " baseline Enter round", _list(baseline_enters, "{:.0f}"))
    if "canvaskit" in taken:
        print("             CanvasKit save", _list(canvaskit_saves, "{:.0f}"), " CanvasKit Enter round", _list(canvaskit_enters, "{:.0f}"))
    met = ratio <= LATER_VISIT_RATIO and median(app_later) < LATER_VISIT_TARGET_S and app_mb < SIZE_TARGET_MB
    return 0 if met else 1


def _list(values: list[float], form: str = "{:.1f}") -> str:
    return "[" + ", ".join(form.format(v) for v in values) + "]"


if __name__ == "__main__":
    sys.exit(main())

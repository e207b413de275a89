"""UI benchmark in a real browser (Debian's Chromium, headless, phone size).

Measures, each against a bare Flet app served the same way (web mode, offline renderer, the
app's own web server, drawn in one thread, scripts of its own site only:
``companion.share.guard.page_headers``)
as the floor:

- start to first screen: from launching the server process to the first screen being
  usable (its first button in the accessibility tree), fresh browser page each run. The
  moment the button appears is taken inside the page, on the page's own clock (like the
  save figure below). The benchmark also prints when it noticed the button over the
  DevTools protocol, checking in the page on every frame: the two agree within a frame or
  two. (Playwright's own wait_for_selector would not do for this: it looks again after
  growing pauses, 500 ms apart once the first half second has passed, so it notices a
  screen that takes longer up to half a second late.) Beside the ratio of the medians it
  prints the median of each start's ratio to the bare app's start in the same turn (each
  start paired with one taken under the same load).
- first tap: the first screen's button tapped the moment it appears (New game; the bare
  app's Open, which opens a page like New game's: an app bar, the four games, a bottom bar),
  from the pointer going down to that page showing, to check that the first screen answers
  at once, not only shows;
- save to scoreboard: from the pointer going down on Save (a Beverbende round) to the
  scoreboard showing the next round; the floor is the bare app's Board: a scoreboard like a
  game's (two totals, the rounds' rows, a chart) with a round's form hidden under it, whose
  Save fills in the round and shows the scoreboard again;
- Enter round: from the pointer going down on Enter round to the round's form showing
  (its status line), in the same games (no target of its own).

The saves are of two-player games of four rounds, a game in each checkout in turn, as many
as ``--rounds`` (by default ``--runs``) take: 12 rounds for 9.

The app is started as ``make run`` starts it, from compiled bytecode: run ``make compiled``
first (the README's command does).

With ``--baseline DIR`` (another checkout of Companion, e.g. the code before a change) that
checkout is started too, in turn with the bare app and this one (its package compiled
first, as ``make compiled`` compiles this one), and each figure is printed beside its own:
the machine's load at each moment applies to all three.

With ``--link-delay MS`` each start's page reaches its server over a link that delays every
packet by MS each way (``bench/link.py``; the bare app's too): a phone on the table's Wi-Fi,
where each round trip to the computer takes tens of milliseconds. The targets are for the
machine's own link.

Targets (issue 16): first screen within 1.10x of the bare app; New game tapped the moment
home shows, its screen within 100 ms; save to scoreboard under 50 ms. Prints the medians
and every run; exits 1 when a target is missed (by this checkout).

    make compiled && .venv/bin/python bench/ui_bench.py [--runs 9] [--rounds 40] [--baseline /path/to/older/checkout] [--link-delay 50]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.link import DelayedLink  # noqa: E402
from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS, FIND, PHONE, Phone, free_port, renderers_stopped_after, start_app, stop  # noqa: E402

OPEN_TIMEOUT_MS = 30_000
STALLED_S = 120
"""Seconds after which a start has stalled: the page's renderer has stopped answering."""
FIRST_SCREEN_RATIO = 1.10
FIRST_TAP_TARGET_MS = 100
SAVE_TARGET_MS = 50

BARE_APP = '''
import flet as ft

GAMES = [("C", "CLUBS", "3 to 6 players"), ("K", "Klaverjassen", "4 players"), ("M", "MEMBERS ONLY", "3 to 5 players"), ("B", "Beverbende", "2 to 6 players")]


def main(page: ft.Page):
    def open_page():
        # a page like New game's: an app bar, a title, the four games, a bottom bar
        cards = [
            ft.Semantics(
                content=ft.Container(
                    ft.Row(
                        [
                            ft.Container(ft.Text(mark, color=ft.Colors.WHITE), width=36, height=36, border_radius=18, bgcolor=ft.Colors.BLUE, alignment=ft.Alignment.CENTER),
                            ft.Column([ft.Text(name, weight=ft.FontWeight.W_600, size=13, max_lines=2), ft.Text(seats, size=11)], spacing=0, expand=True),
                        ],
                        spacing=10,
                    ),
                    padding=10, border_radius=14, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT), on_click=lambda: None, ink=True,
                ),
                identifier=f"game-{name}", button=True, col=6,
            )
            for mark, name, seats in GAMES
        ]
        page.views.append(
            ft.View(
                route="/page",
                appbar=ft.AppBar(title=ft.Text("New game"), leading=ft.IconButton(ft.Icons.ARROW_BACK), actions=[ft.IconButton(ft.Icons.DARK_MODE)]),
                controls=[ft.Text("Game"), ft.ResponsiveRow(cards, spacing=8, run_spacing=8)],
                scroll=ft.ScrollMode.AUTO,
                bottom_appbar=ft.BottomAppBar(ft.FilledButton("Start game", disabled=True), height=None),
            )
        )
        page.update()

    def open_board():
        # a scoreboard like a game's (two totals, Enter round, the rounds' rows, a chart) and a
        # round's form hidden under it; Save fills in the round and shows the scoreboard again
        import flet_charts as fch  # off the first screen's path, as in Companion

        totals = [ft.Text("0", size=32, weight=ft.FontWeight.BOLD) for _ in range(2)]
        rows = ft.Column(spacing=0)
        lines = [fch.LineChartData(points=[fch.LineChartDataPoint(0, 0)], stroke_width=3, color=colour) for colour in (ft.Colors.BLUE, ft.Colors.RED)]
        chart = fch.LineChart(data_series=lines, height=220, left_axis=fch.ChartAxis(label_size=40), bottom_axis=fch.ChartAxis(label_size=24), animation=ft.Animation(duration=ft.Duration()))
        enter = ft.FilledButton("Enter round 1")
        board = ft.Column([ft.Card(ft.Column([ft.Row([ft.Text(f"Player {i + 1}", expand=True), totals[i]]) for i in range(2)])), ft.Semantics(content=enter, identifier="enter-round"), ft.Card(rows), ft.Card(chart)])
        keys = ft.Row([ft.Button(str(digit), on_click=lambda: None) for digit in range(10)], wrap=True)
        save = ft.FilledButton("Save")
        form = ft.Column([ft.Text("Round"), keys, ft.Semantics(content=save, identifier="entry-save")], visible=False)

        def show_form():
            board.visible, form.visible = False, True

        def save_round():
            number = len(rows.controls) + 1
            for line, total, points in zip(lines, totals, (3, 4)):
                total.value = str(int(total.value) + points)
                line.points = line.points + [fch.LineChartDataPoint(number, int(total.value))]
            rows.controls.append(ft.Row([ft.Text(str(number), width=30), ft.Text(totals[0].value, expand=True), ft.Text(totals[1].value, expand=True)]))
            enter.content = f"Enter round {number + 1}"
            chart.max_x = number
            board.visible, form.visible = True, False

        enter.on_click, save.on_click = show_form, save_round
        page.views.append(ft.View(route="/board", appbar=ft.AppBar(title=ft.Text("Game")), controls=[board, form], scroll=ft.ScrollMode.AUTO))
        page.update()

    page.add(
        ft.Semantics(content=ft.FilledButton("Open", on_click=open_page), identifier="open"),
        ft.Semantics(content=ft.FilledButton("Board", on_click=open_board), identifier="board"),
    )


# Served as Companion serves its pages (its own web server, without the embedder policy
# Flet's server sends, and with its scripts from this site only), so that Flutter draws this
# page in one thread too and neither asks another site for a script: the floor is the same
# renderer's.
import os

from companion.share.guard import page_headers
from companion.share.network import web_server

flet_app = ft.run(main, export_asgi_app=True, no_cdn=True)


async def served(scope, receive, send):
    await flet_app(scope, receive, page_headers(send) if scope["type"] == "http" else send)


web_server(served, host="127.0.0.1", port=int(os.environ["FLET_SERVER_PORT"])).run()
'''

# Records, inside the page, when the pointer goes down and when a condition first holds,
# so the figure does not include the benchmark's own round trips to the browser.
WATCH = """([selector, pattern]) => {
    window.__down = null; window.__done = null;
    addEventListener('pointerdown', () => { window.__down = performance.now(); }, {capture: true, once: true});
    const check = () => {
        const el = document.querySelector(selector);
        const text = el ? [el, ...el.querySelectorAll('*')].map(x => (x.getAttribute('aria-label') || '') + ' ' + (x.childElementCount ? '' : x.textContent)).join(' ') : '';
        if (window.__down !== null && new RegExp(pattern).test(text)) { window.__done = performance.now(); return; }
        requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
}"""


def sid(identifier: str) -> str:
    return f"[flt-semantics-identifier='{identifier}']"


# Records, inside the page, the wall-clock time (ms since the epoch) at which a control first appears.
MARK_FIRST = f"""(identifier) => {{
    const check = () => {{
        if (({FIND})(identifier) !== null) {{ window.__shown = performance.timeOrigin + performance.now(); return; }}
        requestAnimationFrame(check);
    }};
    requestAnimationFrame(check);
}}"""


def open_app(page, url: str, first: str) -> Phone:
    """Load the page, switch on Flutter's accessibility tree, wait for ``first`` (looked for
    in the page on every frame, so that it is noticed as soon as it is there)."""
    phone = Phone(page, url, ROOT, step_timeout_ms=OPEN_TIMEOUT_MS)
    phone.open("")
    phone.wait(first)
    return phone


@dataclass(frozen=True)
class Subject:
    """An app to start: ``command(port)`` in checkout ``root``, its first screen's button, and
    what a tap on it shows."""

    command: Callable[[int], list[str]]
    first: str
    answer: tuple[str, str]  # (identifier, pattern)
    env: dict[str, str]
    root: Path = ROOT


@dataclass(frozen=True)
class FirstScreen:
    """One start: seconds from launching the server to it serving, to the first screen in
    the page, to the benchmark noticing it; milliseconds from the first tap to its answer."""

    serving: float
    shown: float
    noticed: float
    first_tap: float


Turn = TypeVar("Turn")


def in_turn(subjects: list[Turn], run: int) -> list[Turn]:
    """``subjects`` in the order of run ``run``: every order in turn, so that each subject
    comes first and last, and after each other one, as often (over a multiple of 2 runs for
    two subjects, 6 for three). In one fixed order the app measured last started 0.06x later
    than the same code measured before it (an A/A run: one checkout beside itself), a start
    being slowed by the one before it on the machine."""
    orders = list(itertools.permutations(subjects))
    return list(orders[run % len(orders)])


@contextmanager
def unstalled(seconds: float = STALLED_S) -> Iterator[None]:
    """End the benchmark with a message when the block takes over ``seconds`` (a start: both
    pages that stopped answering stopped just after their first screen showed)."""
    with renderers_stopped_after(seconds) as stopped:
        try:
            yield
        except Exception as error:
            if stopped.is_set():
                raise SystemExit(f"a browser page stopped answering for {seconds:.0f} s (its renderer was stopped); run the benchmark again") from error
            raise


def first_screen(browser, subject: Subject, folder: Path, link_delay: float = 0.0) -> FirstScreen:
    """Start ``subject``, open it in a fresh page (over a link that delays each packet by
    ``link_delay`` seconds each way, if any), tap its first button as soon as it is there."""
    port = free_port()
    began = time.time()
    process = start_app(subject.command(port), port, None, folder / f"first-{port}.log", subject.env, subject.root)
    serving = time.time() - began
    try:
        link = DelayedLink(port, link_delay) if link_delay else None
        with unstalled(), link or contextlib.nullcontext():
            context = browser.new_context(viewport=PHONE)
            page = context.new_page()
            page.add_init_script(f"({MARK_FIRST})({subject.first!r})")
            open_app(page, f"http://127.0.0.1:{link.port if link else port}/", subject.first)
            noticed = time.time() - began
            page.wait_for_function("window.__shown !== undefined")
            shown = page.evaluate("window.__shown") / 1000 - began
            tap = timed_tap(page, subject.first, *subject.answer)
            context.close()
    finally:
        stop(process)
    return FirstScreen(serving, shown, noticed, tap)


def timed_tap(page, button: str, watch: str, pattern: str) -> float:
    """Milliseconds from pointer down on ``button`` to ``watch`` matching ``pattern``."""
    page.evaluate(WATCH, [sid(watch), pattern])
    box = page.locator(sid(button)).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("window.__done !== null", timeout=10_000)
    return page.evaluate("window.__done - window.__down")


def app_command(port: int) -> list[str]:
    """The README's way to start the app, on ``port``."""
    return [sys.executable, "-m", "companion", "run", "--port", str(port)]


def save_to_scoreboard(browser, runs: int, folder: Path, roots: dict[str, Path]) -> dict[str, tuple[list[float], list[float]]]:
    """Enter and save Beverbende rounds in each checkout of ``roots``, a two-player game of
    four rounds in each in turn (so all see the same machine load), until each has ``runs``
    rounds or more: by checkout, the saves' times and the Enter round taps'."""
    pages, processes = {}, []
    try:
        for number, (name, root) in enumerate(roots.items()):
            port = free_port()
            processes.append(start_app(app_command(port), port, folder / f"saves-{number}.sqlite3", folder / f"saves-{number}.log", root=root))
            pages[name] = (browser.new_context(viewport=PHONE).new_page(), f"http://127.0.0.1:{port}/")
        found: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in roots}
        for game in range(-(-runs // 4)):
            for name, (page, url) in in_turn(list(pages.items()), game):
                saves, enters = save_rounds(page, 4, lambda: open_app(page, url, "new-game"))
                found[name][0].extend(saves)
                found[name][1].extend(enters)
        for page, _url in pages.values():
            page.context.close()
    finally:
        for process in processes:
            stop(process)
    return found


def save_rounds(page, runs: int, home: Callable[[], Phone]) -> tuple[list[float], list[float]]:
    """Milliseconds from Save to the updated scoreboard, ``runs`` Beverbende rounds, and from
    Enter round to the form; ``home`` brings the app to its home screen when a new game is
    needed (a two-player game lasts four rounds)."""
    times, enters, number = [], [], 5
    for _ in range(runs):
        if number > 4:
            phone = home()
            phone.tap("new-game")
            phone.tap("ruleset-beverbende")
            for seat, name in enumerate(["Ann", "Bob"], start=1):
                phone.tap(f"saved-{name}") if phone.el(f"saved-{name}").count() else phone.type("Player name", name)
                phone.wait(f"seat-{seat}")
            phone.tap("start-game")
            phone.wait("enter-round")
            number = 1
        enters.append(timed_tap(page, "enter-round", "entry-status", "Still to enter"))
        phone.keys("31415926")
        phone.enabled("entry-save")
        watch, pattern = ("enter-round", f"Enter round {number + 1}") if number < 4 else ("winner-banner", "wins")
        times.append(timed_tap(page, "entry-save", watch, pattern))
        number += 1
    return times, enters


def bare_save(browser, runs: int, bare: Path) -> list[float]:
    """Milliseconds from Save to the scoreboard showing the next round, ``runs`` rounds in
    the bare app's scoreboard (the floor for Companion's save)."""
    port = free_port()
    process = start_app([sys.executable, str(bare)], port, None, bare.with_name("bare-saves.log"))
    times = []
    try:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        phone = open_app(page, f"http://127.0.0.1:{port}/", "board")
        phone.tap("board")
        for number in range(1, runs + 1):
            phone.tap("enter-round")
            phone.wait("entry-save")
            times.append(timed_tap(page, "entry-save", "enter-round", f"Enter round {number + 1}"))
        context.close()
    finally:
        stop(process)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--rounds", type=int, help="rounds saved in each app (default: --runs)")
    parser.add_argument("--baseline", type=Path, help="another checkout of Companion, started in turn with this one")
    parser.add_argument("--link-delay", type=float, default=0.0, metavar="MS",
                        help="each start's page reaches its server over a link that delays every packet by MS each way (a phone on Wi-Fi)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    checkouts = {"Companion": ROOT}
    if args.baseline:
        baseline = args.baseline.resolve()
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(baseline / "companion")], check=True)  # as ROOT's, by make
        checkouts = {"baseline": baseline, **checkouts}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        folder = Path(tmp)
        bare_file = folder / "bare_app.py"
        bare_file.write_text(BARE_APP)
        bare = Subject(lambda port: [sys.executable, str(bare_file)], "open", ("game-Beverbende", "Beverbende"), {})
        # The app opens an existing database, as on every start but the very first.
        apps = {
            name: Subject(
                app_command, "new-game", ("ruleset-beverbende", "Beverbende"),
                {"COMPANION_DATABASE_URL": f"sqlite:///{folder / f'first-{number}.sqlite3'}"}, root,
            )  # fmt: skip
            for number, (name, root) in enumerate(checkouts.items())
        }
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        link_delay = args.link_delay / 1000
        for app in apps.values():
            first_screen(browser, app, folder)
        bare_first: list[FirstScreen] = []
        app_first: dict[str, list[FirstScreen]] = {name: [] for name in apps}
        subjects: list[tuple[str | None, Subject]] = [(None, bare), *apps.items()]
        for run in range(args.runs):  # interleaved, so all see the same machine load
            for name, subject in in_turn(subjects, run):
                (bare_first if name is None else app_first[name]).append(first_screen(browser, subject, folder, link_delay))
        bare_taps = bare_save(browser, args.runs, bare_file)
        app_saves = save_to_scoreboard(browser, args.rounds or args.runs, folder, {name: app.root for name, app in apps.items()})
        browser.close()

    def median(runs: list[FirstScreen], field: str, scale: float = 1000) -> float:
        return statistics.median(getattr(run, field) for run in runs) * scale

    over = f"; each start over a link delaying every packet {args.link_delay:g} ms each way" if args.link_delay else ""
    print(f"UI benchmark (headless Chromium, {PHONE['width']}x{PHONE['height']}, median of {args.runs} runs{over})")
    print(f"  bare Flet: start to first screen {median(bare_first, 'shown'):.0f} ms (the server serving after"
          f" {median(bare_first, 'serving'):.0f} ms; noticed over the DevTools protocol {median(bare_first, 'noticed'):.0f} ms);"
          f" first tap to a page like New game's {median(bare_first, 'first_tap', 1):.0f} ms; save to its scoreboard {statistics.median(bare_taps):.0f} ms")
    for name, runs in app_first.items():
        root = "" if checkouts[name] == ROOT else f" ({checkouts[name]})"
        print(f"  {name}{root}:")
        print(f"    start to first screen {median(runs, 'shown'):6.0f} ms   ratio {median(runs, 'shown') / median(bare_first, 'shown'):.2f}"
              f" (target <= {FIRST_SCREEN_RATIO})")
        print(f"      each start beside the bare app's of the same turn: median ratio"
              f" {statistics.median(app_run.shown / bare_run.shown for app_run, bare_run in zip(runs, bare_first)):.2f}")
        print(f"      of which the server starting to serve: {median(runs, 'serving'):.0f} ms")
        print(f"      noticed by the benchmark over the DevTools protocol: {median(runs, 'noticed'):.0f} ms,"
              f" ratio {median(runs, 'noticed') / median(bare_first, 'noticed'):.2f}")
        print(f"    New game tapped as soon as home shows: its screen {median(runs, 'first_tap', 1):.0f} ms (target < {FIRST_TAP_TARGET_MS})")
        saves, enters = app_saves[name]
        print(f"    save to scoreboard {statistics.median(saves):6.0f} ms (target < {SAVE_TARGET_MS}; {len(saves)} rounds)")
        later = [ms for number, ms in enumerate(enters) if number % 4]
        print(f"    Enter round to its form {statistics.median(enters):6.0f} ms (a game's first round"
              f" {statistics.median(enters[::4]):.0f} ms, its later ones {statistics.median(later):.0f} ms)")
        print("    runs (ms): first screen", _ms([r.shown for r in runs], 1000), " New game", _ms([r.first_tap for r in runs]),
              " save", _ms(saves), " Enter round", _ms(enters))
    print("  bare runs (ms): first screen", _ms([r.shown for r in bare_first], 1000), " first tap", _ms([r.first_tap for r in bare_first]),
          " save", _ms(bare_taps))
    print(f"  load average {os.getloadavg()[0]:.1f} (the machine is shared: the apps ran interleaved, under the same load)")
    ours = app_first["Companion"]
    ratio = median(ours, "shown") / median(bare_first, "shown")
    met = ratio <= FIRST_SCREEN_RATIO and median(ours, "first_tap", 1) < FIRST_TAP_TARGET_MS
    return 0 if met and statistics.median(app_saves["Companion"][0]) < SAVE_TARGET_MS else 1


def _ms(values: list[float], scale: float = 1.0) -> str:
    return "[" + ", ".join(f"{v * scale:.0f}" for v in values) + "]"


if __name__ == "__main__":
    sys.exit(main())

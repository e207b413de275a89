"""A device's update after a saved round: the server's own work, without a browser or a network.

For each game (its longest game, bench/long_games), a table of viewers' scoreboards follows
the game round by round in one process, as a server's sessions do: each scoreboard takes
the new record (``GameScreen.follow``; the record is derived once for all of them) and its
session works out what to send and encodes it, as the router sends it
(``companion.ui.together``; in a checkout from before it, ``page.update``) and as flet_web
encodes it for a browser. Printed per game, over rounds 21 to 40 (the table of rounds
and the chart have filled by then; the rounds' rows list the last 10):

- the CPU time of one device's update, median and best over those rounds (Python's garbage
  collection held off while it is timed, and run between rounds);
- Python function calls per device update (cProfile's count of round 40: the same on any
  machine at any load, so it shows a change of the work where the times are noisy);
- bytes sent to a device per update, and in how many messages (each is a frame of its own for
  the server to queue and write to the socket, and for the browser to draw);
- a tap on the game's round-entry form (every key, box and button of it that shows and is
  enabled, in order, twice), as the scorer's server handles it: Python calls, CPU time and
  bytes sent per tap, median and worst; the same on the game's referee screen, median;
- the scorer's own page through the same rounds, in a session of the app (its router and a
  store): the Enter round tap that opens the form, and the save that shows the scoreboard
  again, as their handlers run: CPU time, median over the rounds timed, and the Python
  calls and bytes sent of the last one (the store's SQLite work is in the time, not the calls).

This is the part of issue 16's "every device within 1 s" and "to every viewer's browser"
that grows with the devices (bench/club_server_bench.py and bench/share_bench.py time the
whole way, browsers and network included). With ``--baseline DIR`` (another checkout of
Companion), the same is run on DIR's code first, in a process of its own, and printed
side by side.

    python bench/update_bench.py [--viewers 10] [--baseline /path/to/older/checkout]
"""

from __future__ import annotations

import argparse
import contextvars
import cProfile
import gc
import importlib
import json
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
FIRST, LAST = 21, 40
"""The rounds timed (1 is the first)."""


def measure(code: Path, viewers: int) -> dict[str, dict[str, float]]:
    """Every benched game's figures with the code of checkout ``code``."""
    sys.path.insert(0, str(code))
    from types import SimpleNamespace

    import flet as ft
    import msgpack  # type: ignore[import-untyped]  # no type information
    from flet.controls.base_control import BaseControl
    from flet.messaging.connection import Connection
    from flet.messaging.protocol import configure_encode_object_for_msgpack
    from flet.messaging.session import Session
    from flet.pubsub.pubsub_hub import PubSubHub

    from bench.long_games import benched
    from companion import rules
    from companion.ui.referee import referee_view
    from companion.ui.round_entry import entry_form
    from companion.share.table import Device, Role
    from companion.store import Store
    from companion.ui.round_entry.drafts import Drafts
    from companion.ui.scoreboard import GameScreen, ScoreboardState

    encode = configure_encode_object_for_msgpack(BaseControl)

    def served(written: list[int]) -> Session:
        """A session whose messages are encoded as flet_web encodes them for a browser, each
        one's size noted in ``written`` (a stand-in for its connection)."""
        connection = SimpleNamespace(pubsubhub=PubSubHub(), send_message=lambda m: written.append(len(msgpack.packb([m.action, m.body], default=encode))))
        session = Session(cast(Connection, connection))
        msgpack.packb(session.page, default=encode)
        return session

    def counted_calls(profile: cProfile.Profile) -> int:
        """The Python calls ``profile`` counted (pstats counts them; its type stubs leave the count out)."""
        return int(getattr(pstats.Stats(profile), "total_calls"))

    class Viewer:
        """What a scoreboard needs of the app around it: a device that watches, and drafts."""

        dark = False
        page = None
        device = Device(number=2, key="bench", browser="", system="", role=Role.VIEWER)

        def __init__(self) -> None:
            self.drafts = Drafts()

        def go(self, route: str) -> None:
            pass

    try:
        together: ModuleType | None = importlib.import_module("companion.ui.together")
    except ImportError:  # a checkout from before it
        together = None

    def deliver(page: ft.Page, parts: list) -> None:
        """Send what ``GameScreen.follow`` returned, as the checkout's router sends it: each
        group as one message (``update_together``), or, in a checkout from before it, a
        message for each control (``page.update``)."""
        if together is None:
            page.update(*parts)
            return
        for group in parts:
            together.update_together(page, group)

    def shown(control):
        """``control`` and what it holds, as far as it shows."""
        if not control.visible:
            return
        yield control
        for name in ("content", "controls"):
            child = getattr(control, name, None)
            for c in child if isinstance(child, list) else [child]:
                if isinstance(c, ft.Control):
                    yield from shown(c)

    def tapped(key: ft.Control) -> None:
        """A tap as Flet dispatches it: the handler, then, unless it sent an update itself,
        Flet's automatic update of the nearest isolated control around it (the page)."""
        ft.context.reset_auto_update()
        getattr(key, "on_click")(None)  # the keys are the controls with a handler for it
        if ft.context.auto_update_enabled() and not ft.context.was_update_called():
            around: BaseControl | None = key
            while around is not None and not around.is_isolated():
                around = around.parent
            if around is not None:
                around.update()

    def taps(screen: ft.Control, profiled: bool) -> list[tuple[float, int, int]]:
        """Each tap on ``screen`` shown in a session (every key, box and button that shows
        and is enabled, in order, twice): its CPU time, Python calls, bytes sent."""
        written: list[int] = []
        session = served(written)
        session.page.views.append(ft.View(route="/bench", controls=[screen]))
        session.page.update()
        keys = [c.content for c in shown(screen) if isinstance(c, ft.Semantics) and c.identifier and c.content is not None and getattr(c.content, "on_click", None)]
        found = []
        for key in keys * 2:
            if key.disabled or not any(key is c for c in shown(screen)):
                continue
            written.clear()
            profile = cProfile.Profile() if profiled else None
            gc.disable()
            started = time.process_time()
            if profile is not None:
                profile.enable()
            contextvars.copy_context().run(tapped, key)
            if profile is not None:
                profile.disable()
            spent = time.process_time() - started
            gc.enable()
            found.append((spent, counted_calls(profile) if profile is not None else 0, sum(written)))
        return found

    def scorer(spec: dict) -> tuple[list[float], list[float], dict[str, float]]:
        """The scorer's own page in a session (the app's router and store) through the game's
        rounds: each Enter round tap and each save of the form's entry, as their handlers run
        (``GameScreen._enter`` and ``_save``); the CPU times over rounds FIRST to LAST, and
        the Python calls and bytes sent of round LAST's."""
        from companion.ui.router import App

        written: list[int] = []
        session = served(written)
        page = session.page
        page.navigate = lambda route, **kwargs: None  # no browser's address bar
        found: dict[str, float] = {}
        enters: list[float] = []
        saves: list[float] = []
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{folder}/bench.sqlite3")
            record = store.create_game(spec["ruleset"], spec["players"], spec.get("options"), spec.get("teams"))
            app = App(page, store)
            app.awake.follow = lambda route: None  # type: ignore[method-assign]  # no browser to keep awake
            app.go(f"/game/{record.id}")
            screen = app.games[record.id]
            for number, entry in enumerate(spec["entries"][:LAST], start=1):
                for name, step, spent in (("enter", screen._enter, enters), ("save", lambda: screen._save(entry), saves)):
                    written.clear()
                    profile = cProfile.Profile() if number == LAST else None
                    gc.collect()
                    gc.disable()
                    started = time.process_time()
                    if profile is not None:
                        profile.enable()
                    contextvars.copy_context().run(step)
                    if profile is not None:
                        profile.disable()
                        found[f"{name} calls"] = counted_calls(profile)
                        found[f"{name} bytes"] = sum(written)
                    if number >= FIRST:
                        spent.append(time.process_time() - started)
                    gc.enable()
            store.close()
        return enters, saves, found

    figures = {}
    for ruleset_id, driver in benched().items():
        spec = driver.long_game()
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{folder}/bench.sqlite3")
            record = store.create_game(spec["ruleset"], spec["players"], spec.get("options"), spec.get("teams"))
            screens = []
            for _ in range(viewers):
                state = ScoreboardState(store, record.id)
                state.load()
                screen = GameScreen(Viewer(), state, f"/game/{record.id}")
                screen.show_board(f"/game/{record.id}")
                written: list[int] = []
                session = served(written)
                session.page.views.append(screen.view)
                session.page.update()
                screens.append((screen, session, written))  # the session too: its page holds it weakly
            times, sizes, messages, calls = [], [], [], 0.0
            for number, entry in enumerate(spec["entries"][:LAST], start=1):
                record = store.add_round(record.id, entry, expected_version=record.version)
                gc.collect()
                gc.disable()
                if number == LAST:
                    profile = cProfile.Profile()
                    profile.enable()
                for screen, session, written in screens:
                    written.clear()
                    started = time.process_time()
                    deliver(session.page, screen.follow(record))  # as the router sends them
                    if number >= FIRST:
                        times.append(time.process_time() - started)
                        sizes.append(sum(written))
                        messages.append(len(written))
                if number == LAST:
                    profile.disable()
                    calls = counted_calls(profile) / viewers
                gc.enable()
            store.close()
        def form() -> ft.Control:
            return entry_form(rules.get(spec["ruleset"]).new_game(spec["players"], spec.get("options"), spec.get("teams")), lambda entry: None)

        enters, saves, scorers = scorer(spec)
        timed, counted = taps(form(), profiled=False), taps(form(), profiled=True)
        referee_timed, referee_counted = taps(referee_view(ruleset_id), profiled=False), taps(referee_view(ruleset_id), profiled=True)
        figures[ruleset_id] = {
            "median ms": statistics.median(times) * 1000,
            "best ms": min(times) * 1000,
            "calls": calls,
            "bytes": statistics.median(sizes),
            "messages": statistics.median(messages),
            "tap median ms": statistics.median(spent for spent, _, _ in timed) * 1000,
            "tap worst ms": max(spent for spent, _, _ in timed) * 1000,
            "tap calls": statistics.median(calls for _, calls, _ in counted),
            "tap worst calls": max(calls for _, calls, _ in counted),
            "tap bytes": statistics.median(size for _, _, size in counted),
            "referee median ms": statistics.median(spent for spent, _, _ in referee_timed) * 1000,
            "referee calls": statistics.median(calls for _, calls, _ in referee_counted),
            "referee bytes": statistics.median(size for _, _, size in referee_counted),
            "enter median ms": statistics.median(enters) * 1000,
            "enter calls": scorers["enter calls"],
            "enter bytes": scorers["enter bytes"],
            "save median ms": statistics.median(saves) * 1000,
            "save calls": scorers["save calls"],
            "save bytes": scorers["save bytes"],
        }
    return figures


def run(code: Path, viewers: int) -> dict[str, dict[str, float]]:
    """``measure`` in a process of its own, so that one checkout's modules never meet another's."""
    out = subprocess.run(
        [sys.executable, __file__, "--measure", str(code), "--viewers", str(viewers)], cwd=code, capture_output=True, text=True
    )
    if out.returncode:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=10)
    parser.add_argument("--baseline", type=Path, help="another checkout of Companion, measured first, side by side")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.viewers)))
        return
    runs = ([("baseline", run(args.baseline.resolve(), args.viewers))] if args.baseline else []) + [("this checkout", run(ROOT, args.viewers))]
    print(f"a device's update, {args.viewers} viewers, rounds {FIRST} to {LAST} of each game's longest game; a tap on its round's form")
    header = f"{'':<52}" + "".join(f"{name:>15}" for name, _ in runs)
    for ruleset_id in runs[-1][1]:
        print(f"\n{ruleset_id}{header[len(ruleset_id):]}")
        for figure, label in (
            ("median ms", "CPU time per device update, median (ms)"),
            ("best ms", "CPU time per device update, best (ms)"),
            ("calls", "Python function calls per device update"),
            ("bytes", "bytes sent per device update, median"),
            ("messages", "messages sent per device update, median"),
            ("tap median ms", "a tap on the round's form, CPU time, median (ms)"),
            ("tap worst ms", "a tap on the round's form, CPU time, worst (ms)"),
            ("tap calls", "a tap: Python function calls, median"),
            ("tap worst calls", "a tap: Python function calls, worst"),
            ("tap bytes", "a tap: bytes sent, median"),
            ("referee median ms", "a tap on its referee screen, CPU time, median (ms)"),
            ("referee calls", "a referee tap: Python function calls, median"),
            ("referee bytes", "a referee tap: bytes sent, median"),
            ("enter median ms", "the scorer's Enter round, CPU time, median (ms)"),
            ("enter calls", "the scorer's Enter round: Python function calls"),
            ("enter bytes", "the scorer's Enter round: bytes sent"),
            ("save median ms", "the scorer's save, CPU time, median (ms)"),
            ("save calls", "the scorer's save: Python function calls"),
            ("save bytes", "the scorer's save: bytes sent"),
        ):
            values = [found[ruleset_id][figure] if ruleset_id in found else float("nan") for _, found in runs]
            decimals = 2 if figure.endswith("ms") else 0
            print(f"  {label:<50}" + "".join(f"{value:>15,.{decimals}f}" for value in values))


if __name__ == "__main__":
    main()

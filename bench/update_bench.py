"""A device's update after a saved round: the server's own work, without a browser or a network.

For each game (its longest game, bench/long_games), a table of viewers' scoreboards follows
the game round by round in one process, as a server's sessions do: each scoreboard takes
the new record (``GameScreen.follow``; the record is derived once for all of them) and Flet
works out what to send it and encodes it (``ObjectPatch.from_diff`` and msgpack, as
flet_web does for a session). Printed per game, over rounds 21 to 40 (the table of rounds
and the chart have filled by then; the rounds' rows list the last 10):

- the CPU time of one device's update, median and best over those rounds (Python's garbage
  collection held off while it is timed, and run between rounds);
- Python function calls per device update (cProfile's count of round 40: the same on any
  machine at any load, so it shows a change of the work where the times are noisy);
- bytes sent to a device per update.

This is the part of issue 16's "every device within 1 s" and "to every viewer's browser"
that grows with the devices (bench/club_server_bench.py and bench/share_bench.py time the
whole way, browsers and network included). With ``--baseline DIR`` (another checkout of
Companion), the same is run on DIR's code first, in a process of its own, and printed
side by side.

    python bench/update_bench.py [--viewers 10] [--baseline /path/to/older/checkout]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST, LAST = 21, 40
"""The rounds timed (1 is the first)."""


def measure(code: Path, viewers: int) -> dict[str, dict[str, float]]:
    """Every benched game's figures with the code of checkout ``code``."""
    sys.path.insert(0, str(code))
    import flet as ft
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.controls.object_patch import ObjectPatch
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    from bench.long_games import benched
    from companion.share.table import Device, Role
    from companion.store import Store
    from companion.ui.round_entry.drafts import Drafts
    from companion.ui.scoreboard import GameScreen, ScoreboardState

    encode = configure_encode_object_for_msgpack(BaseControl)

    class Viewer:
        """What a scoreboard needs of the app around it: a device that watches, and drafts."""

        dark = False
        page = None
        device = Device(number=2, key="bench", browser="", system="", role=Role.VIEWER)

        def __init__(self) -> None:
            self.drafts = Drafts()

        def go(self, route: str) -> None:
            pass

    def sent(controls) -> int:
        """What a session sends for ``controls``: their changes since last sent, encoded; its size."""
        size = 0
        for control in controls:
            patch, _added, _removed = ObjectPatch.from_diff(control, control, control_cls=BaseControl)
            size += len(msgpack.packb(patch.to_message(), default=encode))
        return size

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
                page = ft.Column()
                msgpack.packb(page, default=encode)  # the page as first sent: Flet notes what it sent
                page.controls.append(screen.view)
                sent([page])
                screens.append(screen)
            times, sizes, calls = [], [], 0.0
            for number, entry in enumerate(spec["entries"][:LAST], start=1):
                record = store.add_round(record.id, entry, expected_version=record.version)
                gc.collect()
                gc.disable()
                if number == LAST:
                    profile = cProfile.Profile()
                    profile.enable()
                for screen in screens:
                    started = time.process_time()
                    size = sent(screen.follow(record))
                    if number >= FIRST:
                        times.append(time.process_time() - started)
                        sizes.append(size)
                if number == LAST:
                    profile.disable()
                    calls = pstats.Stats(profile).total_calls / viewers
                gc.enable()
            store.close()
        figures[ruleset_id] = {
            "median ms": statistics.median(times) * 1000,
            "best ms": min(times) * 1000,
            "calls": calls,
            "bytes": statistics.median(sizes),
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
    print(f"a device's update, {args.viewers} viewers, rounds {FIRST} to {LAST} of each game's longest game")
    header = f"{'':<44}" + "".join(f"{name:>15}" for name, _ in runs)
    for ruleset_id in runs[-1][1]:
        print(f"\n{ruleset_id}{header[len(ruleset_id):]}")
        for figure, label in (
            ("median ms", "CPU time per device update, median (ms)"),
            ("best ms", "CPU time per device update, best (ms)"),
            ("calls", "Python function calls per device update"),
            ("bytes", "bytes sent per device update, median"),
        ):
            values = [found[ruleset_id][figure] if ruleset_id in found else float("nan") for _, found in runs]
            decimals = 2 if figure.endswith("ms") else 0
            print(f"  {label:<42}" + "".join(f"{value:>15,.{decimals}f}" for value in values))


if __name__ == "__main__":
    main()

"""Replay, for each ruleset, the longest game its options allow (up to 200 rounds).

Prints the time per full replay (validation and scoring of every round). Target on the
2-core reference machine: under 5 ms per 200-round replay.

    python bench/rules_replay.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.long_games import benched  # noqa: E402
from companion import rules  # noqa: E402
from companion.rules.base import Game  # noqa: E402


def measure(spec: dict, repeat: int) -> tuple[int, float, float]:
    ruleset = rules.get(spec["ruleset"])
    start = ruleset.new_game(spec["players"], spec.get("options"), spec.get("teams"))
    entries = spec["entries"]
    Game.replay(ruleset, start.setup, entries)  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        Game.replay(ruleset, start.setup, entries)
        times.append(time.perf_counter() - t0)
    return len(entries), statistics.median(times) * 1000, min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(f"{'ruleset':<14} {'rounds':>6} {'median ms':>10} {'best ms':>8} {'ms/200 rounds':>14}")
    for ruleset_id, driver in benched().items():
        n, median, best = measure(driver.long_game(), args.repeat)
        print(f"{ruleset_id:<14} {n:>6} {median:>10.2f} {best:>8.2f} {median * 200 / n:>14.2f}")


if __name__ == "__main__":
    main()

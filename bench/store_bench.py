"""Fill a database with finished games of every ruleset, then time what players wait for.

Figures printed (targets on the 2-core reference machine): save one round (< 10 ms), open
one game (< 20 ms), list the newest 50 (< 20 ms), one player's statistics (< 200 ms).
The fill goes through the store's own backup import, so every game is replayed and
checked by the rules on the way in.

    python bench/store_bench.py [--games N] [--database-url URL]

Without --database-url the database is a SQLite file in a fresh temporary folder.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.long_games import benched  # noqa: E402
from companion.store import Store  # noqa: E402

NAMES = [
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned",
    "Oda", "Pim", "Quin", "Rik", "Sam", "Tess", "Uma", "Vic", "Wim", "Xan", "Yo", "Zed",
    "Bram", "Noor", "Sem", "Lotte", "Daan", "Fenna", "Jens", "Mila", "Tijn", "Saar",
]


def backup_document(count: int, seed: int = 2024) -> tuple[dict, int]:
    """A backup holding ``count`` finished games spread over two years, and its round count."""
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    drivers = benched()
    games, rounds = [], 0
    for number in range(count):
        ruleset = list(drivers)[number % len(drivers)]
        setup, game = drivers[ruleset].finished_game(rng, NAMES)
        created = start + timedelta(minutes=105 * number)
        times = [created + timedelta(minutes=3 * (i + 1)) for i in range(len(game.rounds))]
        rounds += len(times)
        games.append({
            "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "ruleset": ruleset,
            "players": list(game.players), "options": setup["options"], "teams": setup["teams"],
            "status": "finished", "created_at": created.isoformat(), "finished_at": times[-1].isoformat(),
            "note": "", "location": "bench",
            "rounds": [{"entry": e, "entered_at": t.isoformat(), "edited_at": None} for e, t in zip(game.rounds, times)],
        })
    return {"format": "companion-backup", "version": 1, "players": [], "games": games}, rounds


def timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds."""
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        samples.append((time.perf_counter() - began) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="finished games to fill in (default 10000)")
    parser.add_argument("--repeat", type=int, default=100, help="timed runs per figure (default 100)")
    parser.add_argument("--database-url", help="an empty database to fill (default: SQLite in a temporary folder)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        began = time.perf_counter()
        document, round_count = backup_document(args.games)
        backup = Path(folder) / "fill.json"
        backup.write_text(json.dumps(document))
        print(f"generated {args.games} finished games, {round_count} rounds, in {time.perf_counter() - began:.1f} s")

        with Store(url) as store:
            began = time.perf_counter()
            report = store.import_json(backup)
            print(f"filled {url} with {report.games_added} games in {time.perf_counter() - began:.1f} s (backup import)")
            rng = random.Random(7)
            finished = [s.id for page in range(args.games // 1000 + 1) for s in store.history(page=page, page_size=1000)]
            names = [p.name for p in store.players()]

            playing = [store.create_game("beverbende", rng.sample(NAMES, 4), options={"ending": "rounds", "rounds": 200})
                       for _ in range(5)]
            live = {g.id: g for g in playing}

            def save_round() -> None:
                game_id = rng.choice(list(live))
                entry = {"totals": {p: rng.randint(10, 28) for p in live[game_id].game.players}}
                live[game_id] = store.add_round(game_id, entry, expected_version=live[game_id].version)

            print(f"\n{'operation':<36} {'median ms':>10} {'p95 ms':>8} {'target ms':>10}")
            figures = [
                ("save one round", save_round, 10),
                ("open one game (not cached)", lambda: store.open_game(rng.choice(finished)), 20),
                ("list the newest 50", lambda: store.history(page_size=50), 20),
                ("list one player's newest 50", lambda: store.history(player=rng.choice(names), page_size=50), 20),
                ("one player's statistics", lambda: store.player_stats(rng.choice(names)), 200),
                ("head-to-head of two players", lambda: store.head_to_head(*rng.sample(names, 2)), 200),
            ]
            for label, action, target in figures:
                median, p95 = timed(action, args.repeat)
                print(f"{label:<36} {median:>10.2f} {p95:>8.2f} {'< ' + str(target):>10}")


if __name__ == "__main__":
    main()

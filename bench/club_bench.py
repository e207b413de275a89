"""Club evening benchmark (issue 17): the draw for 160 players, and a big screen's ranking
for 40 tables recomputed after one table's save.

Figures printed (target 1 s each, on the 2-core reference machine):

- draw: one round's draw for 160 players (40 tables), for each of an evening's four
  rounds (the later ones avoid more earlier partners and meetings); median and slowest;
- ranking after a save: 40 tables of 16 deals each (640 deals), one more deal saved at one
  table, then the evening's ranking with that table's new game taken in, as each big
  screen's page does when the table's change is announced (``EveningResult.following``),
  and, side by side in the same run, the whole ranking read from the store, as the page
  did before; median and p95 over the saves.

The 160 devices' sessions on one server, and a save reaching the big screen through them,
are bench/club_event_bench.py's figures.

    python bench/club_bench.py [--players 160] [--saves 20] [--database-url URL]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules.club import Draw, draw_round  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.club import Evenings  # noqa: E402

TARGET_S = 1.0


def deal(game) -> dict:
    """The playing team makes it, 82 to 80: both teams stay far below 1500 for 17 deals."""
    playing = game.next_round.playing
    other = next(side for side in game.sides if side != playing)
    return {"card_points": {playing: 82, other: 80}, "roem": {playing: 0, other: 0}}


def time_draws(players: list[str]) -> list[float]:
    draws: list[Draw] = []
    seconds = []
    for _ in range(4):
        start = time.perf_counter()
        draws.append(draw_round(players, draws, seed=2026))
        seconds.append(time.perf_counter() - start)
    return seconds


def time_rankings(url: str, players: list[str], saves: int) -> dict[str, list[float]]:
    """Per save: the save, the ranking with the saved game taken in, the ranking read whole."""
    with Store(url) as store:
        evenings = Evenings(store)
        evening = evenings.draw_next(evenings.create("Bench", players, {"ending": "1500"}, seed=1).id)
        game_ids = list(evening.rounds[0].game_ids.values())
        for game_id in game_ids:  # 16 deals at every table (no team reaches 1500: the games go on)
            record = store.open_game(game_id)
            for _ in range(16):
                record = store.add_round(game_id, deal(record.game), record.version)
        followed = evenings.result(evening.id)
        seconds: dict[str, list[float]] = {"save": [], "taken in": [], "read whole": []}
        for number in range(saves):
            game_id = game_ids[number % len(game_ids)]
            record = store.open_game(game_id)
            start = time.perf_counter()
            saved = store.add_round(game_id, deal(record.game), record.version)
            seconds["save"].append(time.perf_counter() - start)
            start = time.perf_counter()
            following = followed.following(saved)
            seconds["taken in"].append(time.perf_counter() - start)
            assert following is not None, "the saved game is the evening's"
            followed = following
            start = time.perf_counter()
            whole = evenings.result(evening.id)
            seconds["read whole"].append(time.perf_counter() - start)
            assert whole.standings == followed.standings
        return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    players = [f"Player {n}" for n in range(1, args.players + 1)]
    draws = time_draws(players)
    print(f"draw for {args.players} players, rounds 1-4: median {statistics.median(draws):.3f} s, slowest {max(draws):.3f} s (target < {TARGET_S:.0f} s)")
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'club.sqlite3'}"
        seconds = time_rankings(url, players, args.saves)
    for name, figures in seconds.items():
        print(f"{name} ({args.players // 4} tables of 16 deals): median {1000 * statistics.median(figures):.1f} ms, p95 {1000 * p95(figures):.1f} ms")
    shown = [save + taken for save, taken in zip(seconds["save"], seconds["taken in"])]
    print(f"save + ranking taken in: median {statistics.median(shown):.3f} s, p95 {p95(shown):.3f} s (target < {TARGET_S:.0f} s)")
    return 0 if max(draws) < TARGET_S and statistics.median(shown) < TARGET_S else 1


def p95(figures: list[float]) -> float:
    ordered = sorted(figures)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


if __name__ == "__main__":
    sys.exit(main())

"""Club evening on one club server (issue 17): 40 tables with 4 devices each and a big screen at
/event/N, a table's save timed to the big screen's ranking.

An evening of 160 players (Klaverjassen to 1500) is created and its first round drawn in the
store (40 tables, one game each); then a club server serves it (``companion run --share
--workers 2`` on PostgreSQL: one computer's table admits 100 devices, a club server's 400).
Every table has four devices on its game: at table 1 the scorer (a real Chromium phone, the
host) and a few Chromium viewers, everywhere else lightweight devices that speak Flet's
websocket protocol (bench/club_server_bench.py's). The big screen is a Chromium page joined as a viewer at
/event/N. The scorer saves deals at table 1 through the app (the playing team 82, the others
80).

Figures printed:

- save to the big screen: from the pointer going down on Save on the scorer's phone to the
  big screen's ranking showing the table's new totals (noted in the page, on the same clock,
  in the frame after its picture: bench/share_bench.py's ``WATCH``);
  median and worst over the saves;
- save to the table's own devices (the update's frame reaching table 1's lightweight devices);
- the server's CPU time per save (the scorer's taps and every update it caused: the figure the
  machine's load does not stretch);
- the server's memory (resident set, /proc) with no device, with every device joined, after
  the saves.

The draw for 160 players is bench/club_bench.py's figure. Target (issue 17): save to the big
screen's ranking, median under 1 s. Exits 1 when missed.

Every run leaves its evening's 40 games in progress in the database; the run says how many
it found. Until d74a81d each device held home's list of them, and each earlier run's games
added about 150 MiB to the memory figures (docs/club.md); since, they add nothing measured.

    python bench/club_event_bench.py --database-url postgresql+psycopg://... [--workers 2] [--tables 40]
        [--browsers 2] [--saves 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.club_server_bench import TIMEOUT_S, LightDevices, chromium_phone, launch_chromium, cpu_s, links, processes, start, stop  # noqa: E402
from bench.share_bench import MARK_PRESS, WATCH, rss_mib  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.club import Evenings  # noqa: E402
from tests.browser.phone import free_port  # noqa: E402

TARGET_MS = 1000
DEVICES_PER_TABLE = 4
MOST_SAVES = 16  # both teams stay below 1500 for 17 deals of 82 and 80


def create_evening(database: str, tables: int) -> tuple[int, list[int]]:
    """An evening of 4 players a table with its first round drawn: its id and its tables' games."""
    with Store(database) as store:
        evenings = Evenings(store)
        players = [f"P{n:03}" for n in range(1, DEVICES_PER_TABLE * tables + 1)]
        evening = evenings.draw_next(evenings.create("Bench", players, {"ending": "1500"}, seed=1).id)
        games = evening.rounds[0].game_ids
        return evening.id, [games[number] for number in sorted(games)]


def next_deal(database: str, game_id: int) -> tuple[str, dict[str, int]]:
    """The team playing the next deal, and every player's total once it made 82."""
    with Store(database) as store:
        game = store.open_game(game_id).game
    playing = game.next_round.playing
    assert playing is not None, "the game ended before the benchmark's deals were in"
    return playing, {
        player: game.totals[game.setup.team_of(player)] + (82 if game.setup.team_of(player) == playing else 80)
        for player in game.players
    }


def run(args, folder: Path) -> int:
    """The evening against this checkout's server, its log in ``folder``; 1 when the target is missed."""
    database = args.database_url
    with Store(database) as store:
        earlier = len(store.in_progress())
    evening, games = create_evening(database, args.tables)
    port = free_port()
    server = start(ROOT, port, database, args.workers, folder / "app.log")
    rss = lambda: sum(rss_mib(pid) for pid in processes(server))  # noqa: E731
    cpu = lambda: sum(cpu_s(pid) for pid in processes(server))  # noqa: E731
    base = f"http://127.0.0.1:{port}"
    join_query, host_link = links(folder / "app.log", base)
    at_first_table = DEVICES_PER_TABLE - 1 - args.browsers
    routes = [f"/game/{games[0]}{join_query}"] * at_first_table
    routes += [f"/game/{game}{join_query}" for game in games[1:] for _ in range(DEVICES_PER_TABLE)]
    light = LightDevices(port, routes, b"total-")
    table = light.devices[:at_first_table]
    memory: dict[str, float] = {}
    to_screen, to_table = [], []
    try:
        time.sleep(1.5)  # the store and screens load in the background after the port opens
        memory["no device"] = rss()
        with sync_playwright() as pw:
            chromium = launch_chromium(pw, folder)
            scorer = chromium_phone(chromium, base)
            scorer.open(host_link)
            scorer.wait("new-game")
            big_screen = chromium_phone(chromium, base)
            big_screen.open(f"/{join_query}")
            big_screen.wait("nav-history")  # joined: a viewer is not offered New game
            big_screen.open(f"/event/{evening}")
            big_screen.wait("ranking")
            for _ in range(args.browsers):
                viewer = chromium_phone(chromium, base)
                viewer.open(f"/game/{games[0]}{join_query}")
                viewer.wait(f"total-{next_deal(database, games[0])[0]}")
            light.join()
            scorer.open(f"/game/{games[0]}")
            scorer.wait("enter-round")
            memory["every device joined"] = rss()
            cpu_before = cpu()
            print(f"{len(games)} tables: {len(light.devices)} lightweight devices, {args.browsers} Chromium viewers and the scorer; "
                  f"a Chromium big screen", flush=True)

            for number in range(1, args.saves + 1):
                playing, totals = next_deal(database, games[0])
                scorer.tap("enter-round")
                scorer.wait(f"klaver-points-{playing}")
                scorer.keys("82")
                watched = min(totals)  # one player of the table (the ranking shows every one)
                label = f"{watched} {totals[watched]}"
                big_screen.page.evaluate(WATCH, [f"rank-{watched}", label])
                playing_total = next(total for player, total in totals.items() if player in playing.split(" & "))
                for device in table:
                    device.expect(str(playing_total))
                scorer.page.evaluate(MARK_PRESS)
                scorer.tap("entry-save")
                big_screen.page.wait_for_function("window.__shownAt !== null", timeout=TIMEOUT_S * 1000)
                deadline = time.monotonic() + TIMEOUT_S
                while any(device.seen_at is None for device in table):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"save {number}: a device at the table never got {playing_total}")
                    time.sleep(0.005)
                pressed = scorer.page.evaluate("window.__pressedAt")
                to_screen.append(big_screen.page.evaluate("window.__shownAt") - pressed)
                to_table.append(max(device.seen_at - pressed for device in table) if table else 0)
                scorer.wait("enter-round")
                print(f"  save {number}: big screen after {to_screen[-1]:.0f} ms, the table's devices after {to_table[-1]:.0f} ms; "
                      f"server RSS {rss():.0f} MiB", flush=True)
            memory[f"after {args.saves} saves"] = rss()
            cpu_per_save = (cpu() - cpu_before) / args.saves
            chromium.close()
    finally:
        light.close() if light.thread.is_alive() else None
        stop(server)

    print()
    print(f"tables: {len(games)}, devices: {len(light.devices) + args.browsers + 1} at the tables ({len(light.devices)} lightweight, "
          f"{args.browsers} Chromium viewers, the scorer) and a Chromium big screen, saves: {args.saves}, "
          f"processes: {args.workers}, load average {os.getloadavg()[0]:.1f}")
    if earlier:
        print(f"games in progress in the database before this run: {earlier}")
    print(f"save to the big screen's ranking, median (ms): {statistics.median(to_screen):.0f}")
    print(f"save to the big screen's ranking, worst (ms): {max(to_screen):.0f}")
    if table:
        print(f"save to the table's {len(table)} lightweight devices, median (ms): {statistics.median(to_table):.0f}")
    print(f"server CPU time per save (the scorer's taps, the table's devices' and the big screen's updates) (ms): {cpu_per_save * 1000:.0f}")
    for moment, mib in memory.items():
        print(f"server memory (RSS), {moment} (MiB): {mib:.0f}")
    print(f"target: save to the big screen's ranking, median < {TARGET_MS} ms (the draw for 160 players: bench/club_bench.py)")
    return 0 if statistics.median(to_screen) < TARGET_MS else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--browsers", type=int, default=2, choices=range(0, DEVICES_PER_TABLE), help="Chromium viewers at table 1")
    parser.add_argument("--saves", type=int, default=15, choices=range(1, MOST_SAVES + 1), metavar=f"1-{MOST_SAVES}")
    parser.add_argument("--database-url", required=True, help="PostgreSQL, e.g. postgresql+psycopg://... (a club server's)")
    parser.add_argument("--workers", type=int, default=2, help="the club server's processes (2 or more)")
    with tempfile.TemporaryDirectory(prefix="club-event-bench-") as folder:
        return run(parser.parse_args(), Path(folder))


if __name__ == "__main__":
    sys.exit(main())

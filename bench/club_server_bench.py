"""Club server benchmark (issue 16): many devices on one server process, and a save on one
process reaching a device on another.

One table, one scorer (a real Chromium phone, host link) who saves rounds through the app,
and viewers watching the game: a few real Chromium phones and, for the count beyond what
Chromium can run here, lightweight devices that speak Flet's websocket protocol (they join
with the join link's code and register at the game's page, as a browser does, and answer
the server's calls; tests/share/web.py's client, made asynchronous so 100 fit in one thread).
The Chromium phones run at a lower priority than the server, as bench/share_bench.py's do.

Figures printed:

- save to every device: from the pointer going down on Save on the scorer's phone to the
  moment the last device had the new total (a lightweight device: the update's frame with
  the total's new label arrived; a Chromium viewer: its scoreboard showed it, in the frame
  after its picture, noted in the page on the same clock: bench/share_bench.py's ``WATCH``);
  worst and median over the rounds;
- the server's CPU time per round (/proc: the scorer's taps and every device's update; the
  figure the machine's load does not stretch);
- the server's memory (resident set, /proc) with no device, with every device joined, and
  after the rounds (default 200);
- with ``--baseline DIR`` (another checkout of Companion, e.g. the main branch), the same
  evening is first run against that checkout's server and every figure printed beside its
  baseline from the same run (the machine's load at that moment applies to both); a
  ``--database-url`` is then shared, each run with a game of its own;
- with ``--workers 2`` (needs ``--database-url`` of PostgreSQL): ``companion run --share
  --workers 2``, whose processes accept on one socket; after the rounds each lightweight
  device is found on its process (its connection's socket in /proc), and each save on the
  scorer's process is timed to the devices on the other one (LISTEN/NOTIFY between them):
  the update's frame reaching them, median over the saves. Memory is then the sum of the
  processes. Two ``companion run --share`` processes on different ports would each share a
  table of their own (their own codes), so they are not two processes of one table.

Targets (issue 16): every device within 1 s of a save; server memory under 300 MiB after
joining and after 200 rounds; across two processes, median under 300 ms. Exits 1 when missed.

    python bench/club_server_bench.py [--devices 100] [--browsers 3] [--rounds 200] [--database-url URL] [--baseline /path/to/main]
    python bench/club_server_bench.py --workers 2 --browsers 0 --database-url postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import msgpack  # type: ignore[import-untyped]  # no type information
from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.share_bench import MARK_PRESS, NOTE_FRAMES, WATCH, create_game, launch_chromium, printed_links, rss_mib, start_server, subject_env  # noqa: E402
from tests.browser.phone import PHONE, Phone, free_port  # noqa: E402
from tests.share.web import INVOKE_METHOD, REGISTER_CLIENT  # noqa: E402

DEVICE_TARGET_MS = 1000
MEMORY_TARGET_MIB = 300
SECOND_PROCESS_TARGET_MS = 300
TIMEOUT_S = 60.0
JOINING_AT_ONCE = 8  # well below the guard's cap on pages connected but not yet in (32)


class LightDevice:
    """One viewer's page without a browser: registers at the game with the join code, answers
    the server's method calls, and notes when a frame carries the label it waits for."""

    def __init__(self, url: str, host: str, route: str, ready: bytes):
        self.url, self.host, self.route, self.ready = url, host, route, ready
        self.expected: bytes | None = None
        self.seen_at: float | None = None  # ms since the epoch, the pages' clock
        self.registered = threading.Event()  # set once it shows the scoreboard
        self.port: int | None = None  # its connection's own port, to find its server process

    def expect(self, label: str) -> None:
        self.seen_at = None
        self.expected = msgpack.packb(label)

    async def run(self, stop: asyncio.Event) -> None:
        async with connect(self.url, additional_headers={"Host": self.host}, max_size=None, open_timeout=TIMEOUT_S) as ws:
            self.port = ws.local_address[1]
            await ws.send(b"\x00" + msgpack.packb([REGISTER_CLIENT, {"session_id": None, "page_name": "", "page": {"route": self.route, "width": 360, "height": 740}}]))
            while not stop.is_set():
                try:
                    data = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                now = time.time() * 1000
                if self.ready in data:  # in, and showing the page
                    self.registered.set()
                if self.expected is not None and self.seen_at is None and self.expected in data:
                    self.seen_at = now
                if data[:1] != b"\x00":
                    continue
                message = msgpack.unpackb(data[1:], strict_map_key=False)
                if message[0] == INVOKE_METHOD:
                    body = message[1]
                    await ws.send(b"\x00" + msgpack.packb([INVOKE_METHOD, {"control_id": body["control_id"], "call_id": body["call_id"], "result": None, "error": None}]))


class LightDevices:
    """The lightweight devices, all in one event loop in a thread of their own: one at each
    route, each in once a frame with ``ready`` (a control's identifier) arrived."""

    def __init__(self, port: int, routes: list[str], ready: bytes):
        self.devices = [LightDevice(f"ws://127.0.0.1:{port}/ws", f"127.0.0.1:{port}", route, ready) for route in routes]
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: list[concurrent.futures.Future] = []

    def join(self) -> None:
        self.thread.start()
        for start in range(0, len(self.devices), JOINING_AT_ONCE):
            batch = self.devices[start:start + JOINING_AT_ONCE]
            self.tasks += [asyncio.run_coroutine_threadsafe(device.run(self.stop), self.loop) for device in batch]
            for device, task in zip(batch, self.tasks[start:]):
                if not device.registered.wait(TIMEOUT_S):
                    raise RuntimeError(f"a device never showed the scoreboard: {task.exception(0) if task.done() else 'no answer'}")

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        for task in self.tasks:
            task.result(TIMEOUT_S)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT_S)


def chromium_phone(chromium, base: str) -> Phone:
    context = chromium.new_context(viewport=PHONE)
    context.add_init_script(NOTE_FRAMES)
    context.set_default_timeout(TIMEOUT_S * 1000)
    return Phone(context.new_page(), base, ROOT, step_timeout_ms=int(TIMEOUT_S * 1000))


def links(log: Path, base: str) -> tuple[str, str]:
    """The join link's query (its code) and the host's own link, without ``base``."""
    join, host = printed_links(log, base)
    return join[join.index("?"):], host


def start(root: Path, port: int, database: str, workers: int, log: Path) -> subprocess.Popen:
    if workers == 1:
        return start_server(root, port, database, log)
    command = [sys.executable, "-m", "companion", "run", "--share", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=root, env=subject_env(root, database), stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while len(processes(process)) < workers + 1 or "?code=" not in log.read_text().split("Host link")[-1]:
        if process.poll() is not None or time.monotonic() > deadline:
            process.terminate()  # a server that did not come up in time is not left running (its workers end with it)
            raise RuntimeError(log.read_text())
        time.sleep(0.1)
    return process


def cpu_s(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system): what the work cost it, however
    loaded the machine, where the wall-clock figures wait for the machine too."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(server: subprocess.Popen) -> None:
    """Ends the server; one that has not closed its many connections within a while is killed."""
    server.terminate()
    try:
        server.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def processes(server: subprocess.Popen) -> list[int]:
    """The server's process and its workers (children)."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return [server.pid, *map(int, children)]


def connections(pid: int, port: int) -> list[int]:
    """The remote ports of the established connections to ``port`` that process ``pid`` holds."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    remote = []
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, peer, state, inode = fields[1], fields[2], fields[3], fields[9]
        if state == "01" and inode in inodes and int(local.split(":")[1], 16) == port:
            remote.append(int(peer.split(":")[1], 16))
    return remote


def run(root: Path, folder: Path, args) -> tuple[dict[str, str], bool]:
    """One evening against checkout ``root``'s server, its database and log in ``folder``: its
    figures (name: value) and whether they meet the targets."""
    database = args.database_url or f"sqlite:///{folder / 'companion.sqlite3'}"
    game = create_game(root, database, args.rounds)  # at most 200 rounds: the last one ends the game
    port = free_port()
    server = start(root, port, database, args.workers, folder / "app.log")
    base = f"http://127.0.0.1:{port}"
    join_query, host_link = links(folder / "app.log", base)
    light = LightDevices(port, [f"/game/{game}{join_query}"] * (args.devices - 1 - args.browsers), b"total-Ann")
    memory: dict[str, float] = {}
    worst, median_device, seen = [], [], []
    rss = lambda: sum(rss_mib(pid) for pid in processes(server))  # noqa: E731
    cpu = lambda: sum(cpu_s(pid) for pid in processes(server))  # noqa: E731
    try:
        time.sleep(1.5)  # the store and screens load in the background after the port opens
        memory["no device"] = rss()
        with sync_playwright() as pw:
            chromium = launch_chromium(pw, folder)
            scorer = chromium_phone(chromium, base)
            scorer.open(host_link)
            scorer.wait("new-game")
            viewers = []
            for _ in range(args.browsers):
                viewer = chromium_phone(chromium, base)
                viewer.open(f"/game/{game}{join_query}")
                viewer.wait("total-Ann")
                viewers.append(viewer)
            light.join()
            scorer.open(f"/game/{game}")
            scorer.wait("enter-round")
            memory["every device joined"] = rss()
            cpu_before = cpu()
            print(f"{len(light.devices)} lightweight devices, {len(viewers)} Chromium viewers and the scorer joined", flush=True)

            ann = 0
            for number in range(1, args.rounds + 1):
                scorer.tap("enter-round")
                scorer.wait("entry-key-0")
                scorer.keys("1111" + "2222")
                ann += 4
                label = f"Ann {ann}"
                for device in light.devices:
                    device.expect(label)
                for viewer in viewers:
                    viewer.page.evaluate(WATCH, ["total-Ann", label])
                scorer.page.evaluate(MARK_PRESS)
                scorer.tap("entry-save")
                for viewer in viewers:
                    viewer.page.wait_for_function("window.__shownAt !== null", timeout=TIMEOUT_S * 1000)
                deadline = time.monotonic() + TIMEOUT_S
                while any(device.seen_at is None for device in light.devices):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"round {number}: a lightweight device never got {label!r}")
                    time.sleep(0.005)
                pressed = scorer.page.evaluate("window.__pressedAt")
                seen.append([device.seen_at - pressed for device in light.devices])
                times = seen[-1] + [viewer.page.evaluate("window.__shownAt") - pressed for viewer in viewers]
                worst.append(max(times))
                median_device.append(statistics.median(times))
                if number < args.rounds:
                    scorer.wait("enter-round")
                if number % 20 == 0 or number in (1, 2, args.rounds):
                    print(f"  round {number}: last device after {max(times):.0f} ms (median device {statistics.median(times):.0f} ms); "
                          f"server RSS {rss():.0f} MiB", flush=True)
            memory[f"after {args.rounds} rounds"] = rss()
            cpu_per_round = (cpu() - cpu_before) / args.rounds
            if args.workers > 1:
                time.sleep(6)  # the scorer's idle HTTP connections closed (uvicorn keeps them 5 s): its websocket stays
                ports = [device.port for device in light.devices]
                held = {pid: connections(pid, port) for pid in processes(server)[1:]}
                scorers = [pid for pid, remote in held.items() if set(remote) - set(ports)]
                where = [next((pid for pid, remote in held.items() if p in remote), None) for p in ports]
            chromium.close()
    finally:
        light.close() if light.thread.is_alive() else None
        stop(server)

    devices = len(light.devices) + len(viewers) + 1
    figures = {
        "devices (lightweight, Chromium viewers, the scorer)": f"{devices} ({len(light.devices)}, {len(viewers)}, 1)",
        "save to the last device, worst (ms)": f"{max(worst):.0f}",
        "save to the last device, median over rounds (ms)": f"{statistics.median(worst):.0f}",
        f"rounds with a device later than {DEVICE_TARGET_MS} ms (which)": late_rounds(worst),
        "the slowest round, its number": str(worst.index(max(worst)) + 1),
        "save to a device, median of medians (ms)": f"{statistics.median(median_device):.0f}",
        f"server CPU time per round{' (all processes)' if args.workers > 1 else ''} (ms)": f"{cpu_per_round * 1000:.0f}",
    }
    for moment, mib in memory.items():
        figures[f"server memory (RSS{', all processes' if args.workers > 1 else ''}), {moment} (MiB)"] = f"{mib:.0f}"
    met = max(worst) < DEVICE_TARGET_MS and max(memory.values()) < MEMORY_TARGET_MIB * args.workers
    if args.workers > 1:
        if len(scorers) != 1:
            print(f"the scorer's process not told apart (held by {scorers}): no figure across processes")
            return figures, False
        figures["lightweight devices per process"] = str([where.count(pid) for pid in held])
        for name, on_other in (("the scorer's process", False), ("the other process", True)):
            chosen = [i for i, pid in enumerate(where) if pid is not None and (pid != scorers[0]) == on_other]
            if not chosen:
                print(f"no lightweight device on {name}")
                continue
            medians = [statistics.median(times[i] for i in chosen) for times in seen]
            lasts = [max(times[i] for i in chosen) for times in seen]
            figures[f"to a device on {name}: median device, median over saves (ms)"] = f"{statistics.median(medians):.0f}"
            figures[f"to a device on {name}: last device, median (ms)"] = f"{statistics.median(lasts):.0f}"
            figures[f"to a device on {name}: last device, worst (ms)"] = f"{max(lasts):.0f}"
            if on_other:
                met = met and statistics.median(medians) < SECOND_PROCESS_TARGET_MS
    return figures, met


def late_rounds(worst: list[float]) -> str:
    """How many rounds reached a device later than the target, and the first few's numbers:
    round 1 (a change of the board's layout) or any round."""
    late = [number for number, ms in enumerate(worst, start=1) if ms >= DEVICE_TARGET_MS]
    shown = ", ".join(map(str, late[:4])) + (", ..." if len(late) > 4 else "")
    return f"{len(late)} ({shown})" if late else "0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--devices", type=int, default=100, help="every device, the scorer included")
    parser.add_argument("--browsers", type=int, default=3, help="how many of the viewers are real Chromium phones")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--database-url", help="e.g. postgresql+psycopg://... (default: a new SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (above 1: PostgreSQL), timed across them")
    parser.add_argument("--baseline", type=Path, help="another checkout of Companion to measure first, side by side")
    args = parser.parse_args()
    if args.workers > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error("--workers needs --database-url of a PostgreSQL database")
    if args.workers > 1 and args.browsers:
        parser.error("--workers finds the scorer's process as the one holding a connection no lightweight device holds: --browsers 0")
    subjects = ([("baseline", args.baseline.resolve())] if args.baseline else []) + [("this checkout", ROOT)]
    results = {}
    for name, root in subjects:
        print(f"{name} ({root}):", flush=True)
        with tempfile.TemporaryDirectory(prefix="club-server-bench-") as folder:
            results[name] = run(root, Path(folder), args)
    print()
    print(f"rounds: {args.rounds}, processes: {args.workers}, database: {(args.database_url or 'sqlite').split(':')[0]}, "
          f"load average {os.getloadavg()[0]:.1f}")
    names = [name for name, _ in subjects]
    print(f"{'':66}" + "".join(f"{name:>16}" for name in names))
    for figure in results["this checkout"][0]:
        print(f"{figure:66}" + "".join(f"{results[name][0].get(figure, '-'):>16}" for name in names))
    print(f"targets: every device < {DEVICE_TARGET_MS} ms, memory < {MEMORY_TARGET_MIB} MiB (per process)"
          + (f", to a device on the other process median < {SECOND_PROCESS_TARGET_MS} ms" if args.workers > 1 else ""))
    return 0 if results["this checkout"][1] else 1


if __name__ == "__main__":
    sys.exit(main())

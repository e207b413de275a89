"""A club server: ``companion run --share --workers 2`` on PostgreSQL, with a host, a scorer
and a viewer. Saves and undos from two scorers reach every device whichever process it is
connected to; then both processes are killed one after the other (the server starts each
again): no confirmed round is lost, every device comes back (to another process) with its
rights, keeps scoring, and ends on exactly the stored scoreboard.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from companion.store import Store
from tests.browser.conftest import OUTPUT, ROOT, start_app
from tests.browser.phone import COUNT_QUIET_FRAMES, FIND, QUERY_ALL, SETTLED, free_port, phones, stop

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def club_database():
    """A fresh PostgreSQL schema (from $COMPANION_TEST_POSTGRES_URL) with a game in progress."""
    base = os.environ.get("COMPANION_TEST_POSTGRES_URL")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("the club server test needs COMPANION_TEST_POSTGRES_URL in CI", pytrace=False)
        pytest.skip("the club server test needs PostgreSQL: COMPANION_TEST_POSTGRES_URL is not set")
    schema = f"club_browser_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    admin.dispose()
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    with Store(url) as store:
        game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 20}).id
    return url, game


@contextlib.contextmanager
def club_server(url: str, game: int, name: str = "club") -> Iterator[dict]:
    """``companion run --share --workers 2`` on the database at ``url``: its address, the join
    link's and the host's routes, ``game``, the URL and the process (stopped after)."""
    port = free_port()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    command = [sys.executable, "-m", "companion", "run", "--share", "--host", "127.0.0.1", "--port", str(port),
               "--workers", "2", "--database-url", url]  # fmt: skip
    process = start_app(command, port, None, log)
    try:
        printed = log.read_text()
        base = f"http://127.0.0.1:{port}"
        join = re.search(r"Join link: (\S+)", printed).group(1)[len(base):]
        host = re.search(r"^\s+(http://\S+\?code=\w{26})$", printed, re.MULTILINE).group(1)[len(base):]
        yield {"base": base, "join": join, "host": host, "game": game, "url": url, "process": process}
    finally:
        stop(process)


@pytest.fixture(scope="module")
def club(club_database, chromium):
    with club_server(*club_database) as started:
        yield started


KEEP_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.__heard = 0;
    socket.addEventListener('message', () => { socket.__heard += 1; });
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
"""Keeps the page's WebSockets at hand, so the test can wait until a page is connected again."""

RECONNECTED = """(before) => {
  const last = window.__sockets[window.__sockets.length - 1];
  return window.__sockets.length > before && last.readyState === 1 && last.__heard > 0;
}"""


STALE = f"""() => {{
  for (const element of ({QUERY_ALL})('*')) element.__stale = true;
}}"""
"""Marks everything the page shows now: a page that reconnects to a new process is drawn
anew, and until then its old controls are still on screen (a tap on them goes nowhere)."""

DRAWN_AGAIN = f"""(identifier) => {{
  const element = ({FIND})(identifier);
  return element !== null && !element.__stale;
}}"""


def workers(process: subprocess.Popen) -> list[int]:
    """The club server's worker processes, as the kernel lists them now (read from /proc:
    a fresh Debian machine need not have ``ps``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == process.pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def kill_a_worker(process: subprocess.Popen, pid: int) -> None:
    """Kill worker ``pid`` as a crash would, and wait until the server has started another."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while pid in workers(process) or len(workers(process)) < 2:
        assert time.monotonic() < deadline, "the club server did not start its worker again"
        time.sleep(0.1)


def stored_totals(url: str, game: int) -> tuple[int, int]:
    with Store(url) as store:
        totals = store.open_game(game).game.totals
    return totals["Ann"], totals["Bob"]


def enter(phone, digits: str, next_round: int) -> None:
    phone.tap("enter-round")
    phone.wait("entry-key-0")
    phone.keys(digits)
    phone.tap("entry-save")
    phone.expect_text("enter-round", f"Enter round {next_round}")


def test_every_device_follows_two_scorers_and_comes_back_after_both_processes_died(club, chromium, output_dir):
    game = club["game"]
    with phones(chromium, output_dir) as open_phone:
        host, scorer, viewer = (open_phone(club["base"]) for _ in range(3))
        for phone in (host, scorer, viewer):
            phone.page.add_init_script(KEEP_SOCKETS)
            phone.page.add_init_script(COUNT_QUIET_FRAMES)
        host.open(club["host"])
        host.wait("new-game")
        scorer.open(club["join"])
        scorer.wait("nav-history")
        viewer.open(club["join"])
        viewer.wait("nav-history")
        host.open("/share")
        host.expect_text("device-2", "Watches")
        host.tap("grant-2")
        host.expect_text("device-2", "Keeps score")
        for phone in (host, scorer, viewer):
            phone.open(f"/game/{game}")
            phone.wait("total-Ann")

        enter(scorer, "3141" + "5926", 2)  # Ann 9, Bob 22
        enter(host, "1111" + "2222", 3)  # Ann 13, Bob 30
        scorer.expect_text("enter-round", "Enter round 3")
        scorer.tap("undo")  # takes back the host's round
        host.expect_text("enter-round", "Enter round 2")
        enter(host, "2222" + "3333", 3)  # Ann 17, Bob 34
        for phone in (host, scorer, viewer):
            phone.expect_text("total-Ann", "Ann 17")
            phone.expect_text("total-Bob", "Bob 34")

        sockets = {phone: phone.page.evaluate("window.__sockets.length") for phone in (host, scorer, viewer)}
        scorer.page.evaluate(STALE)
        killed = workers(club["process"])
        for pid in killed:  # every device now on a process it was not on before
            kill_a_worker(club["process"], pid)
        assert stored_totals(club["url"], game) == (17, 34)  # no confirmed round lost
        printed = club["process"].log.read_text()
        for pid in killed:  # and the host reads of it in the terminal
            assert f"companion: server process {pid} ended (stopped by SIGKILL); a new one takes its place" in printed
        for phone, before in sockets.items():
            phone.page.wait_for_function(RECONNECTED, arg=before, timeout=120_000)

        scorer.until(DRAWN_AGAIN, "enter-round")  # the new process's page, not the old one still on screen
        scorer.expect_text("enter-round", "Enter round 3")  # back, still allowed to keep score
        scorer.until(SETTLED)  # the new session's start has arrived whole: its language, theme and drafts asked for
        enter(scorer, "4444" + "5555", 4)  # Ann 33, Bob 54
        for phone in (host, scorer, viewer):
            phone.expect_text("total-Ann", "Ann 33")
            phone.expect_text("total-Bob", "Bob 54")
        assert viewer.el("enter-round").count() == 0  # and the viewer still only watches
        assert stored_totals(club["url"], game) == (33, 54)

"""Every benchmark the README names runs, at its smallest, as the README runs it.

A benchmark is run by hand, now and then, so a change elsewhere (a helper it shares with the
browser tests, a function it imports from another benchmark) can break it unseen: two of the
README's commands failed that way before these runs existed. Nothing here is timed; each run
must end with its table of figures and no traceback, and leave nothing in the temporary
folder (its databases and logs were left there after every run). A benchmark exits 1 when a
target is missed, as it may on this machine, so the exit code alone cannot tell a crash.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BROWSER = pytest.mark.browser
POSTGRES = pytest.mark.postgres
ITSELF = "{root}"
"""Stands for this checkout, given as its own baseline: the README's side-by-side runs."""
DATABASE = "{database}"
"""Stands for an empty PostgreSQL schema of its own, from the store tests' server (tests/store/conftest.py)."""

RUNS = {
    "rules_replay.py": (["--repeat", "1"], "members_only", ()),
    "store_bench.py": (["--games", "20", "--repeat", "2"], "one player's statistics", ()),
    "club_bench.py": (["--players", "16", "--saves", "2"], "save + ranking taken in", ()),
    "update_bench.py": (["--viewers", "1"], "the scorer's save: Python function calls", ()),
    "ui_bench.py": (["--runs", "1", "--baseline", ITSELF, "--link-delay", "20"], "save to scoreboard", (BROWSER,)),
    "share_bench.py": (["--viewers", "1", "--rounds", "2", "--baseline", ITSELF], "save to the last viewer's screen, median", (BROWSER,)),
    "club_server_bench.py": (
        ["--devices", "3", "--browsers", "1", "--rounds", "2", "--baseline", ITSELF], "save to the last device, median over rounds", (BROWSER,)
    ),
    "club_event_bench.py": (
        ["--tables", "2", "--browsers", "1", "--saves", "1", "--database-url", DATABASE], "save to the big screen's ranking, median", (BROWSER, POSTGRES)
    ),
    "phone_bench.py": (["--runs", "1", "--baseline", ITSELF], "later visit", (BROWSER,)),
}
"""Each benchmark: its smallest arguments, a line of its table of figures, its needs."""


def test_every_benchmark_the_readme_names_is_run_here():
    named = set(re.findall(r"bench/(\w+\.py)", (ROOT / "README.md").read_text()))
    assert named == set(RUNS)


@pytest.mark.parametrize("script", [pytest.param(script, marks=marks, id=script[:-3]) for script, (_args, _line, marks) in RUNS.items()])
def test_the_benchmark_runs_to_its_figures_and_leaves_nothing_behind(script):
    arguments, line, marks = RUNS[script]
    if BROWSER in marks:
        from tests.browser.conftest import _need_chromium

        _need_chromium()
    database = ""
    if POSTGRES in marks:
        from tests.store.conftest import _fresh, _postgres_url

        database = _postgres_url("bench", _fresh)  # an empty schema of this worker's, as the store tests get
    command = [sys.executable, str(ROOT / "bench" / script), *(a.format(root=ROOT, database=database) for a in arguments)]
    # a folder of its own, its path short: Chromium's socket in it must fit a Unix socket's
    # 108 bytes, which pytest's tmp_path under xdist does not
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "TMPDIR": folder})
        left = list(Path(folder).iterdir())
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    assert done.returncode in (0, 1), done.stderr[-4000:]  # 1: a target missed on this machine
    assert line in done.stdout, done.stdout[-4000:]
    assert left == []


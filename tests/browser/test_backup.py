"""A phone's history moves to another device and back: Back up on one, Restore on the other.

Two apps, each with its own database: the old phone has a finished game of Beverbende, the
new one has nothing. Back up on the old phone is a download (a phone's browser has no
path to give); Restore on the new one is a file the player picks; the game, with its
rounds, is then in the new phone's history. A file that is not a backup is refused with
one sentence and changes nothing.
"""

from __future__ import annotations

import os
import sys

import pytest

from companion.store import Store
from tests.browser.conftest import OUTPUT, PHONE, STEP_TIMEOUT_MS, Phone, free_port, start_app, stop
from tests.store.games import beverbende

pytestmark = pytest.mark.browser

ROUNDS = [{"Ann": 12, "Bob": 20}] * 4
"""The old phone's game: four rounds, Ann 48 and Bob 80 in the end (lowest wins)."""


def companion_run(tmp_path_factory, name: str, fill=None) -> tuple:
    """``companion run`` on a free port over a database of its own (``fill`` puts games in it)."""
    database = tmp_path_factory.mktemp(name) / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        if fill is not None:
            fill(store)
    port = free_port()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    process = start_app([sys.executable, "-m", "companion", "run", "--port", str(port)], port, database, log)
    return process, f"http://127.0.0.1:{port}", database


@pytest.fixture(scope="module")
def old_and_new_phone(tmp_path_factory, chromium):
    """The addresses of the two apps, and the new phone's database to look into."""
    old, old_url, _ = companion_run(tmp_path_factory, "old-phone", lambda store: beverbende(store, ROUNDS))
    new, new_url, new_database = companion_run(tmp_path_factory, "new-phone")
    yield old_url, new_url, new_database
    stop(old)
    stop(new)


@pytest.fixture
def devices(chromium, output_dir):
    contexts = []

    def open_phone(url: str) -> Phone:
        context = chromium.new_context(viewport=PHONE, accept_downloads=True)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        contexts.append(context)
        return Phone(context.new_page(), url, output_dir)

    yield open_phone
    for context in contexts:
        context.close()


def restore(phone: Phone, path) -> None:
    """Tap Restore and pick ``path`` in the browser's file chooser."""
    with phone.page.expect_file_chooser() as chooser:
        phone.tap("restore")
    chooser.value.set_files(str(path))


def saved_games(database) -> list[tuple]:
    with Store(f"sqlite:///{database}") as store:
        return [(s.ruleset, s.players, s.status, s.rounds_played) for s in store.history(page_size=100)]


def test_a_backup_downloaded_on_one_phone_restores_its_games_on_another(old_and_new_phone, devices, tmp_path):
    old_url, new_url, new_database = old_and_new_phone
    old = devices(old_url)
    old.open("/settings")
    with old.page.expect_download() as download:
        old.tap("back-up")
    backup = tmp_path / download.value.suggested_filename
    download.value.save_as(backup)
    assert backup.name.startswith("companion-backup-") and backup.suffix == ".json"
    old.expect_text("backup-done", f"Saved a backup of every game and player as {backup.name}")

    assert saved_games(new_database) == []
    new = devices(new_url)
    new.open("/settings")
    restore(new, backup)
    new.expect_text("backup-done", r"Imported 1 game and 2 new players; 0 games already here\.")
    new.screenshot("backup-restored")

    new.open("/history")
    new.expect_text("game-1", "Ann won")
    new.tap("game-1")
    new.wait("round-4")
    new.expect_text("total-Ann", "48")
    new.expect_text("total-Bob", "80")


def test_a_file_that_is_not_a_backup_is_refused_and_changes_nothing(old_and_new_phone, devices, tmp_path):
    _old_url, new_url, new_database = old_and_new_phone
    before = saved_games(new_database)
    notes = tmp_path / "notes.txt"
    notes.write_text("Ann 12, Bob 20\n", encoding="utf-8")
    new = devices(new_url)
    new.open("/settings")
    restore(new, notes)
    new.expect_text("backup-refused", r"notes\.txt is not a Companion backup")
    new.screenshot("backup-refused")
    assert saved_games(new_database) == before

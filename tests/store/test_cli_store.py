"""The store's command line: export, import, history and stats."""

from __future__ import annotations

import argparse
import json

import pytest

from companion.cli_store import add_store_commands
from companion.store import Store
from tests.store.games import beverbende, klaverjassen_boompje


def run(url: str, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_store_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args([*argv, "--database-url", url])
    return args.handler(args)


@pytest.fixture
def filled(store_url) -> str:
    with Store(store_url) as store:
        beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
        klaverjassen_boompje(store, us=100)
        store.create_game("clubs", ["Ann", "Bob", "Cy"])
    return store_url


def test_history_prints_a_table_newest_first(filled, capsys):
    assert run(filled, "history") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "Date", "Game", "Status", "Rounds", "Result"]
    assert [line.split()[0] for line in lines[1:]] == ["3", "2", "1"]
    assert lines[3].endswith("Ann 40*, Bob 80") and "Beverbende" in lines[3] and "finished" in lines[3]
    assert "in progress" in lines[1]


def test_history_filters_and_pages(filled, capsys):
    assert run(filled, "history", "--player", "Cy", "--status", "finished") == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]] == ["2"]
    assert run(filled, "history", "--page", "2", "--page-size", "2") == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]] == ["1"]
    assert run(filled, "history", "--page", "3", "--page-size", "2") == 0
    assert capsys.readouterr().out == "No games on page 3.\n"


def test_stats_prints_each_game_and_head_to_head(filled, capsys):
    assert run(filled, "stats", "Ann", "--against", "Bob") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Ann: 2 finished games, 2 wins (100%)"
    assert out[2].split() == ["Klaverjassen", "1", "1", "100%", "2096.0", "2096"]
    assert out[3].split() == ["Beverbende", "*", "1", "1", "100%", "40.0", "40"]
    assert out[-1] == "Ann against Bob: 2 finished games together; Ann won 2, Bob won 0, both won 0."


def test_unknown_player_is_a_message_and_exit_code_1(filled, capsys):
    assert run(filled, "stats", "Zed") == 1
    captured = capsys.readouterr()
    assert captured.err == "companion: There is no saved player called 'Zed'.\n" and captured.out == ""


def test_export_and_import_round_trip(filled, tmp_path, capsys):
    assert run(filled, "export", str(tmp_path / "backup.json")) == 0
    assert json.loads((tmp_path / "backup.json").read_text())["format"] == "companion-backup"
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    assert run(other, "import", str(tmp_path / "backup.json")) == 0
    assert run(other, "import", str(tmp_path / "backup.json")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        "Imported 3 games and 4 new players; 0 games already here.",
        "Imported 0 games and 0 new players; 3 games already here.",
    ]


def test_export_csv_of_one_game(filled, tmp_path, capsys):
    assert run(filled, "export", str(tmp_path / "game.csv"), "--game", "1") == 0
    assert len((tmp_path / "game.csv").read_text().splitlines()) == 1 + 4 * 2
    assert run(filled, "export", str(tmp_path / "game.json"), "--game", "1") == 1
    assert "--game works with a .csv file only" in capsys.readouterr().err


def test_import_of_a_broken_file_changes_nothing(filled, tmp_path, capsys):
    (tmp_path / "broken.json").write_text("{")
    assert run(filled, "import", str(tmp_path / "broken.json")) == 1
    assert "is not a Companion backup" in capsys.readouterr().err
    with Store(filled) as store:
        assert len(store.history()) == 3


def test_a_file_that_is_not_a_database_is_one_line_not_a_traceback(tmp_path, capsys):
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all " * 100)
    assert run(f"sqlite:///{tmp_path / 'junk.sqlite3'}", "history") == 1
    assert capsys.readouterr().err.count("\n") == 1

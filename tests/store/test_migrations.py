"""Schema upgrades on open, and databases the store must refuse with a clear message."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from companion.store import Store, StoreError
from companion.store.database import MIGRATIONS, database_url, make_engine, upgrade
from companion.store.models import METADATA

HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()
FIRST = "0001"
WHEN = datetime(2025, 3, 1, 19, 30, tzinfo=timezone.utc)


def _first_schema_with_data(url: str) -> None:
    """What Companion's first schema held: two players, a finished game and one in progress."""
    engine = make_engine(make_url(url))
    upgrade(engine, make_url(url), revision=FIRST)
    json_params = [sa.bindparam(name, type_=sa.JSON) for name in ("options", "seating", "entry")]
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO players (id, name, created_at) VALUES (1, 'Ann', :t), (2, 'Bob', :t)"), {"t": WHEN})
        insert_game = sa.text(
            "INSERT INTO games (id, uuid, ruleset, options, seating, teams, status, created_at, finished_at, note, location, version)"
            " VALUES (:id, :uuid, 'beverbende', :options, :seating, NULL, :status, :t, :finished, '', 'home', :version)"
        ).bindparams(*json_params[:2])
        insert_seat = sa.text("INSERT INTO game_players (game_id, player_id, seat) VALUES (:game, :player, :seat)")
        insert_round = sa.text(
            "INSERT INTO rounds (game_id, position, entry, entered_at, edited_at) VALUES (:game, :position, :entry, :t, NULL)"
        ).bindparams(json_params[2])
        options = {"ending": "seed", "rounds": 5}
        for game_id, rounds, status in ((1, 4, "finished"), (2, 1, "in_progress")):
            conn.execute(insert_game, {
                "id": game_id, "uuid": f"00000000-0000-4000-8000-00000000000{game_id}", "options": options,
                "seating": ["Ann", "Bob"], "status": status, "t": WHEN,
                "finished": WHEN if status == "finished" else None, "version": rounds + 1,
            })
            conn.execute(insert_seat, [{"game": game_id, "player": 1, "seat": 0}, {"game": game_id, "player": 2, "seat": 1}])
            conn.execute(insert_round, [
                {"game": game_id, "position": i, "entry": {"totals": {"Ann": 10 + i, "Bob": 20}}, "t": WHEN} for i in range(rounds)
            ])
    engine.dispose()


def test_a_database_of_the_first_schema_is_upgraded_with_its_data_intact(database_url):
    _first_schema_with_data(database_url)
    with Store(database_url) as store:
        finished, open_game = store.history()[::-1]
        assert (finished.status, finished.totals, finished.winners, finished.rounds_played) == (
            "finished", {"Ann": 46, "Bob": 80}, ["Ann"], 4,
        )
        assert (open_game.status, open_game.totals, open_game.location) == ("in_progress", {"Ann": 10, "Bob": 20}, "home")
        assert store.player_stats("Ann").by_ruleset["beverbende"].best == 46
        record = store.open_game(2)
        assert record.created_at == WHEN and record.version == 2
        record = store.add_round(2, {"totals": {"Ann": 1 + 10, "Bob": 20}}, expected_version=2)
        assert record.game.totals == {"Ann": 21, "Bob": 40}
        engine = make_engine(make_url(database_url))
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == HEAD
        engine.dispose()


def test_a_saved_game_the_rules_now_refuse_does_not_block_the_others(database_url):
    _first_schema_with_data(database_url)
    engine = make_engine(make_url(database_url))
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE rounds SET entry = :entry WHERE game_id = 2").bindparams(sa.bindparam("entry", type_=sa.JSON)),
            {"entry": {"totals": {"Ann": 99, "Bob": 20}}},
        )
    engine.dispose()
    with Store(database_url) as store:
        assert store.open_game(1).game.winners == ["Ann"]
        with pytest.raises(StoreError, match="Saved game number 2 no longer passes the rules: .*Ann"):
            store.open_game(2)
        assert [s.rounds_played for s in store.history()] == [0, 4]


def test_the_tables_match_the_migrations(store_url):
    """The models and the newest migration describe the same schema (nothing to autogenerate)."""
    Store(store_url).close()
    engine = make_engine(make_url(store_url))
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), METADATA) == []
    engine.dispose()


def test_opening_a_current_database_changes_nothing(store_url):
    with Store(store_url) as store:
        store.create_game("beverbende", ["Ann", "Bob"])
    with Store(store_url) as store:
        assert len(store.history()) == 1


def test_a_database_from_a_newer_companion_is_refused(database_url):
    Store(database_url).close()
    engine = make_engine(make_url(database_url))
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'ffff'"))
    engine.dispose()
    with pytest.raises(StoreError, match="written by a newer version of Companion"):
        Store(database_url)


def test_a_database_holding_other_tables_is_refused(database_url):
    engine = make_engine(make_url(database_url))
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title VARCHAR(50))"))
    engine.dispose()
    with pytest.raises(StoreError, match="already holds other data \\(recipes\\) and is not a Companion database"):
        Store(database_url)
    engine = make_engine(make_url(database_url))
    assert sa.inspect(engine).get_table_names() == ["recipes"]
    engine.dispose()


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.sqlite3"
    content = b"Shopping list: milk, eggs, cards.\n" * 200
    path.write_bytes(content)
    with pytest.raises(StoreError, match="notes.sqlite3 is not a Companion database \\(it is not a database at all"):
        Store(f"sqlite:///{path}")
    assert path.read_bytes() == content


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="Cannot open .*the folder is missing"):
        Store(f"sqlite:///{tmp_path / 'missing' / 'companion.sqlite3'}")


def test_an_unreachable_server_is_a_clear_error_that_names_it_only_to_whoever_runs_the_server():
    """The command line and the server's terminal get the database and the driver's words (the
    password hidden); a device's page gets a sentence: it has no use for the server's address."""
    with pytest.raises(StoreError) as refused:
        Store("postgresql+psycopg://nobody:secret@127.0.0.1:9/nothing")
    assert refused.value.message == "The database does not answer just now. Try again in a moment."
    assert refused.value.detail.startswith("Cannot reach the database at postgresql+psycopg://nobody:***@127.0.0.1:9/nothing: ")
    assert "secret" not in refused.value.detail


def test_an_address_that_is_no_url_is_a_clear_error():
    with pytest.raises(StoreError, match="not a database address"):
        Store("just some words")


def test_sqlite_files_use_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with Store(f"sqlite:///{path}") as store:
        store.create_game("beverbende", ["Ann", "Bob"])
        with store._engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_foreign_keys_hold_on_every_backend(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    with pytest.raises(sa.exc.IntegrityError):
        with store._engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO game_players (game_id, player_id, seat) VALUES (:g, 999, 5)"), {"g": record.id})
    assert store.open_game(record.id).game.players == ("Ann", "Bob")


def test_the_database_setting_chooses_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'chosen.sqlite3'}")
    assert database_url().database == str(tmp_path / "chosen.sqlite3")
    monkeypatch.delenv("COMPANION_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url().database == str(tmp_path / "data" / "companion" / "companion.sqlite3")
    assert (tmp_path / "data" / "companion").is_dir()
    with Store() as store:
        store.add_player("Ann")
    assert (tmp_path / "data" / "companion" / "companion.sqlite3").exists()


def test_backup_times_survive_the_upgrade(database_url, tmp_path):
    _first_schema_with_data(database_url)
    with Store(database_url) as store:
        store.export_json(tmp_path / "backup.json")
    game = json.loads((tmp_path / "backup.json").read_text())["games"][0]
    assert game["created_at"] == WHEN.isoformat() and game["rounds"][0]["entered_at"] == WHEN.isoformat()


def test_the_quick_schema_check_knows_the_same_newest_revision_as_alembic():
    """Opening an up-to-date database skips Alembic by reading the migration files itself;
    that shortcut must name the same head Alembic would."""
    from companion.store import database

    assert database._newest_revision() == ScriptDirectory(str(database.MIGRATIONS)).get_current_head()

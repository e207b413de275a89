"""Every input the store takes gets a success or a refusal in one sentence (StoreError or
RuleError), on SQLite as on PostgreSQL, and a refusal changes nothing."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest
import sqlalchemy as sa

from companion.rules import RuleError
from companion.store import NotFoundError, Store, StoreError
from tests.store.games import beverbende, play
from tests.store.test_cli_store import run

UUID = "0b5e2a6c-6b1a-4c52-9a36-2f4f4b0a7f11"
WHEN = "2024-05-01T20:00:00+00:00"


def backup_of(**game) -> str:
    """A backup holding one CLUBS game, with ``game``'s fields replacing the defaults."""
    one = {
        "uuid": UUID, "ruleset": "clubs", "players": ["Ann", "Bob", "Cy"], "options": {}, "teams": None,
        "status": "in_progress", "created_at": WHEN, "finished_at": None, "note": "", "location": "",
        "rounds": [],
    }
    one.update(game)
    return json.dumps(
        {"format": "companion-backup", "version": 1, "exported_at": WHEN, "players": [], "games": [one]}
    )


def a_round(entry: dict, entered_at: str = WHEN) -> dict:
    return {"entry": entry, "entered_at": entered_at, "edited_at": None}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


HOSTILE_BACKUPS = {
    "JSON nested 100,000 deep": nested(100_000),
    "JSON nested 500 deep": nested(500),
    "a round entry nested 30 deep": backup_of(rounds=[a_round({"out_order": json.loads(nested(30))})]),
    "a number of 5,000 digits": '{"format": "companion-backup", "version": ' + "9" * 5000 + "}",
    "a time past the year 9999 in UTC": backup_of(created_at="9999-12-31T23:59:59-23:59"),
    "a time in the year 1": backup_of(created_at="0001-01-01T00:00:00+00:00"),
    "a time in the year 9999": backup_of(rounds=[a_round({"out_order": ["Ann", "Bob"]}, "9999-06-01T00:00:00+00:00")]),
    "a lone surrogate in a name": backup_of(players=["Ann\ud800", "Bob", "Cy"]),
    "a lone surrogate in the note": backup_of(note="\udfff"),
    "a NUL in the place": backup_of(location="Cafe\x00"),
    "an ANSI escape in a name": backup_of(players=["\x1b[2J\x1b[31mAnn", "Bob", "Cy"]),
    "a name of 10 MB": backup_of(players=["A" * 10_000_000, "Bob", "Cy"]),
    "club points of 10^19": backup_of(rounds=[a_round({"out_order": ["Ann", "Bob"], "club_points": {"Ann": 10**19}})]),
    "a target of 10^19": backup_of(options={"target": 10**19}),
}


def write(tmp_path, text: str):
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@pytest.mark.parametrize("text", HOSTILE_BACKUPS.values(), ids=HOSTILE_BACKUPS.keys())
def test_import_refuses_a_hostile_backup_in_one_sentence_and_changes_nothing(store_url, tmp_path, capsys, text):
    path = write(tmp_path, text)
    assert run(store_url, "import", str(path)) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("companion: ") and err.count("\n") == 1
    assert len(err) < 600  # the value is quoted briefly, if at all
    with Store(store_url) as store:
        assert store.history() == [] and store.players() == []


def test_a_time_in_the_year_1_saved_before_is_still_listed_in_new_york(store_url, capsys, monkeypatch):
    """History shows such a time in UTC rather than crashing on the local zone."""
    with Store(store_url) as store:
        beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET created_at = :t"), {"t": "0001-01-01 00:00:00"})
    engine.dispose()
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert run(store_url, "history") == 0
    finally:
        monkeypatch.undo()
        time.tzset()
    assert "0001-01-01 00:00 UTC" in capsys.readouterr().out


# --- the Store API ------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", [2**31, 2**63 - 1, 2**63, 10**20, -(2**63) - 1, 0])
def test_a_game_id_beyond_what_a_database_holds_is_no_saved_game(store, game_id):
    for call in (
        lambda: store.open_game(game_id),
        lambda: store.add_round(game_id, {"totals": {"Ann": 1}}, expected_version=1),
        lambda: store.abandon(game_id),
        lambda: store.reopen(game_id, expected_version=2**70),
    ):
        with pytest.raises(NotFoundError, match="There is no saved game number"):
            call()


def test_head_to_head_with_a_name_that_is_not_text_is_no_saved_player(store):
    store.add_player("Ann")
    for name, other in ((5, "Ann"), ("Ann", None), (["Ann"], "Ann")):
        with pytest.raises(NotFoundError):
            store.head_to_head(name, other)


@pytest.mark.parametrize("name", ["Ann\ud800", "\udfff", "Ann\x00", "A" * 101, "\x1b[31mAnn"])
def test_looking_up_a_name_no_player_can_have_finds_no_one(store, name):
    store.add_player("Ann")
    for call in (lambda: store.player_stats(name), lambda: store.head_to_head(name, "Ann"),
                 lambda: store.history(player=name)):
        with pytest.raises(NotFoundError):
            call()


def test_a_page_far_past_the_last_game_is_empty(store):
    beverbende(store, [{"Ann": 10, "Bob": 20}])
    assert store.history(page=2**63, page_size=1000) == []


@pytest.mark.parametrize("points", [2**63, 2**64, 10**19])
def test_points_of_2_to_the_63_or_more_are_refused_by_the_rules(store, points):
    game = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    with pytest.raises(RuleError):
        store.add_round(game.id, {"out_order": ["Ann", "Bob"], "club_points": {"Ann": points}}, expected_version=1)
    bever = store.create_game("beverbende", ["Ann", "Bob"])
    with pytest.raises(RuleError):
        store.add_round(bever.id, {"totals": {"Ann": points, "Bob": 1}}, expected_version=1)
    assert store.open_game(game.id).game.rounds == [] and store.open_game(bever.id).game.rounds == []


@pytest.mark.parametrize(
    "entry",
    [
        json.loads(nested(50)),
        {"totals": {"Ann": float("nan"), "Bob": 1}},
        {"totals": {"Ann": 10**5000, "Bob": 1}},
        {"totals": {"Ann": 10, "Bob": 20}, "why": object()},
    ],
    ids=["nested 50 deep", "not a number", "5000 digits", "not JSON"],
)
def test_a_round_entry_that_is_no_plain_data_is_refused(store, entry):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    with pytest.raises(RuleError):
        store.add_round(game.id, {"totals": entry} if isinstance(entry, list) else entry, expected_version=1)
    assert store.open_game(game.id).version == 1


# --- what is stored: lengths, characters, numbers ------------------------------------------------

UNSAVEABLE = {
    "a lone surrogate": "Ann\ud800",
    "a NUL character": "Ann\x00",
    "an ANSI escape": "\x1b[31mAnn",
    "a text-reordering mark": "Ann\u202e",
}


@pytest.mark.parametrize("name", UNSAVEABLE.values(), ids=UNSAVEABLE.keys())
def test_a_name_with_a_character_no_database_should_keep_is_refused(store, name):
    with pytest.raises(StoreError, match="cannot hold the character"):
        store.add_player(name)
    with pytest.raises(StoreError, match="cannot hold the character"):
        store.create_game("beverbende", [name, "Bob"])
    with pytest.raises(StoreError, match="cannot hold the character"):
        store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"], teams={name: ["Ann", "Cy"], "B": ["Bob", "Dee"]})
    assert store.players() == [] and store.history() == []


@pytest.mark.parametrize("text", ["Cafe\ud800", "Cafe\x00", "\x1b]0;pwned\x07"])
def test_a_note_or_place_with_a_character_no_database_should_keep_is_refused(store, text):
    for setup in ({"note": text}, {"location": text}):
        with pytest.raises(StoreError, match="cannot hold the character"):
            store.create_game("beverbende", ["Ann", "Bob"], **setup)
    assert store.history() == []


def test_a_note_may_have_several_lines():
    with Store.memory() as store:
        assert store.create_game("beverbende", ["Ann", "Bob"], note="first\n\tsecond\r\n").note == "first\n\tsecond\r\n"


@pytest.mark.parametrize(
    "setup, limit",
    [
        ({"players": ["A" * 101, "Bob"]}, 100),
        ({"players": ["Ann", "Bob"], "note": "n" * 1001}, 1000),
        ({"players": ["Ann", "Bob"], "location": "p" * 101}, 100),
    ],
)
def test_names_notes_and_places_have_a_maximum_length(store, setup, limit):
    with pytest.raises(StoreError, match=f"at most {limit} characters"):
        store.create_game("beverbende", **setup)
    at_limit = {k: [v[0][:limit], "Bob"] if k == "players" else v[:limit] for k, v in setup.items()}
    store.create_game("beverbende", **at_limit)


def test_a_refusal_quotes_at_most_a_short_part_of_a_10_mb_value(store):
    huge = "x" * 10_000_000
    refusals = []
    for call in (
        lambda: store.add_player(huge),
        lambda: store.create_game("beverbende", ["Ann", huge[:50] + "\x1b"]),
        lambda: store.create_game("beverbende", ["Ann", "Bob"], note=huge),
        lambda: store.create_game("clubs", ["Ann", "Bob", "Cy"], options={huge: 1}),
        lambda: store.create_game("beverbende", [huge, huge]),
        lambda: store.player_stats(huge),
    ):
        with pytest.raises((StoreError, RuleError)) as err:
            call()
        refusals.append(str(err.value))
    assert all(len(message) < 300 for message in refusals), [len(m) for m in refusals]
    assert "\x1b" not in "".join(refusals)


def test_a_total_beyond_what_postgresql_holds_is_refused_on_every_backend(store, monkeypatch):
    """No real game gets near 2^31 points: the limit is lowered to reach it in a few rounds."""
    monkeypatch.setattr("companion.store.service.LARGEST_TOTAL", 30)
    game = beverbende(store, [{"Ann": 20, "Bob": 1}], options={"ending": "rounds", "rounds": 3})
    with pytest.raises(StoreError, match="a total must stay between -30 and 30"):
        store.add_round(game.id, {"totals": {"Ann": 20, "Bob": 1}}, expected_version=game.version)
    assert store.open_game(game.id).game.totals == {"Ann": 20, "Bob": 1}


# --- export always writes every game ----------------------------------------------------------


def break_a_saved_round(url: str, game_id: int) -> None:
    """What an older Companion with looser rules could have saved: a round the rules now refuse."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE rounds SET entry = :entry WHERE game_id = :id AND position = 0"),
            {"entry": json.dumps({"totals": {"Ann": 999, "Bob": 1}}), "id": game_id},
        )
    engine.dispose()


def test_export_writes_every_games_raw_entries_and_names_the_ones_the_rules_refuse(store_url, tmp_path, capsys):
    with Store(store_url) as store:
        good = beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
        broken = play(store, "beverbende", ["Ann", "Bob"], [{"totals": {"Ann": 30, "Bob": 4}}])
    break_a_saved_round(store_url, broken.id)
    path = tmp_path / "backup.json"
    assert run(store_url, "export", str(path)) == 0
    out, err = capsys.readouterr()
    assert f"Saved game number {broken.id} no longer passes the rules" in err and err.count("\n") == 1
    games = {g["uuid"]: g for g in json.loads(path.read_text(encoding="utf-8"))["games"]}
    assert [r["entry"] for r in games[broken.uuid]["rounds"]] == [{"totals": {"Ann": 999, "Bob": 1}}]
    assert len(games[good.uuid]["rounds"]) == 4


# --- a damaged database ------------------------------------------------------------------------


def test_two_rows_in_alembic_version_are_one_sentence_on_open(database_url):
    Store(database_url).close()
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO alembic_version (version_num) VALUES ('0001')"))
    engine.dispose()
    with pytest.raises(StoreError, match="records more than one schema version"):
        Store(database_url)


@pytest.mark.parametrize("column", ["games.options", "games.seating", "games.totals", "rounds.entry"])
def test_broken_json_in_a_column_is_one_sentence(tmp_path, column):
    """Only SQLite keeps JSON as text another program can break (PostgreSQL checks it)."""
    path = tmp_path / "companion.sqlite3"
    with Store(f"sqlite:///{path}") as store:
        beverbende(store, [{"Ann": 10, "Bob": 20}])
    table, name = column.split(".")
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE {table} SET {name} = '{{broken'")
        if table == "games":
            conn.execute("UPDATE games SET rounds_played = NULL")  # rebuilt on open
    with pytest.raises(StoreError, match="is damaged: a saved value is not valid JSON") as err:
        with Store(f"sqlite:///{path}") as store:
            store.history()
            store.open_game(1)
    assert str(path) in str(err.value)

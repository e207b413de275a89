"""Backup to JSON and back, and the CSV round table."""

from __future__ import annotations

import csv
import json

import pytest

from companion.rules.club import PrizeRule
from companion.store import Store, StoreError
from companion.store.club import Evenings
from tests.store.games import beverbende, klaverjassen_boompje, members_only_one_hand, play


def _fill(store: Store) -> None:
    beverbende(store, [{"Ann": 12, "Bob": 20}] * 4, note="birthday", location="Cafe")
    klaverjassen_boompje(store, us=100)
    members_only_one_hand(store)
    edited = beverbende(store, [{"Ann": 12, "Bob": 20}, {"Ann": 9, "Bob": 9}])
    store.edit_round(edited.id, 1, {"totals": {"Ann": 30, "Bob": 9}}, expected_version=edited.version)
    abandoned = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    store.abandon(abandoned.id)
    store.add_player("Zoe")


def _rounds(store: Store) -> dict[str, tuple]:
    """Everything a game is, by uuid: status, times, note, setup and the raw rounds with their times."""
    result = {}
    for summary in store.history(page_size=1000):
        record = store.open_game(summary.id)
        result[record.uuid] = (
            record.status, record.created_at, record.finished_at, record.note, record.location,
            record.game.players, record.game.teams, dict(record.game.options), record.game.rounds,
            record.round_times, summary.totals, summary.winners,
        )
    return result


def test_export_then_import_into_an_empty_store_restores_everything(store, tmp_path):
    _fill(store)
    path = tmp_path / "backup.json"
    store.export_json(path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"], len(document["games"])) == ("companion-backup", 1, 5)
    with Store.memory() as other:
        report = other.import_json(path)
        assert (report.games_added, report.games_skipped, report.players_added) == (5, 0, 5)
        assert _rounds(other) == _rounds(store)
        assert [p.name for p in other.players()] == [p.name for p in store.players()]
        assert other.player_stats("Ann") == store.player_stats("Ann")


def test_importing_the_same_backup_twice_adds_nothing(store, tmp_path):
    _fill(store)
    path = tmp_path / "backup.json"
    store.export_json(path)
    before = _rounds(store)
    report = store.import_json(path)
    assert (report.games_added, report.games_skipped, report.players_added) == (0, 5, 0)
    assert _rounds(store) == before and len(store.players()) == 5


def test_import_merges_players_by_name(store, tmp_path):
    with Store.memory() as other:
        beverbende(other, [{"Ann": 12, "Dan": 20}] * 4)
        other.export_json(tmp_path / "other.json")
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
    report = store.import_json(tmp_path / "other.json")
    assert (report.games_added, report.players_added) == (1, 1)
    assert [p.name for p in store.players()] == ["Ann", "Bob", "Dan"]
    assert store.player_stats("Ann").played == 2
    assert store.head_to_head("Ann", "Dan").games_together == 1


def test_a_backup_as_bytes_is_the_file_and_restores_the_same(store, tmp_path):
    """A phone has no path: it saves the document's bytes and gives back the bytes it picked."""
    _fill(store)
    store.export_json(tmp_path / "backup.json")
    data = store.export_text().encode("utf-8")
    assert json.loads(data)["games"] == json.loads((tmp_path / "backup.json").read_bytes())["games"]
    with Store.memory() as other:
        report = other.import_text(data, "backup.json")
        assert (report.games_added, report.games_skipped, report.players_added) == (5, 0, 5)
        assert _rounds(other) == _rounds(store)


def _backup_with(tmp_path, change) -> str:
    with Store.memory() as source:
        beverbende(source, [{"Ann": 12, "Bob": 20}] * 4)
        beverbende(source, [{"Ann": 10, "Bob": 20}] * 2)
        source.export_json(tmp_path / "good.json")
    document = json.loads((tmp_path / "good.json").read_text())
    change(document)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(document))
    return path


def _assert_nothing_written(store: Store) -> None:
    assert store.history() == [] and store.players() == []


def test_a_backup_from_a_newer_version_is_refused(store, tmp_path):
    path = _backup_with(tmp_path, lambda d: d.update(version=2))
    with pytest.raises(StoreError, match="newer Companion \\(backup format 2\\).*Update Companion"):
        store.import_json(path)
    _assert_nothing_written(store)


def test_malformed_json_is_refused_with_its_place(store, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "companion-backup",\n "version": 1,,}')
    with pytest.raises(StoreError, match="JSON is broken at line 2, column 15"):
        store.import_json(path)
    _assert_nothing_written(store)


@pytest.mark.parametrize(
    "content, message",
    [
        ('["a list"]', "is not a Companion backup"),
        ('{"format": "other", "version": 1}', "is not a Companion backup"),
        ('{"format": "companion-backup", "version": "one", "players": [], "games": []}', "no valid backup format version"),
        ('{"format": "companion-backup", "version": 1, "players": []}', "'games' is missing"),
        ('{"format": "companion-backup", "version": 1, "players": [{"name": 3}], "games": []}', "'name' has the wrong type"),
    ],
)
def test_files_that_are_not_backups_are_refused(store, tmp_path, content, message):
    path = tmp_path / "other.json"
    path.write_text(content)
    with pytest.raises(StoreError, match=message):
        store.import_json(path)
    _assert_nothing_written(store)


def test_an_unreadable_file_is_a_clear_error(store, tmp_path):
    with pytest.raises(StoreError, match="Cannot read .*missing.json"):
        store.import_json(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(StoreError, match="not text"):
        store.import_json(tmp_path / "binary.json")


def test_bytes_that_are_not_text_are_refused_by_their_name(store):
    with pytest.raises(StoreError, match="^photo.jpg is not a Companion backup: it is not text.$"):
        store.import_text(b"\xff\xd8\xff\xe0JFIF", "photo.jpg")
    _assert_nothing_written(store)


def test_a_game_that_breaks_the_rules_stops_the_whole_import(store, tmp_path):
    def cheat(document):
        document["games"][1]["rounds"][0]["entry"] = {"totals": {"Ann": 99, "Bob": 1}}

    path = _backup_with(tmp_path, cheat)
    with pytest.raises(StoreError, match="game 2 .* breaks the rules: .*Ann"):
        store.import_json(path)
    _assert_nothing_written(store)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["games"][0].update(uuid="not-a-uuid"), "not a game id"),
        (lambda d: d["games"][1].update(uuid=d["games"][0]["uuid"]), "appears twice"),
        (lambda d: d["games"][0].update(status="paused"), "unknown status"),
        (lambda d: d["games"][0].update(created_at="yesterday"), "not a date and time"),
        (lambda d: d["games"][0].update(created_at="2025-01-01T10:00:00"), "no time zone"),
        (lambda d: d["games"][0]["rounds"][0].pop("entry"), "round 1: 'entry' is missing"),
        (lambda d: d["games"][0].update(ruleset="poker"), "no game called 'poker'"),
    ],
)
def test_bad_games_in_a_backup_are_refused(store, tmp_path, change, message):
    with pytest.raises(StoreError, match=message):
        store.import_json(_backup_with(tmp_path, change))
    _assert_nothing_written(store)


def test_status_follows_the_rules_not_the_file(store, tmp_path):
    def mislabel(document):
        document["games"][0]["status"] = "in_progress"  # four rounds: over
        document["games"][1]["status"] = "finished"  # two rounds: not over

    store.import_json(_backup_with(tmp_path, mislabel))
    statuses = {s.rounds_played: (s.status, s.finished_at is None) for s in store.history()}
    assert statuses == {4: ("finished", False), 2: ("in_progress", True)}


def test_export_to_an_impossible_place_is_a_clear_error(store, tmp_path):
    with pytest.raises(StoreError, match="Cannot write"):
        store.export_json(tmp_path / "no" / "such" / "folder" / "backup.json")
    assert not (tmp_path / "no").exists()


def _csv(path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_csv_of_one_game_has_points_and_running_totals_per_side(store, tmp_path):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}, {"Ann": 9, "Bob": 7}])
    store.export_csv(tmp_path / "game.csv", game_id=record.id)
    rows = _csv(tmp_path / "game.csv")
    assert [(r["round"], r["side"], r["points"], r["total"]) for r in rows] == [
        ("1", "Ann", "12", "12"), ("1", "Bob", "20", "20"), ("2", "Ann", "9", "21"), ("2", "Bob", "7", "27"),
    ]
    assert {r["game_uuid"] for r in rows} == {record.uuid} and rows[0]["ruleset"] == "beverbende"


def test_csv_of_all_games_covers_every_round_of_every_game(store, tmp_path):
    bever = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    klaver = klaverjassen_boompje(store, us=100)
    store.export_csv(tmp_path / "all.csv")
    rows = _csv(tmp_path / "all.csv")
    assert len(rows) == 4 * 2 + 16 * 2
    last = {(r["game_id"], r["side"]): int(r["total"]) for r in rows}
    assert last[(str(bever.id), "Ann")] == 48 and last[(str(klaver.id), "Us")] == klaver.game.totals["Us"]


def test_csv_of_an_unknown_game_is_not_found(store, tmp_path):
    from companion.store import NotFoundError

    with pytest.raises(NotFoundError):
        store.export_csv(tmp_path / "game.csv", game_id=42)
    assert not (tmp_path / "game.csv").exists()


def test_csv_of_clubs_game_lists_every_player(store, tmp_path):
    record = play(store, "clubs", ["Ann", "Bob", "Cy"], [{"out_order": ["Bob", "Ann"], "club_points": {"Bob": 7}}])
    store.export_csv(tmp_path / "clubs.csv", game_id=record.id)
    assert {r["side"]: r["points"] for r in _csv(tmp_path / "clubs.csv")} == {"Ann": "2", "Bob": "12", "Cy": "0"}


# --- club evenings ---------------------------------------------------------------------------

EVENING = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


def _play_boompje_of_12(store: Store, game_id: int) -> None:
    record = store.open_game(game_id)
    first, second = record.game.sides
    for _ in range(12):
        entry = {"card_points": {first: 100, second: 62}, "roem": {first: 0, second: 0}}
        record = store.add_round(game_id, entry, record.version)


def _evening_backup(tmp_path, change=lambda document: None) -> str:
    """A backup of one closed club evening (two rounds, 9 players, one sitting out each
    round) and a second evening still open, changed by ``change``."""
    with Store.memory() as source:
        evenings = Evenings(source)
        evening = evenings.create("Tuesday", EVENING, {"ending": "boompje12"}, season_name="2026", seed=5)
        for _ in range(2):
            evening = evenings.draw_next(evening.id)
            for game_id in evening.rounds[-1].game_ids.values():
                _play_boompje_of_12(source, game_id)
        evenings.check_out(evening.id, "Ida")
        evenings.close(evening.id)
        evenings.create("Thursday", EVENING[:4], {"variant": "rotterdam"}, odd_players="joker", seed=6)
        source.export_json(tmp_path / "good.json")
    document = json.loads((tmp_path / "good.json").read_text())
    change(document)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(document))
    return path


def _evenings_as_read(store: Store) -> list[tuple]:
    """Every evening as the organiser sees it, its tables named by their games' uuids and the
    ranking derived from them."""
    evenings = Evenings(store)
    seen = []
    for evening in evenings.evenings():
        tables = [
            {table: store.open_game(game_id).uuid for table, game_id in one.game_ids.items()} for one in evening.rounds
        ]
        seen.append((
            evening.name, evening.season, dict(evening.options), evening.odd_players, evening.sit_out,
            evening.prize_rule, evening.fixed_pairs, evening.seed, evening.created_at, evening.closed_at,
            evening.players, [one.draw for one in evening.rounds], tables, evenings.result(evening.id).standings,
        ))
    return seen


def test_a_backup_restores_the_club_evenings_with_their_tables_games(tmp_path):
    path = _evening_backup(tmp_path)
    with Store.memory() as source:
        source.import_json(path)
        expected = _evenings_as_read(source)
    with Store.memory() as other:
        other.import_json(path)
        restored = _evenings_as_read(other)
    assert [line[0] for line in restored] == ["Thursday", "Tuesday"]
    assert restored == expected
    tuesday = restored[1]
    assert len(tuesday[11]) == 2 and all(len(tables) == 2 for tables in tuesday[12])
    assert dict(tuesday[2])["ending"] == "boompje12" and tuesday[9] is not None
    assert [p.present for p in tuesday[10]] == [True] * 8 + [False]


def test_exporting_a_restored_evening_gives_the_same_evening(tmp_path):
    path = _evening_backup(tmp_path)
    with Store.memory() as first:
        first.import_json(path)
        again = json.loads(first.export_text())["evenings"]
    assert again == json.loads(path.read_text())["evenings"]


def test_importing_evenings_twice_adds_none_twice(store, tmp_path):
    path = _evening_backup(tmp_path)
    first = store.import_json(path)
    before = _evenings_as_read(store)
    report = store.import_json(path)
    assert (first.evenings_added, report.evenings_added, report.games_added) == (2, 0, 0)
    assert _evenings_as_read(store) == before and len(before) == 2


def test_the_import_report_counts_the_club_evenings_it_added(tmp_path):
    path = _evening_backup(tmp_path)
    with Store.memory() as store:
        added = store.import_json(path).message
        again = store.import_json(path).message
    assert added.endswith("; 0 games already here. 2 club evenings added.")
    assert again.endswith("already here.") and "evening" not in again


def test_a_restored_evening_s_tables_get_codes_of_their_own_so_phones_can_join_them(tmp_path):
    with Store.memory() as source:
        evenings = Evenings(source)
        drawn = evenings.draw_next(evenings.create("Friday", EVENING[:8], {}, seed=3).id)
        source.export_json(tmp_path / "open.json")
    with Store.memory() as other:
        other.import_json(tmp_path / "open.json")
        (restored,) = Evenings(other).evenings()
    codes = restored.rounds[-1].codes
    assert sorted(codes) == [1, 2] and len(set(codes.values())) == 2
    assert not set(codes.values()) & set(drawn.rounds[-1].codes.values())


def test_a_clubs_rule_for_equal_totals_survives_a_backup_and_older_backups_share_places(tmp_path):
    with Store.memory() as source:
        Evenings(source).create("Friday", EVENING[:4], prize_rule=PrizeRule(fewer_nats_first=True))
        source.export_json(tmp_path / "ties.json")
    document = json.loads((tmp_path / "ties.json").read_text())
    assert document["evenings"][0]["prizes"]["fewer_nats_first"] is True
    del document["evenings"][0]["prizes"]["fewer_nats_first"]  # as written before the choice existed
    (tmp_path / "older.json").write_text(json.dumps(document))
    for name, expected in (("ties.json", True), ("older.json", False)):
        with Store.memory() as other:
            other.import_json(tmp_path / name)
            assert Evenings(other).evenings()[0].prize_rule.fewer_nats_first is expected


def test_an_evening_whose_tables_are_already_here_under_another_name_is_not_added(tmp_path):
    path = _evening_backup(tmp_path)
    document = json.loads(path.read_text())
    document["evenings"][0]["name"] = "Renamed"
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(document))
    with Store.memory() as store:
        store.import_json(path)
        store.import_json(renamed)
        assert sorted(e.name for e in Evenings(store).evenings()) == ["Thursday", "Tuesday"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["evenings"][0].pop("seed"), "club evening 1 \\(Tuesday\\): 'seed' is missing"),
        (lambda d: d["evenings"][0]["options"].update(ending="boompje13"), "Tuesday\\) breaks the rules"),
        (lambda d: d["evenings"][0]["sit_out"].update(kind="highest"), "Tuesday\\) breaks the rules"),
        (lambda d: d["evenings"][0].update(odd_players="skip"), "unknown choice for players left over"),
        (lambda d: d["evenings"][0]["rounds"][0]["games"].pop(), "each table needs four seats and one game"),
        (lambda d: d["evenings"][0]["rounds"][0]["games"].reverse(), "table 1's game is not in the backup"),
        (lambda d: d["evenings"][0]["rounds"].append(d["evenings"][0]["rounds"][0]), "more than one club evening round"),
        (lambda d: d["evenings"][0]["players"].append({"name": "Ann", "present": True}), "checked in once"),
        (lambda d: d["evenings"][0]["rounds"][0]["draw"]["sitting_out"].append(7), "not checked in"),
        (lambda d: d["evenings"][0]["rounds"][0]["draw"].update(sitting_out=["Zed"]), "not checked in"),
        (lambda d: d["evenings"][0].update(seed=2**40), "seed must be a whole number"),
        (lambda d: d.update(evenings={"name": "Tuesday"}), "'evenings' has the wrong type"),
    ],
)
def test_a_malformed_evening_is_refused_whole_with_its_place(store, tmp_path, change, message):
    with pytest.raises(StoreError, match=message):
        store.import_json(_evening_backup(tmp_path, change))
    _assert_nothing_written(store)
    assert Evenings(store).evenings() == []


def test_a_backup_without_evenings_still_imports(store, tmp_path):
    store.import_json(_backup_with(tmp_path, lambda d: d.pop("evenings")))
    assert len(store.history()) == 2 and Evenings(store).evenings() == []

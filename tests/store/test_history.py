"""History lists, games in progress and player profiles."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from companion.store import NotFoundError, StoreError
from tests.store.games import beverbende, klaverjassen_boompje


def test_history_is_newest_first_and_paged(store):
    ids = [store.create_game("beverbende", ["Ann", "Bob"]).id for _ in range(5)]
    assert [s.id for s in store.history()] == ids[::-1]
    assert [s.id for s in store.history(page=0, page_size=2)] == ids[:2:-1]
    assert [s.id for s in store.history(page=1, page_size=2)] == [ids[2], ids[1]]
    assert [s.id for s in store.history(page=2, page_size=2)] == [ids[0]]
    assert store.history(page=3, page_size=2) == []


def test_history_summary_carries_the_cached_result(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    (summary,) = store.history()
    assert (summary.id, summary.uuid, summary.ruleset, summary.status) == (record.id, record.uuid, "beverbende", "finished")
    assert summary.sides == summary.players == ["Ann", "Bob"]
    assert summary.totals == {"Ann": 48, "Bob": 80} and summary.winners == ["Ann"]
    assert summary.rounds_played == 4 and summary.finished_at == record.finished_at


def test_team_game_summary_lists_sides_and_players(store):
    klaverjassen_boompje(store, us=100)
    (summary,) = store.history()
    assert summary.sides == ["Us", "Them"] and summary.players == ["Ann", "Bob", "Cy", "Dee"]
    assert summary.winners == ["Us"]


def test_history_filters_by_ruleset_player_and_status(store):
    bever = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    open_bever = store.create_game("beverbende", ["Cy", "Bob"])
    klaver = klaverjassen_boompje(store, us=100)
    assert [s.id for s in store.history(ruleset="beverbende")] == [open_bever.id, bever.id]
    assert [s.id for s in store.history(player="Cy")] == [klaver.id, open_bever.id]
    assert [s.id for s in store.history(player="Ann", ruleset="beverbende")] == [bever.id]
    assert [s.id for s in store.history(status="in_progress")] == [open_bever.id]
    assert [s.id for s in store.history(status="finished", player="Bob")] == [klaver.id, bever.id]


def test_history_refuses_unknown_filters(store):
    store.create_game("beverbende", ["Ann", "Bob"])
    with pytest.raises(NotFoundError, match="no saved player called 'Zed'"):
        store.history(player="Zed")
    with pytest.raises(NotFoundError, match="no game called 'poker'"):
        store.history(ruleset="poker")
    with pytest.raises(StoreError, match="status"):
        store.history(status="paused")
    with pytest.raises(StoreError, match="page"):
        store.history(page=-1)
    with pytest.raises(StoreError, match="1 to 1000"):
        store.history(page_size=0)


def test_in_progress_lists_only_unfinished_games_newest_first(store):
    first = store.create_game("beverbende", ["Ann", "Bob"])
    beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    abandoned = store.create_game("beverbende", ["Ann", "Bob"])
    store.abandon(abandoned.id)
    last = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    assert [s.id for s in store.in_progress()] == [last.id, first.id]


def test_players_are_listed_by_name_and_added_once(store):
    store.add_player("cy")
    store.add_player("Bob")
    store.create_game("beverbende", ["Ann", "Bob"])
    again = store.add_player(" Bob ")
    assert [p.name for p in store.players()] == ["Ann", "Bob", "cy"]
    assert again.name == "Bob" and again.id == next(p.id for p in store.players() if p.name == "Bob")


def test_a_player_needs_a_name(store):
    for bad in ("", "   ", None):
        with pytest.raises(StoreError, match="needs a name"):
            store.add_player(bad)
    assert store.players() == []


def test_history_filters_by_the_day_a_game_started(store):
    older = store.create_game("beverbende", ["Ann", "Bob"])
    newer = store.create_game("beverbende", ["Ann", "Bob"])
    assert [s.id for s in store.history(since=older.created_at)] == [newer.id, older.id]
    assert [s.id for s in store.history(since=newer.created_at)] == [newer.id]
    assert store.history(since=newer.created_at + timedelta(seconds=1)) == []


def test_history_refuses_a_date_without_its_time_zone(store):
    with pytest.raises(StoreError, match="time zone"):
        store.history(since=datetime(2026, 3, 14))


def test_a_games_note_and_place_are_saved_and_listed(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    saved = store.set_details(record.id, " Ann's birthday\nwith cake ", " Café De Zwaan ")
    assert (saved.note, saved.location) == ("Ann's birthday\nwith cake", "Café De Zwaan")
    assert saved.version == record.version  # a round being entered elsewhere still saves
    reopened = store.open_game(record.id)
    assert (reopened.note, reopened.location) == (saved.note, saved.location)
    (summary,) = store.history()
    assert (summary.note, summary.location) == (saved.note, saved.location)


@pytest.mark.parametrize(
    "note, place, refusal",
    [
        ("x" * 1001, "", "The note can have at most 1000 characters"),
        ("", "x" * 101, "The place can have at most 100 characters"),
        ("", "Home\x1b[31m", "The place cannot hold the character"),
        (None, "", "The note must be text"),
    ],
)
def test_a_note_or_place_no_database_can_keep_is_refused_and_nothing_changes(store, note, place, refusal):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    store.set_details(record.id, "kept", "kept too")
    with pytest.raises(StoreError, match=refusal):
        store.set_details(record.id, note, place)
    kept = store.open_game(record.id)
    assert (kept.note, kept.location) == ("kept", "kept too")


def test_a_note_for_a_game_that_is_not_there_is_refused(store):
    with pytest.raises(NotFoundError):
        store.set_details(999, "note", "")


def test_a_players_results_carry_each_games_setup_oldest_first(store):
    first = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    store.create_game("beverbende", ["Ann", "Bob"])  # in progress: no result yet
    second = klaverjassen_boompje(store, us=100)
    results = store.player_results("Ann")
    assert [r.game_id for r in results] == [first.id, second.id]
    assert (results[0].ruleset, results[0].players, results[0].teams) == ("beverbende", ["Ann", "Bob"], None)
    assert (results[0].score, results[0].won) == (48, True)
    assert results[1].options["ending"] == "boompje" and set(results[1].teams) == {"Us", "Them"}
    assert results[0].played_at == first.finished_at

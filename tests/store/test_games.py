"""Creating games and saving, editing and undoing rounds: the rules decide, the store keeps."""

from __future__ import annotations

from datetime import timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules import RuleError
from companion.store import NotFoundError, StaleError, Store, StoreError
from tests.store.games import beverbende, klaverjassen_boompje, members_only_one_hand, play


def test_create_game_saves_seating_options_and_new_profiles(store):
    record = store.create_game("clubs", ["Ann", "Bob", "Cy"], options={"break_ties": True}, note="Friday", location="Club")
    assert (record.version, record.status, record.ruleset) == (1, "in_progress", "clubs")
    reopened = store.open_game(record.id)
    assert reopened.game.players == ("Ann", "Bob", "Cy")
    assert reopened.game.options["break_ties"] is True
    assert (reopened.note, reopened.location, reopened.uuid) == ("Friday", "Club", record.uuid)
    assert [p.name for p in store.players()] == ["Ann", "Bob", "Cy"]


def test_profiles_are_reused_across_games(store):
    store.create_game("beverbende", ["Ann", "Bob"])
    store.create_game("beverbende", ["Bob", "Cy"])
    assert [p.name for p in store.players()] == ["Ann", "Bob", "Cy"]


def test_bad_setup_is_a_rule_error_and_saves_nothing(store):
    with pytest.raises(RuleError, match="2 to 6 players, not 7"):
        store.create_game("clubs", ["A", "B", "C", "D", "E", "F", "G"])
    with pytest.raises(RuleError, match="no game called"):
        store.create_game("poker", ["Ann", "Bob"])
    assert store.players() == [] and store.history() == []


def test_rounds_are_scored_by_the_rules_not_stored(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}, {"Ann": 9, "Bob": 7}])
    assert record.game.totals == {"Ann": 21, "Bob": 27}
    assert record.game.round_scores == [{"Ann": 12, "Bob": 20}, {"Ann": 9, "Bob": 7}]
    assert store.open_game(record.id).game.totals == {"Ann": 21, "Bob": 27}
    assert record.version == 3 and len(record.round_times) == 2


def test_rejected_entry_keeps_rule_field_and_changes_nothing(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}])
    with pytest.raises(RuleError) as err:
        store.add_round(record.id, {"totals": {"Ann": 40, "Bob": 3}}, expected_version=record.version)
    assert err.value.field is not None and "Ann" in err.value.field
    again = store.open_game(record.id)
    assert (again.version, again.game.rounds) == (record.version, record.game.rounds)
    assert store.history()[0].rounds_played == 1


def test_game_finishes_when_the_rules_say_it_is_over(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 3)
    assert record.status == "in_progress" and record.finished_at is None
    record = store.add_round(record.id, {"totals": {"Ann": 15, "Bob": 10}}, expected_version=record.version)
    assert record.status == "finished" and record.game.winners == ["Ann"]
    assert record.finished_at is not None and record.finished_at.tzinfo is not None
    with pytest.raises(RuleError, match="over"):
        store.add_round(record.id, {"totals": {"Ann": 15, "Bob": 10}}, expected_version=record.version)


def test_undoing_the_deciding_round_puts_the_game_back_in_progress(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    assert record.status == "finished"
    record = store.undo_round(record.id, expected_version=record.version)
    assert (record.status, record.finished_at, len(record.game.rounds)) == ("in_progress", None, 3)
    assert store.open_game(record.id).status == "in_progress"
    assert store.history(status="finished") == []


def test_undo_without_rounds_is_a_rule_error(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    with pytest.raises(RuleError):
        store.undo_round(record.id, expected_version=record.version)
    assert store.open_game(record.id).version == 1


def test_edit_round_recomputes_and_records_when(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}, {"Ann": 9, "Bob": 7}])
    edited = store.edit_round(record.id, 0, {"totals": {"Ann": 30, "Bob": 20}}, expected_version=record.version)
    assert edited.game.totals == {"Ann": 39, "Bob": 27}
    assert edited.round_times[0][1] is not None and edited.round_times[1][1] is None
    reopened = store.open_game(record.id)
    assert reopened.round_times == edited.round_times
    assert store.history()[0].totals == {"Ann": 39, "Bob": 27}


def test_editing_a_round_so_a_later_round_breaks_is_refused(store):
    # Elimination at 100: Ann at 99 plays round 4; at 102 she would be out and could not.
    rounds = [{"Ann": 36, "Bob": 10, "Cy": 10}] * 2 + [{"Ann": 27, "Bob": 10, "Cy": 10}] * 2
    record = beverbende(store, rounds, options={"ending": "elimination"})
    with pytest.raises(RuleError, match="Round 4"):
        store.edit_round(record.id, 2, {"totals": {"Ann": 30, "Bob": 10, "Cy": 10}}, expected_version=record.version)
    with pytest.raises(RuleError):
        store.edit_round(record.id, 7, {"totals": {"Ann": 1, "Bob": 10, "Cy": 10}}, expected_version=record.version)
    reopened = store.open_game(record.id)
    assert (reopened.game.rounds, reopened.version) == (record.game.rounds, record.version)


def test_editing_a_finished_game_can_change_its_winner(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    assert store.history()[0].winners == ["Ann"]
    record = store.edit_round(record.id, 0, {"totals": {"Ann": 36, "Bob": 0}}, expected_version=record.version)
    assert record.status == "finished" and record.game.winners == ["Bob"]
    assert store.history()[0].winners == ["Bob"]
    assert store.player_stats("Bob").wins == 1 and store.player_stats("Ann").wins == 0


def test_saving_on_an_old_version_is_stale_and_changes_nothing(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}])
    store.add_round(record.id, {"totals": {"Ann": 10, "Bob": 10}}, expected_version=record.version)
    for change in (
        lambda: store.add_round(record.id, {"totals": {"Ann": 11, "Bob": 11}}, expected_version=record.version),
        lambda: store.edit_round(record.id, 0, {"totals": {"Ann": 11, "Bob": 11}}, expected_version=record.version),
        lambda: store.undo_round(record.id, expected_version=record.version),
        lambda: store.abandon(record.id, expected_version=record.version),
    ):
        with pytest.raises(StaleError, match="changed on another device; reload"):
            change()
    assert store.open_game(record.id).game.totals == {"Ann": 22, "Bob": 30}


def test_unknown_game_is_not_found(store):
    with pytest.raises(NotFoundError, match="no saved game number 999"):
        store.open_game(999)
    with pytest.raises(NotFoundError):
        store.add_round(999, {"totals": {}}, expected_version=1)
    with pytest.raises(NotFoundError):
        store.open_game("seven")


def test_abandoned_games_are_frozen_until_reopened(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}])
    abandoned = store.abandon(record.id)
    assert abandoned.status == "abandoned" and abandoned.version == record.version + 1
    with pytest.raises(StoreError, match="abandoned; reopen"):
        store.add_round(record.id, {"totals": {"Ann": 1, "Bob": 1}}, expected_version=abandoned.version)
    assert store.in_progress() == []
    reopened = store.reopen(record.id, expected_version=abandoned.version)
    assert reopened.status == "in_progress"
    assert [s.id for s in store.in_progress()] == [record.id]


def test_a_finished_game_cannot_be_abandoned(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}] * 4)
    with pytest.raises(StoreError, match="already finished"):
        store.abandon(record.id)
    assert store.open_game(record.id).status == "finished"


def test_team_games_keep_their_teams(store):
    record = klaverjassen_boompje(store, us=100)
    reopened = store.open_game(record.id)
    assert reopened.game.teams == {"Us": ("Ann", "Cy"), "Them": ("Bob", "Dee")}
    assert reopened.status == "finished" and reopened.game.winners == ["Us"]
    assert reopened.game.totals == record.game.totals


def test_default_teams_filled_in_by_the_rules_are_kept(store):
    record = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"])
    assert store.open_game(record.id).game.sides == ("Ann & Cy", "Bob & Dee")


def test_members_only_and_clubs_games_round_trip(store):
    members = members_only_one_hand(store)
    assert members.status == "finished" and store.open_game(members.id).game.totals == members.game.totals
    clubs = play(store, "clubs", ["Ann", "Bob", "Cy"], [{"out_order": ["Bob", "Ann"], "club_points": {"Bob": 7}}])
    assert store.open_game(clubs.id).game.totals == clubs.game.totals == {"Ann": 2, "Bob": 12, "Cy": 0}


def test_entries_are_saved_as_plain_json(store):
    record = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    record = store.add_round(record.id, {"out_order": ("Bob", "Ann"), "club_points": {"Bob": 7}}, expected_version=1)
    assert store.open_game(record.id).game.rounds == [{"out_order": ["Bob", "Ann"], "club_points": {"Bob": 7}}]
    with pytest.raises(RuleError, match="plain numbers"):
        store.add_round(record.id, {"out_order": {"Bob"}}, expected_version=record.version)


def test_times_are_timezone_aware_utc(store):
    record = beverbende(store, [{"Ann": 12, "Bob": 20}])
    reopened = store.open_game(record.id)
    for moment in (reopened.created_at, *reopened.round_times[0][:1], store.players()[0].created_at):
        assert moment.tzinfo is not None and moment.utcoffset().total_seconds() == 0
    assert reopened.created_at == record.created_at.astimezone(timezone.utc)


def test_over_long_player_names_are_refused(store):
    with pytest.raises(StoreError, match="at most 100 characters"):
        store.create_game("beverbende", ["A" * 101, "Bob"])
    assert store.players() == []


def test_memory_store_needs_no_file():
    with Store.memory() as store:
        record = beverbende(store, [{"Ann": 12, "Bob": 20}])
        assert store.open_game(record.id).game.totals == {"Ann": 12, "Bob": 20}


ROUND_TOTALS = st.fixed_dictionaries({"Ann": st.integers(8, 30), "Bob": st.integers(8, 30)})
CHANGES = st.lists(
    st.one_of(
        st.tuples(st.just("add"), ROUND_TOTALS),
        st.tuples(st.just("edit"), st.integers(0, 10), ROUND_TOTALS),
        st.tuples(st.just("undo")),
    ),
    max_size=8,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=CHANGES)
def test_saved_game_and_its_summary_always_match_the_rules(store, changes):
    """Whatever sequence of saves, the stored game and its cached summary equal a replay."""
    ruleset = rules.get("beverbende")
    expected = ruleset.new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 6})
    record = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 6})
    for change in changes:
        try:
            if change[0] == "add":
                following = expected.add_round({"totals": change[1]})
            elif change[0] == "edit":
                following = expected.replace_round(change[1], {"totals": change[2]})
            else:
                following = expected.undo()
        except RuleError:
            with pytest.raises(RuleError):
                if change[0] == "add":
                    store.add_round(record.id, {"totals": change[1]}, expected_version=record.version)
                elif change[0] == "edit":
                    store.edit_round(record.id, change[1], {"totals": change[2]}, expected_version=record.version)
                else:
                    store.undo_round(record.id, expected_version=record.version)
            continue
        if change[0] == "add":
            record = store.add_round(record.id, {"totals": change[1]}, expected_version=record.version)
        elif change[0] == "edit":
            record = store.edit_round(record.id, change[1], {"totals": change[2]}, expected_version=record.version)
        else:
            record = store.undo_round(record.id, expected_version=record.version)
        expected = following
    reopened = store.open_game(record.id)
    summary = next(s for s in store.history(page_size=1000) if s.id == record.id)
    assert reopened.game.rounds == expected.rounds
    assert summary.totals == expected.totals and summary.winners == expected.winners
    assert summary.rounds_played == len(expected.rounds)
    assert summary.status == ("finished" if expected.over else "in_progress")

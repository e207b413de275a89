"""The shared engine (companion/rules/base.py), exercised through a small test ruleset
(Tally, tests/rules/tally.py)."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules.base import Game, NextRound, RuleError
from tests.rules.tally import Tally


class LowTally(Tally):
    lowest_wins = True


class TeamTally(Tally):
    max_players = 6

    def check_setup(self, setup):
        if setup.teams is None:
            raise RuleError("Team Tally needs teams.", "teams")
        return setup


TALLY = Tally()


def points(**values):
    return {"points": values}


def tally(players=("Ann", "Bob", "Cy"), **options):
    return TALLY.new_game(list(players), options)


# --- players ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, message",
    [
        ("AnnBob", "must be a list of names"),
        (None, "must be a list of names"),
        (["Ann", ""], "Every player needs a name"),
        (["Ann", "   "], "Every player needs a name"),
        (["Ann", 7], "Every player needs a name"),
        (["Ann", "Bob", "Ann"], "Ann is seated twice"),
        (["Ann", " Ann "], "Ann is seated twice"),
        (["Ann"], "Tally is for 2 to 4 players, not 1"),
        (["A", "B", "C", "D", "E"], "Tally is for 2 to 4 players, not 5"),
    ],
)
def test_bad_player_lists_are_rejected(players, message):
    with pytest.raises(RuleError, match=message) as err:
        TALLY.new_game(players)
    assert err.value.field == "players"


def test_player_names_are_trimmed_and_keep_seating_order():
    assert tally([" Cy", "Ann ", "Bob"]).players == ("Cy", "Ann", "Bob")


# --- options ---------------------------------------------------------------------------


def test_options_not_given_take_their_defaults():
    assert dict(tally().options) == {"target": 20, "doubles": False, "pace": "normal"}


@pytest.mark.parametrize(
    "options, message, field",
    [
        ({"speed": 3}, "no option called 'speed'", "speed"),
        ({"target": "20"}, "whole number", "target"),
        ({"target": True}, "whole number", "target"),
        ({"target": 4}, "at least 5", "target"),
        ({"target": 51}, "at most 50", "target"),
        ({"doubles": 1}, "true or false", "doubles"),
        ({"pace": 3}, "must be text", "pace"),
        ({"pace": "slow"}, "one of normal, fast", "pace"),
    ],
)
def test_bad_options_are_rejected(options, message, field):
    with pytest.raises(RuleError, match=message) as err:
        tally(**options)
    assert err.value.field == field


def test_options_must_be_name_value_pairs():
    with pytest.raises(RuleError, match="name: value pairs"):
        TALLY.new_game(["Ann", "Bob"], [("target", 10)])


def test_options_change_scoring():
    assert tally(doubles=True).add_round(points(Ann=3, Bob=4, Cy=5)).totals == {"Ann": 6, "Bob": 8, "Cy": 10}


def test_option_lookup_by_name():
    assert TALLY.option("target").default == 20
    with pytest.raises(KeyError):
        TALLY.option("speed")


# --- teams -----------------------------------------------------------------------------


def test_a_ruleset_without_teams_rejects_them():
    with pytest.raises(RuleError, match="Tally is not played in teams") as err:
        TALLY.new_game(["Ann", "Bob"], teams={"A": ["Ann"], "B": ["Bob"]})
    assert err.value.field == "teams"


def test_teams_score_as_sides():
    g = TeamTally().new_game(["Ann", "Bob", "Cy", "Dee"], teams={"Reds": ["Ann", "Cy"], "Blues": ["Bob", "Dee"]})
    assert g.sides == ("Reds", "Blues")
    assert g.teams == {"Reds": ("Ann", "Cy"), "Blues": ("Bob", "Dee")}
    assert g.setup.team_of("Dee") == "Blues" and g.setup.members("Reds") == ("Ann", "Cy")
    assert g.add_round(points(Reds=4, Blues=6)).totals == {"Reds": 4, "Blues": 6}


@pytest.mark.parametrize(
    "teams, message",
    [
        ({}, "map each team name to its players"),
        ([("Reds", ["Ann", "Cy"])], "map each team name to its players"),
        ({"": ["Ann", "Cy"], "Blues": ["Bob", "Dee"]}, "Every team needs a name"),
        ({"Reds": "Ann", "Blues": ["Bob", "Cy", "Dee"]}, "Team Reds needs a list of players"),
        ({"Reds": [], "Blues": ["Ann", "Bob", "Cy", "Dee"]}, "Team Reds needs a list of players"),
        ({"Reds": ["Ann", "Zed"], "Blues": ["Bob", "Cy", "Dee"]}, "Zed is in team Reds but not at the table"),
        ({"Reds": ["Ann", "Cy"], "Blues": ["Bob", "Cy", "Dee"]}, "Cy cannot play in both Reds and Blues"),
        ({"Reds": ["Ann", "Cy"], "Blues": ["Bob"]}, "Dee is in no team"),
        ({"Reds": ["Ann", "Cy"], " Reds": ["Bob", "Dee"]}, "Two teams have the same name"),
        ({"Ann": ["Ann", "Cy"], "Blues": ["Bob", "Dee"]}, "same name as a player"),
    ],
)
def test_bad_teams_are_rejected(teams, message):
    with pytest.raises(RuleError, match=message) as err:
        TeamTally().new_game(["Ann", "Bob", "Cy", "Dee"], teams=teams)
    assert err.value.field == "teams"


def test_check_setup_hook_runs_after_the_shared_checks():
    with pytest.raises(RuleError, match="Team Tally needs teams"):
        TeamTally().new_game(["Ann", "Bob"])


# --- immutability ----------------------------------------------------------------------


def test_add_round_returns_a_new_game_and_leaves_the_old_one_alone():
    before = tally()
    after = before.add_round(points(Ann=3, Bob=4, Cy=5))
    assert before.rounds == [] and before.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert after.rounds == [points(Ann=3, Bob=4, Cy=5)]


def test_changing_an_entry_after_adding_it_does_not_change_the_game():
    entry = points(Ann=3, Bob=4, Cy=5)
    g = tally().add_round(entry)
    entry["points"]["Ann"] = 10
    assert g.rounds[0]["points"]["Ann"] == 3 and g.totals["Ann"] == 3


def test_read_outs_are_copies():
    g = tally().add_round(points(Ann=3, Bob=4, Cy=5))
    g.rounds[0]["points"]["Ann"] = 10
    g.round_scores[0]["Ann"] = 10
    g.totals["Ann"] = 10
    assert g.rounds[0]["points"]["Ann"] == 3
    assert g.round_scores == [{"Ann": 3, "Bob": 4, "Cy": 5}]
    assert g.totals["Ann"] == 3
    with pytest.raises(TypeError):
        g.options["target"] = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.setup.players = ("Zed",)


@pytest.mark.parametrize("entry", [[1, 2], "points", None])
def test_a_round_must_be_name_value_pairs(entry):
    with pytest.raises(RuleError, match="Round 1 must be given as name: value pairs"):
        tally().add_round(entry)


def test_a_round_must_be_plain_data():
    with pytest.raises(RuleError, match="plain numbers, text, lists"):
        tally().add_round({"points": {"Ann", "Bob"}})


# --- nothing half-applied --------------------------------------------------------------


def test_a_bad_entry_names_its_field_and_changes_nothing():
    g = tally().add_round(points(Ann=3, Bob=4, Cy=5))
    with pytest.raises(RuleError, match="Bob scores 0 to 10, not 11") as err:
        g.add_round(points(Ann=3, Bob=11, Cy=5))
    assert err.value.field == "points.Bob"
    assert len(g.rounds) == 1 and g.totals == {"Ann": 3, "Bob": 4, "Cy": 5}
    assert g.add_round(points(Ann=1, Bob=1, Cy=1)).totals == {"Ann": 4, "Bob": 5, "Cy": 6}


# --- replay: replace_round and undo -----------------------------------------------------


def test_replace_round_recomputes_everything_after_it():
    g = tally().add_round(points(Ann=3, Bob=4, Cy=5)).add_round(points(Ann=1, Bob=1, Cy=1))
    changed = g.replace_round(0, points(Ann=10, Bob=0, Cy=0))
    assert changed.round_scores == [{"Ann": 10, "Bob": 0, "Cy": 0}, {"Ann": 1, "Bob": 1, "Cy": 1}]
    assert changed.totals == {"Ann": 11, "Bob": 1, "Cy": 1}
    assert g.totals == {"Ann": 4, "Bob": 5, "Cy": 6}


def test_replace_round_with_a_bad_entry_names_the_round_and_changes_nothing():
    g = tally().add_round(points(Ann=3, Bob=4, Cy=5)).add_round(points(Ann=1, Bob=1, Cy=1))
    with pytest.raises(RuleError, match="Round 1: Ann scores 0 to 10") as err:
        g.replace_round(0, points(Ann=12, Bob=0, Cy=0))
    assert err.value.field == "points.Ann"
    assert g.totals == {"Ann": 4, "Bob": 5, "Cy": 6}


def test_replace_round_that_ends_the_game_earlier_rejects_the_rounds_after_it():
    g = tally(target=10).add_round(points(Ann=3, Bob=4, Cy=5)).add_round(points(Ann=1, Bob=1, Cy=1))
    with pytest.raises(RuleError, match="already over after round 1; round 2 cannot follow"):
        g.replace_round(0, points(Ann=10, Bob=0, Cy=0))


@pytest.mark.parametrize("index", [-1, 2, "0"])
def test_replace_round_needs_an_existing_round(index):
    g = tally().add_round(points(Ann=3, Bob=4, Cy=5)).add_round(points(Ann=1, Bob=1, Cy=1))
    with pytest.raises(RuleError, match="There is no round"):
        g.replace_round(index, points(Ann=1, Bob=1, Cy=1))


def test_undo_removes_the_last_round_and_reopens_a_finished_game():
    g = tally(target=10).add_round(points(Ann=3, Bob=4, Cy=5)).add_round(points(Ann=8, Bob=1, Cy=1))
    assert g.over
    undone = g.undo()
    assert not undone.over and undone.rounds == [points(Ann=3, Bob=4, Cy=5)]
    assert undone.totals == {"Ann": 3, "Bob": 4, "Cy": 5}
    assert undone.undo().rounds == []


def test_undo_without_rounds_is_refused():
    with pytest.raises(RuleError, match="no round to undo"):
        tally().undo()


def test_replay_validates_every_round_and_names_the_bad_one():
    g = tally()
    entries = [points(Ann=1, Bob=1, Cy=1), points(Ann=1, Bob=-1, Cy=1)]
    with pytest.raises(RuleError, match="Round 2: Bob scores 0 to 10") as err:
        Game.replay(TALLY, g.setup, entries)
    assert err.value.field == "points.Bob"


# --- the end of the game ---------------------------------------------------------------


def test_adding_a_round_to_a_finished_game_is_refused():
    g = tally(target=10).add_round(points(Ann=10, Bob=4, Cy=5))
    assert g.over and g.winners == ["Ann"]
    with pytest.raises(RuleError, match="The game is over"):
        g.add_round(points(Ann=1, Bob=1, Cy=1))


def test_winners_stay_empty_until_the_game_is_over():
    g = tally().add_round(points(Ann=10, Bob=4, Cy=5))
    assert not g.over and g.winners == []


def test_a_shared_win_lists_every_winner_in_seating_order():
    g = tally(target=10).add_round(points(Ann=10, Bob=4, Cy=10))
    assert g.winners == ["Ann", "Cy"]


# --- standings -------------------------------------------------------------------------


def test_standings_put_the_highest_total_first_and_ties_keep_seating_order():
    g = tally(["Ann", "Bob", "Cy", "Dee"]).add_round(points(Ann=2, Bob=7, Cy=2, Dee=9))
    assert g.standings == ["Dee", "Bob", "Ann", "Cy"]


def test_standings_put_the_lowest_total_first_in_low_score_games():
    g = LowTally().new_game(["Ann", "Bob", "Cy", "Dee"]).add_round(points(Ann=2, Bob=7, Cy=2, Dee=9))
    assert g.standings == ["Ann", "Cy", "Bob", "Dee"]


# --- default hooks ---------------------------------------------------------------------


def test_the_deal_passes_clockwise_by_default():
    g = tally(["Ann", "Bob"])
    seen = []
    for _ in range(3):
        seen.append(g.next_round)
        g = g.add_round(points(Ann=1, Bob=1))
    assert seen == [NextRound(1, "Ann"), NextRound(2, "Bob"), NextRound(3, "Ann")]
    assert g.detail == {}


class BandTally(Tally):
    """Ranks by tens of points only, so totals in the same band tie."""

    def rank_key(self, setup, state, totals, side):
        return -(totals[side] // 10)


def test_a_ruleset_rank_key_decides_standings_and_ties_keep_seating_order():
    g = BandTally().new_game(["Ann", "Bob", "Cy"]).add_round(points(Ann=3, Bob=10, Cy=9))
    assert g.standings == ["Bob", "Ann", "Cy"]

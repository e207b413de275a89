"""CLUBS scoring: bonus cards, the player left holding cards, Double Cards, team play, the end."""

from __future__ import annotations

import pytest

from bench.long_games.clubs import long_game
from companion import rules
from companion.rules.base import Game, RuleError

CLUBS = rules.get("clubs")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
FOUR = NAMES[:4]
TEAMS_2X2 = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
TEAMS_3X2 = {"AD": ["Ann", "Dee"], "BE": ["Bob", "Eve"], "CF": ["Cy", "Fay"]}
TEAMS_2X3 = {"ACE": ["Ann", "Cy", "Eve"], "BDF": ["Bob", "Dee", "Fay"]}


def game(players=FOUR, teams=None, **options):
    return CLUBS.new_game(players, options, teams)


def entry(out, clubs=None, double=()):
    return {"out_order": list(out), "club_points": dict(clubs or {}), "double": list(double)}


def scores(g, out, clubs=None, double=()):
    """The round scores of one round added to ``g``."""
    return g.add_round(entry(out, clubs, double)).round_scores[-1]


# --- the rulebook's examples and tables ---------------------------------------------------


def test_rulebook_example_five_bonus_plus_one_club_point_is_six():
    assert scores(game(NAMES[:3]), ["Ann", "Bob"], {"Ann": 1})["Ann"] == 6


@pytest.mark.parametrize(
    "count, cards",
    [(6, [12, 10, 8, 5, 2, 0]), (5, [10, 8, 5, 2, 0]), (4, [8, 5, 2, 0]), (3, [5, 2, 0]), (2, [5])],
)
def test_bonus_cards_by_player_count_go_out_highest_first(count, cards):
    players = NAMES[:count]
    out = list(reversed(players))[:-1]
    g = game(players).add_round(entry(out))
    assert g.detail["bonus_cards"] == cards
    taken = g.detail["last_round"]["bonus_cards"]
    assert [taken[p] for p in out] == cards[: len(out)]
    assert g.round_scores[-1] == {p: taken[p] or 0 for p in players} | {players[0]: 0}


def test_player_left_holding_cards_takes_the_0_card_and_scores_nothing_not_even_clubs():
    g = game().add_round(entry(["Cy", "Ann", "Bob"], {"Dee": 9, "Ann": 2}))
    assert g.round_scores[-1] == {"Cy": 8, "Ann": 7, "Bob": 2, "Dee": 0}
    assert g.detail["last_round"]["bonus_cards"]["Dee"] == 0
    assert g.detail["last_round"]["held_cards"] == ["Dee"]


def test_club_points_add_to_the_bonus_of_every_player_who_went_out():
    assert scores(game(), ["Dee", "Cy", "Bob"], {"Dee": 1, "Cy": 4, "Bob": 13}) == {
        "Dee": 9,
        "Cy": 9,
        "Bob": 15,
        "Ann": 0,
    }


def test_two_players_first_out_takes_the_5_and_the_other_scores_only_clubs():
    g = game(["Ann", "Bob"]).add_round(entry(["Bob"], {"Ann": 4, "Bob": 3}))
    assert g.round_scores[-1] == {"Ann": 4, "Bob": 8}
    assert g.detail["last_round"]["bonus_cards"] == {"Ann": None, "Bob": 5}


# --- Double Cards --------------------------------------------------------------------------


def test_double_cards_caller_out_first_doubles_club_and_bonus_points():
    assert scores(game(), ["Bob", "Ann", "Cy"], {"Bob": 3, "Ann": 1}, ["Bob"]) == {
        "Bob": 22,
        "Ann": 6,
        "Cy": 2,
        "Dee": 0,
    }


def test_double_cards_caller_not_out_first_scores_nothing():
    g = game().add_round(entry(["Ann", "Bob", "Cy"], {"Bob": 7}, ["Bob"]))
    assert g.round_scores[-1] == {"Ann": 8, "Bob": 0, "Cy": 2, "Dee": 0}
    assert g.detail["last_round"]["doubled"] is None
    assert g.detail["last_round"]["failed_doubles"] == ["Bob"]


def test_several_callers_only_the_first_out_doubles():
    g = game().add_round(entry(["Cy", "Ann", "Bob"], {"Cy": 1, "Ann": 5}, ["Ann", "Cy", "Dee"]))
    assert g.round_scores[-1] == {"Ann": 0, "Bob": 2, "Cy": 18, "Dee": 0}
    assert g.detail["last_round"]["doubled"] == "Cy"
    assert g.detail["last_round"]["failed_doubles"] == ["Ann", "Dee"]


def test_double_cards_with_two_players():
    assert scores(game(["Ann", "Bob"]), ["Ann"], {"Ann": 2, "Bob": 6}, ["Ann"]) == {"Ann": 14, "Bob": 6}
    assert scores(game(["Ann", "Bob"]), ["Ann"], {"Ann": 2, "Bob": 6}, ["Bob"]) == {"Ann": 7, "Bob": 0}


def test_double_cards_option_off_refuses_calls():
    g = game(double_cards=False)
    assert scores(g, ["Ann", "Bob", "Cy"]) == {"Ann": 8, "Bob": 5, "Cy": 2, "Dee": 0}
    with pytest.raises(RuleError, match="Double Cards is not played") as err:
        g.add_round(entry(["Ann", "Bob", "Cy"], double=["Ann"]))
    assert err.value.field == "double"


# --- team CLUBS ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, teams, shape, target",
    [(FOUR, TEAMS_2X2, "2x2", 100), (NAMES, TEAMS_3X2, "3x2", 100), (NAMES, TEAMS_2X3, "2x3", 150)],
)
def test_team_targets_follow_the_team_shape(players, teams, shape, target):
    g = game(players, teams)
    assert g.sides == tuple(teams)
    assert g.detail["target"] == target and g.detail["team_shape"] == shape


@pytest.mark.parametrize(
    "players, teams",
    [
        (FOUR, {"A": ["Ann", "Bob", "Cy"], "B": ["Dee"]}),
        (FOUR, {"A": FOUR}),
        (FOUR, {"A": ["Ann"], "B": ["Bob"], "C": ["Cy"], "D": ["Dee"]}),
        (NAMES[:5], {"A": ["Ann", "Bob", "Cy"], "B": ["Dee", "Eve"]}),
        (NAMES, {"A": ["Ann", "Bob", "Cy", "Dee"], "B": ["Eve", "Fay"]}),
        (NAMES, {"A": ["Ann", "Bob"], "B": ["Cy", "Dee"], "C": ["Eve"], "D": ["Fay"]}),
        (NAMES[:2], {"A": ["Ann"], "B": ["Bob"]}),
        (NAMES[:3], {"A": ["Ann", "Bob"], "B": ["Cy"]}),
    ],
)
def test_other_team_shapes_are_refused(players, teams):
    with pytest.raises(RuleError, match="Team CLUBS is played by 4 players as two teams of two") as err:
        game(players, teams)
    assert err.value.field == "teams"


def test_team_score_is_the_sum_of_its_members_and_the_team_left_holding_cards_scores_nothing():
    g = game(FOUR, TEAMS_2X2).add_round(entry(["Ann", "Bob", "Cy"], {"Ann": 2, "Bob": 3, "Cy": 1, "Dee": 6}))
    # Ann 8+2, Cy 2+1; Bob went out with 5+3 but Dee still held cards: Bob & Dee score 0.
    assert g.round_scores[-1] == {"Ann & Cy": 13, "Bob & Dee": 0}
    assert g.detail["last_round"]["player_scores"] == {"Ann": 10, "Bob": 0, "Cy": 3, "Dee": 0}


def test_team_round_ends_at_once_when_only_one_teams_players_hold_cards():
    g = game(FOUR, TEAMS_2X2).add_round(entry(["Ann", "Cy"], {"Ann": 1, "Bob": 5}))
    assert g.round_scores[-1] == {"Ann & Cy": 14, "Bob & Dee": 0}
    assert g.detail["last_round"]["held_cards"] == ["Bob", "Dee"]
    assert g.detail["last_round"]["bonus_cards"] == {"Ann": 8, "Bob": None, "Cy": 5, "Dee": None}


def test_team_successful_double_is_doubled_before_it_is_added():
    g = game(FOUR, TEAMS_2X2).add_round(entry(["Cy", "Bob", "Ann"], {"Cy": 2, "Ann": 1}, ["Cy"]))
    assert g.round_scores[-1] == {"Ann & Cy": (8 + 2) * 2 + (2 + 1), "Bob & Dee": 0}


def test_team_failed_double_zeroes_only_the_caller():
    g = game(NAMES, TEAMS_3X2).add_round(entry(["Ann", "Bob", "Dee", "Eve"], {"Dee": 4}, ["Dee"]))
    assert g.round_scores[-1] == {"AD": 12 + 0, "BE": 10 + 5, "CF": 0}


def test_three_teams_of_two():
    g = game(NAMES, TEAMS_3X2).add_round(entry(["Ann", "Bob", "Cy", "Fay", "Dee"], {"Eve": 3, "Fay": 9}))
    # Bonus 12 Ann, 10 Bob, 8 Cy, 5 Fay, 2 Dee; Eve holds the last cards, so Bob & Eve score 0.
    assert g.round_scores[-1] == {"AD": 12 + 2, "BE": 0, "CF": 8 + 5 + 9}


def test_three_teams_of_two_round_goes_on_while_two_teams_hold_cards():
    with pytest.raises(RuleError, match="not over while Eve and Fay still held cards"):
        game(NAMES, TEAMS_3X2).add_round(entry(["Ann", "Bob", "Cy", "Dee"]))


def test_two_teams_of_three_end_when_one_team_alone_holds_cards():
    g = game(NAMES, TEAMS_2X3).add_round(entry(["Bob", "Dee", "Fay"], {"Bob": 2, "Eve": 7}))
    assert g.round_scores[-1] == {"ACE": 0, "BDF": 14 + 10 + 8}
    assert g.detail["last_round"]["held_cards"] == ["Ann", "Cy", "Eve"]


def test_team_player_cannot_go_out_after_the_round_ended():
    with pytest.raises(RuleError, match="Dee cannot have gone out: the round was over as soon as only") as err:
        game(FOUR, TEAMS_2X2).add_round(entry(["Ann", "Cy", "Dee"]))
    assert err.value.field == "out_order"


def test_team_round_is_not_over_while_two_teams_hold_cards():
    with pytest.raises(RuleError, match="not over while Cy and Dee still held cards") as err:
        game(FOUR, TEAMS_2X2).add_round(entry(["Ann", "Bob"]))
    assert err.value.field == "out_order"


# --- the end of the game -------------------------------------------------------------------


def play(g, *rounds):
    for out, clubs in rounds:
        g = g.add_round(entry(out, clubs))
    return g


def test_full_game_to_50_highest_total_wins():
    g = game(NAMES[:3])
    g = play(g, (["Ann", "Bob"], {"Ann": 10, "Bob": 3}), (["Bob", "Ann"], {"Bob": 12, "Cy": 4}))
    assert g.totals == {"Ann": 17, "Bob": 22, "Cy": 0} and not g.over and g.winners == []
    assert g.standings == ["Bob", "Ann", "Cy"]
    g = play(g, (["Cy", "Ann"], {"Cy": 20, "Ann": 3}), (["Ann", "Cy"], {"Ann": 8}))
    assert g.totals == {"Ann": 35, "Bob": 22, "Cy": 27} and not g.over
    g = play(g, (["Bob", "Cy"], {"Bob": 24, "Ann": 1}))
    assert g.totals == {"Ann": 35, "Bob": 51, "Cy": 29}
    assert g.over and g.winners == ["Bob"]
    with pytest.raises(RuleError, match="over"):
        g.add_round(entry(["Ann", "Bob"]))


def test_when_several_reach_the_target_the_highest_total_wins():
    g = play(game(NAMES[:3], target=10), (["Ann", "Bob"], {"Ann": 6, "Bob": 9}))
    assert g.totals == {"Ann": 11, "Bob": 11, "Cy": 0}
    assert g.over and g.winners == ["Ann", "Bob"]


def test_tie_at_the_top_is_a_shared_win_by_default():
    g = play(game(NAMES[:3], target=10), (["Ann", "Bob"], {"Ann": 6, "Bob": 9}))
    assert g.winners == ["Ann", "Bob"]


def test_break_ties_plays_on_until_one_side_leads_alone():
    g = play(game(NAMES[:3], target=10, break_ties=True), (["Ann", "Bob"], {"Ann": 6, "Bob": 9}))
    assert not g.over and g.winners == []
    g = play(g, (["Cy", "Bob"], {}))
    assert g.totals == {"Ann": 11, "Bob": 13, "Cy": 5}
    assert g.over and g.winners == ["Bob"]


def test_break_ties_does_not_matter_below_the_lead():
    g = play(game(NAMES[:3], target=10, break_ties=True), (["Ann", "Bob"], {"Ann": 6, "Cy": 3}))
    assert g.totals == {"Ann": 11, "Bob": 2, "Cy": 0} and g.over and g.winners == ["Ann"]


def test_target_option_replaces_the_rulebook_target():
    g = game(NAMES[:3], target=20)
    assert g.detail["target"] == 20
    g = play(g, (["Ann", "Bob"], {"Ann": 14}))
    assert g.totals["Ann"] == 19 and not g.over
    g = play(g, (["Ann", "Bob"], {}))
    assert g.over and g.winners == ["Ann"]


def test_target_option_applies_to_team_play_too():
    assert game(FOUR, TEAMS_2X2, target=60).detail["target"] == 60


def test_negative_target_is_refused():
    with pytest.raises(RuleError, match="at least 0"):
        game(target=-5)


def test_team_game_ends_at_100():
    g = game(FOUR, TEAMS_2X2)
    g = play(g, *[(["Ann", "Bob", "Cy"], {"Ann": 20, "Cy": 10})] * 2)
    assert g.totals == {"Ann & Cy": 2 * 40, "Bob & Dee": 0} and not g.over
    g = play(g, (["Ann", "Bob", "Cy"], {"Ann": 20, "Cy": 10}))
    assert g.over and g.winners == ["Ann & Cy"]


def test_team_game_two_teams_of_three_plays_on_past_100_to_150():
    g = game(NAMES, TEAMS_2X3)
    g = play(g, (["Ann", "Cy", "Eve"], {"Ann": 40, "Cy": 38}))
    assert g.totals == {"ACE": 12 + 40 + 10 + 38 + 8, "BDF": 0} and not g.over
    g = play(g, (["Ann", "Cy", "Eve"], {}))
    assert g.totals["ACE"] == 138 and not g.over
    g = play(g, (["Bob", "Ann", "Dee", "Cy", "Fay"], {"Bob": 30}))
    assert g.totals == {"ACE": 138, "BDF": 12 + 30 + 8 + 2} and not g.over
    g = play(g, (["Ann", "Cy", "Eve"], {}))
    assert g.over and g.winners == ["ACE"]


@pytest.mark.parametrize("variant", [{"wild_15": True}, {"crazy": True}, {"wild_15": True, "crazy": True}])
def test_play_variants_do_not_change_scoring(variant):
    rounds = [(["Ann", "Bob", "Cy"], {"Ann": 3, "Dee": 4}), (["Dee", "Cy", "Bob"], {"Cy": 9})]
    assert play(game(**variant), *rounds).round_scores == play(game(), *rounds).round_scores


# --- dealing ----------------------------------------------------------------------------------


def test_first_seat_deals_first_and_the_deal_passes_left_each_round():
    g = game(NAMES[:3])
    dealers = []
    for _ in range(4):
        dealers.append((g.next_round.number, g.next_round.dealer, g.next_round.playing))
        g = g.add_round(entry(["Ann", "Bob"]))
    assert dealers == [(1, "Ann", None), (2, "Bob", None), (3, "Cy", None), (4, "Ann", None)]


# --- rejections --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, bad, field, message",
    [
        (FOUR, {"out_order": ["Ann", "Bob", "Cy"], "clubs": {}}, "clubs", "has no 'clubs'"),
        (FOUR, {"club_points": {}}, "out_order", "Say who went out"),
        (FOUR, {"out_order": "Ann"}, "out_order", "list of names"),
        (FOUR, entry(["Ann", "Bob", "Zed"]), "out_order", "Zed is not at this table"),
        (FOUR, entry(["Ann", "Bob", "Ann"]), "out_order", "Ann cannot go out twice"),
        (FOUR, entry(["Ann", "Bob", "Cy", "Dee"]), "out_order", "Dee cannot go out: the round ends when only Dee"),
        (["Ann", "Bob"], entry(["Ann", "Bob"]), "out_order", "Bob cannot go out too"),
        (FOUR, entry(["Ann", "Bob"]), "out_order", "Cy and Dee cannot both take the 0 bonus card"),
        (FOUR, entry(["Ann"]), "out_order", "Bob, Cy and Dee cannot all still hold cards"),
        (["Ann", "Bob"], entry([]), "out_order", "Ann and Bob cannot both still hold cards"),
        (FOUR, entry(["Ann", "Bob", "Cy"], {"Zed": 3}), "club_points.Zed", "Zed is not at this table"),
        (FOUR, entry(["Ann", "Bob", "Cy"], {"Bob": -1}), "club_points.Bob", "whole number of 0 or more"),
        (FOUR, entry(["Ann", "Bob", "Cy"], {"Bob": 2.5}), "club_points.Bob", "whole number of 0 or more"),
        (FOUR, entry(["Ann", "Bob", "Cy"], {"Bob": True}), "club_points.Bob", "whole number of 0 or more"),
        (FOUR, entry(["Ann", "Bob", "Cy"], {"Bob": "3"}), "club_points.Bob", "whole number of 0 or more"),
        (FOUR, {"out_order": ["Ann", "Bob", "Cy"], "club_points": [3, 4]}, "club_points", "per player"),
        (FOUR, {"out_order": ["Ann", "Bob", "Cy"], "double": "Ann"}, "double", "list of names"),
        (FOUR, entry(["Ann", "Bob", "Cy"], double=["Zed"]), "double", "Zed is not at this table"),
        (FOUR, entry(["Ann", "Bob", "Cy"], double=["Ann", "Ann"]), "double", "Ann is listed twice"),
    ],
)
def test_impossible_rounds_are_refused_with_the_field_at_fault(players, bad, field, message):
    g = game(players)
    with pytest.raises(RuleError, match=message) as err:
        g.add_round(bad)
    assert err.value.field == field
    assert g.rounds == []


def test_club_points_and_double_may_be_left_out():
    assert game().add_round({"out_order": ["Ann", "Bob", "Cy"]}).round_scores == [
        {"Ann": 8, "Bob": 5, "Cy": 2, "Dee": 0}
    ]


def test_club_points_of_the_player_holding_cards_are_accepted_but_score_nothing():
    assert scores(game(), ["Ann", "Bob", "Cy"], {"Dee": 30})["Dee"] == 0


def test_player_count_is_checked():
    with pytest.raises(RuleError, match="CLUBS is for 2 to 6 players, not 7"):
        game(NAMES + ["Gus"])
    with pytest.raises(RuleError, match="not 1"):
        game(["Ann"])


def test_replaying_a_bad_round_names_the_round():
    with pytest.raises(RuleError, match="Round 2: Ann cannot go out twice"):
        Game.replay(CLUBS, game().setup, [entry(["Ann", "Bob", "Cy"]), entry(["Ann", "Ann", "Cy"])])


# --- editing and read-outs ---------------------------------------------------------------------


def test_replacing_a_round_recomputes_totals_and_the_end():
    g = play(game(NAMES[:3]), (["Ann", "Bob"], {"Ann": 45}))
    assert g.over and g.winners == ["Ann"] and len(g.rounds) == 1
    g = g.replace_round(0, entry(["Ann", "Bob"], {"Ann": 5}))
    assert g.totals == {"Ann": 10, "Bob": 2, "Cy": 0} and not g.over
    g = g.undo()
    assert g.totals == {"Ann": 0, "Bob": 0, "Cy": 0} and g.detail["last_round"] is None


def test_detail_before_any_round():
    assert game(NAMES[:5]).detail == {
        "target": 50,
        "team_shape": None,
        "bonus_cards": [10, 8, 5, 2, 0],
        "last_round": None,
    }


def test_registry_metadata():
    assert (CLUBS.id, CLUBS.name, CLUBS.min_players, CLUBS.max_players) == ("clubs", "CLUBS", 2, 6)
    assert {o.name: o.default for o in CLUBS.options} == {
        "target": 0,
        "break_ties": False,
        "double_cards": True,
        "wild_15": False,
        "crazy": False,
    }
    assert all(o.description and "\n" not in o.description for o in CLUBS.options)


# --- benchmark input ---------------------------------------------------------------------------


def test_long_game_replays_to_its_end_in_the_last_round():
    spec = long_game()
    ruleset = rules.get(spec["ruleset"])
    start = ruleset.new_game(spec["players"], spec["options"], spec["teams"])
    g = Game.replay(ruleset, start.setup, spec["entries"])
    assert len(g.rounds) == 200 and g.over
    assert not Game.replay(ruleset, start.setup, spec["entries"][:-1]).over


# --- what the deck can hold -----------------------------------------------------------------


@pytest.mark.parametrize(
    "club_points, field",
    [
        ({"Ann": 226}, "club_points.Ann"),
        ({"Ann": 10**19}, "club_points.Ann"),
        ({"Ann": 200, "Bob": 26}, "club_points"),
        ({"Ann": 100, "Bob": 100, "Cy": 26}, "club_points"),
    ],
)
def test_club_points_are_bounded_by_the_fifteen_club_cards(club_points, field):
    """At most 15 points on each of the 15 club cards: 225 in a round, for one player or all."""
    with pytest.raises(RuleError, match="at most 225") as err:
        game().add_round(entry(["Ann", "Bob", "Cy"], club_points))
    assert err.value.field == field


def test_all_the_club_points_a_deck_can_hold_go_to_one_player():
    assert scores(game(), ["Ann", "Bob", "Cy"], {"Ann": 225})["Ann"] == 225 + 8


@pytest.mark.parametrize("target, allowed", [(10_000, True), (10_001, False), (10**19, False)])
def test_the_target_is_at_most_ten_thousand(target, allowed):
    if allowed:
        assert game(target=target).detail["target"] == target
    else:
        with pytest.raises(RuleError, match="at most 10000"):
            game(target=target)

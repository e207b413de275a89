"""Beverbende: scoring, endings (seed, rounds, elimination, time, limit), rejections, referee helpers."""

from __future__ import annotations

import pytest

from bench.long_games.beverbende import long_game
from companion import rules
from companion.rules.base import Game, RuleError
from companion.rules.beverbende import (
    final_card,
    final_row,
    last_turns,
    may_knock,
    replacement_order,
)

BEVERBENDE = rules.get("beverbende")
THREE = ["Alexander", "Joost", "Laurens"]


def game(players=THREE, **options):
    return BEVERBENDE.new_game(players, options)


def totals_round(**points):
    return {"totals": points}


def play(g, *rounds):
    for points in rounds:
        g = g.add_round({"totals": points})
    return g


# --- the rulebook's example ------------------------------------------------------------


def test_rulebook_example_round_scores_are_row_sums_after_replacing_the_special_card():
    laurens, _ = final_row([0, 4, "swap", 0], [8, 3])
    assert laurens == (0, 4, 8, 0)
    g = game().add_round({"cards": {"Alexander": [4, 2, 0, 5], "Joost": [1, 2, 1, 3], "Laurens": list(laurens)}})
    assert g.round_scores == [{"Alexander": 11, "Joost": 7, "Laurens": 12}]
    assert g.standings == ["Joost", "Alexander", "Laurens"]


def test_registry_metadata():
    assert (BEVERBENDE.id, BEVERBENDE.name, BEVERBENDE.lowest_wins) == ("beverbende", "Beverbende", True)
    assert (BEVERBENDE.min_players, BEVERBENDE.max_players) == (2, 6)
    assert {o.name for o in BEVERBENDE.options} == {"ending", "rounds"}
    assert all(o.description and "\n" not in o.description for o in BEVERBENDE.options)


# --- the seed ending: as many rounds as players, 4 with two ------------------------------


@pytest.mark.parametrize(
    "players, rounds",
    [(["A", "B"], 4), (["A", "B", "C"], 3), (["A", "B", "C", "D"], 4), (["A", "B", "C", "D", "E", "F"], 6)],
)
def test_seed_ending_plays_one_round_per_player_and_four_with_two(players, rounds):
    g = game(players)
    for number in range(1, rounds + 1):
        assert not g.over
        assert g.detail["rounds_left"] == rounds - number + 1
        g = g.add_round({"totals": {p: 10 for p in players}})
    assert g.over
    assert g.detail["rounds_left"] == 0
    with pytest.raises(RuleError, match="over"):
        g.add_round({"totals": {p: 10 for p in players}})


def test_full_game_lowest_total_wins():
    g = play(
        game(),
        {"Alexander": 11, "Joost": 7, "Laurens": 12},
        {"Alexander": 3, "Joost": 20, "Laurens": 5},
    )
    assert not g.over and g.winners == []
    g = play(g, {"Alexander": 9, "Joost": 1, "Laurens": 14})
    assert g.totals == {"Alexander": 23, "Joost": 28, "Laurens": 31}
    assert g.over and g.winners == ["Alexander"]
    assert g.standings == ["Alexander", "Joost", "Laurens"]


def test_equal_lowest_totals_share_the_win():
    g = play(game(["A", "B"]), *[{"A": 5, "B": 6}, {"A": 6, "B": 5}, {"A": 4, "B": 4}, {"A": 9, "B": 9}])
    assert g.over and g.winners == ["A", "B"]


# --- the rounds ending -----------------------------------------------------------------


def test_rounds_ending_plays_the_chosen_number_of_rounds():
    g = game(["A", "B"], ending="rounds", rounds=2)
    assert g.detail["planned_rounds"] == 2
    g = play(g, {"A": 4, "B": 3})
    assert not g.over
    g = play(g, {"A": 0, "B": 12})
    assert g.over and g.winners == ["A"]


def test_rounds_option_is_ignored_by_other_endings():
    g = game(["A", "B"], rounds=1)
    g = play(g, {"A": 4, "B": 3})
    assert not g.over


@pytest.mark.parametrize("bad", [0, 201, True, "3"])
def test_rounds_option_must_be_a_sensible_whole_number(bad):
    with pytest.raises(RuleError) as err:
        game(["A", "B"], ending="rounds", rounds=bad)
    assert err.value.field == "rounds"


def test_unknown_ending_is_rejected():
    with pytest.raises(RuleError, match="ending must be one of") as err:
        game(ending="first to 50")
    assert err.value.field == "ending"


# --- the time ending -------------------------------------------------------------------


def test_time_ending_lasts_until_a_round_is_marked_last():
    g = game(["A", "B"], ending="time")
    for _ in range(10):
        g = play(g, {"A": 8, "B": 7})
    assert not g.over
    assert g.detail["rounds_left"] is None
    g = g.add_round({"totals": {"A": 9, "B": 0}, "last": True})
    assert g.over and g.winners == ["B"]
    assert g.detail["last_round_called"] is True


def test_time_ending_round_marked_not_last_continues():
    g = game(["A", "B"], ending="time").add_round({"totals": {"A": 10, "B": 20}, "last": False})
    assert not g.over


@pytest.mark.parametrize("ending", ["seed", "rounds", "elimination"])
def test_last_round_mark_only_with_the_time_ending(ending):
    with pytest.raises(RuleError, match="clock") as err:
        game(["A", "B"], ending=ending).add_round({"totals": {"A": 10, "B": 20}, "last": True})
    assert err.value.field == "last"


def test_last_round_mark_must_be_true_or_false():
    with pytest.raises(RuleError) as err:
        game(["A", "B"], ending="time").add_round({"totals": {"A": 10, "B": 20}, "last": "yes"})
    assert err.value.field == "last"


def test_undoing_the_last_round_reopens_a_timed_game():
    g = game(["A", "B"], ending="time").add_round({"totals": {"A": 10, "B": 20}, "last": True})
    assert not g.undo().over


# --- the elimination ending ------------------------------------------------------------


def elimination(players=("A", "B", "C")):
    return game(list(players), ending="elimination")


def test_elimination_reaching_exactly_100_is_out_and_99_is_not():
    g = play(elimination(), *[{"A": 25, "B": 33, "C": 5}] * 3)  # A 75, B 99, C 15
    g = play(g, {"A": 25, "B": 0, "C": 5})  # A 100
    assert g.detail["still_in"] == ["B", "C"]
    assert g.detail["out_in_round"] == {"A": 4}
    assert not g.over


def test_elimination_later_rounds_list_only_players_still_in_and_out_players_score_zero():
    g = play(elimination(), *[{"A": 36, "B": 10, "C": 10}] * 3)  # A out at 108
    with pytest.raises(RuleError, match="A is out") as err:
        play(g, {"A": 10, "B": 10, "C": 10})
    assert err.value.field == "totals.A"
    g = play(g, {"B": 4, "C": 12})
    assert g.round_scores[-1] == {"A": 0, "B": 4, "C": 12}
    assert g.totals["A"] == 108


def test_elimination_still_in_player_missing_is_rejected():
    g = play(elimination(), *[{"A": 36, "B": 10, "C": 10}] * 3)
    with pytest.raises(RuleError, match="No total given for C") as err:
        play(g, {"B": 10})
    assert err.value.field == "totals.C"


def test_elimination_last_player_left_wins():
    g = play(elimination(), *[{"A": 36, "B": 30, "C": 10}] * 3)  # A 108 out; B 90
    g = play(g, {"B": 10, "C": 10})  # B 100 out
    assert g.over and g.winners == ["C"]
    assert g.standings[0] == "C"


def test_elimination_all_remaining_out_in_one_round_lowest_total_among_them_wins():
    g = play(elimination(), {"A": 36, "B": 33, "C": 33}, {"A": 36, "B": 33, "C": 33}, {"A": 28, "B": 33, "C": 32})
    assert g.detail["out_in_round"] == {"A": 3}  # A at exactly 100; B 99, C 98
    g = play(g, {"B": 30, "C": 30})  # B 129, C 128: both out in round 4
    assert g.over and g.winners == ["C"]
    assert g.standings == ["C", "B", "A"]  # A has the lowest total (100) but went out first


def test_elimination_standings_rank_survivors_first_then_by_how_long_players_lasted():
    g = elimination(("A", "B", "C", "D"))
    g = play(g, {"A": 36, "B": 30, "C": 20, "D": 10}, {"A": 36, "B": 30, "C": 20, "D": 10})
    g = play(g, {"A": 30, "B": 36, "C": 20, "D": 10})  # A 102 and B 96: A out in round 3
    g = play(g, {"B": 4, "C": 20, "D": 30})  # B 100 out in round 4; C 80, D 60
    assert g.detail["out_in_round"] == {"A": 3, "B": 4}
    assert g.standings == ["D", "C", "B", "A"]


def test_elimination_all_remaining_out_with_equal_totals_share_the_win():
    g = play(elimination(("A", "B")), {"A": 36, "B": 36}, {"A": 36, "B": 36}, {"A": 30, "B": 30})
    assert g.over and g.winners == ["A", "B"]


def test_elimination_deal_skips_players_who_are_out():
    g = elimination(("A", "B", "C", "D"))
    assert g.next_round.dealer == "A"
    g = play(g, {"A": 10, "B": 36, "C": 10, "D": 10})
    assert g.next_round.dealer == "B"
    g = play(g, *[{"A": 10, "B": 36, "C": 10, "D": 10}] * 2)  # B out in round 3
    assert g.next_round.dealer == "D" and g.detail["starts_next_round"] == "A"
    g = play(g, {"A": 10, "C": 10, "D": 10})
    assert g.next_round.dealer == "A" and g.detail["starts_next_round"] == "C"


def test_elimination_replacing_an_earlier_round_replays_who_is_out():
    g = play(elimination(), *[{"A": 33, "B": 10, "C": 10}] * 3, {"A": 5, "B": 10, "C": 10})  # A 99, then 104
    assert g.detail["out_in_round"] == {"A": 4}
    with pytest.raises(RuleError, match="Round 4: A is out") as err:
        g.replace_round(0, {"totals": {"A": 36, "B": 10, "C": 10}})  # A would reach 102 in round 3
    assert err.value.field == "totals.A"
    assert g.totals["A"] == 104


def test_elimination_has_no_round_limit():
    g = elimination(("A", "B"))
    g = play(g, *[{"A": 0, "B": 4}] * 24)  # B at 96
    assert not g.over and g.detail["planned_rounds"] is None
    assert g.detail["elimination_limit"] == 100


# --- the limit ending (Rat-a-Tat Cat): someone reaches 100, the lowest total wins --------


def limit(players=("A", "B", "C")):
    return game(list(players), ending="limit")


def test_limit_the_round_in_which_someone_reaches_100_ends_the_game_and_the_lowest_total_wins():
    g = play(limit(), *[{"A": 33, "B": 20, "C": 25}] * 3)  # A 99, B 60, C 75
    assert not g.over
    g = play(g, {"A": 1, "B": 30, "C": 3})  # A 100
    assert g.totals == {"A": 100, "B": 90, "C": 78}
    assert g.over and g.winners == ["C"]
    assert g.standings == ["C", "B", "A"]


def test_limit_the_player_who_reaches_it_can_still_win_with_the_lowest_total():
    g = play(limit(("A", "B")), *[{"A": 36, "B": 36}] * 2, {"A": 30, "B": 36})  # A 102, B 108
    assert g.over and g.winners == ["A"]


def test_limit_equal_lowest_totals_share_the_win():
    g = play(limit(), *[{"A": 36, "B": 20, "C": 20}] * 3)  # A 108, B 60, C 60
    assert g.over and g.winners == ["B", "C"]


def test_limit_nobody_is_out_and_everyone_plays_every_round():
    g = play(limit(), *[{"A": 36, "B": 0, "C": 5}] * 2)  # A 72
    assert g.detail["still_in"] == ["A", "B", "C"] and g.detail["out_in_round"] == {}
    assert g.detail["game_ends_at"] == 100 and g.detail["elimination_limit"] is None
    assert g.detail["planned_rounds"] is None


def test_limit_no_round_after_the_game_is_over_and_undo_reopens_it():
    g = play(limit(), {"A": 36, "B": 0, "C": 5}, {"A": 36, "B": 0, "C": 5}, {"A": 36, "B": 0, "C": 5})
    assert g.over
    with pytest.raises(RuleError):
        g.add_round(totals_round(A=1, B=1, C=1))
    assert not g.undo().over


# --- dealing order ---------------------------------------------------------------------


def test_deal_passes_clockwise_from_the_first_player():
    g = game(["A", "B", "C", "D"])
    dealers = []
    for _ in range(4):
        dealers.append((g.next_round.number, g.next_round.dealer, g.detail["starts_next_round"]))
        g = play(g, {"A": 10, "B": 10, "C": 10, "D": 10})
    assert dealers == [(1, "A", "B"), (2, "B", "C"), (3, "C", "D"), (4, "D", "A")]


# --- entries the physical game cannot produce --------------------------------------------


@pytest.mark.parametrize(
    "rule, row, message",
    [
        ("card value 11 does not exist", [11, 0, 0, 0], "0 to 9"),
        ("negative card value", [-1, 0, 0, 0], "0 to 9"),
        ("special cards are replaced before scoring", ["swap", 0, 0, 0], "special"),
        ("true is not a card", [True, 0, 0, 0], "0 to 9"),
        ("a row has four cards, not three", [1, 2, 3], "exactly 4"),
        ("a row has four cards, not five", [1, 2, 3, 4, 5], "exactly 4"),
        ("a row is a list", 7, "exactly 4"),
    ],
)
def test_cards_rejected(rule, row, message):
    entry = {"cards": {"Alexander": row, "Joost": [1, 2, 1, 3], "Laurens": [0, 4, 8, 0]}}
    with pytest.raises(RuleError, match=message) as err:
        game().add_round(entry)
    assert err.value.field == "cards.Alexander"


@pytest.mark.parametrize(
    "rule, cards, message",
    [
        ("only four of each value 0 to 8", {"A": [3, 3, 3, 1], "B": [3, 3, 0, 0]}, "only 4 cards of value 3, but this round shows 5"),
        ("only nine 9s", {"A": [9, 9, 9, 9], "B": [9, 9, 9, 9], "C": [9, 9, 0, 0]}, "only 9 cards of value 9, but this round shows 10"),
    ],
)
def test_rows_needing_more_cards_than_the_deck_holds_are_rejected(rule, cards, message):
    players = list(cards)
    with pytest.raises(RuleError, match=message) as err:
        game(players).add_round({"cards": cards})
    assert err.value.field == "cards"


def test_all_nine_nines_and_four_of_each_other_value_may_show():
    g = game(["A", "B", "C"]).add_round({"cards": {"A": [9, 9, 9, 9], "B": [9, 9, 9, 9], "C": [9, 3, 3, 3]}})
    assert g.totals == {"A": 36, "B": 36, "C": 18}


@pytest.mark.parametrize(
    "rule, points, message, field",
    [
        ("above 36", {"A": 37, "B": 5, "C": 5}, "0 to 36", "totals.A"),
        ("below 0", {"A": -1, "B": 5, "C": 5}, "0 to 36", "totals.A"),
        ("not a number", {"A": "7", "B": 5, "C": 5}, "0 to 36", "totals.A"),
        ("true is not a number", {"A": True, "B": 5, "C": 5}, "0 to 36", "totals.A"),
        ("only four 0s: two players cannot both score 0", {"A": 0, "B": 0, "C": 5}, "lowest 8 cards", "totals.B"),
        ("0 and 3 both need 0s", {"A": 0, "B": 3, "C": 5}, "cannot score only 3", "totals.B"),
        ("only nine 9s: three players cannot all score 36", {"A": 36, "B": 36, "C": 36}, "highest 12 cards", "totals.C"),
    ],
)
def test_totals_rejected(rule, points, message, field):
    with pytest.raises(RuleError, match=message) as err:
        game(["A", "B", "C"]).add_round({"totals": points})
    assert err.value.field == field


def test_totals_the_deck_allows_at_its_limits_are_accepted():
    g = game(["A", "B", "C"]).add_round({"totals": {"A": 0, "B": 4, "C": 36}})  # 0000, 1111, 9999
    g = g.add_round({"totals": {"A": 35, "B": 35, "C": 35}})  # 9998 three times
    assert g.totals == {"A": 35, "B": 39, "C": 71}


@pytest.mark.parametrize(
    "rule, entry, message, field",
    [
        ("a player missing", {"totals": {"A": 10, "B": 20}}, "No total given for C", "totals.C"),
        ("a stranger", {"totals": {"A": 10, "B": 20, "C": 30, "Zed": 4}}, "Zed is not playing", "totals.Zed"),
        ("cards and totals together", {"cards": {}, "totals": {}}, "either", "cards"),
        ("neither cards nor totals", {}, "either", "cards"),
        ("an unknown part", {"totals": {"A": 10, "B": 20, "C": 30}, "bonus": 5}, "no 'bonus'", "bonus"),
        ("totals not a mapping", {"totals": [1, 2, 3]}, "map each player", "totals"),
        ("two players missing", {"totals": {"A": 10}}, "No total given for B and C", "totals.B"),
        ("cards not a mapping", {"cards": [[1, 1, 1, 1]]}, "cards must map each player", "cards"),
        ("a cards player missing", {"cards": {"A": [1, 1, 1, 1], "B": [2, 2, 2, 2]}}, "No cards given for C", "cards.C"),
    ],
)
def test_entries_rejected(rule, entry, message, field):
    with pytest.raises(RuleError, match=message) as err:
        game(["A", "B", "C"]).add_round(entry)
    assert err.value.field == field


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_two_to_six_players(players):
    with pytest.raises(RuleError, match=f"Beverbende is for 2 to 6 players, not {len(players)}"):
        BEVERBENDE.new_game(players)


def test_no_teams():
    with pytest.raises(RuleError, match="not played in teams"):
        BEVERBENDE.new_game(["A", "B", "C", "D"], teams={"AC": ["A", "C"], "BD": ["B", "D"]})


def test_cards_and_totals_entries_score_alike():
    by_cards = game(["A", "B"]).add_round({"cards": {"A": [0, 1, 2, 3], "B": [9, 9, 4, 4]}})
    by_totals = game(["A", "B"]).add_round({"totals": {"A": 6, "B": 26}})
    assert by_cards.round_scores == by_totals.round_scores


# --- referee helpers -------------------------------------------------------------------


@pytest.mark.parametrize(
    "turns, allowed",
    [
        ([1, 1, 1], True),  # the last of three players knocks after the first full circle
        ([1, 1, 0], False),  # the third player has not had a turn yet
        ([0, 0], False),
        ([3, 2, 2, 2], True),
    ],
)
def test_may_knock_only_after_every_player_has_had_a_turn(turns, allowed):
    assert may_knock(turns) is allowed


@pytest.mark.parametrize("turns", [[1], [1, -1], [1, 1.5]])
def test_may_knock_rejects_impossible_turn_counts(turns):
    with pytest.raises(RuleError):
        may_knock(turns)


def test_after_a_knock_everyone_else_plays_once_more_clockwise():
    assert last_turns(["A", "B", "C", "D"], "C") == ["D", "A", "B"]


def test_special_cards_are_replaced_starting_with_the_knocker():
    assert replacement_order(["A", "B", "C", "D"], "C") == ["C", "D", "A", "B"]
    with pytest.raises(RuleError, match="Zed is not at the table"):
        replacement_order(["A", "B"], "Zed")


def test_final_card_draws_until_a_number_card_comes():
    assert final_card([8]) == 8
    assert final_card(["peek", "draw_twice", 0, 5]) == 0
    with pytest.raises(RuleError, match="Keep drawing"):
        final_card(["swap", "peek"])
    with pytest.raises(RuleError, match="no Beverbende card"):
        final_card([11])


def test_final_row_replaces_several_special_cards_left_to_right():
    row, rest = final_row(["swap", 2, "peek", 1], [7, "swap", 3, 6])
    assert row == (7, 2, 3, 1)
    assert rest == (6,)


def test_final_row_needs_four_cards():
    with pytest.raises(RuleError, match="4 cards"):
        final_row([1, 2, 3], [])


# --- benchmark input -------------------------------------------------------------------


def test_long_game_replays_to_its_end():
    spec = long_game()
    start = BEVERBENDE.new_game(spec["players"], spec["options"], spec["teams"])
    g = Game.replay(BEVERBENDE, start.setup, spec["entries"])
    assert len(g.rounds) == 200 and g.over

"""MEMBERS ONLY: payouts, stones, counts, the end of the game, and every rejected entry."""

from __future__ import annotations

import copy

import pytest

from bench.long_games.members_only import long_game
from companion import rules
from companion.rules.base import Game, RuleError
from companion.rules.members_only import (
    FIELDS,
    SYMBOLS,
    bet_wins,
    betting_turns,
    face_up_at_scoring,
    least_total_count,
    payout,
    symbol_count,
)

MEMBERS_ONLY = rules.get("members_only")
THREE = ["Ann", "Bob", "Cy"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
# Fifteen cards in all: a total every table size allows.
COUNTS = {"umbrella": 3, "crown": 3, "teacup": 3, "big_ben": 3, "hat": 3}


def game(players=THREE):
    return MEMBERS_ONLY.new_game(players)


def bet(player, symbol, field, stone="single", risk=False):
    return {"player": player, "symbol": symbol, "field": field, "stone": stone, "risk": risk}


def hand(*bets, **counts):
    return {"bets": list(bets), "counts": {**COUNTS, **counts}}


def rejected(g, entry):
    with pytest.raises(RuleError) as err:
        g.add_round(entry)
    return err.value


def reach_everywhere(player):
    """A hand in which ``player`` reaches 5 on every symbol: 5 points on four, 10 on the umbrella."""
    counts = {symbol: 1 for symbol in SYMBOLS}
    counts["umbrella"] = 11  # keeps the total within what the table allows
    bets = [bet(player, s, "<=1") for s in SYMBOLS if s != "umbrella"] + [bet(player, "umbrella", ">=8", "double")]
    return {"bets": bets, "counts": counts}


# --- the ruleset --------------------------------------------------------------------------


def test_registry_metadata():
    assert (MEMBERS_ONLY.id, MEMBERS_ONLY.name) == ("members_only", "MEMBERS ONLY")
    assert (MEMBERS_ONLY.min_players, MEMBERS_ONLY.max_players) == (3, 5)
    assert MEMBERS_ONLY.options == ()
    assert not MEMBERS_ONLY.lowest_wins


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["A", "B", "C", "D", "E", "F"]])
def test_three_to_five_players(players):
    with pytest.raises(RuleError, match=f"MEMBERS ONLY is for 3 to 5 players, not {len(players)}"):
        game(players)


def test_not_played_in_teams():
    with pytest.raises(RuleError, match="not played in teams"):
        MEMBERS_ONLY.new_game(FOUR, teams={"A": ["Ann", "Cy"], "B": ["Bob", "Dee"]})


def test_every_player_starts_with_four_singles_one_double_and_empty_tracks():
    detail = game(FIVE).detail
    assert detail["stones"] == {p: {"single": 4, "double": 1} for p in FIVE}
    assert detail["tracks"] == {p: dict.fromkeys(SYMBOLS, 0) for p in FIVE}
    assert detail["last_hand"] is None and detail["symbols_reached"] == []


# --- the rulebook's example ---------------------------------------------------------------


def test_rulebook_example_three_umbrellas_pay_the_double_on_3_or_fewer_4_and_the_single_on_4_or_fewer_1():
    entry = hand(
        bet("Ann", "umbrella", "<=3", "double"),
        bet("Bob", "umbrella", "<=4"),
        bet("Cy", "umbrella", "<=2"),
        bet("Cy", "umbrella", "<=1"),
        bet("Ann", "umbrella", ">=5"),
        bet("Bob", "umbrella", ">=8"),
        umbrella=3,
    )
    g = game().add_round(entry)
    tracks = g.detail["tracks"]
    assert (tracks["Ann"]["umbrella"], tracks["Bob"]["umbrella"], tracks["Cy"]["umbrella"]) == (4, 1, 0)
    assert g.detail["stones"] == {
        "Ann": {"single": 3, "double": 1},
        "Bob": {"single": 3, "double": 1},
        "Cy": {"single": 2, "double": 1},
    }
    assert [(b["player"], b["field"], b["won"], b["points"]) for b in g.detail["last_hand"]["bets"]] == [
        ("Ann", "<=3", True, 4),
        ("Bob", "<=4", True, 1),
        ("Cy", "<=2", False, 0),
        ("Cy", "<=1", False, 0),
        ("Ann", ">=5", False, 0),
        ("Bob", ">=8", False, 0),
    ]
    assert g.round_scores == [{"Ann": 0, "Bob": 0, "Cy": 0}]  # tracks at 1..4 do not count yet


# --- fields and payouts -------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, pays, last_winning, first_losing",
    [
        ("<=1", 5, 1, 2),
        ("<=2", 3, 2, 3),
        ("<=3", 2, 3, 4),
        ("<=4", 1, 4, 5),
        (">=5", 1, 5, 4),
        (">=6", 2, 6, 5),
        (">=7", 3, 7, 6),
        (">=8", 5, 8, 7),
    ],
)
def test_each_field_pays_its_points_when_right_and_nothing_when_wrong(field, pays, last_winning, first_losing):
    assert bet_wins(field, last_winning) and payout(field, last_winning) == pays
    assert not bet_wins(field, first_losing) and payout(field, first_losing) == 0
    extreme = 0 if field.startswith("<=") else 11
    assert payout(field, extreme) == pays


@pytest.mark.parametrize(
    "stone, risk, multiplier", [("single", False, 1), ("double", False, 2), ("single", True, 2), ("double", True, 3)]
)
def test_stone_multipliers(stone, risk, multiplier):
    assert payout(">=8", 9, stone, risk) == 5 * multiplier
    assert payout(">=8", 7, stone, risk) == 0


def test_payout_rejects_unknown_fields_and_stones():
    with pytest.raises(RuleError, match="'>=9' is not a betting field"):
        payout(">=9", 3)
    with pytest.raises(RuleError, match="single or double, not 'triple'"):
        payout("<=1", 0, "triple")


@pytest.mark.parametrize("shown, minus, count", [(5, 0, 5), (5, 2, 3), (1, 2, 0), (0, 2, 0), (11, 1, 10)])
def test_minus_cards_cancel_cards_of_their_symbol_never_below_zero(shown, minus, count):
    assert symbol_count(shown, minus) == count


def test_shown_and_minus_cards_decide_the_bets_like_counts():
    entry = {
        "bets": [bet("Ann", "hat", "<=1"), bet("Bob", "crown", ">=5"), bet("Cy", "teacup", "<=2")],
        "shown": {"umbrella": 4, "crown": 7, "teacup": 3, "big_ben": 6, "hat": 1},
        "minus": {"crown": 2, "teacup": 1, "hat": 2},
    }
    g = game().add_round(entry)
    assert g.detail["last_hand"]["counts"] == {"umbrella": 4, "crown": 5, "teacup": 2, "big_ben": 6, "hat": 0}
    assert {p: t for p, t in g.detail["tracks"].items()} == {
        "Ann": {**dict.fromkeys(SYMBOLS, 0), "hat": 5},
        "Bob": {**dict.fromkeys(SYMBOLS, 0), "crown": 1},
        "Cy": {**dict.fromkeys(SYMBOLS, 0), "teacup": 3},
    }


def test_several_stones_of_one_player_in_one_column_each_score():
    g = game().add_round(hand(bet("Ann", "hat", ">=5"), bet("Ann", "hat", ">=6", "double"), hat=6))
    assert g.detail["tracks"]["Ann"]["hat"] == 5
    assert g.round_scores == [{"Ann": 5, "Bob": 0, "Cy": 0}]


# --- tracks --------------------------------------------------------------------------------


def test_a_track_never_passes_ten_and_the_excess_is_lost():
    g = game().add_round(hand(bet("Ann", "crown", ">=8", "double", risk=True), crown=9))
    assert g.detail["tracks"]["Ann"]["crown"] == 10  # 15 points, capped
    g = g.add_round(hand(bet("Ann", "crown", "<=4"), crown=2))
    assert g.detail["tracks"]["Ann"]["crown"] == 10
    assert g.round_scores == [{"Ann": 10, "Bob": 0, "Cy": 0}, {"Ann": 0, "Bob": 0, "Cy": 0}]


def test_a_rounds_score_is_how_much_the_total_that_would_count_changed():
    g = game().add_round(hand(bet("Ann", "teacup", "<=3"), teacup=2))
    assert g.detail["tracks"]["Ann"]["teacup"] == 2 and g.round_scores[-1]["Ann"] == 0
    g = g.add_round(hand(bet("Ann", "teacup", "<=2", "double"), teacup=1))
    assert g.detail["tracks"]["Ann"]["teacup"] == 8 and g.round_scores[-1]["Ann"] == 8
    g = g.add_round(hand(bet("Ann", "teacup", "<=1"), teacup=0))
    assert g.detail["tracks"]["Ann"]["teacup"] == 10 and g.round_scores[-1]["Ann"] == 2
    assert g.totals == {"Ann": 10, "Bob": 0, "Cy": 0}


# --- stones: lost, returned, refilled -----------------------------------------------------


def test_a_wrong_bet_loses_its_stone_and_a_right_bet_returns_it():
    g = game().add_round(hand(bet("Ann", "crown", ">=8", "double"), bet("Ann", "hat", "<=3"), crown=3, hat=3))
    assert g.detail["stones"]["Ann"] == {"single": 4, "double": 0}


def test_a_lost_stone_cannot_be_used_again():
    g = game().add_round(hand(bet("Ann", "crown", ">=8", "double"), crown=3))
    err = rejected(g, hand(bet("Ann", "hat", "<=3", "double")))
    assert (err.message, err.field) == ("Ann has no double stone left.", "bets.0.stone")


def test_betting_more_singles_than_a_player_still_has_is_rejected():
    g = game().add_round(hand(bet("Bob", "crown", ">=8"), bet("Bob", "hat", ">=8"), crown=3, hat=3))
    four = [bet("Bob", s, "<=4") for s in ("umbrella", "crown", "teacup")]
    err = rejected(g, hand(*four))
    assert (err.message, err.field) == ("Bob has only 2 single stones left, not 3.", "bets.2.stone")


def test_two_doubles_in_one_hand_are_rejected():
    err = rejected(game(), hand(bet("Cy", "crown", "<=4", "double"), bet("Cy", "hat", "<=4", "double")))
    assert (err.message, err.field) == ("Cy has only 1 double stone left, not 2.", "bets.1.stone")


def test_five_singles_in_one_hand_are_rejected():
    err = rejected(game(), hand(*[bet("Ann", s, "<=4") for s in SYMBOLS]))
    assert err.message == "Ann has only 4 single stones left, not 5." and err.field == "bets.4.stone"


def test_the_risk_stone_always_returns():
    g = game().add_round(hand(bet("Ann", "crown", ">=8", "single", risk=True), crown=3))
    assert g.detail["stones"]["Ann"] == {"single": 3, "double": 1}
    g = g.add_round(hand(bet("Ann", "crown", "<=4", "double", risk=True), crown=3))
    assert g.detail["tracks"]["Ann"]["crown"] == 3


@pytest.mark.parametrize(
    "lost_singles, lost_double, left_after, refilled",
    [
        (4, True, {"single": 4, "double": 1}, True),  # none left
        (4, False, {"single": 4, "double": 1}, True),  # only the double left
        (3, True, {"single": 4, "double": 1}, True),  # one single left
        (3, False, {"single": 1, "double": 1}, False),  # two left
        (2, True, {"single": 2, "double": 0}, False),
    ],
)
def test_a_player_left_with_one_betting_stone_or_none_gets_all_back(lost_singles, lost_double, left_after, refilled):
    symbols = ["umbrella", "crown", "teacup", "big_ben"][:lost_singles]
    bets = [bet("Ann", s, ">=8") for s in symbols]
    if lost_double:
        bets.append(bet("Ann", "hat", ">=8", "double"))
    g = game().add_round(hand(*bets))
    assert g.detail["stones"]["Ann"] == left_after
    assert g.detail["last_hand"]["refilled"] == (["Ann"] if refilled else [])


def test_stones_lost_over_several_hands_come_back_once_at_most_one_is_left():
    g = game().add_round(hand(bet("Ann", "crown", ">=8"), bet("Ann", "hat", ">=8")))
    g = g.add_round(hand(bet("Ann", "crown", ">=8"), bet("Ann", "hat", "<=4")))
    assert g.detail["stones"]["Ann"] == {"single": 1, "double": 1}
    assert g.detail["last_hand"]["refilled"] == []
    g = g.add_round(hand(bet("Ann", "crown", ">=8", "double")))
    assert g.detail["stones"]["Ann"] == {"single": 4, "double": 1}
    assert g.detail["last_hand"]["refilled"] == ["Ann"]


def test_a_player_may_deliberately_lose_to_get_stones_back():
    g = game().add_round(hand(bet("Bob", "umbrella", ">=8"), bet("Bob", "crown", ">=8")))
    assert g.detail["stones"]["Bob"] == {"single": 2, "double": 1}
    g = g.add_round(hand(bet("Bob", "teacup", ">=8"), bet("Bob", "hat", ">=6", "double"), bet("Bob", "hat", "<=3")))
    # One single won and came back, the other single and the double were lost: one stone left.
    assert g.detail["tracks"]["Bob"]["hat"] == 2
    assert g.detail["last_hand"]["refilled"] == ["Bob"]
    assert g.detail["stones"]["Bob"] == {"single": 4, "double": 1}


# --- turns per hand -----------------------------------------------------------------------


@pytest.mark.parametrize("players, turns, face_up, least", [(THREE, 5, 32, 12), (FOUR, 4, 34, 14), (FIVE, 3, 32, 12)])
def test_hand_sizes_give_the_turns_and_face_up_cards(players, turns, face_up, least):
    assert betting_turns(len(players)) == turns
    assert face_up_at_scoring(len(players)) == face_up
    assert least_total_count(len(players)) == least
    assert game(players).detail["turns_per_hand"] == turns


def test_a_player_places_at_most_one_stone_per_turn():
    four = [bet("Ann", s, "<=4") for s in ("umbrella", "crown", "teacup", "big_ben")]
    g = game(FOUR).add_round(hand(*four))
    assert g.detail["tracks"]["Ann"]["umbrella"] == 1
    err = rejected(game(FOUR), hand(*four, bet("Ann", "hat", "<=4", "double")))
    assert err.message == "With 4 players everyone gets 4 turns to bet in a hand, so Ann cannot place 5 stones."
    assert err.field == "bets.4.player"
    err = rejected(game(FIVE), hand(*four))
    assert err.message == "With 5 players everyone gets 3 turns to bet in a hand, so Ann cannot place 4 stones."
    all_five = [bet("Ann", s, "<=4") for s in SYMBOLS[:4]] + [bet("Ann", "hat", "<=4", "double")]
    assert game(THREE).add_round(hand(*all_five)).detail["tracks"]["Ann"]["hat"] == 2


def test_a_hand_without_bets_is_fine():
    for entry in ({"counts": COUNTS}, {"bets": [], "counts": COUNTS}):
        g = game().add_round(entry)
        assert g.round_scores == [{"Ann": 0, "Bob": 0, "Cy": 0}] and g.detail["last_hand"]["bets"] == []


# --- one stone per field, one risk stone -----------------------------------------------------


def test_a_field_holds_one_stone():
    err = rejected(game(), hand(bet("Ann", "umbrella", ">=5"), bet("Bob", "umbrella", ">=5")))
    assert err.message == "Ann and Bob cannot both bet on 5 or more under the umbrella; a field holds one stone."
    assert err.field == "bets.1.field"
    err = rejected(game(), hand(bet("Cy", "big_ben", "<=1"), bet("Cy", "big_ben", "<=1", "double")))
    assert err.message == "Cy cannot put two stones on 1 or fewer under the Big Ben; a field holds one stone."


def test_the_same_field_under_another_symbol_is_free():
    g = game().add_round(hand(bet("Ann", "umbrella", ">=5"), bet("Bob", "crown", ">=5")))
    assert len(g.detail["last_hand"]["bets"]) == 2


def test_only_one_bet_per_player_and_hand_can_be_on_the_risk_stone():
    err = rejected(game(), hand(bet("Ann", "crown", "<=3", risk=True), bet("Ann", "hat", "<=3", risk=True)))
    assert err.message == "Ann has one risk stone, so only one of their bets in a hand can be on it."
    assert err.field == "bets.1.risk"
    g = game().add_round(
        hand(*[bet(p, s, "<=3", risk=True) for p, s in zip(THREE, ("crown", "hat", "teacup"))], crown=2)
    )
    assert g.detail["tracks"]["Ann"]["crown"] == 4


# --- malformed bets and entries -------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, field, message",
    [
        (hand(bet("Zed", "hat", "<=1")), "bets.0.player", "Zed is not at this table."),
        (hand({"symbol": "hat", "field": "<=1"}), "bets.0.player", "Bet 1 needs the player who placed it."),
        (hand(bet("Ann", "rain", "<=1")), "bets.0.symbol", "Ann's bet needs a symbol"),
        (hand(bet("Ann", ["hat"], "<=1")), "bets.0.symbol", "Ann's bet needs a symbol"),
        (hand(bet("Ann", "hat", "<=9")), "bets.0.field", "'<=9' is not a betting field"),
        (hand(bet("Ann", "hat", 5)), "bets.0.field", "5 is not a betting field"),
        (hand(bet("Ann", "hat", "<=1", "triple")), "bets.0.stone", "single or double, not 'triple'"),
        (hand(bet("Ann", "hat", "<=1", risk="yes")), "bets.0.risk", "must be true or false"),
        (hand({**bet("Ann", "hat", "<=1"), "stones": 2}), "bets.0.stones", "Bet 1 has no part called 'stones'"),
        (hand("Ann on hat"), "bets.0", "Bet 1 must be given as name: value pairs"),
        ({"bets": {"Ann": "hat"}, "counts": COUNTS}, "bets", "The bets must be a list"),
        ({"counts": COUNTS, "notes": "x"}, "notes", "A hand has no part called 'notes'"),
    ],
)
def test_malformed_bets_are_rejected_naming_the_part(entry, field, message):
    err = rejected(game(), entry)
    assert err.field == field and message in err.message


def test_defaults_single_stone_without_risk():
    g = game().add_round({"bets": [{"player": "Ann", "symbol": "hat", "field": ">=8"}], "counts": COUNTS})
    assert g.detail["last_hand"]["bets"][0] | {"stone": "single", "risk": False} == g.detail["last_hand"]["bets"][0]
    assert g.detail["stones"]["Ann"] == {"single": 3, "double": 1}


# --- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, field, message",
    [
        ({"bets": []}, "counts", "The hand needs its counts"),
        ({"minus": {"hat": 1}}, "counts", "The hand needs its counts"),
        ({"counts": {**COUNTS, "hat": None}}, "counts.hat", "How many hat cards are face up?"),
        ({"counts": {k: v for k, v in COUNTS.items() if k != "big_ben"}}, "counts.big_ben", "How many Big Ben"),
        ({"counts": {**COUNTS, "rain": 2}}, "counts.rain", "'rain' is not a symbol"),
        ({"counts": {**COUNTS, "hat": -1}}, "counts.hat", "must be a whole number of cards, not -1"),
        ({"counts": {**COUNTS, "hat": 2.5}}, "counts.hat", "must be a whole number of cards, not 2.5"),
        ({"counts": {**COUNTS, "hat": True}}, "counts.hat", "must be a whole number of cards, not True"),
        ({"counts": {**COUNTS, "hat": 12}}, "counts.hat", "There are only 11 hat cards, so 12 cannot be face up."),
        ({"counts": [3, 3, 3, 3, 3]}, "counts", "must map each symbol"),
        ({"counts": COUNTS, "shown": COUNTS}, "counts", "not both"),
        ({"counts": COUNTS, "minus": {}}, "counts", "not both"),
        ({"shown": {**COUNTS, "crown": 12}}, "shown.crown", "There are only 11 crown cards"),
        ({"shown": COUNTS, "minus": {"teacup": 3}}, "minus.teacup", "only 2 teacup minus cards, so 3 cannot"),
        ({"shown": COUNTS, "minus": {"tea": 1}}, "minus.tea", "'tea' is not a symbol"),
    ],
)
def test_malformed_counts_are_rejected_naming_the_part(entry, field, message):
    err = rejected(game(), entry)
    assert err.field == field and message in err.message


@pytest.mark.parametrize(
    "players, counts_total, allowed",
    [(THREE, 32, True), (THREE, 33, False), (FOUR, 34, True), (FOUR, 35, False), (FIVE, 32, True), (FIVE, 33, False)],
)
def test_counts_cannot_add_up_to_more_cards_than_end_face_up(players, counts_total, allowed):
    counts = {symbol: min(11, max(0, counts_total - 11 * i)) for i, symbol in enumerate(SYMBOLS)}
    entry = {"counts": counts}
    if allowed:
        assert game(players).add_round(entry).detail["last_hand"]["counts"] == counts
    else:
        err = rejected(game(players), entry)
        assert err.field == "counts" and f"cannot add up to {counts_total}" in err.message


@pytest.mark.parametrize(
    "players, counts_total, allowed",
    [(THREE, 12, True), (THREE, 11, False), (FOUR, 14, True), (FOUR, 13, False), (FIVE, 12, True), (FIVE, 11, False)],
)
def test_minus_cards_cannot_cancel_more_than_twenty_cards(players, counts_total, allowed):
    counts = dict(zip(SYMBOLS, (counts_total - 10, 10, 0, 0, 0)))
    if allowed:
        assert game(players).add_round({"counts": counts}).over is False
    else:
        err = rejected(game(players), {"counts": counts})
        assert err.field == "counts" and f"at least {counts_total + 1}, not {counts_total}" in err.message
        shown = rejected(game(players), {"shown": counts})
        assert shown.field == "shown"


def test_shown_and_minus_cards_together_cannot_exceed_the_face_up_cards():
    shown = {"umbrella": 11, "crown": 11, "teacup": 6, "big_ben": 0, "hat": 0}
    assert game().add_round({"shown": shown, "minus": {"big_ben": 2, "hat": 2}}).detail["last_hand"]["counts"] == {
        **shown,
        "big_ben": 0,
        "hat": 0,
    }
    err = rejected(game(), {"shown": shown, "minus": {"big_ben": 2, "hat": 2, "teacup": 1}})
    assert (err.field, err.message) == ("shown", "With 3 players 32 cards end face up, not 33.")


def test_counts_after_removing_cancelled_pairs_are_accepted():
    # 32 face up: 6 pairs cancelled and removed from the table leave 20 cards.
    shown = {"umbrella": 8, "crown": 4, "teacup": 3, "big_ben": 3, "hat": 2}
    assert game().add_round({"shown": shown}).detail["last_hand"]["counts"] == shown


# --- the end of the game ------------------------------------------------------------------


def test_the_game_ends_after_a_scoring_that_leaves_every_symbol_with_a_marker_at_five():
    g = game().add_round(
        hand(
            bet("Ann", "umbrella", "<=1"),
            bet("Ann", "crown", "<=1"),
            bet("Bob", "teacup", "<=1"),
            bet("Bob", "big_ben", "<=1"),
            bet("Cy", "hat", "<=2"),
            umbrella=1,
            crown=1,
            teacup=0,
            big_ben=1,
            hat=10,
        )
    )
    assert not g.over and g.winners == []
    assert g.detail["symbols_reached"] == ["umbrella", "crown", "teacup", "big_ben"]
    g = g.add_round(hand(bet("Cy", "hat", ">=8", "double", risk=True), hat=11))
    assert g.over
    assert g.totals == {"Ann": 10, "Bob": 10, "Cy": 10}
    assert g.winners == ["Ann", "Bob", "Cy"]  # a shared win
    err = rejected(g, hand())
    assert "The game is over" in err.message


def test_only_tracks_at_five_to_ten_count_at_the_end():
    g = game().add_round(reach_everywhere("Ann"))
    g2 = game().add_round(hand(bet("Bob", "crown", "<=4"), bet("Bob", "hat", ">=5", "double"), crown=4, hat=6))
    g2 = g2.add_round(reach_everywhere("Ann"))
    assert g.over and g2.over
    assert g2.detail["tracks"]["Bob"]["crown"] == 1 and g2.detail["tracks"]["Bob"]["hat"] == 2
    assert g.totals == g2.totals == {"Ann": 30, "Bob": 0, "Cy": 0} and g2.winners == ["Ann"]


def test_highest_sum_wins_and_a_tie_is_shared():
    entry = {
        "bets": [
            bet("Ann", "umbrella", "<=1"),
            bet("Ann", "crown", "<=1"),
            bet("Bob", "teacup", "<=1"),
            bet("Bob", "big_ben", "<=1"),
            bet("Cy", "hat", ">=8"),
        ],
        "counts": {"umbrella": 1, "crown": 1, "teacup": 0, "big_ben": 1, "hat": 11},
    }
    g = game().add_round(entry)
    assert g.over and g.totals == {"Ann": 10, "Bob": 10, "Cy": 5}
    assert g.winners == ["Ann", "Bob"]
    entry["bets"][-1] = bet("Cy", "hat", ">=8", "double", risk=True)
    g = game().add_round(entry)
    assert g.totals == {"Ann": 10, "Bob": 10, "Cy": 10} and g.winners == ["Ann", "Bob", "Cy"]
    entry["bets"][0] = bet("Ann", "umbrella", "<=1", "double")
    g = game().add_round(entry)
    assert g.totals == {"Ann": 15, "Bob": 10, "Cy": 10} and g.winners == ["Ann"]


def test_a_full_game_to_its_end():
    g = game(FOUR)
    hands = [
        hand(
            bet("Ann", "umbrella", "<=3", "double", risk=True),
            bet("Bob", "umbrella", ">=5"),
            bet("Cy", "hat", ">=6", risk=True),
            bet("Dee", "crown", "<=2"),
            bet("Dee", "crown", ">=7", "double"),
            umbrella=2,
            crown=7,
            hat=6,
        ),
        hand(
            bet("Ann", "teacup", ">=5"),
            bet("Bob", "big_ben", "<=4", "double", risk=True),
            bet("Cy", "hat", ">=7"),
            bet("Dee", "crown", ">=8", risk=True),
            umbrella=4,
            teacup=5,
            big_ben=4,
            hat=7,
            crown=8,
        ),
        hand(
            bet("Ann", "teacup", ">=6", "double"),
            bet("Bob", "big_ben", "<=3"),
            bet("Cy", "umbrella", "<=1"),
            bet("Dee", "big_ben", "<=2"),
            teacup=6,
            big_ben=3,
            umbrella=2,
        ),
    ]
    for entry in hands:
        g = g.add_round(entry)
    assert g.over and len(g.rounds) == 3
    assert g.detail["tracks"] == {
        "Ann": {"umbrella": 6, "crown": 0, "teacup": 5, "big_ben": 0, "hat": 0},
        "Bob": {"umbrella": 0, "crown": 0, "teacup": 0, "big_ben": 5, "hat": 0},
        "Cy": {"umbrella": 0, "crown": 0, "teacup": 0, "big_ben": 0, "hat": 7},
        "Dee": {"umbrella": 0, "crown": 10, "teacup": 0, "big_ben": 0, "hat": 0},
    }
    assert g.round_scores == [
        {"Ann": 6, "Bob": 0, "Cy": 0, "Dee": 6},
        {"Ann": 0, "Bob": 0, "Cy": 7, "Dee": 4},
        {"Ann": 5, "Bob": 5, "Cy": 0, "Dee": 0},
    ]
    assert g.totals == {"Ann": 11, "Bob": 5, "Cy": 7, "Dee": 10}
    assert g.standings == ["Ann", "Dee", "Cy", "Bob"] and g.winners == ["Ann"]
    assert g.detail["stones"] == {
        "Ann": {"single": 4, "double": 1},
        "Bob": {"single": 3, "double": 1},
        "Cy": {"single": 3, "double": 1},
        "Dee": {"single": 2, "double": 1},
    }


# --- dealer and starter ---------------------------------------------------------------------


def test_the_starter_of_a_hand_deals_the_next_one():
    g = game(FOUR)
    seen = []
    for _ in range(5):
        upcoming = g.next_round
        seen.append((upcoming.number, upcoming.dealer, g.detail["starter"], upcoming.playing))
        g = g.add_round(hand())
    assert seen == [
        (1, "Ann", "Bob", None),
        (2, "Bob", "Cy", None),
        (3, "Cy", "Dee", None),
        (4, "Dee", "Ann", None),
        (5, "Ann", "Bob", None),
    ]


# --- history edits ------------------------------------------------------------------------


def test_editing_an_earlier_hand_rechecks_the_stones_of_later_hands():
    g = game().add_round(hand(bet("Ann", "crown", ">=5", "double"), crown=6))
    g = g.add_round(hand(bet("Ann", "hat", "<=3", "double")))
    with pytest.raises(RuleError, match="Round 2: Ann has no double stone left."):
        g.replace_round(0, hand(bet("Ann", "crown", ">=5", "double"), crown=4))
    assert g.undo().undo().detail == game().detail


def test_entries_are_not_changed():
    entry = {
        "bets": [bet("Ann", "hat", "<=3")],
        "shown": {"umbrella": 4, "crown": 7, "teacup": 3, "big_ben": 6, "hat": 1},
        "minus": {"crown": 2, "hat": 1},
    }
    kept = copy.deepcopy(entry)
    g = game().add_round(entry)
    assert entry == kept and g.rounds == [kept]


def test_every_field_and_symbol_is_offered():
    assert SYMBOLS == ("umbrella", "crown", "teacup", "big_ben", "hat")
    assert FIELDS == ("<=1", "<=2", "<=3", "<=4", ">=5", ">=6", ">=7", ">=8")


def test_long_game_replays_to_its_end():
    spec = long_game()
    assert spec["ruleset"] == "members_only" and len(spec["entries"]) == 200
    start = MEMBERS_ONLY.new_game(spec["players"], spec["options"], spec["teams"])
    replayed = Game.replay(MEMBERS_ONLY, start.setup, spec["entries"])
    assert replayed.over and len(replayed.rounds) == 200
    assert not Game.replay(MEMBERS_ONLY, start.setup, spec["entries"][:-1]).over


@pytest.mark.parametrize(
    "players, shown, hat_minus, allowed",
    [
        (THREE, (11, 11, 8, 0, 0), 2, True),  # 32: everything face up
        (THREE, (11, 11, 4, 0, 0), 2, True),  # 28: two cancelled pairs taken off
        (THREE, (11, 11, 7, 0, 0), 2, False),
        (THREE, (11, 11, 8, 0, 0), 1, False),
        (FOUR, (11, 11, 10, 0, 0), 2, True),  # 34
        (FOUR, (11, 11, 9, 0, 0), 2, False),
        (FIVE, (8, 4, 3, 3, 2), 0, True),  # 32 less six pairs
        (FIVE, (8, 4, 3, 3, 3), 0, False),
    ],
)
def test_shown_and_minus_cards_are_an_even_number(players, shown, hat_minus, allowed):
    """32 / 34 / 32 cards end face up and cancelled pairs leave in twos: never an odd number."""
    entry = {"shown": dict(zip(SYMBOLS, shown)), "minus": {"hat": hat_minus}}
    if allowed:
        assert game(players).add_round(entry).rounds == [entry]
    else:
        err = rejected(game(players), entry)
        assert err.field == "shown" and f"even number, not {sum(shown) + hat_minus}" in err.message


def test_each_bet_says_how_far_its_track_moved_which_stops_at_10():
    g = game().add_round(hand(bet("Ann", "umbrella", "<=1"), umbrella=1))
    assert g.detail["last_hand"]["bets"][0]["moved"] == 5
    g = g.add_round(hand(bet("Ann", "umbrella", ">=8", "double", risk=True), bet("Ann", "crown", "<=3"), umbrella=11))
    assert [(b["points"], b["moved"]) for b in g.detail["last_hand"]["bets"]] == [(15, 5), (2, 2)]
    assert g.detail["tracks"]["Ann"]["umbrella"] == 10
    g = g.add_round(hand(bet("Ann", "umbrella", ">=5"), bet("Bob", "hat", "<=1"), umbrella=11))
    assert [(b["points"], b["moved"]) for b in g.detail["last_hand"]["bets"]] == [(1, 0), (0, 0)]

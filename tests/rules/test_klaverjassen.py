"""Klaverjassen ruleset: teams, who plays, scoring of a deal, options, endings and rejections."""

from __future__ import annotations

import pytest

from bench.long_games.klaverjassen import long_game
from companion import rules
from companion.rules import Game, RuleError
from companion.rules.klaverjassen import (
    POSSIBLE_CARD_POINTS,
    legal_cards,
    roem_without_card_points,
    trick_points,
    trick_roem,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
A = "Ann & Cy"  # seats 1 and 3
B = "Bob & Dee"  # seats 2 and 4; Bob sits left of Ann, who deals first, so B plays deal 1

KLAVERJASSEN = rules.get("klaverjassen")


def new_game(**options) -> Game:
    return KLAVERJASSEN.new_game(PLAYERS, options)


def deal(a: int | None, b: int | None, roem_a: int = 0, roem_b: int = 0, **extra) -> dict:
    """An entry with card points and roem for teams A and B."""
    entry: dict = {"roem": {A: roem_a, B: roem_b}, **extra}
    if a is not None:
        entry["card_points"] = {A: a, B: b}
    return entry


def win_for(team: str) -> dict:
    """A deal where the other team reneged: ``team`` scores 162."""
    return {"verzaakt": B if team == A else A}


def play(game: Game, *entries: dict) -> Game:
    for entry in entries:
        game = game.add_round(entry)
    return game


# --- the ruleset and its setup -------------------------------------------------------------


def test_ruleset_identity():
    assert KLAVERJASSEN.id == "klaverjassen"
    assert KLAVERJASSEN.name == "Klaverjassen"
    assert (KLAVERJASSEN.min_players, KLAVERJASSEN.max_players) == (4, 4)
    assert KLAVERJASSEN in rules.rulesets()


def test_options_have_names_defaults_and_one_line_descriptions():
    defaults = {o.name: o.default for o in KLAVERJASSEN.options}
    assert defaults == {
        "variant": "amsterdam",
        "four_jacks": 200,
        "four_of_a_kind": "all",
        "runs_by_colour": False,
        "nat_on_card_points": False,
        "defenders_pit_bonus": False,
        "verzaakt_penalty": False,
        "ending": "501",
    }
    for option in KLAVERJASSEN.options:
        assert option.description and "\n" not in option.description


def test_default_teams_are_opposite_seats_named_after_their_players():
    game = new_game()
    assert game.teams == {A: ("Ann", "Cy"), B: ("Bob", "Dee")}
    assert game.sides == (A, B)


@pytest.mark.parametrize(
    "teams",
    [
        {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
        {"Them": ["Dee", "Bob"], "Us": ["Cy", "Ann"]},
    ],
)
def test_given_teams_of_opposite_partners_are_kept(teams):
    game = KLAVERJASSEN.new_game(PLAYERS, teams=teams)
    assert game.teams == {name: tuple(members) for name, members in teams.items()}
    assert game.next_round.playing == game.setup.team_of("Bob")


@pytest.mark.parametrize(
    "teams, words",
    [
        ({"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]}, "opposite"),
        ({"Us": ["Ann", "Dee"], "Them": ["Bob", "Cy"]}, "opposite"),
        ({"All": ["Ann", "Bob", "Cy", "Dee"]}, "two teams of two"),
        ({"Us": ["Ann"], "Them": ["Cy"], "Rest": ["Bob", "Dee"]}, "two teams of two"),
        ({"Us": ["Ann", "Cy", "Bob"], "Them": ["Dee"]}, "two teams of two"),
    ],
)
def test_teams_must_be_two_pairs_of_opposite_partners(teams, words):
    with pytest.raises(RuleError) as err:
        KLAVERJASSEN.new_game(PLAYERS, teams=teams)
    assert words in err.value.message
    assert err.value.field == "teams"


@pytest.mark.parametrize("players", [PLAYERS[:3], PLAYERS + ["Eve"]])
def test_exactly_four_players(players):
    with pytest.raises(RuleError) as err:
        KLAVERJASSEN.new_game(players)
    assert err.value.field == "players"


@pytest.mark.parametrize(
    "options",
    [{"ending": "99"}, {"four_jacks": 150}, {"variant": "utrecht"}, {"nat": True}, {"four_of_a_kind": "some"}],
)
def test_unknown_options_and_values_are_rejected(options):
    with pytest.raises(RuleError):
        new_game(**options)


# --- who deals and who plays ----------------------------------------------------------------


def test_dealer_moves_left_and_the_player_left_of_the_dealer_plays():
    game = new_game(ending="boompje")
    seen = []
    for _ in range(6):
        nxt = game.next_round
        seen.append((nxt.number, nxt.dealer, nxt.playing))
        game = game.add_round(deal(81, 81))
    assert seen == [
        (1, "Ann", B),
        (2, "Bob", A),
        (3, "Cy", B),
        (4, "Dee", A),
        (5, "Ann", B),
        (6, "Bob", A),
    ]


def test_playing_override_applies_to_that_deal_only():
    game = new_game()
    # Deal 1 would be played by B; here A chose trump and made it with 82.
    game = game.add_round(deal(82, 80, playing=A))
    assert game.round_scores == [{A: 82, B: 80}]
    assert game.detail["deals"][0]["playing"] == A
    assert game.next_round.playing == A  # deal 2 follows from the dealer again
    game = game.add_round(deal(82, 80, playing=B))  # B plays deal 2 instead and goes nat
    assert game.round_scores[1] == {A: 162, B: 0}
    assert game.next_round.playing == B


def test_playing_null_means_the_default():
    game = new_game().add_round(deal(80, 82, playing=None))
    assert game.detail["deals"][0]["playing"] == B
    assert game.round_scores == [{A: 80, B: 82}]


# --- scoring one deal (B plays deal 1) -----------------------------------------------------

CARD_POINTS_ONLY = {"nat_on_card_points": True}
DEFENDERS_PIT = {"defenders_pit_bonus": True}
PENALTY = {"verzaakt_penalty": True}


@pytest.mark.parametrize(
    "rule, entry, options, scores, nat",
    [
        ("made: each team scores its card points", deal(72, 90), {}, {A: 72, B: 90}, False),
        ("roem counts for the team that claimed it", deal(80, 82, 0, 20), {}, {A: 80, B: 102}, False),
        ("82 card points are enough without roem", deal(80, 82), {}, {A: 80, B: 82}, False),
        ("81 is a tie, and a tie is nat", deal(81, 81), {}, {A: 162, B: 0}, True),
        ("the opponents' roem can make the playing team nat", deal(72, 90, 20, 0), {}, {A: 182, B: 0}, True),
        ("the playing team's roem can save it", deal(82, 80, 0, 50), {}, {A: 82, B: 130}, False),
        ("equal with roem is nat", deal(91, 71, 0, 20), {}, {A: 182, B: 0}, True),
        ("on nat the opponents take all roem of both teams", deal(92, 70, 20, 20), {}, {A: 202, B: 0}, True),
        ("card points only: their roem cannot set", deal(72, 90, 20, 0), CARD_POINTS_ONLY, {A: 92, B: 90}, False),
        ("card points only: own roem cannot save", deal(82, 80, 0, 50), CARD_POINTS_ONLY, {A: 212, B: 0}, True),
        ("card points only: 81 each is nat", deal(81, 81), CARD_POINTS_ONLY, {A: 162, B: 0}, True),
        ("card points only: level is not nat", deal(71, 91, 20, 0), CARD_POINTS_ONLY, {A: 91, B: 91}, False),
        ("pit by the playing team earns 100", deal(0, 162, 0, 20, pit=B), {}, {A: 0, B: 282}, False),
        ("pit by the opponents makes the playing team nat", deal(162, 0, 20, 0, pit=A), {}, {A: 182, B: 0}, True),
        ("defenders' pit bonus", deal(162, 0, 20, 0, pit=A), DEFENDERS_PIT, {A: 282, B: 0}, True),
        ("playing team's pit, defenders' option on", deal(0, 162, pit=B), DEFENDERS_PIT, {A: 0, B: 262}, False),
        ("162 without pit: the others took a worthless trick", deal(0, 162, 20, 0), {}, {A: 20, B: 162}, False),
        ("verzaakt by the playing team", deal(50, 112, 20, 50, verzaakt=B), {}, {A: 232, B: 0}, False),
        ("verzaakt by the defenders", deal(50, 112, 20, 0, verzaakt=A), {}, {A: 0, B: 182}, False),
        ("verzaakt, deal stopped before counting", deal(None, None, 0, 20, verzaakt=A), {}, {A: 0, B: 182}, False),
        ("verzaakt penalty of 100", deal(None, None, 20, 0, verzaakt=B), PENALTY, {A: 282, B: 0}, False),
        ("roem for one team only", {"card_points": {A: 62, B: 100}, "roem": {B: 20}}, {}, {A: 62, B: 120}, False),
        ("roem may be left out", {"card_points": {A: 62, B: 100}}, {}, {A: 62, B: 100}, False),
    ],
)
def test_deal_scoring(rule, entry, options, scores, nat):
    game = new_game(**options).add_round(entry)
    assert game.round_scores == [scores], rule
    assert game.totals == scores
    assert game.detail["deals"][0]["nat"] is nat


def test_detail_shows_the_breakdown_of_each_deal():
    game = play(new_game(), deal(0, 162, 0, 20, pit=B), deal(50, 112, 20, 0, verzaakt=A), deal(100, 62))
    first, second, third = game.detail["deals"]
    assert first == {
        "number": 1,
        "dealer": "Ann",
        "playing": B,
        "card_points": {A: 0, B: 162},
        "roem": {A: 0, B: 20},
        "bonus": {A: 0, B: 100},
        "nat": False,
        "pit": B,
        "verzaakt": None,
        "scores": {A: 0, B: 282},
    }
    assert second["verzaakt"] == A and second["dealer"] == "Bob" and second["playing"] == A
    assert second["scores"] == {A: 0, B: 182}
    assert third["nat"] is True and third["playing"] == B and third["scores"] == {A: 162, B: 0}
    assert game.detail["target"] == 501 and game.detail["deals_to_play"] is None
    assert game.detail["deciding_deal"] is False


def test_verzaakt_penalty_shows_as_bonus():
    game = new_game(verzaakt_penalty=True).add_round(deal(None, None, verzaakt=A))
    assert game.detail["deals"][0]["bonus"] == {A: 0, B: 100}
    assert game.detail["deals"][0]["card_points"] is None


def test_variant_option_chooses_the_referee_rules_and_leaves_scores_alone():
    entries = [deal(72, 90, 20, 0), deal(100, 62)]
    amsterdam = play(new_game(variant="amsterdam"), *entries)
    rotterdam = play(new_game(variant="rotterdam"), *entries)
    assert amsterdam.round_scores == rotterdam.round_scores
    hand, trick = ["7H", "KD"], ["AS", "JH"]
    assert legal_cards(hand, trick, "H", variant=amsterdam.options["variant"]) == ["KD"]
    assert legal_cards(hand, trick, "H", variant=rotterdam.options["variant"]) == ["7H"]


@pytest.mark.parametrize(
    "options, roem_a, roem_b",
    [({}, 700, 200), ({"four_jacks": 100}, 600, 200), ({"four_of_a_kind": "10 and up"}, 500, 200)],
)
def test_roem_up_to_the_most_a_deal_can_hold(options, roem_a, roem_b):
    game = new_game(**options).add_round(deal(100, 62, roem_a, roem_b, playing=A))
    assert game.totals == {A: 100 + roem_a, B: 62 + roem_b}
    with pytest.raises(RuleError) as err:
        new_game(**options).add_round(deal(100, 62, roem_a, roem_b + 20, playing=A))
    assert err.value.field == "roem"


@pytest.mark.parametrize("roem", [0, 20, 40, 50, 60, 70, 90, 100, 200, 270])
def test_possible_roem_is_accepted(roem):
    assert new_game().add_round(deal(100, 62, roem, 0, playing=A)).totals[A] == 100 + roem


def test_every_card_point_value_except_1_and_161_is_possible():
    assert POSSIBLE_CARD_POINTS == frozenset(range(163)) - {1, 161}
    for points in sorted(POSSIBLE_CARD_POINTS):
        new_game().add_round(deal(points, 162 - points))


# --- rejections ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule, entry, field",
    [
        ("card points must add up to 162", deal(80, 80), "card_points"),
        ("card points must add up to 162, not more", deal(100, 72), "card_points"),
        ("170 card points do not exist", deal(170, -8), f"card_points.{A}"),
        ("negative card points", deal(-2, 164), f"card_points.{A}"),
        ("no team ends with 1 card point", deal(161, 1), f"card_points.{A}"),
        ("no team ends with 1 card point (other side)", deal(1, 161), f"card_points.{A}"),
        ("card points are whole numbers", deal(80.5, 81.5), f"card_points.{A}"),
        ("card points are numbers, not text", {"card_points": {A: "80", B: 82}}, f"card_points.{A}"),
        ("card points are not true/false", {"card_points": {A: True, B: 161}}, f"card_points.{A}"),
        ("card points for both teams", {"card_points": {A: 162}}, f"card_points.{B}"),
        ("card points for known teams only", {"card_points": {A: 80, B: 82, "Eve": 0}}, "card_points"),
        ("card points are needed", {"roem": {A: 20}}, "card_points"),
        ("card points must name the teams", {"card_points": [80, 82]}, "card_points"),
        ("roem 10 does not exist", deal(80, 82, 10, 0), f"roem.{A}"),
        ("roem 30 does not exist", deal(80, 82, 0, 30), f"roem.{B}"),
        ("roem is a multiple of 10", deal(80, 82, 25, 0), f"roem.{A}"),
        ("roem is not negative", deal(80, 82, -20, 0), f"roem.{A}"),
        ("roem is a whole number", deal(80, 82, 20.0, 0), f"roem.{A}"),
        ("roem for known teams only", {"card_points": {A: 80, B: 82}, "roem": {"Eve": 20}}, "roem"),
        ("roem must name the teams", {"card_points": {A: 80, B: 82}, "roem": 20}, "roem"),
        ("too much roem for one deal", deal(80, 82, 500, 420), "roem"),
        ("pit needs all 162 card points", deal(10, 152, pit=B), "pit"),
        ("after a pit the other team has no tricks and no roem", deal(0, 162, 20, 0, pit=B), f"roem.{A}"),
        ("pit names a team", deal(0, 162, pit="Bob"), "pit"),
        ("verzaakt names a team", deal(80, 82, verzaakt="Cy"), "verzaakt"),
        ("playing names a team", deal(80, 82, playing="Ann"), "playing"),
        ("a renege is not also a pit", deal(0, 162, verzaakt=A, pit=B), "pit"),
        ("unknown parts of an entry", deal(80, 82, mars=B), "mars"),
    ],
)
def test_impossible_deals_are_rejected(rule, entry, field):
    game = new_game()
    with pytest.raises(RuleError) as err:
        game.add_round(entry)
    assert err.value.field == field, rule
    assert err.value.message


def test_a_rejected_deal_leaves_the_game_unchanged():
    game = play(new_game(), deal(80, 82))
    with pytest.raises(RuleError):
        game.add_round(deal(170, -8))
    assert game.totals == {A: 80, B: 82}
    assert len(game.rounds) == 1


def test_replacing_a_deal_with_an_impossible_one_is_rejected_with_its_number():
    game = play(new_game(), deal(80, 82), deal(100, 62))
    with pytest.raises(RuleError) as err:
        game.replace_round(0, deal(81, 80))
    assert err.value.field == "card_points"


# --- the rulebook's own examples ------------------------------------------------------------


def test_rulebook_a_deal_without_roem_is_worth_162():
    game = new_game().add_round(deal(62, 100))
    assert sum(game.round_scores[0].values()) == 162


def test_rulebook_the_playing_team_needs_82_without_roem():
    assert new_game().add_round(deal(80, 82)).round_scores == [{A: 80, B: 82}]
    assert new_game().add_round(deal(81, 81)).round_scores == [{A: 162, B: 0}]


def test_rulebook_losing_playing_team_gives_everything_to_the_opponents():
    game = new_game().add_round(deal(100, 62, 20, 50))  # B plays: 112 against 120
    assert game.round_scores == [{A: 162 + 20 + 50, B: 0}]


def test_rulebook_all_eight_tricks_win_all_points_plus_100_for_the_trump_chooser():
    assert new_game().add_round(deal(0, 162, 0, 40, pit=B)).round_scores == [{A: 0, B: 302}]
    assert new_game().add_round(deal(162, 0, 40, 0, pit=A)).round_scores == [{A: 202, B: 0}]


def test_rulebook_first_team_to_501_wins():
    game = play(new_game(), *[win_for(A)] * 3)
    assert (game.totals[A], game.over) == (486, False)
    game = game.add_round(deal(100, 62, playing=A))
    assert game.over and game.winners == [A]


def test_rulebook_both_teams_past_501_in_one_deal_play_one_more():
    game = play(new_game(), *[win_for(A), win_for(B)] * 3)
    assert game.totals == {A: 486, B: 486}
    game = game.add_round(deal(82, 80, playing=A))
    assert game.totals == {A: 568, B: 566}
    assert not game.over and game.winners == []
    assert game.detail["deciding_deal"] is True
    game = game.add_round(deal(62, 100))
    assert game.over and game.winners == [B]
    assert game.detail["deciding_deal"] is False


# --- endings -------------------------------------------------------------------------------


def test_reaching_exactly_the_target_wins():
    game = play(new_game(), *[win_for(A)] * 3, deal(15, 147, playing=B))
    assert game.totals == {A: 501, B: 147} and game.over and game.winners == [A]


def test_no_deal_after_the_game_is_over():
    game = play(new_game(), *[win_for(B)] * 4)
    assert game.over and game.winners == [B]
    with pytest.raises(RuleError):
        game.add_round(deal(80, 82))


def test_replaying_after_the_end_is_rejected():
    entries = [win_for(B)] * 5
    game = new_game()
    with pytest.raises(RuleError) as err:
        Game.replay(KLAVERJASSEN, game.setup, entries)
    assert "round 5" in err.value.message


def test_tied_after_the_extra_deal_another_deal_follows():
    game = play(new_game(), *[win_for(A), win_for(B)] * 3, deal(82, 80, playing=A))
    game = game.add_round(deal(80, 82, playing=B))
    assert game.totals == {A: 648, B: 648}
    assert not game.over and game.detail["deciding_deal"] is True
    game = game.add_round(deal(100, 62, playing=A))
    assert game.over and game.winners == [A]


def test_reaching_the_target_together_with_equal_totals_needs_another_deal():
    game = play(new_game(nat_on_card_points=True), *[win_for(A), win_for(B)] * 3)
    game = game.add_round(deal(91, 71, 0, 20, playing=A))
    assert game.totals == {A: 577, B: 577} and not game.over
    game = game.add_round(deal(71, 91, 20, 0, playing=B))
    assert game.totals == {A: 668, B: 668} and not game.over
    game = game.add_round(win_for(B))
    assert game.over and game.winners == [B]


def test_undo_reopens_a_finished_game():
    game = play(new_game(), *[win_for(B)] * 4)
    game = game.undo()
    assert not game.over and game.winners == []
    assert game.totals == {A: 0, B: 486}


@pytest.mark.parametrize("ending, target", [("1000", 1000), ("1500", 1500)])
def test_higher_targets(ending, target):
    deals_needed = -(-target // 162)
    game = play(new_game(ending=ending), *[win_for(A)] * (deals_needed - 1))
    assert not game.over and game.totals[A] < target
    game = game.add_round(win_for(A))
    assert game.over and game.winners == [A] and game.totals[A] >= target
    assert game.detail["target"] == target


@pytest.mark.parametrize("ending, target", [("700", 700), ("2000", 2000), ("100", 100), ("10000", 10000)])
def test_a_club_plays_to_the_target_it_uses(ending, target):
    """The rulebook: the points needed can differ from room to room."""
    deals_needed = -(-target // 162)
    game = play(new_game(ending=ending), *[win_for(A)] * (deals_needed - 1))
    assert not game.over and game.totals[A] < target
    game = game.add_round(win_for(A))
    assert game.over and game.winners == [A] and game.detail["target"] == target


def test_a_typed_target_is_kept_in_plain_digits():
    assert new_game(ending="0750").options["ending"] == "750"


@pytest.mark.parametrize("ending", ["99", "10001", "0", "-700", "seven hundred", "7e2", " 700", "\u0667\u0660\u0660", ""])
def test_a_target_outside_the_range_or_not_in_digits_is_refused_in_words(ending):
    with pytest.raises(RuleError) as err:
        new_game(ending=ending)
    assert err.value.field == "ending"
    assert "501, 1000, 1500, boompje, boompje12 or a whole number from 100 to 10000" in err.value.message


def test_higher_target_with_the_extra_deal():
    game = play(new_game(ending="1000"), *[win_for(A), win_for(B)] * 6)
    assert game.totals == {A: 972, B: 972} and not game.over
    game = game.add_round(deal(100, 62, playing=A))
    assert not game.over and game.detail["deciding_deal"] is True
    game = game.add_round(win_for(B))
    assert game.over and game.winners == [B]


def test_boompje_is_exactly_16_deals_and_the_higher_total_wins():
    game = play(new_game(ending="boompje"), *[win_for(A)] * 15)
    assert game.totals[A] > 1500 and not game.over
    assert game.detail["deals_to_play"] == 16 and game.detail["target"] is None
    game = game.add_round(deal(62, 100))
    assert game.over and game.winners == [A]
    with pytest.raises(RuleError):
        game.add_round(deal(80, 82))


def test_boompje_of_12_ends_after_the_12th_deal_and_the_higher_total_wins():
    game = play(new_game(ending="boompje12"), *[win_for(B)] * 11)
    assert not game.over
    assert game.detail["deals_to_play"] == 12 and game.detail["target"] is None
    game = game.add_round(deal(100, 62))
    assert game.over and game.winners == [B]
    with pytest.raises(RuleError):
        game.add_round(deal(80, 82))


def test_a_boompje_still_means_16_deals_beside_the_boompje_of_12():
    game = play(new_game(ending="boompje"), *[win_for(A)] * 12)
    assert not game.over and game.detail["deals_to_play"] == 16


def test_boompje_tie_is_a_shared_win():
    game = play(new_game(ending="boompje"), *[win_for(A), win_for(B)] * 8)
    assert game.totals == {A: 1296, B: 1296}
    assert game.over and game.winners == [A, B]


# --- a whole game ----------------------------------------------------------------------------


def test_full_game_to_501():
    """A realistic evening: made deals, nat, pit, a renege, then a team passes 501."""
    game = new_game()
    script = [
        # (entry, expected scores); the playing team alternates B, A, B, A, ...
        (deal(64, 98, 0, 20), {A: 64, B: 118}),  # B plays and makes it with a run
        (deal(74, 88, 0, 20), {A: 0, B: 182}),  # A plays: 74 against 108 is nat
        (deal(162, 0, 20, 0, pit=A), {A: 182, B: 0}),  # B plays, A takes every trick
        (deal(120, 42, 40), {A: 160, B: 42}),  # A plays, with stuk in a run
        (deal(70, 92, 0, 20), {A: 70, B: 112}),  # B plays and makes it
        (deal(None, None, 20, 0, verzaakt=B), {A: 182, B: 0}),  # A plays, B reneges
    ]
    for number, (entry, scores) in enumerate(script, start=1):
        assert not game.over
        assert game.next_round.number == number
        game = game.add_round(entry)
        assert game.round_scores[-1] == scores
    assert game.totals == {A: 658, B: 454}
    assert game.over and game.winners == [A]
    assert game.standings == [A, B]
    assert game.totals == {side: sum(s[side] for s in game.round_scores) for side in game.sides}


def test_long_benchmark_game_replays():
    spec = long_game()
    ruleset = rules.get(spec["ruleset"])
    start = ruleset.new_game(spec["players"], spec["options"], spec["teams"])
    game = Game.replay(ruleset, start.setup, spec["entries"])
    assert len(game.rounds) == 200
    assert not game.over and game.detail["deciding_deal"] is True
    flags = game.detail["deals"]
    assert any(d["nat"] for d in flags) and any(d["pit"] for d in flags) and any(d["verzaakt"] for d in flags)


# --- roem of a team without card points -----------------------------------------------------


@pytest.mark.parametrize(
    "four_of_a_kind, most",
    [("all", 200), ("10 and up", 40)],
)
def test_a_team_without_card_points_has_at_most_two_trickless_tricks_of_roem(four_of_a_kind, most):
    """Only 7s, 8s and plain 9s are worth nothing: two tricks at most, never the last one."""
    g = new_game(four_of_a_kind=four_of_a_kind)
    assert g.add_round(deal(0, 162, roem_a=most)).detail["deals"][-1]["roem"][A] == most
    assert g.add_round(deal(162, 0, roem_b=most)).detail["deals"][-1]["roem"][B] == most
    for entry, team in ((deal(0, 162, roem_a=most + 20), A), (deal(162, 0, roem_b=most + 20), B)):
        with pytest.raises(RuleError, match=f"at most {most} roem, not {most + 20}") as err:
            g.add_round(entry)
        assert err.value.field == f"roem.{team}"


@pytest.mark.parametrize(
    "tricks, four_of_a_kind, roem",
    [
        ([["7S", "7H", "7D", "7C"], ["8S", "8H", "8D", "8C"]], "all", 200),
        ([["7S", "8S", "9S", "7H"], ["7D", "8D", "9D", "8H"]], "10 and up", 40),
    ],
)
def test_the_most_roem_without_card_points_is_what_two_worthless_tricks_hold(tricks, four_of_a_kind, roem):
    """The bound is reached by real tricks the referee scores at 0 card points (clubs trump)."""
    assert sum(trick_points(t, "C") for t in tricks) == 0
    assert sum(trick_roem(t, "C", four_of_a_kind=four_of_a_kind) for t in tricks) == roem
    assert roem_without_card_points(four_of_a_kind) == roem


def test_a_renege_entered_with_card_points_keeps_the_bound_on_roem_without_them():
    with pytest.raises(RuleError, match="at most 200 roem, not 220"):
        new_game().add_round(deal(0, 162, roem_a=220, verzaakt=B))

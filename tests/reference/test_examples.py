"""The worked examples in the rules texts agree with the rules engine.

Each row names the English example by game, passage and a fragment of its text, and
checks the numbers or verdict it states against what the engine computes.
"""

from __future__ import annotations

import pytest

from companion import rules
from companion.reference import sections
from companion.rules import beverbende, klaverjassen, members_only
from companion.rules.clubs import judge_play

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def example(game: str, section: str, fragment: str) -> str:
    """The English worked example of ``game``/``section`` containing ``fragment``."""
    passage = next(p for p in sections(game, "en") if p.id == section)
    matches = [e for e in passage.examples if fragment in e]
    assert matches, f"no example in {game}/{section} says {fragment!r}"
    return matches[0]


def round_scores(game: str, entry: dict, players=FOUR, **setup) -> dict:
    return rules.get(game).new_game(players, **setup).add_round(entry).round_scores[-1]


# --- CLUBS ----------------------------------------------------------------------------


def test_clubs_scoring_example():
    example("clubs", "scoring", "8 + 3 = 11")
    example("clubs", "scoring", "Dee won 4 club points but scores 0")
    entry = {"out_order": ["Ann", "Bob", "Cy"], "club_points": {"Ann": 3, "Bob": 0, "Cy": 6, "Dee": 4}}
    assert round_scores("clubs", entry) == {"Ann": 11, "Bob": 5, "Cy": 8, "Dee": 0}


def test_clubs_double_cards_example():
    example("clubs", "option-double_cards", "(8 + 4) x 2 = 24")
    entry = {"out_order": ["Bob", "Ann", "Cy"], "club_points": {"Bob": 4, "Ann": 2}, "double": ["Ann", "Bob"]}
    scores = round_scores("clubs", entry)
    assert (scores["Bob"], scores["Ann"]) == (24, 0)


def test_clubs_two_player_example():
    example("clubs", "variant-two-players", "5 + 3 = 8")
    entry = {"out_order": ["Ann"], "club_points": {"Ann": 3, "Bob": 7}}
    assert round_scores("clubs", entry, ["Ann", "Bob"]) == {"Ann": 8, "Bob": 7}


def test_clubs_team_example():
    example("clubs", "variant-teams", "Ann & Cy score 10 + 6 = 16, Bob & Dee 0")
    teams = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
    entry = {"out_order": ["Ann", "Bob", "Cy"], "club_points": {"Ann": 2, "Cy": 4}}
    assert round_scores("clubs", entry, teams=teams) == {"Ann & Cy": 16, "Bob & Dee": 0}


@pytest.mark.parametrize(
    ("section", "fragment", "previous", "play", "wild_15", "crazy", "legal", "wins"),
    [
        ("turn", "you may play 8-9", [7, 8], [8, 9], False, False, True, False),
        ("turn", "or 11-12", [7, 8], [11, 12], False, False, True, False),
        ("turn", "but not 6-7", [7, 8], [6, 7], False, False, False, False),
        ("turn", "not 9-10-11", [7, 8], [9, 10, 11], False, False, False, False),
        ("turn", "you may play two 10s", [9, 9], [10, 10], False, False, True, False),
        ("turn", "or two 12s", [9, 9], [12, 12], False, False, True, False),
        ("turn", "not three 10s", [9, 9], [10, 10, 10], False, False, False, False),
        ("turn", "not a single 13", [9, 9], [13], False, False, False, False),
        ("option-wild_15", "a 15 as a second 12: legal, and the trick goes", [11, 11], [12, 15], True, False, True, False),
        ("option-wild_15", "Two 15s played as two 15s would have won it", [11, 11], [15, 15], True, False, True, True),
        ("option-crazy", "Two 3s (a longer set) beat a single 15", [15], [3, 3], False, True, True, False),
        ("option-crazy", "The run 1-2-3 beats a run 14-15", [14, 15], [1, 2, 3], False, True, True, False),
        ("option-crazy", "On three 8s, two 12s are not enough", [8, 8, 8], [12, 12], False, True, False, False),
        ("option-crazy", "On two 8s a single 15 may not be played", [8, 8], [15], False, True, False, False),
    ],
)
def test_clubs_play_examples(section, fragment, previous, play, wild_15, crazy, legal, wins):
    example("clubs", section, fragment)
    verdict = judge_play(previous, play, wild_15=wild_15, crazy=crazy)
    assert (verdict.legal, verdict.wins_trick) == (legal, wins), verdict.reason


# --- Klaverjassen ---------------------------------------------------------------------

PLAYING, DEFENDING = "Bob & Dee", "Ann & Cy"  # Ann deals the first deal; Bob chooses trump


def deal(entry: dict, **options) -> tuple[int, int]:
    scores = round_scores("klaverjassen", entry, options=options)
    return scores[PLAYING], scores[DEFENDING]


def test_the_first_deal_is_played_by_the_team_left_of_the_dealer():
    assert rules.get("klaverjassen").new_game(FOUR).next_round.playing == PLAYING


def test_klaverjassen_trick_winner_example():
    example("klaverjassen", "turn", "The 9 of hearts wins")
    assert klaverjassen.trick_winner(["10S", "9H"], "H") == 1


def test_klaverjassen_card_points_example():
    example("klaverjassen", "card-points", "20 + 14 + 11 + 10 = 55")
    assert klaverjassen.trick_points(["JS", "9S", "AS", "10H"], "S") == 55


@pytest.mark.parametrize(
    ("section", "fragment", "trick", "trump", "options", "roem"),
    [
        ("roem", "makes 40 roem", ["QD", "KD", "AD", "7S"], "D", {}, 40),
        ("option-four_jacks", "Where four jacks count 100", ["JS", "JH", "JD", "JC"], "H", {"four_jacks": 100}, 100),
        ("option-four_of_a_kind", "100 roem with all", ["9S", "9H", "9D", "9C"], "H", {}, 100),
        ("option-four_of_a_kind", "nothing with 10 and up", ["9S", "9H", "9D", "9C"], "H", {"four_of_a_kind": "10 and up"}, 0),
        ("option-runs_by_colour", "no roem by default", ["8H", "9D", "10H", "KC"], "S", {}, 0),
        ("option-runs_by_colour", "20 with rows by colour on", ["8H", "9D", "10H", "KC"], "S", {"runs_by_colour": True}, 20),
    ],
)
def test_klaverjassen_roem_examples(section, fragment, trick, trump, options, roem):
    example("klaverjassen", section, fragment)
    assert klaverjassen.trick_roem(trick, trump, **options) == roem


def test_klaverjassen_amsterdam_and_rotterdam_examples():
    example("klaverjassen", "option-variant", "you need not trump your")
    example("klaverjassen", "option-variant", "under Rotterdam you must")
    trick, hand = ["AS", "7S"], ["7H", "8D", "KC"]
    assert klaverjassen.legal_cards(hand, trick, "H", "amsterdam") == hand
    assert klaverjassen.legal_cards(hand, trick, "H", "rotterdam") == ["7H"]


@pytest.mark.parametrize(
    ("section", "fragment", "entry", "options", "scores"),
    [
        ("scoring", "they score 95 and 87",
         {"card_points": {PLAYING: 75, DEFENDING: 87}, "roem": {PLAYING: 20}}, {}, (95, 87)),
        ("scoring", "the others score 162 + 20 = 182",
         {"card_points": {PLAYING: 70, DEFENDING: 92}, "roem": {PLAYING: 20}}, {}, (0, 182)),
        ("option-nat_on_card_points", "By default 128 against 84 is fine",
         {"card_points": {PLAYING: 78, DEFENDING: 84}, "roem": {PLAYING: 50}}, {}, (128, 84)),
        ("option-nat_on_card_points", "78 is less than 84: nat",
         {"card_points": {PLAYING: 78, DEFENDING: 84}, "roem": {PLAYING: 50}}, {"nat_on_card_points": True}, (0, 212)),
        ("pit", "162 + 40 + 100 = 302",
         {"card_points": {PLAYING: 162, DEFENDING: 0}, "roem": {PLAYING: 40}, "pit": PLAYING}, {}, (302, 0)),
        ("option-defenders_pit_bonus", "162 + 20 = 182 by default",
         {"card_points": {PLAYING: 0, DEFENDING: 162}, "roem": {DEFENDING: 20}, "pit": DEFENDING}, {}, (0, 182)),
        ("option-defenders_pit_bonus", "282 with",
         {"card_points": {PLAYING: 0, DEFENDING: 162}, "roem": {DEFENDING: 20}, "pit": DEFENDING},
         {"defenders_pit_bonus": True}, (0, 282)),
        ("verzaakt", "162 + 40 = 202",
         {"verzaakt": DEFENDING, "roem": {PLAYING: 40}}, {}, (202, 0)),
        ("option-verzaakt_penalty", "162 + 20 + 100 = 282",
         {"verzaakt": DEFENDING, "roem": {PLAYING: 20}}, {"verzaakt_penalty": True}, (282, 0)),
    ],
)
def test_klaverjassen_scoring_examples(section, fragment, entry, options, scores):
    example("klaverjassen", section, fragment)
    assert deal(entry, **options) == scores


def test_klaverjassen_own_target_example():
    example("klaverjassen", "option-ending", "Playing to 750, Ann & Cy reach 810")
    renege_by = {DEFENDING: PLAYING, PLAYING: DEFENDING}  # a renege gives the other team 162
    entries = [{"verzaakt": renege_by[team]} for team in [DEFENDING, PLAYING] * 4 + [DEFENDING]]
    game = rules.get("klaverjassen").new_game(FOUR, options={"ending": "750"})
    for entry in entries:
        game = game.add_round(entry)
    assert game.totals == {DEFENDING: 810, PLAYING: 648}
    assert game.over and game.winners == [DEFENDING]


# --- MEMBERS ONLY ---------------------------------------------------------------------


def test_members_only_risk_stone_example():
    example("members_only", "risk-stone", "3 x 3 = 9")
    assert members_only.payout("<=2", 2, "double", risk=True) == 9


def test_members_only_scoring_examples():
    example("members_only", "scoring", "double stone on \"4 or fewer\" pays 1 x 2 = 2")
    assert members_only.payout("<=4", 4, "double") == 2
    example("members_only", "scoring", "\"2 or fewer\" is lost")
    assert not members_only.bet_wins("<=2", 4)
    example("members_only", "scoring", "\"5 or more\" is lost too")
    assert not members_only.bet_wins(">=5", 4)
    example("members_only", "scoring", "the crown count is 4")
    assert members_only.symbol_count(5, 1) == 4


# --- Beverbende -----------------------------------------------------------------------


def test_beverbende_knock_example():
    example("beverbende", "knock", "Ann may not knock yet")
    assert not beverbende.may_knock([1, 0, 0, 0])
    example("beverbende", "knock", "now Ann, Bob and Cy each play once more")
    assert beverbende.may_knock([1, 1, 1, 1])
    assert beverbende.last_turns(FOUR, "Dee") == ["Ann", "Bob", "Cy"]


def test_beverbende_replacement_example():
    example("beverbende", "scoring", "0 + 8 + 4 + 0 = 12")
    values, _ = beverbende.final_row([0, "peek", 4, 0], ["swap", 8])
    assert values == (0, 8, 4, 0)


def test_beverbende_elimination_example():
    example("beverbende", "option-ending", "Ann (94) scores 9 and is out at 103")
    game = rules.get("beverbende").new_game(["Ann", "Bob", "Cy"], options={"ending": "elimination"})
    for ann in (30, 32, 32, 9):
        game = game.add_round({"totals": {"Ann": ann, "Bob": 10, "Cy": 12}})
    assert game.totals["Ann"] == 103
    assert game.detail["still_in"] == ["Bob", "Cy"]
    assert not game.over


def test_beverbende_limit_example():
    example("beverbende", "option-ending", "With limit, Ann reaches 103 in the fourth round while Bob has 58")
    game = rules.get("beverbende").new_game(["Ann", "Bob", "Cy"], options={"ending": "limit"})
    for ann, bob, cy in ((30, 10, 12), (32, 12, 14), (32, 16, 15)):
        game = game.add_round({"totals": {"Ann": ann, "Bob": bob, "Cy": cy}})
    assert not game.over
    game = game.add_round({"totals": {"Ann": 9, "Bob": 20, "Cy": 20}})
    assert game.totals == {"Ann": 103, "Bob": 58, "Cy": 61}
    assert game.over and game.winners == ["Bob"]


def test_beverbende_rounds_example():
    example("beverbende", "option-rounds", "three players play six rounds")
    game = rules.get("beverbende").new_game(["Ann", "Bob", "Cy"], options={"ending": "rounds", "rounds": 6})
    for _ in range(5):
        game = game.add_round({"totals": {"Ann": 10, "Bob": 12, "Cy": 14}})
    assert not game.over
    assert game.add_round({"totals": {"Ann": 10, "Bob": 12, "Cy": 14}}).winners == ["Ann"]

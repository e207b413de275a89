"""A club evening's rules (issue 17): draws, sit-out scores, ranking, prizes, season."""

from __future__ import annotations

import pytest

from companion import rules
from companion.rules import RuleError
from companion.rules.club import (
    PRIZE_BOOBY,
    PRIZE_PITS,
    PRIZE_PLACES,
    Draw,
    PrizeRule,
    RoundScores,
    SitOutScore,
    Standing,
    Table,
    draw_round,
    fixed_pairs_schedule,
    prizes,
    ranking,
    season,
    table_result,
)

KLAVERJASSEN = rules.get("klaverjassen")
NINE = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


def standing(player: str, total: int, pits: int = 0, place: int = 1) -> Standing:
    return Standing(place, player, total, (total,), 0, 0, pits)


def test_the_same_seed_draws_the_same_tables_and_another_seed_may_not():
    first = draw_round(NINE, [], seed=11)
    assert draw_round(NINE, [], seed=11) == first
    assert any(draw_round(NINE, [], seed=seed) != first for seed in range(12, 20))


def test_partners_sit_opposite_each_other():
    table = Table(1, ("Ann", "Bob", "Cy", "Dee"))
    assert table.pairs == (("Ann", "Cy"), ("Bob", "Dee"))


def test_nine_players_make_two_tables_and_one_sits_out():
    draw = draw_round(NINE, [], seed=3)
    assert len(draw.tables) == 2 and len(draw.sitting_out) == 1


def test_seven_players_with_a_joker_make_two_full_tables():
    draw = draw_round(NINE[:7], [], seed=3, odd_players="joker")
    assert draw.sitting_out == () and sorted(draw.seated) == sorted([*NINE[:7], "Joker 1"])


def test_five_players_cannot_fill_two_tables_with_three_jokers():
    with pytest.raises(RuleError, match="more than one per table"):
        draw_round(NINE[:5], [], seed=3, odd_players="joker")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann", "Bob", "Cy"], "at least 4 players, not 3"),
        (["Ann", "Bob", "Cy", "Ann"], "Ann is checked in twice"),
        (["Ann", "Bob", "Cy", " "], "Every player needs a name"),
        (["Ann", "Bob", "Cy", "Joker 2"], "name of a stand-in seat"),
    ],
)
def test_a_draw_refuses_players_it_cannot_seat(players, message):
    with pytest.raises(RuleError, match=message):
        draw_round(players, [], seed=1)


def test_a_draw_survives_its_json():
    draw = draw_round(NINE, [], seed=5)
    assert Draw.from_json(draw.as_json()) == draw


def test_fixed_pairs_cannot_play_more_rounds_than_there_are_other_pairs():
    with pytest.raises(RuleError, match="4 pairs can meet each other in 1 to 3 rounds, not 4"):
        fixed_pairs_schedule([("a", "b"), ("c", "d"), ("e", "f"), ("g", "h")], 4)


@pytest.mark.parametrize(("kind", "expected"), [("lowest", 40), ("average", 101), ("fixed", 75)])
def test_a_player_sitting_out_receives_the_clubs_chosen_score(kind, expected):
    assert SitOutScore(kind, 75).score([40, 40, 160, 160, 40, 160, 100, 110]) == expected


def test_the_average_sit_out_score_rounds_half_up():
    assert SitOutScore("average").score([1, 2]) == 2


def test_a_sit_out_score_the_club_cannot_mean_is_refused():
    with pytest.raises(RuleError, match="lowest, its average or a fixed number"):
        SitOutScore("highest")
    with pytest.raises(RuleError, match="0 or more"):
        SitOutScore("fixed", -5)


def test_a_tables_nats_and_pits_count_for_both_partners():
    table = Table(1, ("Ann", "Bob", "Cy", "Dee"))
    game = KLAVERJASSEN.new_game(list(table.seats), {"ending": "boompje"})
    a, b = game.sides  # Ann & Cy, Bob & Dee; Bob & Dee play deal 1, Ann & Cy deal 2
    game = game.add_round({"card_points": {a: 100, b: 62}, "roem": {a: 0, b: 0}})  # Bob & Dee nat
    game = game.add_round({"card_points": {a: 162, b: 0}, "pit": a})
    result = table_result(table, game)
    assert result.nats == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 1}
    assert result.pits == {"Ann": 1, "Bob": 0, "Cy": 1, "Dee": 0}
    assert result.scores["Ann"] == result.scores["Cy"] == game.totals[a]


def test_a_table_without_a_saved_deal_scores_nothing_and_is_still_playing():
    draw = draw_round(NINE, [], seed=1)
    one = RoundScores(draw, {})
    assert one.playing == (1, 2)
    assert {s.total for s in ranking([one], SitOutScore())} == {0}


def _played(table: Table, first_points: int, pit: bool = False):
    """A table's game with one deal: the first side's card points (a pit when ``pit``)."""
    game = KLAVERJASSEN.new_game(list(table.seats), {"ending": "boompje"})
    a, b = game.sides
    if pit:
        return game.add_round({"card_points": {a: 162, b: 0}, "pit": a})
    return game.add_round({"card_points": {a: first_points, b: 162 - first_points}, "roem": {a: 0, b: 0}})


def test_a_stopped_table_no_longer_holds_up_the_round():
    draw = draw_round(NINE, [], seed=1)
    assert RoundScores(draw, {}).playing == (1, 2)
    assert RoundScores(draw, {}, stopped=frozenset({2})).playing == (1,)


def test_a_stopped_tables_players_score_what_sitting_out_scores_and_its_marks_are_left_out():
    draw = draw_round(NINE, [], seed=1)
    one, two = draw.tables
    games = {1: _played(one, 100), 2: _played(two, 0, pit=True)}
    standings = {s.player: s for s in ranking([RoundScores(draw, games, frozenset({2}))], SitOutScore("lowest"))}
    lowest = min(standings[player].total for player in one.seats)
    assert {player: standings[player].total for player in (*two.seats, *draw.sitting_out)} == dict.fromkeys(
        (*two.seats, *draw.sitting_out), lowest
    )
    assert all(standings[player].pits == 0 for player in two.seats)
    assert all(standings[player].sat_out == 0 for player in two.seats)


def test_a_game_of_other_players_is_not_the_tables_game():
    game = KLAVERJASSEN.new_game(["Ann", "Bob", "Cy", "Zed"])
    with pytest.raises(RuleError, match="Table 1's game"):
        table_result(Table(1, ("Ann", "Bob", "Cy", "Dee")), game)


def test_equal_totals_share_a_place():
    table = Table(1, ("Ann", "Bob", "Cy", "Dee"))
    game = KLAVERJASSEN.new_game(list(table.seats))
    a, b = game.sides
    game = game.add_round({"card_points": {a: 52, b: 110}, "roem": {a: 0, b: 0}})
    standings = ranking([RoundScores(Draw((table,)), {1: game})], SitOutScore())
    assert [(s.place, s.player, s.total) for s in standings] == [(1, "Bob", 110), (1, "Dee", 110), (3, "Ann", 52), (3, "Cy", 52)]


def test_formule_van_4_gives_places_one_to_four_then_every_fourth():
    assert PrizeRule(formule_van_4=True).positions(17) == [1, 2, 3, 4, 8, 12, 16]


def test_prizes_for_places_the_lowest_and_the_most_pits():
    standings = [
        standing("Ann", 900, place=1), standing("Bob", 800, pits=2, place=2),
        standing("Cy", 700, pits=2, place=3), standing("Dee", 100, place=4),
    ]
    awarded = prizes(standings, PrizeRule(places=2, booby=True, most_pits=True))
    assert [(p.kind, p.position, p.players) for p in awarded] == [
        (PRIZE_PLACES, 1, ("Ann",)),
        (PRIZE_PLACES, 2, ("Bob",)),
        (PRIZE_BOOBY, None, ("Dee",)),
        (PRIZE_PITS, None, ("Bob", "Cy")),
    ]


def test_players_tied_for_a_place_share_the_prizes_of_every_position_it_spans():
    standings = [
        standing("Ann", 900, place=1), standing("Bob", 900, place=1),
        standing("Cy", 700, place=3), standing("Dee", 100, place=4),
    ]
    awarded = prizes(standings, PrizeRule(places=3))
    assert [(p.position, p.players) for p in awarded] == [(1, ("Ann", "Bob")), (2, ("Ann", "Bob")), (3, ("Cy",))]


def test_a_club_that_ranks_fewer_nats_higher_splits_equal_totals_by_their_nats():
    first, second = Table(1, ("Ann", "Bob", "Cy", "Dee")), Table(2, ("Eva", "Fay", "Gus", "Hal"))
    one, two = KLAVERJASSEN.new_game(list(first.seats)), KLAVERJASSEN.new_game(list(second.seats))
    a, b = one.sides
    one = one.add_round({"card_points": {a: 100, b: 62}, "roem": {a: 0, b: 0}})  # Bob & Dee play and go nat
    c, d = two.sides
    two = two.add_round({"card_points": {c: 0, d: 162}, "roem": {c: 0, d: 0}})  # Fay & Hal play and make it
    rounds = [RoundScores(Draw((first, second)), {1: one, 2: two})]
    shared = {s.player: (s.place, s.total) for s in ranking(rounds, SitOutScore())}
    split = {s.player: s.place for s in ranking(rounds, SitOutScore(), fewer_nats_first=True)}
    assert {player: shared[player] for player in ("Bob", "Dee", "Eva", "Gus")} == dict.fromkeys(("Bob", "Dee", "Eva", "Gus"), (5, 0))
    assert (split["Eva"], split["Gus"], split["Bob"], split["Dee"]) == (5, 5, 7, 7)
    assert split["Ann"] == split["Fay"] == 1


def test_a_fixed_pair_places_and_wins_as_one():
    table = Table(1, ("Ann", "Bob", "Cy", "Dee"))  # Ann with Cy, Bob with Dee
    game = KLAVERJASSEN.new_game(list(table.seats))
    a, b = game.sides
    game = game.add_round({"card_points": {a: 52, b: 110}, "roem": {a: 0, b: 0}})
    pairs = [("Ann", "Cy"), ("Bob", "Dee")]
    standings = ranking([RoundScores(Draw((table,)), {1: game})], SitOutScore(), pairs)
    assert [(s.place, s.player) for s in standings] == [(1, "Bob"), (1, "Dee"), (2, "Ann"), (2, "Cy")]
    awarded = prizes(standings, PrizeRule(places=2), pairs)
    assert [(p.position, p.players) for p in awarded] == [(1, ("Bob", "Dee")), (2, ("Ann", "Cy"))]


def test_no_pits_no_pit_prize():
    assert prizes([standing("Ann", 900)], PrizeRule(places=0, most_pits=True)) == []


def test_season_best_n_of_m_counts_each_players_best_evenings():
    evenings = [{"Ann": 100, "Bob": 300}, {"Ann": 500, "Bob": 200}, {"Ann": 400}]
    table = season(evenings, best_of=2)
    assert [(s.place, s.player, s.evenings, s.total, s.best) for s in table] == [
        (1, "Ann", 3, 1000, 900),
        (2, "Bob", 2, 500, 500),
    ]
    assert table[0].average == pytest.approx(1000 / 3)


def test_season_without_best_of_ranks_by_total():
    assert [s.player for s in season([{"Ann": 100, "Bob": 300}, {"Ann": 500}])] == ["Ann", "Bob"]
    with pytest.raises(RuleError, match="at least one evening"):
        season([], best_of=0)

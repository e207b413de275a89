"""Player statistics and head-to-head, counted over finished games only."""

from __future__ import annotations

import pytest

from companion.store import NotFoundError, StoreError
from tests.store.games import beverbende, clubs_teams_round, klaverjassen_boompje, members_only_one_hand, play


def test_beverbende_best_is_the_lowest_total(store):
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)  # Ann 40, Bob 80: Ann wins
    beverbende(store, [{"Ann": 25, "Bob": 15}] * 4)  # Ann 100, Bob 60: Bob wins
    beverbende(store, [{"Ann": 15, "Bob": 15}] * 4)  # 60 each: a shared win
    stats = store.player_stats("Ann")
    bever = stats.by_ruleset["beverbende"]
    assert (bever.played, bever.wins, bever.best, bever.lowest_wins) == (3, 2, 40, True)
    assert bever.average == pytest.approx(200 / 3) and bever.win_rate == pytest.approx(2 / 3)
    assert (stats.played, stats.wins, stats.win_rate) == (3, 2, pytest.approx(2 / 3))


def test_highest_total_is_best_where_highest_wins(store):
    members_only_one_hand(store, ["Ann", "Bob", "Cy"])  # Ann 15, Bob 5, Cy 5
    members_only_one_hand(store, ["Cy", "Ann", "Bob"])  # Cy 15, Ann 5, Bob 5
    members = store.player_stats("Ann").by_ruleset["members_only"]
    assert (members.played, members.wins, members.best, members.average, members.lowest_wins) == (2, 1, 15, 10, False)


def test_only_finished_games_count(store):
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 3)
    abandoned = beverbende(store, [{"Ann": 10, "Bob": 20}])
    store.abandon(abandoned.id)
    assert store.player_stats("Ann").by_ruleset["beverbende"].played == 1


def test_a_team_players_score_is_their_teams_total(store):
    record = klaverjassen_boompje(store, us=100)
    us, them = record.game.totals["Us"], record.game.totals["Them"]
    assert us > them
    for player, total, wins in (("Ann", us, 1), ("Cy", us, 1), ("Bob", them, 0), ("Dee", them, 0)):
        line = store.player_stats(player).by_ruleset["klaverjassen"]
        assert (line.played, line.wins, line.best, line.average) == (1, wins, total, total)


def test_team_clubs_scores_follow_the_team(store):
    teams = {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Dee"]}
    rounds = [clubs_teams_round("Ann", "Cy", {"Ann": 30, "Cy": 30})] * 2
    record = play(store, "clubs", ["Ann", "Bob", "Cy", "Dee"], rounds, teams=teams)
    assert record.status == "finished" and record.game.winners == ["Red"]
    assert store.player_stats("Cy").by_ruleset["clubs"].best == record.game.totals["Red"]
    assert store.player_stats("Dee").by_ruleset["clubs"].best == record.game.totals["Blue"]


def test_rulesets_are_listed_in_rules_order(store):
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
    klaverjassen_boompje(store, us=100)
    assert list(store.player_stats("Ann").by_ruleset) == ["klaverjassen", "beverbende"]


def test_a_player_without_finished_games_has_empty_statistics(store):
    store.add_player("Ann")
    stats = store.player_stats("Ann")
    assert (stats.played, stats.wins, stats.win_rate, stats.by_ruleset) == (0, 0, 0.0, {})


def test_head_to_head_counts_games_together_and_wins_of_each(store):
    beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)  # Ann wins
    beverbende(store, [{"Ann": 25, "Bob": 15}] * 4)  # Bob wins
    beverbende(store, [{"Ann": 15, "Bob": 15}] * 4)  # shared
    beverbende(store, [{"Ann": 10, "Cy": 20}] * 4)  # without Bob
    klaverjassen_boompje(store, us=100)  # Ann and Cy beat Bob and Dee
    ann_bob = store.head_to_head("Ann", "Bob")
    assert (ann_bob.games_together, ann_bob.wins, ann_bob.other_wins, ann_bob.shared_wins) == (4, 3, 2, 1)
    bob_ann = store.head_to_head("Bob", "Ann")
    assert (bob_ann.player, bob_ann.other, bob_ann.wins, bob_ann.other_wins) == ("Bob", "Ann", 2, 3)


def test_partners_who_win_together_share_the_win(store):
    klaverjassen_boompje(store, us=100)
    partners = store.head_to_head("Ann", "Cy")
    assert (partners.games_together, partners.wins, partners.other_wins, partners.shared_wins) == (1, 1, 1, 1)


def test_statistics_of_unknown_players_are_not_found(store):
    store.add_player("Ann")
    with pytest.raises(NotFoundError, match="no saved player called 'Zed'"):
        store.player_stats("Zed")
    with pytest.raises(NotFoundError, match="Zed"):
        store.head_to_head("Ann", "Zed")
    with pytest.raises(StoreError, match="two different players"):
        store.head_to_head("Ann", "Ann")

"""Beverbende invariants over games dealt from the real deck (hypothesis)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules.base import RuleError
from companion.rules.beverbende import CARDS_PER_ROW, COPIES, LIMIT

BEVERBENDE = rules.get("beverbende")
DECK = [value for value, copies in COPIES.items() for _ in range(copies)]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def deal(players, shuffled):
    return {p: shuffled[i * CARDS_PER_ROW : (i + 1) * CARDS_PER_ROW] for i, p in enumerate(players)}


@st.composite
def dealt_games(draw, ending):
    """A game of 2-6 players with ending ``ending`` and up to 12 rounds dealt from the deck."""
    players = NAMES[: draw(st.integers(2, 6))]
    g = BEVERBENDE.new_game(players, {"ending": ending})
    for _ in range(draw(st.integers(0, 12))):
        if g.over:
            break
        still_in = g.detail["still_in"]
        rows = deal(still_in, draw(st.permutations(DECK)))
        if draw(st.booleans()):
            g = g.add_round({"cards": rows})
        else:
            g = g.add_round({"totals": {p: sum(row) for p, row in rows.items()}})
    return g


ENDINGS = st.sampled_from(["seed", "rounds", "elimination", "time"])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), ending=ENDINGS)
def test_a_total_is_the_sum_of_the_cards_the_player_ended_each_round_with(data, ending):
    """A round scores the four cards' sum (entered as cards or as that sum); a player out of
    the game adds nothing more."""
    g = data.draw(dealt_games(ending))
    for player in g.players:
        assert g.totals[player] == sum(rulebook_round_score(entry, player) for entry in g.rounds)


def rulebook_round_score(entry: dict, player: str) -> int:
    if "cards" in entry:
        return sum(entry["cards"].get(player, ()))
    return entry["totals"].get(player, 0)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), ending=st.sampled_from(["seed", "rounds", "time"]))
def test_standings_run_from_lowest_to_highest_total(data, ending):
    g = data.draw(dealt_games(ending))
    ordered = [g.totals[p] for p in g.standings]
    assert ordered == sorted(ordered)
    assert sorted(g.standings) == sorted(g.players)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_elimination_standings_put_survivors_first_then_later_outs(data):
    g = data.draw(dealt_games("elimination"))
    out = g.detail["out_in_round"]
    survivors = [p for p in g.standings if p not in out]
    assert g.standings[: len(survivors)] == survivors
    assert [g.totals[p] for p in survivors] == sorted(g.totals[p] for p in survivors)
    later_first = [(-out[p], g.totals[p]) for p in g.standings[len(survivors) :]]
    assert later_first == sorted(later_first)
    if g.over:
        assert g.standings[: len(g.winners)] == g.winners


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_winners_of_a_finished_seed_game_hold_the_lowest_total(data):
    g = data.draw(dealt_games("seed"))
    if g.over:
        lowest = min(g.totals.values())
        assert g.winners == [p for p in g.players if g.totals[p] == lowest]
    else:
        assert g.winners == []


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_elimination_out_players_are_at_the_limit_and_score_nothing_after(data):
    g = data.draw(dealt_games("elimination"))
    out = g.detail["out_in_round"]
    for player in g.players:
        running = 0
        for number, scores in enumerate(g.round_scores, start=1):
            if player in out and number > out[player]:
                assert scores[player] == 0
            running += scores[player]
        assert (running >= LIMIT) == (player in out)


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 6), shuffled=st.permutations(DECK))
def test_every_dealt_round_is_accepted_as_cards_and_as_totals(players, shuffled):
    """The deck checks never reject what a real deal produces."""
    rows = deal(NAMES[:players], shuffled)
    g = BEVERBENDE.new_game(NAMES[:players])
    by_cards = g.add_round({"cards": rows})
    by_totals = g.add_round({"totals": {p: sum(row) for p, row in rows.items()}})
    assert by_cards.round_scores == by_totals.round_scores == [{p: sum(row) for p, row in rows.items()}]


# --- totals: accepted exactly when some deal of the deck gives them ----------------------

HANDS_BY_SUM: dict[int, list[tuple[int, ...]]] = {}
for _hand in combinations_with_replacement(range(10), CARDS_PER_ROW):
    HANDS_BY_SUM.setdefault(sum(_hand), []).append(_hand)


@lru_cache(maxsize=None)
def dealable(totals: tuple[int, ...], left: tuple[int, ...] = tuple(COPIES[v] for v in range(10))) -> bool:
    """Brute force: can the players be dealt rows with these sums from what is left of the deck?"""
    if not totals:
        return True
    for hand in HANDS_BY_SUM[totals[0]]:
        rest = list(left)
        for value in hand:
            rest[value] -= 1
        if min(rest) >= 0 and dealable(totals[1:], tuple(rest)):
            return True
    return False


def accepts_totals(points: tuple[int, ...]) -> bool:
    g = BEVERBENDE.new_game(NAMES[: len(points)])
    try:
        g.add_round({"totals": dict(zip(NAMES, points))})
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("players", [2, 3])
def test_totals_accepted_exactly_when_a_deal_gives_them_every_case(players):
    for points in combinations_with_replacement(range(37), players):
        assert accepts_totals(points) == dealable(tuple(sorted(points, reverse=True))), points


@settings(max_examples=300, deadline=None)
@given(
    points=st.integers(4, 6).flatmap(
        lambda n: st.lists(st.one_of(st.integers(0, 6), st.integers(30, 36), st.integers(0, 36)), min_size=n, max_size=n)
    )
)
def test_totals_accepted_exactly_when_a_deal_gives_them(points):
    assert accepts_totals(tuple(points)) == dealable(tuple(sorted(points, reverse=True)))

"""MEMBERS ONLY invariants over random valid games (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules.base import RuleError
from companion.rules.members_only import (
    FIELDS,
    MINUS_CARDS,
    PAYOUTS,
    SYMBOL_CARDS,
    SYMBOLS,
    bet_wins,
    betting_turns,
    face_up_at_scoring,
    least_total_count,
    payout,
)

MEMBERS_ONLY = rules.get("members_only")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def counts_for(seats):
    cards = st.integers(0, SYMBOL_CARDS)
    return st.fixed_dictionaries({s: cards for s in SYMBOLS}).filter(
        lambda c: least_total_count(seats) <= sum(c.values()) <= face_up_at_scoring(seats)
    )


def cards_entry(draw, counts, seats):
    """The same counts as shown and minus cards, when they fit on the table (face-up cards
    are an even number, so an odd sum of counts stays in the counts form)."""
    minus = {s: draw(st.integers(0, min(MINUS_CARDS, SYMBOL_CARDS - counts[s]))) for s in SYMBOLS}
    if sum(counts.values()) % 2 or sum(counts.values()) + 2 * sum(minus.values()) > face_up_at_scoring(seats):
        return {"counts": counts}
    return {"shown": {s: counts[s] + minus[s] for s in SYMBOLS}, "minus": minus}


def random_hand(draw, game):
    """A hand the table could produce: free fields, stones the players own, one stone per turn."""
    seats = len(game.players)
    counts = draw(counts_for(seats))
    free = [(s, f) for s in SYMBOLS for f in FIELDS]
    bets = []
    for player in game.players:
        singles, doubles = game.detail["stones"][player].values()
        for turn in range(draw(st.integers(0, min(betting_turns(seats), singles + doubles)))):
            stones = ["single"] * bool(singles) + ["double"] * bool(doubles)
            stone = draw(st.sampled_from(stones))
            singles, doubles = singles - (stone == "single"), doubles - (stone == "double")
            symbol, field = free.pop(draw(st.integers(0, len(free) - 1)))
            risk = turn == 0 and draw(st.booleans())
            bets.append({"player": player, "symbol": symbol, "field": field, "stone": stone, "risk": risk})
    bets = draw(st.permutations(bets))
    form = draw(st.sampled_from(["counts", "cards"]))
    return {"bets": bets, **({"counts": counts} if form == "counts" else cards_entry(draw, counts, seats))}


@st.composite
def games(draw, max_hands=8):
    """A random game and the detail before each hand, played until it ends or runs out of hands."""
    seats = draw(st.integers(3, 5))
    game = MEMBERS_ONLY.new_game(NAMES[:seats])
    before = []
    for _ in range(draw(st.integers(1, max_hands))):
        if game.over:
            break
        before.append(game.detail)
        game = game.add_round(random_hand(draw, game))
    return game, before


@settings(max_examples=80, deadline=None)
@given(games())
def test_no_track_passes_ten_and_stones_stay_within_what_a_player_owns(played):
    game, _ = played
    for tracks in game.detail["tracks"].values():
        assert all(0 <= value <= 10 for value in tracks.values())
    for stones in game.detail["stones"].values():
        assert 0 <= stones["single"] <= 4 and 0 <= stones["double"] <= 1
        assert stones["single"] + stones["double"] >= 2  # one left or none means all came back


@settings(max_examples=80, deadline=None)
@given(games())
def test_totals_are_the_round_scores_summed_and_what_would_count_now(played):
    game, _ = played
    for player in game.players:
        assert game.totals[player] == sum(scores[player] for scores in game.round_scores)
        tracks = game.detail["tracks"][player].values()
        assert game.totals[player] == sum(value for value in tracks if value >= 5)
    assert all(points >= 0 for scores in game.round_scores for points in scores.values())


@settings(max_examples=80, deadline=None)
@given(games())
def test_the_game_is_over_exactly_when_every_symbol_has_a_marker_at_five(played):
    game, _ = played
    reached = {s for tracks in game.detail["tracks"].values() for s, value in tracks.items() if value >= 5}
    assert game.over == (reached == set(SYMBOLS))
    assert game.detail["symbols_reached"] == [s for s in SYMBOLS if s in reached]
    if game.over:
        best = max(game.totals.values())
        assert game.winners == [p for p in game.players if game.totals[p] == best]


@settings(max_examples=80, deadline=None)
@given(games())
def test_lost_stones_stay_lost_until_the_refill_returns_all(played):
    game, before = played
    replay = MEMBERS_ONLY.new_game(game.players)
    for entry, detail in zip(game.rounds, before):
        replay = replay.add_round(entry)
        for player in game.players:
            owned = dict(detail["stones"][player])
            for result in replay.detail["last_hand"]["bets"]:
                if result["player"] == player and not result["won"]:
                    owned[result["stone"]] -= 1
            if owned["single"] + owned["double"] <= 1:
                owned = {"single": 4, "double": 1}
            assert replay.detail["stones"][player] == owned


@settings(max_examples=60, deadline=None)
@given(games(), st.data())
def test_a_stone_the_player_no_longer_has_is_rejected(played, data):
    game, _ = played
    if game.over:
        return
    player = data.draw(st.sampled_from(game.players))
    stones = game.detail["stones"][player]
    stone = data.draw(st.sampled_from(["single", "double"]))
    wanted = stones[stone] + 1
    spots = [(s, f) for s in SYMBOLS for f in FIELDS][:wanted]
    bets = [{"player": player, "symbol": s, "field": f, "stone": stone} for s, f in spots]
    if wanted > betting_turns(len(game.players)):
        return  # the turn limit speaks first; covered by its own test
    counts = data.draw(counts_for(len(game.players)))
    try:
        game.add_round({"bets": bets, "counts": counts})
    except RuleError as err:
        assert err.field == f"bets.{wanted - 1}.stone"
        assert f"{player} has" in err.message and stone in err.message
    else:
        raise AssertionError(f"{player} bet {wanted} {stone} stones holding {stones[stone]}")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FIELDS), st.integers(0, SYMBOL_CARDS), st.sampled_from(["single", "double"]), st.booleans())
def test_payout_is_positive_exactly_when_the_bet_wins(field, count, stone, risk):
    points = payout(field, count, stone, risk)
    assert (points > 0) == bet_wins(field, count)
    assert points in (0, PAYOUTS[field], 2 * PAYOUTS[field], 3 * PAYOUTS[field])
    assert payout(field, count, "double", True) >= points >= payout(field, count)


@given(st.integers(0, SYMBOL_CARDS))
def test_exactly_one_of_4_or_fewer_and_5_or_more_wins(count):
    assert bet_wins("<=4", count) != bet_wins(">=5", count)


KEYS = st.sampled_from(["bets", "counts", "shown", "minus", "player", "symbol", "field", "stone", "risk", *SYMBOLS])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["Ann", "hat", "<=1", ">=8", "double", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["bets", "counts", "shown", "minus"]), JSON, max_size=3))
def test_a_malformed_entry_raises_a_rule_error_and_nothing_else(entry):
    game = MEMBERS_ONLY.new_game(NAMES[:3])
    try:
        after = game.add_round(entry)
    except RuleError as err:
        assert err.message
    else:
        assert len(after.rounds) == 1

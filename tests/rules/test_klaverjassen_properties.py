"""Klaverjassen invariants, checked with hypothesis over random deals, games and card play."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules import RuleError
from companion.rules.klaverjassen import (
    POSSIBLE_CARD_POINTS,
    legal_cards,
    max_roem,
    trick_points,
    trick_roem,
    trick_winner,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
A, B = "Ann & Cy", "Bob & Dee"
KLAVERJASSEN = rules.get("klaverjassen")
DECK = [f"{rank}{suit}" for suit in "SHDC" for rank in ["7", "8", "9", "10", "J", "Q", "K", "A"]]

options_strategy = st.fixed_dictionaries(
    {
        "four_jacks": st.sampled_from([200, 100]),
        "four_of_a_kind": st.sampled_from(["all", "10 and up"]),
        "nat_on_card_points": st.booleans(),
        "defenders_pit_bonus": st.booleans(),
        "verzaakt_penalty": st.booleans(),
        "ending": st.sampled_from(["501", "1000", "1500", "boompje", "boompje12"]),
    }
)
roem_strategy = st.sampled_from([0, 0, 0, 20, 40, 50, 70, 100, 120, 200, 250])


@st.composite
def entries(draw):
    """Any deal the table can produce (roem kept below every option's maximum)."""
    kind = draw(st.sampled_from(["plain", "plain", "plain", "pit", "verzaakt"]))
    roem = {A: draw(roem_strategy), B: draw(roem_strategy)}
    entry: dict = {}
    if draw(st.booleans()):
        entry["playing"] = draw(st.sampled_from([A, B]))
    if kind == "pit":
        taker = draw(st.sampled_from([A, B]))
        other = B if taker == A else A
        entry.update(card_points={taker: 162, other: 0}, pit=taker, roem={taker: roem[taker]})
        return entry
    a = draw(st.sampled_from(sorted(POSSIBLE_CARD_POINTS)))
    for team, points in ((A, a), (B, 162 - a)):
        if points == 0:  # tricks of 7s, 8s and plain 9s only: little roem under every option
            roem[team] = draw(st.sampled_from([0, 20, 40]))
    entry.update(card_points={A: a, B: 162 - a}, roem=roem)
    if kind == "verzaakt":
        entry["verzaakt"] = draw(st.sampled_from([A, B]))
        if draw(st.booleans()):
            del entry["card_points"]
    return entry


def play_until_over(options, deals):
    game = KLAVERJASSEN.new_game(PLAYERS, options)
    for entry in deals:
        if game.over:
            break
        game = game.add_round(entry)
    return game


@settings(max_examples=300)
@given(options_strategy, entries())
def test_without_nat_pit_or_renege_the_deal_is_worth_162_plus_the_roem(options, entry):
    game = KLAVERJASSEN.new_game(PLAYERS, options).add_round(entry)
    detail = game.detail["deals"][0]
    scores = game.round_scores[0]
    roem = sum(detail["roem"].values())
    if not (detail["nat"] or detail["pit"] or detail["verzaakt"]):
        assert scores == {t: detail["card_points"][t] + detail["roem"][t] for t in (A, B)}
        assert sum(scores.values()) == 162 + roem
    assert sum(scores.values()) == 162 + roem + sum(detail["bonus"].values())
    assert all(points >= 0 for points in scores.values())


@given(options_strategy, entries())
def test_nat_and_renege_leave_the_losing_team_nothing(options, entry):
    game = KLAVERJASSEN.new_game(PLAYERS, options).add_round(entry)
    detail = game.detail["deals"][0]
    if detail["nat"]:
        assert game.round_scores[0][detail["playing"]] == 0
    if detail["verzaakt"]:
        assert game.round_scores[0][detail["verzaakt"]] == 0


@settings(max_examples=100)
@given(options_strategy, st.lists(entries(), min_size=1, max_size=40))
def test_totals_are_the_sum_of_the_round_scores_and_the_winner_leads(options, deals):
    game = play_until_over(options, deals)
    assert game.totals == {t: sum(s[t] for s in game.round_scores) for t in (A, B)}
    assert [d["scores"] for d in game.detail["deals"]] == game.round_scores
    if game.over:
        best = max(game.totals.values())
        assert {game.totals[t] for t in game.winners} == {best}
        if options["ending"].startswith("boompje"):
            assert len(game.rounds) == {"boompje": 16, "boompje12": 12}[options["ending"]]
        else:
            assert best >= int(options["ending"])
            assert len(game.winners) == 1
    else:
        assert game.winners == []


@settings(max_examples=50)
@given(options_strategy, st.lists(entries(), min_size=2, max_size=20), st.data())
def test_editing_a_past_deal_recomputes_like_a_fresh_game(options, deals, data):
    game = play_until_over(options, deals)
    assume(len(game.rounds) >= 2)
    index = data.draw(st.integers(0, len(game.rounds) - 2))
    replacement = data.draw(entries())
    try:
        edited = game.replace_round(index, replacement)
    except RuleError as err:  # the edit would end the game before the later deals
        assert "already over" in err.message
        return
    fresh = KLAVERJASSEN.new_game(PLAYERS, options)
    for entry in edited.rounds:
        fresh = fresh.add_round(entry)
    assert edited.totals == fresh.totals
    assert edited.detail == fresh.detail
    assert edited.undo().totals == {t: sum(s[t] for s in edited.round_scores[:-1]) for t in (A, B)}


@st.composite
def deals_of_cards(draw):
    return draw(st.permutations(DECK)), draw(st.sampled_from("SHDC")), draw(st.sampled_from(["amsterdam", "rotterdam"]))


def check_play_rules(hand, trick, trump, variant, legal):
    """The play rules restated through trick_winner: which cards would take the trick."""
    led = trick[0][-1]
    winning = [card for card in hand if trick_winner([*trick, card], trump) == len(trick)]
    partner_winning = len(trick) >= 2 and trick_winner(trick, trump) == len(trick) - 2
    if any(card[-1] == led for card in hand):
        assert all(card[-1] == led for card in legal)
        if led == trump and winning:
            assert legal == winning
    elif variant == "rotterdam" or not partner_winning:
        if winning:
            assert legal == winning
        elif variant == "rotterdam" and any(card[-1] == trump for card in hand):
            assert all(card[-1] == trump for card in legal)
    else:
        losing_trumps = [c for c in hand if c[-1] == trump and c not in winning]
        if len(losing_trumps) < len(hand) and any(c[-1] == trump for c in trick):
            assert not set(legal) & set(losing_trumps)


@settings(max_examples=150)
@given(deals_of_cards(), st.data())
def test_a_deal_played_by_the_referee_holds_together(dealt, data):
    """Play eight tricks choosing only legal cards: every trick checks out, and 162 in all."""
    deck, trump, variant = dealt
    hands = [list(deck[seat * 8 : (seat + 1) * 8]) for seat in range(4)]
    leader = 0
    points = [0, 0]
    roem_total = 0
    for number in range(8):
        trick: list[str] = []
        for position in range(4):
            hand = hands[(leader + position) % 4]
            legal = legal_cards(hand, trick, trump, variant)
            assert legal and set(legal) <= set(hand)
            if trick:
                check_play_rules(hand, trick, trump, variant, legal)
            card = data.draw(st.sampled_from(legal))
            hand.remove(card)
            trick.append(card)
        winner = trick_winner(trick, trump)
        if any(card[-1] == trump for card in trick):
            assert trick[winner][-1] == trump
        else:
            assert trick[winner][-1] == trick[0][-1]
        roem = trick_roem(trick, trump)
        assert roem % 10 == 0 and roem not in (10, 30) and roem <= 200
        roem_total += roem
        leader = (leader + winner) % 4
        points[leader % 2] += trick_points(trick, trump, last=number == 7)
    assert sum(points) == 162
    assert all(p in POSSIBLE_CARD_POINTS for p in points)
    assert roem_total <= max_roem(200, "all")

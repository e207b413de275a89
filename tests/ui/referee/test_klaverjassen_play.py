"""The Klaverjassen referee's explanation: the rule it names allows exactly the legal cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import RuleError
from companion.rules.klaverjassen import RANKS, SUITS, TRUMP_ORDER
from companion.ui.referee import klaverjassen_play as kp
from companion.ui.referee.klaverjassen_play import card_label, explain_play

DECK = [rank + suit for suit in SUITS for rank in RANKS]


def cards_by_rule(rule: str, hand: list[str], trick: list[str], trump: str) -> set[str]:
    """The cards a rule allows, straight from its definition."""
    trumps = [c for c in hand if c[-1] == trump]
    top = max((TRUMP_ORDER.index(c[:-1]) for c in trick if c[-1] == trump), default=-1)
    higher = {c for c in trumps if TRUMP_ORDER.index(c[:-1]) > top}
    plain = {c for c in hand if c[-1] != trump}
    return {
        kp.LEAD: set(hand),
        kp.FOLLOW: {c for c in hand if trick and c[-1] == trick[0][-1]},
        kp.OVERTRUMP: higher,
        kp.ANY_TRUMP: set(trumps),
        kp.UNDERTRUMP: set(trumps),
        kp.NO_TRUMP: set(hand),
        kp.PARTNER_WINNING: plain | higher,
        kp.DISCARD: plain,
        kp.ONLY_LOWER_TRUMPS: set(hand),
    }[rule]


@st.composite
def situations(draw):
    deck = draw(st.permutations(DECK))
    trick_size = draw(st.integers(0, 3))
    hand_size = draw(st.integers(1, 8))
    return deck[trick_size : trick_size + hand_size], deck[:trick_size], draw(st.sampled_from(SUITS))


@given(situations(), st.sampled_from(["amsterdam", "rotterdam"]))
def test_the_named_rule_allows_exactly_the_legal_cards(situation, variant):
    hand, trick, trump = situation
    advice = explain_play(hand, trick, trump, variant)
    assert set(advice.allowed) == cards_by_rule(advice.rule, hand, trick, trump)
    assert advice.allowed and advice.reason


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "variant", "rule", "reason"),
    [
        (["7H", "AS"], [], "H", "amsterdam", kp.LEAD, "You lead: any card may be played."),
        (["QS", "7H"], ["AS"], "H", "rotterdam", kp.FOLLOW, "You hold spades, the suit led: you must follow suit."),
        (["JH", "7H", "AS"], ["9H"], "H", "amsterdam", kp.OVERTRUMP,
         "Trump was led: you must play a trump higher than the 9\u2665."),
        (["7H", "AS"], ["9H"], "H", "amsterdam", kp.ANY_TRUMP,
         "Trump was led and you cannot beat the 9\u2665: play any trump."),
        (["AS", "KD"], ["9H"], "H", "rotterdam", kp.NO_TRUMP, "Trump was led and you have none: any card may be played."),
        (["KD", "7C"], ["AS"], "H", "amsterdam", kp.NO_TRUMP,
         "You cannot follow spades and hold no trump: any card may be played."),
        (["7H", "KD"], ["AS", "7S"], "H", "rotterdam", kp.OVERTRUMP, "You cannot follow spades: in Rotterdam you must trump."),
        (["JH", "7H", "KD"], ["AS", "9H"], "H", "rotterdam", kp.OVERTRUMP,
         "You cannot follow spades: in Rotterdam you must trump over the 9\u2665."),
        (["7H", "KD"], ["AS", "9H"], "H", "rotterdam", kp.UNDERTRUMP,
         "You cannot follow spades or beat the 9\u2665: in Rotterdam you must still trump (undertrump)."),
        (["7H", "KD"], ["AS", "7S"], "H", "amsterdam", kp.PARTNER_WINNING,
         "Your partner is winning the trick with the A\u2660: in Amsterdam you need not trump; any card may be played."),
        (["7H", "JH", "KD"], ["AS", "9H", "7S"], "H", "amsterdam", kp.PARTNER_WINNING,
         "Your partner is winning the trick with the 9\u2665: in Amsterdam any card may be played, but no lower trump."),
        (["7H", "8H"], ["AS", "9H", "7S"], "H", "amsterdam", kp.ONLY_LOWER_TRUMPS,
         "You hold only trumps lower than the 9\u2665: play any of them."),
        (["7H", "KD"], ["AS"], "H", "amsterdam", kp.OVERTRUMP,
         "An opponent is winning the trick and you cannot follow spades: in Amsterdam you must trump."),
        (["JH", "KD"], ["AS", "9H"], "H", "amsterdam", kp.OVERTRUMP,
         "An opponent is winning the trick with the 9\u2665: in Amsterdam you must trump over it."),
        (["7H", "KD"], ["AS", "9H"], "H", "amsterdam", kp.DISCARD,
         "An opponent is winning with the 9\u2665 and you cannot overtrump: play a card of another suit, not a lower trump."),
    ],
)
def test_each_rule_and_its_sentence(hand, trick, trump, variant, rule, reason):
    advice = explain_play(hand, trick, trump, variant)
    assert (advice.rule, advice.reason) == (rule, reason)


def test_amsterdam_and_rotterdam_differ_when_the_partner_wins():
    hand, trick = ["7H", "KD", "8C"], ["AS", "7S"]
    assert explain_play(hand, trick, "H", "amsterdam").allowed == ("7H", "KD", "8C")
    assert explain_play(hand, trick, "H", "rotterdam").allowed == ("7H",)


def test_bad_cards_are_refused_by_the_rules():
    with pytest.raises(RuleError):
        explain_play(["AS"], ["AS"], "H", "amsterdam")


@pytest.mark.parametrize(("card", "label"), [("10H", "10\u2665"), ("JS", "J\u2660"), ("QD", "Q\u2666"), ("KC", "K\u2663"), ("7S", "7\u2660")])
def test_card_labels(card, label):
    assert card_label(card) == label

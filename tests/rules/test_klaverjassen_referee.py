"""Klaverjassen referee: trick ranks, card points, roem and legal plays in both variants."""

from __future__ import annotations

import pytest

from companion.rules import RuleError
from companion.rules.klaverjassen import legal_cards, max_roem, trick_points, trick_roem, trick_winner

# --- trick ranks ------------------------------------------------------------------------

TRUMP_HIGH_TO_LOW = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_HIGH_TO_LOW = ["A", "10", "K", "Q", "J", "9", "8", "7"]


@pytest.mark.parametrize("higher, lower", list(zip(TRUMP_HIGH_TO_LOW, TRUMP_HIGH_TO_LOW[1:])))
def test_trump_rank_order_j_9_a_10_k_q_8_7(higher, lower):
    assert trick_winner([f"{lower}H", f"{higher}H"], "H") == 1
    assert trick_winner([f"{higher}H", f"{lower}H"], "H") == 0


@pytest.mark.parametrize("higher, lower", list(zip(PLAIN_HIGH_TO_LOW, PLAIN_HIGH_TO_LOW[1:])))
def test_plain_rank_order_a_10_k_q_j_9_8_7(higher, lower):
    assert trick_winner([f"{lower}S", f"{higher}S"], "H") == 1
    assert trick_winner([f"{higher}S", f"{lower}S"], "H") == 0


@pytest.mark.parametrize(
    "rule, trick, trump, winner",
    [
        ("lowest trump beats the led ace", ["AS", "10S", "7H", "KS"], "H", 2),
        ("highest of several trumps wins", ["AS", "8H", "9H", "JS"], "H", 2),
        ("a discard never wins", ["7S", "AD", "AC", "AH"], "H", 3),
        ("without trumps the led suit wins", ["7S", "AD", "AC", "8S"], "H", 3),
        ("leader keeps the trick when nobody beats it", ["QC", "AD", "AS", "JC"], "H", 0),
        ("trump led, higher trump wins", ["10D", "AD", "9D", "JC"], "D", 2),
        ("winning so far in an unfinished trick", ["KS", "AS"], "C", 1),
        ("one card leads and wins so far", ["7C"], "H", 0),
    ],
)
def test_trick_winner(rule, trick, trump, winner):
    assert trick_winner(trick, trump) == winner, rule


# --- card points ------------------------------------------------------------------------

ZERO_FILLERS = ["7C", "8C", "7D"]  # worth nothing as plain cards and as trump


@pytest.mark.parametrize(
    "rank, points", [("J", 20), ("9", 14), ("A", 11), ("10", 10), ("K", 4), ("Q", 3), ("8", 0), ("7", 0)]
)
def test_trump_card_points(rank, points):
    assert trick_points([f"{rank}H", *ZERO_FILLERS], "H") == points


@pytest.mark.parametrize(
    "rank, points", [("A", 11), ("10", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0), ("8", 0), ("7", 0)]
)
def test_plain_card_points(rank, points):
    assert trick_points([f"{rank}H", *ZERO_FILLERS], "S") == points


def test_last_trick_is_worth_10_more():
    trick = ["JH", "9H", "AS", "KD"]
    assert trick_points(trick, "H") == 49
    assert trick_points(trick, "H", last=True) == 59


def test_whole_deck_is_worth_162_with_the_last_trick():
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
    tricks = [deck[i : i + 4] for i in range(0, 32, 4)]
    for trump in "SHDC":
        assert sum(trick_points(t, trump, last=i == 7) for i, t in enumerate(tricks)) == 162


# --- roem -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule, trick, trump, roem",
    [
        ("run of three", ["8S", "9S", "10S", "AH"], "H", 20),
        ("7-8-9 is a run", ["7S", "8S", "9S", "AH"], "H", 20),
        ("10-J-Q is a run", ["10S", "JS", "QS", "7H"], "H", 20),
        ("Q-K-A is a run", ["QS", "KS", "AS", "7H"], "H", 20),
        ("run of four", ["10S", "JS", "QS", "KS"], "H", 50),
        ("order in the trick does not matter", ["KS", "10S", "QS", "JS"], "H", 50),
        ("a gap breaks the run", ["7S", "8S", "10S", "AH"], "H", 0),
        ("ace does not wrap round to seven", ["KS", "AS", "7S", "8H"], "H", 0),
        ("two cards are no run", ["9S", "10S", "AH", "AD"], "H", 0),
        ("run of three in trump", ["7H", "8H", "9H", "AS"], "H", 20),
        ("stuk alone", ["KH", "QH", "7S", "8C"], "H", 20),
        ("king and queen of a plain suit are no stuk", ["KH", "QH", "7S", "8C"], "S", 0),
        ("stuk added to a run of three", ["JH", "QH", "KH", "7S"], "H", 40),
        ("same run without trump", ["JH", "QH", "KH", "7S"], "S", 20),
        ("stuk added to a run of four", ["10H", "JH", "QH", "KH"], "H", 70),
        ("stuk in a run Q-K-A", ["QD", "KD", "AD", "7S"], "D", 40),
        ("four aces", ["AS", "AH", "AD", "AC"], "H", 100),
        ("four tens", ["10S", "10H", "10D", "10C"], "C", 100),
        ("four sevens", ["7S", "7H", "7D", "7C"], "H", 100),
        ("four nines", ["9S", "9H", "9D", "9C"], "H", 100),
        ("four jacks", ["JS", "JH", "JD", "JC"], "H", 200),
        ("suits of one colour make no run by default", ["7S", "8C", "9S", "AH"], "H", 0),
        ("nothing", ["7S", "9C", "JD", "KH"], "H", 0),
    ],
)
def test_roem_combinations(rule, trick, trump, roem):
    assert trick_roem(trick, trump) == roem, rule


@pytest.mark.parametrize(
    "rule, trick, options, roem",
    [
        ("four jacks can count 100", ["JS", "JH", "JD", "JC"], {"four_jacks": 100}, 100),
        ("four jacks count 200", ["JS", "JH", "JD", "JC"], {"four_jacks": 200}, 200),
        ("10 and up: four sevens count nothing", ["7S", "7H", "7D", "7C"], {"four_of_a_kind": "10 and up"}, 0),
        ("10 and up: four nines count nothing", ["9S", "9H", "9D", "9C"], {"four_of_a_kind": "10 and up"}, 0),
        ("10 and up: four tens count", ["10S", "10H", "10D", "10C"], {"four_of_a_kind": "10 and up"}, 100),
        ("10 and up: four queens count", ["QS", "QH", "QD", "QC"], {"four_of_a_kind": "10 and up"}, 100),
        ("10 and up: four jacks still count", ["JS", "JH", "JD", "JC"], {"four_of_a_kind": "10 and up"}, 200),
        ("by colour: black run", ["7S", "8C", "9S", "AH"], {"runs_by_colour": True}, 20),
        ("by colour: red run of four", ["7H", "8D", "9D", "10H"], {"runs_by_colour": True}, 50),
        ("by colour: red and black do not mix", ["7S", "8H", "9S", "AD"], {"runs_by_colour": True}, 0),
        ("by colour: stuk added", ["JD", "QH", "KH", "7S"], {"runs_by_colour": True}, 40),
        ("by colour: same suit still a run", ["JD", "QD", "KD", "7S"], {"runs_by_colour": True}, 20),
        ("by colour: duplicate rank is one step", ["7H", "8D", "8H", "9D"], {"runs_by_colour": True}, 20),
    ],
)
def test_roem_options(rule, trick, options, roem):
    assert trick_roem(trick, "H", **options) == roem, rule


@pytest.mark.parametrize("options", [{"four_jacks": 150}, {"four_of_a_kind": "high"}, {"runs_by_colour": "yes"}])
def test_roem_rejects_unknown_option_values(options):
    with pytest.raises(RuleError):
        trick_roem(["JS", "JH", "JD", "JC"], "H", **options)


@pytest.mark.parametrize(
    "four_jacks, four_of_a_kind, most",
    [(200, "all", 900), (100, "all", 800), (200, "10 and up", 700), (100, "10 and up", 600)],
)
def test_most_roem_in_one_deal(four_jacks, four_of_a_kind, most):
    assert max_roem(four_jacks, four_of_a_kind) == most


def test_most_roem_is_reached_by_eight_fours():
    tricks = [[f"{rank}{suit}" for suit in "SHDC"] for rank in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
    assert sum(trick_roem(t, "H") for t in tricks) == max_roem(200, "all")


def test_most_roem_counting_10_and_up_is_reached():
    """Jacks, aces, kings and queens as fours, and four runs 7-8-9-10."""
    options = {"four_of_a_kind": "10 and up"}
    fours = [[f"{rank}{suit}" for suit in "SHDC"] for rank in ["J", "A", "K", "Q"]]
    runs = [[f"{rank}{suit}" for rank in ["7", "8", "9", "10"]] for suit in "SHDC"]
    assert sum(trick_roem(t, "H", **options) for t in fours + runs) == max_roem(200, "10 and up")


# --- legal plays ------------------------------------------------------------------------
# Trump is hearts throughout. The player to play sits at position len(trick); the partner
# played the card two places earlier.

BOTH = ("amsterdam", "rotterdam")


@pytest.mark.parametrize(
    "rule, hand, trick, amsterdam, rotterdam",
    [
        ("leading: any card", ["7S", "JH", "AD"], [], ["7S", "JH", "AD"], ["7S", "JH", "AD"]),
        ("follow suit when able", ["7S", "AS", "KH", "JD"], ["10S"], ["7S", "AS"], ["7S", "AS"]),
        ("follow suit, no need to beat it", ["7S", "KH"], ["AS"], ["7S"], ["7S"]),
        ("follow suit even when partner wins", ["7S", "KH"], ["AS", "8S"], ["7S"], ["7S"]),
        ("trump led: overtrump when able", ["JH", "7H", "AS"], ["9H"], ["JH"], ["JH"]),
        ("trump led: any trump when unable to overtrump", ["9H", "7H", "AS"], ["JH"], ["9H", "7H"], ["9H", "7H"]),
        ("trump led: overtrump the partner too", ["JH", "8H", "AS"], ["9H", "7H"], ["JH"], ["JH"]),
        ("trump led: no trump, any card", ["AS", "KD"], ["9H"], ["AS", "KD"], ["AS", "KD"]),
        ("opponent wins, cannot follow: must trump", ["7H", "KD", "QC"], ["AS"], ["7H"], ["7H"]),
        ("opponent trumped: overtrump when able", ["JH", "7H", "KD"], ["AS", "10H"], ["JH"], ["JH"]),
        (
            "opponent trumped higher: discard in Amsterdam, undertrump in Rotterdam",
            ["7H", "KD"],
            ["AS", "JH"],
            ["KD"],
            ["7H"],
        ),
        ("only lower trumps: play one", ["7H", "8H"], ["AS", "JH"], ["7H", "8H"], ["7H", "8H"]),
        (
            "partner wins with a plain card: free in Amsterdam, trump in Rotterdam",
            ["7H", "KD"],
            ["AS", "7S"],
            ["7H", "KD"],
            ["7H"],
        ),
        (
            "partner wins with trump: no undertrumping in Amsterdam",
            ["8H", "KD"],
            ["7S", "9H", "AS"],
            ["KD"],
            ["8H"],
        ),
        (
            "partner wins with trump: overtrump or discard in Amsterdam, overtrump in Rotterdam",
            ["JH", "8H", "KD"],
            ["7S", "9H", "AS"],
            ["JH", "KD"],
            ["JH"],
        ),
        (
            "partner wins with a low trump: a higher trump over it is allowed",
            ["AH", "QD"],
            ["7S", "10H", "8S"],
            ["AH", "QD"],
            ["AH"],
        ),
        ("partner trumped, only lower trumps: play one", ["8H", "7H"], ["7S", "9H", "AS"], ["8H", "7H"], ["8H", "7H"]),
        (
            "opponent overtrumped the partner: cannot beat it, discard in Amsterdam",
            ["QH", "KD"],
            ["7S", "8H", "AH"],
            ["KD"],
            ["QH"],
        ),
        ("no trump and cannot follow: any card", ["KD", "QC"], ["AS"], ["KD", "QC"], ["KD", "QC"]),
        ("last to play, opponent's plain ace wins", ["7H", "KD"], ["AS", "7S", "8S"], ["7H"], ["7H"]),
        ("last to play, partner winning", ["7H", "KD"], ["8S", "AS", "7S"], ["7H", "KD"], ["7H"]),
    ],
)
def test_legal_cards(rule, hand, trick, amsterdam, rotterdam):
    assert legal_cards(hand, trick, "H", variant="amsterdam") == amsterdam, rule
    assert legal_cards(hand, trick, "H", variant="rotterdam") == rotterdam, rule


def test_legal_cards_default_variant_is_amsterdam():
    assert legal_cards(["7H", "KD"], ["AS", "JH"], "H") == ["KD"]


# --- rejections -------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["11H", "1H", "6S", "JX", "jh", "10", "H", "", "10HH", 10, None])
def test_malformed_cards_are_rejected(card):
    with pytest.raises(RuleError) as err:
        trick_winner(["AS", card], "H")
    assert err.value.field == "trick"
    with pytest.raises(RuleError):
        legal_cards(["AS", card], [], "H")


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: trick_winner(["AS", "AS"], "H"), "trick"),
        (lambda: trick_points(["AS", "KS", "QS", "AS"], "H"), "trick"),
        (lambda: trick_roem(["AS", "KS", "QS", "KS"], "H"), "trick"),
        (lambda: legal_cards(["7H", "7H"], [], "H"), "hand"),
        (lambda: legal_cards(["7H", "KD"], ["7H"], "H"), "hand"),
        (lambda: legal_cards(["7H"], ["AS", "KS", "QS", "JS"], "H"), "trick"),
        (lambda: legal_cards([], ["AS"], "H"), "hand"),
        (lambda: legal_cards("7H", [], "H"), "hand"),
        (lambda: legal_cards(["7H"], [], "H", variant="utrecht"), "variant"),
        (lambda: trick_winner([], "H"), "trick"),
        (lambda: trick_winner(["AS", "KS", "QS", "JS", "10S"], "H"), "trick"),
        (lambda: trick_points(["AS", "KS"], "H"), "trick"),
        (lambda: trick_roem(["AS", "KS", "QS"], "H"), "trick"),
        (lambda: trick_winner(["AS"], "X"), "trump"),
        (lambda: trick_points(["AS", "KS", "QS", "JS"], "hearts"), "trump"),
    ],
)
def test_bad_referee_input_is_rejected(call, field):
    with pytest.raises(RuleError) as err:
        call()
    assert err.value.field == field
    assert err.value.message

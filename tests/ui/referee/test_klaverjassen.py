"""Klaverjassen referee: trump, trick and hand give the cards you may play and the trick's worth."""

from __future__ import annotations

import pytest

from companion.ui.referee.klaverjassen import HAND, TRICK, KlaverjassenReferee, view
from tests.ui.tree import find, tap, text


def referee(trick=(), hand=(), trump="H") -> KlaverjassenReferee:
    state = KlaverjassenReferee(trump)
    state.choose_pile(TRICK)
    for card in trick:
        state.tap(card)
    state.choose_pile(HAND)
    for card in hand:
        state.tap(card)
    return state


def test_a_tap_places_a_card_and_a_second_tap_takes_it_back():
    state = referee(trick=["AS"])
    assert state.place_of("AS") == TRICK
    state.choose_pile(HAND)
    state.tap("AS")
    assert state.place_of("AS") is None
    assert state.trick == [] and state.hand == []


def test_the_trick_keeps_play_order():
    assert referee(trick=["7S", "AS", "9H"]).trick == ["7S", "AS", "9H"]


def test_a_trick_holds_four_cards_and_a_hand_eight():
    state = referee(trick=["7S", "8S", "9S", "10S"])
    state.choose_pile(TRICK)
    state.tap("JS")
    assert state.notice == "A trick has four cards." and "JS" not in state.trick
    state = referee(hand=["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"])
    state.tap("7H")
    assert state.notice == "A hand has at most eight cards." and "7H" not in state.hand


def test_partner_winning_amsterdam_and_rotterdam_differ():
    advice = referee(trick=["AS", "7S"], hand=["7H", "KD", "8C"]).advice()
    assert advice["amsterdam"].allowed == ("7H", "KD", "8C")
    assert advice["rotterdam"].allowed == ("7H",)
    assert "partner is winning" in advice["amsterdam"].reason
    assert "Rotterdam you must trump" in advice["rotterdam"].reason


def test_opponent_winning_both_variants_ask_for_a_higher_trump():
    advice = referee(trick=["AS", "9H"], hand=["JH", "7H", "KD"]).advice()
    assert advice["amsterdam"].allowed == advice["rotterdam"].allowed == ("JH",)


def test_following_suit_is_the_same_in_both():
    advice = referee(trick=["KS"], hand=["7S", "JH"]).advice()
    assert advice["amsterdam"].allowed == advice["rotterdam"].allowed == ("7S",)


def test_no_advice_without_a_hand_or_with_a_full_trick():
    assert referee(trick=["AS"]).advice() is None
    assert referee(trick=["AS", "7S", "8S", "9S"], hand=["7H"]).advice() is None


@pytest.mark.parametrize(
    ("trick", "trump", "card", "seat", "side", "points"),
    [
        (["AS"], "H", "AS", 0, "opponent", 11),
        (["AS", "7S"], "H", "AS", 0, "partner", 11),
        (["AS", "7H"], "H", "7H", 1, "opponent", 11),
        (["10S", "9H", "AS"], "H", "9H", 1, "partner", 35),
    ],
)
def test_who_is_winning_so_far_seen_by_the_next_player(trick, trump, card, seat, side, points):
    standing = referee(trick=trick, trump=trump).standing()
    assert (standing.card, standing.seat, standing.side, standing.points) == (card, seat, side, points)


def test_a_complete_trick_has_points_and_roem():
    state = referee(trick=["QD", "KD", "AD", "7S"], trump="D")
    standing = state.standing()
    assert (standing.card, standing.side, standing.points) == ("AD", None, 3 + 4 + 11)
    assert state.roem() == 40
    lines = dict(state.standing_lines())
    assert lines["Wins the trick"] == "A\u2666 (the third player)"
    assert lines["Card points"] == "18 (28 as the last trick)"
    assert lines["Roem"] == "40"


def test_an_unfinished_trick_has_no_roem_yet():
    assert referee(trick=["QD", "KD"]).roem() is None


def test_changing_trump_changes_the_answers():
    state = referee(trick=["AS", "7H"], hand=["8H", "KD"])
    assert state.standing().card == "7H"
    state.choose_trump("S")
    assert state.standing().card == "AS"


def test_start_over():
    state = referee(trick=["AS"], hand=["7H"])
    state.clear()
    assert (state.trick, state.hand, state.pile) == ([], [], TRICK)


def test_the_view_settles_do_i_have_to_trump_my_partners_ace():
    state = KlaverjassenReferee()
    root = view(state)
    tap(root, "referee-klaver-trump-H")
    for card in ("AS", "7S"):
        tap(root, f"referee-klaver-card-{card}")
    tap(root, "referee-klaver-pile-hand")
    for card in ("7H", "KD"):
        tap(root, f"referee-klaver-card-{card}")
    amsterdam = text(find(root, "referee-klaver-amsterdam"))
    rotterdam = text(find(root, "referee-klaver-rotterdam"))
    assert "Amsterdam: you may play 7\u2665  K\u2666" in amsterdam
    assert "Rotterdam: you may play 7\u2665" in rotterdam and "K\u2666" not in rotterdam
    assert "your partner" in text(find(root, "referee-klaver-standing"))
    assert text(find(root, "referee-klaver-trick")).endswith("A\u2660  7\u2660")


@pytest.mark.parametrize(
    ("options", "roem"),
    [({}, 200), ({"four_jacks": 100}, 100), ({"four_jacks": 100, "variant": "rotterdam", "ending": "boompje"}, 100)],
)
def test_roem_follows_the_games_options(options, roem):
    from companion.ui.referee import referee_state

    state = referee_state("klaverjassen", options)
    state.choose_pile(TRICK)
    for card in ("JS", "JH", "JD", "JC"):
        state.tap(card)
    assert state.roem() == roem


def test_runs_by_colour_from_the_game():
    from companion.ui.referee import referee_state

    state = referee_state("klaverjassen", {"runs_by_colour": True})
    for card in ("8H", "9D", "10H", "KC"):
        state.tap(card)
    assert state.roem() == 20

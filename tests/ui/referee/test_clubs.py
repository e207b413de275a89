"""CLUBS referee: taps build the two piles, the switches change the verdict."""

from __future__ import annotations

import pytest

from companion.ui.referee import referee_view
from companion.ui.referee.clubs import PLAY, TABLE, ClubsReferee, view
from tests.ui.tree import find, tap, text


def referee(table=(), play=(), **switches) -> ClubsReferee:
    state = ClubsReferee(**switches)
    state.choose_pile(TABLE)
    for value in table:
        state.tap(value)
    state.choose_pile(PLAY)
    for value in play:
        state.tap(value)
    return state


def test_nothing_to_judge_until_cards_are_chosen():
    state = ClubsReferee()
    assert state.ruling() is None
    assert "Tap the cards you want to play" in state.prompt


def test_taps_go_to_your_play_first():
    state = ClubsReferee()
    state.tap(9)
    assert (state.table, state.play) == ([], [9])


def test_piles_keep_their_cards_in_order_of_value():
    state = referee(table=[9, 7, 8])
    assert state.table == [7, 8, 9]


def test_a_lead_is_always_legal():
    ruling = referee(play=[4, 4]).ruling()
    assert ruling.legal and ruling.headline == "Yes, you may play this"
    assert "set of two 4s" in ruling.reason


@pytest.mark.parametrize(
    ("rule", "table", "play", "switches", "legal", "wins"),
    [
        ("a higher run of the same length beats a run", [7, 8], [8, 9], {}, True, False),
        ("a longer run does not follow a run of two", [7, 8], [9, 10, 11], {}, False, False),
        ("a set must match the number of cards", [9, 9], [13], {}, False, False),
        ("a 15 wins the trick at once", [9, 9], [15, 15], {}, True, True),
        ("in Crazy CLUBS a 15 does not win at once", [9, 9], [15, 15], {"crazy": True}, True, False),
        ("in Crazy CLUBS more cards beat fewer", [15], [3, 3], {"crazy": True}, True, False),
        ("without Crazy CLUBS nothing follows a 15", [15], [3, 3], {}, False, False),
        ("a wild 15 completes a set", [11, 11], [12, 15], {"wild_15": True}, True, False),
        ("without wild 15s a 12 and a 15 are no play", [11, 11], [12, 15], {}, False, False),
    ],
)
def test_rulings(rule, table, play, switches, legal, wins):
    ruling = referee(table, play, **switches).ruling()
    assert ruling.legal is legal, rule
    if legal:
        expected = "It wins the trick at once." if wins else "It does not win the trick at once: the trick goes on."
        assert ruling.trick == expected, rule
    else:
        assert ruling.headline == "No, you may not play this" and ruling.trick == ""


def test_switches_flip_the_verdict():
    state = referee([11, 11], [12, 15])
    assert not state.ruling().legal
    state.toggle_wild()
    assert state.ruling().legal
    state.toggle_wild()
    assert not state.ruling().legal


def test_cards_on_the_table_that_form_no_play_are_pointed_out():
    ruling = referee(table=[3, 7], play=[9, 9]).ruling()
    assert not ruling.legal
    assert ruling.headline == "Check the cards"
    assert "cannot have been played" in ruling.reason


def test_no_more_than_four_cards_of_a_value_in_the_deck():
    state = referee(table=[8, 8], play=[8, 8])
    assert not state.can_add(8)
    state.tap(8)
    assert state.play == [8, 8]
    assert state.notice == "The deck has only four cards of each value."


def test_no_play_of_more_than_ten_cards():
    state = referee(play=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
    assert not state.can_add(6)
    state.tap(6)
    assert len(state.play) == 10
    assert state.notice == "A play has at most ten cards: a hand holds no more."


def test_take_back_and_start_over():
    state = referee([7, 8], [8, 9])
    state.take_back(TABLE, 7)
    assert state.table == [8]
    state.clear()
    assert (state.table, state.play, state.pile) == ([], [], PLAY)


def test_the_view_settles_a_dispute_by_taps():
    state = ClubsReferee()
    root = view(state)
    tap(root, "referee-clubs-pile-table")
    tap(root, "referee-clubs-card-9")
    tap(root, "referee-clubs-card-9")
    tap(root, "referee-clubs-pile-play")
    tap(root, "referee-clubs-card-7")
    tap(root, "referee-clubs-card-7")
    assert "No, you may not play this" in text(find(root, "referee-clubs-verdict"))
    tap(root, "referee-clubs-play-0")  # take one 7 back (its cross)
    tap(root, "referee-clubs-play-0")
    tap(root, "referee-clubs-card-12")
    tap(root, "referee-clubs-card-12")
    verdict = text(find(root, "referee-clubs-verdict"))
    assert "Yes, you may play this" in verdict and "beats a set of two 9s" in verdict


def test_the_view_switches():
    state = ClubsReferee()
    root = view(state)
    tap(root, "referee-clubs-crazy")
    tap(root, "referee-clubs-wild")
    assert state.crazy and state.wild_15
    assert find(root, "referee-clubs-crazy").value is True


def test_a_card_key_is_disabled_once_the_deck_has_no_more():
    root = view(referee(play=[5, 5, 5, 5]))
    assert find(root, "referee-clubs-card-5").disabled
    assert not find(root, "referee-clubs-card-6").disabled


def test_referee_view_dispatches_by_game():
    root = referee_view("clubs")
    find(root, "referee-clubs-wild")


def test_opened_from_a_game_the_switches_follow_its_options():
    from companion import rules
    from companion.ui.referee import referee_state

    game = rules.get("clubs").new_game(["Ann", "Bob"], options={"crazy": True})
    state = referee_state("clubs", game.options)
    assert (state.crazy, state.wild_15) == (True, False)
    root = referee_view("clubs", game.options)
    assert find(root, "referee-clubs-crazy").value is True


def test_an_unknown_game_has_no_referee():
    from companion.rules import RuleError

    with pytest.raises(RuleError, match="no game called 'whist'"):
        referee_view("whist")

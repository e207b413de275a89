"""Beverbende referee: may a player knock yet, and what replaces special cards at the end."""

from __future__ import annotations

from companion.ui.referee.beverbende import PILE, BeverbendeReferee, view
from tests.ui.tree import find, tap, text


def with_turns(turns, knocker=0) -> BeverbendeReferee:
    state = BeverbendeReferee(len(turns))
    for seat, count in enumerate(turns):
        state.step_turns(seat, count)
    state.choose_knocker(knocker)
    return state


def test_nobody_may_knock_before_everyone_had_a_turn():
    answer = with_turns([1, 0, 0, 0]).knock()
    assert not answer.good
    assert answer.headline == "Player 1 may not knock yet"
    assert answer.lines == ("Everyone must have had a turn this round first; Player 2, Player 3 and Player 4 not yet.",)


def test_once_everyone_had_a_turn_the_others_play_once_more():
    answer = with_turns([2, 1, 1, 1], knocker=3).knock()
    assert answer.good and answer.headline == "Player 4 may knock"
    assert "After the knock Player 1, Player 2 and Player 3 each play once more; Player 4 does not." in answer.lines


def test_the_number_of_players_stays_between_two_and_six():
    state = BeverbendeReferee(2)
    state.step_players(-1)
    assert len(state.turns) == 2
    for _ in range(6):
        state.step_players(1)
    assert len(state.players) == 6


def test_fewer_players_keep_the_knocker_at_the_table():
    state = with_turns([1, 1, 1, 1], knocker=3)
    state.step_players(-1)
    assert state.knocker == 2 and state.turns == [1, 1, 1]


def test_turns_never_go_below_zero():
    state = BeverbendeReferee()
    state.step_turns(0, -1)
    assert state.turns[0] == 0


def row(cards, drawn=(), knocker=0, players=3) -> BeverbendeReferee:
    state = BeverbendeReferee(players)
    state.choose_knocker(knocker)
    for card in cards:
        state.tap(card)
    for card in drawn:
        state.tap(card)
    return state


def test_taps_fill_the_row_then_the_draw_pile():
    state = row([3, "peek"])
    assert state.row == [3, "peek", None, None] and state.target == 2
    state.tap(1)
    state.tap(0)
    assert state.target == PILE
    state.tap(8)
    assert state.drawn == [8]


def test_no_answer_until_the_row_is_complete():
    assert row([1, 2, 3]).replacement() is None


def test_a_row_without_special_cards_counts_as_it_is():
    answer = row([1, 2, 3, 4]).replacement()
    assert answer.good and answer.headline == "The row counts 10"


def test_a_special_card_is_covered_by_the_first_number_card_drawn():
    answer = row([0, "peek", 4, 0], drawn=["swap", 8]).replacement()
    assert answer.good and answer.headline == "The row counts 12"
    assert answer.lines[0] == "0 + 8 + 4 + 0 = 12"
    assert "Set aside: peek, swap." in answer.lines


def test_keep_drawing_until_a_number_card_comes():
    answer = row([0, "peek", 4, "draw_twice"], drawn=["swap", 8]).replacement()
    assert not answer.good and answer.headline == "Keep drawing"
    assert "1 of 2 special cards covered so far." in answer.lines


def test_cards_drawn_beyond_the_row_go_to_the_next_player():
    answer = row([0, "peek", 4, 0], drawn=[5, 7]).replacement()
    assert answer.lines[0] == "0 + 5 + 4 + 0 = 9"
    assert "The last card drawn was not needed: the next player goes on with it." in answer.lines


def test_the_knocker_replaces_first_then_clockwise():
    answer = row([0, "peek", 4, 0], drawn=[5], knocker=1).replacement()
    assert "Player 2 knocked, so Player 2 replaces first; then Player 3 and Player 1." in answer.lines


def test_undo_and_start_over():
    state = row([0, "peek", 4, 0], drawn=["swap", 8])
    state.undo_drawn()
    assert state.drawn == ["swap"]
    state.clear_row()
    assert state.row == [None] * 4 and state.drawn == [] and state.target == 0


def test_the_view_settles_may_i_knock_and_a_replacement():
    state = BeverbendeReferee()
    root = view(state)
    tap(root, "referee-bever-players-minus")  # three players
    tap(root, "referee-bever-turns-1-plus")
    assert "may not knock yet" in text(find(root, "referee-bever-knock"))
    tap(root, "referee-bever-turns-2-plus")
    tap(root, "referee-bever-turns-3-plus")
    assert "Player 1 may knock" in text(find(root, "referee-bever-knock"))
    for card in ("7", "peek", "2", "0", "9"):
        tap(root, f"referee-bever-card-{card}")
    assert "7 + 9 + 2 + 0 = 18" in text(find(root, "referee-bever-replacement"))
    assert text(find(root, "referee-bever-drawn")) == "Drawn: 9"

"""Beverbende round entry: keypad taps become entries the rules accept, errors land on their row."""

import pytest

from companion import rules
from companion.ui.round_entry import entry_form
from companion.ui.round_entry.beverbende import TOTAL, BeverbendeEntry
from tests.ui.tree import find, find_all, tap, text

PLAYERS = ["Ann", "Bob", "Cy"]


def new_game(players=PLAYERS, **options):
    return rules.get("beverbende").new_game(players, options)


def press_all(state, digits):
    for d in digits:
        state.press(d)


def test_four_taps_per_player_enter_a_round_of_cards():
    state = BeverbendeEntry(new_game())
    press_all(state, [1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9])
    assert state.entry() == {"cards": {"Ann": [1, 2, 3, 4], "Bob": [0, 0, 0, 0], "Cy": [9, 9, 9, 9]}}
    assert state.valid
    assert state.cursor is None
    assert state.preview().scores == {"Ann": 10, "Bob": 0, "Cy": 36}


def test_the_cursor_skips_cards_already_entered():
    state = BeverbendeEntry(new_game())
    press_all(state, [1, 2, 3, 4, 5])
    state.select("Ann", 1)
    state.press(7)
    assert state.cards["Ann"] == [1, 7, 3, 4]
    assert state.cursor == ("Bob", 1)


def test_a_typed_total_moves_on_once_no_further_digit_fits():
    state = BeverbendeEntry(new_game())
    state.select("Ann", TOTAL)
    press_all(state, [1, 7])
    assert state.cursor == ("Bob", TOTAL)
    state.press(5)  # 50 and more is no row of four cards
    assert state.cursor == ("Cy", TOTAL)
    state.press(2)
    assert state.cursor == ("Cy", TOTAL)
    state.press(0)
    assert state.entry() == {"totals": {"Ann": 17, "Bob": 5, "Cy": 20}}
    assert state.valid and state.cursor is None


def test_next_finishes_a_short_total():
    state = BeverbendeEntry(new_game())
    state.select("Ann", TOTAL)
    state.press(1)
    state.next()
    assert state.totals["Ann"] == 1 and state.cursor == ("Bob", TOTAL)


def test_cards_and_totals_mixed_become_totals():
    state = BeverbendeEntry(new_game())
    press_all(state, [1, 2, 3, 4])
    state.select("Bob", TOTAL)
    press_all(state, [1, 1])
    press_all(state, [3, 3])
    assert state.entry() == {"totals": {"Ann": 10, "Bob": 11, "Cy": 33}}


def test_typing_a_card_replaces_a_typed_total_and_the_other_way_round():
    state = BeverbendeEntry(new_game())
    state.select("Ann", TOTAL)
    press_all(state, [2, 5])
    state.select("Ann", 0)
    state.press(3)
    assert state.totals["Ann"] is None and state.row_sum("Ann") is None
    state.select("Ann", TOTAL)
    state.press(8)
    assert state.cards["Ann"] == [None] * 4 and state.row_sum("Ann") == 8


def test_retyping_a_selected_total_starts_over():
    state = BeverbendeEntry(new_game())
    state.select("Ann", TOTAL)
    press_all(state, [2, 5])
    state.select("Ann", TOTAL)
    state.press(4)
    assert state.totals["Ann"] == 4


def test_backspace_clears_the_card_or_steps_back_to_the_last_one():
    state = BeverbendeEntry(new_game())
    press_all(state, [1, 2])
    state.backspace()
    assert state.cards["Ann"] == [1, None, None, None]
    assert state.cursor == ("Ann", 1)
    state.select("Bob", TOTAL)
    press_all(state, [3])
    state.backspace()
    assert state.totals["Bob"] is None


def test_missing_rows_keep_save_disabled_without_an_error():
    state = BeverbendeEntry(new_game())
    press_all(state, [1, 2, 3, 4])
    assert not state.valid
    assert state.errors == {}
    assert state.missing == ["cards.Bob", "cards.Cy"]
    assert state.status == "Still to enter: Bob, Cy"
    assert state.preview() is None


def test_more_cards_of_a_value_than_the_deck_holds_is_a_message_for_the_whole_round():
    state = BeverbendeEntry(new_game())
    press_all(state, [0, 0, 0, 1, 0, 0, 1, 1, 2, 2, 2, 2])
    assert not state.valid
    assert state.errors == {None: "The deck holds only 4 cards of value 0, but this round shows 5."}


def test_an_impossible_total_is_shown_beside_its_row():
    state = BeverbendeEntry(new_game())
    for player, digits in (("Ann", [3, 9]), ("Bob", [1, 0]), ("Cy", [1, 2])):
        state.select(player, TOTAL)
        press_all(state, digits)
    assert state.row_error("Ann") == "Ann's four cards add up to 0 to 36, not 39."
    assert state.row_error("Bob") is None
    assert state.status == "Fix the marked entry to save."


def test_preview_names_the_winner_when_the_round_ends_the_game():
    state = BeverbendeEntry(new_game(["Ann", "Bob"], ending="rounds", rounds=1))
    press_all(state, [5, 5, 5, 5, 1, 1, 1, 1])
    assert state.preview().notes == ("This round ends the game: Bob wins.",)


def test_elimination_lists_only_players_still_in_and_says_who_goes_out():
    game = new_game(ending="elimination")
    for _ in range(2):
        game = game.add_round({"totals": {"Ann": 36, "Bob": 4, "Cy": 5}})
    state = BeverbendeEntry(game)
    press_all(state, [9, 9, 9, 9, 0, 0, 0, 0, 1, 1, 1, 1])
    assert state.preview().notes == ("Ann reaches 100 and is out.",)
    game = game.add_round(state.entry())
    assert BeverbendeEntry(game).players == ["Bob", "Cy"]


def test_with_the_limit_the_round_reaching_100_says_it_ends_the_game_and_the_lowest_total_wins():
    game = new_game(ending="limit")
    for _ in range(2):
        game = game.add_round({"totals": {"Ann": 36, "Bob": 4, "Cy": 5}})
    state = BeverbendeEntry(game)
    assert state.players == PLAYERS
    press_all(state, [9, 9, 9, 9, 0, 0, 0, 0, 1, 1, 1, 1])
    assert state.preview().notes == ("This round ends the game: Bob wins.",)  # Ann 108, Bob 8, Cy 14


def test_against_the_clock_the_round_can_be_marked_last():
    state = BeverbendeEntry(new_game(ending="time"))
    assert state.against_the_clock
    press_all(state, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3])
    state.toggle_last()
    assert state.entry()["last"] is True
    assert state.preview().notes == ("This round ends the game: Ann wins.",)


@pytest.mark.parametrize(
    "entry",
    [
        {"cards": {"Ann": [1, 2, 3, 4], "Bob": [0, 0, 0, 0], "Cy": [9, 9, 9, 9]}},
        {"totals": {"Ann": 12, "Bob": 3, "Cy": 30}},
    ],
)
def test_editing_a_past_round_starts_from_what_was_entered(entry):
    game = new_game().add_round(entry).add_round({"totals": {"Ann": 6, "Bob": 8, "Cy": 10}})
    state = BeverbendeEntry(game, index=0)
    assert state.entry() == entry
    assert state.valid and state.round_number == 1
    state.select("Ann", TOTAL)
    state.press(6)
    state.next()
    assert state.preview().scores["Ann"] == 6
    assert state.preview().totals["Ann"] == 12


def test_the_form_saves_what_the_keypad_entered():
    saved = []
    form = entry_form(new_game(), saved.append)
    assert find(form, "entry-save").disabled
    for d in [1, 2, 3, 4, 0, 0, 0, 0]:
        tap(form, f"entry-key-{d}")
    assert "Still to enter: Cy" in text(find(form, "entry-status"))
    tap(form, "bever-total-Cy")
    tap(form, "entry-key-3")
    tap(form, "entry-key-9")
    assert "not 39" in text(find(form, "bever-error-Cy"))
    assert find(form, "entry-save").disabled
    tap(form, "bever-total-Cy")
    tap(form, "entry-key-9")
    assert text(find(form, "bever-total-Ann")) == "10"
    assert "Round 1 scores" in text(find(form, "entry-preview"))
    tap(form, "entry-save")
    assert saved == [{"totals": {"Ann": 10, "Bob": 0, "Cy": 9}}]


def test_the_last_round_switch_appears_only_against_the_clock():
    form = entry_form(new_game(ending="time"), lambda entry: None)
    tap(form, "bever-last")
    assert len(find_all(entry_form(new_game(), lambda entry: None), "bever-last")) == 0


def test_cancel_is_offered_only_with_a_handler():
    cancelled = []
    form = entry_form(new_game(), lambda entry: None, on_cancel=lambda: cancelled.append(True))
    tap(form, "entry-cancel")
    assert cancelled == [True]
    assert len(find_all(entry_form(new_game(), lambda entry: None), "entry-cancel")) == 0

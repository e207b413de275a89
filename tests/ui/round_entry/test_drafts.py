"""Drafts: a round being entered is kept until it is saved or discarded on purpose, and
carried over (with a notice) when the game changed meanwhile on another device."""

import pytest

from companion import rules
from companion.ui.round_entry import entry_state
from companion.ui.round_entry.drafts import Drafts

GAME_ID = 7


def clubs_game():
    return rules.get("clubs").new_game(["Ann", "Bob", "Cy"])


def half_entered(drafts, game):
    state = drafts.open(GAME_ID, game).state
    state.tap_out("Ann")
    state.tap_out("Bob")
    state.step("Ann", 7)
    return state


def test_a_fresh_form_has_nothing_entered_and_is_not_pending():
    drafts = Drafts()
    assert not drafts.open(GAME_ID, clubs_game()).state.has_input
    assert not drafts.pending(GAME_ID)


def test_a_draft_left_without_saving_is_there_when_the_form_opens_again():
    drafts, game = Drafts(), clubs_game()
    entry = half_entered(drafts, game).entry()
    again = drafts.open(GAME_ID, game)
    assert again.state.entry() == entry and again.notice is None
    assert drafts.pending(GAME_ID)


def test_a_discarded_draft_is_gone_and_the_next_form_is_empty():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    drafts.discard(GAME_ID)
    assert not drafts.pending(GAME_ID)
    assert not drafts.open(GAME_ID, game).state.has_input


def test_drafts_are_kept_per_game_and_round():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    assert not drafts.open(GAME_ID + 1, game).state.has_input
    assert drafts.pending(GAME_ID) and not drafts.pending(GAME_ID + 1)


def test_a_round_saved_elsewhere_meanwhile_keeps_the_draft_as_the_next_round_and_says_so():
    drafts, game = Drafts(), clubs_game()
    entry = half_entered(drafts, game).entry()
    elsewhere = game.add_round({"out_order": ["Cy", "Ann"], "club_points": {"Cy": 3}})
    draft = drafts.open(GAME_ID, elsewhere)
    assert draft.state.round_number == 2
    assert draft.state.entry() == entry and draft.state.valid
    assert draft.notice == (
        "Round 1 was saved on another device meanwhile. What you entered is kept: save it as round 2, or discard it."
    )


def test_a_change_elsewhere_to_a_form_with_nothing_entered_needs_no_notice():
    drafts, game = Drafts(), clubs_game()
    drafts.open(GAME_ID, game)
    elsewhere = game.add_round({"out_order": ["Cy", "Ann"]})
    draft = drafts.open(GAME_ID, elsewhere)
    assert draft.notice is None and draft.state.round_number == 2


def test_a_members_only_hand_is_entered_stone_by_stone_across_visits_and_saved_with_its_counts():
    drafts = Drafts()
    game = rules.get("members_only").new_game(["Ann", "Bob", "Cy"])
    for symbol in ("umbrella", "crown", "teacup"):  # one visit per stone, as each is placed
        drafts.open(GAME_ID, game).state.tap_field(symbol, "<=1")
    state = drafts.open(GAME_ID, game).state
    for symbol, count in {"umbrella": 0, "crown": 0, "teacup": 0, "big_ben": 11, "hat": 11}.items():
        state.select("counts", symbol)
        state.press(count // 10 if count > 9 else count)
        if count > 9:
            state.press(count % 10)
    assert state.valid
    assert [(bet["player"], bet["symbol"]) for bet in state.entry()["bets"]] == [
        ("Bob", "umbrella"), ("Cy", "crown"), ("Ann", "teacup")
    ]


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_every_rulesets_fresh_form_has_nothing_to_ask_about_when_left(ruleset_id):
    game = rules.get(ruleset_id).new_game(["Ann", "Bob", "Cy", "Dee"])
    state = entry_state(game)
    assert not state.has_input


def test_typing_goes_on_where_it_was_in_a_carried_over_draft():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"])
    state = drafts.open(GAME_ID, game).state
    for digit in (2, 2, 2, 2):
        state.press(digit)
    elsewhere = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    carried = drafts.open(GAME_ID, elsewhere).state
    assert carried.cursor == ("Bob", 0)
    for digit in (3, 3, 3, 3):
        carried.press(digit)
    assert carried.valid and carried.entry()["cards"] == {"Ann": [2, 2, 2, 2], "Bob": [3, 3, 3, 3]}


def test_a_round_saved_elsewhere_that_ends_the_game_discards_the_draft_and_says_so():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 1})
    state = drafts.open(GAME_ID, game).state
    for digit in (2, 2, 2, 2):  # Ann's four cards
        state.press(digit)
    last = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    assert last.over
    assert drafts.ended(GAME_ID, last) == (
        "Round 1 was saved on another device and ended the game. What you entered for it is discarded."
    )
    assert not drafts.pending(GAME_ID) and drafts.ended(GAME_ID, last) is None


def test_a_game_not_over_or_a_draft_with_nothing_typed_needs_no_word_about_its_end():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    assert drafts.ended(GAME_ID, game) is None and drafts.pending(GAME_ID)
    quiet = rules.get("beverbende").new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 1})
    drafts.open(GAME_ID + 1, quiet)
    assert drafts.ended(GAME_ID + 1, quiet.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})) is None


def test_cards_typed_for_part_of_a_row_count_as_entered_and_are_carried_over():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"])
    state = drafts.open(GAME_ID, game).state
    for digit in (7, 8, 9):  # three of Ann's four cards: the row is not whole yet
        state.press(digit)
    assert state.has_input and drafts.pending(GAME_ID)
    elsewhere = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    carried = drafts.open(GAME_ID, elsewhere).state
    assert carried.cards["Ann"] == [7, 8, 9, None] and carried.cursor == ("Ann", 3)

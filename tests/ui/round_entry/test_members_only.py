"""MEMBERS ONLY hand entry: stones placed on the board, counts typed, payouts and losses previewed."""

import flet as ft
import pytest

from companion import rules
from companion.ui.round_entry import entry_form
from companion.ui.round_entry.members_only import COUNTS, MINUS, SHOWN, MembersOnlyEntry, initials
from tests.ui.tree import find, tap, text, walk

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
COUNTED = {"umbrella": 4, "crown": 7, "teacup": 2, "big_ben": 9, "hat": 3}


def new_game():
    return rules.get("members_only").new_game(PLAYERS)


def count(state, values=COUNTED, row=COUNTS):
    for symbol, value in values.items():
        state.select(row, symbol)
        state.press(value)
        if state.cursor == (row, symbol):  # a 1 could still become 10 or 11
            state.next()
    return state


def test_the_starter_places_first_and_the_turn_passes_clockwise():
    state = MembersOnlyEntry(new_game())
    assert state.starter == "Bob" and state.current == "Bob"
    state.tap_field("crown", ">=5")
    assert state.current == "Cy"
    state.tap_field("hat", "<=2")
    assert state.board == {
        ("crown", ">=5"): {"player": "Bob", "stone": "single", "risk": False},
        ("hat", "<=2"): {"player": "Cy", "stone": "single", "risk": False},
    }


def test_tapping_a_placed_stone_takes_it_back_and_picks_it_up_again():
    state = MembersOnlyEntry(new_game())
    state.choose_stone("double")
    state.toggle_risk()
    state.tap_field("crown", ">=5")
    state.tap_field("crown", ">=5")
    assert state.board == {}
    assert (state.current, state.stone, state.risk) == ("Bob", "double", True)


def test_risk_only_on_a_players_first_stone():
    state = MembersOnlyEntry(new_game())
    state.choose_player("Ann")
    state.tap_field("crown", ">=5")
    state.choose_player("Ann")
    assert not state.may_risk("Ann")
    state.toggle_risk()
    assert not state.risk
    state.choose_player("Bob")
    state.toggle_risk()
    assert state.risk
    state.tap_field("hat", "<=1")
    assert state.board[("hat", "<=1")]["risk"] and not state.risk


def test_a_player_without_doubles_left_is_handed_a_single():
    state = MembersOnlyEntry(new_game())
    state.choose_stone("double")
    state.tap_field("crown", ">=5")
    state.choose_player("Bob")
    assert state.stone == "single"
    assert state.stones_left("Bob", "double") == 0 and state.stones_left("Bob", "single") == 4


def test_players_out_of_turns_are_skipped():
    state = MembersOnlyEntry(new_game())  # four players: four betting turns each
    for field in ("<=1", "<=2", "<=3", "<=4"):
        state.choose_player("Ann")
        state.tap_field("umbrella", field)
    assert not state.can_place("Ann")
    state.choose_player("Dee")
    state.tap_field("hat", ">=8")
    assert state.current == "Bob"


def test_counts_are_typed_and_finish_by_themselves():
    state = MembersOnlyEntry(new_game())
    state.select(COUNTS, "umbrella")
    state.press(4)
    assert state.cursor == (COUNTS, "crown")
    state.press(1)
    assert state.cursor == (COUNTS, "crown"), "1 may become 10 or 11"
    state.press(1)
    assert state.values[COUNTS]["crown"] == 11 and state.cursor == (COUNTS, "teacup")
    assert state.missing == ["counts.teacup", "counts.big_ben", "counts.hat"]
    assert state.status == "Still to enter: Teacup, Big Ben, Hat"


def test_the_preview_settles_each_bet():
    state = MembersOnlyEntry(new_game())
    state.choose_stone("double")
    state.toggle_risk()
    state.tap_field("crown", ">=7")  # Bob: 3 x 3
    state.tap_field("teacup", ">=5")  # Cy: wrong
    count(state)
    assert state.valid
    assert state.entry() == {
        "bets": [
            {"player": "Bob", "symbol": "crown", "field": ">=7", "stone": "double", "risk": True},
            {"player": "Cy", "symbol": "teacup", "field": ">=5", "stone": "single", "risk": False},
        ],
        "counts": COUNTED,
    }
    assert state.preview().scores == {"Ann": 0, "Bob": 9, "Cy": 0, "Dee": 0}
    assert state.preview().notes == (
        "Bob: Crown 7 or more (double on risk) wins 9.",
        "Cy: Teacup 5 or more is wrong; the single stone is lost.",
    )
    assert state.settled()[("teacup", ">=5")]["won"] is False


def test_shown_and_minus_cards_instead_of_counts():
    state = MembersOnlyEntry(new_game())
    state.set_count_mode(SHOWN)
    count(state, {"umbrella": 5, "crown": 7, "teacup": 3, "big_ben": 9, "hat": 3}, SHOWN)
    state.select(MINUS, "umbrella")
    state.press(1)
    state.select(MINUS, "teacup")
    state.press(2)
    state.tap_field("umbrella", "<=4")
    entry = state.entry()
    assert entry["shown"]["umbrella"] == 5 and entry["minus"] == {"umbrella": 1, "crown": 0, "teacup": 2, "big_ben": 0, "hat": 0}
    assert "counts" not in entry
    assert state.preview().notes == ("Bob: Umbrella 4 or fewer (single) wins 1.",)


def test_counts_the_table_cannot_show_are_explained_under_the_board():
    state = count(MembersOnlyEntry(new_game()), dict.fromkeys(COUNTED, 2))
    assert not state.valid
    assert "the counts add up to at least 14, not 10" in state.count_error()


def test_a_stone_the_player_lost_earlier_is_marked_on_the_board():
    game = new_game()
    lost = {"player": "Bob", "symbol": "crown", "field": "<=1", "stone": "double", "risk": False}
    game = game.add_round({"bets": [lost], "counts": COUNTED})
    state = MembersOnlyEntry(game)
    assert state.stones_left("Bob", "double") == 0
    state.choose_player("Bob")
    state.choose_stone("double")  # the picker disables it; the rules still explain a stray tap
    state.tap_field("hat", ">=8")
    count(state)
    assert state.error_at("bets") == "Bob has no double stone left."
    assert state.faulty_cell == ("hat", ">=8")


def test_editing_a_past_hand_starts_from_what_was_entered():
    first = {
        "bets": [{"player": "Ann", "symbol": "hat", "field": "<=4", "stone": "single", "risk": True}],
        "shown": {"umbrella": 5, "crown": 7, "teacup": 3, "big_ben": 9, "hat": 3},
        "minus": {"umbrella": 1, "crown": 0, "teacup": 0, "big_ben": 0, "hat": 0},
    }
    game = new_game().add_round(first).add_round({"bets": [], "counts": COUNTED})
    state = MembersOnlyEntry(game, index=0)
    assert state.count_mode == SHOWN
    assert state.entry() == first
    assert state.preview().notes == ("Ann: Hat 4 or fewer (single on risk) wins 2.",)


def test_initials_are_as_short_as_the_table_allows():
    assert initials(["Ann", "Bob", "Anna", "Alex"]) == {"Ann": "Ann", "Bob": "B", "Anna": "Ann", "Alex": "Al"}


def test_the_form_places_stones_with_initials_and_saves():
    saved = []
    form = entry_form(new_game(), saved.append)
    tap(form, "mo-stone-double")
    tap(form, "mo-cell-crown->=7")
    assert text(find(form, "mo-cell-crown->=7")) == "B²"
    tap(form, "mo-player-Dee")
    tap(form, "mo-risk")
    tap(form, "mo-cell-hat-<=1")
    assert text(find(form, "mo-cell-hat-<=1")) == "D R"
    assert find(form, "entry-save").disabled
    for symbol, value in COUNTED.items():
        tap(form, f"mo-count-{symbol}")
        tap(form, f"entry-key-{value}")
    assert text(find(form, "mo-cell-crown->=7")) == "B² +6"
    assert text(find(form, "mo-cell-hat-<=1")) == "D R ✗"
    tap(form, "entry-save")
    assert saved[0]["counts"] == COUNTED and len(saved[0]["bets"]) == 2


def test_the_hands_points_and_totals_stay_in_one_line_above_the_keypad():
    """The board is taller than a phone's screen, and the preview's notes sit below it: the
    points and totals the hand gives stay in sight in a line above the keypad and Save."""
    first = {"bets": [{"player": "Ann", "symbol": "umbrella", "field": "<=1"}], "counts": {**COUNTED, "umbrella": 1}}
    form = entry_form(new_game().add_round(first), lambda entry: None)  # Ann's umbrella track at 5
    tap(form, "mo-stone-double")
    tap(form, "mo-cell-crown->=7")
    shown = lambda: {id(c) for c in walk(form, visible_only=True)}  # noqa: E731
    for symbol, value in COUNTED.items():
        assert id(find(form, "entry-scores")) not in shown()  # until the hand can be settled
        tap(form, f"mo-count-{symbol}")
        tap(form, f"entry-key-{value}")
    line = find(form, "entry-scores")
    assert id(line) in shown() and text(line).replace("\u00a0", " ") == "Ann 0 → 5 · Bob 0 → 0 · Cy +6 → 6 · Dee 0 → 0"  # Cy starts the second hand
    scrolling = [c for c in walk(form) if isinstance(c, ft.Column) and c.scroll is not None]
    assert scrolling and all(id(line) not in {id(c) for c in walk(body)} for body in scrolling)


def test_the_preview_shows_what_the_track_really_gains_and_the_cap():
    first = {"bets": [{"player": "Ann", "symbol": "umbrella", "field": "<=1"}], "counts": {**COUNTED, "umbrella": 1}}
    state = MembersOnlyEntry(new_game().add_round(first))  # Ann's umbrella track at 5
    state.choose_player("Ann")
    state.choose_stone("double")
    state.toggle_risk()
    state.tap_field("umbrella", ">=8")
    count(state, {**COUNTED, "umbrella": 11, "big_ben": 1})
    assert state.preview().notes == (
        "Ann: Umbrella 8 or more (double on risk) wins 15; the track stops at 10, so it moves up 5.",
    )
    assert state.preview().scores["Ann"] == 5
    form = entry_form(state.game, lambda entry: None, state=state)
    assert text(find(form, "mo-cell-umbrella->=8")) == "A² R +5"

"""CLUBS round entry: going-out taps carry the bonus cards, the preview explains Double Cards."""

import pytest

from companion import rules
from companion.ui.round_entry import entry_form
from companion.ui.round_entry.clubs import ClubsEntry
from tests.ui.tree import find, find_all, tap, text

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def new_game(players=FOUR, teams=None, **options):
    return rules.get("clubs").new_game(players, options, teams)


def out(state, *players):
    for p in players:
        state.tap_out(p)
    return state


@pytest.mark.parametrize(
    "players, cards",
    [
        (["Ann", "Bob"], [5, None]),
        (["Ann", "Bob", "Cy"], [5, 2, 0]),
        (FOUR, [8, 5, 2, 0]),
        (["Ann", "Bob", "Cy", "Dee", "Eve"], [10, 8, 5, 2, 0]),
        (["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], [12, 10, 8, 5, 2, 0]),
    ],
)
def test_bonus_cards_follow_the_going_out_order(players, cards):
    state = out(ClubsEntry(new_game(players)), *players[:-1])
    assert state.round_over and state.valid
    assert [state.bonus(p) for p in players] == cards


def test_the_round_is_over_when_one_player_still_holds_cards():
    state = out(ClubsEntry(new_game()), "Cy", "Ann")
    assert not state.round_over
    assert state.missing == ["out_order"]
    assert state.status == "Still to enter: who went out, in order"
    state.tap_out("Dee")
    assert state.round_over
    state.tap_out("Bob")  # holds the last cards: nothing more to tap
    assert state.out_order == ["Cy", "Ann", "Dee"]
    assert state.bonus("Bob") == 0


def test_tapping_an_out_player_again_takes_them_back_and_the_cards_move_up():
    state = out(ClubsEntry(new_game()), "Cy", "Ann", "Dee")
    state.tap_out("Ann")
    assert state.out_order == ["Cy", "Dee"]
    assert state.place("Dee") == 2 and state.bonus("Dee") == 5
    assert state.bonus("Ann") is None and not state.round_over


def test_club_points_by_stepper_and_keypad():
    state = ClubsEntry(new_game())
    state.step("Ann", 1)
    state.step("Ann", 1)
    state.step("Bob", -1)
    assert state.club_points == {"Ann": 2, "Bob": 0, "Cy": 0, "Dee": 0}
    state.select("Bob")
    state.press(1)
    state.press(2)
    assert state.club_points["Bob"] == 12 and state.cursor == "Cy"
    state.press(7)
    state.backspace()
    assert state.club_points["Cy"] == 0


def test_the_preview_scores_the_round_with_bonus_cards():
    state = out(ClubsEntry(new_game()), "Ann", "Bob", "Cy")
    state.step("Ann", 3)
    state.step("Dee", 4)
    assert state.entry() == {"out_order": ["Ann", "Bob", "Cy"], "club_points": {"Ann": 3, "Dee": 4}, "double": []}
    assert state.preview().scores == {"Ann": 11, "Bob": 5, "Cy": 2, "Dee": 0}
    assert state.preview().notes == ("Dee still held cards and scores nothing.",)


def test_double_cards_doubles_the_first_out_and_zeroes_the_others():
    state = out(ClubsEntry(new_game()), "Ann", "Bob", "Cy")
    state.step("Ann", 3)
    state.step("Bob", 2)
    state.toggle_double("Ann")
    state.toggle_double("Bob")
    assert state.entry()["double"] == ["Ann", "Bob"]
    assert state.preview().scores == {"Ann": 22, "Bob": 0, "Cy": 2, "Dee": 0}
    assert state.preview().notes == (
        "Ann went out first with Double Cards: points doubled.",
        "Bob called Double Cards without going out first: 0.",
        "Dee still held cards and scores nothing.",
    )
    state.toggle_double("Bob")
    assert state.entry()["double"] == ["Ann"]


def test_team_clubs_ends_when_only_one_team_holds_cards():
    teams = {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Dee"]}
    state = out(ClubsEntry(new_game(teams=teams)), "Ann", "Cy")
    assert state.round_over
    assert state.preview().scores == {"Red": 13, "Blue": 0}
    assert state.preview().notes == ("Blue still held cards and score nothing.",)  # a team is many


def test_two_players_keep_their_club_points_when_holding():
    state = out(ClubsEntry(new_game(["Ann", "Bob"])), "Bob")
    state.step("Ann", 4)
    assert state.preview().scores == {"Ann": 4, "Bob": 5}
    assert state.preview().notes == ()


def test_the_preview_names_the_winner_at_the_target():
    game = new_game(target=10)
    state = out(ClubsEntry(game), "Bob", "Ann", "Cy")
    state.step("Bob", 2)
    assert state.preview().notes[-1] == state.preview().ending == "This round ends the game: Bob wins."


def test_the_preview_names_a_winning_team_as_many():
    teams = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
    state = out(ClubsEntry(new_game(teams=teams, target=10)), "Ann", "Cy")
    assert state.preview().notes[-1] == "This round ends the game: Ann & Cy win."


def test_editing_a_past_round_starts_from_what_was_entered():
    first = {"out_order": ["Cy", "Ann", "Bob"], "club_points": {"Cy": 4}, "double": ["Cy"]}
    game = new_game().add_round(first).add_round({"out_order": ["Ann", "Bob", "Cy"], "club_points": {}, "double": []})
    state = ClubsEntry(game, index=0)
    assert state.entry() == first
    assert state.dealer == "Ann" and state.round_number == 1
    assert state.preview().scores == {"Ann": 5, "Bob": 2, "Cy": 24, "Dee": 0}
    state.tap_out("Cy")
    assert not state.valid and state.out_order == ["Ann", "Bob"]


def test_a_rules_message_lands_on_the_field_it_names():
    state = ClubsEntry(new_game())
    state.club_points["Ann"] = -1  # no tap makes this; the rules still explain it beside Ann
    out(state, "Ann", "Bob", "Cy")
    assert state.error_at("club_points.Ann") == "Ann's club points must be a whole number of 0 or more, not -1."


def test_without_the_double_cards_option_there_are_no_double_toggles():
    form = entry_form(new_game(double_cards=False), lambda entry: None)
    assert len(find_all(form, "clubs-double-Ann")) == 0
    assert len(find_all(entry_form(new_game(), lambda entry: None), "clubs-double-Ann")) == 1


def test_the_form_saves_the_taps():
    saved = []
    form = entry_form(new_game(), saved.append)
    for player in ("Bob", "Dee", "Ann"):
        tap(form, f"clubs-out-{player}")
    assert "2 Dee bonus 5" == text(find(form, "clubs-out-Dee"))
    assert "Cy held · bonus 0" == text(find(form, "clubs-out-Cy"))
    tap(form, "clubs-points-Bob-plus")
    tap(form, "clubs-points-Ann")
    tap(form, "entry-key-1")
    tap(form, "entry-key-5")
    tap(form, "clubs-double-Bob")
    assert "Bob +18" in text(find(form, "entry-preview"))
    tap(form, "entry-save")
    assert saved == [{"out_order": ["Bob", "Dee", "Ann"], "club_points": {"Ann": 15, "Bob": 1}, "double": ["Bob"]}]

"""Klaverjassen deal entry: 162-minus card points, roem by taps, nat and pit in the preview."""

import flet as ft
import pytest

from companion import rules
from companion.ui.round_entry import entry_form
from companion.ui.round_entry.klaverjassen import STUK, KlaverjassenEntry
from tests.ui.tree import find, tap, text, walk

AC, BD = "Ann & Cy", "Bob & Dee"


def new_game(**options):
    return rules.get("klaverjassen").new_game(["Ann", "Bob", "Cy", "Dee"], options)


def typed(state, *digits):
    for d in digits:
        state.press(d)
    return state


def test_the_playing_team_is_selected_and_the_other_team_gets_162_minus():
    state = KlaverjassenEntry(new_game())
    assert state.dealer == "Ann" and state.playing == BD and state.cursor == BD
    typed(state, 8, 2)
    assert state.card_points == {AC: 80, BD: 82}
    assert state.cursor is None, "82 cannot take another digit"
    assert state.entry() == {"card_points": {AC: 80, BD: 82}, "pit": None, "verzaakt": None}
    assert state.preview().scores == {AC: 80, BD: 82}
    assert state.preview().notes == ()


def test_either_team_can_be_typed():
    state = KlaverjassenEntry(new_game())
    state.select(AC)
    typed(state, 1, 0, 0)
    assert state.card_points == {AC: 100, BD: 62}


def test_backspace_takes_back_a_digit_on_both_teams():
    state = typed(KlaverjassenEntry(new_game()), 1, 2)
    state.backspace()
    assert state.card_points == {AC: 161, BD: 1}
    state.backspace()
    assert state.card_points == {AC: None, BD: None}
    assert state.missing == [f"card_points.{AC}"]
    assert state.status == "Still to enter: card points"


def test_nat_shows_the_moment_the_playing_team_falls_short():
    state = typed(KlaverjassenEntry(new_game()), 7, 0)
    assert state.preview().scores == {AC: 162, BD: 0}
    assert state.preview().notes == (f"Nat: {BD} did not score more than {AC}.",)
    assert state.marks(BD) == ["nat"] and state.marks(AC) == []


def test_roem_taps_add_up_and_count_towards_nat():
    state = typed(KlaverjassenEntry(new_game()), 7, 0)
    state.add_roem(BD, 50)
    state.add_roem(BD, STUK)
    assert state.roem_total(BD) == 70
    assert state.entry()["roem"] == {BD: 70}
    assert state.preview().scores == {AC: 92, BD: 140}
    state.undo_roem(BD)
    assert state.roem_total(BD) == 50


def test_the_roem_buttons_follow_the_four_jacks_option():
    assert KlaverjassenEntry(new_game()).roem_buttons == [20, 50, 100, 200, STUK]
    assert KlaverjassenEntry(new_game(four_jacks=100)).roem_buttons == [20, 50, 100, STUK]


def test_pit_fills_all_card_points_and_shows_the_bonus():
    state = KlaverjassenEntry(new_game())
    state.add_roem(BD, 20)
    state.toggle_pit(BD)
    assert state.card_points == {AC: 0, BD: 162}
    assert state.preview().scores == {AC: 0, BD: 282}
    assert state.preview().notes == (f"Pit: {BD} took every trick, 100 extra.",)
    assert state.marks(BD) == ["pit"]


def test_pit_by_the_defenders_makes_the_players_nat():
    state = KlaverjassenEntry(new_game())
    state.toggle_pit(AC)
    assert state.preview().notes == (f"Nat: {BD} did not score more than {AC}.", f"Pit: {AC} took every trick.")


def test_roem_for_a_team_without_tricks_is_explained_on_that_team():
    state = KlaverjassenEntry(new_game())
    state.add_roem(AC, 20)
    state.toggle_pit(BD)
    assert not state.valid
    assert state.team_error(AC) == f"{AC} took no trick, so {AC} cannot have roem."
    assert state.team_error(BD) is None


def test_verzaakt_needs_no_card_points():
    state = KlaverjassenEntry(new_game())
    state.toggle_verzaakt(AC)
    assert state.missing == []
    assert state.entry() == {"pit": None, "verzaakt": AC}
    assert state.preview().scores == {AC: 0, BD: 162}
    assert state.preview().notes == (f"Verzaakt: {AC} reneged and score nothing.",)


@pytest.mark.parametrize(
    "digits, team, message",
    [
        ((1, 6, 5), BD, f"{BD} cannot have 165 card points; a deal has 162 in all."),
        ((1,), AC, f"{AC} cannot have 161 card points; no set of tricks is worth that."),
    ],
)
def test_card_points_no_deal_can_give_are_explained_beside_the_team(digits, team, message):
    state = typed(KlaverjassenEntry(new_game()), *digits)
    state.next()
    assert state.team_error(team) == message
    assert not state.valid


def test_another_playing_team_goes_into_the_entry():
    state = KlaverjassenEntry(new_game())
    state.choose_playing(AC)
    typed(state, 8, 2)  # the keypad still types the preselected team's points
    assert state.entry()["playing"] == AC
    assert state.preview().notes == (f"Nat: {AC} did not score more than {BD}.",)


def test_editing_a_past_deal_starts_from_what_was_entered():
    first = {"card_points": {AC: 60, BD: 102}, "roem": {BD: 70}, "pit": None, "verzaakt": None}
    game = new_game().add_round(first).add_round({"card_points": {AC: 100, BD: 62}, "pit": None, "verzaakt": None})
    state = KlaverjassenEntry(game, index=0)
    assert state.entry() == first
    assert state.playing == BD and state.cursor is None
    state.add_roem(BD, 20)
    assert state.preview().scores == {AC: 60, BD: 192}
    assert state.preview().totals == {AC: 160, BD: 254}


def test_the_form_saves_a_deal_entered_by_taps():
    saved = []
    form = entry_form(new_game(), saved.append)
    assert find(form, "entry-save").disabled
    tap(form, "entry-key-7")
    tap(form, "entry-key-0")
    assert text(find(form, f"klaver-marks-{BD}")) == "NAT"
    tap(form, f"klaver-points-{BD}")
    tap(form, "entry-key-9")
    tap(form, "entry-key-0")
    tap(form, f"klaver-roem-{BD}-stuk")
    assert "Round 1 scores" in text(find(form, "entry-preview"))
    tap(form, f"klaver-pit-{AC}")
    assert "cannot have roem" in text(find(form, f"klaver-error-{BD}"))
    tap(form, f"klaver-pit-{AC}")  # off again; the card points stay at 162 for Ann & Cy
    tap(form, f"klaver-points-{BD}")
    tap(form, "entry-key-9")
    tap(form, "entry-key-0")
    tap(form, "entry-save")
    assert saved == [{"card_points": {AC: 72, BD: 90}, "roem": {BD: 20}, "pit": None, "verzaakt": None}]


def test_a_typed_count_is_never_overwritten_by_the_other_teams():
    state = typed(KlaverjassenEntry(new_game()), 7, 0)  # Bob & Dee play and took 70
    state.select(AC)
    typed(state, 8, 0)  # the other pile, counted as a check: 80
    assert state.card_points == {AC: 80, BD: 70}
    assert state.counts_disagree and not state.valid
    assert state.status == "Fix the marked entry to save."
    assert state.error_at(None) == f"{AC} 80 and {BD} 70 add up to 150, not 162: which count is right?"


@pytest.mark.parametrize("right, points", [(AC, {AC: 80, BD: 82}), (BD, {AC: 92, BD: 70})])
def test_the_player_chooses_which_of_two_disagreeing_counts_is_right(right, points):
    state = typed(KlaverjassenEntry(new_game()), 7, 0)
    state.select(AC)
    typed(state, 8, 0)
    state.keep_count(right)
    assert state.card_points == points
    assert not state.counts_disagree and state.valid


def test_two_typed_counts_that_add_up_to_162_are_simply_confirmed():
    state = typed(KlaverjassenEntry(new_game()), 7, 0)
    state.select(AC)
    typed(state, 9, 2)
    assert state.card_points == {AC: 92, BD: 70}
    assert state.valid and state.marks(BD) == ["nat"]


def shown(form, identifier):
    return [c for c in walk(form, visible_only=True) if isinstance(c, ft.Semantics) and c.identifier == identifier]


def test_the_form_offers_a_choice_only_while_the_counts_disagree():
    form = entry_form(new_game(), lambda entry: None)
    assert not shown(form, f"klaver-keep-{AC}")
    tap(form, "entry-key-7")
    tap(form, "entry-key-0")
    tap(form, f"klaver-points-{AC}")
    tap(form, "entry-key-8")
    tap(form, "entry-key-0")
    assert text(find(form, f"klaver-keep-{BD}")) == f"{BD}: 70"
    tap(form, f"klaver-keep-{BD}")
    assert not shown(form, f"klaver-keep-{AC}")
    assert text(find(form, f"klaver-points-{AC}")) == "92"

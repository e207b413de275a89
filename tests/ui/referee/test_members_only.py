"""MEMBERS ONLY referee: field, stone, risk and the count give the payout or a lost stone."""

from __future__ import annotations

import pytest

from companion.ui.games.members_only import field_name
from companion.ui.referee.members_only import MembersOnlyReferee, view
from tests.ui.tree import find, tap, text


def referee(field, stone="single", risk=False, shown=0, minus=0) -> MembersOnlyReferee:
    state = MembersOnlyReferee()
    state.choose_field(field)
    state.choose_stone(stone)
    if risk:
        state.toggle_risk()
    state.step_shown(shown - state.shown)
    state.step_minus(minus - state.minus)
    return state


@pytest.mark.parametrize(
    ("field", "stone", "risk", "count", "points"),
    [
        ("<=1", "single", False, 1, 5),
        ("<=2", "single", False, 0, 3),
        ("<=3", "double", False, 3, 4),
        ("<=4", "single", True, 4, 2),
        (">=5", "double", True, 5, 3),
        (">=6", "single", False, 11, 2),
        (">=7", "double", False, 7, 6),
        (">=8", "double", True, 8, 15),
    ],
)
def test_a_right_bet_pays_field_times_stone(field, stone, risk, count, points):
    settlement = referee(field, stone, risk, shown=count).settle()
    assert settlement.right and settlement.points == points
    assert settlement.headline == f"Right: the bet pays {points}"
    assert "The stone comes back." in settlement.lines


@pytest.mark.parametrize(("field", "count"), [("<=3", 4), (">=5", 4), ("<=1", 2), (">=8", 7)])
def test_a_wrong_bet_loses_its_stone(field, count):
    settlement = referee(field, "double", shown=count).settle()
    assert not settlement.right and settlement.points == 0
    assert settlement.headline == f"Wrong: {count} is not {field_name(field)}"
    assert "The double stone is lost for the rest of the game." in settlement.lines


def test_the_risk_stone_comes_back_even_from_a_wrong_bet():
    settlement = referee("<=2", risk=True, shown=5).settle()
    assert not settlement.right
    assert "The risk stone is never lost: it comes back." in settlement.lines


def test_minus_cards_cancel_symbol_cards():
    state = referee("<=4", shown=5, minus=1)
    assert state.count == 4
    settlement = state.settle()
    assert settlement.right
    assert settlement.lines[0] == "The count is 4: 5 face up, less 1 minus."


def test_the_count_never_goes_below_zero():
    assert referee("<=1", shown=1, minus=2).count == 0


def test_steppers_stay_within_the_deck():
    state = referee("<=1", shown=11, minus=2)
    state.step_shown(1)
    state.step_minus(1)
    assert (state.shown, state.minus) == (11, 2)
    state.step_shown(-20)
    state.step_minus(-5)
    assert (state.shown, state.minus) == (0, 0)


@pytest.mark.parametrize(("field", "label"), [("<=1", "1 or fewer"), ("<=4", "4 or fewer"), (">=5", "5 or more")])
def test_field_labels(field, label):
    assert field_name(field) == label


def test_the_view_settles_what_my_double_stone_on_3_or_fewer_pays():
    state = MembersOnlyReferee()
    root = view(state)
    tap(root, "referee-members-field-<=3")
    tap(root, "referee-members-stone-double")
    tap(root, "referee-members-shown-minus")  # 3 -> 2
    verdict = text(find(root, "referee-members-verdict"))
    assert "Right: the bet pays 4" in verdict and "2 x 2 = 4" in verdict
    tap(root, "referee-members-risk")
    assert "Right: the bet pays 6" in text(find(root, "referee-members-verdict"))
    for _ in range(3):
        tap(root, "referee-members-shown-plus")
    assert "Wrong: 5 is not 3 or fewer" in text(find(root, "referee-members-verdict"))

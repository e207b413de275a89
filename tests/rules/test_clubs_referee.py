"""CLUBS referee: what may be played on what, under plain rules, wild 15s and Crazy CLUBS."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.rules.base import RuleError
from companion.rules.clubs import judge_play

X = (False, False)  # not allowed
L = (True, False)  # allowed, the trick goes on
W = (True, True)  # allowed and wins the trick at once

COMBINATIONS = [
    pytest.param(False, False, id="plain"),
    pytest.param(True, False, id="wild_15"),
    pytest.param(False, True, id="crazy"),
    pytest.param(True, True, id="wild_15+crazy"),
]

# Each row: rule, cards on the table (None: a lead), the play, and the ruling under
# (plain, wild 15s, Crazy CLUBS, both). Every row is judged under all four.
TABLE = [
    ("any single may lead", None, [7], (L, L, L, L)),
    ("a led 15 wins at once except in crazy", None, [15], (W, W, L, L)),
    ("a set of equal values may lead", None, [7, 7, 7], (L, L, L, L)),
    ("a run of values in a row may lead", None, [3, 4, 5], (L, L, L, L)),
    ("values neither equal nor in a row are no play", None, [7, 9], (X, X, X, X)),
    ("a wild 15 fills the gap of a run", None, [7, 9, 15], (X, L, X, L)),
    ("a wild 15 beside one card makes a pair or a run", None, [4, 15], (X, L, X, L)),
    ("runs do not wrap from 15 to 1", None, [14, 15, 1], (X, X, X, X)),
    ("two 15s lead as a set of 15s and win", None, [15, 15], (W, W, L, L)),
    ("a higher single beats a single", [7], [9], (L, L, L, L)),
    ("a lower single does not beat a single", [9], [7], (X, X, X, X)),
    ("an equal single does not beat a single", [9], [9], (X, X, X, X)),
    ("a single 15 beats any single and wins except in crazy", [9], [15], (W, W, L, L)),
    ("nothing follows a 15 outside crazy; in crazy a single 2 is still lower", [15], [2], (X, X, X, X)),
    ("in crazy a longer set beats a single 15 (rulebook example)", [15], [3, 3], (X, X, L, L)),
    ("fewer cards never beat the table", [3, 3], [15], (X, X, X, X)),
    ("a higher set of the same size beats a set", [7, 7], [9, 9], (L, L, L, L)),
    ("a wild 15 completes a set", [7, 7], [9, 15], (X, L, X, L)),
    ("a wild 15 standing for a lower value does not win the trick", [9, 9], [10, 15], (X, L, X, L)),
    ("two 15s beat a pair and win except in crazy", [6, 6], [15, 15], (W, W, L, L)),
    ("a lower set of the same size does not beat a set", [7, 7], [5, 5], (X, X, X, X)),
    ("in crazy a longer set beats a set whatever its values", [7, 7], [5, 5, 5], (X, X, L, L)),
    ("in crazy a longer set beats a shorter one", [7, 7], [9, 9, 9], (X, X, L, L)),
    ("a run cannot follow a set", [5, 5], [6, 7], (X, X, X, X)),
    ("a single cannot follow a run, not even in crazy", [5, 6], [9], (X, X, X, X)),
    ("a higher run of the same length beats a run", [4, 5, 6], [5, 6, 7], (L, L, L, L)),
    ("in crazy a longer run beats a run", [4, 5, 6], [5, 6, 7, 8], (X, X, L, L)),
    ("in crazy 1-2-3 beats 14-15 (rulebook example)", [14, 15], [1, 2, 3], (X, X, L, L)),
    ("a run up to 15 wins the trick except in crazy", [12, 13], [14, 15], (W, W, L, L)),
    ("a wild 15 extends a run upwards", [12, 13], [13, 15], (X, L, X, L)),
    ("two wild 15s make a run 14-15 on a run", [13, 14], [15, 15], (X, W, X, L)),
]


@pytest.mark.parametrize("wild_15, crazy", COMBINATIONS)
@pytest.mark.parametrize("rule, previous, play, rulings", TABLE, ids=[row[0] for row in TABLE])
def test_play_rulings_under_every_variant(rule, previous, play, rulings, wild_15, crazy):
    expected = rulings[2 * crazy + wild_15]
    verdict = judge_play(previous, play, wild_15=wild_15, crazy=crazy)
    assert (verdict.legal, verdict.wins_trick) == expected, verdict.reason
    assert verdict.reason.endswith(".")


@pytest.mark.parametrize(
    "play, kind",
    [([8], "single"), ([8, 8], "set"), ([8, 8, 8, 8], "set"), ([8, 9], "run"), (list(range(1, 11)), "run")],
)
def test_the_three_kinds_of_play(play, kind):
    verdict = judge_play(None, play)
    assert verdict.legal and verdict.kind == kind
    assert verdict.counts_as == tuple(sorted(play))


def test_cards_of_a_run_may_be_given_in_any_order():
    assert judge_play([3, 4, 5], [7, 5, 6]).legal


def test_same_kind_but_different_size_is_refused_with_the_count_in_the_reason():
    verdict = judge_play([7, 7], [9, 9, 9])
    assert not verdict.legal and "exactly 2 cards" in verdict.reason


def test_reason_names_the_top_card_to_beat():
    verdict = judge_play([5, 6, 7], [4, 5, 6])
    assert not verdict.legal and "7" in verdict.reason


def test_kind_mismatch_names_the_kind_being_played():
    verdict = judge_play([5, 5], [6, 7])
    assert "played in sets" in verdict.reason and verdict.kind == "run"


def test_a_trick_won_by_a_15_says_so():
    assert "won" in judge_play([15], [3]).reason
    assert "won" in judge_play([13, 14, 15], [1, 2]).reason


def test_crazy_longer_play_reason_mentions_crazy_clubs():
    verdict = judge_play([15], [3, 3], crazy=True)
    assert "Crazy CLUBS" in verdict.reason and verdict.kind == "set"


def test_crazy_single_counts_as_a_set_of_one():
    verdict = judge_play([5, 6], [9], crazy=True)
    assert "set of one" in verdict.reason


def test_crazy_15_reason_says_it_does_not_win_at_once():
    verdict = judge_play([9], [15], crazy=True)
    assert verdict.legal and not verdict.wins_trick and "does not win at once" in verdict.reason


# --- wild 15s: what the 15 stands for ------------------------------------------------------


def test_wild_15_counts_as_the_value_it_stands_for():
    verdict = judge_play([7, 7], [9, 15], wild_15=True)
    assert verdict.counts_as == (9, 9) and "standing for 9" in verdict.reason


def test_wild_15_fills_a_run_gap():
    assert judge_play(None, [9, 15, 7], wild_15=True).counts_as == (7, 8, 9)


def test_wild_15_run_reaches_as_high_as_it_can():
    verdict = judge_play([11, 12], [13, 15], wild_15=True)
    assert verdict.counts_as == (13, 14) and verdict.legal and not verdict.wins_trick
    assert judge_play([10, 11, 12], [12, 13, 15], wild_15=True).counts_as == (12, 13, 14)


def test_wild_15_standing_as_15_at_the_top_of_a_run_wins():
    verdict = judge_play([12, 13], [14, 15], wild_15=True)
    assert verdict.counts_as == (14, 15) and verdict.wins_trick


def test_ambiguous_wild_lead_names_both_readings():
    verdict = judge_play(None, [7, 15], wild_15=True)
    assert verdict.kind == "run" and "set of two 7s" in verdict.reason


def test_play_kind_pins_the_reading_of_the_play():
    verdict = judge_play(None, [7, 15], wild_15=True, play_kind="set")
    assert verdict.kind == "set" and verdict.counts_as == (7, 7)
    refused = judge_play(None, [7, 9], play_kind="run")
    assert not refused.legal and "cannot be played as a run" in refused.reason


def test_ambiguous_cards_on_the_table_are_read_to_match_the_play_and_the_reason_says_so():
    verdict = judge_play([7, 15], [8, 9], wild_15=True)
    assert verdict.legal and "played as a run" in verdict.reason
    assert judge_play([7, 15], [9, 9], wild_15=True).legal


def test_previous_kind_pins_the_reading_of_the_table():
    assert not judge_play([7, 15], [8, 9], wild_15=True, previous_kind="set").legal
    assert judge_play([7, 15], [9, 9], wild_15=True, previous_kind="set").legal
    assert not judge_play([7, 15], [9, 9], wild_15=True, previous_kind="run").legal


def test_a_pair_of_14s_made_with_a_wild_15_can_still_be_beaten_by_two_15s():
    verdict = judge_play([14, 15], [15, 15], wild_15=True, previous_kind="set")
    assert verdict.legal and verdict.wins_trick


# --- cards the table cannot produce ---------------------------------------------------------


@pytest.mark.parametrize(
    "previous, play, field",
    [
        (None, [], "play"),
        (None, [0], "play"),
        (None, [16], "play"),
        (None, [True], "play"),
        (None, ["7"], "play"),
        (None, 7, "play"),
        (None, list(range(1, 12)), "play"),
        (None, [7, 7, 7, 7, 7], "play"),
        ([7, 7, 7], [7, 7], "play"),
        ([], [7], "previous"),
        ([7, 9], [8], "previous"),
    ],
)
def test_impossible_cards_are_rejected(previous, play, field):
    with pytest.raises(RuleError) as err:
        judge_play(previous, play)
    assert err.value.field == field


def test_unknown_kind_is_rejected():
    with pytest.raises(RuleError, match="single, a set or a run"):
        judge_play(None, [7], play_kind="pair")


def test_previous_that_cannot_be_the_pinned_kind_is_rejected():
    with pytest.raises(RuleError, match="as a run"):
        judge_play([7, 7], [9, 9], previous_kind="run")


# --- properties -------------------------------------------------------------------------------


def plays(min_size=1):
    """A single, set or run of values 1..14 (no 15s, so wild 15s change nothing)."""
    singles = st.integers(1, 14).map(lambda v: [v])
    sets = st.tuples(st.integers(1, 14), st.integers(max(2, min_size), 4)).map(lambda t: [t[0]] * t[1])
    runs = st.integers(2, 10).flatmap(lambda n: st.integers(1, 15 - n).map(lambda lo: list(range(lo, lo + n))))
    return st.one_of(singles, sets, runs)


def kind_of(cards):
    if len(cards) == 1:
        return "single"
    return "set" if len(set(cards)) == 1 else "run"


def fits_the_deck(previous, play):
    return all((previous + play).count(v) <= 4 for v in set(previous + play))


@settings(max_examples=300, deadline=None)
@given(previous=plays(), play=plays())
def test_plain_rule_same_kind_same_size_higher_top(previous, play):
    assume(fits_the_deck(previous, play))
    verdict = judge_play(previous, play)
    expected = kind_of(previous) == kind_of(play) and len(previous) == len(play) and max(play) > max(previous)
    assert verdict.legal == expected


@settings(max_examples=300, deadline=None)
@given(previous=plays(), play=plays())
def test_crazy_rule_same_family_and_more_cards_or_higher_top(previous, play):
    assume(fits_the_deck(previous, play))
    verdict = judge_play(previous, play, crazy=True)
    family = {"single": "set", "set": "set", "run": "run"}
    same_family = family[kind_of(previous)] == family[kind_of(play)]
    expected = same_family and (
        len(play) > len(previous) or (len(play) == len(previous) and max(play) > max(previous))
    )
    assert verdict.legal == expected
    assert not verdict.wins_trick


@settings(max_examples=200, deadline=None)
@given(previous=plays(), play=plays(), crazy=st.booleans())
def test_wild_15s_change_nothing_without_a_15(previous, play, crazy):
    assume(fits_the_deck(previous, play))
    plain = judge_play(previous, play, crazy=crazy)
    wild = judge_play(previous, play, wild_15=True, crazy=crazy)
    assert (plain.legal, plain.kind, plain.counts_as) == (wild.legal, wild.kind, wild.counts_as)


@settings(max_examples=200, deadline=None)
@given(previous=plays(), play=plays(), wild_15=st.booleans())
def test_every_plain_legal_play_is_also_legal_in_crazy(previous, play, wild_15):
    assume(fits_the_deck(previous, play))
    if judge_play(previous, play, wild_15=wild_15).legal:
        assert judge_play(previous, play, wild_15=wild_15, crazy=True).legal

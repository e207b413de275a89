from datetime import datetime, timedelta, timezone

import pytest

from companion import rules
from companion.ui.format import (
    join_names,
    option_label,
    option_value,
    player_count,
    points,
    rounds_played,
    when,
)

NOW = datetime(2026, 3, 14, 18, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "names, text",
    [([], ""), (["Ann"], "Ann"), (["Ann", "Bob"], "Ann and Bob"), (["Ann", "Bob", "Cy"], "Ann, Bob and Cy")],
)
def test_names_are_joined_as_a_sentence(names, text):
    assert join_names(names) == text


@pytest.mark.parametrize(
    "moment, text",
    [
        (NOW - timedelta(hours=2), "Today 16:30"),
        (NOW - timedelta(days=1), "Yesterday 18:30"),
        (NOW - timedelta(days=10), "4 Mar 2026"),
        (None, ""),
    ],
)
def test_moments_read_as_a_player_says_them(moment, text):
    assert when(moment, NOW) == text


def test_negative_points_use_a_real_minus_sign():
    assert points(-5) == "\u22125"
    assert points(12) == "12"


def test_round_counts_agree_in_number():
    assert rounds_played(1) == "1 round"
    assert rounds_played(3) == "3 rounds"


def test_option_names_and_values_read_as_words():
    klaverjassen = rules.get("klaverjassen")
    assert option_label(klaverjassen.option("four_jacks")) == "Four jacks"
    assert option_label(rules.get("clubs").option("double_cards")) == "Double Cards"
    assert option_value(klaverjassen.option("variant"), "amsterdam") == "Amsterdam"
    assert option_value(klaverjassen.option("runs_by_colour"), True) == "yes"
    assert option_value(klaverjassen.option("runs_by_colour"), False) == "no"
    assert option_value(klaverjassen.option("four_of_a_kind"), "10 and up") == "10 and up"
    assert option_value(klaverjassen.option("ending"), "501") == "501"
    assert option_value(klaverjassen.option("four_jacks"), 200) == "200"


def test_player_counts_read_as_a_range_or_one_size():
    assert player_count(2, 6) == "2 to 6 players"
    assert player_count(4, 4) == "4 players"


def test_every_option_of_every_game_has_a_label_and_words_for_its_text_values():
    """Labels and value words are marked for the catalogues; one missing would stay English (or fail)."""
    options = [o for r in rules.rulesets() for o in r.options]
    assert all(o.label.strip() for o in options)
    for option in options:
        text_values = {v for v in option.allowed or () if option.type is str and not v.isdigit()}
        assert {value for value, _word in option.value_words} == text_values, option.name

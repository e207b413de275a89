"""entry_form: one form per ruleset, each with Save disabled until its entry is valid."""

import pytest

from companion import rules
from companion.ui.round_entry import entry_form, entry_state
from tests.ui.tree import find

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_every_ruleset_has_a_form_that_starts_unsaveable(ruleset_id):
    game = rules.get(ruleset_id).new_game(PLAYERS)
    form = entry_form(game, lambda entry: None, on_cancel=lambda: None)
    assert find(form, "entry-save").disabled
    find(form, "entry-cancel")
    assert not entry_state(game).valid


def test_editing_a_round_that_does_not_exist_is_refused():
    game = rules.get("beverbende").new_game(PLAYERS)
    with pytest.raises(IndexError):
        entry_form(game, lambda entry: None, index=0)

"""A row that wraps cannot give a child a share of its width: Flutter draws a grey error box
in place of the screen when a child of one has ``expand`` set (False included: the referee
screens showed the box with it). Checked on every referee screen and round-entry form."""

from __future__ import annotations

import flet as ft
import pytest

from companion import rules
from companion.ui.referee import referee_view
from companion.ui.round_entry import entry_form
from tests.ui.tree import walk

PLAYERS = {
    "beverbende": ["Ann", "Bob"],
    "clubs": ["Ann", "Bob", "Cy"],
    "klaverjassen": ["Ann", "Bob", "Cy", "Dee"],
    "members_only": ["Ann", "Bob", "Cy"],
}


def asking_to_expand_in_a_wrapping_row(root: ft.Control) -> list[ft.Control]:
    return [
        child
        for row in walk(root)
        if isinstance(row, ft.Row) and row.wrap
        for child in row.controls
        if child.expand is not None
    ]


@pytest.mark.parametrize("ruleset_id", sorted(PLAYERS))
def test_no_referee_screen_expands_a_child_of_a_wrapping_row(ruleset_id):
    assert asking_to_expand_in_a_wrapping_row(referee_view(ruleset_id)) == []


@pytest.mark.parametrize("ruleset_id", sorted(PLAYERS))
def test_no_round_entry_form_expands_a_child_of_a_wrapping_row(ruleset_id):
    game = rules.get(ruleset_id).new_game(PLAYERS[ruleset_id])
    assert asking_to_expand_in_a_wrapping_row(entry_form(game, lambda entry: None)) == []

"""A tap on a referee screen sends what it changed on the screen, and leaves nothing unsent."""

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch

from companion import rules
from companion.ui.referee import referee_view
from tests.ui.round_entry.test_forms import served_page
from tests.ui.tree import find_all, walk


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_after_each_tap_nothing_changed_on_the_referee_screen_is_left_unsent(ruleset_id):
    """Were a change missed, comparing the whole screen afterwards (as every tap once did:
    Flet's automatic update of the page) would find it."""
    _session, page = served_page()
    screen = referee_view(ruleset_id)
    page.views.append(ft.View(route=f"/rules/{ruleset_id}/referee", controls=[screen]))
    page.update()
    tappable = [c.identifier for c in walk(screen) if isinstance(c, ft.Semantics) and c.identifier and getattr(c.content, "on_click", None)]
    tapped = 0
    for identifier in tappable * 2:
        found = find_all(screen, identifier)
        shown = {id(c) for c in walk(screen, visible_only=True)}
        if len(found) != 1 or found[0].disabled or id(found[0]) not in shown:  # as a player: what shows, and is enabled
            continue
        found[0].on_click(None)
        tapped += 1
        patch, _added, _removed = ObjectPatch.from_diff(screen, screen, control_cls=BaseControl)
        assert patch.to_message() == [[0]], f"after {identifier}: {patch.to_message()[1:3]}"
    assert tapped >= 10

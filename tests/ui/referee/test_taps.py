"""A tap on a referee screen sends what it changed on the screen, and leaves nothing unsent."""

import flet as ft
import pytest

from companion import rules
from companion.ui.referee import referee_view
from tests.ui.tree import served_page, tap_through


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_after_each_tap_nothing_changed_on_the_referee_screen_is_left_unsent(ruleset_id):
    """Were a change missed, comparing the whole screen afterwards (as every tap once did:
    Flet's automatic update of the page) would find it."""
    _session, page = served_page()
    screen = referee_view(ruleset_id)
    page.views.append(ft.View(route=f"/rules/{ruleset_id}/referee", controls=[screen]))
    page.update()
    assert tap_through(screen) >= 10

"""Addresses a device may open by hand: odd or huge numbers never break its page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_an_odd_or_huge_number_in_the_address_shows_home_or_says_there_is_no_such_game(phone):
    for route in ("/game/²", "/history/¹", "/table/²"):
        phone.open(route)
        phone.wait("nav-rules")  # home, as for any address the app does not know
    for route in ("/game/99999999999999999999", "/history/99999999999999999999", "/table/99999999999999999999"):
        phone.open(route)
        phone.expect_text("error", "There is no saved game number 99999999999999999999.")

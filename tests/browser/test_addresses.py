"""Addresses: odd or huge numbers a device opens by hand never break its page, and the address
follows the pages as the browser's Back and Forward walk them."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def test_an_odd_or_huge_number_in_the_address_shows_home_or_says_there_is_no_such_game(phone):
    for route in ("/game/²", "/history/¹", "/table/²"):
        phone.open(route)
        phone.wait("nav-rules")  # home, as for any address the app does not know
    for route in ("/game/99999999999999999999", "/history/99999999999999999999", "/table/99999999999999999999"):
        phone.open(route)
        phone.expect_text("error", "There is no saved game number 99999999999999999999.")


def test_the_address_follows_each_page_and_the_browser_s_back_and_forward_walk_them(phone):
    """Each page shown asks the browser for its address (``App.go``): a reload or a shared link opens it."""
    phone.open("")
    phone.tap("new-game")
    phone.wait("ruleset-beverbende")
    phone.page.wait_for_url(re.compile(r".*/new$"), timeout=phone.step_timeout_ms)
    phone.page.go_back()
    phone.wait("nav-rules")  # home
    phone.page.wait_for_url(re.compile(r"^http://[^/]+/$"), timeout=phone.step_timeout_ms)
    phone.page.go_forward()
    phone.wait("ruleset-beverbende")
    phone.page.wait_for_url(re.compile(r".*/new$"), timeout=phone.step_timeout_ms)

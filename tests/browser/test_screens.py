"""The other screens at phone size: rules, players, the theme switch; screenshots of each."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser


def test_rules_players_and_dark_theme(phone):
    phone.open("/")
    phone.tap("nav-rules")
    phone.wait("open-referee-klaverjassen")
    phone.screenshot("rules")
    phone.open("/players")
    phone.type("New player", "Zoë")
    phone.expect_text("player-Zoë", "Zoë")
    phone.type("New player", "Zoë")
    phone.expect_text("name-error", "Zoë is already saved.")
    phone.expect_focus("New player")  # to correct the name, no tap needed
    phone.tap("player-Zoë")
    phone.expect_text("player-summary", "No finished games yet.")
    phone.screenshot("player")
    phone.open("/")
    phone.expect_text("theme-switch", "Switch to the dark theme")
    phone.tap("theme-switch")
    phone.expect_text("theme-switch", "Switch to the light theme")
    phone.screenshot("home-dark")
    phone.open("/")  # this browser remembers the choice
    phone.expect_text("theme-switch", "Switch to the light theme")


def test_the_page_is_drawn_in_one_thread_so_that_two_cannot_corrupt_it(phone):
    """Flutter's renderer in two threads froze pages for good (``guard.page_headers``):
    the page is not cross-origin isolated, so the WebAssembly renderer draws in the page's thread."""
    phone.open("/")
    assert phone.page.evaluate("[window.crossOriginIsolated, Boolean(window._flutter_skwasmInstance)]") == [False, True]


def test_the_page_asks_no_other_site_for_anything(phone):
    """Flet's client asks cdn.jsdelivr.net for Rive's animation runtime as it starts, before
    its first screen; the page's policy keeps the browser from asking (``guard.page_headers``).
    What the browser does ask another site for is caught here on its way out, and refused."""
    served = urlsplit(phone.base_url).netloc
    asked: list[str] = []

    def elsewhere(route) -> None:
        asked.append(route.request.url)
        route.abort()

    phone.page.route(lambda url: urlsplit(url).netloc not in (served, ""), elsewhere)
    phone.open("/")
    phone.wait("new-game")
    assert asked == []


def test_new_game_left_by_its_back_arrow_comes_again_afresh_and_neither_screen_takes_the_others_taps(phone):
    """New game is built under home and uncovered by a tap (``home.Layers``): the covered
    screen is out of the accessibility tree, and back on home a fresh New game follows."""
    phone.open("/")
    phone.wait("nav-settings")
    phone.tap("new-game")
    phone.tap("ruleset-beverbende")
    phone.expect_text("start-problem", "Beverbende needs")
    phone.gone("nav-settings")  # home, covered, is out of the tree
    phone.tap("back")
    phone.wait("nav-settings")
    phone.gone("ruleset-beverbende")
    phone.tap("new-game")
    phone.expect_text("start-problem", "Choose a game")
    phone.gone("new-game")

"""The other screens at phone size: rules, players, the theme switch; screenshots of each."""

from __future__ import annotations

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

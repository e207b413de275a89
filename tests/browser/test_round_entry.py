"""Entering a round at phone size without losing anything: a half-entered round is kept
when the player leaves it (asked, by the back arrow; silently, by the browser's Back)
until it is saved or discarded, on the device too; a MEMBERS ONLY hand is entered stone by stone during the
hand, and its players' chips keep a long name whole; the CLUBS keypad leaves the round's preview in sight."""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import FIND, Phone
from tests.browser.test_games import save_round, start_game

pytestmark = pytest.mark.browser


def test_a_half_entered_round_is_kept_until_saved_or_discarded(phone):
    start_game(phone, "clubs", ["Ann", "Bob", "Cy"])
    phone.tap("enter-round")
    phone.tap("clubs-out-Ann")
    phone.tap("clubs-out-Bob")
    phone.tap("clubs-points-Ann")
    phone.keys("7")

    phone.tap("entry-back")  # leaving with a draft asks
    phone.tap("leave-keep")
    phone.expect_text("enter-round", "Continue round 1")
    phone.tap("enter-round")
    phone.expect_text("clubs-points-Ann", "7")
    phone.expect_text("clubs-out-Bob", "2")

    phone.page.wait_for_url(re.compile(r".*/game/\d+/round$"), timeout=phone.step_timeout_ms)  # Back walks the history: the form's address is in it first
    phone.page.go_back()  # the browser's Back keeps it too
    phone.expect_text("enter-round", "Continue round 1")
    phone.tap("enter-round")
    phone.expect_text("clubs-points-Ann", "7")

    phone.tap("entry-cancel")
    phone.tap("leave-discard")  # thrown away on purpose: the next form is empty
    phone.expect_text("enter-round", "Enter round 1")
    phone.tap("enter-round")
    phone.expect_text("clubs-points-Ann", r"^\D*0\D*$")
    assert phone.disabled("entry-save")


def test_a_double_tap_starts_one_game_and_saves_the_round_once(phone):
    """A double tap sends both taps before the first one's page has come: Start game starts
    one game, Save round saves the round once. Home's list, and the next form's title, are
    waited for: they come after the second tap has been handled."""
    phone.open("/")
    phone.tap("new-game")
    phone.tap("ruleset-beverbende")
    for seat, name in enumerate(["Dbl", "Tap"], start=1):
        phone.type("Player name", name)
        phone.wait(f"seat-{seat}")
    phone.enabled("start-game")
    phone.el("start-game").dblclick()
    phone.wait("enter-round")
    game_id = phone.game_id()
    phone.tap("enter-round")
    phone.keys("1111" + "2222")
    phone.enabled("entry-save")
    phone.el("entry-save").dblclick()
    phone.expect_text("enter-round", "Enter round 2")
    phone.tap("enter-round")  # answered after the second tap on Save
    phone.tap("entry-cancel")
    phone.wait("round-1")
    assert phone.page.evaluate(f"({FIND})('round-2')") is None  # the round was saved once
    phone.tap("back")
    phone.wait(f"game-{game_id}")
    assert phone.page.evaluate(f"({FIND})('game-{game_id + 1}')") is None  # one game started


DRAFTS_ON_THE_DEVICE = """() => { try {
    return JSON.parse(JSON.parse(localStorage.getItem('flutter.companion.drafts')));
} catch (e) { return null; } }"""
"""The drafts the browser keeps (Flutter's shared preferences: a JSON string under its key)."""


def test_a_half_entered_round_outlasts_its_page_on_the_device(phone):
    """A phone whose page closes in the middle of a round (the browser's tab closed, the app
    killed in the background, the server restarted) finds the round again: each tap keeps
    the draft in the device's own storage, and a new page reads it back, also when it opens
    on the form itself."""
    game_id = start_game(phone, "clubs", ["Ann", "Bob", "Cy"])
    phone.tap("enter-round")
    phone.tap("clubs-out-Ann")
    phone.tap("clubs-out-Bob")
    phone.tap("clubs-points-Ann")
    phone.keys("7")
    phone.until(f"() => ({DRAFTS_ON_THE_DEVICE})()?.[0]?.typed?.club_points?.Ann === 7")
    for route in (f"/game/{game_id}/round", f"/game/{game_id}"):  # a new tab: a session of its own
        again = Phone(phone.page.context.new_page(), phone.base_url, phone.output_dir)
        again.open(route)
        if route.endswith("/round"):
            again.expect_text("clubs-points-Ann", "7")
            again.expect_text("clubs-out-Bob", "2")
        else:
            again.expect_text("enter-round", "Continue round 1")
            again.tap("enter-round")
            again.expect_text("clubs-points-Ann", "7")
            again.tap("entry-cancel")
            again.tap("leave-discard")  # thrown away: the device forgets it
            again.until(f"() => JSON.stringify(({DRAFTS_ON_THE_DEVICE})()) === '[]'")
        again.page.close()


def test_a_members_only_hand_is_entered_stone_by_stone_and_saved_at_its_end(phone):
    start_game(phone, "members_only", ["Ann", "Bob", "Cy"])
    for player, symbol in (("Ann", "umbrella"), ("Bob", "crown"), ("Cy", "teacup")):
        phone.tap("enter-round")  # a stone as it is placed on the table, then back to the board
        phone.tap(f"mo-player-{player}")
        phone.tap(f"mo-cell-{symbol}-<=1")
        phone.tap("entry-back")
        phone.tap("leave-keep")
        phone.expect_text("enter-round", "Continue round 1")
    phone.tap("enter-round")  # the end of the hand: just the counts
    for symbol, digits in {"umbrella": "0", "crown": "0", "teacup": "0", "big_ben": "11", "hat": "11"}.items():
        phone.tap(f"mo-count-{symbol}")
        phone.keys(digits)
    # The board is taller than the phone: the hand's points stay in sight above the keypad,
    # here as a count is tapped again to be corrected.
    phone.expect_text("entry-scores", r"Ann\s\+5\s→\s5 · Bob\s\+5\s→\s5 · Cy\s\+5\s→\s5")
    phone.tap("mo-count-hat")
    phone.enabled("entry-key-0")
    keypad_top = phone.el("entry-key-0").bounding_box()["y"]
    box = phone.el("entry-scores").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= keypad_top + 1, box
    save_round(phone, 2)
    phone.expect_text("total-Ann", "Ann 5")
    phone.expect_text("total-Cy", "Cy 5")


def test_a_members_only_player_s_long_name_is_never_broken_in_its_chip(phone):
    """Five players at 360 px: the chip of a long one-word name is as tall as a short name's
    (its name on one line, not broken mid-word), and wider."""
    start_game(phone, "members_only", ["Oldenbarnevelt", "Ann", "Bob", "Cy", "Dee"])
    phone.tap("enter-round")
    long, short = (phone.el(f"mo-player-{name}").bounding_box() for name in ("Oldenbarnevelt", "Dee"))
    assert long is not None and short is not None
    assert abs(long["height"] - short["height"]) <= 1 and long["width"] > short["width"], (long, short)


def test_the_clubs_keypad_leaves_the_round_preview_in_sight(phone):
    start_game(phone, "clubs", ["Ann", "Bob", "Cy", "Dee"])
    phone.tap("enter-round")
    for player in ("Ann", "Bob", "Cy"):
        phone.tap(f"clubs-out-{player}")
    phone.tap("clubs-points-Ann")
    phone.keys("45")  # Ann reaches 50 with the bonus card; the keypad moves on to Bob
    phone.enabled("entry-key-0")
    last_note = "entry-preview-note-1"  # after "Dee still held cards and scores nothing."
    phone.expect_text(last_note, "This round ends the game: Ann wins")
    keypad_top = phone.el("entry-key-0").bounding_box()["y"]
    phone.screenshot("clubs-keypad-and-preview")
    for line in ("entry-preview-Dee", last_note):
        box = phone.el(line).bounding_box()
        assert box is not None and box["height"] >= 16 and box["y"] + box["height"] <= keypad_top + 1, (line, box)

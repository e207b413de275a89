"""One complete game of each ruleset at phone size, from New game to the winner banner.

Each game also has a refused entry (its message shown, Save disabled), an undo, and ends
by finding the game in the history. The final scoreboard is saved as a screenshot.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def start_game(phone, ruleset: str, players: list[str], taps: tuple[str, ...] = ()) -> int:
    phone.open("/")
    phone.tap("new-game")
    phone.tap(f"ruleset-{ruleset}")
    for seat, name in enumerate(players, start=1):
        phone.type("Player name", name)
        phone.wait(f"seat-{seat}")
    for identifier in taps:
        phone.tap(identifier)
    phone.tap("start-game")
    phone.wait("enter-round")
    return phone.game_id()


def save_round(phone, next_round: int | None) -> None:
    """Save the entry; back on the scoreboard, wait for the next round's button (or the banner)."""
    phone.tap("entry-save")
    if next_round is None:
        phone.wait("winner-banner")
    else:
        phone.expect_text("enter-round", f"Enter round {next_round}")


def find_in_history(phone, game_id: int, ruleset: str, result: str) -> None:
    phone.open("/history")
    phone.tap(f"filter-game-{ruleset}")
    phone.expect_text(f"game-{game_id}", result)


def test_beverbende(phone):
    game_id = start_game(phone, "beverbende", ["Ann", "Bob"])
    rounds = [("3141", "5926"), ("0000", "9999"), ("2718", "2818"), ("1111", "2222")]
    for number, (ann, bob) in enumerate(rounds, start=1):
        phone.tap("enter-round")
        phone.wait("entry-key-0")
        if number == 2:
            # Refused: Ann holds all four 0s, so Bob cannot have turned over a fifth.
            phone.keys(ann + "0999")
            phone.expect_text("entry-status", "The deck has only four 0s")
            assert phone.disabled("entry-save")
            phone.tap("bever-card-Bob-0")
            phone.keys("9")
        else:
            phone.keys(ann + bob)
        save_round(phone, number + 1 if number < 4 else None)
        if number == 1:
            phone.tap("undo")
            phone.expect_text("enter-round", "Enter round 1")
            phone.tap("enter-round")
            phone.keys(ann + bob)
            save_round(phone, 2)
    phone.expect_text("winner-banner", "Ann wins")
    phone.screenshot("beverbende-final")
    find_in_history(phone, game_id, "beverbende", "Ann won")

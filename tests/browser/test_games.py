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
    """Save the entry; back on the scoreboard, wait for the next round's button (or the banner).

    The form must be gone, not only the scoreboard under it updated: while the form slides
    away its controls are still on the page, where the next step would find (and lose) them."""
    phone.tap("entry-save")
    phone.gone("entry-save")
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
            phone.expect_text("entry-status", r"deck .*\b0\b.*\b5\b")  # the rules' message: five 0s, the deck has four
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
    phone.screenshot("beverbende-final", tall=1500)
    find_in_history(phone, game_id, "beverbende", "Ann won")


def clubs_round(phone, out: list[str], points: dict[str, str]) -> None:
    for name in out:
        phone.tap(f"clubs-out-{name}")
    for name, digits in points.items():
        phone.tap(f"clubs-points-{name}")
        phone.keys(digits)


def test_clubs(phone):
    game_id = start_game(phone, "clubs", ["Ann", "Bob", "Cy"])
    phone.tap("enter-round")
    clubs_round(phone, ["Ann", "Bob"], {"Ann": "20"})
    phone.expect_text("entry-preview", "25")  # 20 club points and the 5 bonus card
    save_round(phone, 2)
    phone.tap("undo")
    phone.expect_text("enter-round", "Enter round 1")
    phone.tap("enter-round")
    clubs_round(phone, ["Ann", "Bob"], {"Ann": "20"})
    save_round(phone, 2)
    phone.tap("enter-round")
    clubs_round(phone, ["Ann", "Cy"], {"Ann": "20", "Cy": "12"})
    save_round(phone, None)
    phone.expect_text("winner-banner", "Ann wins")
    # Refused: 45 club points in round 1 would end the game there, before round 2.
    phone.tap("round-1")
    phone.tap("clubs-points-Ann")
    phone.keys("45")
    phone.expect_text("entry-status", "already over after round 1")
    assert phone.disabled("entry-save")
    phone.tap("entry-cancel")
    phone.tap("leave-discard")  # the changed round is thrown away on purpose
    phone.expect_text("winner-banner", "Ann wins")
    phone.screenshot("clubs-final", tall=1500)
    find_in_history(phone, game_id, "clubs", "Ann won with 50")


def test_klaverjassen(phone):
    phone.open("/")
    phone.tap("new-game")
    phone.tap("ruleset-klaverjassen")
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        phone.type("Player name", name)
        phone.wait(f"seat-{seat}")
    phone.expect_text("start-problem", "Klaverjassen needs 4 players: add 1 more.")
    assert phone.disabled("start-game")
    phone.type("Player name", "Dee")
    phone.wait("seat-4")
    phone.tap("start-game")
    phone.expect_text("next-up", "Bob & Dee play")
    game_id = phone.game_id()
    for deal in range(1, 5):
        phone.tap("enter-round")
        phone.tap("klaver-points-Bob & Dee")
        if deal == 2:
            # Refused: no card is worth one point, so no team ends a deal with 1 (or 161).
            phone.keys("1")
            phone.tap("entry-key-next")
            phone.expect_text("klaver-error-Ann & Cy", "no set of tricks is worth that")
            assert phone.disabled("entry-save")
            phone.tap("klaver-points-Bob & Dee")
        phone.keys("0")  # Ann & Cy took every point: 162, filled in by themselves
        phone.expect_text("entry-preview", "162")
        save_round(phone, deal + 1 if deal < 4 else None)
        if deal == 2:
            phone.tap("undo")
            phone.expect_text("enter-round", "Enter round 2")
            phone.tap("enter-round")
            phone.tap("klaver-points-Bob & Dee")
            phone.keys("0")
            save_round(phone, 3)
    phone.expect_text("winner-banner", "Ann & Cy win")
    phone.screenshot("klaverjassen-final", tall=1500)
    find_in_history(phone, game_id, "klaverjassen", "Ann & Cy won with 648")


def members_only_hand(phone, bets: dict[str, str], counts: dict[str, str]) -> None:
    """Each player's stone on "1 or fewer" of a symbol, then the face-up count per symbol."""
    for player, symbol in bets.items():
        phone.tap(f"mo-player-{player}")
        phone.tap(f"mo-cell-{symbol}-<=1")
    for symbol, digits in counts.items():
        phone.tap(f"mo-count-{symbol}")
        phone.keys(digits)


def test_members_only(phone):
    game_id = start_game(phone, "members_only", ["Ann", "Bob", "Cy"])
    first_hand = (
        {"Ann": "umbrella", "Bob": "crown", "Cy": "teacup"},
        {"umbrella": "0", "crown": "0", "teacup": "0", "big_ben": "11", "hat": "11"},
    )
    phone.tap("enter-round")
    members_only_hand(phone, *first_hand)
    save_round(phone, 2)
    phone.tap("undo")
    phone.expect_text("enter-round", "Enter round 1")
    phone.tap("enter-round")
    members_only_hand(phone, *first_hand)
    save_round(phone, 2)
    phone.tap("enter-round")
    # Refused: with three players 32 cards end face up, not 33.
    members_only_hand(
        phone,
        {"Ann": "big_ben", "Bob": "hat"},
        {"umbrella": "11", "crown": "11", "teacup": "11", "big_ben": "0", "hat": "0"},
    )
    phone.expect_text("mo-error-counts", "cannot add up to 33")
    assert phone.disabled("entry-save")
    phone.tap("mo-count-teacup")
    phone.keys("10")
    save_round(phone, None)
    phone.expect_text("winner-banner", "Shared win")
    phone.expect_text("winner-banner", "Ann and Bob share the win with 10 points")
    phone.screenshot("members-only-final", tall=1500)
    find_in_history(phone, game_id, "members_only", "Ann and Bob shared the win with 10")


def test_a_double_tap_on_abandon_asks_once_and_a_question_let_go_can_be_asked_again(phone):
    """Two taps sent before the first one's dialog showed lay one dialog, not a second one
    under it to be answered again; a dialog closed by its button or by Escape leaves
    Abandon asking again (`App.ask`)."""
    start_game(phone, "beverbende", ["Ann", "Bob"])
    phone.tap("enter-round")
    phone.wait("entry-key-0")
    phone.keys("31415926")
    save_round(phone, 2)
    phone.enabled("abandon")
    phone.el("abandon").dblclick()
    phone.wait("confirm-abandon")
    phone.page.get_by_role("button", name="Keep playing").click()
    phone.gone("confirm-abandon")
    phone.tap("abandon")
    phone.wait("confirm-abandon")
    phone.page.keyboard.press("Escape")
    phone.gone("confirm-abandon")
    phone.tap("abandon")
    phone.tap("confirm-abandon")
    phone.wait("new-game")


def test_an_abandoned_game_is_reopened_from_the_history(phone):
    """Abandoning keeps the rounds; the history's scoreboard of the game takes it back, and
    the game goes on from its next round."""
    game_id = start_game(phone, "beverbende", ["Ann", "Bob"])
    phone.tap("enter-round")
    phone.wait("entry-key-0")
    phone.keys("31415926")
    save_round(phone, 2)
    phone.tap("abandon")
    phone.tap("confirm-abandon")
    phone.wait("new-game")
    phone.open(f"/history/{game_id}")
    phone.expect_text("winner-banner", "Abandoned")
    phone.gone("enter-round")
    phone.tap("reopen")
    phone.expect_text("enter-round", "Enter round 2")
    phone.gone("reopen")

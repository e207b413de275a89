"""A club evening in real browsers (issue 17): the organiser creates an evening for 9 players
(one sits out), the club's regulars checked in by their saved profiles' chips and the others
typed; three phones score the tables (9 players make two tables a round: in round 1 one
phone the host let keep score and one with its table's code, in round 2 a third phone that
joins by its table's code alone, and the first), the big screen's ranking follows every
save, each draw seats everyone, and the final ranking and its prizes match the games.

The app runs with ``--share`` on 127.0.0.1: the organiser is the host, the phones and the
big screen join with the code. The test reads the store only to know which seats the lot
gave (the draw is random) and what the games hold, to compare with the screens.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter

import pytest

from companion.share.codes import grouped
from companion.store import Store
from companion.store.club import Evenings
from tests.browser.conftest import OUTPUT, Phone, free_port, phones, start_app, stop
from tests.browser.phone import COUNT_QUIET_FRAMES, SETTLED

pytestmark = pytest.mark.browser

REGULARS = ["Ann", "Bob", "Cy", "Dee", "Eva"]
"""Saved profiles before the evening: checked in by their chips."""
NEWCOMERS = ["Fay", "Gus", "Hal", "Ida"]
"""Typed, one a line."""
NINE = REGULARS + NEWCOMERS


@pytest.fixture(scope="module")
def club(tmp_path_factory, chromium):
    """The shared app's address, its join and host links, and its database."""
    port = free_port()
    database = tmp_path_factory.mktemp("club") / "companion.sqlite3"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-club-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    command = [sys.executable, "-m", "companion", "run", "--share", "--host", "127.0.0.1", "--port", str(port)]
    process = start_app(command, port, database, log)
    printed = log.read_text()
    base = f"http://127.0.0.1:{port}"
    join = re.search(r"Join link: (\S+)", printed).group(1)
    host = re.search(r"^\s+(http://\S+\?code=\w{26})$", printed, re.MULTILINE).group(1)
    yield {"base": base, "join": join[len(base):], "host": host[len(base):], "database": database}
    stop(process)


@pytest.fixture
def browsers(chromium, club, output_dir):
    """A fresh browser context per person (its own storage, so its own device)."""
    with phones(chromium, output_dir) as open_phone:
        yield lambda: open_phone(club["base"])


def player_totals(store: Store, game_id: int) -> dict[str, int]:
    game = store.open_game(game_id).game
    return {player: game.totals[game.setup.team_of(player)] for player in game.players}


def score_table(phone: Phone, store: Store, game_id: int, big_screen: Phone, totals: Counter[str], code: str = "") -> None:
    """Four deals where one team takes every point (648 passes 501: the table finishes);
    after each save the big screen shows every player of the table at their evening's total
    (``totals``: before this table's game, the rounds so far). With a table's ``code`` the
    phone opens the game with it, as from the table card's QR code."""
    phone.open(f"/game/{game_id}?code={code}" if code else f"/game/{game_id}")
    for deal in range(1, 5):
        _first, second = store.open_game(game_id).game.sides
        phone.tap("enter-round")
        phone.tap(f"klaver-points-{second}")
        phone.keys("0")
        phone.expect_text("entry-preview", "162")
        phone.tap("entry-save")
        phone.gone("entry-save")
        assert len(store.open_game(game_id).game.rounds) == deal
        for player, total in player_totals(store, game_id).items():
            big_screen.expect_text(f"rank-{player}", rf"\d+\. {player} {totals[player] + total}(\n|$)")


def round_totals(store: Store, draw, game_ids) -> Counter[str]:
    """Each player's score in a finished round: their game's total, or for the one sitting out
    the seated players' average (the club's default sit-out score; half rounds up)."""
    scores: Counter[str] = Counter()
    for game_id in game_ids.values():
        scores.update(player_totals(store, game_id))
    (sitting_out,) = draw.sitting_out
    scores[sitting_out] = math.floor(sum(scores.values()) / len(scores) + 0.5)
    return scores


def test_a_club_evening_from_the_draw_to_the_prizes(browsers, club):
    store = Store(f"sqlite:///{club['database']}")
    for regular in REGULARS:  # the club's regulars, saved from earlier evenings
        store.add_player(regular)
    evenings = Evenings(store)
    organiser, big_screen, first_phone, second_phone, third_phone = (browsers() for _ in range(5))
    organiser.page.add_init_script(COUNT_QUIET_FRAMES)
    organiser.open(club["host"])  # device 1, the host
    organiser.wait("nav-event")
    for phone in (first_phone, second_phone, big_screen):  # devices 2, 3 and 4; the third phone joins later
        phone.open(club["join"])
        phone.wait("nav-history")
    organiser.open("/share")
    organiser.tap("grant-2")  # the first phone keeps score everywhere; the big screen only watches
    organiser.expect_text("device-2", "Keeps score")

    organiser.open("/event")
    organiser.type("Name of the evening", "Tuesday")
    organiser.type("Players, one per line", "\n".join(NEWCOMERS))
    organiser.wait(f"saved-{REGULARS[-1]}")
    organiser.screenshot("club-evening-players")
    for regular in REGULARS:
        organiser.tap(f"saved-{regular}")
        organiser.gone(f"saved-{regular}")  # on the list now: its chip goes
    organiser.tap("evening-ending-501")
    organiser.tap("evening-prizes-True")  # formule van 4
    organiser.tap("create-evening")
    organiser.page.wait_for_url(re.compile(r".*/event/\d+"))
    evening_id = int(re.search(r"/event/(\d+)", organiser.page.url).group(1))
    assert [player.name for player in evenings.evening(evening_id).players] == NEWCOMERS + REGULARS
    assert sorted(profile.name for profile in store.players()) == sorted(NINE)  # the typed names saved, once each
    organiser.tap("draw-round")
    organiser.wait("table-2")
    organiser.expect_text("sitting-out", "Sitting out: ")
    organiser.screenshot("club-evening-draw", tall=1600)

    (first,) = evenings.evening(evening_id).rounds
    big_screen.open(f"/event/{evening_id}")
    big_screen.wait("ranking")
    # The second phone (a viewer) scans table 2's code on the organiser's card: it lands on that
    # table's game, ready to score it, and may not score table 1's.
    code = first.codes[2]
    organiser.expect_text("table-2-code", f"Table code: {grouped(code)}")
    second_phone.open(f"/game/{first.game_ids[2]}?code={code}")  # what the card's QR code carries
    second_phone.wait("enter-round")
    assert second_phone.game_id() == first.game_ids[2]
    second_phone.open(f"/game/{first.game_ids[1]}")
    second_phone.expect_text("game-note", r"Tuesday: 1/1")  # table 1's game on screen (a phone's reload keeps its session)
    assert second_phone.el("enter-round").count() == 0
    big_screen.wait("table-2")
    assert big_screen.el("table-2-code").count() == 0  # the big screen shows no table's code
    score_table(first_phone, store, first.game_ids[1], big_screen, Counter())
    score_table(second_phone, store, first.game_ids[2], big_screen, Counter())
    after_first = round_totals(store, first.draw, first.game_ids)
    for player, total in after_first.items():
        big_screen.expect_text(f"rank-{player}", rf"\d+\. {player} {total}(\n|$)")

    organiser.tap("draw-round")
    organiser.expect_text("table-1-status", "playing, 0 deals saved")
    second = evenings.evening(evening_id).rounds[1]
    assert Counter(second.draw.seated + second.draw.sitting_out) == Counter(NINE)
    assert second.draw.sitting_out != first.draw.sitting_out  # the one who sat out plays now
    big_screen.expect_text("table-2-status", "playing, 0 deals saved")

    # A stand-in seat's name is refused, and the field keeps the focus to correct it.
    organiser.type("Player arriving", "Joker")
    organiser.expect_text("evening-error", "Joker is the name of a stand-in seat")
    organiser.expect_focus("Player arriving")

    # A late arrival's name typed on the organiser's page stays while the tables save (the
    # page follows each save in place), and is checked in with Enter.
    organiser.until(SETTLED)
    arriving = organiser.page.get_by_role("textbox", name="Player arriving")
    organiser.page.evaluate("window.__quietFrames = 0")
    arriving.click()
    organiser.until(SETTLED)  # the server's answer to the tap has arrived too
    organiser.expect_focus("Player arriving")
    organiser.page.keyboard.press("ControlOrMeta+A")  # in place of the name refused
    organiser.page.keyboard.type("Zoe")
    organiser.until("() => document.activeElement?.value === 'Zoe'")

    # The third phone, which never joined, scans table 1's card: the code alone lets it score
    # that table; the first phone (it keeps score everywhere) scores table 2.
    score_table(third_phone, store, second.game_ids[1], big_screen, after_first, code=second.codes[1])
    organiser.expect_text("table-1-status", "finished")
    assert organiser.page.evaluate("document.activeElement?.value") == "Zoe"
    organiser.page.keyboard.press("Enter")
    organiser.wait("present-Zoe")
    assert "Zoe" in evenings.evening(evening_id).present
    score_table(first_phone, store, second.game_ids[2], big_screen, after_first)

    # The final ranking: each player's two rounds; prizes for places 1-4 and 8 (formule van 4).
    after_second = round_totals(store, second.draw, second.game_ids)
    scores = {player: after_first[player] + after_second[player] for player in NINE}
    ranked = sorted(scores.values(), reverse=True)
    for player, total in scores.items():
        big_screen.expect_text(f"rank-{player}", rf"\d+\. {player} {total}(\n|$)")
    for index, position in enumerate([1, 2, 3, 4, 8]):
        shown = big_screen.expect_text(f"prize-{index}", rf"Prize for place {position}(, shared)?: \w+")
        shared, names = re.search(rf"Prize for place {position}(, shared)?: ([\w, ]+)", shown).groups()
        winners = names.split(", ")
        assert {scores[winner] for winner in winners} == {ranked[position - 1]}  # equal totals share the place's prize
        assert bool(shared) == (len(winners) > 1) and len(winners) == ranked.count(ranked[position - 1])
    big_screen.screenshot("club-evening-ranking", tall=1600)

    organiser.tap("draw-round")  # round 3 seats the late arrival too
    organiser.expect_text("table-1-status", "playing, 0 deals saved")
    third = evenings.evening(evening_id).rounds[2].draw
    assert Counter(third.seated + third.sitting_out) == Counter([*NINE, "Zoe"])

    # Tables that will never finish are stopped, so the next round can be drawn; a stop is taken back.
    organiser.tap("stop-table-1")
    organiser.expect_text("table-1-status", "stopped")
    organiser.tap("stop-table-2")
    organiser.wait("draw-round")
    big_screen.expect_text("table-2-status", "stopped")
    organiser.tap("play-on-table-2")
    organiser.gone("draw-round")
    store.close()

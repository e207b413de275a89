"""A club evening in real browsers (issue 17): the organiser creates an evening for 9 players
(one sits out), two phones each score a table (9 players make two tables; one phone the host
let keep score, the other with its table's code), the big screen's ranking follows every
save, the prizes match the games, and the next draw seats everyone.

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

pytestmark = pytest.mark.browser

NINE = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


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


COUNT_QUIET_FRAMES = """(() => {
  const Native = window.WebSocket;
  window.__quietFrames = 0;
  const frame = () => { window.__quietFrames += 1; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', () => { window.__quietFrames = 0; });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
"""Counts the frames drawn since the page last heard from the server."""

SETTLED = "() => window.__quietFrames >= 10"
"""The page has heard nothing for ten frames: the updates of a draw, or the answer to a tap,
have all arrived (a field tapped or typed in while one arrives can lose the browser's focus,
with the keys typed next)."""


def score_table(phone: Phone, store: Store, game_id: int, big_screen: Phone) -> None:
    """Four deals where one team takes every point (648 passes 501: the table finishes);
    after each save the big screen shows every player of the table at the game's total."""
    phone.open(f"/game/{game_id}")
    for deal in range(1, 5):
        _first, second = store.open_game(game_id).game.sides
        phone.tap("enter-round")
        phone.tap(f"klaver-points-{second}")
        phone.keys("0")
        phone.expect_text("entry-preview", "162")
        phone.tap("entry-save")
        phone.gone("entry-save")
        totals = player_totals(store, game_id)
        assert len(store.open_game(game_id).game.rounds) == deal
        for player, total in totals.items():
            big_screen.expect_text(f"rank-{player}", rf"\d+\. {player} {total}(\n|$)")


def test_a_club_evening_from_the_draw_to_the_prizes(browsers, club):
    organiser, big_screen, first_phone, second_phone = browsers(), browsers(), browsers(), browsers()
    organiser.page.add_init_script(COUNT_QUIET_FRAMES)
    organiser.open(club["host"])  # device 1, the host
    organiser.wait("nav-event")
    for phone in (first_phone, second_phone, big_screen):  # devices 2, 3 and 4
        phone.open(club["join"])
        phone.wait("nav-history")
    organiser.open("/share")
    organiser.tap("grant-2")  # the first phone keeps score everywhere; the big screen only watches
    organiser.expect_text("device-2", "Keeps score")

    organiser.open("/event")
    organiser.type("Name of the evening", "Tuesday")
    organiser.type("Players, one per line", "\n".join(NINE))
    organiser.tap("evening-ending-501")
    organiser.tap("evening-prizes-True")  # formule van 4
    organiser.tap("create-evening")
    organiser.page.wait_for_url(re.compile(r".*/event/\d+"))
    evening_id = int(re.search(r"/event/(\d+)", organiser.page.url).group(1))
    organiser.tap("draw-round")
    organiser.wait("table-2")
    organiser.expect_text("sitting-out", "Sitting out: ")
    organiser.screenshot("club-evening-draw", tall=1600)

    store = Store(f"sqlite:///{club['database']}")
    evenings = Evenings(store)
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
    for phone, table in zip((first_phone, second_phone), first.draw.tables):
        score_table(phone, store, first.game_ids[table.number], big_screen)

    # The final ranking: every seated player at their game's total, the one sitting out at the
    # seated players' average (the club's default), prizes for places 1-4 and 8 (formule van 4).
    scores: dict[str, int] = {}
    for game_id in first.game_ids.values():
        scores.update(player_totals(store, game_id))
    (sitting_out,) = first.draw.sitting_out
    scores[sitting_out] = math.floor(sum(scores.values()) / len(scores) + 0.5)  # half rounds up
    ranked = sorted(scores.values(), reverse=True)
    for player, total in scores.items():
        big_screen.expect_text(f"rank-{player}", rf"\d+\. {player} {total}(\n|$)")
    for index, position in enumerate([1, 2, 3, 4, 8]):
        shown = big_screen.expect_text(f"prize-{index}", rf"Prize for place {position}: \w+")
        winner = re.search(rf"Prize for place {position}: (\w+)", shown).group(1)
        assert scores[winner] == ranked[position - 1]
    big_screen.screenshot("club-evening-ranking", tall=1600)

    organiser.tap("draw-round")
    organiser.expect_text("table-1-status", "playing, 0 deals saved")
    second = evenings.evening(evening_id).rounds[1].draw
    assert Counter(second.seated + second.sitting_out) == Counter(NINE)
    assert second.sitting_out != first.draw.sitting_out  # the one who sat out plays now
    big_screen.expect_text("table-2-status", "playing, 0 deals saved")

    # A late arrival's name typed on the organiser's page stays while a table saves (the
    # page follows the save in place), and is checked in with Enter.
    organiser.until(SETTLED)
    arriving = organiser.page.get_by_role("textbox", name="Player arriving")
    organiser.page.evaluate("window.__quietFrames = 0")
    arriving.click()
    organiser.until(SETTLED)  # the server's answer to the tap has arrived too
    organiser.until("() => ['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName)")
    organiser.page.keyboard.type("Zoe")
    organiser.until("() => document.activeElement?.value === 'Zoe'")
    game_id = evenings.evening(evening_id).rounds[1].game_ids[1]
    first_phone.open(f"/game/{game_id}")
    first_phone.tap("enter-round")
    first_phone.tap(f"klaver-points-{store.open_game(game_id).game.sides[1]}")
    first_phone.keys("0")
    first_phone.tap("entry-save")
    organiser.expect_text("table-1-status", "playing, 1 deals saved")
    assert organiser.page.evaluate("document.activeElement?.value") == "Zoe"
    organiser.page.keyboard.press("Enter")
    organiser.wait("present-Zoe")
    assert "Zoe" in evenings.evening(evening_id).present

    # Tables that will never finish are stopped, so the next round can be drawn; a stop is taken back.
    organiser.tap("stop-table-1")
    organiser.expect_text("table-1-status", "stopped")
    organiser.tap("stop-table-2")
    organiser.wait("draw-round")
    big_screen.expect_text("table-2-status", "stopped")
    organiser.tap("play-on-table-2")
    organiser.gone("draw-round")
    store.close()

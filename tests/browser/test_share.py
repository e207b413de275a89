"""One shared table in three browsers (host, scorer, viewer) and one without the code.

The app runs with ``--share`` (on 127.0.0.1, so the test needs no network): the host
opens the host link printed in the terminal, the others the join link. The host lets the
scorer keep score; the scorer saves a round and the viewer's scoreboard shows it without
a reload, and so does a big screen's table view; when host and scorer enter the same round, the host is told the moment the
scorer saves it, and what the host typed is kept and saved as the next round; a viewer that lost its connection catches up when it is back; the viewer has no way
to enter a round; a browser without the code sees only the join screen, and a wrong code
is refused, its field focused again for the next try.
"""

from __future__ import annotations

import re

import pytest

from companion.store import Store
from companion.ui.scoreboard import SHOWN_ROUNDS
from tests.browser.conftest import Phone, phones, start_app_with_a_game, stop
from tests.browser.phone import QUERY_ALL, SAYS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def shared_table(tmp_path_factory, chromium):
    """The shared app's address, its join and host links, and a game of Beverbende in progress."""
    process, port, game_id, log, database = start_app_with_a_game(tmp_path_factory, "share", ["--share", "--host", "127.0.0.1"])
    printed = log.read_text()
    join = re.search(r"Join link: (\S+)", printed).group(1)
    host = re.search(r"^\s+(http://\S+\?code=\w{26})$", printed, re.MULTILINE).group(1)
    base = f"http://127.0.0.1:{port}"
    yield {"base": base, "join": join[len(base):], "host": host[len(base):], "game": game_id, "database": database}
    stop(process)


LOSE_CONNECTION = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (...args) { const s = new Native(...args); window.__sockets.push(s); return s; };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
"""Keeps the page's WebSockets at hand, so a test can cut the connection as a lost Wi-Fi would."""


@pytest.fixture
def browsers(chromium, shared_table, output_dir):
    """A fresh browser context per person (its own storage, so its own device)."""
    with phones(chromium, output_dir) as open_phone:

        def open_browser() -> Phone:
            phone = open_phone(shared_table["base"])
            phone.page.add_init_script(LOSE_CONNECTION)
            return phone

        yield open_browser


def lose_connection(phone: Phone) -> None:
    phone.page.context.set_offline(True)
    phone.page.evaluate("window.__sockets.forEach(s => s.close())")


def test_the_scorer_saves_a_round_and_the_viewer_sees_it_live(browsers, shared_table):
    game = shared_table["game"]
    host, scorer, viewer = browsers(), browsers(), browsers()
    host.open(shared_table["host"])
    host.wait("new-game")
    scorer.open(shared_table["join"])
    scorer.wait("nav-history")
    viewer.open(shared_table["join"])
    viewer.wait("nav-history")
    assert viewer.el("new-game").count() == 0  # a viewer is not offered a game it may not start
    assert "code=" not in viewer.page.url  # the code leaves the address bar once in

    host.open("/share")  # a reload: the host's browser comes back as the same device
    host.expect_text("share-you", "you host this table")
    host.expect_text("device-2", "Watches")
    host.tap("grant-2")
    host.expect_text("device-2", "Keeps score")

    viewer.open(f"/game/{game}")
    viewer.expect_text("total-Ann", "Ann 0")
    assert viewer.el("enter-round").count() == 0 and viewer.el("undo").count() == 0

    scorer.open(f"/game/{game}")
    scorer.tap("enter-round")
    scorer.wait("entry-key-0")
    scorer.keys("3141" + "5926")
    scorer.tap("entry-save")
    scorer.expect_text("enter-round", "Enter round 2")
    viewer.expect_text("total-Ann", "Ann 9")  # 3+1+4+1, on the viewer's screen without a reload
    viewer.expect_text("total-Bob", "Bob 22")
    tv = browsers()  # a big screen at the end of the table
    tv.open(shared_table["join"])
    tv.wait("nav-history")
    tv.open(f"/table/{game}")
    tv.expect_text("table-total-Ann", "Ann 9")

    # Round 2 entered by two scorers at once, while the viewer's phone is offline.
    host.open(f"/game/{game}")
    host.tap("enter-round")
    host.wait("entry-key-0")
    lose_connection(viewer)
    host.keys("2222")  # Ann's cards typed when the scorer saves round 2
    scorer.tap("enter-round")
    scorer.wait("entry-key-0")
    scorer.keys("1111" + "2222")
    scorer.tap("entry-save")
    scorer.expect_text("enter-round", "Enter round 3")
    # Told while typing, before Save; what was typed is kept for round 3.
    host.expect_text("entry-notice", "Round 2 was saved on another device.*save it as round 3")
    host.expect_text("bever-card-Ann-3", "2")
    host.screenshot("share-round-taken-while-typing")
    host.tap("bever-card-Bob-0")
    host.keys("3333")
    host.tap("entry-save")
    host.expect_text("enter-round", "Enter round 4")
    host.expect_text("total-Ann", "Ann 21")  # 9 + 4 + 8
    tv.expect_text("table-total-Ann", "Ann 21")  # rounds 2 and 3 changed it in place
    tv.expect_text("table-total-Bob", "Bob 42")

    viewer.page.context.set_offline(False)  # back: it catches up by itself
    viewer.expect_text("total-Ann", "Ann 21")
    viewer.expect_text("total-Bob", "Bob 42")

    # The viewer cannot enter a round, not even by typing the form's address.
    viewer.open(f"/game/{game}/round")
    viewer.expect_text("total-Ann", "Ann 21")
    assert viewer.el("entry-save").count() == 0 and viewer.el("enter-round").count() == 0

    # Round 4, the last of a two-player game, saved by the scorer while the host types it.
    host.tap("enter-round")
    host.wait("entry-key-0")
    host.keys("5555")
    scorer.tap("enter-round")
    scorer.wait("entry-key-0")
    scorer.keys("1111" + "2222")
    scorer.tap("entry-save")
    host.expect_on_screen("Round 4 was saved on another device and ended the game. What you entered for it is discarded.")
    host.screenshot("share-game-ended-while-typing")
    host.expect_text("total-Ann", "Ann 25")
    assert host.el("entry-save").count() == 0 and host.el("enter-round").count() == 0


def test_without_the_code_only_the_join_screen_is_served(browsers, shared_table):
    stranger = browsers()
    stranger.open(f"/game/{shared_table['game']}")
    stranger.wait("join-screen")
    assert stranger.el("total-Ann").count() == 0 and stranger.el("new-game").count() == 0
    assert "Ann" not in stranger.texts("join-screen")

    stranger.type("Code", "AAAA-BBBB")
    stranger.expect_text("join-error", "That code is not right")
    assert stranger.el("total-Ann").count() == 0
    stranger.expect_focus("Code")  # to type it again, no tap needed (a phone's keyboard comes back up)


ROWS = f"""() => ({QUERY_ALL})('[flt-semantics-identifier^="round-"]')
    .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
    .map(e => [e.getAttribute('flt-semantics-identifier'), ({SAYS})(e)])"""
"""The rounds' rows in the accessibility tree, top to bottom: each one's identifier and text."""


def test_a_viewer_following_a_long_game_lists_its_last_rounds_in_order(browsers, shared_table):
    """Past the rounds listed, a new round takes the row of the oldest one listed, filled in
    again and moved to the end: the viewer's table still lists the last rounds in order,
    each with its own points."""
    with Store(f"sqlite:///{shared_table['database']}") as store:
        game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 20}).id
    host, viewer = browsers(), browsers()
    host.open(shared_table["host"])
    host.wait("new-game")
    viewer.open(shared_table["join"])
    viewer.wait("nav-history")
    viewer.page.set_viewport_size({"width": 360, "height": 2400})  # every row on the screen, so in the accessibility tree
    viewer.open(f"/game/{game}")
    viewer.wait("total-Ann")
    host.open(f"/game/{game}")
    last = SHOWN_ROUNDS + 2
    for number in range(1, last + 1):
        host.tap("enter-round")
        host.wait("entry-key-0")
        host.keys(f"{number % 10}123" + "4567")  # Ann 6 and the round's last digit, Bob 22
        host.tap("entry-save")
        host.expect_text("enter-round", f"Enter round {number + 1}")
    viewer.expect_text("total-Bob", f"Bob {22 * last}")
    rows = viewer.until(f"() => {{ const rows = ({ROWS})(); return rows.length && rows[rows.length - 1][0] === 'round-{last}' ? rows : null; }}")
    viewer.screenshot("share-viewer-last-rounds")
    listed = range(last - SHOWN_ROUNDS + 1, last + 1)
    assert [identifier for identifier, _says in rows] == [f"round-{n}" for n in listed]
    for (_identifier, says), n in zip(rows, listed):
        ann = sum(k % 10 + 6 for k in range(1, n + 1))
        assert re.search(rf"\b{n}\b.*\b{n % 10 + 6}\b.*\b{ann}\b.*\b22\b.*\b{22 * n}\b", says, re.S), says  # number, Ann's points over her total, Bob's


def test_a_new_players_name_half_typed_stays_when_a_player_saved_elsewhere_shows_the_page_again(browsers, shared_table):
    """The players page is read again when a player is saved on another page (or the browser
    comes back after a lost connection): the name being typed in it stays."""
    host = browsers()
    host.open(shared_table["host"])
    host.wait("new-game")
    host.open("/players")
    host.type("New player", "Wilhelm", enter=False)
    other = Phone(host.page.context.new_page(), shared_table["base"], host.output_dir)  # the same device, another tab
    other.open("/players")
    other.type("New player", "Zoe")
    other.wait("player-Zoe")
    host.wait("player-Zoe")  # the page was read again
    host.page.bring_to_front()
    host.submit("New player")  # the name as the field holds it now
    host.wait("player-Wilhelm")

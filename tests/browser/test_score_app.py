"""What players expect of a score app (issue 15, 16-19), walked in the browser: the screen
stays awake while a game is open, a finished game goes to BG Stats, a game's place and note
are set on its board and shown in the history, and a player's page charts their results."""

from __future__ import annotations

import json
import os
import sys
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.store import Store
from tests.browser.conftest import OUTPUT, free_port, phones, start_app, stop

pytestmark = pytest.mark.browser

WATCH_WAKE_LOCK = """
window.__wake = {requests: 0, releases: 0};
const wakeLock = {
  request: async (type) => {
    window.__wake.requests += 1;
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.released = false;
    sentinel.release = async () => {
      window.__wake.releases += 1;
      sentinel.released = true;
      sentinel.dispatchEvent(new Event('release'));
    };
    return sentinel;
  },
};
Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => wakeLock, configurable: true});
"""
"""The browser's Screen Wake Lock API, counting what the app asks of it."""

WATCH_LINKS = "window.__opened = []; window.open = (url) => { window.__opened.push(String(url)); return null; };"
"""Links the app opens in another app (window.open), kept instead of followed."""


@pytest.fixture(scope="module")
def games(tmp_path_factory, chromium):
    """The app over a database with a Beverbende game in progress and one finished (Ann won)."""
    database = tmp_path_factory.mktemp("score-app") / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        playing = store.create_game("beverbende", ["Ann", "Bob"])
        finished = store.create_game("beverbende", ["Ann", "Bob"])
        for _ in range(4):
            record = store.open_game(finished.id)
            store.add_round(finished.id, {"totals": {"Ann": 10, "Bob": 12}}, expected_version=record.version)
        uuid = store.open_game(finished.id).uuid
    port = free_port()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = OUTPUT / f"app-score-app-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    process = start_app([sys.executable, "-m", "companion", "run", "--port", str(port)], port, database, log)
    yield f"http://127.0.0.1:{port}", playing.id, finished.id, uuid
    stop(process)


@pytest.fixture
def phone(chromium, games, output_dir):
    with phones(chromium, output_dir) as open_phone:
        yield open_phone(games[0])


def test_the_screen_stays_awake_while_a_game_is_open_and_is_let_go_after(phone, games):
    _url, playing, _finished, _uuid = games
    phone.page.add_init_script(WATCH_WAKE_LOCK)
    phone.open("/")
    phone.wait(f"game-{playing}")
    assert phone.page.evaluate("window.__wake") == {"requests": 0, "releases": 0}
    phone.tap(f"game-{playing}")
    phone.until("() => window.__wake.requests === 1")
    phone.tap("enter-round")
    phone.wait("entry-back")
    phone.tap("entry-back")
    phone.wait("enter-round")
    phone.tap("back")  # the app bar's back arrow leaves the game
    phone.wait(f"game-{playing}")
    phone.until("() => window.__wake.releases === 1")
    assert phone.page.evaluate("window.__wake.requests") == 1


def test_a_finished_game_is_sent_to_bg_stats_as_one_play(phone, games):
    _url, _playing, finished, uuid = games
    phone.page.add_init_script(WATCH_LINKS)
    phone.open(f"/history/{finished}")
    phone.expect_text("send-bgstats", "Send to BG Stats")
    phone.screenshot("finished-bgstats")
    phone.tap("send-bgstats")
    opened = phone.until("() => window.__opened.length > 0 && window.__opened")
    parts = urlsplit(opened[0])
    assert (parts.scheme, parts.netloc, parts.path) == ("bgstats", "app.bgstatsapp.com", "/createPlay.html")
    play = json.loads(parse_qs(parts.query)["data"][0])
    assert play["sourcePlayId"] == uuid and play["game"]["name"] == "Beverbende"
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [("Ann", 40, True), ("Bob", 48, False)]


def test_a_games_place_and_note_are_set_on_its_board_and_shown_in_the_history(phone, games):
    _url, _playing, finished, _uuid = games
    phone.open(f"/history/{finished}")
    phone.expect_text("game-dates", r"Started Today \d\d:\d\d · finished Today \d\d:\d\d$")
    phone.tap("edit-details")
    phone.type("Place", "Café De Zwaan")
    phone.type("Note", "Ann's birthday")
    phone.screenshot("details-dialog")
    phone.tap("save-details")
    phone.expect_text("game-place", "Café De Zwaan")
    phone.expect_text("game-note", "Ann's birthday")
    phone.expect_text("edit-details", "Change place or note")
    phone.screenshot("finished-details")
    phone.open("/history")
    phone.expect_text(f"game-{finished}", "Café De Zwaan · Ann's birthday")
    phone.tap("filter-period-today")
    phone.expect_text(f"game-{finished}", "Café De Zwaan")
    phone.screenshot("history-today")


def test_a_players_page_keeps_modes_apart_and_charts_wins_over_time(phone, games):
    _url, _playing, finished, _uuid = games
    phone.open("/players/Ann")
    phone.expect_text("player-summary", "1 game · 1 won")
    phone.expect_text("stats-Beverbende · alone · 4 rounds", "Beverbende · alone · 4 rounds")
    phone.wait("player-chart")
    phone.wait(f"game-{finished}")
    phone.screenshot("player-page", tall=1400)


IN_EACH_LANGUAGE = {
    "en-US": ("Send to BG Stats", "Beverbende · alone · 4 rounds", "Wins over time"),
    "nl-NL": ("Naar BG Stats sturen", "Beverbende · alleen · 4 rondes", "Gewonnen in de loop van de tijd"),
    "de-DE": ("An BG Stats senden", "Beverbende · allein · 4 Runden", "Siege im Lauf der Zeit"),
    "fr-FR": ("Envoyer à BG Stats", "Beverbende · en solo · 4 manches", "Victoires au fil du temps"),
}
"""What the finished board's button, the player's mode line and chart say in each language."""


@pytest.mark.parametrize("locale", IN_EACH_LANGUAGE)
def test_the_new_words_show_in_each_language_at_phone_size(chromium, games, output_dir, locale):
    url, _playing, finished, _uuid = games
    send, mode, chart = IN_EACH_LANGUAGE[locale]
    with phones(chromium, output_dir) as open_phone:
        phone = open_phone(url, locale=locale)
        phone.open(f"/history/{finished}")
        phone.expect_text("send-bgstats", send)
        phone.wait("edit-details")
        phone.screenshot(f"finished-board-{locale}")
        phone.tap("edit-details")
        phone.wait("save-details")
        phone.screenshot(f"details-dialog-{locale}")
        phone.open("/history")
        phone.wait("filter-period-all")
        phone.screenshot(f"history-{locale}")
        phone.open("/players/Ann")
        phone.expect_text(f"stats-{mode}", mode)
        phone.expect_on_screen(chart)
        phone.screenshot(f"player-page-{locale}", tall=1400)

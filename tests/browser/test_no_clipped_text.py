"""Every screen at 360 px, in each language, with long names, shows every word in full.

Players are called "Jan-Willem van der Berg" and "Ann-Sophie Vermeulen-Dekker"; a team
of CLUBS has six of them. One phone per language (the device's locale picks the language)
visits each screen, and ``clipped_texts`` reads from Flutter's text engine which texts end
in an ellipsis, break inside a word or run off the screen.
"""

from __future__ import annotations

import os
import re
import sys

import pytest

from companion.store import Store
from companion.store.club import Evenings
from companion.ui.new_game import seat_teams
from tests.browser.clipping import WATCH_TEXT, clipped_texts, flet_errors, cut_off
from tests.browser.conftest import OUTPUT, Phone, free_port, phones, start_app, stop

pytestmark = pytest.mark.browser

JAN, ANN, CHRIS = "Jan-Willem van der Berg", "Ann-Sophie Vermeulen-Dekker", "Christopher McKenzie-Smith"
BOB, MARIE, PIETER = "DJ Bob", "Marie-Claire Dubois-Lefèvre", "Pieter-Jan Oosterhuis"
RULESETS = ("beverbende", "clubs", "klaverjassen", "members_only")


def seed(store: Store) -> dict[str, int]:
    """A game in progress of each ruleset (and of team CLUBS with six), one round played,
    and an abandoned one for the history; their ids by name."""

    def play(ruleset: str, players: list[str], entry: dict, **setup) -> int:
        record = store.create_game(ruleset, players, **setup)
        return store.add_round(record.id, entry, expected_version=record.version).id

    six, four = [JAN, BOB, ANN, CHRIS, MARIE, PIETER], [JAN, ANN, CHRIS, MARIE]
    us, them = seat_teams(four, 2)
    games = {
        "beverbende": play("beverbende", [JAN, ANN], {"totals": {JAN: 10, ANN: 20}}),
        "clubs": play("clubs", [JAN, ANN, CHRIS], {"out_order": [JAN, ANN], "club_points": {JAN: 20}, "double": []}),
        "team-clubs": play(
            "clubs", six, {"out_order": [JAN, CHRIS, BOB, MARIE], "club_points": {JAN: 20}, "double": []},
            teams=seat_teams(six, 3),
        ),
        "klaverjassen": play(
            "klaverjassen", four, {"card_points": {us: 100, them: 62}, "pit": None, "verzaakt": None},
            teams=seat_teams(four, 2),
        ),
        "members_only": play(
            "members_only", [JAN, ANN, CHRIS],
            {"bets": [{"player": JAN, "symbol": "umbrella", "field": "<=1"}],
             "counts": {"umbrella": 0, "crown": 0, "teacup": 10, "big_ben": 11, "hat": 11}},
        ),
        "abandoned": play("beverbende", [ANN, PIETER], {"totals": {ANN: 3, PIETER: 4}}),
    }
    store.abandon(games["abandoned"])
    return games


@pytest.fixture(scope="module")
def long_names_table(tmp_path_factory, chromium):
    """The app, shared (so the share panel and the join screen exist), drawn by CanvasKit,
    over games of players with long names: its address, host link and game ids."""
    port = free_port()
    database = tmp_path_factory.mktemp("long-names") / "companion.sqlite3"
    with Store(f"sqlite:///{database}") as store:
        games = seed(store)
        evening = Evenings(store).create("Dinsdagavond Klaverjasclub", EVENING, {"ending": "boompje"}, seed=7)
        Evenings(store).draw_next(evening.id)
        store.add_player(LATE)  # a saved player not checked in: offered as a late arrival's chip
    log = OUTPUT / f"app-long-names-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    command = [sys.executable, "-m", "companion", "run", "--share", "--host", "127.0.0.1", "--port", str(port)]
    process = start_app(command, port, database, log, {"FLET_WEB_RENDERER": "canvaskit"})
    base = f"http://127.0.0.1:{port}"
    host = re.search(r"^\s+(http://\S+\?code=\w{26})$", log.read_text(), re.MULTILINE).group(1)
    yield {"base": base, "host": host[len(base):], "games": games, "evening": evening.id}
    stop(process)


EVENING = [JAN, BOB, ANN, CHRIS, MARIE, PIETER, "Wilhelmina Koppelaar", "Bartholomeus de Wit", "Ida"]
"""A club evening of nine: two tables and one player sitting out."""

LATE = "Geertruida Vanderheijden-Bosch"


def screens(games: dict[str, int], evening: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each screen: its name, its address and what to tap there first."""
    shown = [("home", "/", ()), ("rules", "/rules", ()), ("history", "/history", ()), ("players", "/players", ())]
    shown += [("player", f"/players/{JAN}", ()), ("settings", "/settings", ()), ("share", "/share", ())]
    shown += [(f"new-{ruleset}", "/new", (f"ruleset-{ruleset}",)) for ruleset in RULESETS]
    for name, game in games.items():
        where = "/history" if name == "abandoned" else "/game"
        shown.append((f"scoreboard-{name}", f"{where}/{game}", ()))
        if name != "abandoned":
            shown += [(f"entry-{name}", f"/game/{game}/round", ()), (f"referee-{name}", f"/game/{game}/referee", ())]
    shown.append(("referee-trick", f"/game/{games['klaverjassen']}/referee", TRICK))
    shown.append(("rules-klaverjassen", f"/game/{games['klaverjassen']}/rules", ()))
    shown += [("evenings", "/event", ()), ("evening", f"/event/{evening}", ())]
    return shown


TRICK = ("referee-klaver-card-JH", "referee-klaver-card-9S")
"""Two cards in the Klaverjassen referee's trick: it says which one is winning so far, and whose."""

LOCALES = {"en": "en-GB", "nl": "nl-NL", "de": "de-DE", "fr": "fr-FR"}


@pytest.mark.parametrize("language", LOCALES)
def test_every_screen_shows_every_word_at_360_px(language, long_names_table, chromium, output_dir):
    clipped: list[str] = []
    with phones(chromium, output_dir) as open_phone:

        def device() -> Phone:
            phone = open_phone(long_names_table["base"], locale=LOCALES[language])
            phone.page.add_init_script(WATCH_TEXT)
            return phone

        host = device()
        host.open(long_names_table["host"])
        host.wait("new-game")
        for name, route, taps in screens(long_names_table["games"], long_names_table["evening"]):
            host.open(route)
            for identifier in taps:
                host.tap(identifier)
            clipped += [f"{name}: {text}" for text in clipped_texts(host)]
            clipped += [f"{name}: an error bar in place of a control: {text}" for text in flet_errors(host)]
            if route == "/new":
                clipped += [f"{name}: {text}" for text in cut_off(host, "start-game")]
            host.screenshot(f"clip-{language}-{name}")
        stranger = device()  # no code: the join screen
        stranger.open("/")
        stranger.wait("join-code")  # not "join-screen": that first shows a spinner while the device is checked
        clipped += [f"join: {text}" for text in clipped_texts(stranger)]
        clipped += [f"join: an error bar in place of a control: {text}" for text in flet_errors(stranger)]
    assert not clipped, "\n".join(clipped)

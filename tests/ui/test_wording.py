"""Words the player reads in the app's frame: the same thing said one way, and each use of an
English word worded as its own language needs it."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion import i18n, rules
from companion.rules import RuleError
from companion.share.table import Device
from companion.ui import widgets
from companion.ui.format import option_label
from companion.ui.round_entry.drafts import Drafts
from companion.ui.scoreboard import GameScreen, ScoreboardState
from companion.ui.summary import result_line
from tests.ui.conftest import bever_totals, play
from tests.ui.tree import walk


def session_app(store=None):
    """What a screen asks of the app it belongs to, with no browser page behind it."""
    return SimpleNamespace(store=store, dark=False, device=Device.this_machine(), back=lambda: None, go=lambda route: None, drafts=Drafts())


def texts(control: ft.Control) -> list[str]:
    return [c.value for c in walk(control) if isinstance(c, ft.Text) and isinstance(c.value, str)]


@pytest.mark.parametrize("language, back", [("en", "Back"), ("nl", "Terug"), ("de", "Zurück"), ("fr", "Retour")])
def test_the_back_arrow_is_named_in_the_app_language(language, back):
    with i18n.speaking(language):
        view = widgets.screen(session_app(), "/settings", "Settings", [])
    arrow = widgets.app_bar(view).leading
    assert isinstance(arrow, ft.Semantics) and arrow.identifier == "back"
    assert arrow.content.tooltip == back


def test_home_has_no_back_arrow():
    view = widgets.screen(session_app(), "/", "Companion", [], home=True)
    assert widgets.app_bar(view).leading is None


def test_the_back_arrow_asks_the_app_to_go_back():
    went_back = []
    app = session_app()
    app.back = lambda: went_back.append(True)
    view = widgets.screen(app, "/settings", "Settings", [])
    widgets.app_bar(view).leading.content.on_click()  # Flet calls a handler that takes no event without one
    assert went_back == [True]


def game_screen(store, rounds: int) -> GameScreen:
    game = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, game.id, [bever_totals(Ann=3, Bob=5)] * rounds)
    state = ScoreboardState(store, game.id)
    state.load()
    return GameScreen(session_app(store), state, f"/game/{game.id}")


def test_a_round_being_changed_is_named_the_same_in_the_bar_and_in_the_form(store):
    screen = game_screen(store, rounds=2)
    screen.show_entry(f"{screen.view.route}/round/1", index=0)
    title = widgets.app_bar(screen.view).title.value
    assert title == "Edit round 1"
    assert title in texts(ft.Column(screen.view.controls))


def test_the_scoreboard_has_a_back_arrow_in_the_app_language(store):
    screen = game_screen(store, rounds=1)
    with i18n.speaking("de"):
        screen.show_board(screen.view.route)
    assert widgets.app_bar(screen.view).leading.content.tooltip == "Zurück"


def test_in_german_the_rounds_table_is_headed_rounds_not_the_number_of_rounds(store):
    """One English word, two meanings: the option is a count ("Anzahl der Runden"), the
    scoreboard's table lists the rounds ("Runden")."""
    screen = game_screen(store, rounds=1)
    with i18n.speaking("de"):
        screen.show_board(screen.view.route)
        assert option_label(rules.get("beverbende").option("rounds")) == "Anzahl der Runden"
    shown = texts(ft.Column(screen.view.controls))
    assert "Runden" in shown
    assert "Anzahl der Runden" not in shown


def finished(winner: str, sides: list[str], players: list[str], total: int = 726):
    """A history line's summary of a game ``winner`` won."""
    return SimpleNamespace(
        status="finished", winners=(winner,), totals={s: (total if s == winner else 0) for s in sides},
        rounds_played=9, sides=tuple(sides), players=tuple(players), ruleset="klaverjassen",
    )


TEAM_WIN = finished("Ann & Cy", ["Ann & Cy", "Bob & Dee"], ["Ann", "Bob", "Cy", "Dee"])


@pytest.mark.parametrize(
    "language, line",
    [("en", "Ann & Cy won with 726"), ("nl", "Ann & Cy wonnen met 726"), ("de", "Ann & Cy gewannen mit 726")],
)
def test_a_team_that_won_is_named_as_many(language, line):
    with i18n.speaking(language):
        assert result_line(TEAM_WIN) == line


def test_a_player_who_won_is_named_as_one():
    with i18n.speaking("nl"):
        assert result_line(finished("Ann", ["Ann", "Bob"], ["Ann", "Bob"], 54)) == "Ann won met 54"


@pytest.mark.parametrize("name, line", [("Ann", "Victoire d'Ann avec 54"), ("Émile", "Victoire d'Émile avec 54"), ("Bob", "Victoire de Bob avec 54")])
def test_french_elides_de_before_a_name_that_begins_with_a_vowel(name, line):
    with i18n.speaking("fr"):
        assert result_line(finished(name, [name, "Zoé"], [name, "Zoé"], 54)) == line


def test_french_elides_in_a_refusal_of_the_rules_and_leaves_h_as_it_is():
    game = rules.get("clubs").new_game(["Ann", "Hugo"])
    refusals = []
    for player in ("Ann", "Hugo"):
        with pytest.raises(RuleError) as caught:
            game.add_round({"out_order": ["Ann"], "club_points": {player: -1}, "double": []})
        refusals.append(caught.value)
    with i18n.speaking("fr"):
        assert refusals[0].message.startswith("Les points CLUBS d'Ann ")
        assert refusals[1].message.startswith("Les points CLUBS de Hugo ")

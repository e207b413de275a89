"""The rules screens: the reference with each game's referee a tap away, and a game's own
rules (its options highlighted) and referee (set up like it) opened from its scoreboard."""

from __future__ import annotations

from companion import rules
from companion.ui import rulesets
from tests.ui.tree import find, tap, text


class App:
    """What the screens need of the app shell: the store, navigation and the theme."""

    dark = False

    def __init__(self, store=None):
        self.store = store
        self.went: list[str] = []

    def go(self, route: str) -> None:
        self.went.append(route)


def title(view) -> str:
    return view.appbar.title.value


def test_the_rules_screen_is_the_reference_with_every_games_referee_a_tap_away():
    app = App()
    view = rulesets.show(app)
    find(view, "reference-search")
    for ruleset in rules.rulesets():
        tap(view, f"open-referee-{ruleset.id}")
    assert app.went == [f"/rules/{r.id}/referee" for r in rules.rulesets()]


def test_a_referee_opened_from_the_rules_uses_the_rulebook_defaults():
    view = rulesets.show_referee(App(), "/rules/clubs/referee", "clubs")
    assert title(view) == "Referee: CLUBS"
    assert find(view, "referee-clubs-wild").value is False


def test_a_games_rules_highlight_how_that_game_is_set(store):
    game = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"], options={"ending": "boompje"})
    view = rulesets.show_for_game(App(store), f"/game/{game.id}/rules", game.id, referee=False)
    assert title(view) == "Rules of Klaverjassen"
    assert text(find(view, "reference-setting-klaverjassen-ending")) == "In your game: boompje"


def test_a_games_referee_is_set_up_like_that_game(store):
    game = store.create_game("clubs", ["Ann", "Bob", "Cy"], options={"wild_15": True})
    view = rulesets.show_for_game(App(store), f"/game/{game.id}/referee", game.id, referee=True)
    assert title(view) == "Referee: CLUBS"
    assert find(view, "referee-clubs-wild").value is True
    assert find(view, "referee-clubs-crazy").value is False


def test_the_rules_of_a_game_that_cannot_be_opened_say_why(store):
    view = rulesets.show_for_game(App(store), "/game/404/rules", 404, referee=False)
    assert "There is no saved game number 404." in text(find(view, "error"))

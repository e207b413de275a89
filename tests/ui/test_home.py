import asyncio
import contextvars
from types import SimpleNamespace
from typing import Callable

import flet as ft

from companion.share.table import Device
from companion.store import StoreError
from companion.ui import home
from companion.ui.home import HomeState
from companion.ui.router import App
from companion.ui.synced import unsent
from tests.ui.conftest import bever_totals, fixed_now, play
from tests.ui.tree import find, find_all, served_app


def test_empty_home_invites_a_new_game(store):
    home = HomeState(store, now=fixed_now)
    home.load()
    assert home.games == []
    assert home.empty_message == "No games in progress. Start one with New game."


def test_games_in_progress_are_listed_newest_first_with_the_leader(store):
    first = store.create_game("beverbende", ["Ann", "Bob"])
    second = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"])
    play(store, first.id, [bever_totals(Ann=10, Bob=20)])
    home = HomeState(store, now=fixed_now)
    home.load()
    assert [card.game_id for card in home.games] == [second.id, first.id]
    assert [card.title for card in home.games] == ["Klaverjassen", "Beverbende"]
    assert home.games[0].players == "Ann, Bob, Cy and Dee"
    assert home.games[0].result == "No rounds yet"
    # Beverbende: the lowest total leads
    assert home.games[1].result == "Ann leads with 10 after 1 round"
    assert home.empty_message is None


def test_a_shared_lead_names_everyone_sharing_it(store):
    game = store.create_game("beverbende", ["Ann", "Bob", "Cy"])
    play(store, game.id, [bever_totals(Ann=10, Bob=10, Cy=20), bever_totals(Ann=8, Bob=8, Cy=15)])
    home = HomeState(store, now=fixed_now)
    home.load()
    assert home.games[0].result == "Ann and Bob share the lead with 18 after 2 rounds"


def test_finished_and_abandoned_games_leave_the_home_screen(store):
    done = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, done.id, [bever_totals(Ann=10, Bob=12)] * 4)
    stopped = store.create_game("beverbende", ["Ann", "Bob"])
    store.abandon(stopped.id)
    home = HomeState(store, now=fixed_now)
    home.load()
    assert home.games == []


class UnreadableStore:
    """A store whose database cannot be read: the home screen must say so, not crash."""

    def in_progress(self):
        raise StoreError("The database cannot be read.")


def test_a_store_error_is_shown_instead_of_the_list():
    home = HomeState(UnreadableStore(), now=fixed_now)
    home.load()
    assert home.error == "The database cannot be read."
    assert home.games == [] and home.empty_message is None


def test_a_leading_team_is_named_as_a_team(store):
    game = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"])
    play(store, game.id, [{"card_points": {"Ann & Cy": 100, "Bob & Dee": 62}}])
    home = HomeState(store, now=fixed_now)
    home.load()
    assert home.games[0].result == "Ann & Cy lead with 162 after 1 round"


def test_a_viewer_at_a_shared_table_is_not_invited_to_start_a_game(store):
    home = HomeState(store, now=fixed_now, can_start=False)
    home.load()
    assert home.empty_message == "No games in progress."
    scorer = HomeState(store, now=fixed_now)
    scorer.load()
    assert scorer.empty_message == "No games in progress. Start one with New game."


def on_home_before_the_store_opens(store, check: Callable[[App, ft.View], None]) -> None:
    """Run ``check`` on a session's home drawn before the store has opened (the first page
    after the server starts), on a page whose messages are encoded as for a browser, in a
    context of its own: Flet notes a handler's updates in the running context, or else in
    the process's defaults, which later tests would inherit."""

    on_home(store, lambda app, view, tasks: check(app, view), store_open=False)


def on_home(store, check: Callable[[App, ft.View, list], None], store_open: bool) -> None:
    """Run ``check`` on a session's home on a page whose messages are encoded as for a
    browser, in a context of its own (see above), with the tasks the session starts kept in a
    list, not run (there is no event loop here)."""

    def run() -> None:
        ft.context.reset_auto_update()
        tasks: list = []
        app, page, _session = served_app(lambda page: App(page, store, store_open=store_open), tasks=tasks)  # the session kept
        app.show("/")
        check(app, page.views[-1], tasks)

    contextvars.copy_context().run(run)


def test_home_drawn_before_the_store_opens_leaves_its_more_section_to_come_with_the_list(store):
    """The first frame shows New game sooner without the five rows of More; they come with
    the list of games once the store has opened, and are sent to the browser then."""

    def check(app: App, view: ft.View) -> None:
        assert find(view, "new-game") and find_all(view, "nav-history") == [] and find_all(view, "no-games") == []
        app.page_drawn()  # the browser lays the frame out; the store opens
        assert find_all(view, "nav-history") == []
        app.store_opened()
        assert find(view, "no-games")
        assert [find(view, f"nav-{name}").title.value for name in ("history", "players", "event", "rules", "settings")] == [
            "History", "Players", "Club evenings", "Rules", "Settings",
        ]  # fmt: skip
        assert unsent(view) == []  # and sent to the browser
        app.store_opened()  # a game changed: the list again, the section once
        assert len(find_all(view, "nav-history")) == 1

    on_home_before_the_store_opens(store, check)


def test_on_the_phones_own_app_home_shows_its_more_section_while_the_store_opens(store):
    """There the store opens in the page's one Python thread after home's first frame, for a
    second or two: the section is sent before it, and the browser draws it meanwhile."""

    def check(app: App, view: ft.View) -> None:
        app.store_opening()
        assert find(view, "nav-rules") and find_all(view, "no-games") == []  # the list still to come
        assert unsent(view) == []
        app.store_opened()
        assert find(view, "no-games") and len(find_all(view, "nav-rules")) == 1

    on_home_before_the_store_opens(store, check)


def test_home_drawn_with_the_store_open_has_everything_at_once(store):
    state = HomeState(store, now=fixed_now)
    state.load()
    view = home.view(SimpleNamespace(device=Device.this_machine(), dark=False, go=None, toggle_theme=None), state)
    assert find(view, "no-games") and find(view, "nav-rules")


def on_home_drawn(store, check: Callable[[App, ft.View, list], None], store_open: bool = True) -> None:
    """Run ``check`` on a session's home (``on_home``) whose browser has laid it out (and so
    reported its size)."""

    def drawn(app: App, view: ft.View, tasks: list) -> None:
        layers = home.layers_of(view)
        assert layers is not None and layers.new_game is None  # built once home is drawn, not before
        layers.home_column.on_size_change()
        app.page.update()  # as Flet's automatic update after an event's handler
        check(app, view, tasks)

    on_home(store, drawn, store_open)


def test_new_game_tapped_on_a_drawn_home_uncovers_the_screen_built_under_it(store):
    """The browser then repaints the page it has, instead of building and laying out a page
    of its own; taps and screen readers reach only the layer on top."""
    store.add_player("Dee")

    def check(app: App, view: ft.View, tasks: list) -> None:
        layers = home.layers_of(view)
        assert find(view, "ruleset-beverbende") and layers.under.ignore_interactions and layers.under_content.exclude_semantics
        app.show("/new")
        assert app.page.views == [view] and app.shown_route == "/new"
        assert view.appbar.title.value == "New game" and view.appbar.leading is layers.back and not layers.share.visible
        assert view.bottom_appbar is None and find(view, "start-game")  # Start's bar is in the layer, built with it
        assert layers.home.ignore_interactions and layers.home_content.exclude_semantics and layers.home.opacity == 0
        assert not layers.under.ignore_interactions and not layers.under_content.exclude_semantics
        assert unsent(view) == []
        find(view, "ruleset-beverbende").on_click()
        assert layers.new_game.state.ruleset.id == "beverbende" and find(view, "saved-Dee")

    on_home_drawn(store, check)


def test_new_game_s_tap_compares_the_bar_and_the_layers_switches_not_the_screens_they_hold(store, monkeypatch):
    """The answer to the tap leaves the server in about a millisecond: comparing the two
    screens took 8 to 11 ms (docs/performance.md, "New game's answer and the button's press")."""
    from flet.controls.base_control import BaseControl

    compared: list[BaseControl] = []
    before_update = BaseControl._before_update_safe

    def noted(control: BaseControl) -> None:
        compared.append(control)
        before_update(control)

    def inside(control: BaseControl | None, holder: ft.Control) -> bool:
        while control is not None and control is not holder:
            control = control.parent
        return control is holder

    def check(app: App, view: ft.View, tasks: list) -> None:
        layers = home.layers_of(view)
        monkeypatch.setattr(BaseControl, "_before_update_safe", noted)
        app.show("/new")
        assert app.shown_route == "/new" and view.appbar.title.value == "New game" and unsent(view) == []
        assert view in compared and layers.home in compared and layers.under in compared
        assert not [c for c in compared if c not in (layers.home_held, layers.under_held) and (inside(c, layers.home_held) or inside(c, layers.under_held))]

    on_home_drawn(store, check)


def test_the_saved_players_join_the_uncovered_new_game_when_the_store_opens(store):
    store.add_player("Dee")

    def check(app: App, view: ft.View, tasks: list) -> None:
        app.show("/new")
        find(view, "ruleset-beverbende").on_click()
        assert find_all(view, "saved-Dee") == []
        app.store_opened()
        assert find(view, "saved-Dee") and app.shown_route == "/new" and unsent(view) == []

    on_home_drawn(store, check, store_open=False)


def test_back_from_the_uncovered_new_game_shows_home_and_builds_a_fresh_new_game_under_it(store):
    def check(app: App, view: ft.View, tasks: list) -> None:
        layers = home.layers_of(view)
        app.show("/new")
        find(view, "ruleset-beverbende").on_click()
        app.show("/")
        assert app.page.views == [view] and app.shown_route == "/" and view.appbar.title.value == "Companion"
        assert view.bottom_appbar is None and layers.share.visible and layers.home.opacity == 1
        assert layers.under.ignore_interactions and not layers.home.ignore_interactions
        assert layers.new_game is None and len(tasks) == 1  # home is sent first, the fresh screen after
        asyncio.run(tasks[0]())
        assert layers.new_game is not None and layers.new_game.state.ruleset is None
        assert unsent(view) == []

    on_home_drawn(store, check)


def test_new_game_tapped_before_home_is_drawn_comes_as_a_page_of_its_own(store):
    def check(app: App, view: ft.View) -> None:
        app.store_opened()
        app.show("/new")
        assert len(app.page.views) == 2 and app.shown_route == "/new" and find(app.page.views[-1], "ruleset-beverbende")

    on_home_before_the_store_opens(store, check)


def test_home_beneath_a_page_opened_first_comes_without_its_list_and_lists_the_games_once_shown(store):
    """A device that opens a table's game first (a club evening's phones, by the table's
    code) has home under it on the stack, for the back arrow. Its list would be read again
    when home comes on top, so it is not built beneath: with 40 tables, 40 cards less on
    every device of the evening."""
    from tests.ui.test_live_board import followed_board

    app, page, _messages, game, _session = followed_board(store, 1)
    others = [store.create_game("beverbende", [f"P{n}", f"Q{n}"], options={"ending": "rounds", "rounds": 3}) for n in range(3)]
    beneath = page.views[0]
    assert [view.route for view in page.views] == ["/", f"/game/{game.id}"]
    assert find_all(beneath, f"game-{game.id}") == [] and find_all(beneath, "nav-rules") == []
    app.back()
    assert page.views == [beneath]  # the same page, filled
    for listed in (game, *others):
        find(beneath, f"game-{listed.id}")
    find(beneath, "nav-rules")


def test_new_game_built_again_in_another_language_keeps_what_was_chosen_and_typed(store):
    """The device's language can come after home, the moment New game is tapped: the pages
    are built again in it, and New game goes on with its game, its players, its options and
    the name being typed, each word in the new language."""
    from flet.controls.context import _context_page

    def check(app: App, view: ft.View, tasks: list) -> None:
        _context_page.set(app.page)  # translations follow the session's language
        app.show("/new")
        find(view, "ruleset-klaverjassen").on_click()
        screen = home.layers_of(view).new_game
        for name in ("Ann", "Bob", "Bob"):  # the second Bob is refused: at the table already
            screen._add_typed(SimpleNamespace(data=name))
        assert find(view, "name-error")
        screen.name_field.value = "Cy"  # being typed
        find(view, "options-toggle").on_click()
        screen.state.set_option_text("ending", "12x")
        app.language.choose("de")
        shown = app.page.views[-1]
        again = shown.data
        assert app.shown_route == "/new" and again is not screen
        assert again.state.ruleset.id == "klaverjassen" and again.state.players == ["Ann", "Bob"]
        assert again.name_field.value == "Cy" and again.name_field.label == "Spielername"
        assert shown.appbar.title.value == "Neues Spiel" and again.options_open
        assert again.state.option_errors == {"ending": "Gib eine ganze Zahl ein."} and find_all(shown, "name-error") == []

    on_home_drawn(store, check)


def test_new_game_on_a_page_of_its_own_built_again_in_another_language_keeps_its_players(store):
    from flet.controls.context import _context_page

    def check(app: App, view: ft.View) -> None:
        _context_page.set(app.page)
        app.show("/new")
        screen = app.page.views[-1].data
        find(app.page.views[-1], "ruleset-beverbende").on_click()
        screen._add_typed(SimpleNamespace(data="Ann"))
        app.language.choose("fr")
        again = app.page.views[-1].data
        assert again is not screen and again.state.players == ["Ann"] and app.page.views[-1].appbar.title.value == "Nouvelle partie"

    on_home_before_the_store_opens(store, check)


def test_a_second_tap_on_start_sent_before_the_game_s_page_showed_starts_nothing(store):
    def check(app: App, view: ft.View, tasks: list) -> None:
        app.show("/new")
        find(view, "ruleset-beverbende").on_click()
        for name in ("Ann", "Bob"):
            home.layers_of(view).new_game._add_typed(SimpleNamespace(data=name))
        start = find(view, "start-game")
        start.on_click()
        start.on_click()
        assert len(store.in_progress()) == 1 and app.shown_route == f"/game/{store.in_progress()[0].id}"

    on_home_drawn(store, check)


def test_a_theme_switched_while_the_device_is_asked_for_its_saved_one_stays_switched(store, monkeypatch):
    """As a session starts it asks the device for the theme it saved; a tap on the switch
    before that answer comes is the player's choice, and the late answer does not undo it."""
    from companion.ui import settings
    from companion.ui.handshake import THEME_KEY

    answers: list[asyncio.Future] = []

    class SlowStorage:
        """The device's storage, whose saved theme comes when the test says (nothing else is kept)."""

        async def get(self, key: str) -> object:
            if key != THEME_KEY:
                return None
            answers.append(asyncio.get_running_loop().create_future())
            return await answers[-1]

        async def set(self, key: str, value: object) -> None:
            pass

    monkeypatch.setattr(settings, "device_storage", lambda page: SlowStorage())

    def check(app: App, view: ft.View, tasks: list) -> None:
        async def scenario() -> None:
            restoring = asyncio.ensure_future(app.restore_from_device())
            while not answers:  # the device is asked
                await asyncio.sleep(0)
            [switch] = [action for action in view.appbar.actions if getattr(action, "identifier", None) == "theme-switch"]
            switch.content.on_click()  # the player taps the switch meanwhile
            answers[0].set_result("light")  # the theme the device had saved
            await restoring
            assert app.dark
            assert switch.content.tooltip == "Switch to the light theme"

        asyncio.run(scenario())

    on_home(store, check, store_open=True)

import flet as ft
import pytest

from companion.ui import new_game
from companion.ui.new_game import NewGameScreen, NewGameState, seat_teams
from tests.ui.tree import find, walk


def table(ruleset_id: str, *names: str, saved=()) -> NewGameState:
    state = NewGameState(list(saved))
    state.choose(ruleset_id)
    for name in names:
        assert state.add_player(name), state.name_error
    return state


def test_nothing_starts_before_a_game_is_chosen():
    state = NewGameState([])
    assert state.problem == "Choose a game."
    assert state.seats_left is None


def test_choosing_a_game_sets_every_option_to_its_default():
    state = table("klaverjassen")
    assert state.options == {o.name: o.default for o in state.ruleset.options}
    state.set_option("ending", "boompje")
    state.choose("klaverjassen")
    assert state.options["ending"] == "501"


def test_too_few_players_are_named_with_how_many_to_add():
    state = table("beverbende", "Ann")
    assert state.problem == "Beverbende needs 2 to 6 players: add 1 more."
    state.add_player("Bob")
    assert state.problem is None


def test_a_full_table_refuses_one_more_player():
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee")
    assert not state.add_player("Eve")
    assert state.name_error == "Klaverjassen is for at most 4 players."
    assert state.players == ["Ann", "Bob", "Cy", "Dee"]


def test_switching_to_a_smaller_game_explains_the_player_limit():
    state = table("beverbende", "Ann", "Bob", "Cy", "Dee", "Eve")
    state.choose("klaverjassen")
    assert state.problem == "Klaverjassen is for exactly 4 players, not 5."


@pytest.mark.parametrize("name, message", [("  ", "Type a name first."), ("Ann", "Ann is already at the table.")])
def test_bad_names_are_refused_with_a_reason(name, message):
    state = table("beverbende", "Ann")
    assert not state.add_player(name)
    assert state.name_error == message
    assert state.players == ["Ann"]


def test_saved_players_not_at_the_table_are_offered():
    state = table("beverbende", "Bob", saved=["Ann", "Bob", "Cy"])
    assert state.bench == ["Ann", "Cy"]


def test_the_first_seat_deals_and_rotating_passes_the_deal_clockwise():
    state = table("beverbende", "Ann", "Bob", "Cy")
    assert state.dealer == "Ann"
    state.rotate()
    assert state.players == ["Bob", "Cy", "Ann"]
    assert state.dealer == "Bob"


def test_moving_a_player_up_swaps_seats_and_wraps_around_the_table():
    state = table("beverbende", "Ann", "Bob", "Cy")
    state.move("Cy", -1)
    assert state.players == ["Ann", "Cy", "Bob"]
    state.move("Ann", -1)
    assert state.players == ["Cy", "Bob", "Ann"]


def test_removing_a_player_frees_the_seat():
    state = table("beverbende", "Ann", "Bob", "Cy")
    state.remove_player("Bob")
    assert state.players == ["Ann", "Cy"]


def test_teams_follow_the_seats_with_partners_apart():
    assert seat_teams(["Ann", "Bob", "Cy", "Dee"], 2) == {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
    assert seat_teams(["A", "B", "C", "D", "E", "F"], 3) == {"A & D": ["A", "D"], "B & E": ["B", "E"], "C & F": ["C", "F"]}
    assert seat_teams(["A", "B", "C", "D", "E", "F"], 2) == {"A & C & E": ["A", "C", "E"], "B & D & F": ["B", "D", "F"]}


def test_klaverjassen_always_plays_two_teams_of_two():
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee")
    assert state.team_choices == [2]
    assert state.teams == {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
    state.move("Cy", -1)  # Cy now sits beside Ann: the partners change with the seats
    assert state.teams == {"Ann & Bob": ["Ann", "Bob"], "Cy & Dee": ["Cy", "Dee"]}


@pytest.mark.parametrize(
    "players, choices",
    [
        (["A", "B", "C"], [None]),
        (["A", "B", "C", "D"], [None, 2]),
        (["A", "B", "C", "D", "E"], [None]),
        (["A", "B", "C", "D", "E", "F"], [None, 2, 3]),
    ],
)
def test_clubs_offers_the_team_shapes_its_rules_allow(players, choices):
    state = table("clubs", *players)
    assert state.team_choices == choices
    assert state.team_count is None  # solo play unless the table chooses teams


def test_clubs_teams_are_dropped_when_the_table_no_longer_fits_them():
    state = table("clubs", "A", "B", "C", "D")
    state.set_team_count(2)
    state.add_player("E")
    assert state.team_count is None


def test_typed_options_keep_what_was_typed_and_explain_the_problem():
    state = table("beverbende", "Ann", "Bob")
    state.set_option_text("rounds", "1o")
    assert state.option_text["rounds"] == "1o"
    assert state.option_errors["rounds"] == "Type a whole number."
    assert state.problem == "Rounds: Type a whole number."
    state.set_option_text("rounds", "0")
    assert state.option_errors["rounds"] == "Option rounds must be at least 1, not 0."
    state.set_option_text("rounds", "7")
    assert state.options["rounds"] == 7 and state.problem is None


def test_option_choices_come_from_the_ruleset():
    state = table("klaverjassen")
    assert state.option_choices("ending") == ["501", "1000", "1500", "boompje", "boompje12"]
    assert state.option_choices("runs_by_colour") == [True, False]


def test_starting_saves_the_game_with_its_seats_options_and_teams(store):
    store.add_player("Dee")
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee", saved=["Dee"])
    state.set_option("ending", "boompje")
    game_id = state.start(store)
    record = store.open_game(game_id)
    assert record.game.players == ("Ann", "Bob", "Cy", "Dee")
    assert record.game.options["ending"] == "boompje"
    assert record.game.teams == {"Ann & Cy": ("Ann", "Cy"), "Bob & Dee": ("Bob", "Dee")}
    assert [p.name for p in store.players()] == ["Ann", "Bob", "Cy", "Dee"]


def test_team_clubs_is_saved_as_team_play(store):
    state = table("clubs", "A", "B", "C", "D", "E", "F")
    state.set_team_count(3)
    record = store.open_game(state.start(store))
    assert record.game.sides == ("A & D", "B & E", "C & F")
    assert record.game.detail["target"] == 100


def test_a_game_that_cannot_start_is_not_saved(store):
    state = table("clubs", "A")
    assert state.start(store) is None
    assert state.error == "CLUBS needs 2 to 6 players: add 1 more."
    assert store.in_progress() == []


def test_changed_options_are_listed_in_the_rulesets_order():
    state = table("klaverjassen")
    assert state.changed_options == []
    state.set_option("ending", "1000")
    state.set_option("four_jacks", 100)
    assert state.changed_options == ["four_jacks", "ending"]
    state.set_option("ending", "501")
    assert state.changed_options == ["four_jacks"]


# --- a target typed beside the quick choices (issue 15 point 14) ------------------------------


def test_klaverjassen_can_be_played_to_any_target_a_club_uses():
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee")
    state.set_option_text("ending", "750")
    assert state.options["ending"] == "750" and state.problem is None
    assert state.changed_options == ["ending"]


def test_a_typed_target_out_of_range_is_explained_and_blocks_the_start():
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee")
    state.set_option_text("ending", "99")
    assert state.option_text["ending"] == "99"
    assert "a whole number from 100 to 10000" in state.option_errors["ending"]
    assert state.problem.startswith("Ending: ")
    state.set_option_text("ending", "seven")
    assert state.option_errors["ending"] == "Type a whole number."


def test_a_quick_choice_replaces_a_typed_target_and_an_emptied_field_means_the_default():
    state = table("klaverjassen")
    state.set_option_text("ending", "99")
    state.set_option("ending", "1500")
    assert state.options["ending"] == "1500" and state.option_text["ending"] == "" and not state.option_errors
    state.set_option_text("ending", "2000")
    state.set_option_text("ending", "  ")
    assert state.options["ending"] == "501" and not state.option_errors


def test_a_typed_target_is_saved_and_restored_with_the_game(store):
    state = table("klaverjassen", "Ann", "Bob", "Cy", "Dee")
    state.set_option_text("ending", "0750")
    record = store.open_game(state.start(store))
    assert record.game.options["ending"] == "750"
    assert record.game.detail["target"] == 750


def test_the_new_game_screen_offers_the_quick_choices_and_a_field_for_any_target(store):
    app = type("App", (), {"store": store, "dark": False})()
    screen = NewGameScreen(app, NewGameState([]))
    screen.state.choose("klaverjassen")
    screen.options_open = True
    screen.render()
    for value in ("501", "1000", "1500", "boompje", "boompje12"):
        find(screen.view, f"option-ending-{value}")
    option = find(screen.view, "option-ending")
    field = next(c for c in walk(option) if isinstance(c, ft.TextField))
    assert field.label == "Or type a number" and field.value == ""
    field.value = "1200"
    field.on_change(type("Event", (), {"control": field})())
    assert screen.state.options["ending"] == "1200"
    assert not any(find(screen.view, f"option-ending-{v}").selected for v in ("501", "1000", "1500", "boompje", "boompje12"))
    assert find(screen.view, "options-toggle").subtitle.value == "Changed: Ending"
    find(screen.view, "option-ending-1000").on_select(None)
    assert screen.state.options["ending"] == "1000" and field.value == ""


def test_the_new_game_screen_offers_the_limit_ending_and_saves_it(store):
    app = type("App", (), {"store": store, "dark": False})()
    screen = NewGameScreen(app, NewGameState([]))
    screen.state.choose("beverbende")
    for name in ("Ann", "Bob"):
        screen.state.add_player(name)
    screen.options_open = True
    screen.render()
    chip = find(screen.view, "option-ending-limit")
    assert chip.label.value == "limit" and not chip.selected
    chip.on_select(None)
    assert find(screen.view, "option-ending-limit").selected
    record = store.open_game(screen.state.start(store))
    assert record.game.options["ending"] == "limit"
    assert record.game.detail["game_ends_at"] == 100


class OpeningApp:
    """An app shell whose store is still opening: any use of it would wait for it."""

    dark = False
    page = None

    def __init__(self, store):
        self.store_open = False
        self._store = store

    @property
    def store(self):
        assert self.store_open, "the New game page waited for the store"
        return self._store


def test_new_game_shows_before_the_store_opens_and_the_saved_players_join_it_then(store):
    store.add_player("Dee")
    app = OpeningApp(store)
    view = new_game.show(app)
    find(view, "ruleset-beverbende").on_click()
    app.store_open = True
    new_game.fill(app, view.data)
    find(view, "saved-Dee").on_click()
    assert view.data.state.players == ["Dee"]


def test_new_games_word_that_the_database_does_not_answer_goes_when_it_answers_again(store, monkeypatch):
    """Start tapped while a club's database is away: the screen says so and keeps the table
    set up. When the process hears the database again, the screen says so no more, and
    Start saves the game."""
    from companion.store.errors import UnreachableError
    from companion.ui.router import App as Shell
    from companion.ui.synced import unsent
    from tests.ui.tree import served_app, shown, text

    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go("/")
    app.go("/new")
    screen = app.new_game_shown()
    assert screen is not None
    screen.state.choose("beverbende")
    for name in ("Ann", "Bob"):
        screen.state.add_player(name)
    screen.render()
    created = store.create_game

    def away(*args, **kwargs):
        raise UnreachableError("db.club.example", "connection timeout expired")

    monkeypatch.setattr(store, "create_game", away)
    find(screen.layout, "start-game").on_click()
    assert text(find(screen.layout, "error")) == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(store, "create_game", created)
    app.database_answers()
    assert not shown(screen.layout, "error") and screen.state.players == ["Ann", "Bob"]
    assert unsent(page.views[-1]) == []  # sent
    find(screen.layout, "start-game").on_click()
    assert [game.sides for game in store.in_progress()] == [["Ann", "Bob"]]

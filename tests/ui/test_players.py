from companion.ui.players import PlayerState, PlayersState
from tests.ui.conftest import bever_totals, fixed_now, play


def test_profiles_are_listed_by_name_and_new_ones_saved(store):
    p = PlayersState(store)
    p.load()
    assert p.empty_message
    assert p.add("  Bob ")
    assert p.add("ann")
    assert p.names == ["ann", "Bob"]
    assert p.name_error is None


def test_blank_or_known_names_are_refused_with_a_reason(store):
    p = PlayersState(store)
    p.load()
    p.add("Ann")
    assert not p.add(" ")
    assert p.name_error == "Type a name first."
    assert not p.add("Ann")
    assert p.name_error == "Ann is already saved."


def test_a_player_with_no_finished_games_says_so(store):
    store.add_player("Ann")
    s = PlayerState(store, "Ann")
    s.load()
    assert s.summary == "No finished games yet."
    assert s.lines() == []


def test_player_statistics_per_game(store):
    for _ in range(2):
        record = store.create_game("beverbende", ["Ann", "Bob"])
        play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=12, Bob=10)] * 4)
    s = PlayerState(store, "Ann")
    s.load()
    assert s.summary == "3 games · 2 won (67%)"
    [line] = s.lines()
    assert (line.mode, line.played, line.wins, line.win_rate, line.average, line.best) == (
        "Beverbende · alone · 4 rounds", "3", "2", "67%", "42.7", "40 (lowest)",
    )
    assert s.others == ["Bob"]


def test_head_to_head_between_two_players(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    s = PlayerState(store, "Ann")
    s.load()
    s.choose_rival("Bob")
    assert s.head_line == "1 game together: Ann won 1, Bob won 0."
    s.choose_rival(None)
    assert s.head_line == ""


def test_players_who_never_finished_a_game_together(store):
    store.add_player("Ann")
    store.add_player("Cy")
    s = PlayerState(store, "Ann")
    s.load()
    s.choose_rival("Cy")
    assert s.head_line == "Ann and Cy have not finished a game together yet."


TEAMS = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}


def clubs_alone(store, ann: int):
    """A CLUBS game of three to 50 that Ann wins with ``ann`` points in one round."""
    record = store.create_game("clubs", ["Ann", "Bob", "Cy"], {"target": 50})
    return play(store, record.id, [{"out_order": ["Ann", "Bob"], "club_points": {"Ann": ann - 5}, "double": []}])


def clubs_in_teams(store, ann_and_cy: int):
    """A team CLUBS game to 100 that Ann & Cy win with ``ann_and_cy`` points in one round."""
    record = store.create_game("clubs", ["Ann", "Bob", "Cy", "Dee"], {}, TEAMS)
    return play(store, record.id, [{"out_order": ["Ann", "Cy"], "club_points": {"Ann": ann_and_cy - 13}, "double": []}])


def test_averages_are_kept_apart_per_game_mode(store):
    """CLUBS alone to 50 and in teams to 100 are not one average."""
    assert clubs_alone(store, 52).status == "finished"
    assert clubs_alone(store, 60).status == "finished"
    assert clubs_in_teams(store, 113).status == "finished"
    s = PlayerState(store, "Ann")
    s.load()
    lines = {line.mode: (line.played, line.average, line.best) for line in s.lines()}
    assert lines == {
        "CLUBS · alone · to 50": ("2", "56.0", "60"),
        "CLUBS · in teams · to 100": ("1", "113.0", "113"),
    }


def test_the_players_page_charts_wins_over_time_and_lists_their_games(store):
    won = clubs_alone(store, 52)
    lost = store.create_game("beverbende", ["Ann", "Bob"])
    lost = play(store, lost.id, [bever_totals(Ann=12, Bob=10)] * 4)
    store.create_game("beverbende", ["Cy", "Bob"])  # not Ann's
    s = PlayerState(store, "Ann", now=fixed_now)
    s.load()
    assert s.chart() == {"Wins": [0, 1, 1]}
    assert [card.game_id for card in s.games] == [lost.id, won.id]


def test_a_player_with_no_finished_games_has_no_chart(store):
    store.add_player("Ann")
    s = PlayerState(store, "Ann")
    s.load()
    assert s.chart() is None and s.games == []


def test_a_new_players_name_half_typed_stays_when_the_page_is_shown_again(store):
    """The players page is read again whenever it shows again (the browser back after a lost
    connection, a player saved on another device): the name being typed stays."""
    from companion.ui.router import App as Shell
    from tests.ui.tree import find, served_app

    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go("/players")
    find(page.views[-1], "new-player-name").value = "Wilhelm"
    store.add_player("Ann")  # on another device
    app.show("/players")
    assert find(page.views[-1], "new-player-name").value == "Wilhelm"
    app.go("/")
    app.go("/players")
    assert find(page.views[-1], "new-player-name").value == ""  # a visit of its own starts empty


def test_a_players_page_read_again_on_screen_keeps_the_rival_chosen(store):
    """A game that ends elsewhere reads a player's page on screen again: the rival chosen for
    the head-to-head stays, and the head-to-head counts the new game."""
    from companion.ui.router import App as Shell
    from tests.ui.tree import find, served_app

    for name in ("Ann", "Bob"):
        store.add_player(name)
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go("/players/Ann")
    view = page.views[-1]
    find(view, "rival-Bob").on_select()
    games_before = view.data.state.head.games_together
    again = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, again.id, [bever_totals(Ann=10, Bob=12)] * 4)  # at another table
    app.show("/players/Ann")  # as the session does then
    assert page.views[-1] is view and find(view, "rival-Bob").selected
    assert view.data.state.head.games_together == games_before + 1

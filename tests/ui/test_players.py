from companion.ui.players import PlayerState, PlayersState
from tests.ui.conftest import bever_totals, play


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
    assert (line.game, line.played, line.wins, line.win_rate, line.average, line.best) == (
        "Beverbende", "3", "2", "67%", "42.7", "40 (lowest)",
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

"""The table view (a TV or laptop at the table) follows a game as every scoreboard does: a
round saved elsewhere changes its totals, lines and chart in place, in one message, and the
page is built anew only when what it holds changes (the first round's chart, the game's end)."""

from __future__ import annotations

import pytest

from companion.ui.router import App as Shell
from companion.ui.synced import unsent
from companion.ui.table_view import NAME_SIZE, TableScreen, names_size
from companion.ui.widgets import follower_of
from tests.ui.conftest import bever_totals
from tests.ui.test_live_board import followed_board
from tests.ui.tree import find, find_all, served_app, text


def followed_table(store, rounds: int, route: str = "/table"):
    """A game of 3 rounds, ``rounds`` of them played, on a page that shows ``route``'s table view."""
    return followed_board(store, rounds, route, length=3)


def test_a_round_saved_elsewhere_changes_the_table_view_in_place_in_one_message(store):
    app, page, messages, game, _session = followed_table(store, 1)
    view = page.views[-1]
    screen = follower_of(view)
    assert isinstance(screen, TableScreen) and screen.chart is not None
    ann, chart = find(view, "table-total-Ann"), screen.chart.chart
    assert app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=30), expected_version=game.version)) is not None
    assert page.views[-1] is view and find(view, "table-total-Ann") is ann and screen.chart.chart is chart  # not built anew
    assert text(ann).split() == ["Ann", "17"] and screen.totals[0].control.label == "Ann 17"  # 12 + 5, as a screen reader says it
    assert "Round 3" in text(view)  # what comes next
    assert len(chart.data_series[0].points) == 3  # the start and two rounds
    assert len(messages) == 1 and unsent(view) == []


def test_the_table_view_of_one_game_follows_it_and_is_not_moved_by_another(store):
    app, page, _messages, game, _session = followed_table(store, 1, "/table/{game}")
    view = page.views[-1]
    other = store.create_game("beverbende", ["Cas", "Dee"], options={"ending": "rounds", "rounds": 3})
    assert app.follow(store.add_round(other.id, bever_totals(Cas=10, Dee=20), expected_version=other.version)) is not None  # nothing to show
    assert app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=30), expected_version=game.version)) is not None
    assert page.views[-1] is view and text(find(view, "table-total-Bob")).split() == ["Bob", "50"]


def test_the_first_round_and_the_game_s_end_build_the_table_view_anew(store):
    """Round 1 brings the chart; at the end the page moves on (on /table, to the next game in
    progress): both change what the page holds, so the caller shows the page anew."""
    app, page, _messages, game, _session = followed_table(store, 0, "/table/{game}")
    assert find_all(page.views[-1], "table-chart") == []
    assert text(find(page.views[-1], "table-chart-to-come")) == "The chart starts after the first round."  # its place not left blank
    first = store.add_round(game.id, bever_totals(Ann=5, Bob=7), expected_version=game.version)
    assert app.follow(first) is None
    app.show(f"/table/{game.id}")  # as the session does then
    second = store.add_round(game.id, bever_totals(Ann=5, Bob=7), expected_version=first.version)
    assert find(page.views[-1], "table-chart") and app.follow(second) is not None
    assert find_all(page.views[-1], "table-chart-to-come") == []
    assert app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=7), expected_version=second.version)) is None  # won


def test_the_newest_game_s_table_view_is_left_as_it_is_by_older_games_and_moves_to_a_newer_one(store):
    """``/table`` shows the newest game in progress: at a club, a TV there is not built anew
    at every other table's save; a game started later takes its place."""
    older = store.create_game("beverbende", ["Cas", "Dee"], options={"ending": "rounds", "rounds": 3})
    app, page, messages, game, _session = followed_table(store, 1)
    view = page.views[-1]
    assert find_all(view, "table-total-Ann")
    assert app.follow(store.add_round(older.id, bever_totals(Cas=10, Dee=20), expected_version=older.version)) is not None
    assert page.views[-1] is view and messages == []  # the page as it was, nothing sent
    newer = store.create_game("beverbende", ["Eve", "Fox"], options={"ending": "rounds", "rounds": 3})
    assert app.follow(newer) is None  # the page is built anew, for the newer game
    app.show("/table")  # as the session does then
    assert find_all(page.views[-1], "table-total-Eve")


@pytest.mark.parametrize(
    "names, size",
    [
        (["Ann", "Bob"], NAME_SIZE),
        (["Wilhelmina van der Berghe", "Ann"], NAME_SIZE),  # no word over ten letters: whole at the large size
        (["Bartholomeus Vanderzande", "Ann"], 27.7),  # twelve letters, and Ann at that size too
        (["Wilhelmina-Josephine"], NAME_SIZE),  # a hyphen breaks it
        (["Maximiliansgesellschaft"], 24),  # never smaller than this
    ],
)
def test_a_name_with_a_word_too_long_for_a_phones_line_sets_the_names_smaller_so_that_it_breaks_between_words(names, size):
    assert names_size(names) == size


def test_the_table_view_sets_every_name_at_one_size(store):
    game = store.create_game("beverbende", ["Ann", "Bartholomeus"])
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go(f"/table/{game.id}")
    assert [total.name.size for total in follower_of(page.views[-1]).totals] == [27.7, 27.7]

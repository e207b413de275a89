"""A scoreboard that follows changes saved on another device: the change arrives as the few
controls that changed, on the controls the page already shows (a tap is never lost to a
rebuilt page), and the board ends on exactly what the store holds."""

from __future__ import annotations

import gc
import tracemalloc
from types import SimpleNamespace

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.share.feed import Derived
from companion.share.table import Device, Role
from companion.ui.chart import CHART_POINTS, drawn_rounds
from companion.ui.round_entry.drafts import Drafts
from companion.ui.scoreboard import SHOWN_ROUNDS, GameScreen, ScoreboardState
from companion.ui import scoreboard, share_panel, widgets
from companion.ui.new_game import seat_teams
from companion.ui.routes import Page, Route
from companion.ui.synced import unsent
from companion.ui.widgets import Stowed
from tests.ui.conftest import bever_totals
from tests.ui.tree import ENCODE, find, find_all, served_app, shown, tap, text, walk


class App:
    """What the game screen needs of the app shell: navigation, the theme, a device that
    scores and its drafts."""

    dark = False
    page = None
    device = Device.this_machine()

    def __init__(self) -> None:
        self.drafts = Drafts()

    def go(self, route: str) -> None:
        pass


def board(store, game_id: int) -> GameScreen:
    state = ScoreboardState(store, game_id)
    state.load()
    screen = GameScreen(App(), state, f"/game/{game_id}")
    screen.show_board(f"/game/{game_id}")
    return screen


def controls(screen: GameScreen) -> set[int]:
    return {id(c) for c in walk(screen.view)}


def test_the_board_shown_again_after_the_form_is_titled_with_the_game_not_the_round(store):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    screen = board(store, game.id)
    screen.show_entry(f"/game/{game.id}/round", None)
    assert screen.view.appbar.title.value == "Round 1"
    screen.show_board(f"/game/{game.id}")
    assert screen.view.appbar.title.value == screen.state.title


def test_a_round_saved_elsewhere_changes_the_totals_and_adds_its_row_in_place(store):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    first = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    screen = board(store, game.id)
    enter, undo, row_1, total = (find(screen.view, i) for i in ("enter-round", "undo", "round-1", "total-Ann"))
    before = controls(screen)

    screen.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=1), expected_version=first.version))

    assert [find(screen.view, i) for i in ("enter-round", "undo", "round-1", "total-Ann")] == [enter, undo, row_1, total]
    assert "17" in text(find(screen.view, "total-Ann")) and "21" in text(find(screen.view, "total-Bob"))
    assert "Enter round 3" in text(enter)
    assert "5" in text(find(screen.view, "round-2"))
    added = controls(screen) - before
    assert len(added) < len(before) / 3  # the new row and points, not a new page


def test_an_undo_elsewhere_takes_the_last_row_away_and_keeps_the_others(store):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    record = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    record = store.add_round(game.id, bever_totals(Ann=3, Bob=4), expected_version=record.version)
    screen = board(store, game.id)
    row_1 = find(screen.view, "round-1")
    screen.follow(store.undo_round(game.id, expected_version=record.version))
    assert find(screen.view, "round-1") is row_1 and find_all(screen.view, "round-2") == []
    assert "12" in text(find(screen.view, "total-Ann"))


def test_the_winning_round_saved_elsewhere_shows_the_winner(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 1})
    screen = board(store, game.id)
    screen.follow(store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version))
    assert "Ann wins!" in text(find(screen.view, "winner-banner"))
    assert find_all(screen.view, "enter-round") == []


CHANGES = st.lists(st.sampled_from(["add", "edit", "undo"]), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=CHANGES, points=st.lists(st.integers(12, 30), min_size=24, max_size=24), length=st.sampled_from([3, 30]))
def test_a_board_that_follows_every_change_ends_on_exactly_what_a_fresh_board_shows(store, changes, points, length):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": length})
    screen = board(store, game.id)
    shown_in_a_browser(screen)
    record = store.open_game(game.id)
    for i, change in enumerate(changes):
        entry = bever_totals(Ann=points[2 * i], Bob=points[2 * i + 1])
        if change == "add" and not record.game.over:  # a game of 3 rounds ends: "add" then undoes its final round
            record = store.add_round(game.id, entry, expected_version=record.version)
        elif record.game.rounds and change == "edit":
            record = store.edit_round(game.id, 0, entry, expected_version=record.version)
        elif record.game.rounds:
            record = store.undo_round(game.id, expected_version=record.version)
        sent(screen.follow(record))
    assert text(screen.view) == text(board(store, game.id).view)
    assert unsent(screen.view) == []  # and the browser was sent all of it


def test_a_row_filled_in_again_opens_its_own_round_for_a_correction(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    screen = board(store, game.id)  # this machine keeps score: its rows can be tapped
    follow_rounds(store, screen, game.id, SHOWN_ROUNDS + 3)
    opened: list[str] = []
    screen.app.go = opened.append
    tap(screen.view, f"round-{SHOWN_ROUNDS + 3}")  # the row that showed round 3
    assert opened == [Route(Page.CORRECTION, game_id=game.id, round=SHOWN_ROUNDS + 2).path]


def test_the_row_a_new_round_scrolls_out_is_filled_in_again_for_it_and_sent(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": SHOWN_ROUNDS + 5})  # the last round wins
    screen = board(store, game.id)
    shown_in_a_browser(screen)
    record = store.open_game(game.id)
    rows: set[int] = set()
    for n in range(1, SHOWN_ROUNDS + 6):
        record = store.add_round(game.id, bever_totals(Ann=n, Bob=20 + n), expected_version=record.version)
        sent(screen.follow(record))
        assert unsent(screen.view) == []
        rows |= {id(find(screen.view, f"round-{n}"))}
    assert len(rows) == SHOWN_ROUNDS  # rounds 11 to 15 took the rows of rounds 1 to 5
    assert text(find(screen.view, f"round-{SHOWN_ROUNDS + 5}")).split() == ["15", "15", str(sum(range(16))), "35", str(sum(range(21, 36)))]
    for change in (lambda v: store.edit_round(game.id, SHOWN_ROUNDS + 2, bever_totals(Ann=3, Bob=4), expected_version=v), lambda v: store.undo_round(game.id, expected_version=v)):
        record = change(record.version)
        sent(screen.follow(record))
        assert unsent(screen.view) == []
    assert text(screen.view) == text(board(store, game.id).view)


def test_the_game_pages_app_bar_keeps_its_buttons_between_the_scoreboard_and_the_form(store, monkeypatch):
    """Entering a round and saving it show or hide the app bar's buttons and relabel its back
    arrow and title: no button leaves the page or comes onto it, which Flet walks whole."""
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 5})
    screen = board(store, game.id)
    bar = screen.view.appbar
    kept = [id(c) for c in (bar.leading, bar.title, *bar.actions)]

    def shown() -> list[str]:
        return [bar.leading.identifier, *(a.identifier for a in bar.actions if a.visible)]

    assert shown() == ["back", "game-rules", "game-referee"]  # no table shared: no share button; no theme switch
    screen.show_entry(f"/game/{game.id}/round", None)
    assert shown() == ["entry-back", "theme-switch"] and bar.title.value == "Round 1"
    watcher = Device(number=3, key="k", browser="", system="", role=Role.VIEWER)
    monkeypatch.setattr(screen.app, "device", watcher)
    monkeypatch.setattr(share_panel, "current_table", lambda: object())  # a table is shared now, this device watches it
    screen.show_board(f"/game/{game.id}")
    assert shown() == ["back", "share", "game-rules", "game-referee"]
    assert bar.actions[0].content.tooltip == "You watch this shared table"
    assert [id(c) for c in (bar.leading, bar.title, *bar.actions)] == kept


def test_the_scorers_own_save_fills_in_the_row_that_scrolls_out_and_sends_it(store):
    """On the scorer's own page too, a round past the tenth takes the row that scrolls out,
    and the row is sent with its new words (a row is isolated: the page's update does not)."""
    from companion.ui.router import App as Shell

    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go(f"/game/{game.id}")
    rows: set[int] = set()
    for n in range(1, SHOWN_ROUNDS + 4):
        app.go(f"/game/{game.id}/round")
        for key in "1111" + "2222":
            tap(page.views[-1], f"entry-key-{key}")
        tap(page.views[-1], "entry-save")
        assert unsent(page.views[-1]) == []
        rows |= {id(find(page.views[-1], f"round-{n}"))}
    assert len(rows) == SHOWN_ROUNDS  # rounds 11 to 13 took the rows of rounds 1 to 3
    assert text(find(page.views[-1], f"round-{SHOWN_ROUNDS + 3}")).split()[:3] == ["13", "4", "52"]  # Ann's 1+1+1+1 over 13 rounds of 4


def followed_board(store, rounds: int, route: str = "/game/{game}", length: int = 30):
    """A game of ``length`` rounds, ``rounds`` of them played, on a page that shows its board
    (or ``route``) as a browser has it: its app shell, its page, the messages sent to the
    browser from now on, the game."""
    from companion.ui.router import App as Shell

    messages: list = []
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": length})
    for _ in range(rounds):
        game = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    app, page, session = served_app(lambda page: Shell(page, store), messages)
    app.go(route.format(game=game.id))
    messages.clear()
    return app, page, messages, game, session


def test_a_followed_change_sends_the_top_of_the_board_at_once_and_leaves_the_rows_and_chart_for_a_later_turn(store):
    """Every device of the process gets the totals of a change before any device gets its
    rows and chart (session.in_two_turns): the app sends the top and hands back the rest."""
    app, page, messages, game, _session = followed_board(store, 2)
    rest = app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=game.version))
    assert rest is not None and len(messages) == 1  # the top of the board, in one message
    assert "29" in text(find(page.views[-1], "total-Ann")).split()  # 12 + 12 + 5
    waiting = unsent(page.views[-1])
    chart = app.games[game.id]._board.chart.chart
    assert any(find_all(c, "round-3") for c in waiting)  # the new row
    assert any(any(shown is chart for shown in walk(c)) for c in waiting)
    assert not any(find_all(c, "total-Ann") for c in waiting)
    rest()
    assert len(messages) == 2 and unsent(page.views[-1]) == []  # the rest, in one message


def test_round_1_sends_the_new_totals_and_buttons_at_once_and_the_table_and_chart_in_the_later_turn(store):
    """Round 1 changes the board's layout (the table and chart come in place of "No rounds
    yet", Undo comes): every device still gets its totals before any device gets what was
    played (``widgets.sent_after``)."""
    app, page, messages, game, _session = followed_board(store, 0)
    first = store.add_round(game.id, bever_totals(Ann=5, Bob=7), expected_version=game.version)
    rest = app.follow(first)
    assert rest is not None and len(messages) == 1
    view = page.views[-1]
    waiting = unsent(view)
    chart = app.games[game.id]._board.chart.chart
    assert any(find_all(c, "round-1") for c in waiting) and any(any(shown is chart for shown in walk(c)) for c in waiting)
    assert not any(find_all(c, "total-Ann") or find_all(c, "undo") for c in waiting)
    rest()
    assert len(messages) == 2 and unsent(view) == []
    app.follow(store.undo_round(game.id, expected_version=first.version))  # "No rounds yet" comes back with the rest, in one message
    assert len(messages) == 3 and unsent(view) == [] and find_all(view, "round-1") == []


def test_the_last_round_sends_the_winners_banner_with_its_row_and_chart_in_one_message(store):
    """Sent after the banner, in a frame of their own, the row and the chart made the banner
    itself reach the last of 100 devices later (docs/sharing.md, "What was played, after
    the top")."""
    app, page, messages, game, _session = followed_board(store, 29)  # of 30 rounds
    rest = app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=7), expected_version=game.version))
    assert rest is not None and len(messages) == 1 and unsent(page.views[-1]) == []
    assert shown(page.views[-1], "winner-banner") and find_all(page.views[-1], "round-30")


@pytest.mark.parametrize("played", [0, 2])
def test_the_rest_of_a_followed_change_waits_for_the_board_when_the_page_has_left_it(store, played):
    """A device that left the board before its turn for the rows and chart came (its rules,
    a round's form) gets them when the board shows again, compared whole."""
    app, page, messages, game, _session = followed_board(store, played)
    rest = app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=game.version))
    assert rest is not None
    app.go(f"/game/{game.id}/round")
    messages.clear()
    rest()
    assert messages == []
    app.go(f"/game/{game.id}")
    row = text(find(page.views[-1], f"round-{played + 1}")).split()[:3]
    assert unsent(page.views[-1]) == [] and row == [str(played + 1), "5", str(12 * played + 5)]


def test_the_rest_of_a_followed_change_goes_nowhere_once_the_page_has_gone(store):
    """A page that went for good between its two turns (Flet forgot its session) is sent
    nothing, and nothing fails."""
    app, _page, messages, game, session = followed_board(store, 2)
    rest = app.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=game.version))
    assert rest is not None
    del session
    gc.collect()
    rest()
    assert len(messages) == 1  # the top alone


def test_a_change_to_a_game_the_page_does_not_show_is_not_followed(store):
    app, _page, messages, game, _session = followed_board(store, 1)
    other = store.create_game("beverbende", ["Cy", "Di"])
    assert app.follow(store.add_round(other.id, bever_totals(Cy=5, Di=5), expected_version=other.version)) is None
    assert messages == []


def test_the_next_round_is_entered_in_the_form_the_last_one_was(store):
    """Enter round shows the form the last round was entered in, kept hidden under the
    scoreboard and filled in for the next round: its hundreds of controls do not come onto
    the page again. A correction has a form of its own, over the kept one."""
    from companion.ui.router import App as Shell

    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 9})
    app, page, _session = served_app(lambda page: Shell(page, store))

    def forms() -> list[ft.Control]:
        """The forms on the game page, each in its wrapper, shown or hidden (under the
        scoreboard, the page's first control, kept in a wrapper of the same kind)."""
        _board, *rest = page.views[-1].controls
        return [c for c in rest if isinstance(c, Stowed)]

    def same(found: list[ft.Control], expected: list[ft.Control]) -> bool:
        return [id(c) for c in found] == [id(c) for c in expected]  # not ==: a control equals any with the same fields

    app.go(f"/game/{game.id}")
    app.go(f"/game/{game.id}/round")
    [kept] = forms()
    form = kept.content
    for key in "1111" + "2222":
        tap(form, f"entry-key-{key}")
    tap(form, "entry-save")
    assert same(forms(), [kept]) and not kept.visible  # hidden under the board
    assert text(find(page.views[-1], "round-1")).split()[:3] == ["1", "4", "4"]
    assert unsent(page.views[-1]) == []  # the board, hidden under the form while it showed, went with what the round changed
    app.go(f"/game/{game.id}/round/0")  # a correction of round 1
    [correction] = [c.content for c in forms() if c.visible]
    assert correction is not form and same(forms()[:1], [kept]) and text(correction).startswith("Edit round 1")
    tap(correction, "entry-cancel")
    assert unsent(page.views[-1]) == []
    app.go(f"/game/{game.id}/round")
    assert same(forms(), [kept]) and kept.visible
    assert unsent(page.views[-1]) == []  # the next round's words were sent with it
    assert text(form).startswith("Round 2") and text(find(form, "bever-card-Ann-0")) == "" and find(form, "entry-save").disabled
    for key in "3333" + "0000":
        tap(form, f"entry-key-{key}")
    tap(form, "entry-save")
    assert text(find(page.views[-1], "total-Ann")).split()[-1] == "16"  # 4 + 12: the kept form saved round 2 as typed


def follow_rounds(store, screen: GameScreen, game_id: int, count: int) -> None:
    record = store.open_game(game_id)
    for _ in range(count):
        record = store.add_round(game_id, bever_totals(Ann=12, Bob=20), expected_version=record.version)
        screen.follow(record)


def chart_points(screen: GameScreen) -> int:
    return sum(len(line.points) for line in screen._board.chart.lines)


def test_a_page_watching_a_long_game_does_not_grow_with_its_rounds(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    screen = board(store, game.id)
    follow_rounds(store, screen, game.id, CHART_POINTS)
    size, points = len(controls(screen)), chart_points(screen)
    follow_rounds(store, screen, game.id, 130)
    assert len(controls(screen)) == size
    assert chart_points(screen) <= points
    assert str(12 * (CHART_POINTS + 130)) in text(find(screen.view, "total-Ann"))  # the totals still follow every round


def test_following_a_long_game_takes_no_more_memory_after_its_first_rounds(store, monkeypatch):
    """A device's memory on the server does not grow with the rounds it has watched, nor does
    what the process shares between devices: traced over 80 rounds, after the table and
    the chart filled up, three devices' pages grow by little more than the game's own record."""
    monkeypatch.setattr(scoreboard, "derived", Derived())
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    screens = [board(store, game.id) for _ in range(3)]
    for screen in screens:
        shown_in_a_browser(screen)
    record = store.open_game(game.id)

    def play(rounds: int) -> int:
        """Memory in use after ``rounds`` more rounds followed by every device."""
        nonlocal record
        for n in range(rounds):
            record = store.add_round(game.id, bever_totals(Ann=12 + n % 7, Bob=20 + n % 5), expected_version=record.version)
            for screen in screens:
                sent(screen.follow(record))
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    play(CHART_POINTS + SHOWN_ROUNDS)
    tracemalloc.start()
    try:
        before = play(20)
        grown = play(80) - before
    finally:
        tracemalloc.stop()
    assert grown < 80 * 8 * 1024  # the game's own record, its rounds and their times, about 4 KiB a round; each older version's derived rows and chart were kept too, 40 KiB a round


def test_a_long_game_lists_its_last_rounds_and_every_round_when_asked(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 30})
    screen = board(store, game.id)
    follow_rounds(store, screen, game.id, SHOWN_ROUNDS + 5)
    listed = [n for n in range(1, SHOWN_ROUNDS + 6) if find_all(screen.view, f"round-{n}")]
    assert listed == list(range(6, SHOWN_ROUNDS + 6))
    assert f"Show all {SHOWN_ROUNDS + 5} rounds" in text(find(screen.view, "all-rounds"))
    tap(screen.view, "all-rounds")
    assert all(find_all(screen.view, f"round-{n}") for n in range(1, SHOWN_ROUNDS + 6))
    assert "Show all" not in text(screen.view)


@given(rounds=st.integers(0, 2000))
def test_a_chart_line_draws_the_start_and_the_latest_round_and_never_more_than_its_cap(rounds):
    drawn = drawn_rounds(rounds)
    assert drawn[0] == 0 and drawn[-1] == rounds
    assert drawn == sorted(set(drawn))
    assert len(drawn) <= CHART_POINTS + 1
    assert rounds > CHART_POINTS or drawn == list(range(rounds + 1))  # a short game draws every round


def shown_in_a_browser(screen: GameScreen) -> None:
    """The page sent to a browser as Flet sends a new page: added to what the browser shows
    (Flet notes what it sent, to send only changes later)."""
    shown = ft.Column()
    msgpack.packb(shown, default=ENCODE)
    shown.controls.append(screen.view)
    sent([shown])


def sent(controls) -> bytes:
    """What Flet sends a browser for ``controls`` (or for the groups of them a board's
    ``follow`` returns): their changes since they were last sent."""
    out = b""
    for control in flat(controls):
        patch, _added, _removed = ObjectPatch.from_diff(control, control, control_cls=BaseControl)
        out += msgpack.packb(patch.to_message(), default=ENCODE)
    return out


def flat(parts) -> list[ft.Control]:
    """Controls, given as they are or in the groups (messages) a board's ``follow`` returns."""
    return [control for part in parts for control in (part if isinstance(part, list) else [part])]


def test_a_rounds_row_shows_each_sides_points_over_its_running_total(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 5})
    first = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=first.version)
    assert text(find(board(store, game.id).view, "round-2")).split() == ["2", "5", "17", "5", "25"]  # the number; Ann's 5 over 17; Bob's 5 over 25


def test_a_round_saved_elsewhere_sends_its_new_points_and_not_every_drawn_point_again(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 30})
    screen = board(store, game.id)
    follow_rounds(store, screen, game.id, 5)  # Ann 12, 24, ... 60
    shown_in_a_browser(screen)
    record = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=store.open_game(game.id).version)
    update = sent(screen.follow(record))
    assert b"Ann: 72" in update and b"Ann 72" in update  # the new point's tooltip, the new total
    assert not any(f"Ann: {12 * n}".encode() in update for n in range(6))  # the points drawn before stay as they are


def test_a_round_saved_elsewhere_sends_the_enter_buttons_new_words_and_not_its_look_again(store):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    first = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    screen = board(store, game.id)
    shown_in_a_browser(screen)
    parts = screen.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=first.version))
    button = find(screen.view, "enter-round")
    assert button in flat(parts)
    update = sent([button])
    assert b"Enter round 3" in update and b"\xa5style" not in update  # no "style": Flet's copy of it stays at home


def test_the_round_that_thins_a_long_games_chart_sends_its_new_point_and_no_point_drawn_before(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    screen = board(store, game.id)
    follow_rounds(store, screen, game.id, 2 * CHART_POINTS)  # Ann 12, 24, ... every second round drawn
    shown_in_a_browser(screen)
    record = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=store.open_game(game.id).version)
    update = sent(screen.follow(record))
    latest = 12 * (2 * CHART_POINTS + 1)
    assert f"Ann: {latest}".encode() in update  # the new round's point
    assert not any(f"Ann: {12 * n}".encode() in update for n in range(1, 2 * CHART_POINTS + 1))  # every fourth round stays drawn, the others go


def test_a_change_that_keeps_the_boards_layout_sends_its_parts_and_not_the_page(store):
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 3})
    first = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    screen = board(store, game.id)
    parts = screen.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=first.version))
    assert screen.view not in flat(parts) and any(find_all(part, "total-Ann") for part in flat(parts))


def test_the_top_of_the_board_goes_first_in_a_message_of_its_own_and_the_rest_together_after_it(store):
    """The totals every phone shows at the top are drawn in a small frame the moment they
    arrive; the table, a row filled in again and the chart follow in one message, one frame."""
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 200})
    screen = board(store, game.id)
    follow_rounds(store, screen, game.id, SHOWN_ROUNDS)
    shown_in_a_browser(screen)
    groups = screen.follow(store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=store.open_game(game.id).version))
    top, below = groups
    assert find_all(top[0], "total-Ann") and find(screen.view, "enter-round") in top
    assert [part.identifier for part in below if isinstance(part, ft.Semantics)] == [f"round-{SHOWN_ROUNDS + 1}"]  # the row of round 1, filled in again for round 11
    assert screen._board.chart.chart in below
    assert not any(find_all(part, "total-Ann") for part in below)


def test_the_first_round_and_its_undo_keep_the_totals_and_show_or_hide_the_table_and_chart(store):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    screen = board(store, game.id)
    shown_in_a_browser(screen)
    total = find(screen.view, "total-Ann")

    first = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    update = sent(screen.follow(first))
    assert find(screen.view, "total-Ann") is total and b"round-1" in update
    assert b"score-chart" not in update  # sent hidden with the board, shown now
    assert text(screen.view) == text(board(store, game.id).view)

    screen.follow(store.undo_round(game.id, expected_version=first.version))
    assert find(screen.view, "total-Ann") is total and find_all(screen.view, "round-1") == []
    assert text(screen.view) == text(board(store, game.id).view)
    again = store.add_round(game.id, bever_totals(Ann=3, Bob=4), expected_version=store.open_game(game.id).version)
    screen.follow(again)
    assert "3" in text(find(screen.view, "round-1")) and text(screen.view) == text(board(store, game.id).view)


def drawn_out_of_sight(screen: GameScreen) -> list[ft.Container]:
    """What the board draws where no one sees it: nearly transparent, taking no taps."""
    return [c for c in walk(screen.view) if isinstance(c, ft.Container) and c.ignore_interactions and c.opacity < 0.05]


def test_before_round_1_the_board_draws_what_comes_later_out_of_sight_and_round_1_takes_it_away(store):
    """Round 1 is the first time a page draws a round's row and the chart's lines, round 11
    its Show all button, the last round the banner, the Winner pill and Send to BG Stats:
    the first time costs a browser the most, and drawn before, that is not at a save on every
    device at once (``scoreboard.drawn_before``)."""
    game = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Di"], teams=seat_teams(["Ann", "Bob", "Cy", "Di"], 2))
    screen = board(store, game.id)
    (under,) = drawn_out_of_sight(screen)
    assert isinstance(under.content, ft.Semantics) and under.content.exclude_semantics  # nothing for the screen reader
    (chart,) = [c for c in walk(under) if type(c).__name__ == "LineChart"]
    assert [len(line.points) for line in chart.data_series] == [2, 2]  # a line for each team, of one segment
    assert "Ann & Cy" in text(under) and "0" in text(under)  # the legend and a row of scores
    assert all(words in text(under) for words in ("Show all 11 rounds", "Winner", "Send to BG Stats"))
    (banner,) = [c for c in walk(under) if isinstance(c, ft.Semantics) and c.live_region]
    assert banner.visible and "Ann & Cy" in text(banner)  # the end's banner, in its lettering
    assert find_all(screen.view, "round-1") == [] and len(find_all(screen.view, "score-chart")) == 1  # the board's own, hidden
    assert [len(find_all(screen.view, i)) for i in ("winner-banner", "send-bgstats", "all-rounds")] == [1, 1, 1]  # the board's own
    assert not any(shown(screen.view, i) for i in ("winner-banner", "send-bgstats", "all-rounds"))

    screen.follow(store.add_round(game.id, {"card_points": {"Ann & Cy": 100, "Bob & Di": 62}, "pit": None, "verzaakt": None}, expected_version=game.version))
    assert drawn_out_of_sight(screen) == [] and len(find_all(screen.view, "round-1")) == 1


def test_the_final_round_and_its_undo_keep_the_board_and_its_banner_and_swap_only_the_buttons(store):
    """The banner and Send to BG Stats are built hidden with the board: the game's end sends
    their words, not their controls (``EndBanner``)."""
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 3})
    record = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    record = store.add_round(game.id, bever_totals(Ann=5, Bob=5), expected_version=record.version)
    screen = board(store, game.id)
    shown_in_a_browser(screen)
    tags = ("total-Ann", "round-1", "round-2", "game-dates", "edit-details", "winner-banner", "send-bgstats")
    kept = [find(screen.view, i) for i in tags]
    assert not shown(screen.view, "winner-banner") and not shown(screen.view, "send-bgstats")

    final = store.add_round(game.id, bever_totals(Ann=10, Bob=12), expected_version=record.version)
    ended = screen.follow(final)
    update = sent(ended)
    assert screen.view not in flat(ended) and widgets.app_bar(screen.view) not in flat(ended)  # its title stays: not compared
    assert [find(screen.view, i) for i in tags] == kept
    assert "finished" in text(find(screen.view, "game-dates")) and b"edit-details" not in update  # the date changes in place
    assert b"Ann wins!" in update and b"winner-banner" not in update and b"send-bgstats" not in update  # their words, not their controls
    assert b"play-again" in update and b"round-3" in update
    assert b"round-1" not in update and b"round-2" not in update  # the rows shown before are not sent again
    assert shown(screen.view, "winner-banner") and shown(screen.view, "send-bgstats") and not shown(screen.view, "enter-round")
    assert "Ann wins!" in text(find(screen.view, "winner-banner"))
    assert text(screen.view) == text(board(store, game.id).view)

    reopened = screen.follow(store.undo_round(game.id, expected_version=final.version))
    assert screen.view not in flat(reopened)
    assert [find(screen.view, i) for i in tags] == kept
    assert not shown(screen.view, "winner-banner") and not shown(screen.view, "send-bgstats")
    assert "Enter round 3" in text(find(screen.view, "enter-round"))
    assert text(screen.view) == text(board(store, game.id).view)


def count_derivations(monkeypatch) -> list[int]:
    """How many times a scoreboard derived the rounds' rows from a record."""
    counted = []
    derive = ScoreboardState._rounds

    def counting(self):
        counted.append(self.loaded.version)
        return derive(self)

    monkeypatch.setattr(ScoreboardState, "_rounds", counting)
    return counted


def test_the_sessions_that_show_one_record_derive_its_board_once_per_language(store, monkeypatch):
    monkeypatch.setattr(scoreboard, "derived", Derived())
    game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 30})
    screens = [board(store, game.id) for _ in range(3)]
    counted = count_derivations(monkeypatch)
    record = store.add_round(game.id, bever_totals(Ann=12, Bob=20), expected_version=game.version)
    for screen in screens:
        screen.follow(record)
    assert counted == [record.version]
    with i18n.speaking("nl"):
        counted.clear()
        dutch = board(store, game.id)  # the same version, read from the store
        dutch.follow(record)
        assert counted == [record.version]  # its words are Dutch: derived anew, once
        assert text(dutch.view) == text(board(store, game.id).view)
    assert all(text(screen.view) == text(screens[0].view) for screen in screens)


def test_the_derived_boards_kept_are_bounded_and_the_oldest_goes_first():
    derived = Derived(kept=2)
    records = [SimpleNamespace(id=game, version=1) for game in (1, 2, 3)]
    calls = []
    for record in [*records, records[-1]]:
        derived.get("db", record, "en", "rows", lambda r=record: calls.append(r))
    assert calls == records  # the last one was known
    derived.get("db", records[0], "en", "rows", lambda: calls.append(records[0]))
    assert calls == [*records, records[0]]  # the first one had gone


def test_only_a_games_newest_version_keeps_its_derived_board():
    """A game's older versions' read-outs go when a newer one is derived: they are as long
    as the game, and kept one per round they made the server's memory grow with the rounds."""
    derived = Derived()
    calls = []

    def get(version: int) -> None:
        derived.get("db", SimpleNamespace(id=1, version=version), "en", "rows", lambda: calls.append(version))

    get(1), get(2), get(2)
    assert calls == [1, 2] and len(derived._known) == 1
    get(1), get(1)  # a session that has not followed yet: derived for it, the newest stays
    assert calls == [1, 2, 1, 1]
    get(2)
    assert calls == [1, 2, 1, 1]
    derived.get("other.db", SimpleNamespace(id=1, version=2), "en", "rows", lambda: calls.append(0))
    assert calls == [1, 2, 1, 1, 0]  # game 1 of another database is another game




@pytest.mark.parametrize("played", [2, SHOWN_ROUNDS + 1])
def test_a_round_saved_on_this_device_sends_the_board_s_parts_in_one_message_and_compares_none_of_its_other_controls(store, monkeypatch, played):
    """The board comes back from under the form as a followed change comes: the page is
    compared with the board held, and the parts the round changed go with it (past
    SHOWN_ROUNDS, the row scrolled out is filled in again for the new round)."""
    from flet.controls.object_patch import DiffBuilder

    app, page, messages, game, _session = followed_board(store, played)
    app.go(f"/game/{game.id}/round")
    view = page.views[-1]
    form = next(c.content for c in view.controls[1:] if isinstance(c, Stowed) and c.visible)
    compared: set[int] = set()
    compare = DiffBuilder._compare_dataclasses

    def noted(builder, parent, path, src, dst, frozen):
        compared.update((id(parent), id(dst)))
        return compare(builder, parent, path, src, dst, frozen)

    monkeypatch.setattr(DiffBuilder, "_compare_dataclasses", noted)
    for key in "5555" + "6666":
        tap(form, f"entry-key-{key}")
    messages.clear()
    compared.clear()
    tap(form, "entry-save")
    assert len(messages) == 1 and unsent(view) == []
    assert text(find(view, f"round-{played + 1}")).split()[:3] == [str(played + 1), "20", str(12 * played + 20)]
    assert text(find(view, "total-Bob")).split() == ["Bob", str(20 * played + 24)]
    board = app.games[game.id]._board
    assert id(board.totals) in compared and id(find(view, "abandon")) not in compared


def test_a_second_tap_on_save_or_play_again_sent_before_the_first_one_s_answer_showed_does_nothing(store):
    """A double tap on a phone sends two taps before the first one's page has come: the
    round is saved once, and Play again starts one game."""
    app, page, _messages, game, _session = followed_board(store, 2, length=4)
    for rounds in (3, 4):  # the last one ends the game
        app.go(f"/game/{game.id}/round")
        form = next(c.content for c in page.views[-1].controls[1:] if isinstance(c, Stowed) and c.visible)
        for key in "5555" + "6666":
            tap(form, f"entry-key-{key}")
        save = find(form, "entry-save")
        save.on_click(None)
        save.on_click(None)
        assert len(store.open_game(game.id).game.rounds) == rounds
    again = find(page.views[-1], "play-again")
    again.on_click()
    again.on_click()
    assert [summary.id for summary in store.in_progress()] == [game.id + 1]


def test_a_double_tap_on_undo_takes_back_two_rounds_and_redo_offers_each_back_in_turn(store):
    app, page, _messages, game, _session = followed_board(store, 3)
    told: list = []
    app.notify = lambda message, action=None, on_action=None: told.append((message, action, on_action))  # type: ignore[method-assign]
    undo = find(page.views[-1], "undo")
    undo.on_click()
    undo.on_click()
    assert len(store.open_game(game.id).game.rounds) == 1
    assert [(message, action) for message, action, _redo in told] == [("Round 3 undone.", "Redo"), ("Round 2 undone.", "Redo")]
    told[-1][2]()  # Redo: round 2 back, and round 3 offered
    assert len(store.open_game(game.id).game.rounds) == 2 and told[-1][:2] == ("Round 3 undone.", "Redo")
    told[-1][2]()
    assert len(store.open_game(game.id).game.rounds) == 3 and len(told) == 3
    assert text(find(page.views[-1], "round-3")).split()[:3] == ["3", "12", "36"]


def test_a_forms_word_that_the_database_does_not_answer_goes_when_it_answers_again_the_round_kept(store, monkeypatch):
    """A club's database away as a round is saved: the form says so and keeps the round.
    When the process hears the database again, the form says so no more (the player knows
    to tap Save again), and the round saves as typed; the word goes only then."""
    from companion.store.errors import UnreachableError
    from companion.ui.router import App as Shell

    game = store.create_game("beverbende", ["Ann", "Bob"])
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go(f"/game/{game.id}/round")
    for key in "1111" + "2222":
        tap(page.views[-1], f"entry-key-{key}")
    added = store.add_round

    def away(*args, **kwargs):
        raise UnreachableError("db.club.example", "connection timeout expired")

    monkeypatch.setattr(store, "add_round", away)
    tap(page.views[-1], "entry-save")
    assert text(find(page.views[-1], "error")) == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(store, "add_round", added)
    app.database_answers()
    assert not shown(page.views[-1], "error") and unsent(page.views[-1]) == []
    tap(page.views[-1], "entry-save")
    assert text(find(page.views[-1], "total-Ann")).split()[:2] == ["Ann", "4"]


def test_a_forms_other_refusals_stay_when_the_database_answers(store, monkeypatch):
    """Only the word that the database did not answer goes when it answers: a refusal of the
    round itself still stands."""
    from companion.rules.base import RuleError
    from companion.ui.router import App as Shell

    game = store.create_game("beverbende", ["Ann", "Bob"])
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go(f"/game/{game.id}/round")
    for key in "1111" + "2222":
        tap(page.views[-1], f"entry-key-{key}")

    def refused(*args, **kwargs):
        raise RuleError("A round needs every card of every player.")

    monkeypatch.setattr(store, "add_round", refused)
    tap(page.views[-1], "entry-save")
    app.database_answers()
    assert text(find(page.views[-1], "error")) == "A round needs every card of every player."

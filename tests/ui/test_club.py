"""The club evening screens (issue 17) driven without a browser: the organiser creates an
evening, draws, the tables' games feed the ranking, prizes show once every table finished."""

from __future__ import annotations

from typing import Callable

import flet as ft
import pytest

from companion.share.live import EveningChanged, LiveStore
from companion.share.codes import grouped
from companion.share.table import Device, Invitation, Role, Table
from companion.store.club import Evenings, result_csv, result_html, result_json
from companion.ui import club
from companion.ui.router import App as Session
from companion.ui.synced import unsent
from tests.ui.conftest import play
from tests.ui.tree import find, find_all, served_app, tap, text

NINE = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


class Page:
    def __init__(self) -> None:
        self.tasks: list[tuple] = []
        self.views: list[ft.View] = []  # the pages shown, the top one last

    def update(self) -> None:
        pass

    def run_task(self, handler, *args) -> None:
        self.tasks.append((handler.__name__, *args))


class App:
    """What the screens need of the app shell: a session's store, its device, navigation."""

    dark = False

    def __init__(self, store, device: Device | None = None):
        self.device = device or Device.this_machine()
        self.announced: list = []
        self.store = LiveStore(store, self.device, self.announced.append, seated=lambda _device: True)
        self.page = Page()
        self.went: list[str] = []

    def go(self, route: str) -> None:
        self.went.append(route)


def type_into(view: ft.View, identifier: str, value: str) -> None:
    field = find(view, identifier)
    field.value = value
    field.on_change(type("Event", (), {"control": field})())


def boompje(store, game_id: int, deals: int = 16) -> None:
    """``deals`` of the 16 deals where the first team plays 100 to 62 (nat whenever the second team plays)."""
    first, second = store.open_game(game_id).game.sides
    play(store, game_id, [{"card_points": {first: 100, second: 62}, "roem": {first: 0, second: 0}}] * deals)


def test_the_organiser_creates_an_evening_from_the_form(store):
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-name", "Tuesday")
    type_into(view, "evening-players", "\n".join(NINE))
    tap(view, "create-evening")
    (evening,) = Evenings(store).evenings()
    assert app.went == [f"/event/{evening.id}"]
    assert [p.name for p in evening.players] == NINE and evening.options["ending"] == "boompje"


def test_the_club_chooses_how_equal_totals_are_placed(store):
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-name", "Tuesday")
    type_into(view, "evening-players", "\n".join(NINE))
    assert find(view, "evening-ties-False").selected  # by default equal totals share the place
    find(view, "evening-ties-True").on_select(None)
    tap(view, "create-evening")
    (evening,) = Evenings(store).evenings()
    assert evening.prize_rule.fewer_nats_first


def test_a_refused_evening_says_why_and_saves_nothing(store):
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-players", "Ann\nBob")
    tap(view, "create-evening")
    assert "needs a name" in text(find(view, "evening-error"))
    assert Evenings(store).evenings() == [] and app.went == []


def test_drawing_opens_the_tables_and_tells_the_other_devices(store):
    evening = Evenings(store).create("Tuesday", NINE, {"ending": "boompje"}, seed=2)
    app = App(store)
    view = club.show_evening(app, evening.id)
    tap(view, "draw-round")
    assert len(Evenings(store).evening(evening.id).rounds) == 1
    assert app.announced == [EveningChanged(evening.id)]
    assert find_all(view, "table-1") and find_all(view, "table-2") and find_all(view, "sitting-out")
    assert not find_all(view, "draw-round")  # not before every table has finished


def test_the_ranking_follows_the_tables_and_prizes_show_when_all_finished(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    one, two = evening.rounds[0].game_ids.values()
    boompje(store, one)
    view = club.show_evening(App(store), evening.id)
    result = evenings.result(evening.id)
    leader = result.standings[0]
    assert text(find(view, f"rank-{leader.player}")).startswith(f"1. {leader.player}")
    assert "finished" in text(find(view, "table-1-status")) or "finished" in text(find(view, "table-2-status"))
    assert not find_all(view, "prize-0")
    boompje(store, two)
    view = club.show_evening(App(store), evening.id)
    first = evenings.result(evening.id).prizes[0]
    assert len(first.players) == 4  # both tables' winners scored the same: they share it
    assert text(find(view, "prize-0")) == f"Prize for place 1, shared: {', '.join(first.players)}"
    find(view, "draw-round")


def test_a_table_that_will_not_finish_is_stopped_so_the_next_round_can_be_drawn_and_the_stop_taken_back(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    one, two = evening.rounds[0].game_ids.values()
    boompje(store, one)
    app = App(store)
    view = club.show_evening(app, evening.id)
    assert not find_all(view, "draw-round") and not find_all(view, "stop-table-1")
    tap(view, "stop-table-2")
    assert store.open_game(two).status == "abandoned" and app.announced[-1].game_id == two
    assert text(find(view, "table-2-status")) == "stopped: its players score as sitting out"
    find(view, "draw-round")
    tap(view, "play-on-table-2")
    assert store.open_game(two).status == "in_progress"
    assert not find_all(view, "draw-round") and find_all(view, "stop-table-2")


def test_a_late_arrivals_name_typed_stays_when_a_tables_save_shows_the_page_again(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    one = next(iter(evening.rounds[0].game_ids.values()))
    app = App(store)
    view = club.show_evening(app, evening.id)
    app.page.views.append(view)
    type_into(view, "arriving-name", "Zoe")
    field = find(view, "arriving-name")
    boompje(store, one)  # a table saves: the session shows its page again
    assert club.show_evening(app, evening.id) is view
    assert find(view, "arriving-name") is field and field.value == "Zoe"
    assert "finished" in text(find(view, "table-1-status")) + text(find(view, "table-2-status"))
    tap(view, "check-in")
    assert "Zoe" in evenings.evening(evening.id).present and field.value == ""


def test_a_refused_arrival_keeps_the_name_typed_and_says_why(store):
    evening = Evenings(store).create("Tuesday", NINE, {"ending": "boompje"}, seed=2)
    state = club.EveningState(Evenings(store), evening.id, store)
    state.load()
    state.arriving = "Joker 1"
    state.check_in()
    assert state.arriving == "Joker 1" and "stand-in" in (state.error or "")
    state.arriving = "Zoe"
    state.check_in()
    assert state.arriving == "" and state.error is None and "Zoe" in state.evening.present


def test_a_viewer_sees_the_ranking_but_cannot_draw(store):
    evening = Evenings(store).create("Tuesday", NINE, {"ending": "boompje"}, seed=2)
    viewer = Device(number=3, key="k", browser="", system="", role=Role.VIEWER)
    view = club.show_evening(App(store, viewer), evening.id)
    find(view, "ranking")
    assert not find_all(view, "draw-round")


def test_the_organisers_table_cards_show_each_tables_code_and_link_and_a_viewers_show_none(store, monkeypatch):
    """A table's code lets a phone score that table's game: the organiser shows it, the big screen does not."""
    evenings = Evenings(store)
    drawn = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    monkeypatch.setattr(club, "current_table", lambda: Table(Invitation("192.168.1.5", 8550, code="K7QM2XHD")))
    view = club.show_evening(App(store), drawn.id)
    (first,) = drawn.rounds
    for number, code in first.codes.items():
        assert text(find(view, f"table-{number}-code")) == f"Table code: {grouped(code)}"
        assert text(find(view, f"table-{number}-address")) == f"http://192.168.1.5:8550/game/{first.game_ids[number]}?code={code}"
    viewer = Device(number=3, key="k", browser="", system="", role=Role.VIEWER)
    watching = club.show_evening(App(store, viewer), drawn.id)
    find(watching, "table-1")
    assert not find_all(watching, "table-1-code") and not find_all(watching, "table-1-address")


def test_the_list_shows_each_seasons_table_of_closed_evenings(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, season_name="2026", seed=2).id)
    for game_id in evening.rounds[0].game_ids.values():
        boompje(store, game_id)
    evenings.close(evening.id)
    best = evenings.season_table("2026")[0]
    view = club.show_list(App(store))
    assert text(find(view, f"season-2026-{best.player}")) == f"1. {best.player}: {best.total} (1 evening, average {best.total})"


def closed_evenings(store, count: int) -> Evenings:
    """``count`` closed evenings of the season "2026", one round each, every table a boompje."""
    evenings = Evenings(store)
    for number in range(count):
        evening = evenings.draw_next(evenings.create(f"Evening {number}", NINE, {"ending": "boompje"}, season_name="2026", seed=number).id)
        for game_id in evening.rounds[0].game_ids.values():
            boompje(store, game_id)
        evenings.close(evening.id)
    return evenings


def test_the_season_counts_each_players_best_n_of_m_evenings(store):
    evenings = closed_evenings(store, 2)
    totals: dict[str, list[int]] = {}
    for evening in evenings.evenings("2026"):
        for standing in evenings.result(evening.id).standings:
            totals.setdefault(standing.player, []).append(standing.total)
    state = club.SeasonState(evenings, "2026", 2)
    assert state.heading() == "All 2 evenings"
    state.fewer()
    assert state.best_of == 1 and state.heading() == "Best 1 of 2 evenings"
    shown = {identifier.removeprefix("season-2026-"): words for identifier, words in state.lines()}
    assert set(shown) == set(totals)
    for player, scores in totals.items():
        assert f"{player}: {max(scores)} (" in shown[player]
        assert shown[player].endswith(f"total {sum(scores)})")
    state.fewer()
    assert state.best_of == 1
    state.more()
    assert state.best_of is None and state.heading() == "All 2 evenings"


def test_the_season_table_on_the_page_switches_to_best_n_and_back(store):
    closed_evenings(store, 2)
    app = App(store)
    view = club.show_list(app)
    assert find(view, "season-2026-more").disabled
    tap(view, "season-2026-fewer")
    assert text(find(view, "season-2026-counted")) == "Best 1 of 2 evenings"
    assert find(view, "season-2026-fewer").disabled
    tap(view, "season-2026-more")
    assert text(find(view, "season-2026-counted")) == "All 2 evenings"


def test_the_result_downloads_as_csv_json_and_a_page_to_print(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    app = App(store)
    view = club.show_evening(app, evening.id)
    for kind in ("csv", "json", "print"):
        tap(view, f"download-{kind}")
    result = evenings.result(evening.id)
    table_codes = {number: (code, None) for number, code in evening.rounds[-1].codes.items()}  # the organiser's: not shared, no address
    assert app.page.tasks == [
        ("save", f"evening-{evening.id}.csv", result_csv(result).encode()),
        ("save", f"evening-{evening.id}.json", result_json(result).encode()),
        ("save", f"evening-{evening.id}.html", result_html(result, table_codes).encode()),
    ]


def test_a_fixed_pairs_evening_is_created_from_the_form_and_drawn_by_its_schedule(store):
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-name", "Pairs")
    type_into(view, "evening-players", "\n".join(NINE[:8]))
    find(view, "evening-fixed-pairs").on_change(type("Event", (), {"control": type("Switch", (), {"value": True})()})())
    tap(view, "create-evening")
    (evening,) = Evenings(store).evenings()
    assert evening.fixed_pairs
    view = club.show_evening(app, evening.id)
    assert not find_all(view, "arriving-name")  # pairs play by their schedule
    tap(view, "draw-round")
    pairs = [pair for table in Evenings(store).evening(evening.id).rounds[0].draw.tables for pair in table.pairs]
    assert sorted(pairs) == [("Ann", "Bob"), ("Cy", "Dee"), ("Eva", "Fay"), ("Gus", "Hal")]


def test_saved_players_are_offered_until_they_are_on_the_evenings_list():
    state = club.NewEveningState(players_text="Bob\n", saved_players=["Ann", "Bob", "Cy"])
    assert state.bench == ["Ann", "Cy"]
    state.add_saved("Ann")
    state.add_saved("Ann")  # a second tap (a chip tapped twice before it went) adds no one
    assert state.players == ["Bob", "Ann"] and state.bench == ["Cy"]
    state.players_text += "\nCy"  # typed in full: its chip goes too
    assert state.bench == []


def test_a_saved_players_chip_joins_the_names_typed_on_a_line_of_its_own():
    state = club.NewEveningState(players_text="Dee\nEv", saved_players=["Ann"])
    state.add_saved("Ann")
    assert state.players == ["Dee", "Ev", "Ann"]


def test_the_organiser_checks_in_saved_players_by_their_chips_and_new_ones_become_saved_players(store):
    for regular in ("Ann", "Bob", "Cy"):
        store.add_player(regular)
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-name", "Tuesday")
    type_into(view, "evening-players", "Dee\nEva\nFay")
    tap(view, "saved-Ann")
    tap(view, "saved-Cy")
    assert find(view, "evening-players").value == "Dee\nEva\nFay\nAnn\nCy"
    assert not find_all(view, "saved-Ann") and not find_all(view, "saved-Cy") and find_all(view, "saved-Bob")
    tap(view, "create-evening")
    (evening,) = Evenings(store).evenings()
    assert [p.name for p in evening.players] == ["Dee", "Eva", "Fay", "Ann", "Cy"]
    assert [p.name for p in store.players()] == ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay"]  # each once


def test_a_late_arrival_is_checked_in_by_a_saved_players_chip_keeping_a_name_half_typed(store):
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    store.add_player("Zoe")
    app = App(store)
    view = club.show_evening(app, evening.id)
    find(view, "saved-Zoe")
    assert not find_all(view, "saved-Ann")  # Ann is here already
    type_into(view, "arriving-name", "Yv")
    tap(view, "saved-Zoe")
    assert "Zoe" in evenings.evening(evening.id).present and not find_all(view, "saved-Zoe")
    assert find(view, "arriving-name").value == "Yv"
    find(view, "present-Ann").on_delete(None)  # Ann leaves early: she can come back by her chip
    tap(view, "saved-Ann")
    assert "Ann" in evenings.evening(evening.id).present


def followed_evening(store, deals: int = 1):
    """An evening of two tables with ``deals`` deals saved at table 1, on a big screen's page
    as a browser has it: its app shell, the page, the messages sent from now on, the evening."""
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    one = evening.rounds[0].game_ids[1]
    boompje(store, one, deals)
    messages: list = []
    viewer = Device(number=3, key="k", browser="", system="", role=Role.VIEWER)
    app, page, session = served_app(lambda page: Session(page, LiveStore(store, viewer, lambda _message: None, seated=lambda _device: True), viewer), messages)
    app.go(f"/event/{evening.id}")
    messages.clear()
    return app, page, messages, evening, session


def ranked(view: ft.View) -> list[str]:
    return [row.identifier.removeprefix("rank-") for row in find(view, "ranking").controls]


def test_a_tables_save_changes_its_status_and_the_ranking_in_place_in_one_message(store):
    """A big screen follows every table's saves: the saved game takes its table's place in the
    result, and only that table's status and the ranking's rows that changed are sent."""
    app, page, messages, evening, _session = followed_evening(store)
    view, table_2 = page.views[-1], evening.rounds[0].game_ids[2]
    rows = {player: find(view, f"rank-{player}") for player in ranked(view)}
    record = store.open_game(table_2)
    first, second = record.game.sides
    saved = store.add_round(table_2, {"card_points": {first: 162, second: 0}, "roem": {first: 0, second: 0}, "pit": first}, record.version)
    assert app.follow(saved) is not None
    assert page.views[-1] is view and len(messages) == 1 and unsent(view) == []
    assert text(find(view, "table-2-status")) == "playing, 1 deal saved"
    result = Evenings(store).result(evening.id)
    assert ranked(view) == [standing.player for standing in result.standings]  # the pit at table 2 leads now
    leader = result.standings[0]
    assert leader.player in evening.rounds[0].draw.tables[1].seats
    assert find(view, f"rank-{leader.player}") is rows[leader.player]  # moved, not built anew
    assert text(rows[leader.player]).split() == ["1.", *leader.player.split(), "pit", "1", str(leader.total)]


def test_a_table_that_finishes_makes_its_own_card_anew_and_keeps_the_other_cards_and_their_qr_codes(store, monkeypatch):
    """On the organiser's page every card has its table's QR code: a table that finishes
    changes its own card (no Stop button any more), not the forty others'."""
    monkeypatch.setattr(club, "current_table", lambda: Table(Invitation("192.168.1.5", 8550, code="K7QM2XHD")))
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)
    one, two = (evening.rounds[0].game_ids[n] for n in (1, 2))
    boompje(store, one, 15)
    app = App(store)
    view = club.show_evening(app, evening.id)
    page = view.data
    table_2 = find(view, "table-2")
    boompje(store, one, 1)
    changed = page.follow(store.open_game(one))
    assert changed is not None and page.head in changed and page.live in changed  # the draw may come; a card changes
    assert find(view, "table-2") is table_2 and find_all(view, "stop-table-2")
    assert text(find(view, "table-1-status")) == "finished" and not find_all(view, "stop-table-1")
    assert find_all(view, "table-1-code")  # its card made anew, its code still shown


def test_a_save_of_a_game_not_in_the_evening_sends_nothing(store):
    app, page, messages, _evening, _session = followed_evening(store)
    other = store.create_game("beverbende", ["Zoe", "Yan"], options={"ending": "rounds", "rounds": 3})
    assert app.follow(other) is not None and messages == []


def test_the_last_deal_of_the_round_brings_the_draw_and_the_prizes_without_reading_the_evening_again(store, monkeypatch):
    app, page, messages, evening, _session = followed_evening(store, deals=16)
    view = page.views[-1]
    assert not find_all(view, "prize-0")
    table_2 = evening.rounds[0].game_ids[2]
    boompje(store, table_2, 15)
    record = store.open_game(table_2)
    first, second = record.game.sides
    last = store.add_round(table_2, {"card_points": {first: 100, second: 62}, "roem": {first: 0, second: 0}}, record.version)
    table_1, rows = find(view, "table-1"), find(view, "ranking").controls[:]
    monkeypatch.setattr(Evenings, "result", lambda *_args: pytest.fail("the evening read again"))
    assert app.follow(last) is not None
    assert page.views[-1] is view and len(messages) == 1 and unsent(view) == []
    assert text(find(view, "table-2-status")) == "finished"
    find(view, "prize-0")
    assert find(view, "table-1") is table_1 and set(find(view, "ranking").controls) == set(rows)  # kept, not built anew


def test_a_second_tap_on_create_draw_or_close_sent_before_the_first_one_s_answer_showed_does_nothing(store):
    """A double tap sends two taps before the first one's page has come: one evening, one
    round drawn, and no refusal for the second tap to show."""
    app = App(store)
    view = club.show_list(app)
    type_into(view, "evening-name", "Tuesday")
    type_into(view, "evening-players", "\n".join(NINE[:8]))
    create = find(view, "create-evening")
    create.on_click(None)
    create.on_click(None)
    (evening,) = Evenings(store).evenings()
    view = club.show_evening(app, evening.id)
    draw = find(view, "draw-round")
    draw.on_click(None)
    draw.on_click(None)
    drawn = Evenings(store).evening(evening.id)
    assert len(drawn.rounds) == 1 and find_all(view, "evening-error") == []
    for game_id in drawn.rounds[0].game_ids.values():
        boompje(store, game_id)
    view = club.show_evening(app, evening.id)
    close = find(view, "close-evening")
    close.on_click(None)
    closed_at = Evenings(store).evening(evening.id).closed_at
    close.on_click(None)
    assert closed_at is not None and Evenings(store).evening(evening.id).closed_at == closed_at


def in_a_served_session(store, steps: Callable[[Session, ft.Page], None]) -> None:
    """Run ``steps`` with a session's pages on a page encoded as for a browser, the club's
    store under them, translations following the session's language."""
    import contextvars

    from flet.controls.context import _context_page

    def run() -> None:
        device = Device.this_machine()
        app, page, _session = served_app(lambda page: Session(page, LiveStore(store, device, lambda _change: None, seated=lambda _device: True), device=device))  # the session kept
        _context_page.set(page)
        steps(app, page)

    contextvars.copy_context().run(run)


def test_the_new_evening_form_built_again_in_another_language_keeps_what_was_typed_and_chosen(store):
    """A language chosen, or the device's coming late, builds every page again: the form goes
    on with the evening's name, its players, its season and the club's choices, each word in
    the new language; a refusal is said again at the next Create."""

    def steps(app: Session, page: ft.Page) -> None:
        app.show("/event")
        view = page.views[-1]
        type_into(view, "evening-name", "Tuesday")
        type_into(view, "evening-players", "Ann\nBob\nCy")
        type_into(view, "evening-season", "Winter")
        find(view, "evening-odd-joker").on_select(None)
        pairs = find(view, "evening-fixed-pairs")
        pairs.value = True
        pairs.on_change(type("Event", (), {"control": pairs})())
        tap(view, "create-evening")  # fixed pairs of three players: refused
        assert find(view, "evening-error")
        app.language.choose("nl")
        again = page.views[-1]
        assert again is not view and again.appbar.title.value == "Clubavonden"
        assert find(again, "evening-name").value == "Tuesday" and find(again, "evening-players").value == "Ann\nBob\nCy"
        assert find(again, "evening-odd-joker").selected and not find(again, "evening-odd-sit_out").selected
        assert find(again, "evening-season").value == "Winter" and find(again, "evening-fixed-pairs").value is True
        assert find_all(again, "evening-error") == []

    in_a_served_session(store, steps)


def test_an_evening_shown_in_another_language_says_every_word_in_it_and_keeps_the_name_typed(store):
    """The evening's page on screen built again in another language (the big screen's
    device changes its language): the tables, the back arrow and the late arrival's field
    speak it, not only the parts filled again, and the name typed stays; a refusal in the
    old language is dropped."""
    evenings = Evenings(store)
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=2).id)

    def steps(app: Session, page: ft.Page) -> None:
        app.show(f"/event/{evening.id}")
        view = page.views[-1]
        type_into(view, "arriving-name", "Joker 1")
        tap(view, "check-in")  # a stand-in's name: refused
        assert find(view, "evening-error")
        type_into(view, "arriving-name", "Zoe")
        app.language.choose("nl")
        again = page.views[-1]
        assert again is not view
        assert "Tafel 1" in text(find(again, "table-1")) and again.appbar.leading.content.tooltip == "Terug"
        assert find(again, "arriving-name").value == "Zoe" and find(again, "arriving-name").label == "Speler komt binnen"
        assert find_all(again, "evening-error") == []
        tap(again, "check-in")
        assert "Zoe" in evenings.evening(evening.id).present

    in_a_served_session(store, steps)


def test_the_organisers_word_that_the_database_does_not_answer_goes_when_it_answers_again(store, monkeypatch):
    """A club's database away as the organiser checks a late arrival in: the page says so and
    keeps the name typed. When the process hears the database again, the page says so no
    more, and the check-in goes through; a refusal of the arrival itself would stay."""
    from companion.store.errors import UnreachableError

    evening = Evenings(store).create("Tuesday", NINE, {"ending": "boompje"}, seed=2)
    device = Device.this_machine()
    live = LiveStore(store, device, lambda _message: None, seated=lambda _device: True)
    app, page, _session = served_app(lambda page: Session(page, live, device))
    app.go(f"/event/{evening.id}")
    checked_in = Evenings.check_in

    def away(*args, **kwargs):
        raise UnreachableError("db.club.example", "connection timeout expired")

    monkeypatch.setattr(Evenings, "check_in", away)
    type_into(page.views[-1], "arriving-name", "Zoe")
    tap(page.views[-1], "check-in")
    assert text(find(page.views[-1], "evening-error")) == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(Evenings, "check_in", checked_in)
    app.database_answers()
    assert find_all(page.views[-1], "evening-error") == [] and unsent(page.views[-1]) == []
    assert find(page.views[-1], "arriving-name").value == "Zoe"
    tap(page.views[-1], "check-in")
    assert "Zoe" in Evenings(store).evening(evening.id).present
    type_into(page.views[-1], "arriving-name", "Joker 1")
    tap(page.views[-1], "check-in")
    app.database_answers()
    assert "stand-in" in text(find(page.views[-1], "evening-error"))


def test_an_evening_that_could_not_be_read_again_says_so_no_more_once_the_database_answers(store, monkeypatch):
    """The page read again while the database is away says it cannot be read; read again once
    the process hears the database (as the session does then), it shows the evening alone."""
    from companion.store.errors import UnreachableError

    evening = Evenings(store).create("Tuesday", NINE, {"ending": "boompje"}, seed=2)
    device = Device.this_machine()
    live = LiveStore(store, device, lambda _message: None, seated=lambda _device: True)
    app, page, _session = served_app(lambda page: Session(page, live, device))
    route = f"/event/{evening.id}"
    app.go(route)
    result = Evenings.result

    def away(*args, **kwargs):
        raise UnreachableError("db.club.example", "connection timeout expired")

    monkeypatch.setattr(Evenings, "result", away)
    app.show(route)
    assert text(find(page.views[-1], "evening-error")) == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(Evenings, "result", result)
    app.show(route)
    app.database_answers()
    assert find_all(page.views[-1], "evening-error") == [] and "Ranking" in text(page.views[-1])

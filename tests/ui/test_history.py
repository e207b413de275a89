from companion.ui import history
from companion.ui.history import HistoryState
from tests.ui.conftest import bever_totals, fixed_now, play


def finished_bever(store, players=("Ann", "Bob")):
    record = store.create_game("beverbende", list(players))
    return play(store, record.id, [bever_totals(**{p: 10 + i for i, p in enumerate(players)})] * (4 if len(players) == 2 else len(players)))


def test_history_lists_finished_and_abandoned_games_newest_first(store):
    done = finished_bever(store)
    stopped = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"])
    store.abandon(stopped.id)
    store.create_game("beverbende", ["Ann", "Bob"])  # in progress: on the home screen, not here
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert [c.game_id for c in h.games] == [stopped.id, done.id]
    assert h.games[0].result == "Abandoned after 0 rounds"
    assert h.games[1].result == "Ann won with 40"


def test_history_filters_by_game_player_and_outcome(store):
    bever = finished_bever(store, ("Ann", "Bob"))
    other = finished_bever(store, ("Cy", "Dee"))
    stopped = store.create_game("klaverjassen", ["Ann", "Bob", "Cy", "Dee"])
    store.abandon(stopped.id)
    h = HistoryState(store, now=fixed_now)
    h.load()
    h.filter_ruleset("beverbende")
    assert [c.game_id for c in h.games] == [other.id, bever.id]
    h.filter_player("Ann")
    assert [c.game_id for c in h.games] == [bever.id]
    h.filter_ruleset(None)
    assert [c.game_id for c in h.games] == [stopped.id, bever.id]
    h.filter_status("finished")
    assert [c.game_id for c in h.games] == [bever.id]
    h.filter_player(None)
    h.filter_status("abandoned")
    assert [c.game_id for c in h.games] == [stopped.id]


def test_a_shared_win_reads_as_shared(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=10)] * 4)
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert h.games[0].result == "Ann and Bob shared the win with 40"


def test_history_pages_through_long_lists(store, monkeypatch):
    monkeypatch.setattr(history, "PAGE_SIZE", 2)
    ids = [finished_bever(store).id for _ in range(3)]
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert [c.game_id for c in h.games] == ids[::-1][:2] and h.more
    h.load_more()
    assert [c.game_id for c in h.games] == ids[::-1] and not h.more


def test_empty_history_explains_itself(store):
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert h.empty_message == "No finished games yet. Games appear here when they end."
    h.filter_ruleset("clubs")
    assert h.empty_message == "No games match these filters."


def test_the_filters_offer_every_game_and_saved_player(store):
    finished_bever(store, ("Bob", "Ann"))
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert [rid for rid, _ in h.rulesets] == ["clubs", "klaverjassen", "members_only", "beverbende"]
    assert h.players == ["Ann", "Bob"]


def test_an_unknown_player_filter_is_reported_not_crashed(store):
    h = HistoryState(store, now=fixed_now)
    h.load()
    h.filter_player("Nobody")
    assert h.error


def test_history_filters_by_how_long_ago_a_game_started(store, monkeypatch):
    from datetime import datetime, timedelta, timezone

    from companion.store import service

    now = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)
    started = {}
    for days in (0, 5, 20, 200, 400):
        monkeypatch.setattr(service, "utc_now", lambda d=days: now - timedelta(days=d, hours=1))
        started[days] = store.create_game("beverbende", ["Ann", "Bob"]).id
        store.abandon(started[days])
    h = HistoryState(store, now=lambda: now)
    h.load()
    expected = {None: [0, 5, 20, 200, 400], "today": [0], "week": [0, 5], "month": [0, 5, 20], "year": [0, 5, 20, 200]}
    for period, days in expected.items():
        h.filter_period(period)
        assert [c.game_id for c in h.games] == [started[d] for d in days], period
    h.filter_period("today")
    h.filter_player("Bob")
    assert [c.game_id for c in h.games] == [started[0]]


def test_a_period_starts_at_midnight_of_its_first_day():
    from datetime import datetime, timezone

    now = datetime(2026, 3, 14, 20, 30, tzinfo=timezone.utc)
    assert history.period_start("today", now) == datetime(2026, 3, 14, tzinfo=timezone.utc)
    assert history.period_start("week", now) == datetime(2026, 3, 8, tzinfo=timezone.utc)
    assert history.period_start(None, now) is None


def test_a_games_place_and_note_show_in_the_history(store):
    record = finished_bever(store)
    store.set_details(record.id, "Ann's birthday\nwith cake", "Café De Zwaan")
    h = HistoryState(store, now=fixed_now)
    h.load()
    assert h.games[0].details == "Café De Zwaan · Ann's birthday"


def test_the_history_read_again_on_screen_keeps_its_filters_and_the_games_listed(store, monkeypatch):
    """A game that ends elsewhere reads the history on screen again (at a club, every few
    minutes): the filter chosen, the pages listed, and the page itself (where it is
    scrolled to) stay; a later visit starts afresh."""
    from companion.ui.router import App as Shell
    from tests.ui.tree import find, find_all, served_app

    monkeypatch.setattr(history, "PAGE_SIZE", 2)
    for _ in range(4):
        finished_bever(store)
    app, page, _session = served_app(lambda page: Shell(page, store))
    app.go("/history")
    view = page.views[-1]
    find(view, "filter-status-finished").on_select()
    find(view, "history-more").on_click()
    assert len(view.data.state.games) == 4  # two pages
    newest = finished_bever(store)  # at another table
    app.show("/history")  # as the session does then
    assert page.views[-1] is view and find(view, "filter-status-finished").selected
    games = view.data.state.games
    assert len(games) == 4 and games[0].game_id == newest.id  # two pages still, the new game first
    app.go("/")
    app.go("/history")
    assert page.views[-1] is not view and find_all(page.views[-1], "filter-status-all")[0].selected

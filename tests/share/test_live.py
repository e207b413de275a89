"""Live updates and rights: every change goes through the session's LiveStore, which
refuses a viewer on the server and tells the other sessions what changed."""

from __future__ import annotations

import asyncio
import inspect
from typing import Callable
from functools import partial

import pytest

from companion.share import live, live_evenings
from companion.share.feed import feed
from companion.share.live import (
    EveningChanged,
    GameChanged,
    GamesRestored,
    LiveStore,
    NotAllowedError,
    OtherTableError,
    PlayersChanged,
)
from companion.share.table import Device, Role
from companion.store import StaleError, Store, StoreError
from companion.store.club import Evenings
from companion.store.protocol import GameStore
from companion.ui.session import hear_from_elsewhere, in_turn, in_two_turns

BEVER_ROUND = {"totals": {"Ann": 12, "Bob": 20}}


def device(role: Role, number: int = 2) -> Device:
    return Device(number=number, key=f"key-{number}", browser="", system="", role=role)


@pytest.fixture
def store(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'companion.sqlite3'}") as s:
        yield s


@pytest.fixture
def heard():
    return []


def session(store, role: Role, heard: list) -> LiveStore:
    return LiveStore(store, device(role), heard.append, seated=lambda device: True)


@pytest.mark.parametrize("role", [Role.HOST, Role.SCORER])
def test_a_scorer_saves_a_round_and_every_other_session_hears_of_that_game(store, heard, role):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    record = session(store, role, heard).add_round(game.id, BEVER_ROUND, expected_version=game.version)
    assert len(record.game.rounds) == 1
    assert heard == [GameChanged(game.id, record.version)]


def test_edits_undos_new_and_abandoned_games_are_announced_too(store, heard):
    scorer = session(store, Role.SCORER, heard)
    game = scorer.create_game("beverbende", ["Ann", "Bob"])
    record = scorer.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    record = scorer.edit_round(game.id, 0, {"totals": {"Ann": 3, "Bob": 4}}, expected_version=record.version)
    record = scorer.undo_round(game.id, expected_version=record.version)
    record = scorer.abandon(game.id)
    assert heard == [GameChanged(game.id, version) for version in range(1, record.version + 1)]


def test_a_new_player_profile_is_announced(store, heard):
    session(store, Role.SCORER, heard).add_player("Dee")
    assert heard == [PlayersChanged()]


def a_backup_of_another_game() -> str:
    with Store.memory() as other:
        other.create_game("beverbende", ["Ann", "Bob"])
        return other.export_text()


def test_a_restored_backup_is_announced(store, heard):
    session(store, Role.HOST, heard).import_text(a_backup_of_another_game(), "backup.json")
    assert len(store.in_progress()) == 1 and heard == [GamesRestored()]


def test_only_the_hosts_device_may_restore_a_backup(store, heard):
    scorer = session(store, Role.SCORER, heard)
    with pytest.raises(StoreError, match="^Only the host's device can restore a backup into this Companion.$"):
        scorer.import_text(a_backup_of_another_game(), "backup.json")
    assert store.in_progress() == [] and heard == []


@pytest.mark.parametrize(
    "change",
    [
        lambda s, g: s.add_round(g.id, BEVER_ROUND, expected_version=g.version),
        lambda s, g: s.undo_round(g.id, expected_version=g.version),
        lambda s, g: s.edit_round(g.id, 0, BEVER_ROUND, expected_version=g.version),
        lambda s, g: s.abandon(g.id),
        lambda s, g: s.reopen(g.id),
        lambda s, g: s.create_game("beverbende", ["Cy", "Dee"]),
        lambda s, g: s.add_player("Eve"),
        lambda s, g: s.import_text(a_backup_of_another_game(), "backup.json"),
    ],
)
def test_the_server_refuses_every_change_from_a_viewer_and_nothing_changes(store, heard, change):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    game = store.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    viewer = session(store, Role.VIEWER, heard)
    with pytest.raises(NotAllowedError) as refused:
        change(viewer, game)
    assert "only watch" in refused.value.message
    assert store.open_game(game.id).version == game.version
    assert len(store.in_progress()) == 1
    assert [p.name for p in store.players()] == ["Ann", "Bob"]
    assert heard == []


@pytest.mark.parametrize(
    "change",
    [
        lambda s, g: s.add_round(g.id, BEVER_ROUND, expected_version=g.version),
        lambda s, g: s.undo_round(g.id, expected_version=g.version),
        lambda s, g: s.edit_round(g.id, 0, BEVER_ROUND, expected_version=g.version),
        lambda s, g: s.abandon(g.id),
        lambda s, g: s.reopen(g.id),
        lambda s, g: s.set_details(g.id, "moved", "the bar"),
        lambda s, g: s.create_game("beverbende", ["Cy", "Dee"]),
        lambda s, g: s.add_player("Eve"),
    ],
)
def test_a_club_tables_scorer_changes_its_own_game_and_is_refused_every_other_change(store, heard, change):
    own = store.create_game("beverbende", ["Ann", "Bob"])
    other = store.create_game("beverbende", ["Ann", "Bob"])
    other = store.add_round(other.id, BEVER_ROUND, expected_version=other.version)
    at_table = device(Role.SCORER)
    at_table.game_id = own.id  # joined with the code of the table that plays ``own``
    scorer = LiveStore(store, at_table, heard.append, seated=lambda device: True)
    with pytest.raises(OtherTableError) as refused:
        change(scorer, other)
    assert "its own table only" in refused.value.message
    assert store.open_game(other.id).version == other.version
    assert len(store.in_progress()) == 2 and [p.name for p in store.players()] == ["Ann", "Bob"]
    assert heard == []
    saved = scorer.add_round(own.id, BEVER_ROUND, expected_version=own.version)  # its own table's game: saved and announced
    assert heard == [GameChanged(own.id, saved.version)]
    assert scorer.open_game(other.id).id == other.id  # and it still watches the others


def test_a_viewer_reads_everything_a_scoreboard_needs(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    viewer = session(store, Role.VIEWER, heard)
    assert viewer.open_game(game.id).id == game.id
    assert [s.id for s in viewer.in_progress()] == [game.id]
    assert [s.id for s in viewer.history()] == [game.id]
    assert [p.name for p in viewer.players()] == ["Ann", "Bob"]
    assert viewer.player_stats("Ann").player == "Ann"


def test_taking_back_scorer_rights_takes_effect_on_the_next_change(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    guest = device(Role.SCORER)
    scoring = LiveStore(store, guest, heard.append, seated=lambda device: True)
    record = scoring.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    guest.role = Role.VIEWER
    with pytest.raises(NotAllowedError):
        scoring.add_round(game.id, BEVER_ROUND, expected_version=record.version)


def test_of_two_scorers_entering_the_same_round_one_is_saved_and_the_other_told(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    first, second = session(store, Role.HOST, heard), session(store, Role.SCORER, heard)
    saved = first.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    with pytest.raises(StaleError):
        second.add_round(game.id, {"totals": {"Ann": 1, "Bob": 2}}, expected_version=game.version)
    assert len(store.open_game(game.id).game.rounds) == 1
    assert heard == [GameChanged(game.id, saved.version)] * 2  # the refused one: whoever has the saved one reads nothing again


def test_a_change_saved_unseen_as_the_connection_dropped_is_heard_of_at_the_next_refusal(store, heard, monkeypatch):
    """The database's connection drops as a round is committed: the scorer's page is told the
    save failed, so no one hears of the round. Its next change is refused as stale: every other
    session then reads the game again, and shows the round."""
    from companion.store.errors import UnreachableError

    game = store.create_game("beverbende", ["Ann", "Bob"])
    scorer = session(store, Role.HOST, heard)
    added = store.add_round

    def dropped(*args, **kwargs):
        added(*args, **kwargs)
        raise UnreachableError("db.club.example", "server closed the connection unexpectedly")

    monkeypatch.setattr(store, "add_round", dropped)
    with pytest.raises(UnreachableError):
        scorer.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    assert heard == []
    monkeypatch.setattr(store, "add_round", added)
    with pytest.raises(StaleError):
        scorer.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    assert heard == [GameChanged(game.id, game.version + 1)]  # the version after the one this device had: the unseen round's
    assert store.open_game(game.id).version == game.version + 1


def test_a_session_cannot_reach_what_acts_on_the_server_itself(store, heard):
    host = session(store, Role.HOST, heard)
    for name in ("close", "export_json", "import_json", "export_csv", "_engine", "not_a_method"):
        with pytest.raises(AttributeError):
            getattr(host, name)


def test_every_store_method_is_classified_so_a_new_one_is_not_let_through_unseen():
    public = {name for name, _member in inspect.getmembers(Store) if not name.startswith("_")}
    classified = live.READS | live.GAME_CHANGES | live.PLAYER_CHANGES | live.RESTORES | live.SERVER_ONLY
    assert public == classified


def test_a_session_is_offered_exactly_the_reads_and_changes_the_screens_use():
    sessions_own = {"announce", "latest_game", "evenings"}  # telling the other sessions, reading what they were told, the club evenings (LiveEvenings)
    offered = {name for name, _member in inspect.getmembers(LiveStore) if not name.startswith("_")} - sessions_own
    screens_use = {name for name, _member in inspect.getmembers(GameStore) if not name.startswith("_")}
    the_database = {"url"}  # which database the store is, not a read
    assert offered == live.READS | live.GAME_CHANGES | live.PLAYER_CHANGES | live.RESTORES | the_database == screens_use


def test_the_host_runs_a_club_evening_and_every_change_is_announced(store, heard):
    evenings = session(store, Role.HOST, heard).evenings()
    evening = evenings.create("Tuesday", ["Ann", "Bob", "Cy", "Dee", "Eva"], {"ending": "boompje"}, seed=3)
    evenings.draw_next(evening.id)
    evenings.check_in(evening.id, "Zoe")
    assert heard == [PlayersChanged(), EveningChanged(evening.id), EveningChanged(evening.id), PlayersChanged(), EveningChanged(evening.id)]
    assert len(store.in_progress()) == 1


@pytest.mark.parametrize("role, refusal", [(Role.SCORER, "Only the host's device runs a club evening"), (Role.VIEWER, "can only watch")])
def test_only_the_hosts_device_changes_a_club_evening_others_read_it(store, heard, role, refusal):
    evening = Evenings(store).create("Tuesday", ["Ann", "Bob", "Cy", "Dee"], seed=3)
    evenings = session(store, role, heard).evenings()
    with pytest.raises(StoreError, match=refusal):
        evenings.draw_next(evening.id)
    assert evenings.result(evening.id).evening.rounds == () and heard == []


def test_a_device_no_longer_at_the_table_can_no_longer_read_or_run_an_evening(store, heard):
    evening = Evenings(store).create("Tuesday", ["Ann", "Bob", "Cy", "Dee"], seed=3)
    evenings = LiveStore(store, device(Role.HOST), heard.append, seated=lambda device: False).evenings()
    for use in (lambda: evenings.result(evening.id), lambda: evenings.evenings(), lambda: evenings.draw_next(evening.id)):
        with pytest.raises(live.LeftTableError, match="no longer at the table"):
            use()
    assert Evenings(store).evening(evening.id).rounds == ()


def test_every_evening_method_is_checked_by_a_session():
    public = {name for name, _member in inspect.getmembers(Evenings) if not name.startswith("_")}
    checked = {name for name in vars(live_evenings.LiveEvenings) if not name.startswith("_")}
    assert public == checked


def test_a_device_no_longer_at_the_table_may_neither_read_nor_change(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    at_the_table = {"yes": True}
    scorer = LiveStore(store, device(Role.HOST), heard.append, seated=lambda device: at_the_table["yes"])
    record = scorer.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    at_the_table["yes"] = False  # sharing stopped
    with pytest.raises(live.LeftTableError, match="no longer at the table"):
        scorer.add_round(game.id, BEVER_ROUND, expected_version=record.version)
    with pytest.raises(live.LeftTableError):
        scorer.open_game(game.id)
    assert len(store.open_game(game.id).game.rounds) == 1


def test_a_saved_change_is_left_in_the_feed_so_no_other_session_reads_the_game_again(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    record = session(store, Role.SCORER, heard).add_round(game.id, BEVER_ROUND, expected_version=game.version)
    reads = []
    assert feed.latest(str(store.url), game.id, record.version, reads.append) is record
    assert reads == []


def test_a_change_heard_of_from_elsewhere_is_read_once_for_every_session(store, heard):
    game = store.create_game("beverbende", ["Ann", "Bob"])
    saved = store.add_round(game.id, BEVER_ROUND, expected_version=game.version)  # another process's save
    reads = []

    def read(game_id):
        reads.append(game_id)
        return store.open_game(game_id)

    records = [feed.latest(str(store.url), game.id, saved.version, read) for _ in range(5)]
    assert reads == [game.id] and all(r is records[0] and r.version == saved.version for r in records)


def test_every_session_follows_the_newest_version_it_hears_of(store, heard):
    viewer = session(store, Role.VIEWER, heard)
    game = store.create_game("beverbende", ["Ann", "Bob"])
    first = store.add_round(game.id, BEVER_ROUND, expected_version=game.version)
    assert viewer.latest_game(game.id, first.version).version == first.version
    second = store.add_round(game.id, BEVER_ROUND, expected_version=first.version)
    assert viewer.latest_game(game.id, second.version).game.rounds == second.game.rounds


class CountingStore:
    """The store, counting the reads of its lists (what each session's page would do after a change)."""

    def __init__(self, store: Store):
        self._store = store
        self.url = store.url
        self.reads = 0

    def in_progress(self):
        self.reads += 1
        return self._store.in_progress()

    def __getattr__(self, name):
        return getattr(self._store, name)


def test_after_a_change_every_session_showing_the_games_in_progress_gets_them_from_one_read(store, heard):
    counted = CountingStore(store)
    scorer, viewers = LiveStore(counted, device(Role.SCORER), heard.append, lambda d: True), [
        LiveStore(counted, device(Role.VIEWER, n), heard.append, lambda d: True) for n in range(3, 8)
    ]
    game = scorer.create_game("beverbende", ["Ann", "Bob"])
    assert [[g.id for g in v.in_progress()] for v in viewers] == [[game.id]] * 5
    assert counted.reads == 1
    scorer.abandon(game.id)
    assert [v.in_progress() for v in viewers] == [[]] * 5  # the change read anew, once
    assert counted.reads == 2


def test_a_change_heard_of_from_another_process_has_the_lists_read_again(store, heard):
    viewer = session(store, Role.VIEWER, heard)
    assert viewer.in_progress() == []
    game = store.create_game("beverbende", ["Ann", "Bob"])  # saved through another process
    hear_from_elsewhere(GameChanged(game.id, game.version))
    assert [g.id for g in viewer.in_progress()] == [game.id]


def test_each_device_following_a_change_has_its_update_sent_before_the_next_device_computes_its_own():
    """flet_web queues a page's messages for a task of its own that writes them to the
    browser; without turns every session's update was computed before any was written."""
    happened: list[str] = []

    async def follow_one_change(devices: int) -> None:
        outgoing: list[asyncio.Queue[str]] = [asyncio.Queue() for _ in range(devices)]

        async def write_to_browser(queue: asyncio.Queue[str]) -> None:  # flet_web's send loop
            while True:
                happened.append(f"wrote {await queue.get()}")

        writers = [asyncio.create_task(write_to_browser(queue)) for queue in outgoing]
        await asyncio.sleep(0)  # every writer waits for its page's first message

        def update(n: int) -> None:
            happened.append(f"updated {n}")
            outgoing[n].put_nowait(str(n))

        await asyncio.gather(*(in_turn(partial(update, n)) for n in range(devices)))
        await asyncio.sleep(0)
        for writer in writers:
            writer.cancel()

    asyncio.run(follow_one_change(3))
    assert happened == ["updated 0", "wrote 0", "updated 1", "wrote 1", "updated 2", "wrote 2"]


def test_every_device_following_a_change_gets_the_top_of_its_board_before_any_device_gets_the_rest():
    """A device's rows and chart go in a turn of their own after every device's top
    (App.follow hands them back): the last device's totals do not wait for the others' rows."""
    happened: list[str] = []

    def follow(n: int) -> Callable[[], None]:
        happened.append(f"top {n}")
        return lambda: happened.append(f"rest {n}")

    def not_followed() -> None:  # a page that showed the change anew: nothing is left to send
        happened.append("shown anew")

    async def follow_one_change(devices: int) -> None:
        await asyncio.gather(*(in_two_turns(partial(follow, n)) for n in range(devices)), in_two_turns(not_followed))

    asyncio.run(follow_one_change(3))
    assert happened == ["top 0", "top 1", "top 2", "shown anew", "rest 0", "rest 1", "rest 2"]

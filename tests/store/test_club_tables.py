"""A club server's table state in the database: every server process (here, one Table per
process over the same database) admits the devices another let in, with their rights, and
a stopped table lets none of them in again."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from companion.share.codes import grouped
from companion.share.limiter import FREE_TRIES, WrongTries
from companion.share.table import CONNECTED_FOR, Invitation, JoinRefused, Role, Table
from companion.store import seats as seats_module
from companion.store import Store
from companion.store.club import EveningRound, Evenings
from companion.clock import utc_now
from companion.store.errors import StoreError
from companion.store.seats import Seats

CODE = "K7QM2XHD"
HOST_CODE = "0123456789ABCDEFGHJKMNPQRS"


@pytest.fixture
def processes(store_url):
    """The table as two server processes see it: the first shares it, the second adopts it."""
    first, second = Store(store_url), Store(store_url)
    invitation = Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE)
    one = Table(invitation, seats=Seats(lambda: first))
    other = Table(invitation, seats=Seats(lambda: second), table_id=one.table_id)
    yield one, other
    first.close()
    second.close()


def test_a_device_let_in_by_one_process_comes_back_through_another_with_its_rights(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = one.admit(CODE, "192.168.1.21")
    one.set_scorer(host, guest.number, True)
    back = other.rejoin(guest.key)
    assert back is not None and back.role is Role.SCORER and back.number == guest.number
    assert other.rejoin(host.key).is_host


def test_rights_taken_back_through_one_process_hold_in_the_other_once_it_reads_them_again(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    one.set_scorer(host, guest.number, True)
    assert other.reload(guest.number) is guest and guest.can_score  # the process's own object changes
    one.set_scorer(host, guest.number, False)
    other.reload(guest.number)
    assert not guest.can_score


def test_devices_joining_through_two_processes_are_numbered_once_each(processes):
    one, other = processes
    numbers = [table.admit(CODE, f"192.168.1.{n}").number for n, table in zip(range(20, 26), [one, other] * 3)]
    assert sorted(numbers) == [1, 2, 3, 4, 5, 6]
    assert [d.number for d in other.devices()] == [1, 2, 3, 4, 5, 6]


def test_after_stop_sharing_no_key_of_the_table_gets_in_through_any_process(processes):
    one, other = processes
    guest = one.admit(CODE, "192.168.1.21")
    one.stop()
    assert other.rejoin(guest.key) is None


def test_a_new_share_ends_the_table_shared_before(store_url):
    with Store(store_url) as store:
        seats = Seats(lambda: store)
        old = Table(Invitation("192.168.1.5", 8550), seats=seats)
        guest = old.admit(old.invitation.code, "192.168.1.21")
        Table(Invitation("192.168.1.5", 8550), seats=seats).table_id  # a restart shares anew
        assert Table(old.invitation, seats=seats, table_id=old.table_id).rejoin(guest.key) is None


def test_a_table_full_of_guests_refuses_one_more_through_any_process(processes):
    one, other = processes
    one.max_devices = other.max_devices = 2
    one.admit(CODE, "192.168.1.20")
    other.admit(CODE, "192.168.1.21")
    with pytest.raises(JoinRefused) as refused:
        one.admit(CODE, "192.168.1.22")
    assert refused.value.full
    assert one.admit(HOST_CODE, "192.168.1.23").is_host  # the host code always gets in


def test_connections_through_every_process_are_counted(processes):
    one, other = processes
    guest = one.admit(CODE, "192.168.1.21")
    one.connected(guest, +1)
    other.connected(other.rejoin(guest.key), +1)
    one.connected(guest, -1)
    assert other.reload(guest.number).sessions == 1
    other.connected(guest, -1)
    assert one.reload(guest.number).sessions == 0


def test_a_name_given_through_one_process_is_listed_by_every_process(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    one.rename(host, guest.number, "Bob's phone")
    assert [d.name for d in other.devices()] == ["", "Bob's phone"]


def test_the_connections_of_a_process_that_died_stop_counting_and_a_live_ones_keep_counting(store_url, monkeypatch):
    start = utc_now()
    written = [start]  # when the database is told something (the heartbeat's clock)
    monkeypatch.setattr(seats_module, "utc_now", lambda: written[0])
    first, second = Store(store_url), Store(store_url)
    invitation = Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE)
    killed = Table(invitation, seats=Seats(lambda: first))
    alive = Table(invitation, seats=Seats(lambda: second), table_id=killed.table_id,
                  now=lambda: start + CONNECTED_FOR + timedelta(seconds=1))
    try:
        lost, kept = killed.admit(CODE, "192.168.1.21"), killed.admit(CODE, "192.168.1.22")
        killed.connected(lost, +1)  # and then the process is killed: it never says the connection closed
        alive.connected(alive.rejoin(kept.key), +1)
        written[0] = start + CONNECTED_FOR
        alive.beat()
        assert not alive.reload(lost.number).connected
        assert alive.reload(kept.number).connected
    finally:
        killed.stop()
        first.close()
        second.close()


def test_a_database_away_is_said_once_in_words_by_the_heartbeat_and_its_return_too(processes, monkeypatch, caplog):
    """Every process tells the database every 10 s which devices it holds. While it cannot,
    the host's terminal says so once, without a traceback, and says when it can again."""
    one, _other = processes
    guest = one.admit(CODE, "192.168.1.21")
    one.connected(guest, +1)
    away = [True]
    seen = one._seats.seen

    def told(table_id, keys):
        if away[0]:
            raise StoreError("Cannot reach the database at {where}.", where="db.club.example")
        return seen(table_id, keys)

    monkeypatch.setattr(one._seats, "seen", told)
    failing = False
    for _beat in range(3):
        failing = one._beat_or_say(failing)
    away[0] = False
    failing = one._beat_or_say(failing)
    assert not failing and [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        ("companion: could not tell the database which devices are connected here, and will try again every 10 s:"
         " Cannot reach the database at db.club.example.", None),
        ("companion: the database answers again; the devices connected here count as connected again.", None),
    ]  # fmt: skip


def test_connections_opened_and_closed_while_the_database_is_away_are_told_at_the_first_beat_it_answers(processes, monkeypatch):
    """A phone's page reconnecting, or going, while a club's database restarts is not held up
    (before, its connect and disconnect handlers raised, with a traceback in the terminal, and
    the page that came back was not read again); every process counts its connections right
    once the database answers."""
    one, other = processes
    staying, leaving = one.admit(CODE, "192.168.1.21"), one.admit(CODE, "192.168.1.22")
    one.connected(leaving, +1)
    written = one._seats.connected

    def away(table_id, key, change):
        raise StoreError("Cannot reach the database at {where}.", where="db.club.example")

    monkeypatch.setattr(one._seats, "connected", away)
    one.connected(staying, +1)
    one.connected(leaving, -1)
    one.connected(staying, -1)
    one.connected(staying, +1)
    assert other.reload(staying.number).sessions == 0 and other.reload(leaving.number).sessions == 1  # not heard yet
    with pytest.raises(StoreError):
        one.beat()  # still away: kept for the next beat
    monkeypatch.setattr(one._seats, "connected", written)
    one.beat()
    assert other.reload(staying.number).sessions == 1 and other.reload(leaving.number).sessions == 0
    assert one._untold == {}


def test_devices_joining_through_two_processes_at_the_same_moment_are_each_let_in_with_a_number_of_their_own(processes):
    """A club's phones join at once through every process: none is refused for another's number."""
    one, other = processes
    start = threading.Barrier(2)

    def join(table: Table, first_address: int) -> list[int]:
        start.wait()
        return [table.admit(CODE, f"192.168.1.{first_address + n}").number for n in range(10)]

    with ThreadPoolExecutor(2) as pool:
        numbers = [n for joined in pool.map(join, (one, other), (20, 40)) for n in joined]
    assert sorted(numbers) == list(range(1, 21))


def test_a_device_a_host_ended_through_one_process_may_change_nothing_through_another_at_once(processes, store_url):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    one.set_scorer(host, guest.number, True)
    assert other.reload(guest.number).can_score
    one.end_access(host, guest.number)  # the other process has not heard of it yet
    assert not other.confirms(guest)  # what its store asks before every change
    assert other.rejoin(guest.key) is None  # and its key lets it in no more
    assert [d.number for d in other.devices()] == [host.number]


def test_an_ended_device_stays_out_and_its_number_is_not_given_again(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    one.end_access(host, guest.number)
    other.forget(guest.number)  # what the relay's message makes the other process do
    assert other.rejoin(guest.key) is None
    with pytest.raises(LookupError):  # no right brings it back
        one.set_scorer(host, guest.number, True)
    assert one.rejoin(guest.key) is None and other.rejoin(guest.key) is None
    again = other.admit(CODE, "192.168.1.21")  # with the join code it is a new device, a viewer
    assert again.key != guest.key and again.number == guest.number + 1 and not again.can_score


def test_a_process_that_missed_the_hosts_changes_has_them_all_after_reading_the_table_again(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    ended, granted = other.admit(CODE, "192.168.1.21"), other.admit(CODE, "192.168.1.22")
    one.end_access(host, ended.number)
    one.set_scorer(host, granted.number, True)
    new_code = one.new_join_code(host).code
    other.read_again()  # what a process does when its relay listens again after losing the channel
    assert other.rejoin(ended.key) is None
    assert granted.can_score
    assert other.invitation.code == new_code


def test_only_a_host_ends_access_and_a_hosts_access_cannot_be_ended(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest, another = other.admit(CODE, "192.168.1.21"), other.admit(CODE, "192.168.1.22")
    with pytest.raises(PermissionError):
        other.end_access(guest, another.number)
    with pytest.raises(PermissionError):
        other.new_join_code(guest)
    with pytest.raises(LookupError):
        one.end_access(host, host.number)
    assert other.rejoin(another.key) is another and one.rejoin(host.key) is host


def test_rights_taken_back_through_one_process_are_read_again_by_the_other_before_a_change(processes, store_url):
    from companion.share.live import LiveStore, NotAllowedError

    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    one.set_scorer(host, guest.number, True)
    other.reload(guest.number)
    with Store(store_url) as store:
        game = store.create_game("beverbende", ["Ann", "Bob"])
        phone = LiveStore(store, guest, lambda _message: None, seated=other.seats, confirmed=other.confirms)
        saved = phone.add_round(game.id, {"totals": {"Ann": 12, "Bob": 20}}, game.version)
        one.set_scorer(host, guest.number, False)  # the other process has not heard of it yet
        with pytest.raises(NotAllowedError):
            phone.add_round(game.id, {"totals": {"Ann": 12, "Bob": 20}}, saved.version)
        assert len(store.open_game(game.id).game.rounds) == 1


def test_a_new_join_code_made_through_one_process_is_the_only_one_every_process_admits(processes):
    one, other = processes
    host = one.admit(HOST_CODE, "192.168.1.20")
    guest = other.admit(CODE, "192.168.1.21")
    new_code = one.new_join_code(host).code
    assert new_code != CODE and one.invitation.code == new_code
    with pytest.raises(JoinRefused) as refused:
        other.admit(CODE, "192.168.1.22")
    assert refused.value.wrong
    assert not other.admit(new_code, "192.168.1.23").is_host
    assert other.invitation.code == new_code  # what its Share this table page shows
    assert other.rejoin(guest.key) is guest  # the devices at the table stay
    assert other.admit(HOST_CODE, "192.168.1.24").is_host


def test_after_stop_sharing_through_one_process_no_code_gets_in_through_another(processes):
    one, other = processes
    guest = other.admit(CODE, "192.168.1.21")
    one.stop()
    assert not other.confirms(guest)
    for code in (CODE, HOST_CODE, ""):
        with pytest.raises(JoinRefused):
            other.admit(code, "192.168.1.22")


# --- a club evening's table codes (issue 17 section 3) ----------------------------------------

NINE = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


@pytest.fixture
def evenings(store_url):
    """The club's evenings (through a third connection to the same database)."""
    with Store(store_url) as store:
        yield Evenings(store)


def first_round(evenings: Evenings) -> tuple[int, EveningRound]:
    evening = evenings.draw_next(evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=17).id)
    return evening.id, evening.rounds[0]


def next_round(evenings: Evenings, evening_id: int) -> EveningRound:
    """The tables of the newest round stop (abandoned) and the next round is drawn."""
    for game_id in evenings.evening(evening_id).rounds[-1].game_ids.values():
        evenings.store.abandon(game_id)
    return evenings.draw_next(evening_id).rounds[-1]


def test_a_tables_code_lets_a_phone_score_that_tables_game_and_no_other_through_every_process(processes, evenings):
    one, other = processes
    _evening, drawn = first_round(evenings)
    own, other_table = drawn.game_ids[1], drawn.game_ids[2]
    phone = other.admit(grouped(drawn.codes[1]).lower(), "192.168.1.21")  # as read off the card: case and dash do not matter
    assert phone.role is Role.SCORER and phone.game_id == own
    seen = one.rejoin(phone.key)  # the other process admits it with the same rights
    assert seen is not None and seen.game_id == own
    assert seen.may_change(own) and not seen.may_change(other_table) and not seen.may_change(None)


def test_every_table_of_a_round_has_its_own_code_and_the_next_draw_makes_new_ones(processes, evenings):
    one, other = processes
    evening_id, drawn = first_round(evenings)
    assert sorted(drawn.codes) == sorted(drawn.game_ids) and len(set(drawn.codes.values())) == len(drawn.codes)
    later = next_round(evenings, evening_id)
    assert not set(later.codes.values()) & set(drawn.codes.values())
    for code in drawn.codes.values():  # the first round's codes let nobody in any more
        with pytest.raises(JoinRefused) as refused:
            other.admit(code, "192.168.1.22")
        assert refused.value.wrong
    assert one.admit(later.codes[2], "192.168.1.23").game_id == later.game_ids[2]


def test_a_phone_that_moves_to_another_table_scores_its_new_tables_game_only(processes, evenings):
    one, other = processes
    evening_id, drawn = first_round(evenings)
    watching = one.admit(CODE, "192.168.1.21")  # joined with the shared table's code: a viewer
    phone = one.admit(drawn.codes[1], "192.168.1.21", known=watching)
    assert phone is watching and phone.role is Role.SCORER and phone.game_id == drawn.game_ids[1]
    later = next_round(evenings, evening_id)
    moved = other.admit(later.codes[2], "192.168.1.21", known=other.rejoin(phone.key))
    assert moved.number == phone.number and moved.game_id == later.game_ids[2]
    assert not moved.may_change(drawn.game_ids[1])


def test_a_host_or_a_scorer_of_every_game_keeps_its_rights_when_it_joins_with_a_tables_code(processes, evenings):
    one, _other = processes
    _evening, drawn = first_round(evenings)
    host = one.admit(HOST_CODE, "192.168.1.20")
    scorer = one.set_scorer(host, one.admit(CODE, "192.168.1.21").number, True)
    for device in (host, scorer):
        again = one.admit(drawn.codes[1], "192.168.1.20", known=device)
        assert again.role is device.role and again.game_id is None and again.may_change(drawn.game_ids[2])


def test_the_hosts_choice_of_rights_replaces_a_tables_in_every_process(processes, evenings):
    one, other = processes
    _evening, drawn = first_round(evenings)
    host = one.admit(HOST_CODE, "192.168.1.20")
    phone = other.admit(drawn.codes[1], "192.168.1.21")
    one.set_scorer(host, phone.number, False)
    assert other.confirms(phone) and phone.role is Role.VIEWER and phone.game_id is None
    one.set_scorer(host, phone.number, True)
    assert other.confirms(phone) and phone.may_change(drawn.game_ids[2])  # a scorer of every game now


def test_a_closed_evenings_table_codes_let_nobody_in(processes, evenings):
    one, _other = processes
    evening_id, drawn = first_round(evenings)
    evenings.close(evening_id)
    with pytest.raises(JoinRefused) as refused:
        one.admit(drawn.codes[1], "192.168.1.21")
    assert refused.value.wrong


def test_after_stop_sharing_a_tables_code_lets_nobody_in(processes, evenings):
    one, other = processes
    _evening, drawn = first_round(evenings)
    one.stop()
    with pytest.raises(JoinRefused):
        other.admit(drawn.codes[1], "192.168.1.21")


def test_wrong_table_codes_are_slowed_down_like_wrong_join_codes(store_url, evenings):
    """After the free wrong tries a client waits, and while it waits not even a right table code is compared."""
    with Store(store_url) as store:
        table = Table(Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE), tries=WrongTries(), clock=lambda: 100.0,
                      seats=Seats(lambda: store))  # fmt: skip
        _evening, drawn = first_round(evenings)
        waits = []
        for _try in range(FREE_TRIES + 1):
            with pytest.raises(JoinRefused) as refused:
                table.admit("ZZZZZZZZ", "192.168.1.30")
            waits.append(refused.value.wait)
        assert waits[-1] > 0
        with pytest.raises(JoinRefused) as refused:
            table.admit(drawn.codes[1], "192.168.1.30")
        assert not refused.value.wrong and refused.value.wait > 0
        assert table.admit(drawn.codes[1], "192.168.1.31").game_id == drawn.game_ids[1]  # another phone is not held up

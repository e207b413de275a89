"""A club server's table state in the database: every server process (here, one Table per
process over the same database) admits the devices another let in, with their rights, and
a stopped table lets none of them in again."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from companion.share.table import CONNECTED_FOR, Invitation, JoinRefused, Role, Table
from companion.store import seats as seats_module
from companion.store import Store
from companion.store.models import utc_now
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

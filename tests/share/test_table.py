"""Joining a shared table: the code decides the role, wrong codes are slowed down, and
only a host grants scorer rights."""

from __future__ import annotations

import pytest

from companion.share.limiter import WrongTries
from companion.share.table import CLUB_MAX_DEVICES, MAX_DEVICES, Device, Invitation, JoinRefused, Role, Table, describe_user_agent
from tests.share.fakes import Clock

CODE = "K7QM2XHD"
HOST_CODE = "0123456789ABCDEFGHJKMNPQRS"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"


@pytest.fixture
def clock():
    return Clock(now=1000.0)


@pytest.fixture
def table(clock):
    invitation = Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE)
    return Table(invitation, WrongTries(free=2, first_wait=4), clock=clock)


def test_the_join_code_makes_a_viewer(table):
    device = table.admit("k7qm-2xhd", "192.168.1.20", PHONE)
    assert device.role is Role.VIEWER
    assert not device.can_score and not device.is_host


def test_the_host_code_makes_a_host_who_may_score(table):
    device = table.admit(HOST_CODE, "192.168.1.20", PHONE)
    assert device.role is Role.HOST
    assert device.can_score and device.is_host


def test_the_host_code_is_not_the_join_code_and_neither_is_a_prefix(table):
    with pytest.raises(JoinRefused):
        table.admit(HOST_CODE[:8], "192.168.1.20")


def test_devices_are_numbered_in_the_order_they_join(table):
    numbers = [table.admit(CODE, f"192.168.1.{n}").number for n in (20, 21, 22)]
    assert numbers == [1, 2, 3]
    assert [d.number for d in table.devices()] == [1, 2, 3]


def test_a_wrong_code_is_refused_and_joins_nobody(table):
    with pytest.raises(JoinRefused) as refused:
        table.admit("AAAA-BBBB", "192.168.1.20")
    assert refused.value.wrong
    assert table.devices() == []


def test_repeated_wrong_codes_must_wait_longer_each_time(table, clock):
    waits = []
    for _ in range(5):
        with pytest.raises(JoinRefused) as refused:
            table.admit("AAAA-BBBB", "192.168.1.20")
        waits.append(refused.value.wait)
        clock.now += refused.value.wait
    assert waits == [0, 0, 4, 8, 16]


def test_while_a_client_waits_even_the_right_code_is_not_looked_at(table, clock):
    for _ in range(3):
        with pytest.raises(JoinRefused):
            table.admit("AAAA-BBBB", "192.168.1.20")
    with pytest.raises(JoinRefused) as refused:
        table.admit(CODE, "192.168.1.20")
    assert not refused.value.wrong
    assert refused.value.wait == 4
    clock.now += 4
    assert table.admit(CODE, "192.168.1.20").role is Role.VIEWER


def test_one_guessing_client_does_not_slow_down_another(table):
    for _ in range(3):
        with pytest.raises(JoinRefused):
            table.admit("AAAA-BBBB", "192.168.1.66")
    assert table.admit(CODE, "192.168.1.20").number == 1


def test_a_browser_comes_back_as_the_same_device_with_its_key(table):
    device = table.admit(CODE, "192.168.1.20", PHONE)
    assert table.rejoin(device.key) is device
    assert table.rejoin("a key from yesterday's server") is None
    assert table.rejoin(None) is None
    assert table.rejoin("") is None


def test_a_known_device_stays_itself_and_becomes_host_with_the_host_code(table):
    device = table.admit(CODE, "192.168.1.20", PHONE)
    assert table.admit(CODE, "192.168.1.20", PHONE, known=device) is device
    assert device.role is Role.VIEWER
    assert table.admit(HOST_CODE, "192.168.1.20", PHONE, known=device) is device
    assert device.role is Role.HOST
    assert len(table.devices()) == 1


def test_a_host_lets_a_viewer_keep_score_and_takes_it_back(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    table.set_scorer(host, guest.number, True)
    assert guest.role is Role.SCORER and guest.can_score
    table.set_scorer(host, guest.number, False)
    assert guest.role is Role.VIEWER and not guest.can_score


def test_only_a_host_grants(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    scorer = table.admit(CODE, "192.168.1.20")
    viewer = table.admit(CODE, "192.168.1.21")
    table.set_scorer(host, scorer.number, True)
    for by in (scorer, viewer, Device.this_machine()):
        with pytest.raises(PermissionError):
            table.set_scorer(by, viewer.number, True)
    assert viewer.role is Role.VIEWER


def test_a_host_stays_a_host(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    other = table.admit(HOST_CODE, "192.168.1.6")
    table.set_scorer(host, other.number, False)
    assert other.role is Role.HOST


def test_granting_to_a_device_that_is_not_there_is_refused(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    with pytest.raises(LookupError):
        table.set_scorer(host, 99, True)


def test_connections_are_counted_per_device(table):
    device = table.admit(CODE, "192.168.1.20")
    assert not device.connected
    table.connected(device, +1)
    table.connected(device, +1)
    table.connected(device, -1)
    assert device.connected
    table.connected(device, -1)
    table.connected(device, -1)
    assert device.sessions == 0


def test_a_full_table_refuses_new_devices_but_not_returning_ones(table):
    first = table.admit(CODE, "192.168.1.20")
    for n in range(MAX_DEVICES - 1):
        table.admit(CODE, f"10.0.{n // 200}.{n % 200}")
    with pytest.raises(JoinRefused) as refused:
        table.admit(CODE, "192.168.1.99")
    assert refused.value.full
    assert table.rejoin(first.key) is first
    assert table.admit(CODE, "192.168.1.20", known=first) is first


def test_the_machine_of_an_unshared_app_is_its_host():
    assert Device.this_machine().is_host


@pytest.mark.parametrize(
    "address, join_url, host_url",
    [
        ("192.168.1.5", f"http://192.168.1.5:8550/?code={CODE}", f"http://192.168.1.5:8550/?code={HOST_CODE}"),
        ("fd00::5", f"http://[fd00::5]:8550/?code={CODE}", f"http://[fd00::5]:8550/?code={HOST_CODE}"),
    ],
)
def test_the_links_carry_the_address_port_and_code(address, join_url, host_url):
    invitation = Invitation(address, 8550, code=CODE, host_code=HOST_CODE)
    assert invitation.join_url == join_url
    assert invitation.host_url == host_url


def test_a_new_invitation_has_fresh_codes_of_the_right_lengths():
    a, b = Invitation("192.168.1.5", 8550), Invitation("192.168.1.5", 8550)
    assert len(a.code) == 8 and len(a.host_code) == 26
    assert a.code != b.code and a.host_code != b.host_code
    assert a.host_code not in repr(a)


@pytest.mark.parametrize(
    "user_agent, described",
    [
        (PHONE, ("Chrome", "Android")),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", ("Safari", "iPhone")),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1", ("Chrome", "iPhone")),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0", ("Edge", "Windows")),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ("Firefox", "Linux")),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", ("Safari", "Mac")),
        ("", ("", "")),
    ],
)
def test_the_host_sees_which_browser_on_which_system(user_agent, described):
    assert describe_user_agent(user_agent) == described


def test_the_host_code_gets_in_at_a_full_table(table):
    for n in range(MAX_DEVICES):
        table.admit(CODE, f"10.0.{n // 200}.{n % 200}")
    host = table.admit(HOST_CODE, "192.168.1.5")
    assert host.is_host


def test_the_device_limit_counts_only_devices_with_the_join_code(table):
    for n in range(3):
        table.admit(HOST_CODE, f"192.168.1.{n + 2}")
    for n in range(MAX_DEVICES):
        table.admit(CODE, f"10.0.{n // 200}.{n % 200}")
    with pytest.raises(JoinRefused) as refused:
        table.admit(CODE, "192.168.1.99")
    assert refused.value.full
    assert len(table.devices()) == MAX_DEVICES + 3


def test_a_club_servers_table_seats_an_evening_of_forty_tables(clock):
    club = Table(Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE), clock=clock, max_devices=CLUB_MAX_DEVICES)
    for n in range(160):
        club.admit(CODE, f"10.0.{n // 200}.{n % 200}")
    assert len(club.devices()) == 160 <= CLUB_MAX_DEVICES


def test_a_table_seats_its_own_devices_only(table, clock):
    device = table.admit(CODE, "192.168.1.20")
    later = Table(Invitation("192.168.1.5", 8550), clock=clock)
    assert table.seats(device) and not later.seats(device)
    assert not table.seats(Device.this_machine())

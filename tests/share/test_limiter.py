"""Wrong tries: a few are free, then each further try waits twice as long, up to a cap."""

from __future__ import annotations

import pytest

from companion.share.limiter import WrongTries, client_key


def test_the_first_wrong_tries_are_free():
    tries = WrongTries(free=3, first_wait=2)
    assert [tries.wrong("a", now=0) for _ in range(3)] == [0, 0, 0]
    assert tries.wait("a", now=0) == 0


def test_after_the_free_tries_each_wait_doubles():
    tries = WrongTries(free=3, first_wait=2, longest_wait=1000)
    now = 0.0
    waits = []
    for _ in range(8):
        waits.append(tries.wrong("a", now))
        now += waits[-1]  # tries again the moment it may
    assert waits == [0, 0, 0, 2, 4, 8, 16, 32]


def test_the_wait_is_capped():
    tries = WrongTries(free=0, first_wait=2, longest_wait=60)
    assert tries.wait_after(30) == 60


def test_a_client_must_wait_out_its_wait():
    tries = WrongTries(free=1, first_wait=10)
    tries.wrong("a", now=0)
    assert tries.wrong("a", now=1) == 10
    assert tries.wait("a", now=5) == pytest.approx(6)
    assert tries.wait("a", now=11) == 0


def test_clients_are_counted_apart():
    tries = WrongTries(free=0, first_wait=10)
    tries.wrong("a", now=0)
    assert tries.wait("a", now=0) == 10
    assert tries.wait("b", now=0) == 0


def test_a_right_code_clears_the_count():
    tries = WrongTries(free=1, first_wait=10)
    tries.wrong("a", now=0)
    tries.right("a")
    assert tries.wrong("a", now=0) == 0


def test_a_client_that_stopped_guessing_long_ago_starts_afresh():
    tries = WrongTries(free=1, first_wait=10, forget_after=100)
    tries.wrong("a", now=0)
    assert tries.wrong("a", now=1) == 10
    assert tries.wrong("a", now=200) == 0


def test_old_clients_are_dropped_from_memory():
    tries = WrongTries(free=0, first_wait=1, forget_after=100)
    for n in range(50):
        tries.wrong(f"10.0.0.{n}", now=0)
    tries.wrong("10.0.1.1", now=500)
    assert len(tries._records) == 1


@pytest.mark.parametrize(
    "address, key",
    [
        ("192.168.1.20", "192.168.1.20"),
        ("::ffff:192.168.1.20", "192.168.1.20"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("", "unknown"),
        (None, "unknown"),
        ("testclient", "testclient"),
    ],
)
def test_an_ipv6_device_counts_as_its_whole_64_network(address, key):
    assert client_key(address) == key

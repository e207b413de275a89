"""Opening a running app to the network (Share this table) and closing it again."""

from __future__ import annotations

import asyncio
import socket
import urllib.request

import pytest

from companion.share import address, network
from companion.share.network import NetworkError, NetworkListener

OTHER_ADDRESS = "127.0.0.2"
"""Stands for this machine's network address: Linux answers on all of 127.0.0.0/8."""


async def hello(scope, receive, send):
    """The smallest ASGI app: says which address it was reached at."""
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": scope["server"][0].encode()})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reachable(address: str, port: int) -> bool:
    try:
        socket.create_connection((address, port), timeout=0.5).close()
        return True
    except OSError:
        return False


async def fetch(address: str, port: int) -> str:
    with await asyncio.to_thread(urllib.request.urlopen, f"http://{address}:{port}/", timeout=5) as response:
        return response.read().decode()


def test_the_app_listens_on_the_network_address_only_between_open_and_close():
    port = free_port()
    listener = NetworkListener(hello, port, address=lambda: OTHER_ADDRESS)

    async def scenario():
        assert not reachable(OTHER_ADDRESS, port) and not listener.is_open
        assert await listener.open() == OTHER_ADDRESS
        assert listener.is_open and listener.address == OTHER_ADDRESS
        assert await fetch(OTHER_ADDRESS, port) == OTHER_ADDRESS  # the same app, reached from the network
        assert await listener.open() == OTHER_ADDRESS  # a second tap changes nothing
        await listener.close()
        assert not listener.is_open and not reachable(OTHER_ADDRESS, port)
        await listener.close()  # closing twice is harmless
        assert await listener.open() == OTHER_ADDRESS  # and it can be shared again
        await listener.close()

    asyncio.run(scenario())


def test_two_taps_at_once_open_one_listener():
    port = free_port()
    listener = NetworkListener(hello, port, address=lambda: OTHER_ADDRESS)

    async def scenario():
        first, second = await asyncio.gather(listener.open(), listener.open())
        assert first == second == OTHER_ADDRESS
        await listener.close()

    asyncio.run(scenario())


def test_a_machine_without_a_network_is_told_so():
    listener = NetworkListener(hello, free_port(), address=lambda: None)
    with pytest.raises(NetworkError, match="not connected to a network"):
        asyncio.run(listener.open())
    assert not listener.is_open


def test_a_port_taken_on_the_network_address_is_explained_and_nothing_is_left_open():
    port = free_port()
    with socket.socket() as taken:
        taken.bind((OTHER_ADDRESS, port))
        taken.listen()
        listener = NetworkListener(hello, port, address=lambda: OTHER_ADDRESS)
        with pytest.raises(NetworkError, match=f"cannot listen on {OTHER_ADDRESS} port {port}: Address already in use"):
            asyncio.run(listener.open())
    assert not listener.is_open


def test_an_address_that_is_not_this_machines_is_explained():
    with pytest.raises(NetworkError, match="cannot listen on 192.0.2.1 port 8550: this machine has no such address"):
        network.bind("192.0.2.1", 8550)  # TEST-NET-1: no machine's address


def test_a_name_not_found_is_explained(monkeypatch):
    """The socket library wraps a name lookup's failure in an OSError whose number is
    getaddrinfo's (negative): its text would be "Unknown error -2"."""

    def lookup_fails(*args, **kwargs):
        raise OSError(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "create_server", lookup_fails)
    with pytest.raises(NetworkError, match="cannot listen on companion.invalid port 8550: this machine has no such address"):
        network.bind("companion.invalid", 8550)


@pytest.mark.parametrize(
    "configured, found, expected",
    [
        ("", "10.0.0.7", "10.0.0.7"),
        ("", "127.0.0.1", None),  # lan_address's answer on a machine without a network
        ("192.168.1.5", "10.0.0.7", "192.168.1.5"),  # chosen for a machine with several networks
        ("192.168.1.5", "127.0.0.1", "192.168.1.5"),
    ],
)
def test_the_share_address_is_the_chosen_one_else_the_network_address(monkeypatch, configured, found, expected):
    monkeypatch.setenv(address.ADDRESS_VARIABLE, configured)
    monkeypatch.setattr(network, "lan_address", lambda: found)
    assert network.share_address() == expected

"""bench/link.py: the benchmark's stand-in for a phone's Wi-Fi passes every byte on, in order,
and late by its delay each way."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from bench.link import DelayedLink


def echo_server() -> tuple[int, threading.Thread]:
    """A server on a free port that sends back what it gets, until the other end closes."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        connection, _ = listener.accept()
        with connection, listener:
            while data := connection.recv(65536):
                connection.sendall(data)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_a_round_trip_through_the_link_takes_its_delay_twice_and_keeps_every_byte_in_order():
    port, server = echo_server()
    sent = bytes(range(256)) * 1000  # more than one chunk
    with DelayedLink(port, 0.05) as link, socket.create_connection(("127.0.0.1", link.port)) as phone:
        began = time.monotonic()
        phone.sendall(b"ping")
        assert phone.recv(4) == b"ping"
        assert time.monotonic() - began >= 0.1
        phone.sendall(sent)
        received = b""
        while len(received) < len(sent):
            received += phone.recv(65536)
        assert received == sent
        phone.shutdown(socket.SHUT_WR)  # the end of the stream is passed on too: the server ends
        server.join(timeout=5)
        assert not server.is_alive()


def test_a_link_closed_with_a_connection_still_open_ends_it_quietly(caplog):
    """A page still connected when its start has been measured: asyncio logs no error."""
    port, _server = echo_server()
    with DelayedLink(port, 0.01) as link:
        phone = socket.create_connection(("127.0.0.1", link.port), timeout=5)
        phone.sendall(b"ping")
        assert phone.recv(4) == b"ping"
    assert phone.recv(4) == b""  # the link closed the connection
    phone.close()
    assert not [record for record in caplog.records if record.name == "asyncio"], caplog.text


@pytest.mark.parametrize("fault", ["cut", "silence"])
def test_a_cut_or_silent_link_closes_its_connections_and_closes_or_holds_each_new_one_until_mended(fault, caplog):
    """Cut: a club's database restarting, to its server alone (tests/browser/test_club_database_away.py).
    Silent: its host's network down (tests/store/test_silent_host.py)."""
    port, _server = echo_server()
    with DelayedLink(port, 0) as link:
        phone = socket.create_connection(("127.0.0.1", link.port), timeout=5)
        phone.sendall(b"ping")
        assert phone.recv(4) == b"ping"
        getattr(link, fault)()
        assert phone.recv(4) == b""  # closed
        phone.close()
        newcomer = socket.create_connection(("127.0.0.1", link.port), timeout=5 if fault == "cut" else 0.5)
        if fault == "cut":
            assert newcomer.recv(4) == b""  # closed as it came
        else:
            newcomer.sendall(b"ping")
            with pytest.raises(TimeoutError):  # taken, and never answered
                newcomer.recv(4)
        link.mend()
        second, _thread = echo_server()
        link.target_port = second
        with socket.create_connection(("127.0.0.1", link.port), timeout=5) as again:
            again.sendall(b"pong")
            assert again.recv(4) == b"pong"
    newcomer.close()  # still open when the link closed, if held: ended quietly
    assert not [record for record in caplog.records if record.name == "asyncio"], caplog.text

"""The share benchmark's capture of the loopback network (bench/wire.py): it tells a
websocket data frame from a ping and from plain HTTP, by port, at the kernel's time."""

import socket
import time

import pytest

from bench.wire import Wire


@pytest.fixture
def wire():
    captured = Wire.open()
    if captured is None:
        pytest.skip("capturing the loopback network needs root or CAP_NET_RAW")
    yield captured
    captured.close()


def test_a_websocket_data_frame_is_noted_with_its_ports_and_a_ping_or_http_is_not(wire):
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            client_port = client.getsockname()[1]
            accepted, _ = server.accept()
            with accepted:
                before = time.time()
                accepted.sendall(b"HTTP/1.1 101 Switching Protocols\r\n\r\n")
                client.recv(100)
                accepted.sendall(b"\x89\x00")  # a ping
                client.recv(100)
                accepted.sendall(b"\x82\x03abc")  # a binary message
                client.recv(100)
                after = time.time()
                deadline = time.monotonic() + 5
                while not wire.between(port, before, after) and time.monotonic() < deadline:
                    time.sleep(0.01)  # the capture's thread reads what the kernel stamped
                messages = wire.between(port, before, after)
    assert [(m.source, m.destination) for m in messages] == [(port, client_port)]
    assert before <= messages[0].at <= after

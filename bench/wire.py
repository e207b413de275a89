"""When a server's websocket messages cross the loopback network, as the kernel saw them.

A benchmark of live sharing needs the moment an update reaches each device's connection:
that is the server's and the network's part, which a page's own clock cannot tell apart from
the page waiting for a core (here every browser shares two cores; at a table each phone has
its own). The kernel stamps every packet as it crosses ``lo``, so the stamp does not depend on
when this process reads it. Capturing needs the right to open a packet socket (root, or
CAP_NET_RAW); without it ``Wire.open`` returns None.
"""

from __future__ import annotations

import socket
import struct
import threading
from dataclasses import dataclass

ETH_P_IP = 0x0800
PACKET_HOST = 0  # the packet as it arrives at its receiver (lo shows each one going out, too)
SO_TIMESTAMPNS = 35
WEBSOCKET_DATA = (0x1, 0x2)  # a text or binary frame's opcode, in the low bits of its first byte (not a ping)


@dataclass(frozen=True)
class Message:
    """The first packet of a websocket data frame, or of several, on the loopback network."""

    at: float
    """Seconds since the epoch, the kernel's stamp."""
    source: int
    """The sender's TCP port."""
    destination: int


class Wire:
    """The websocket messages crossing ``lo`` to and from a port, captured in a thread."""

    def __init__(self, capture: socket.socket):
        self._socket = capture
        self._lock = threading.Lock()
        self._messages: list[Message] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    @classmethod
    def open(cls) -> Wire | None:
        try:
            capture = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_IP))
        except (OSError, AttributeError):  # no right to capture, or not Linux
            return None
        capture.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
        capture.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        capture.bind(("lo", 0))
        return cls(capture)

    def _read(self) -> None:
        while True:
            try:
                packet, ancillary, _flags, address = self._socket.recvmsg(65536, 64)
            except OSError:  # closed
                return
            if address[2] != PACKET_HOST:
                continue
            message = parse(packet, ancillary)
            if message is not None:
                with self._lock:
                    self._messages.append(message)

    def between(self, port: int, start: float, end: float) -> list[Message]:
        """The messages from or to ``port`` stamped from ``start`` to ``end`` (seconds since the epoch)."""
        with self._lock:
            return [m for m in self._messages if start <= m.at <= end and port in (m.source, m.destination)]

    def close(self) -> None:
        self._socket.close()


def parse(packet: bytes, ancillary: list[tuple[int, int, bytes]]) -> Message | None:
    """The message a captured IPv4 packet starts, if it carries TCP data that begins a
    websocket data frame (a packet in the middle of a long frame may look like one: the
    benchmarks' updates each fit in one packet, and only a message's first packet counts)."""
    stamps = [data for level, kind, data in ancillary if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS]
    if not stamps or len(packet) < 20 or packet[9] != socket.IPPROTO_TCP:
        return None
    ip_header = (packet[0] & 0x0F) * 4
    source, destination = struct.unpack_from("!HH", packet, ip_header)
    tcp_header = (packet[ip_header + 12] >> 4) * 4
    payload = packet[ip_header + tcp_header :]
    if not payload or payload[0] & 0x0F not in WEBSOCKET_DATA:
        return None
    seconds, nanoseconds = struct.unpack("qq", stamps[0][:16])
    return Message(seconds + nanoseconds / 1e9, source, destination)

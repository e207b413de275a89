"""Where the server listens and the address the other devices at the table use."""

from __future__ import annotations

import ipaddress
import os
import re
import socket

ALL_INTERFACES = ("0.0.0.0", "::", "")

ADDRESS_VARIABLE = "COMPANION_SHARE_ADDRESS"
"""Names the address the phones reach this machine at, where it has several networks (Wi-Fi
and a cable, or a VPN) and the one Companion would choose is not theirs (docs/sharing.md)."""


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach a server listening on ``host``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


HOST_NAME = re.compile(r"(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
"""A machine's name as the phones' browsers take it in an address (RFC 1123's labels)."""


def is_host(value: str) -> bool:
    """Whether ``value`` is an address (IPv4 or IPv6) or a machine's name: what goes between
    ``http://`` and the port in the links the phones open (not a link itself, nor with a port)."""
    try:
        ipaddress.ip_address(value)
        return True
    except ValueError:  # a name, whose last label is not a number (999.1.1.1 is no address)
        return HOST_NAME.fullmatch(value) is not None and not value.rstrip(".").rsplit(".", 1)[-1].isdigit()


def configured_address() -> str | None:
    """The address $COMPANION_SHARE_ADDRESS names, if any."""
    return os.environ.get(ADDRESS_VARIABLE) or None


def reachable_address(host: str) -> str:
    """The address phones on the network reach a server listening on ``host`` at: on all of
    this machine's addresses, the configured one, else its network address."""
    if host not in ALL_INTERFACES:
        return host
    return configured_address() or lan_address()


def lan_address() -> str:
    """This machine's address on its local network (127.0.0.1 when it has none).

    Connecting a UDP socket sends nothing; it only makes the system choose the
    interface it would route through, whose address is then read back.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            own: str = probe.getsockname()[0]
            return own
        except OSError:
            pass
    try:
        return next(
            str(address)
            for *_, (address, *_) in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            if not ipaddress.ip_address(address).is_loopback
        )
    except (OSError, StopIteration):
        return "127.0.0.1"

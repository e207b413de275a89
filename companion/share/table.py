"""Who is at a shared table and what each device may do.

A device gets in with a code: the host code (printed only in the terminal of whoever
started the server) makes it a host, the join code (shown to everyone at the table) a
viewer. Hosts and the viewers a host grants it are scorers: they may enter, edit and
undo rounds. A joined browser keeps its device key, so a reload or a second tab is the
same device with the same rights.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

from companion.share import codes
from companion.share.limiter import WrongTries, client_key

MAX_DEVICES = 100
"""A table is a handful of phones; the cap keeps a loop of fresh browsers from filling memory.
It counts the devices that joined with the join code only: the host code always gets in."""


class Role(str, Enum):
    HOST = "host"
    SCORER = "scorer"
    VIEWER = "viewer"


@dataclass
class Device:
    """One joined browser (all its tabs). ``key`` is its secret; ``number`` is what people see."""

    number: int
    key: str
    browser: str
    system: str
    role: Role
    sessions: int = 0
    """Open connections from this device right now."""

    @property
    def can_score(self) -> bool:
        return self.role in (Role.HOST, Role.SCORER)

    @property
    def is_host(self) -> bool:
        return self.role is Role.HOST

    @property
    def connected(self) -> bool:
        return self.sessions > 0

    @property
    def is_this_machine(self) -> bool:
        """The user of an app that is not shared (see ``this_machine``), not a device that joined."""
        return self.key == ""

    @classmethod
    def this_machine(cls) -> Device:
        """The user of an app that is not shared: only this machine can reach it, so it is the host."""
        return cls(number=0, key="", browser="", system="", role=Role.HOST)


@dataclass(frozen=True)
class Invitation:
    """Where the table is reachable and its two codes."""

    address: str
    port: int
    code: str = field(default_factory=lambda: codes.new_code(codes.JOIN_CODE_LENGTH))
    host_code: str = field(default_factory=lambda: codes.new_code(codes.HOST_CODE_LENGTH), repr=False)

    @property
    def base_url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"http://{host}:{self.port}"

    @property
    def join_url(self) -> str:
        """The address with the join code: what the QR code carries."""
        return f"{self.base_url}/?code={self.code}"

    @property
    def host_url(self) -> str:
        return f"{self.base_url}/?code={self.host_code}"


class JoinRefused(Exception):
    """A code was not accepted: ``wrong`` (it was tried and is wrong), else not tried
    because the client must first wait ``wait`` seconds, or the table is ``full``."""

    def __init__(self, wrong: bool = False, wait: float = 0.0, full: bool = False):
        super().__init__(f"join refused (wrong={wrong}, wait={wait:.0f} s, full={full})")
        self.wrong = wrong
        self.wait = wait
        self.full = full


class Table:
    """The devices joined to one shared table. Safe to share between threads."""

    def __init__(
        self,
        invitation: Invitation,
        tries: WrongTries | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.invitation = invitation
        self._tries = tries or WrongTries()
        self._clock = clock
        self._devices: dict[str, Device] = {}
        self._lock = threading.Lock()

    def admit(self, typed: str, address: str | None, user_agent: str = "", known: Device | None = None) -> Device:
        """The device for the right code (host or join code); JoinRefused otherwise.

        ``known`` is the device the browser already was: it stays that device, and
        becomes a host with the host code. While a client must wait after wrong tries,
        its codes are not even compared.
        """
        client, now = client_key(address), self._clock()
        wait = self._tries.wait(client, now)
        if wait > 0:
            raise JoinRefused(wait=wait)
        as_host = codes.matches(typed, self.invitation.host_code)
        as_guest = codes.matches(typed, self.invitation.code)
        if not (as_host or as_guest):
            raise JoinRefused(wrong=True, wait=self._tries.wrong(client, now))
        self._tries.right(client)
        with self._lock:
            if known is not None and self._devices.get(known.key) is known:
                if as_host:
                    known.role = Role.HOST
                return known
            if not as_host and sum(not d.is_host for d in self._devices.values()) >= MAX_DEVICES:
                raise JoinRefused(full=True)
            browser, system = describe_user_agent(user_agent)
            device = Device(
                number=len(self._devices) + 1,
                key=codes.new_device_key(),
                browser=browser,
                system=system,
                role=Role.HOST if as_host else Role.VIEWER,
            )
            self._devices[device.key] = device
        return device

    def rejoin(self, key: str | None) -> Device | None:
        """The device a browser's saved key belongs to (None for a key from another run)."""
        with self._lock:
            return self._devices.get(key or "")

    def seats(self, device: Device) -> bool:
        """Whether ``device`` joined this table (not an earlier one, shared before a Stop sharing)."""
        return self.rejoin(device.key) is device

    def devices(self) -> list[Device]:
        with self._lock:
            return sorted(self._devices.values(), key=lambda d: d.number)

    def set_scorer(self, by: Device, number: int, scorer: bool) -> Device:
        """Let device ``number`` keep score or only watch; only a host may, and hosts stay hosts."""
        if not by.is_host or self.rejoin(by.key) is not by:
            raise PermissionError("only a host of this table may grant scorer rights")
        with self._lock:
            device = next((d for d in self._devices.values() if d.number == number), None)
            if device is None:
                raise LookupError(f"no device {number} at this table")
            if not device.is_host:
                device.role = Role.SCORER if scorer else Role.VIEWER
            return device

    def connected(self, device: Device, change: int) -> None:
        """A connection from ``device`` opened (+1) or closed (-1)."""
        with self._lock:
            device.sessions = max(0, device.sessions + change)


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
             ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def describe_user_agent(user_agent: str) -> tuple[str, str]:
    """(browser, system), e.g. ("Chrome", "Android"): enough for the host to tell the
    phones at the table apart; "" where the user agent does not say."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    return browser, system

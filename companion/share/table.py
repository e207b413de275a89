"""Who is at a shared table and what each device may do.

A device gets in with a code: the host code (printed only in the terminal of whoever
started the server) makes it a host, the join code (shown to everyone at the table) a
viewer. Hosts and the viewers a host grants it are scorers: they may enter, edit and
undo rounds. A club evening's table code (made when its round is drawn, companion.store.club)
makes a device a scorer of that table's game only: it may still watch everything else. A joined browser keeps its device key, so a reload or a second tab is the
same device with the same rights.
"""

from __future__ import annotations

import logging
import threading
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import TYPE_CHECKING, Callable

from companion.i18n import _
from companion.share import codes
from companion.share.limiter import WrongTries, client_key
from companion.clock import utc_now

if TYPE_CHECKING:
    from companion.store.seats import SeatRecord, Seats

log = logging.getLogger(__name__)

BEAT_SECONDS = 10.0
"""How often a server process tells the database that the devices connected to it still are."""

CONNECTED_FOR = timedelta(seconds=3 * BEAT_SECONDS)
"""A device counts as connected only while some process has said so this lately: the
connections of a process that was killed stop counting after this long, instead of for ever."""

GONE_AFTER = timedelta(minutes=30)
"""A device with no connection for this long has left the table, as far as the host's list goes
(its key still lets it back in, with its rights)."""

DEVICE_NAME_LENGTH = 40

MAX_DEVICES = 100
"""A table is a handful of phones; the cap keeps a loop of fresh browsers from filling memory.
It counts the devices that joined with the join code only: the host code always gets in."""

CLUB_MAX_DEVICES = 400
"""The cap on a club server (``--workers``): an evening of 40 tables has 160 phones and more."""


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
    """Open connections from this device right now (to any process of the server that is still alive)."""
    name: str = ""
    """What the host called it ("Bob's phone"); empty until named."""
    seen_at: datetime | None = None
    """When it was last seen connected, or went away (through any process); None before it ever did."""
    game_id: int | None = None
    """The one game it may change, having joined with a club table's code; None: any game its role allows."""

    def gone_for_a_while(self, now: datetime) -> bool:
        """Whether it has had no connection for longer than ``GONE_AFTER``: the host's list leaves it out."""
        return not self.connected and self.seen_at is not None and now - self.seen_at > GONE_AFTER

    @property
    def can_score(self) -> bool:
        return self.role in (Role.HOST, Role.SCORER)

    def may_change(self, game_id: int | None) -> bool:
        """Whether it may change game ``game_id`` (None: start a game, add a player): a scorer
        that joined with a club table's code changes that table's game and nothing else."""
        return self.can_score and (self.game_id is None or game_id == self.game_id)

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


class NameRefused(Exception):
    """A device name that cannot be kept; ``message`` says why, in the user's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def device_name(typed: str) -> str:
    """The name as it is kept (spaces run together, none at the ends); NameRefused if it cannot be."""
    name = " ".join(typed.split())
    if len(name) > DEVICE_NAME_LENGTH:
        raise NameRefused(_("A device name has at most {count} characters.").format(count=DEVICE_NAME_LENGTH))
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise NameRefused(_("A device name cannot hold control characters."))
    return name


class JoinRefused(Exception):
    """A code was not accepted: ``wrong`` (it was tried and is wrong), else not tried
    because the client must first wait ``wait`` seconds, or the table is ``full``."""

    def __init__(self, wrong: bool = False, wait: float = 0.0, full: bool = False):
        super().__init__(f"join refused (wrong={wrong}, wait={wait:.0f} s, full={full})")
        self.wrong = wrong
        self.wait = wait
        self.full = full


class Table:
    """The devices joined to one shared table. Safe to share between threads.

    The table's state (codes, devices, rights, names) is in the database (``seats``), so
    that every server process of a club admits the same devices with the same rights and
    a device coming back to another process, or after a restart of its own, keeps them.
    Each process keeps one ``Device`` object per device it has seen: its sessions share
    it, and a change of rights made through another process is read again (``reload``).
    Without ``seats`` the table lives in an in-memory database of its own.
    """

    def __init__(
        self,
        invitation: Invitation,
        tries: WrongTries | None = None,
        clock: Callable[[], float] = time.monotonic,
        seats: Seats | None = None,
        table_id: int | None = None,
        now: Callable[[], datetime] = utc_now,
        max_devices: int = MAX_DEVICES,
    ):
        self.invitation = invitation
        self.max_devices = max_devices
        """How many devices may join with the join code (see MAX_DEVICES)."""
        self._tries = tries or WrongTries()
        self._clock = clock
        self._now = now
        self._devices: dict[str, Device] = {}
        self._here: Counter[str] = Counter()
        """Connections this process holds, per device key (what its heartbeat vouches for)."""
        self._untold: Counter[str] = Counter()
        """Connections opened (+) and closed (-) here, per device key, that the database has not
        heard of yet: it was away for a moment (``connected``)."""
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._beating = False
        self._seats = seats or _private_seats()
        self._table_id = table_id

    @property
    def table_id(self) -> int:
        """The table's row in the database, made on first use (the store may open after sharing starts)."""
        with self._lock:
            if self._table_id is None:
                invitation = self.invitation
                self._table_id = self._seats.open_table(invitation.code, invitation.host_code, invitation.address, invitation.port)
            return self._table_id

    def stop(self) -> None:
        """Sharing has stopped: no device of this table gets in again, through any process."""
        self._stopped.set()
        with self._lock:
            table_id, self._devices = self._table_id, {}
        if table_id is not None:
            self._seats.stop_table(table_id)

    def admit(self, typed: str, address: str | None, user_agent: str = "", known: Device | None = None) -> Device:
        """The device for the right code (host code, join code or a club table's code);
        JoinRefused otherwise.

        ``known`` is the device the browser already was: it stays that device, becomes a
        host with the host code, and a scorer of a club table's game with that table's code
        (unless it may change every game already). While a client must wait after wrong
        tries, its codes are not even compared.
        """
        client, now = client_key(address), self._clock()
        wait = self._tries.wait(client, now)
        if wait > 0:
            raise JoinRefused(wait=wait)
        invitation = self.read_codes()
        as_host = invitation is not None and codes.matches(typed, invitation.host_code)
        as_guest = invitation is not None and codes.matches(typed, invitation.code)
        club_game = None
        if invitation is not None and not (as_host or as_guest):
            club_game = self._seats.club_table_game(codes.normalise(typed))
        if not (as_host or as_guest or club_game is not None):
            raise JoinRefused(wrong=True, wait=self._tries.wrong(client, now))
        self._tries.right(client)
        table_id = self.table_id
        if known is not None and self.seats(known):
            if as_host and not known.is_host:
                self._seats.set_host(table_id, known.key)
                known.role = Role.HOST
            elif club_game is not None and not (known.can_score and known.game_id is None):
                self._seats.seat_at_club_table(table_id, known.key, club_game)
                self.confirms(known)  # reads its new rights into ``known``
            return known
        browser, system = describe_user_agent(user_agent)
        role = Role.HOST if as_host else Role.SCORER if club_game is not None else Role.VIEWER
        seat = self._seats.add_device(table_id, codes.new_device_key(), browser, system, role.value, self.max_devices, club_game)
        if seat is None:
            raise JoinRefused(full=True)
        return self._known(seat)

    def rejoin(self, key: str | None) -> Device | None:
        """The device a browser's saved key belongs to (None for a key of another table),
        whichever process of the server it joined through."""
        if not key:
            return None
        with self._lock:
            device = self._devices.get(key)
        if device is not None:
            return device
        seat = self._seats.device(self.table_id, key)
        return None if seat is None else self._known(seat)

    def read_codes(self) -> Invitation | None:
        """The table's codes as the database has them now (a host may have made a new join
        code through another process); None once sharing has stopped."""
        found = self._seats.codes(self.table_id)
        if found is None:
            return None
        with self._lock:
            if found != (self.invitation.code, self.invitation.host_code):
                self.invitation = replace(self.invitation, code=found[0], host_code=found[1])
            return self.invitation

    def new_join_code(self, by: Device) -> Invitation:
        """A new join code for devices still to join (a host's choice, e.g. after ending a
        device's access): the old one lets nobody in any more, through any process; the
        devices already at the table stay."""
        self._only_a_host(by, "make a new join code")
        code = codes.new_code(codes.JOIN_CODE_LENGTH)
        self._seats.new_join_code(self.table_id, code)
        with self._lock:
            self.invitation = replace(self.invitation, code=code)
            return self.invitation

    def end_access(self, by: Device, number: int) -> None:
        """Device ``number`` is out for good (a host's choice): its key lets it in no more,
        through any process. A host's access cannot be ended (the host code lets it in again)."""
        self._only_a_host(by, "end a device's access")
        device = self.reload(number)
        if device is None or device.is_host:
            raise LookupError(f"no device {number} other than a host at this table")
        self._seats.end_device(self.table_id, number)
        self.forget(number)

    def forget(self, number: int) -> None:
        """Device ``number`` no longer counts in this process (its access was ended)."""
        with self._lock:
            self._devices = {key: d for key, d in self._devices.items() if d.number != number}

    def read_again(self) -> None:
        """Read the whole table again (messages from the other processes may have been
        missed): the codes, every device's rights, and which devices are still in."""
        self.read_codes()
        keys = {device.key for device in self.devices()}
        with self._lock:
            self._devices = {key: d for key, d in self._devices.items() if key in keys}

    def confirms(self, device: Device) -> bool:
        """Whether ``device`` is still at the table, with its rights as they are now, as the
        database says (asked before every change: a message from another process that ended
        the device or took its rights back may not have arrived yet)."""
        seat = self._seats.device(self.table_id, device.key)
        if seat is None:
            self.forget(device.number)
            return False
        return self._known(seat) is device

    def reload(self, number: int) -> Device | None:
        """Read device ``number``'s rights again (another process changed them); the device as this process knows it."""
        seat = next((s for s in self._seats.devices(self.table_id) if s.number == number), None)
        return None if seat is None else self._known(seat)

    def seats(self, device: Device) -> bool:
        """Whether ``device`` joined this table (not an earlier one, shared before a Stop sharing)."""
        return self.rejoin(device.key) is device

    def devices(self) -> list[Device]:
        """Every device of the table, through whichever process it joined."""
        return [self._known(seat) for seat in self._seats.devices(self.table_id)]

    def set_scorer(self, by: Device, number: int, scorer: bool) -> Device:
        """Let device ``number`` keep score or only watch; only a host may, and hosts stay hosts."""
        self._only_a_host(by, "grant scorer rights")
        self._seats.set_role(self.table_id, number, (Role.SCORER if scorer else Role.VIEWER).value)
        device = self.reload(number)
        if device is None:
            raise LookupError(f"no device {number} at this table")
        return device

    def rename(self, by: Device, number: int, typed: str) -> Device:
        """Call device ``number`` ``typed`` ("Bob's phone"; empty: no name); only a host may."""
        self._only_a_host(by, "name its devices")
        self._seats.rename(self.table_id, number, device_name(typed))
        device = self.reload(number)
        if device is None:
            raise LookupError(f"no device {number} at this table")
        return device

    def _only_a_host(self, by: Device, action: str) -> None:
        if not by.is_host or self.rejoin(by.key) is not by:
            raise PermissionError(f"only a host of this table may {action}")

    def connected(self, device: Device, change: int) -> None:
        """A connection from ``device`` opened (+1) or closed (-1) in this process. A club's
        database away for a moment hears of it at the first beat it answers (``beat``): a
        phone's page that reconnects or goes meanwhile is not held up by it."""
        from companion.store.errors import StoreError  # the store is open by now: no import on the first page's path

        with self._lock:
            device.sessions = max(0, device.sessions + change)
            self._here[device.key] += change
            self._here = +self._here  # keys with no connection left go
            self._untold[device.key] += change
            start = not self._beating and not self._stopped.is_set()
            self._beating = self._beating or start
        if start:
            threading.Thread(target=self._beat_until_stopped, name="table-heartbeat", daemon=True).start()
        try:
            self._tell_connections()
        except StoreError:  # the heartbeat says in the terminal that the database is away, once
            pass

    def _tell_connections(self) -> None:
        """Write the connections opened and closed here that the database has not heard of."""
        with self._lock:
            untold, self._untold = self._untold, Counter()
        try:
            for key in list(untold):
                if untold[key]:
                    self._seats.connected(self.table_id, key, untold[key])
                del untold[key]
        finally:
            with self._lock:
                self._untold.update(untold)  # what was not written: the next try's

    def beat(self) -> None:
        """Tell the database that the devices connected to this process still are (``CONNECTED_FOR``),
        and the connections it has not heard of."""
        self._tell_connections()
        with self._lock:
            keys = list(self._here)
        if keys:
            self._seats.seen(self.table_id, keys)

    def _beat_until_stopped(self) -> None:
        failing = False
        while not self._stopped.wait(BEAT_SECONDS):
            failing = self._beat_or_say(failing)

    def _beat_or_say(self, failing: bool) -> bool:
        """One beat; whether it failed. The host's terminal hears once, in words, that the
        database cannot be told (``failing``: the beat before failed too), and when it can again."""
        from companion.store.errors import StoreError  # the store is open by now: no import on the first page's path

        try:
            self.beat()
        except StoreError as err:  # the database away for a moment: the next beat tries again
            if not failing:
                log.warning(
                    _("companion: could not tell the database which devices are connected here, and will try again every {seconds} s: {reason}").format(
                        seconds=round(BEAT_SECONDS), reason=err.detail
                    )
                )
            return True
        except Exception:  # a fault of the app's, not the database's: told whole, and the heartbeat goes on
            log.warning("companion: could not tell the database which devices are connected", exc_info=True)
            return failing
        if failing:
            log.warning(_("companion: the database answers again; the devices connected here count as connected again."))
        return False

    def _known(self, seat: SeatRecord) -> Device:
        """The process's one Device object for ``seat``, with the rights the database has now."""
        with self._lock:
            device = self._devices.get(seat.key)
            if device is None:
                device = self._devices[seat.key] = Device(seat.number, seat.key, seat.browser, seat.system, Role(seat.role))
            device.role = Role(seat.role)
            device.game_id = seat.game_id
            device.name = seat.name
            # connections nobody vouched for lately were held by a process that died
            device.sessions = seat.connections if self._now() - seat.seen_at <= CONNECTED_FOR else 0
            device.seen_at = seat.seen_at
            return device


def _private_seats() -> Seats:
    """A table's state in an in-memory database of its own (tests; a table that no other process serves)."""
    from companion.store import Store
    from companion.store.seats import Seats

    store = Store.memory()
    return Seats(lambda: store)


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

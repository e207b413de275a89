"""Carrying the table's messages between the server processes of a club (PostgreSQL's
LISTEN/NOTIFY; no other message broker).

Every process of a server on PostgreSQL runs one ``Relay``: what a session announces is
also sent as a notification on the store's channel (``channel``) after the change is committed, and what another
process sent is handed to this process's sessions (``deliver``) as if announced here. A
message names what changed (a game and its version, a device's number), never the state,
so a process that hears it reads the store (companion.share.feed). With SQLite the server
is one process and no relay runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import uuid
from dataclasses import asdict, fields
from typing import Any, Callable

from companion.i18n import _
from companion.share.live import (
    DeviceEnded,
    DevicesChanged,
    EveningChanged,
    GameChanged,
    GamesRestored,
    JoinCodeChanged,
    Message,
    PlayersChanged,
    RoleChanged,
)

CHANNEL = "companion_live"
MESSAGES: dict[str, type] = {
    kind.__name__: kind
    for kind in (GameChanged, PlayersChanged, GamesRestored, EveningChanged, DevicesChanged, RoleChanged, DeviceEnded, JoinCodeChanged)
}
RETRY_SECONDS = 1.0
"""Pause before listening again after the database connection was lost."""

log = logging.getLogger(__name__)


def encode(message: Message, origin: str) -> str:
    return json.dumps({"kind": type(message).__name__, "origin": origin, **asdict(message)})


def decode(payload: str) -> tuple[Message, str] | None:
    """(message, origin process) from a notification's payload; None for anything else."""
    try:
        data = json.loads(payload)
        kind = MESSAGES[data["kind"]]
        values = {f.name: data[f.name] for f in fields(kind)}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()) or not isinstance(data["origin"], str):
            return None
        return kind(**values), data["origin"]
    except (ValueError, KeyError, TypeError):
        return None


def conninfo(database_url: str) -> str:
    """The psycopg connection string of a SQLAlchemy ``postgresql+psycopg://`` URL (with the
    store's timeouts: a silent database host does not hold a change's handler for ever)."""
    from sqlalchemy.engine import make_url

    from companion.store.database import with_timeouts

    return with_timeouts(make_url(database_url)).set(drivername="postgresql").render_as_string(hide_password=False)


def channel(conn: Any) -> str:
    """The channel of the store ``conn`` finds (its search path's schema): a notification goes
    to every listener of the database, so stores kept in schemas of one database (two clubs,
    or the tests' workers) would otherwise end each other's devices. A name PostgreSQL takes
    unquoted, whatever the schema is called."""
    schema = conn.execute("SELECT current_schema()").fetchone()[0] or ""
    return f"{CHANNEL}_{hashlib.sha256(schema.encode()).hexdigest()[:16]}"


class Relay:
    """This process's end of the channel (see the module docstring)."""

    def __init__(
        self,
        database_url: str,
        deliver: Callable[[Message], None],
        catch_up: Callable[[], None] = lambda: None,
        host_silent: Callable[[], bool] = lambda: False,
    ):
        self.origin = uuid.uuid4().hex
        self._conninfo = conninfo(database_url)
        self._deliver = deliver
        self._catch_up = catch_up
        """Called when listening again after the connection was lost: what was sent meanwhile was not heard."""
        self._host_silent = host_silent
        """Whether the process's store finds the database's host silent (it has waited for it
        once already): a message is then kept at once, not sent after one more wait."""
        self.backend_pid: int | None = None
        self._sender: Any = None
        self._failing = False
        """Whether the last message could not be sent: the host's terminal has been told, and
        the next message tries once, not twice."""
        self._silent = False
        """Whether the database's host went silent (a try here waited for the connect timeout, or
        the store finds it so): no message is sent, nor waited for, until the listening
        connection hears the host again and the store does too."""
        self._untold: list[str] = []
        """The messages kept while the host was silent, each once, told once it answers."""
        self._channel = ""
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self.listening = threading.Event()
        """Set while the channel is listened to (tests wait for it)."""

    def start(self) -> None:
        threading.Thread(target=self._listen, name="relay", daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()

    def send(self, message: Message) -> None:
        """Tell the other processes (the change is committed already)."""
        self._tell(encode(message, self.origin))

    def _tell(self, payload: str) -> None:
        """Send ``payload``; while the database's host is silent, keep it for when it answers."""
        import psycopg

        from companion.store.database import SILENT_S

        with self._lock:
            if self._silent or self._host_silent():
                self._silent = True
                if payload not in self._untold:
                    self._untold.append(payload)
                self._say_failing()
                return
            for _attempt in range(1 if self._failing else 2):  # a connection lost since the last message is opened again once
                began = time.monotonic()
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(self._conninfo, autocommit=True)
                        self._channel = channel(self._sender)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (self._channel, payload))
                except psycopg.OperationalError:
                    self._sender = None
                    if time.monotonic() - began > SILENT_S:
                        self._silent, self._untold = True, [payload]
                        break
                    continue
                if self._failing:
                    log.warning(_("companion: changes reach the other server processes again."))
                    self._failing = False
                return
            self._say_failing()

    def _say_failing(self) -> None:
        """Said once, not at every change while the database is away."""
        if not self._failing:
            log.warning(_("companion: a change could not be told to the other server processes."))
            self._failing = True

    def _heard_again(self) -> None:
        """The host answers the listening connection: tell what was kept while it was silent
        (kept again while the store still finds it silent)."""
        with self._lock:
            untold, self._silent, self._untold = self._untold, False, []
        for payload in untold:
            self._tell(payload)

    def _listen(self) -> None:
        import psycopg

        from companion.store.errors import StoreError

        lost = False
        while not self._stopped.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {channel(conn)}")
                    self.backend_pid = conn.info.backend_pid
                    self.listening.set()
                    self._heard_again()
                    if lost:
                        self._catch_up()
                    while not self._stopped.is_set():
                        for note in conn.notifies(timeout=1.0):
                            heard = decode(note.payload)
                            if heard is not None and heard[1] != self.origin:
                                self._deliver(heard[0])
                        if self._silent:  # the host was silent to a message: does it answer here?
                            conn.execute("SELECT 1")
                            self._heard_again()
            except (psycopg.OperationalError, StoreError):  # the database away: what was missed, or being heard, is read again
                self.listening.clear()
                lost = True
                time.sleep(RETRY_SECONDS)


_relay: Relay | None = None


def start(
    database_url: str, deliver: Callable[[Message], None], catch_up: Callable[[], None], host_silent: Callable[[], bool]
) -> Relay:
    """Relay this process's messages through ``database_url`` (PostgreSQL) from now on."""
    global _relay
    _relay = Relay(database_url, deliver, catch_up, host_silent)
    _relay.start()
    return _relay


def send(message: Message) -> None:
    """Tell the server's other processes, if there are any (a relay runs)."""
    if _relay is not None:
        _relay.send(message)

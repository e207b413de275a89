"""Where the database lives, how connections are set up, and schema upgrades.

SQLite gets WAL mode, full sync (a confirmed save survives power loss), foreign keys and
a busy timeout on every connection; writers take the lock up front (BEGIN IMMEDIATE) so
two devices saving at once queue up instead of failing half-way.
"""

from __future__ import annotations

import dis
import marshal
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.pool import StaticPool

from companion.device import data_folder, in_browser
from companion.rules.text import Phrase
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine.interfaces import DBAPIConnection

MIGRATIONS = Path(__file__).with_name("migrations")
WRITE = "companion_write"  # execution option: begin with BEGIN IMMEDIATE on SQLite

after_commit: Callable[[], None] | None = None
"""Called at each commit of a change to a SQLite file (every change is written with the
WRITE option) when set: in the phone's browser it keeps the change in IndexedDB
(companion/store/browser_storage.py)."""


def database_url(url: str | URL | None = None) -> URL:
    """The URL to use: the one given, else $COMPANION_DATABASE_URL, else the file in this
    device's data folder."""
    if url is None:
        url = os.environ.get("COMPANION_DATABASE_URL") or None
    if url is None:
        folder = data_folder()
        folder.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite", database=str(folder / "companion.sqlite3"))
    try:
        return make_url(url)
    except sa.exc.ArgumentError:
        raise StoreError("{url!r} is not a database address Companion understands.", url=url) from None


def describe(url: URL) -> str | Phrase:
    """The URL for messages: a file path for SQLite, no password otherwise."""
    if url.get_backend_name() == "sqlite":
        return url.database if url.database and url.database != ":memory:" else Phrase("the in-memory database")
    return url.render_as_string(hide_password=True)


CONNECT_TIMEOUT_S = 5
"""How long a connection to a PostgreSQL server may take to open (libpq's ``connect_timeout``):
a database host gone silent (its network down, the machine frozen) is then said to be
unreachable, where a page that asked, and the relay, waited for ever."""

SILENT_S = 1.0
"""A failure to reach a PostgreSQL server that took longer than this means its host is silent
(its network down, its machine frozen), where a server restarting refuses at once. Until the
host answers again, the store and the relay stop asking it from the pages' thread: each try
would hold a club server's process for the connect timeout."""

UNACKNOWLEDGED_S = 10
"""How long what was sent to a PostgreSQL server may go unacknowledged before the operating
system gives the connection up (libpq's ``tcp_user_timeout``), and how long a connection may
sit idle before it is probed (its keepalives): a connection open when the server's network
went down fails in seconds, where it waited as long as the system's TCP timeouts (about a
quarter of an hour on Linux). It cannot tell a server that is alive but never answers."""


def with_timeouts(url: URL) -> URL:
    """``url`` with the timeouts above for a PostgreSQL server, each unless the address sets its own."""
    if url.get_backend_name() != "postgresql":
        return url
    timeouts = {
        "connect_timeout": str(CONNECT_TIMEOUT_S),
        "tcp_user_timeout": str(UNACKNOWLEDGED_S * 1000),
        "keepalives_idle": str(UNACKNOWLEDGED_S),
        "keepalives_interval": "5",
        "keepalives_count": "3",
    }
    return url.update_query_dict({name: value for name, value in timeouts.items() if name not in url.query})


def make_engine(url: URL) -> Engine:
    if url.get_backend_name() != "sqlite":
        try:
            return sa.create_engine(with_timeouts(url), pool_pre_ping=True)
        except (sa.exc.ArgumentError, ImportError, sa.exc.NoSuchModuleError) as err:
            raise StoreError("Cannot use the database at {where}: {reason}", where=describe(url), reason=str(err)) from None
    in_memory = url.database in (None, "", ":memory:")
    if in_memory:
        engine = sa.create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
    else:
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @sa.event.listens_for(engine, "connect")
    def _set_up(dbapi_connection: DBAPIConnection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see _begin)
        cursor = dbapi_connection.cursor()
        try:
            if not in_memory and not in_browser():  # in a browser one page writes, and only whole files are kept
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: sa.Connection) -> None:
        immediate = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    if not in_memory:

        @sa.event.listens_for(engine, "commit")
        def _committed(connection: sa.Connection) -> None:
            if after_commit is not None and connection.get_execution_options().get(WRITE, False):  # reads change nothing
                after_commit()

    return engine


def _alembic_config(connection: sa.Connection) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sourceless", "true" if _compiled_only() else "false")
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, url: URL, revision: str = "head") -> None:
    """Bring the schema up to ``revision``; refuse databases that are not Companion's.

    A database with tables but no migration record belongs to something else, and one
    at a revision this version does not know was written by a newer Companion. A database
    already at the newest revision is the usual case: it is recognised without loading
    Alembic, which is only needed to upgrade or to explain.
    """
    if revision == "head":
        with engine.connect() as connection:
            current = _recorded_revision(connection)
            connection.rollback()
        if current is not None and current == _newest_revision():
            return
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    script = ScriptDirectory(str(MIGRATIONS), sourceless=_compiled_only())
    with engine.connect().execution_options(**{WRITE: True}) as connection:
        try:
            current = MigrationContext.configure(connection).get_current_revision()
        except CommandError:  # alembic_version holds several rows: something else wrote to it
            raise StoreError(
                "{where} is damaged: it records more than one schema version.", where=describe(url)
            ) from None
        if current is None:
            existing = set(sa.inspect(connection).get_table_names())
            if existing:
                raise StoreError(
                    "{where} already holds other data ({tables}) and is not a Companion database.",
                    where=describe(url), tables=", ".join(sorted(existing)[:5]),
                )
        else:
            try:
                script.get_revision(current)
            except CommandError:
                raise StoreError(
                    "{where} was written by a newer version of Companion (schema {schema}); update Companion to open it.",
                    where=describe(url), schema=current,
                ) from None
        if current == script.get_current_head() and revision == "head":
            connection.rollback()
            return
        connection.rollback()
        command.upgrade(_alembic_config(connection), revision)
        connection.commit()


def _recorded_revision(connection: sa.Connection) -> str | None:
    """The revision recorded in the database (None if none, or not exactly one)."""
    if not sa.inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    return rows[0] if len(rows) == 1 else None


def _newest_revision() -> str | None:
    """The one head of the migration files, read from their ``revision`` and ``down_revision``
    (None unless there is exactly one: Alembic then decides)."""
    revisions: set[object] = set()
    parents: set[object] = set()
    for path in _migration_files():
        constants = _module_constants(path)
        if "revision" in constants:
            revisions.add(constants["revision"])
        down = constants.get("down_revision")
        parents.update(down if isinstance(down, (tuple, list)) else [down])
    heads = [head for head in revisions - parents if isinstance(head, str)]
    return heads[0] if len(heads) == 1 else None


def _compiled_only() -> bool:
    """Whether the migrations are here as compiled files only: a phone build (``flet build``)
    compiles the app with ``compileall -b`` and deletes every ``.py``, leaving each
    migration's ``.pyc`` in its place. Alembic then reads those (its ``sourceless`` option)."""
    return not any((MIGRATIONS / "versions").glob("*.py"))


def _migration_files() -> list[Path]:
    return sorted((MIGRATIONS / "versions").glob("*.pyc" if _compiled_only() else "*.py"))


def _module_constants(path: Path) -> dict[str, object]:
    """The names a module's top level sets to a constant (``revision = "0002"``), read from
    its code without running it (running a migration would import Alembic)."""
    if path.suffix == ".py":
        code = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    else:
        code = marshal.loads(path.read_bytes()[PYC_HEADER_SIZE:])
    constants: dict[str, object] = {}
    previous = None
    for instruction in dis.get_instructions(code):
        if instruction.opname == "STORE_NAME" and previous is not None and previous.opname == "LOAD_CONST":
            constants[instruction.argval] = previous.argval
        previous = instruction
    return constants


PYC_HEADER_SIZE = 16
"""Bytes before the code in a ``.pyc`` file: magic number, flags, and source stamp (PEP 552)."""

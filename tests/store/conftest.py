"""Every store test runs against SQLite and against PostgreSQL.

PostgreSQL comes from $COMPANION_TEST_POSTGRES_URL (scripts/start-test-postgres.sh prints
one). Without it, or when the server does not answer, those tests are skipped with the
reason, except in CI (CI=true), where they fail. Each xdist worker works in schemas of
its own, so parallel runs do not meet: one left empty for each test that needs a bare
database, one migrated once and emptied (TRUNCATE) before each test that needs a store.
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from companion.store import Store

_admin: dict[str, sa.Engine] = {}  # one engine per server URL for creating and emptying schemas
_server_problem: list[str] = []  # why the PostgreSQL server cannot be used, once known
_migrated: set[str] = set()  # schemas already holding the current tables


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL store tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL store tests skipped: {reason}")


def _postgres_url(schema_kind: str, statements) -> str:
    """A URL whose search path is this worker's schema, after running ``statements(schema)``."""
    base = os.environ.get("COMPANION_TEST_POSTGRES_URL")
    if not base:
        _unavailable("COMPANION_TEST_POSTGRES_URL is not set (scripts/start-test-postgres.sh prints one)")
    if _server_problem:
        _unavailable(_server_problem[0])
    schema = f"store_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{schema_kind}"
    if base not in _admin:
        _admin[base] = sa.create_engine(base)
    engine = _admin[base]
    try:
        with engine.begin() as conn:
            for statement in statements(schema):
                conn.exec_driver_sql(statement)
    except sa.exc.OperationalError as err:
        detail = str(err.orig).strip().splitlines()[0]
        _server_problem.append(f"the server at {make_url(base).render_as_string()} does not answer ({detail})")
        _unavailable(_server_problem[0])
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _fresh(schema: str) -> list[str]:
    return [f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"']


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request) -> str:
    return request.param


@pytest.fixture
def database_url(backend, tmp_path) -> str:
    """The address of an empty database (no tables at all)."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    return _postgres_url("bare", _fresh)


@pytest.fixture
def store_url(backend, tmp_path) -> str:
    """The address of a database with the current tables and no data."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite3'}"

    def empty(schema: str) -> list[str]:
        if schema in _migrated:
            tables = ", ".join(f'"{schema}".{table}' for table in ("rounds", "game_players", "games", "players", "table_devices", "shared_tables"))
            return [f"TRUNCATE {tables} RESTART IDENTITY"]
        return _fresh(schema)

    url = _postgres_url("store", empty)
    schema = make_url(url).query["options"].split("=", 1)[1]
    if schema not in _migrated:
        Store(url).close()
        _migrated.add(schema)
    return url


@pytest.fixture
def store(store_url):
    with Store(store_url) as opened:
        yield opened

"""Every store test runs against SQLite and against PostgreSQL.

PostgreSQL comes from $COMPANION_TEST_POSTGRES_URL (scripts/start-test-postgres.sh prints
one). Without it, or when the server does not answer, those tests are skipped with the
reason, except in CI (CI=true), where they fail. Each test gets an empty schema of its
own per xdist worker, so runs in parallel do not meet.
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from companion.store import Store

_server_problem: list[str] = []  # filled once: why the PostgreSQL server cannot be used


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL store tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL store tests skipped: {reason}")


def _fresh_postgres_url() -> str:
    base = os.environ.get("COMPANION_TEST_POSTGRES_URL")
    if not base:
        _unavailable("COMPANION_TEST_POSTGRES_URL is not set (scripts/start-test-postgres.sh prints one)")
    if _server_problem:
        _unavailable(_server_problem[0])
    schema = f"store_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    engine = sa.create_engine(base)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except sa.exc.OperationalError as err:
        _server_problem.append(f"the server at {make_url(base).render_as_string()} does not answer ({str(err.orig).strip().splitlines()[0]})")
        _unavailable(_server_problem[0])
    finally:
        engine.dispose()
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request, tmp_path) -> str:
    """The address of an empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    return _fresh_postgres_url()


@pytest.fixture
def store(database_url):
    with Store(database_url) as opened:
        yield opened

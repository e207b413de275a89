"""Alembic environment for the store.

The store runs migrations itself when it opens a database (it passes its connection in
``config.attributes["connection"]``). For writing a new revision by hand or with
``--autogenerate``, run from the repository root:

    COMPANION_DATABASE_URL=sqlite:///scratch.sqlite3 \
        alembic -c companion/store/migrations/alembic.ini revision --autogenerate -m "what changed"
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from companion.store.database import database_url, make_engine
from companion.store.models import METADATA


def run_migrations(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    engine = make_engine(database_url(context.config.get_main_option("sqlalchemy.url") or None))
    try:
        with engine.connect() as connection:
            run_migrations(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("The store's migrations run online only; set COMPANION_DATABASE_URL.")
run()

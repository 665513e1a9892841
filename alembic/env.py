"""Alembic environment for footnote-pg.

Used through ``footnote_pg.install`` (``footnote-pg install``), which passes the
database URL in ``config.attributes["url"]`` (never through an ini file, so a
``%`` in a password is harmless) and sets ``script_location`` to this folder.
The version table is ``public.footnote_alembic_version``: it must exist before
the first revision creates our schemas, and it is the one thing a downgrade to
base leaves behind (``footnote-pg uninstall`` drops it too).
"""

from __future__ import annotations

import psycopg
from sqlalchemy import create_engine, pool

from alembic import context

VERSION_TABLE = "footnote_alembic_version"
VERSION_TABLE_SCHEMA = "public"

config = context.config


def run_offline() -> None:
    context.configure(
        url="postgresql+psycopg://",
        dialect_name="postgresql",
        literal_binds=True,
        version_table=VERSION_TABLE,
        version_table_schema=VERSION_TABLE_SCHEMA,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    url = config.attributes["url"]
    engine = create_engine(
        "postgresql+psycopg://",
        creator=lambda: psycopg.connect(url),
        poolclass=pool.NullPool,
    )
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            version_table=VERSION_TABLE,
            version_table_schema=VERSION_TABLE_SCHEMA,
            transactional_ddl=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

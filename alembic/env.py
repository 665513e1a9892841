"""Alembic environment for footnote-pg.

Used through ``footnote_pg.install`` (``footnote-pg install``), which passes the
database URL in ``config.attributes["url"]`` (never through an ini file, so a
``%`` in a password is harmless) and sets ``script_location`` to this folder.
The version table is ``footnote_meta.alembic_version``, in a schema of its own:
it must exist before the first revision creates our schemas, and it is the one
thing a downgrade to base leaves behind (``footnote-pg uninstall`` drops it
too). Installs from before it moved kept it as ``public.footnote_alembic_version``;
the first migration run moves it (``PRELUDE``), so no table of ours stays in
``public``.
"""

from __future__ import annotations

import psycopg
from sqlalchemy import create_engine, pool

from alembic import context

VERSION_TABLE = "alembic_version"
VERSION_TABLE_SCHEMA = "footnote_meta"
PRELUDE = """
DO $meta$
BEGIN
    IF to_regnamespace('footnote_meta') IS NULL THEN
        CREATE SCHEMA footnote_meta;
        COMMENT ON SCHEMA footnote_meta IS 'footnote-pg: the installed revision (Alembic''s version table)';
        REVOKE ALL ON SCHEMA footnote_meta FROM PUBLIC;
    END IF;
    IF to_regclass('public.footnote_alembic_version') IS NOT NULL
       AND to_regclass('footnote_meta.alembic_version') IS NULL THEN
        ALTER TABLE public.footnote_alembic_version SET SCHEMA footnote_meta;
        ALTER TABLE footnote_meta.footnote_alembic_version RENAME TO alembic_version;
    END IF;
END
$meta$;
"""

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
        context.execute(PRELUDE)
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
            connection.exec_driver_sql(PRELUDE)
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

"""Install, upgrade and remove footnote-pg in a database, and load the sample ERP.

The schema goes in through Alembic (one transaction, statement by statement,
from SQL frozen per revision). The sample ERP is a separate step: installing
into a real ERP database never creates it.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import psycopg
from alembic.config import Config
from alembic.script import ScriptDirectory

from alembic import command
from footnote_pg import sqlfiles

log = logging.getLogger(__name__)

DEFAULT_SAMPLE_INVOICES = 2400
DEFAULT_SAMPLE_SEED = 42


def _config(url: str | None = None, output_buffer: Any = None) -> Config:
    cfg = Config(output_buffer=output_buffer) if output_buffer is not None else Config()
    cfg.set_main_option("script_location", str(sqlfiles.alembic_dir()))
    if url is not None:
        cfg.attributes["url"] = url
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(url: str) -> str | None:
    """The revision installed in the database, or None."""
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('public.footnote_alembic_version') IS NOT NULL").fetchone()
        if not exists or not exists[0]:
            return None
        row = conn.execute("SELECT version_num FROM public.footnote_alembic_version").fetchone()
        return row[0] if row else None


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; a no-op when it is there already."""
    command.upgrade(_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    """Go back to ``revision``; ``base`` removes every object of ours and no ERP object."""
    command.downgrade(_config(url), revision)


def uninstall(url: str) -> None:
    """Downgrade to base and drop Alembic's version table: nothing of ours is left."""
    downgrade(url, "base")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS public.footnote_alembic_version")


def offline_script(revision: str = "head") -> str:
    """The SQL script ``install`` would run, for review; never connects."""
    buffer = io.StringIO()
    command.upgrade(_config(output_buffer=buffer), revision, sql=True)
    return buffer.getvalue()


def sample_installed(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regnamespace('erp') IS NOT NULL").fetchone()
        return bool(row and row[0])


def load_sample(url: str, invoices: int = DEFAULT_SAMPLE_INVOICES, seed: int = DEFAULT_SAMPLE_SEED) -> dict[str, int]:
    """Create the sample ERP (schema erp), map the source views onto it and fill it.

    Returns row counts per table. Requires footnote-pg installed; refuses when
    schema erp exists already.
    """
    with psycopg.connect(url) as conn:
        for statement in sqlfiles.iter_statements(sqlfiles.sample_files()):
            conn.execute(statement, prepare=False)
        row = conn.execute("SELECT erp.generate_sample(%s, %s)", (invoices, seed)).fetchone()
        conn.commit()
    assert row is not None
    counts: dict[str, int] = row[0]
    log.info("sample ERP loaded: %s", counts)
    return counts


def ensure_installed(url: str, sample: bool = False, invoices: int = DEFAULT_SAMPLE_INVOICES) -> bool:
    """Install or upgrade, and load the sample when asked and absent. True when anything changed."""
    changed = current_revision(url) != head_revision()
    if changed:
        upgrade(url)
    if sample and not sample_installed(url):
        load_sample(url, invoices=invoices)
        changed = True
    return changed

"""Apply a revision's frozen SQL from inside an Alembic migration, statement by statement.

``op.execute`` treats ``:name`` as a bind parameter (and renders it as NULL in
``--sql`` mode) and ``exec_driver_sql`` chokes on ``%``; both are common in
PL/pgSQL. So statements go to the driver untouched online, and verbatim to the
script offline.
"""

from __future__ import annotations

from pathlib import Path

from alembic import op
from footnote_pg.sqlfiles import split_statements


def apply_frozen_sql(revision_file: str, direction: str) -> None:
    """Run ``<revision>.<direction>.sql`` beside the revision module."""
    path = Path(revision_file).with_suffix(f".{direction}.sql")
    context = op.get_context()
    for statement in split_statements(path.read_text(encoding="utf-8")):
        if context.as_sql:
            context.impl.static_output(statement + "\n")
        else:
            op.get_bind().exec_driver_sql(statement, execution_options={"no_parameters": True})

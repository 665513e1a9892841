"""Statements: the vocabulary, the reader, the templates in SQL and the gate that grades words.

Revision ID: 0002_statements
Revises: 0001_core
Create Date: 2026-12-01

Frozen delta SQL (0002_statements.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/ and applied statement by statement: footnote.lexicon,
the reader (sql/15_reading.sql), footnote.compose and its templates
(sql/16_compose.sql), and the gate's new record_answer, check_answer and
submit_answer (sql/21_gate.sql).
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0002_statements"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Evidence sets: an aggregate over very many rows cites them as one set instead of failing.

Revision ID: 0009_evidence_sets
Revises: 0008_due_lines
Create Date: 2026-12-01

Frozen delta SQL (0009_evidence_sets.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: the table footnote.evidence_queries (the evidence
rows of ar_aging, days_sales_outstanding and the revenue operations, as SQL
over their base queries); beyond max_evidence_rows those operations cite one
evidence row of type evidence_set (evidence query, parameters, row count and
digest) instead of failing with FN005; footnote.evidence_rows reads a set's
rows again, a page at a time.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0009_evidence_sets"
down_revision = "0008_due_lines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""The gate reads a sentence that merges statements by binding each figure to the statement that holds its value.

Revision ID: 0038_merged
Revises: 0037_owner_reads
Create Date: 2026-12-05

Frozen delta SQL (0038_merged.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a sentence
whose figures no one statement of the template holds, and that footnote._clauses cannot read clause by clause,
is read again by footnote._bound_clauses: each figure is bound to the one statement that holds its value (a value
two statements hold goes with the figures next to it), and the sentence is cut between figures of different
statements at a clause boundary, when every clause names its own subject or label, holds a figure other than a
date, states a headline whole (a detail may be stated in part) and figures of one kind keep the template's order.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0038_merged"
down_revision = "0037_owner_reads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

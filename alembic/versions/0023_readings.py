"""The gate reads more honest restatements: a restated question, a row with its list's as-of date, figures reordered
with their periods.

Revision ID: 0023_readings
Revises: 0022_companies
Create Date: 2026-12-04

Frozen delta SQL (0023_readings.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a sentence
that asks a question in the words of the question asked states nothing; figures of one
kind stated in another order than the template's are read as that statement's when each stays next to its own
period or date, reordered with it; a row holds the as-of
date or period its list states once; a clause may be an as-of date alone that an earlier clause's statement has, and
a clause of a ranked row may leave out its rank; the lexicon gains German salutations and "issue".
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0023_readings"
down_revision = "0022_companies"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

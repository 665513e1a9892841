"""The gate's name lookup can be served by an index on lower(name).

Revision ID: 0012_names_by_index
Revises: 0011_fast_checks
Create Date: 2026-12-02

Frozen delta SQL (0012_names_by_index.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: footnote._names_matching gives the pattern of the
longest word as a scalar subquery instead of a join, so an index on
lower(name) of the ERP's customers (the sample ERP's pg_trgm index) can serve
it; the names it returns are the same.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0012_names_by_index"
down_revision = "0011_fast_checks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

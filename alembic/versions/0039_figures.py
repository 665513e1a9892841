"""Figures that add up and ratios over a base that can carry one.

Revision ID: 0039_figures
Revises: 0038_merged
Create Date: 2026-12-04

Frozen delta SQL (0039_figures.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: ar_aging
counts the open due lines of each bucket and of the whole (due_line_count, overdue_due_line_count), and its
statement, when an invoice in instalments is in more than one bucket, counts due lines per bucket (adding up to
the total) and says of how many invoices; revenue_change gives no change in percent of a first period whose
revenue is zero or negative (empty_reason base_not_positive when negative) and its statement says why, and
days_sales_outstanding gives no figure over gross sales of zero or less, its statement stating both inputs.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0039_figures"
down_revision = "0038_merged"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Not recorded in this ERP: optional concepts a mapping declares absent, and sources that hold no rows.

Revision ID: 0007_not_recorded
Revises: 0006_bad_input
Create Date: 2026-12-01

Frozen delta SQL (0007_not_recorded.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: the setting not_recorded (checked when written);
footnote._recorded, footnote._fact and footnote._not_recorded (sql/06_calls.sql),
used for account owner, payment terms, credit limit, tickets and their
severity, reorder levels, bank-detail change requests and phone verification;
footnote._require_source: an empty answer over
a source view that holds no rows, or a name looked up among none, is FN006.
ar_aging, days_sales_outstanding and footnote._revenue aggregate their evidence
in SQL in one pass (no lists grown row by row) and raise FN005 before building
evidence beyond max_evidence_rows (footnote._evidence_limit, _too_much_evidence).
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0007_not_recorded"
down_revision = "0006_bad_input"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

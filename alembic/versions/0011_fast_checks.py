"""Verification in two set-based passes, a queue the seal reads by index, listings without unused totals.

Revision ID: 0011_fast_checks
Revises: 0010_listings
Create Date: 2026-12-02

Frozen delta SQL (0011_fast_checks.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: verify_chain() finds the first bad record with one
ordered pass over the links and one pass (parallel where the server allows)
over content and hashes, then diagnoses that record alone
(footnote._record_problem, footnote._first_changed_record); the seal reads the
queue through the new index ledger_queue_order_idx (the downgrade drops it by
hand), never its heap swollen by dead rows; the base queries of credit_notes and
open_purchase_orders no longer compute window totals nothing reads.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0011_fast_checks"
down_revision = "0010_listings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

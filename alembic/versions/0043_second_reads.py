"""Second reads: a figure and the evidence logged beside it come from the same rows.

Revision ID: 0043_second_reads
Revises: 0042_voices
Create Date: 2026-12-05

Frozen delta SQL (0043_second_reads.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: where a
computation reads the source views a second time for the evidence of a figure, it compares the second read with the
first and refuses (FN105, footnote._read_again) a view that gave other rows: the subject's own row (a customer,
supplier or item read again after the name resolver, footnote._subject_again: customer_overdue, customer_risk,
customer_payments, customer_profile, stock_on_hand, supplier_payment_facts), each item's stock in
items_below_reorder, the documents behind top_customers and revenue_drivers read again by id
(footnote._documents_again), the documents two periods of revenue_change share, an invoice's balance against its
gross, settlements and instalments, and customer_profile's overdue invoices against the open invoices cited for
them. Honest mappings give the same results as before.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0043_second_reads"
down_revision = "0042_voices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

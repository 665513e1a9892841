"""Receivables as ERPs keep them: due lines, credit notes as their own documents, payments on account.

Revision ID: 0008_due_lines
Revises: 0007_not_recorded
Create Date: 2026-12-01

Frozen delta SQL (0008_due_lines.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: the source views footnote_src.due_lines (an
invoice's instalments; by default one line per invoice) and
footnote_src.credit_applications (which credit note settles which invoice from
when; by default each in full on its issue date), so mappings written before
keep their meaning; payments may name no invoice (money on account).
footnote_src.invoice_balances gains overdue (the open part of due lines past
due) and due_lines; footnote_src.due_line_balances and
footnote_src.account_credits; the queries open_due_lines_aged and
account_credits. ar_aging buckets due lines and shows credits on account;
customer_overdue, customer_risk and rank_customers count the overdue part of
instalment invoices; customer_profile nets credits on account.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0008_due_lines"
down_revision = "0007_not_recorded"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

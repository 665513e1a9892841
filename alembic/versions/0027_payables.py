"""Payables as what is still open: partial payments of supplier invoices, key columns of any integer type, credit
notes that name no invoice.

Revision ID: 0027_payables
Revises: 0026_breakdown
Create Date: 2026-12-04

Frozen delta SQL (0027_payables.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the source
view supplier_invoice_payments (what settled each supplier invoice, by default each invoice with a paid_on in full
on that day) and its scoped view; accounts payable counts each supplier invoice at its gross less what its payments
settled by the day asked, with paid and open in its rows and evidence; footnote_src.map_view, through which a
mapping replaces a source view, creating anew one whose key columns change integer type with the views that read
it; the resolver's names move from footnote._entity_names to footnote_src.entity_names (beside the scoped views
they read, so map_view can create them again); a credit note that names no invoice is listed as crediting none.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0027_payables"
down_revision = "0026_breakdown"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

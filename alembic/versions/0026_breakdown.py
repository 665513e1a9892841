"""One operation for figures across customers or suppliers: breakdown, a measure (revenue, invoiced, invoice count,
average invoice value, cash collected, credit notes, tickets opened, purchase volume, supplier payments) grouped by
a dimension (customer, country, account owner, month, quarter, severity, supplier, supplier country) over a period,
with filters; its query and evidence query, catalog rows, entry point and template.

Revision ID: 0026_breakdown
Revises: 0025_node
Create Date: 2026-12-04

Frozen delta SQL (0026_breakdown.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0026_breakdown"
down_revision = "0025_node"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

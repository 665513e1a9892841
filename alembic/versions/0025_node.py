"""A node's source position: results computed on a node (a database fed by logical replication from the ERP) carry
where the ERP's data stood (subscription, received position, the ERP's clock at its newest message, lag), and calls
refuse with FN007 beyond the node_max_lag setting; a primary install is unchanged.

Revision ID: 0025_node
Revises: 0024_guard
Create Date: 2026-12-04

Frozen delta SQL (0025_node.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0025_node"
down_revision = "0024_guard"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

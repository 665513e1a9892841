"""Core: roles, schemas, settings, formatter, source views, catalog operations, call log.

Revision ID: 0001_core
Revises:
Create Date: 2026-11-30

The SQL is a frozen copy of sql/00..90 at this revision (0001_core.upgrade.sql),
applied statement by statement; the downgrade removes everything of ours and
no ERP object (0001_core.downgrade.sql).
"""

from footnote_pg.migration import apply_frozen_sql, refuse_losing_records

revision = "0001_core"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    refuse_losing_records()  # the ledger and the call log are never dropped by accident
    apply_frozen_sql(__file__, "downgrade")

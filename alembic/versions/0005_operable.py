"""Operable: settings checked when written, the router's names read without writing the call log.

Revision ID: 0005_operable
Revises: 0004_ledger_integrity
Create Date: 2026-12-01

Frozen delta SQL (0005_operable.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: footnote._check_setting() and its trigger on
footnote.settings (a value the catalog cannot use is refused with FN001 when
written); footnote.router_names(), the names the question router matches,
granted to footnote_service and not logged.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0005_operable"
down_revision = "0004_ledger_integrity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

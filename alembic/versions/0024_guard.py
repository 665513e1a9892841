"""The DDL guard also refuses default privileges that would open our objects to others, and names a refused change of
privileges.

Revision ID: 0024_guard
Revises: 0023_readings
Create Date: 2026-12-04

Frozen delta SQL (0024_guard.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/, with one part by
hand: where a superuser installed the event trigger, its schema footnote_guard is dropped and created again, so
that ALTER DEFAULT PRIVILEGES in schema footnote, or for footnote_owner or footnote_ledger (what a revision's new
objects would be created with), is refused outside a migration like GRANT and REVOKE (FN107); the way down puts the
guard of 0015 back.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0024_guard"
down_revision = "0023_readings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""footnote.call and footnote.reattest belong to footnote_ledger (they run the entry points and read no source
view), so footnote_owner cannot ALTER what stands between the service and an entry point; the owner-code check
(footnote._owner_code) reads pg_proc by name through its index instead of scanning every function, with the
functions footnote_owner owns named once (footnote._owner_functions).

Revision ID: 0032_owner_paths
Revises: 0031_owner_actor
Create Date: 2026-12-04

Frozen delta SQL (0032_owner_paths.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0032_owner_paths"
down_revision = "0031_owner_actor"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

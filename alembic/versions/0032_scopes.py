"""Re-attestation respects the access scope a record was computed under: to a session under a scope, a record
whose calls were not all computed under that scope (its id and the digest of its definition now) does not exist;
a session without a scope is told under which scope to re-attest one. Before, any service login could re-run any
record by its sequence number and read its claims, those of another scope's customers included.

Revision ID: 0032_scopes
Revises: 0031_owner_actor
Create Date: 2026-12-04

Frozen delta SQL (0032_scopes.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/:
footnote.reattest compares the scope of each call a record cites with footnote._session_scope().
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0032_scopes"
down_revision = "0031_owner_actor"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Verified identity: the end user a gateway's bearer token names, for one transaction.

Revision ID: 0021_identity
Revises: 0020_scopes
Create Date: 2026-12-04

Frozen delta SQL (0021_identity.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the role
footnote_gateway; the table footnote.verified_identities (backend, transaction, subject, scope), written only by
footnote.assert_identity, which only members of footnote_gateway may call; footnote._session_scope() takes the
verified scope (narrowed by the login's own binding) and footnote._actor() the verified subject while the
transaction that asserted them runs; FN109 for a scope that is not defined.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0021_identity"
down_revision = "0020_scopes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

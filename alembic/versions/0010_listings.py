"""Listings at scale and group sealing.

Revision ID: 0010_listings
Revises: 0009_evidence_sets
Create Date: 2026-12-02

Frozen delta SQL (0010_listings.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: the evidence queries period_credit_notes and
open_purchase_orders; both operations read their totals, evidence and rows in
one set-based pass (no row-by-row arrays) and, beyond max_evidence_rows, cite
one evidence set and list only its first rows. The ledger queue keeps each
record's canonical text but for what sealing assigns (the column
canonical_parts, added by hand), so a seal joins and hashes; a COMMIT that finds
the chain lock taken leaves its records queued at once (seal_commit_wait now 0
by default) for the holder's next seal, which takes them in one batch.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0010_listings"
down_revision = "0009_evidence_sets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Hash scheme version 2: a record commits to each part (question, answer, each claim, operation, evidence row and
finding, decision, details) through a salted digest, so a part can be redacted and the chain still verifies.

Revision ID: 0029_erasure
Revises: 0028_forge
Create Date: 2026-12-04

Frozen delta SQL (0029_erasure.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the salts
columns of the ledger and its queue; the gate queues version 2 records (footnote._new_salts, _committed,
_canonical_parts); verification recomputes commitments and skips redacted operations.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0029_erasure"
down_revision = "0028_forge"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

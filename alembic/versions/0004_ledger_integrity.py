"""Ledger integrity: writes only through the gate, an owner-only chain lock, records checked against their calls.

Revision ID: 0004_ledger_integrity
Revises: 0003_questions
Create Date: 2026-12-01

Frozen delta SQL (0004_ledger_integrity.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/ and applied statement by statement: the queue, the
call use and the call log take rows only from the gate and the catalog
operations (checked from the call stack), the ledger only from the queue; the
chain lock is a row of footnote.chain_lock with seal_lock_timeout and
seal_commit_wait; sealing happens only at COMMIT; verify_chain() checks every
record against the calls it cites and verify_calls() hashes them again; the
Merkle tree over the ledger (sql/24_merkle.sql) with tree heads, inclusion and
consistency proofs.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0004_ledger_integrity"
down_revision = "0003_questions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

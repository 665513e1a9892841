"""The evidence belongs to a role no login is a member of; the catalog's computations run as footnote_owner.

Revision ID: 0015_privileges
Revises: 0014_cheaper_reading
Create Date: 2026-12-03

Frozen delta SQL (0015_privileges.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/ and completed by hand where it says so: a new
NOLOGIN role footnote_ledger owns schema footnote, the call log, the ledger,
its queue, call use, the chain lock, the Merkle nodes, the vocabulary, the gate
and everything the ledger runs; footnote_owner keeps the source views, the
catalog's computations (footnote._op_*, which read the ERP through them) and
the reference data they read. Each catalog operation footnote.<name> is now an
entry point of footnote_ledger's that calls its computation and logs what it
returned (sql/51_entry.sql); the call-stack guards on the call log, the queue
and call use are gone (privileges keep everyone else out). Reads of the
evidence name their table with ONLY; sealing and the Merkle tree take their
lock over from a session that keeps it; a transaction that sealed cannot be
prepared; the event trigger also refuses child tables, publications and
privilege changes on schema footnote.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0015_privileges"
down_revision = "0014_cheaper_reading"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

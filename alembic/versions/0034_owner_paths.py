"""footnote.call and footnote.reattest belong to footnote_ledger (they run the entry points and read no source
view), so footnote_owner cannot ALTER what stands between the service and an entry point; the mapping's code makes
no calls in its caller's name and leaves nothing in the caller's session (footnote._session_kept refuses, FN105, a
call-log row of the session stamped while the owner's code ran, a statement it prepared, which would run later as the
caller and is deallocated, a temporary object of footnote_owner's, and a change of how the session parses SQL, such
as standard_conforming_strings); footnote.redact is not granted to footnote_owner (its code, run inside an auditor's session when
verification grades answers again, could have erased a customer in the auditor's name); the owner-code check
(footnote._owner_code) reads pg_proc by name through its index instead of scanning every function.

Revision ID: 0034_owner_paths
Revises: 0033_retention
Create Date: 2026-12-04

Frozen delta SQL (0034_owner_paths.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0034_owner_paths"
down_revision = "0033_retention"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

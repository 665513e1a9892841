"""Result hashes over the jsonb text; evidence sets hashed in the statement that reads them; lighter aging and names.

Revision ID: 0013_lighter_calls
Revises: 0012_names_by_index
Create Date: 2026-12-03

Frozen delta SQL (0013_lighter_calls.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: a call's result hash is SHA-256 of the result's
jsonb text, written by the server in one pass (docs/hash-spec.md, section 8;
footnote.verify_calls accepts the canonical JSON of calls logged before); an
evidence set's digest is computed by built-in
functions inside the statement that reads its rows (no function call per row;
the same digest); ar_aging over more invoices than max_evidence_rows no longer
builds the lists of which invoice is in which bucket (footnote._cited takes the
count); footnote._accent_pattern reads the fold map once, not once per letter
(the same patterns); footnote.format reads the currency setting only for
amounts; the description of max_evidence_rows says what it does since evidence
sets.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0013_lighter_calls"
down_revision = "0012_names_by_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Bad input: every entry point the roles may execute answers it with a footnote error naming the argument.

Revision ID: 0006_bad_input
Revises: 0005_operable
Create Date: 2026-12-02

Frozen delta SQL (0006_bad_input.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: shared validators in sql/05_arguments.sql
(footnote._json_arg for size and nesting, _uuids_arg for call ids, _seq_arg,
_hash_arg, _json_scalar_arg for footnote.call's values, _result_arg for the psql
helpers); messages of one line under 400 characters (footnote._shown,
footnote._listed); footnote.canonical_json checks its argument and hashes
through footnote._canonical_json; verify_digest, receipt, reattest, compose,
check_answer, record_answer, submit_answer, record_decision, inclusion_proof,
result_values and result_evidence check what they are given.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0006_bad_input"
down_revision = "0005_operable"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

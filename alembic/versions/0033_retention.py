"""Retention on the append-only ledger: a policy per kind of record (settings retention_days.answers, .refusals,
.decisions, .calls; none by default) and footnote.prune, run by footnote_redactor, which removes the contents of the
records beyond it as a redaction does, keeps the tree head at the cut as a checkpoint in a prune record, and
footnote.prunes for auditors; verify_chain says the pruned records are vouched for by the checkpoint.

Revision ID: 0033_retention
Revises: 0032_scopes
Create Date: 2026-12-04

Frozen delta SQL (0032_retention.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0033_retention"
down_revision = "0032_scopes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

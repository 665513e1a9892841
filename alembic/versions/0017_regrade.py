"""Regrading in parts: footnote.regrade(first_seq, last_seq).

Revision ID: 0017_regrade
Revises: 0016_reading
Create Date: 2026-12-03

Frozen delta SQL (0017_regrade.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/:
footnote.regrade grades the sealed answers of a part of the chain again and names the first that grades
differently; verify_chain(regrade => true) is that over the whole chain, and `footnote-pg verify --regrade`
runs it on several connections at once.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0017_regrade"
down_revision = "0016_reading"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

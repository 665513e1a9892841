"""Unknown names get only the names that are close; a ranking's count of customers cites them.

Revision ID: 0018_operable
Revises: 0017_regrade
Create Date: 2026-12-03

Frozen delta SQL (0018_operable.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: an
unknown customer, supplier or item lists as closest only names a word of which is at least half the same
trigrams as a word typed (best matched first), and when none is close says so and which operation lists the
real ones. rank_customers cites every customer it ranks as an evidence set (ranked_customers) behind the
number ranked, and the listed count cites the listed customers.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0018_operable"
down_revision = "0017_regrade"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

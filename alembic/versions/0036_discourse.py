"""The gate reads a word it does not know outside every clause holding a figure as discourse.

Revision ID: 0036_discourse
Revises: 0035_voices
Create Date: 2026-12-04

Frozen delta SQL (0036_discourse.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a word
the lexicon does not know that stands in a clause holding no figure and no number, not negated and naming no
customer, supplier or item, no longer blocks (footnote._read reports it as loose, footnote._grade drops it);
the lexicon gains the words that can change what a statement means, English and German (quantifiers,
evaluatives, modality and prediction, direction and collection, comparison, causation, advice and action,
credit events), which still block anywhere; nur reads as a modifier (only), weil as a content word (because);
nie, niemals, kaum, hardly, scarcely, weder as negators.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0036_discourse"
down_revision = "0035_voices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

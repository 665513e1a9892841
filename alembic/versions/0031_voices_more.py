"""The gate reads more voices: "over/über N invoices" after an amount, German approximators.

Revision ID: 0031_voices_more
Revises: 0030_voices
Create Date: 2026-12-04

Frozen delta SQL (0031_voices_more.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: right
after an amount and before a count of documents ("43.805,00 € overdue over 4 invoices", "2.812.279,42 € über
321 Rechnungen"), over / über says across how many documents the amount is spread and is no longer read as
"more than"; the lexicon gains the German approximators and comparatives (über, mehr als, rund, etwa, knapp,
mindestens, ...) as modifiers, which block next to a figure as their English counterparts do.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0031_voices_more"
down_revision = "0030_voices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

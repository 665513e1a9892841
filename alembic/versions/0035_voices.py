"""The gate reads more of the voices people write restatements in.

Revision ID: 0035_voices
Revises: 0034_owner_paths
Create Date: 2026-12-04

Frozen delta SQL (0035_voices.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: right
after an amount and before a count of documents ("43.805,00 € overdue over 4 invoices", "2.812.279,42 € über
321 Rechnungen"), over / über says across how many documents the amount is spread and is no longer read as
"more than"; the lexicon gains the German approximators and comparatives (über, mehr als, rund, etwa, knapp,
mindestens, ...) as modifiers, which block next to a figure as their English counterparts do; "0 <content
word>" reads as "no"; a range period may be written with to / bis / -; clauses are cut at vs / versus / und /
sowie / während / aber.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0035_voices"
down_revision = "0034_owner_paths"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""The gate reads what assistants write: a larger closed-class vocabulary, parties on every direction, the
interpretation marker anywhere, Yes/No openings, table headers and shared periods.

Revision ID: 0015_reading
Revises: 0014_cheaper_reading
Create Date: 2026-12-03

Frozen delta SQL (0015_reading.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the
lexicon gains the function words, framing, offers, closers and headings of English and German that carry no
statement, and direction words that name their parties (owes us / we owe, paid us / we paid); a payables
answer no longer accepts "owes"; footnote._sentences reads a Yes/No/None opening as agreement when the
statement it opens has the same polarity; footnote._grade requires the interpretation marker (or an
equivalent) wherever an answer holds an interpretation, reads a markdown table's header with its rows, and
lets an as-of date or period stated once cover every statement that has the same one.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0015_reading"
down_revision = "0014_cheaper_reading"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""The reader asks whether a word holds a numeral only when it has a digit or a non-ASCII character.

Revision ID: 0014_cheaper_reading
Revises: 0013_lighter_calls
Create Date: 2026-12-03

Frozen delta SQL (0014_cheaper_reading.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/: footnote._lexemes and footnote._grade call
footnote._has_numeral only for a word or character with an ASCII digit or a
character outside ASCII (for any other it is false), instead of for every word
and, for a sentence with unsupported digits, every character: the same
lexemes and findings, a fifth less time to grade a narrated answer.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0014_cheaper_reading"
down_revision = "0013_lighter_calls"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

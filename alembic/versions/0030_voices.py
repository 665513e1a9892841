"""The gate reads more voices: vocatives, framing, sign-offs and German function words.

Revision ID: 0030_voices
Revises: 0029_erasure
Create Date: 2026-12-04

Frozen delta SQL (0030_voices.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the reader
takes a name the lexicon does not know as a vocative (discourse) after a greeting that opens a line or sentence
("Hey Sofia", "Hi Ana,") or opening one before a comma ("Jonas, ..."), when no customer, supplier or item bears
it; more sign-offs end a letter's body ("BR,", "Thanks and best,"); the lexicon gains closed-class rows (framing
of messages and reports, headings such as "Executive summary", German pronouns and particles) and the average
words ("avg", "im Schnitt").
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0030_voices"
down_revision = "0029_erasure"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

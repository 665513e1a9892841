"""The gate reads more voices: letters, chat, notes, tables, German; superlatives checked against the rows.

Revision ID: 0019_voices
Revises: 0018_operable
Create Date: 2026-12-03

Frozen delta SQL (0019_voices.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the
lexicon gains the greetings, sign-offs and framing of emails, chat, notes, tickets and minutes, the
abbreviations of notes (inv, o/s, AP, rev, CN), the words of the domain in German, and superlatives and
orderings; other spellings of units and currencies (Tage, d, EUR) are the same unit, and a figure may be
written with them. The gate reads a salutation and the signature under a sign-off as discourse, checks a
superlative or an ordering of a row against every row its call returned (true: supported; false: it
contradicts), takes an as-of date or period stated on its own as said for every statement, lets a ranked
list in its order leave out the ranks (a numbered list keeps them), and lets a summary leave out the
net-receivable line of an aging. A Yes or No may open a risk interpretation it agrees with. A refusal of
advice names the action asked about only in a clause that declines it (footnote._advice_given).
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0019_voices"
down_revision = "0018_operable"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

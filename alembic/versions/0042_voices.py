"""Voices: the gate reads refusals, letters, tables and summaries the ways people write them.

Revision ID: 0042_voices
Revises: 0041_spellings
Create Date: 2026-12-05

Frozen delta SQL (0042_voices.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a refusal or
clarification may repeat the question as a question, name the place, names, currency and numbers the question asks
about where it declines or asks, and say what it will not do ("I won't advise on that", "whether X will pay isn't
something I can tell"); greetings and sign-offs of more languages, a name alone under the text and the team lines
under it sign a letter, while a word of the vocabulary there is a claim; "no open tickets" states a count of 0;
unchanged is not changed and current is not overdue; the first of a ranking is its largest; a superlative holds for
every figure of its row; "all of it" where the part is the whole; pieces are a count's unit; an amount in brackets
after a document number is its amount; a dash between dates is a range; the row numbers of a markdown table and the
number of rows a list shows state nothing; a figure stated for another statement of the same call is said once; a
gloss may be left out of a statement the text does not touch; the question restated with its names names the
subject; a customer may be called an account, a debtor or a client; a balance is what is open; the phone fact
behind a payment decision is detail; more German and English words of the conversation.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0042_voices"
down_revision = "0041_spellings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Summaries, mail headers and signatures: the gate lets a summary leave out a figure of a statement it makes.

Revision ID: 0040_summaries
Revises: 0039_figures
Create Date: 2026-12-04

Frozen delta SQL (0040_summaries.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a
summary may leave out a figure (an amount, a count, a number of days, a percentage, a quantity) of a statement it
makes when another figure of that statement is stated and none of the words that state it is kept for another
figure (footnote._omissible, footnote._figure_words); the subject, names, levels and
states in words, the as-of date, the period and the rank stay required, and so do caveats (negations). A mail
header line (From/Sent/To/Cc/Date, Von/Gesendet/An/Datum) and, under a sign-off, a signature's contact line
(phone, fax, extension, postal code, street number, e-mail or web address) state nothing
(footnote._contact_line, footnote._line_at); Keine opens a statement as None does (footnote._sentences).
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0040_summaries"
down_revision = "0039_figures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

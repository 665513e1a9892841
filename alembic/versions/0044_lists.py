"""Lists: each figure of a list bound to its own label, and lists read the way people write them.

Revision ID: 0044_lists
Revises: 0043_second_reads
Create Date: 2026-12-05

Frozen delta SQL (0044_lists.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the gate reads the
content words of the segment of a list that holds one value as that value's label (footnote._read's "segment"), so
labels swapped across a comma block (they passed); a count of the rows of a call is said by a text naming every one
of them (footnote._counted_by_rows); an as-of date or period said once covers every statement it is that of; a DSO
on each of two dates is named by its date (footnote._own_date); a clause goes on about the row whose value the
clause before it said; a sign word stands before its figure; a later word of a name may stand for it
(footnote._tail_forms); "Q1→Q2 2026" gives Q1 its year; "only", "über" after a document, "seit N Tagen fällig",
"30-day terms", "Month: July 2026", "both" for the two statements of a comparison; a row of a list none of which
is overdue is not overdue; footnote._asks reads a question's ending once; more German words in the lexicon.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0044_lists"
down_revision = "0043_second_reads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

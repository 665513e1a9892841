"""The gate reads what assistants write, and closes the party, marker and period holes.

Revision ID: 0016_reading
Revises: 0015_privileges
Create Date: 2026-12-03

Frozen delta SQL (0016_reading.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the
lexicon gains the function words, framing, offers, closers, labels and headings of English and German that
carry no statement, and direction words that name their parties (owes us / we owe, paid us / we paid); a
payables answer no longer accepts "owes". The reader takes a label opening a line (Customer:) as a label and
a Yes/No/None opening as agreement when the statement it opens has the same polarity. The gate requires the
interpretation marker (or an equivalent) wherever an answer holds an interpretation and refuses a Yes or No
there; reads a sentence that merges whole statements clause by clause, a markdown table's header with its
rows and a bare number under a header that names its unit; lets detail lines be left out or stated in part
(their caveats, dates and ranks kept) and an as-of date or party stated above cover the statements after it;
reads a refusal or clarification offered as text (no figure, no side); and gives an agent's answer the period
note of its question when a call answered for that period, as a narration has it.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0016_reading"
down_revision = "0015_privileges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

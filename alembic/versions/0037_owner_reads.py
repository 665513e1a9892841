"""What the mapping's code does within one computation or one grading can no longer shape a record.

Revision ID: 0037_owner_reads
Revises: 0036_discourse
Create Date: 2026-12-04

Frozen delta SQL (0037_owner_reads.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the
formatter pins its date style and a figure's raw date is written in ISO form whatever the session's date style;
an entry point refuses (FN105) a result whose figures are not what the formatter writes in the session's locale
and currency when it is logged (footnote._misformatted: switched only while some were formatted); rank_customers
compares each figure with the rows it reads again for its evidence and refuses (FN105, footnote._read_again) when
they differ; the gate reads its settings (as-of date, fiscal year's first month) once when it begins
(footnote._gate_settings), refuses an answer during whose grading they changed, names them in the record
(details.gate.settings), and verification grades the record again with them.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0037_owner_reads"
down_revision = "0036_discourse"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

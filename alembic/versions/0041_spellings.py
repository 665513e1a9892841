"""Spellings: the gate reads periods, aging buckets, percentages and key/value lines the ways people write them.

Revision ID: 0041_spellings
Revises: 0040_summaries
Create Date: 2026-12-05

Frozen delta SQL (0041_spellings.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a period a
template prints takes its other spellings (footnote._period_spellings: Q2/2026, 2Q26, 2. Quartal 2026, second
quarter of 2026, 1H26, FY 2026, GJ 2026, Jul 2026, Juli 2026, 07/2026), and so does an aging bucket
(footnote._bucket_spellings: 1 to 30 days, 1-30 d, 90+ days, > 90 Tage); a percentage may glue its sign (12,4%);
pct, percent and Prozent are spellings of %; the bare number of a key/value pair takes the unit its key names
(footnote._key_values: oldest_days_past_due: 37), a one-line JSON object is read pair by pair, and snake_case
keys read as words (credit_limit); "per" before a date says as of when; "über" between a document and an amount
says what the document is for; a quoted question, the line that opens a forwarded mail and a sign-off with a name
state nothing; "late payment", "paying late" and "not paying on time" share one canon; "reading" marks an
interpretation; od is overdue.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0041_spellings"
down_revision = "0040_summaries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

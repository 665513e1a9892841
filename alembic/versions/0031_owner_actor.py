"""A call is logged only when its result names the actor the session speaks for: mapping code that changed
footnote.actor only while the computation stamped its result, and put it back, could have had a call logged (and an
answer recorded on it) in another user's name.

Revision ID: 0031_owner_actor
Revises: 0030_voices
Create Date: 2026-12-04

Frozen delta SQL (0031_owner_actor.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/:
footnote._logged compares the result's actor with footnote._actor() (FN105 otherwise).
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0031_owner_actor"
down_revision = "0030_voices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

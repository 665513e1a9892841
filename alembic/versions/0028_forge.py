"""A member of footnote_owner can no longer get code of its own run as the ledger's role, nor pass the DDL guard.

Revision ID: 0028_forge
Revises: 0027_payables
Create Date: 2026-12-04

Frozen delta SQL (0028_forge.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/, with one part by
hand: the event trigger's function (schema footnote_guard, a superuser's) is replaced so that footnote.allow_ddl =
on counts only for a login that acts as footnote_ledger (a superuser, or the installer while it installs), not for
a member of footnote_owner, which could set it; without a superuser the guard is kept as it was, with a notice.
The settings, the access scopes and their bindings, and the catalog view belong to footnote_ledger (footnote_owner
keeps SELECT, INSERT, UPDATE and DELETE on the three tables): an owner could give its own table a policy whose
function ran as the ledger's role when the gate read it. The entry points and the gate check that a computation
(footnote._op_*) or the gate's name reader (footnote._names_matching) is still SECURITY DEFINER, owned by
footnote_owner, with only the pinned search_path (footnote._owner_code, FN105) before they run it; the gate reads
names through footnote._names_of.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0028_forge"
down_revision = "0027_payables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

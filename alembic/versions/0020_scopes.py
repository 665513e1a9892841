"""Access scopes: which customers a login may see, enforced in SQL.

Revision ID: 0020_scopes
Revises: 0019_voices
Create Date: 2026-12-03

Frozen delta SQL (0020_scopes.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: the DBA's
tables footnote.scopes (by account owner, country, customer ids) and footnote.scope_bindings (a PostgreSQL role
bound to a scope, read for session_user); the source views' *_in_scope views, which the catalog's queries and
evidence queries, the balance functions, name resolution, the router's names and the gate's name matching read
instead of the customers and their records; each result computed under a scope records its id and digest;
evidence pages of a call made under another scope are refused as unknown.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0020_scopes"
down_revision = "0019_voices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

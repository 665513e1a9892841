"""Scopes over suppliers and items.

Revision ID: 0022_companies
Revises: 0021_identity
Create Date: 2026-12-04

Frozen delta SQL (0022_companies.upgrade.sql / .downgrade.sql), written by alembic/delta.py from sql/: a scope
may name suppliers (by id and country) and items (by id); suppliers, their invoices, payments, bank accounts,
bank-change requests and purchase orders, items and their stock are read through *_in_scope views like the
customers and their records.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0022_companies"
down_revision = "0021_identity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

"""Questions: the operations people ask for, and the arguments the question path needs.

Revision ID: 0003_questions
Revises: 0002_statements
Create Date: 2026-12-01

Frozen delta SQL (0003_questions.upgrade.sql / .downgrade.sql), written by
alembic/delta.py from sql/ and applied statement by statement: customer_payments,
customer_profile, rank_customers, revenue_by_month, credit_notes,
items_below_reorder and purchase_order (sql/17_portfolio.sql) with their queries,
catalog rows and templates; list_customers by owner and country; revenue_drivers
by direction; top_customers least first; open_purchase_orders expected in a
period; ar_aging's overdue part; half years and date ranges as periods.
"""

from footnote_pg.migration import apply_frozen_sql

revision = "0003_questions"
down_revision = "0002_statements"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_frozen_sql(__file__, "upgrade")


def downgrade() -> None:
    apply_frozen_sql(__file__, "downgrade")

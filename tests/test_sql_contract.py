"""The SQL contract, checked by parsing: catalog queries read only source views and only read."""

from __future__ import annotations

import re

import pytest
import sqlglot
from sqlglot import exp

from tests.conftest import TestDatabase

# what customers, suppliers, items and their records are read through: the access scope's views (sql/04_sources.sql), never the
# source views themselves
SCOPED_VIEWS = {"customers", "invoices", "due_lines", "payments", "credit_notes", "credit_applications", "tickets",
                "suppliers", "supplier_bank_accounts", "supplier_payments", "supplier_invoices",
                "supplier_invoice_payments", "bank_change_requests", "purchase_orders", "items", "stock"}
SOURCE_VIEWS = {f"{view}_in_scope" for view in SCOPED_VIEWS}
# derived from the views only (sql/04_sources.sql)
SOURCE_FUNCTIONS = {"invoice_balances", "due_line_balances", "settled_due_lines", "account_credits"}
SCALAR_QUERIES = {"change", "dso"}  # arithmetic on parameters, no rows read
ONE_ROW_BY_KEY = {"customer", "item", "supplier", "invoice_balance"}


def _parse(sql: str) -> exp.Expression:
    # $1 placeholders are PostgreSQL's; sqlglot reads them as parameters.
    return sqlglot.parse_one(sql, read="postgres")


def _table_name(table: exp.Table) -> str:
    # a set-returning function in FROM (footnote_src.invoice_balances($1)) is a Table over an Anonymous call
    return str(table.this.this) if isinstance(table.this, exp.Anonymous) else table.name


def _tables(tree: exp.Expression) -> set[tuple[str, str]]:
    ctes = {c.alias_or_name for c in tree.find_all(exp.CTE)}
    names = {(t.db, _table_name(t)) for t in tree.find_all(exp.Table)}
    return {(db, name) for db, name in names if name and name not in ctes}


def test_every_catalog_query_reads_only_source_views_and_only_reads(db: TestDatabase) -> None:
    queries = db.rows("SELECT name, sql FROM footnote.queries ORDER BY name")
    assert len(queries) >= 20
    for name, sql in queries:
        tree = _parse(sql)
        assert isinstance(tree, (exp.Select, exp.Union)), f"{name} is not a SELECT"
        for forbidden in (exp.Insert, exp.Update, exp.Delete, exp.Create, exp.Drop, exp.Alter, exp.Command):
            assert not list(tree.find_all(forbidden)), f"{name} contains {forbidden.__name__}"
        tables = _tables(tree)
        for schema, table in tables:
            assert schema == "footnote_src", f"{name} reads {schema}.{table}"
            assert table in SOURCE_VIEWS | SOURCE_FUNCTIONS, f"{name} reads {table}"
        if name in SCALAR_QUERIES:
            assert not tables
        else:
            assert tables, f"{name} reads nothing"


def test_every_list_query_orders_by_a_unique_key(db: TestDatabase) -> None:
    for name, sql in db.rows("SELECT name, sql FROM footnote.queries ORDER BY name"):
        if name in SCALAR_QUERIES:
            continue
        tree = _parse(sql)
        order = tree.args.get("order")
        assert order is not None, f"{name} has no ORDER BY"
        keys = [o.this for o in order.expressions]
        last = keys[-1]
        if isinstance(last, exp.Literal):  # ORDER BY 1, 2: look the column up in the select list
            first_select = tree.find(exp.Select)
            assert first_select is not None
            last = first_select.expressions[int(last.this) - 1]
            key_name = last.alias_or_name
        else:
            key_name = last.name if isinstance(last, exp.Column) else ""
        unique = key_name == "id" or key_name.endswith("_id")
        assert unique, f"{name}: ORDER BY ends with {last.sql()}, not a unique key"
        if name in ONE_ROW_BY_KEY:
            assert re.search(r"WHERE \w+\.(\w+_)?id = \$1", sql), name


@pytest.mark.parametrize("function,reads", [
    ("settled_due_lines", {"payments_in_scope", "credit_applications_in_scope", "due_lines_in_scope"}),
    ("invoice_balances", {"invoices_in_scope", "settled_due_lines"}),
    ("due_line_balances", {"invoices_in_scope", "settled_due_lines"}),
    ("account_credits", {"payments_in_scope", "credit_notes_in_scope", "credit_applications_in_scope"})])
def test_the_balance_functions_read_only_source_views(db: TestDatabase, function: str, reads: set[str]) -> None:
    body = db.scalar("SELECT prosrc FROM pg_proc WHERE oid = %s::regproc", (f"footnote_src.{function}",))
    body = re.sub(r"\bcustomer\b(?!_)", "CAST(NULL AS BIGINT)", body.replace("as_of", "CAST('2026-08-14' AS DATE)"))
    tree = _parse(body)
    assert _tables(tree) == {("footnote_src", view) for view in reads}


def test_only_the_call_log_and_the_gate_write_and_nothing_names_erp(db: TestDatabase) -> None:
    rows = db.rows("""SELECT p.oid::regprocedure::text, p.prosrc FROM pg_proc p
                      JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname IN ('footnote', 'footnote_src')""")
    writers = {}
    for signature, source in rows:
        assert not re.search(r"\berp\.", source), f"{signature} names the ERP schema"
        writes = re.findall(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE)\s+(?:ONLY\s+)?(\w+\.\w+)", source,
                            flags=re.I)
        if writes:
            writers[signature] = {w[1] for w in writes}
    assert writers == {
        "footnote._logged(text,jsonb,jsonb)": {"footnote.call_log"},
        "footnote._queue_record(uuid,jsonb,text,text,text,jsonb,jsonb,jsonb)":
            {"footnote.ledger_queue", "footnote.call_use", "footnote.call_attempts"},
        "footnote._ledger_link()": {"footnote.ledger_queue"},
        "footnote._seal_queue(boolean)": {"footnote.ledger"},
        "footnote._merkle_extend()": {"footnote.merkle_nodes"},
        # a gateway's verified end user of its transaction (sql/03_verified.sql): no evidence
        "footnote.assert_identity(text,text)": {"footnote.verified_identities"},
        # an erasure (sql/25_erasure.sql, footnote_redactor's only): a data subject's parts replaced by their
        # commitments in sealed records and in the calls they cite; the chain's hashes stay as they were
        "footnote.redact(text,text)": {"footnote.ledger", "footnote.call_log"},
        # a prune by the retention policy (sql/25_erasure.sql, footnote_redactor's only): the parts of the records
        # beyond it and of the calls only they cite replaced by their commitments; hashes stay as they were
        "footnote.prune(boolean,timestamp with time zone,bigint)": {"footnote.ledger", "footnote.call_log"},
    }


def test_every_evidence_query_reads_only_its_base_rows_in_citation_order(db: TestDatabase) -> None:
    """An evidence query is SELECT over the CTE r (its base query's rows) and nothing else, numbers its rows n
    and orders by n: what the operation inlines, what the digest hashes and what a page gives are one list."""
    rows = db.rows("SELECT e.name, e.sql, e.base_query, q.params, e.param_types FROM footnote.evidence_queries AS e "
                   "JOIN footnote.queries AS q ON q.name = e.base_query ORDER BY e.name")
    assert len(rows) >= 5
    for name, sql, base, params, types in rows:
        tree = _parse(f"WITH r AS (SELECT 1) {sql}")
        assert isinstance(tree, exp.Select), name
        for forbidden in (exp.Insert, exp.Update, exp.Delete, exp.Create, exp.Drop, exp.Alter, exp.Command):
            assert not list(tree.find_all(forbidden)), f"{name} contains {forbidden.__name__}"
        assert {t.name for t in tree.find_all(exp.Table)} <= {"r"}, f"{name} reads more than r"
        assert "$" not in sql, f"{name} takes parameters of its own"
        assert [e.alias_or_name for e in tree.expressions] == ["n", "e"], name
        order = tree.args.get("order")
        assert order is not None and [o.this.name for o in order.expressions] == ["n"], name
        assert len(types) == len(params), f"{name}: a type for each parameter of {base}"
        assert set(types) <= {"date", "bigint", "integer", "text", "numeric"}, name

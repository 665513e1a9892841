"""The mapping commands: `mapping check` finds a planted fault of each kind in a broken copy of the sample
mapping, `mapping test` compares figures with the ERP's own, `mapping drop` / `apply` let an ERP migration
change the tables the views read."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from footnote_pg import errors, mapping
from footnote_pg.cli import app
from tests.conftest import TestDatabase

runner = CliRunner()

# (check that must find it, the source view it breaks, what is done to a copy of the ERP table the view reads)
FAULTS = [
    ("customers_ids", "customers", "INSERT INTO {t} SELECT * FROM {t} WHERE id = 4471"),
    ("customer_names", "customers", "UPDATE {t} SET name = ' ' WHERE id = 4471"),
    ("invoices_ids", "invoices", "INSERT INTO {t} SELECT * FROM {t} WHERE id = 8812"),
    ("invoice_numbers", "invoices", "UPDATE {t} SET number = 'INV-2026-8834' WHERE id = 8812"),
    ("invoice_customers", "invoices", "UPDATE {t} SET customer_id = 999999 WHERE id = 8812"),
    ("invoice_required", "invoices", "UPDATE {t} SET due_date = NULL WHERE id = 8812"),
    ("invoice_amounts", "invoices", "UPDATE {t} SET gross = gross + 1 WHERE id = 8812"),
    ("invoice_dates", "invoices", "UPDATE {t} SET due_date = issue_date - 5 WHERE id = 8812"),
    ("invoice_future", "invoices", "UPDATE {t} SET issue_date = '2027-01-04', due_date = '2027-02-03' WHERE id = 8812"),
    ("payments_ids", "payments", "INSERT INTO {t} SELECT * FROM {t} WHERE id = (SELECT min(id) FROM {t})"),
    ("payment_invoices", "payments", "UPDATE {t} SET invoice_id = 999999 WHERE id = (SELECT min(id) FROM {t})"),
    ("payment_amounts", "payments", "UPDATE {t} SET amount = -5 WHERE id = (SELECT min(id) FROM {t})"),
    ("overpaid_invoices", "payments", "UPDATE {t} SET amount = amount * 10 WHERE id = (SELECT min(id) FROM {t})"),
    ("credit_note_invoices", "credit_notes", "UPDATE {t} SET invoice_id = 999999 WHERE id = (SELECT min(id) FROM {t})"),
    ("ticket_customers", "tickets", "UPDATE {t} SET customer_id = 999999 WHERE id = (SELECT min(id) FROM {t})"),
    ("ticket_severities", "tickets", "UPDATE {t} SET severity = 'urgent' WHERE id = (SELECT min(id) FROM {t})"),
    ("ticket_dates", "tickets", "UPDATE {t} SET closed_on = opened_on - 1 WHERE id = (SELECT min(id) FROM {t})"),
    ("supplier_references", "purchase_orders",
     "UPDATE {t} SET supplier_id = 999999 WHERE id = (SELECT min(id) FROM {t})"),
    ("request_statuses", "bank_change_requests",
     "UPDATE {t} SET status = 'maybe' WHERE id = (SELECT min(id) FROM {t})"),
    ("stock_items", "stock", "UPDATE {t} SET item_id = 999999 WHERE id = (SELECT min(id) FROM {t})"),
    ("items_ids", "items", "INSERT INTO {t} SELECT * FROM {t} WHERE id = (SELECT min(id) FROM {t})"),
    ("suppliers_ids", "suppliers", "INSERT INTO {t} SELECT * FROM {t} WHERE id = (SELECT min(id) FROM {t})"),
    ("credit_notes_ids", "credit_notes", "INSERT INTO {t} SELECT * FROM {t} WHERE id = (SELECT min(id) FROM {t})"),
    ("supplier_invoice_payments", "supplier_invoice_payments",
     "UPDATE {t} SET supplier_invoice_id = 999999 WHERE id = 69001"),
    ("overpaid_supplier_invoices", "supplier_invoice_payments", "UPDATE {t} SET amount = amount * 10 WHERE id = 69001"),
    # the last part payment of 26-0882 gone: its paid_on (from the ERP's own allocations) says it is paid in full
    ("supplier_invoice_paid_on", "supplier_invoice_payments", "DELETE FROM {t} WHERE id = 69004"),
]
WARNINGS = {"invoice_future", "supplier_invoice_paid_on"}  # worth a look, no wrong answer
# faults in the views the sample leaves at their defaults (derived from invoices and credit notes): the view
# itself is replaced by a broken one
VIEW_FAULTS = [
    ("due_lines_ids", "due_lines",
     "SELECT * FROM footnote_src.due_lines UNION ALL SELECT * FROM footnote_src.due_lines WHERE invoice_id = 8812"),
    ("due_line_invoices", "due_lines",
     "SELECT id, CASE WHEN invoice_id = 8812 THEN 999999 ELSE invoice_id END AS invoice_id, customer_id, due_date, "
     "amount, uri FROM footnote_src.due_lines"),
    ("due_line_totals", "due_lines",
     "SELECT id + 1 AS id, invoice_id, customer_id, due_date, amount / 2 AS amount, uri FROM footnote_src.due_lines "
     "WHERE invoice_id = 8812 UNION ALL SELECT * FROM footnote_src.due_lines"),
    ("credit_applications", "credit_applications",
     "SELECT id, credit_note_id, invoice_id, customer_id, applied_on - 30 AS applied_on, amount, uri "
     "FROM footnote_src.credit_applications"),
    ("overpaid_invoices", "credit_applications",
     "SELECT id, credit_note_id, invoice_id, customer_id, applied_on, amount * 100 AS amount, uri "
     "FROM footnote_src.credit_applications"),
]


def _break(db: TestDatabase, view: str, fault: str) -> None:
    """Point the view at a copy of its ERP table (no constraints) and plant the fault in the copy."""
    with db.connect() as conn:
        definition = conn.execute("SELECT pg_get_viewdef(%s::regclass, true)", (f"footnote_src.{view}",)).fetchone()[0]
        table = definition.split("FROM erp.")[1].split()[0]
        copy = f"erp.{table}_broken"
        conn.execute(f"CREATE TABLE {copy} AS TABLE erp.{table}")  # type: ignore[arg-type]
        conn.execute(f"GRANT SELECT ON {copy} TO footnote_owner")  # type: ignore[arg-type]
        conn.execute(fault.format(t=copy))  # type: ignore[arg-type]
        broken = definition.replace(f"FROM erp.{table} ", f"FROM {copy} ", 1).rstrip().rstrip(";")
        conn.execute(f"SET ROLE footnote_owner; CREATE OR REPLACE VIEW footnote_src.{view} AS {broken}")  # type: ignore[arg-type]


def _findings(db: TestDatabase, **kwargs: bool) -> dict[str, mapping.Finding]:
    return {f.check: f for f in mapping.check(db.url, **kwargs)}


def test_the_sample_mapping_passes_every_check(db: TestDatabase) -> None:
    before = db.rows("SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger)")
    found = _findings(db)
    assert [f for f in found.values() if f.severity != "ok"] == []
    assert len([c for c in found if c.startswith("operation_")]) == 26
    assert all("ms for" in found[c].examples[0] for c in found if c.startswith("operation_"))
    # it ran every operation, and wrote nothing
    assert db.rows("SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger)") == before


@pytest.mark.parametrize("check,view,fault", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_planted_fault_is_found_by_its_check(db: TestDatabase, check: str, view: str, fault: str) -> None:
    _break(db, view, fault)
    found = _findings(db, operations=False)
    assert found[check].severity == ("warn" if check in WARNINGS else "fail"), found[check]
    assert found[check].count >= 1 and found[check].examples
    others = {c for c, f in found.items() if f.severity == "fail"} - {check}
    # a planted fault may show in related checks too (a duplicated payment also overpays; a duplicated invoice
    # duplicates its default due line), never everywhere
    assert len(others) <= 4, others


@pytest.mark.parametrize("check,view,definition", VIEW_FAULTS, ids=[f"{f[0]}-{f[1]}" for f in VIEW_FAULTS])
def test_a_planted_fault_in_a_default_view_is_found(db: TestDatabase, check: str, view: str, definition: str) -> None:
    with db.connect() as conn:  # what the default returns, broken, in a table the view then reads
        conn.execute(f"CREATE TABLE erp.planted AS {definition}")  # type: ignore[arg-type]  # noqa: S608
        conn.execute("GRANT SELECT ON erp.planted TO footnote_owner")
        conn.execute(f"SET ROLE footnote_owner; CREATE OR REPLACE VIEW footnote_src.{view} AS "  # type: ignore[arg-type]  # noqa: S608
                     "SELECT * FROM erp.planted")
    found = _findings(db, operations=False)
    assert found[check].severity == "fail" and found[check].count >= 1 and found[check].examples, found[check]
    assert len({c for c, f in found.items() if f.severity == "fail"} - {check}) <= 4


def test_a_deep_link_of_the_wrong_form_is_found(db: TestDatabase) -> None:
    with db.connect() as conn:
        definition = conn.execute("SELECT pg_get_viewdef('footnote_src.invoices'::regclass, true)").fetchone()[0]
        broken = definition.replace("'erp://invoice/'::text", "'https://erp.example.com/invoice?id='::text")
        conn.execute(f"SET ROLE footnote_owner; CREATE OR REPLACE VIEW footnote_src.invoices AS {broken.rstrip(';')}")  # type: ignore[arg-type]
    links = _findings(db, operations=False)["deep_links"]
    assert links.severity == "fail" and links.count == db.scalar("SELECT count(*) FROM erp.invoices")
    assert links.examples[0].startswith("https://erp.example.com/invoice?id=")


TICKETS = """SELECT t.id{cast} AS id, t.customer_id{cast} AS customer_id, t.subject::text AS subject,
    t.severity::text AS severity, t.status::text AS status, t.opened_on::date AS opened_on,
    t.closed_on::date AS closed_on, ('erp://ticket/' || t.id)::text AS uri FROM erp.tickets_int AS t"""


def test_an_integer_key_maps_as_it_is_and_a_cast_of_it_is_flagged(db: TestDatabase, tmp_path: Path) -> None:
    """An ERP whose keys are integer: cast to bigint, a lookup by them cannot use the ERP's index (mapping check
    names the view and column); mapped as they are, the contract takes them, the figures are the same and the
    lookups use the index."""
    with db.connect() as conn:  # the sample's tickets in a table keyed by integer, indexed as the ERP indexes them
        conn.execute("CREATE TABLE erp.tickets_int AS SELECT id::integer AS id, customer_id::integer AS customer_id, "
                     "subject, severity, status, opened_on, closed_on FROM erp.tickets")
        conn.execute("ALTER TABLE erp.tickets_int ADD PRIMARY KEY (id)")
        conn.execute("CREATE INDEX ON erp.tickets_int (customer_id, opened_on)")
        conn.execute("ANALYZE erp.tickets_int")
        conn.execute("GRANT SELECT ON erp.tickets_int TO footnote_owner")
    fn = db.client("service")
    before = fn.call("open_tickets", customer="Bergmann Logistik GmbH")
    script = tmp_path / "tickets.sql"
    script.write_text(f"SET ROLE footnote_owner;\nCREATE OR REPLACE VIEW footnote_src.tickets AS "
                      f"{TICKETS.format(cast='::bigint')};\nRESET ROLE;\n", encoding="utf-8")
    mapping.apply(db.url, script)
    keys = _findings(db, operations=False)["key_lookups"]
    assert keys.severity == "warn" and keys.count == 2, keys
    assert [e.split(":")[0] for e in keys.examples] == ["footnote_src.tickets.id", "footnote_src.tickets.customer_id"]
    assert "::bigint" in keys.examples[0]
    # mapped as they are: integer key columns, what CREATE OR REPLACE VIEW alone refuses
    script.write_text(f"SET ROLE footnote_owner;\nCREATE OR REPLACE VIEW footnote_src.tickets AS "
                      f"{TICKETS.format(cast='')};\nRESET ROLE;\n", encoding="utf-8")
    mapping.apply(db.url, script)
    assert db.rows("SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = "
                   "'footnote_src.tickets'::regclass AND attname IN ('id', 'customer_id') ORDER BY attnum") == [
        ("id", "integer"), ("customer_id", "integer")]
    found = _findings(db)
    assert found["key_lookups"].severity == "ok", found["key_lookups"]
    assert [f for f in found.values() if f.severity != "ok"] == []  # the scoped views were made again, and read
    # (a session that ran a catalog operation before holds plans of the bigint columns: a new one answers)
    after = db.client("service").call("open_tickets", customer="Bergmann Logistik GmbH")
    assert after.values == before.values and after.rows == before.rows
    with db.connect() as conn:  # the catalog's lookup by customer (a bigint) uses the ERP's integer index
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(r[0] for r in conn.execute(
            "EXPLAIN SELECT * FROM footnote_src.tickets_in_scope WHERE customer_id = 4471::bigint").fetchall())
    assert "tickets_int_customer_id_opened_on_idx" in plan, plan
    # a column of another type is still refused, in one line
    script.write_text("SET ROLE footnote_owner;\nCREATE OR REPLACE VIEW footnote_src.tickets AS "
                      f"{TICKETS.format(cast='::text')};\nRESET ROLE;\n", encoding="utf-8")
    with pytest.raises(errors.InvalidArgument, match="cannot change data type of view column"):
        mapping.apply(db.url, script)
    # mapping drop puts the contract's placeholder back over the integer columns
    assert "tickets" in mapping.drop(db.url, tmp_path / "saved.sql")
    assert db.scalar("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = "
                     "'footnote_src.tickets'::regclass AND attname = 'id'") == "bigint"


def test_a_view_the_owner_cannot_read_and_an_empty_view_are_named(db: TestDatabase) -> None:
    with db.connect() as conn:
        conn.execute("REVOKE SELECT ON erp.tickets FROM footnote_owner")
        conn.execute("SET ROLE footnote_owner; " + mapping._placeholders()["customers"])  # type: ignore[arg-type]
    found = _findings(db)
    assert found["tickets_readable"].severity == "fail"
    assert "permission denied for table tickets (GRANT SELECT on it TO footnote_owner)" in \
        found["tickets_readable"].examples[0]
    assert found["ticket_customers"].examples == ["not checked: a view it reads cannot be read"]
    assert found["customers_rows"].severity == "fail"
    assert not any(c.startswith("operation_") for c in found)  # no timings over a view it cannot read


def test_mapping_check_cli_exits_1_on_a_failure_and_prints_json(db: TestDatabase) -> None:
    result = runner.invoke(app, ["mapping", "check", "--no-operations", "--json", "--database-url", db.url])
    assert result.exit_code == 0, result.output
    assert {f["severity"] for f in json.loads(result.stdout)} == {"ok"}
    _break(db, "invoices", FAULTS[4][2])
    result = runner.invoke(app, ["mapping", "check", "--no-operations", "--database-url", db.url])
    assert result.exit_code == 1 and "FAIL" in result.stdout and " failed" in result.stdout
    result = runner.invoke(app, ["mapping", "check", "--no-operations", "--json", "--database-url", db.url])
    failed = [f for f in json.loads(result.stdout) if f["severity"] == "fail"]
    assert result.exit_code == 1 and failed[0]["examples"] == ["invoice 8812 -> customer 999999"]
    result = runner.invoke(app, ["mapping", "check", "--database-url", db.url_as("service")])
    assert result.exit_code == 2 and result.stderr.startswith("error: permission denied")


def test_mapping_test_compares_with_the_erps_own_figures(db: TestDatabase, tmp_path: Path) -> None:
    figures = tmp_path / "figures.toml"
    figures.write_text("""
[[figure]]
operation = "customer_overdue"
arguments = { customer = "Bergmann Logistik", as_of = "2026-08-14" }
value = "overdue_total"
equals = "43805.00"

[[figure]]
operation = "invoice"
arguments = { number = "INV-2026-8812" }
value = "outstanding"
equals = 18450
""", encoding="utf-8")
    result = runner.invoke(app, ["mapping", "test", str(figures), "--database-url", db.url_as("service")])
    assert result.exit_code == 0, result.output
    figures.write_text(figures.read_text(encoding="utf-8").replace("43805.00", "43805.01"), encoding="utf-8")
    result = runner.invoke(app, ["mapping", "test", str(figures), "--json", "--database-url", db.url_as("service")])
    assert result.exit_code == 1
    compared = json.loads(result.stdout)
    assert [c["ok"] for c in compared] == [False, True] and compared[0]["found"] == "43805.00"
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 0
    for text, reason in [("not toml [", "is not TOML"), ("[x]\na = 1", "has no [[figure]] tables"),
                         ("[[figure]]\nvalue = 'x'", "figure 1 in")]:
        figures.write_text(text, encoding="utf-8")
        result = runner.invoke(app, ["mapping", "test", str(figures), "--database-url", db.url_as("service")])
        assert result.exit_code == 2 and reason in result.stderr and result.stderr.count("\n") == 1


def test_drop_lets_an_erp_migration_alter_its_tables_and_apply_brings_the_mapping_back(
        db: TestDatabase, tmp_path: Path) -> None:
    with db.client("service", actor="before") as fn:
        before = fn.call("customer_overdue", customer="Bergmann Logistik", as_of="2026-08-14").values
        assert fn.ask("How much does Bergmann Logistik owe?").ok
    ledger = db.rows("SELECT seq, hash FROM footnote.ledger ORDER BY seq")
    migration = "ALTER TABLE erp.invoices ALTER COLUMN net TYPE numeric(16, 2)"
    with pytest.raises(psycopg.errors.FeatureNotSupported):  # what the ERP's own migration meets
        with db.connect() as conn:
            conn.execute(migration)

    saved = tmp_path / "mapping.sql"
    mapped = db.scalar("SELECT count(*) FROM pg_views WHERE schemaname = 'footnote_src' AND definition ~* '\\mFROM\\M' "
                       "AND viewname <> 'entity_names'")  # the resolver's names read the scoped views: no mapping
    assert mapped >= 13
    result = runner.invoke(app, ["mapping", "drop", "--save", str(saved), "--database-url", db.url])
    assert result.exit_code == 0 and f"saved {mapped} mapped views" in result.stdout, result.output
    assert runner.invoke(app, ["mapping", "drop", "--save", str(saved), "--database-url", db.url]).exit_code == 2
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") == 0
    with db.connect() as conn:
        conn.execute(migration)  # the migration runs now

    result = runner.invoke(app, ["mapping", "apply", str(saved), "--database-url", db.url])
    assert result.exit_code == 0, result.output
    with db.client("service", actor="after") as fn:
        after = fn.call("customer_overdue", customer="Bergmann Logistik", as_of="2026-08-14").values
    assert {k: v.text for k, v in after.items()} == {k: v.text for k, v in before.items()}
    assert db.rows("SELECT seq, hash FROM footnote.ledger ORDER BY seq") == ledger
    assert db.scalar("SELECT has_table_privilege('footnote_owner', 'erp.invoices', 'SELECT')")

    bad = tmp_path / "bad.sql"
    bad.write_text("SET ROLE footnote_owner;\nCREATE OR REPLACE VIEW footnote_src.invoices AS SELECT 1 AS id;\n",
                   encoding="utf-8")
    result = runner.invoke(app, ["mapping", "apply", str(bad), "--database-url", db.url])
    assert result.exit_code == 2 and "nothing was applied" in result.stderr and result.stderr.count("\n") == 1
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") > 0


def test_ui_links_put_the_erps_own_page_beside_each_deep_link(db: TestDatabase) -> None:
    links = '{"invoice": "https://erp.example/#erp/model/account.invoice/{id}", "customer": "tryton://erp/db/model/party.party/{id}"}'
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'ui_links' RETURNING 1", (links,))
    fn = db.client("service")
    result = fn.call("customer_overdue", customer="Bergmann Logistik")
    by_id = {e.id: e.ui_link for e in result.evidence}
    assert by_id["invoice:8812"] == "https://erp.example/#erp/model/account.invoice/8812"
    assert by_id["customer:4471"] == "tryton://erp/db/model/party.party/4471"
    # presentation only: the call log keeps the document without them, under the same hash
    logged, logged_hash = db.rows("SELECT result, result_hash FROM footnote.call_log WHERE call_id = %s",
                                  (result.call_id,))[0]
    assert "ui_links" not in logged and logged_hash == result.result_hash
    out = CliRunner().invoke(app, ["ask", "--database-url", db.url, "How much does Bergmann Logistik owe?"])
    assert out.exit_code == 0 and "erp://invoice/8812 https://erp.example/#erp/model/account.invoice/8812" in out.output
    for bad in ('["x"]', '{"invoice": "no-scheme/{id}"}', '{"invoice": "https://erp.example/no-id"}', "{broken"):
        with pytest.raises(psycopg.Error, match="ui_links: must be a JSON object of record type to a URL with"):
            db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'ui_links' RETURNING 1", (bad,))


def test_a_partial_mapping_is_a_report_of_what_it_leaves_unavailable(db: TestDatabase) -> None:
    """Only customers and invoices mapped: every operation is judged with records of the mapped data or listed
    as unavailable, and the check passes."""
    with db.connect() as conn:
        conn.execute("SET ROLE footnote_owner")
        for view, placeholder in mapping._placeholders().items():
            if view not in ("customers", "invoices"):
                conn.execute(placeholder)  # type: ignore[arg-type]
    result = runner.invoke(app, ["mapping", "check", "--json", "--database-url", db.url])
    assert result.exit_code == 0, result.output
    found = {f["check"]: f for f in json.loads(result.stdout)}
    assert not [f for f in found.values() if f["severity"] == "fail"]
    unavailable = {c.removeprefix("operation_") for c, f in found.items()
                   if f["severity"] == "unavailable" and c.startswith("operation_")}
    assert {"stock_on_hand", "purchase_order", "supplier_payment_facts", "list_items", "list_suppliers",
            "open_purchase_orders"} <= unavailable
    assert found["operation_stock_on_hand"]["examples"] == [
        "its argument item names a record of footnote_src.items, which is not mapped"]
    assert found["operation_purchase_order"]["examples"] == [
        "its argument number names a record of footnote_src.purchase_orders, which is not mapped"]
    # what the mapped views answer is judged, with records of this ERP (a warning is only a slow run on a busy host)
    for operation in ("customer_overdue", "invoice", "ar_aging", "revenue", "list_customers", "source_record"):
        judged = found[f"operation_{operation}"]
        assert judged["severity"] in ("ok", "warn") and " ms for " in judged["examples"][0], judged
    busiest = db.scalar("SELECT c.name FROM erp.customers AS c JOIN erp.invoices AS i ON i.customer_id = c.id "
                        "GROUP BY c.id, c.name ORDER BY count(*) DESC, c.id LIMIT 1")
    assert found["operation_customer_overdue"]["examples"][0].endswith(f" ms for customer={busiest}")
    assert "number=INV-" in found["operation_invoice"]["examples"][0]
    overdue = found["operation_customer_overdue"]["examples"]
    assert any("footnote_src.payments" in e and "(not mapped)" in e for e in overdue), overdue
    # views left at the placeholder are named as not mapped; the default due lines derive from the mapped invoices
    assert found["stock_rows"]["severity"] == "unavailable" and "not mapped" in found["stock_rows"]["examples"][0]
    assert "due_lines_rows" not in found and found["credit_applications_rows"]["severity"] == "unavailable"
    text = runner.invoke(app, ["mapping", "check", "--database-url", db.url])
    assert text.exit_code == 0 and "0 failed" in text.stdout
    assert "unavailable with this mapping" in text.stdout and "stock_on_hand" in text.stdout

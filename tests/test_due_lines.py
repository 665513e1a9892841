"""Receivables as ERPs keep them, on the sample ERP: invoices in instalments, credit notes still open on the
account, payments on account. Every figure against the independent computation of tests/reference.py, and every
answer that states them verified by the gate."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from footnote_pg import Footnote
from tests.conftest import TestDatabase
from tests.reference import AS_OF, Erp, de_amount
from tests.test_operations import assert_evidence_is_real


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="ada", actor_role="controller")


@pytest.fixture
def erp(db: TestDatabase) -> Erp:
    return Erp(db.url)


def _with_instalments_overdue(erp: Erp) -> list[int]:
    """Open invoices in instalments of which some but not all is past due: the case one due date gets wrong."""
    out = []
    for i, balance in erp.outstanding(AS_OF).items():
        lines = erp.open_lines(i, balance) if balance > 0 else []
        if i in erp.schedule and any(d < AS_OF for d, _ in lines) and any(d >= AS_OF for d, _ in lines):
            out.append(i)
    return sorted(out)


def test_the_sample_has_each_case(erp: Erp) -> None:
    assert len(erp.schedule) > 50 and _with_instalments_overdue(erp)
    assert any(applied is None for *_, applied in erp.credit_notes)
    assert len(erp.on_account) >= 3


def test_an_instalment_invoice_is_overdue_only_in_the_part_that_fell_due(fn: Footnote, erp: Erp,
                                                                        db: TestDatabase) -> None:
    invoice = erp.invoices[_with_instalments_overdue(erp)[0]]
    open_lines = erp.open_lines(invoice.id, erp.outstanding(AS_OF)[invoice.id])
    late = sum((a for d, a in open_lines if d < AS_OF), Decimal(0))
    r = fn.call("invoice", number=invoice.number)
    assert r.values["instalments"].raw == "2" and r.values["overdue"].text == de_amount(late)
    assert Decimal(r.values["outstanding"].raw) > late > 0
    overdue = fn.call("customer_overdue", customer=f"erp://customer/{invoice.customer_id}")
    row = next(row for row in overdue.rows if row["number"].raw == invoice.number)
    assert row["outstanding"].text == de_amount(late)
    assert row["due_date"].raw == open_lines[0][0].isoformat()  # when its earliest open part fell due
    evidence = next(e for e in overdue.evidence if e.id == f"invoice:{invoice.id}")
    assert evidence.fields["due_date"] == invoice.due_date.isoformat()  # the invoice's own, as the ERP has it
    assert Decimal(str(evidence.fields["overdue"])) == late and int(evidence.fields["due_lines"]) == 2
    assert_evidence_is_real(db, overdue)


def test_every_customers_overdue_and_aging_settle_due_lines_in_order(fn: Footnote, erp: Erp) -> None:
    late = erp.overdue_by_customer(AS_OF)
    wrong = []
    for customer_id in erp.customers:
        r = fn.call("customer_overdue", customer=f"erp://customer/{customer_id}")
        expected = sum((a for _, a in late.get(customer_id, [])), Decimal(0))
        if Decimal(r.values["overdue_total"].raw) != expected:
            wrong.append((customer_id, r.values["overdue_total"].raw, expected))
    assert wrong == []
    aging = fn.call("ar_aging")
    expected_buckets = erp.aging(AS_OF)
    buckets = ("current", "1-30", "31-60", "61-90", "over_90")
    found = {b: (Decimal(row["outstanding"].raw), int(row["invoice_count"].raw))
             for b, row in zip(buckets, aging.rows, strict=True)}
    assert found == expected_buckets
    split = [e for e in aging.evidence if "instalments" in e.fields]
    assert split and all(len(e.fields["instalments"]) >= 1 for e in split)
    # an invoice with open lines in two buckets counts in both, and is cited once; the due lines add up
    assert sum(n for _, n in found.values()) >= int(aging.values["invoice_count"].raw)
    lines = erp.aging_lines(AS_OF)
    assert {b: int(row["due_line_count"].raw) for b, row in zip(buckets, aging.rows, strict=True)} == lines
    assert int(aging.values["due_line_count"].raw) == sum(lines.values())
    assert int(aging.values["overdue_due_line_count"].raw) == sum(n for b, n in lines.items() if b != "current")


def test_an_aging_with_instalments_says_its_buckets_count_due_lines_that_add_up(fn: Footnote, erp: Erp) -> None:
    """A reader adds the bucket counts: they are due lines (each aged by its own due date, as Tryton's aged balance
    ages each move line by its maturity date), they add up to the due lines stated, and the invoices are said too."""
    lines = erp.aging_lines(AS_OF)
    invoices = sum(1 for b in erp.outstanding(AS_OF).values() if b > 0)
    assert sum(lines.values()) > invoices, "the sample has an invoice in instalments open in two buckets"
    answer = fn.ask("AR aging")
    assert answer.status == "verified", answer.answer
    text = answer.answer
    assert f"the {invoices} invoices have {sum(lines.values())} open due lines" in text
    stated = [int(m) for m in re.findall(r"\((\d+) due lines? of \d+ invoices?\)", text)]
    assert stated == list(lines.values()) and sum(stated) == sum(lines.values())
    assert not re.search(r"\(\d+ invoices?\)", text), "no bucket counts invoices that another bucket counts again"


def test_credits_on_account_lower_the_balance_not_an_invoice(fn: Footnote, erp: Erp, db: TestDatabase) -> None:
    credited = sorted({c for _, c, _, _ in erp.on_account})
    for customer_id in credited:
        profile = fn.call("customer_profile", customer=f"erp://customer/{customer_id}")
        open_invoices = sum((b for i, b in erp.outstanding(AS_OF).items()
                             if b > 0 and erp.invoices[i].customer_id == customer_id), Decimal(0))
        credit = erp.credits(customer_id)
        assert profile.values["unapplied_credits"].text == de_amount(credit)
        assert profile.values["invoices_open"].text == de_amount(open_invoices)
        assert profile.values["open_balance"].text == de_amount(open_invoices - credit)
        assert_evidence_is_real(db, profile)
    aging = fn.call("ar_aging")
    assert aging.values["unapplied_credits"].text == de_amount(erp.credits())
    total = Decimal(aging.values["total_outstanding"].raw)
    assert Decimal(aging.values["net_outstanding"].raw) == total - erp.credits()
    # before any credit existed, there is none to show
    early = fn.call("ar_aging", as_of="2025-03-01")
    assert "unapplied_credits" not in early.values or Decimal(early.values["unapplied_credits"].raw) == erp.credits(
        as_of=dt.date(2025, 3, 1))


def test_a_payment_on_account_is_listed_as_one(fn: Footnote, erp: Erp) -> None:
    _id, customer_id, paid_on, paid = erp.on_account[0]
    r = fn.call("customer_payments", customer=f"erp://customer/{customer_id}")
    row = next(row for row in r.rows if row["paid_on"].raw == paid_on.isoformat() and "invoice" not in row)
    assert row["amount"].text == de_amount(paid)
    answer = fn.ask(f"payment history for {erp.customers[customer_id][1]}")
    assert answer.status == "verified", answer.answer
    assert f"{de_amount(paid)} on account, for no invoice yet" in answer.answer


@pytest.mark.parametrize("template", ["Tell me about {name}", "Receivables aging of {name}",
                                      "How much does {name} owe?"])
def test_answers_about_credits_and_instalments_are_verified(fn: Footnote, erp: Erp, template: str) -> None:
    customers = sorted({c for _, c, _, _ in erp.on_account}
                       | {erp.invoices[i].customer_id for i in _with_instalments_overdue(erp)})
    for customer_id in customers:
        answer = fn.ask(template.format(name=erp.customers[customer_id][1]))
        assert answer.status == "verified", (template, customer_id, answer.answer)

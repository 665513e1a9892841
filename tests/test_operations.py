"""Catalog operations: every figure equals an independent computation over the sample ERP."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from footnote_pg import Footnote
from footnote_pg.results import OperationResult
from tests.conftest import TestDatabase
from tests.reference import AS_OF, Erp, de_amount, de_count, de_date, fold

ERP_TABLE = {
    "customer": "customers", "invoice": "invoices", "payment": "payments", "credit_note": "credit_notes",
    "ticket": "tickets", "supplier": "suppliers", "bank_account": "supplier_bank_accounts",
    "supplier_payment": "supplier_payments", "supplier_invoice": "supplier_invoices",
    "bank_change_request": "bank_change_requests",
    "purchase_order": "purchase_orders", "item": "items", "stock": "stock",
}


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="zoran", actor_role="controller")


@pytest.fixture
def erp(db: TestDatabase) -> Erp:
    return Erp(db.url)


def assert_evidence_is_real(db: TestDatabase, result: OperationResult) -> None:
    """Every evidence id names a real ERP row, its URI is the deep link, its fields match the row."""
    cited = {i for v in result.values.values() for i in v.evidence}
    cited |= {i for row in result.rows for v in row.values() for i in v.evidence}
    ids = {e.id for e in result.evidence}
    assert cited <= ids, f"cited but not in evidence: {sorted(cited - ids)[:5]}"
    assert len(ids) == len(result.evidence), "evidence ids are unique"
    with db.connect() as conn:
        rows: list[Any] = []
        for e in result.evidence:  # a set: each of its rows, read again
            if e.is_set:
                found = conn.execute("SELECT id, type, record_id, uri, fields FROM footnote.evidence_rows(%s, %s, 0, "
                                     "10000)", (result.call_id, e.id)).fetchall()
                assert len(found) == int(e.fields["rows"])
                rows += [SimpleNamespace(id=r[0], type=r[1], record_id=r[2], uri=r[3], fields=r[4]) for r in found]
            else:
                rows.append(e)
        for e in rows:
            assert e.id == f"{e.type}:{e.record_id}"
            assert e.uri == f"erp://{e.type}/{e.record_id}"
            cur = conn.execute(f"SELECT to_jsonb(t) FROM erp.{ERP_TABLE[e.type]} t WHERE id = %s",  # noqa: S608
                               (int(e.record_id),))
            row = cur.fetchone()
            assert row is not None, f"{e.id} is not a row of erp.{ERP_TABLE[e.type]}"
            for field, value in e.fields.items():
                if field in row[0] and field != "id":
                    assert str(row[0][field]) == str(value) or Decimal(str(row[0][field])) == Decimal(str(value)), \
                        (e.id, field, row[0][field], value)


def test_the_bergmann_case_exactly(db: TestDatabase, fn: Footnote) -> None:
    r = fn.call("customer_overdue", customer="Bergmann Logistik")
    v = r.values
    assert v["customer"].text == "Bergmann Logistik GmbH"
    assert v["as_of"].raw == "2026-08-14"
    assert (v["overdue_total"].raw, v["overdue_total"].text) == ("43805.00", "43.805,00 €")
    assert v["invoice_count"].text == "4"
    assert v["oldest_days_past_due"].text == "104 days"
    assert [row["number"].text for row in r.rows] == [
        "INV-2026-8812", "INV-2026-8834", "INV-2026-8901", "INV-2026-8977"]
    first = r.rows[0]
    assert (first["due_date"].text, first["outstanding"].text) == ("02.05.2026", "18.450,00 €")
    assert set(v["overdue_total"].evidence) == {"invoice:8812", "invoice:8834", "invoice:8901", "invoice:8977"}
    assert v["oldest_days_past_due"].evidence == ("invoice:8812",)
    assert sum(Decimal(e.fields["outstanding"]) for e in r.evidence if e.type == "invoice") == Decimal("43805.00")
    assert r.empty_reason is None
    assert_evidence_is_real(db, r)


def test_customer_risk_facts_for_bergmann(db: TestDatabase, fn: Footnote) -> None:
    r = fn.call("customer_risk", customer="erp://customer/4471")
    got = {k: v.text for k, v in r.values.items()}
    assert got["overdue_total"] == "43.805,00 €"
    assert got["overdue_invoice_count"] == "4"
    assert got["oldest_days_past_due"] == "104 days"
    assert got["open_ticket_count"] == "2"
    assert got["high_severity_ticket_count"] == "1"
    assert got["payment_terms"] == "30 days"
    assert got["account_owner"] == "Ana Kovač"
    assert_evidence_is_real(db, r)


def test_overdue_of_every_customer_matches_an_independent_computation(fn: Footnote, erp: Erp) -> None:
    checked_nonempty = 0
    for cid in sorted(erp.customers):
        r = fn.call("customer_overdue", customer=str(cid))
        expected = erp.overdue(cid)
        total = sum((b for _, b in expected), Decimal(0))
        assert r.values["overdue_total"].text == de_amount(total), cid
        assert r.values["invoice_count"].text == de_count(len(expected)), cid
        assert [row["number"].text for row in r.rows] == [i.number for i, _ in expected], cid
        if expected:
            checked_nonempty += 1
            oldest = max((AS_OF - i.due_date).days for i, _ in expected)
            assert r.values["oldest_days_past_due"].text == f"{oldest} days"
            assert r.empty_reason is None
        else:
            assert r.empty_reason == "no_overdue_invoices"
            assert "oldest_days_past_due" not in r.values
    assert checked_nonempty >= 10, "the sample should have many customers with overdue invoices"


def test_ar_aging_matches_and_buckets_are_in_order(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    r = fn.call("ar_aging", as_of="2026-08-14")
    expected = erp.aging()
    labels = [row["bucket"].text for row in r.rows]
    assert labels == ["current", "1-30 days", "31-60 days", "61-90 days", "over 90 days"]
    for row, key in zip(r.rows, ("current", "1-30", "31-60", "61-90", "over_90"), strict=True):
        total, count = expected[key]
        assert row["outstanding"].text == de_amount(total), key
        assert row["invoice_count"].text == de_count(count), key
        assert count > 0, f"the sample has open invoices in bucket {key}"
        assert len(row["outstanding"].evidence) == count
    assert r.values["total_outstanding"].text == de_amount(sum((t for t, _ in expected.values()), Decimal(0)))
    assert_evidence_is_real(db, r)


def test_open_tickets_of_every_customer(fn: Footnote, erp: Erp) -> None:
    for cid in sorted(erp.customers):
        r = fn.call("open_tickets", customer=str(cid))
        expected = erp.open_tickets(cid)
        assert r.values["open_count"].text == str(len(expected))
        assert r.values["high_severity_count"].text == str(sum(1 for t in expected if t[2] in ("high", "critical")))
        assert (r.empty_reason == "no_open_tickets") == (not expected)
        order = {"critical": 1, "high": 2, "medium": 3, "low": 4}
        expected_ids = [t[0] for t in sorted(expected, key=lambda t: (order[t[2]], t[3], t[0]))]
        assert [int(e.record_id) for e in r.evidence] == expected_ids


@pytest.mark.parametrize("period,starts,ends", [
    ("2026-07", dt.date(2026, 7, 1), dt.date(2026, 8, 1)),
    ("2026-Q2", dt.date(2026, 4, 1), dt.date(2026, 7, 1)),
    ("Q1 2025", dt.date(2025, 1, 1), dt.date(2025, 4, 1)),
    ("FY2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
    ("2026", dt.date(2026, 1, 1), dt.date(2027, 1, 1)),
])
def test_revenue_for_periods(db: TestDatabase, fn: Footnote, erp: Erp, period: str, starts: dt.date,
                             ends: dt.date) -> None:
    r = fn.call("revenue", period=period)
    assert r.values["revenue"].text == de_amount(erp.revenue(starts, ends))
    n_inv = sum(1 for i in erp.invoices.values() if starts <= i.issue_date < ends)
    assert r.values["invoice_count"].text == de_count(n_inv)
    if period == "2026-07":
        assert_evidence_is_real(db, r)


def test_revenue_of_one_customer_and_an_empty_period(fn: Footnote, erp: Erp) -> None:
    r = fn.call("revenue", period="2026-Q1", customer="Bergmann Logistik GmbH")
    assert r.values["revenue"].text == de_amount(erp.revenue(dt.date(2026, 1, 1), dt.date(2026, 4, 1), 4471))
    assert r.values["customer"].text == "Bergmann Logistik GmbH"
    empty = fn.call("revenue", period="2019-03")
    assert empty.empty_reason == "no_documents_in_period"
    assert empty.values["revenue"].text == "0,00 €"


def test_revenue_change_is_computed_in_sql_with_sign_and_percent(fn: Footnote, erp: Erp) -> None:
    r = fn.call("revenue_change", period_from="2026-Q1", period_to="2026-Q2")
    a = erp.revenue(dt.date(2026, 1, 1), dt.date(2026, 4, 1))
    b = erp.revenue(dt.date(2026, 4, 1), dt.date(2026, 7, 1))
    assert r.values["revenue_from"].text == de_amount(a)
    assert r.values["revenue_to"].text == de_amount(b)
    assert r.values["change"].text == de_amount(abs(b - a))
    assert Decimal(r.values["change"].extra["signed_raw"]) == b - a
    assert r.values["direction"].text == ("up" if b > a else "down" if b < a else "unchanged")
    pct = ((b - a) / abs(a) * 100).quantize(Decimal("0.01"))
    assert Decimal(r.values["change_percent"].extra["signed_raw"]) == pct
    assert r.values["period_from"].text == "Q1 2026" and r.values["period_to"].text == "Q2 2026"


def test_no_percentage_over_a_base_of_zero_or_less(fn: Footnote, erp: Erp) -> None:
    """FY2024 ends with a credit note and no invoice: a change "in percent" of a negative base is not stated; the
    statement gives both revenues and the difference, and says why there is no percentage."""
    a = erp.revenue(dt.date(2024, 1, 1), dt.date(2025, 1, 1))
    b = erp.revenue(dt.date(2025, 1, 1), dt.date(2026, 1, 1))
    assert a < 0 < b, "the sample's FY2024 is a negative base"
    r = fn.call("revenue_change", period_from="FY2024", period_to="FY2025")
    assert "change_percent" not in r.values and r.empty_reason == "base_not_positive"
    assert Decimal(r.values["change"].extra["signed_raw"]) == b - a
    answer = fn.ask("revenue change from FY2024 to FY2025")
    assert answer.status == "verified", answer.answer
    assert "%" not in answer.answer
    for figure in (de_amount(a), de_amount(b), de_amount(b - a)):
        assert figure in answer.answer
    assert "no change in percent" in answer.answer.lower() and "negative" in answer.answer
    empty = fn.call("revenue_change", period_from="2019-03", period_to="2026-Q2")
    assert "change_percent" not in empty.values and empty.empty_reason == "no_revenue_in_base_period"
    answer = fn.ask("revenue change from March 2019 to Q2 2026")
    assert answer.status == "verified" and "%" not in answer.answer, answer.answer


def test_no_dso_over_no_sales_states_both_figures(fn: Footnote, erp: Erp) -> None:
    day = next(AS_OF - dt.timedelta(days=k) for k in range(1, 60)
               if not any(i.issue_date == AS_OF - dt.timedelta(days=k) for i in erp.invoices.values()))
    ar = sum((b for b in erp.outstanding(day).values() if b > 0), Decimal(0))
    assert ar > 0
    r = fn.call("days_sales_outstanding", as_of=day.isoformat(), window_days=1)
    assert "dso" not in r.values and r.empty_reason == "no_sales_in_window"
    composed = fn.compose([r.call_id])
    text = composed["answer"]
    assert de_amount(ar) in text and "0,00 €" in text and "cannot be computed" in text, text
    assert fn.record_answer("DSO", text, None, [r.call_id])["status"] == "verified", text


def test_top_customers_ranking(fn: Footnote, erp: Erp) -> None:
    r = fn.call("top_customers", period="FY2025", limit=5)
    per_customer = {cid: erp.revenue(dt.date(2025, 1, 1), dt.date(2026, 1, 1), cid) for cid in erp.customers}
    expected = sorted(((rev, cid) for cid, rev in per_customer.items()), key=lambda x: (-x[0], x[1]))[:5]
    assert [row["customer"].text for row in r.rows] == [erp.customers[cid][1] for _, cid in expected]
    assert [row["revenue"].text for row in r.rows] == [de_amount(rev) for rev, _ in expected]
    assert [row["rank"].text for row in r.rows] == ["1", "2", "3", "4", "5"]


def test_days_sales_outstanding(fn: Footnote, erp: Erp) -> None:
    r = fn.call("days_sales_outstanding", as_of="2026-08-14", window_days=90)
    ar = sum((b for b in erp.outstanding().values() if b > 0), Decimal(0))
    sales = sum((i.gross for i in erp.invoices.values()
                 if AS_OF - dt.timedelta(days=90) < i.issue_date <= AS_OF), Decimal(0))
    assert r.values["receivables"].text == de_amount(ar)
    assert r.values["gross_sales"].text == de_amount(sales)
    dso = (ar / sales * 90).quantize(Decimal("0.1"))
    assert Decimal(r.values["dso"].raw) == dso
    assert r.values["dso"].text == f"{dso}".replace(".", ",") + " days"
    assert "receivables" in r.document["formula"]


@pytest.mark.parametrize("number", ["INV-2026-8812", "inv-2026-8812", "8812", "erp://invoice/8812"])
def test_invoice_lookup(db: TestDatabase, fn: Footnote, number: str) -> None:
    r = fn.call("invoice", number=number)
    v = {k: x.text for k, x in r.values.items()}
    assert v["number"] == "INV-2026-8812"
    assert v["customer"] == "Bergmann Logistik GmbH"
    assert v["due_date"] == "02.05.2026"
    assert v["gross"] == "24.450,00 €"
    assert v["paid"] == "6.000,00 €"
    assert v["outstanding"] == "18.450,00 €"
    assert v["days_past_due"] == "104 days"
    assert [row["type"].text for row in r.rows] == ["payment"]
    assert_evidence_is_real(db, r)


def test_open_purchase_orders(db: TestDatabase, fn: Footnote) -> None:
    r = fn.call("open_purchase_orders")
    count, total = db.rows("SELECT count(*), sum(net) FROM erp.purchase_orders "
                           "WHERE status IN ('open', 'partially_received')")[0]
    assert r.values["open_count"].text == de_count(count)
    assert r.values["open_total"].text == de_amount(total)
    nw = fn.call("open_purchase_orders", supplier="Northwind Supply")
    count, = db.rows("SELECT count(*) FROM erp.purchase_orders p JOIN erp.suppliers s ON s.id = p.supplier_id "
                     "WHERE s.name = 'Northwind Supply' AND status IN ('open', 'partially_received')")[0]
    assert nw.values["open_count"].text == de_count(count)
    assert_evidence_is_real(db, nw)
    for period, first, last in (("2026-08", "2026-08-01", "2026-08-31"), ("2026-Q3", "2026-07-01", "2026-09-30"),
                                ("2026-08-10..2026-08-20", "2026-08-10", "2026-08-20")):
        due = fn.call("open_purchase_orders", expected_in=period)
        count, total = db.rows("SELECT count(*), coalesce(sum(net), 0) FROM erp.purchase_orders WHERE status IN "
                               "('open', 'partially_received') AND expected_on BETWEEN %s AND %s", (first, last))[0]
        assert due.values["open_count"].text == de_count(count) and count > 0
        assert due.values["open_total"].text == de_amount(total)
        assert all(first <= row["expected_on"].raw <= last for row in due.rows)
        assert_evidence_is_real(db, due)


def test_stock_on_hand_by_sku_and_by_name(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    for item_id in sorted(erp.items)[:10]:
        _id, sku, name, reorder = erp.items[item_id]
        total = sum((q for _s, i, q in erp.stock if i == item_id), Decimal(0))
        for key in (sku, name):
            r = fn.call("stock_on_hand", item=key)
            assert Decimal(r.values["quantity"].raw) == total
            assert r.values["sku"].text == sku
            assert r.values["below_reorder_level"].text == ("yes" if total < reorder else "no")


def test_northwind_supplier_payment_facts(db: TestDatabase, fn: Footnote) -> None:
    r = fn.call("supplier_payment_facts", supplier="Northwind")
    v = r.values
    assert v["supplier"].text == "Northwind Supply"
    assert v["payment_count"].text == "14"
    assert v["paid_account_ending"].text == "4471"
    assert v["pending_change_count"].text == "1"
    assert v["pending_account_ending"].text == "9086"
    assert v["pending_account_ending"].extra["verified"] is False
    assert v["pending_channel"].text == "email"
    assert v["pending_domain_age"].text == "6 days"
    assert v["phone_unchanged_since"].text == de_date(dt.date(2023, 7, 3))
    assert v["phone"].extra["verified"] is True
    flags = {e.type: e.verified for e in r.evidence if e.type in ("bank_account", "bank_change_request")}
    assert flags == {"bank_account": True, "bank_change_request": False}
    first, last = v["first_payment_on"].raw, v["last_payment_on"].raw
    assert first >= "2023-08-14" and last <= "2026-08-14"
    assert_evidence_is_real(db, r)


def test_list_customers_order_is_deterministic(fn: Footnote, erp: Erp) -> None:
    r = fn.call("list_customers", limit=1000)
    expected = sorted(erp.customers.values(), key=lambda c: (fold(c[1]), c[1], c[0]))
    assert [row["name"].text for row in r.rows] == [c[1] for c in expected]
    assert r.values["listed"].text == de_count(len(erp.customers))
    few = fn.call("list_customers", name_contains="bergmann")
    assert [row["name"].text for row in few.rows] == ["Bergmann Bau AG", "Bergmann Logistik GmbH"]


def test_locale_en_us(db: TestDatabase) -> None:
    fn = db.client("service", locale="en-US")
    r = fn.call("customer_overdue", customer="Bergmann Logistik")
    assert r.values["overdue_total"].text == "€43,805.00"
    assert r.rows[0]["due_date"].text == "May 2, 2026"


def test_revenue_drivers_rank_customers_by_absolute_change(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    r = fn.call("revenue_drivers", period_from="2026-Q1", period_to="2026-Q2", limit=4)
    q1, q2 = (dt.date(2026, 1, 1), dt.date(2026, 4, 1)), (dt.date(2026, 4, 1), dt.date(2026, 7, 1))
    changes = []
    for cid in erp.customers:
        a, b = erp.revenue(*q1, cid), erp.revenue(*q2, cid)
        active = any(i.customer_id == cid and (q1[0] <= i.issue_date < q2[1]) for i in erp.invoices.values())
        if active:
            changes.append((abs(b - a), cid, a, b))
    expected = sorted(changes, key=lambda x: (-x[0], x[1]))[:4]
    assert [row["customer"].text for row in r.rows] == [erp.customers[cid][1] for _, cid, _, _ in expected]
    for row, (delta, _cid, a, b) in zip(r.rows, expected, strict=True):
        assert row["revenue_from"].text == de_amount(a) and row["revenue_to"].text == de_amount(b)
        assert row["change"].text == de_amount(delta)
        assert row["direction"].text == ("up" if b > a else "down" if b < a else "unchanged")
    assert_evidence_is_real(db, r)


def test_client_settings_are_readable_by_the_service(db: TestDatabase) -> None:
    rows = db.rows("SELECT * FROM footnote.client_settings()", role="service")
    assert rows == [("de-DE", "EUR", dt.date(2026, 8, 14), 1)]


@pytest.mark.parametrize("uri", ["erp://invoice/8812", "erp://customer/4471", "erp://bank_change_request/502",
                                 "erp://stock/1", "erp://supplier/310"])
def test_source_record_opens_a_deep_link(db: TestDatabase, fn: Footnote, uri: str) -> None:
    r = fn.call("source_record", uri=uri)
    (e,) = r.evidence
    assert e.uri == uri and r.values["uri"].text == uri
    assert_evidence_is_real(db, r)
    assert len(e.fields) >= 3


def test_source_record_rejects_what_is_not_a_deep_link(fn: Footnote) -> None:
    from footnote_pg import InvalidArgument, UnknownEntity

    with pytest.raises(InvalidArgument, match="is not a deep link"):
        fn.call("source_record", uri="erp://salary/1")
    with pytest.raises(UnknownEntity, match="unknown invoice 1: no such record"):
        fn.call("source_record", uri="erp://invoice/1")


def test_invoice_numbers_as_the_erp_writes_them_and_bare_digits_that_name_two(db: TestDatabase) -> None:
    """An ERP numbering of its own (INV/2026/0032) is found by its number; digits that are one invoice's id and
    another's number are ambiguous (never the first of them); a credit note's number says what it is."""
    from footnote_pg import AmbiguousEntity, UnknownEntity

    with db.connect() as conn:
        conn.execute("ALTER TABLE erp.invoices DROP CONSTRAINT invoices_number_check")
        conn.execute("UPDATE erp.invoices SET number = 'INV/2026/8812' WHERE id = 8834")
    fn = db.client("service")
    assert fn.call("invoice", number="inv/2026/8812").values["outstanding"].text == "11.200,00 €"
    with pytest.raises(AmbiguousEntity) as caught:
        fn.call("invoice", number="8812")
    assert {c["name"] for c in caught.value.candidates} == {"INV-2026-8812", "INV/2026/8812"}
    assert fn.call("invoice", number="erp://invoice/8812").values["number"].text == "INV-2026-8812"
    answer = fn.ask("Is INV/2026/8812 paid?")
    assert answer.calls and answer.calls[0]["arguments"]["number"] == "INV/2026/8812", answer.calls
    assert "11.200,00 €" in answer.answer
    credit = db.scalar("SELECT number FROM erp.credit_notes WHERE invoice_id IS NOT NULL ORDER BY id LIMIT 1")
    with pytest.raises(UnknownEntity, match=f"{credit} is a credit note, not an invoice \\(it credits INV-"):
        fn.call("invoice", number=credit)

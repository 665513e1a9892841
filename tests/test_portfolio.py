"""The portfolio operations (payments, profiles, rankings, months, credit notes, reorder, purchase orders,
customers by owner or country, accounts payable): every figure against an independent computation over the
sample ERP."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from footnote_pg import Footnote, InvalidArgument, SourceNotMapped, UnknownEntity
from tests.conftest import TestDatabase
from tests.reference import AS_OF, Erp, de_amount, de_count, de_date
from tests.test_operations import assert_evidence_is_real

BERGMANN = 4471


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="zoran", actor_role="controller")


@pytest.fixture
def erp(db: TestDatabase) -> Erp:
    return Erp(db.url)


def _settled(erp: Erp, customer_id: int, starts: dt.date | None = None, ends: dt.date | None = None
             ) -> list[tuple[int, dt.date]]:
    """Invoices of a customer fully settled by AS_OF whose last payment is in [starts, ends): (id, settled on)."""
    balance = erp.outstanding(AS_OF)
    last: dict[int, dt.date] = {}
    for _id, invoice_id, paid_on, _amount in erp.payments:
        if paid_on <= AS_OF:
            last[invoice_id] = max(last.get(invoice_id, paid_on), paid_on)
    return sorted((i, last[i]) for i, b in balance.items()
                  if b <= 0 and erp.invoices[i].customer_id == customer_id and i in last
                  and (starts is None or last[i] >= starts) and (ends is None or last[i] < ends))


@pytest.mark.parametrize("period", [None, "2026", "2025-Q4"])
def test_customer_payments(db: TestDatabase, fn: Footnote, erp: Erp, period: str | None) -> None:
    starts = ends = None
    if period == "2026":
        starts, ends = dt.date(2026, 1, 1), dt.date(2027, 1, 1)
    elif period:
        starts, ends = dt.date(2025, 10, 1), dt.date(2026, 1, 1)
    r = fn.call("customer_payments", customer="Bergmann Logistik", period=period)
    customer_of = {i.id: i.customer_id for i in erp.invoices.values()}
    mine = [p for p in erp.payments if customer_of[p[1]] == BERGMANN and p[2] <= AS_OF
            and (starts is None or starts <= p[2] < ends)]
    assert r.values["payment_count"].text == de_count(len(mine))
    assert r.values["total_paid"].text == de_amount(sum((p[3] for p in mine), Decimal(0)))
    assert r.values["last_payment_on"].text == de_date(max(p[2] for p in mine))
    assert r.values["first_payment_on"].text == de_date(min(p[2] for p in mine))
    settled = _settled(erp, BERGMANN, starts, ends)
    days = [(on - erp.invoices[i].issue_date).days for i, on in settled]
    assert r.values["settled_invoice_count"].text == de_count(len(settled))
    assert r.values["paid_late_count"].text == de_count(sum(1 for i, on in settled if on > erp.invoices[i].due_date))
    average = (Decimal(sum(days)) / len(days)).quantize(Decimal("0.1"))
    assert r.values["average_days_to_pay"].raw == str(average)
    assert [row["paid_on"].text for row in r.rows] == [de_date(p[2]) for p in sorted(mine, key=lambda p: (p[2], p[0]),
                                                                                       reverse=True)][:20]
    assert_evidence_is_real(db, r)


def test_a_customer_with_no_payments_in_a_period_is_an_empty_result(fn: Footnote) -> None:
    r = fn.call("customer_payments", customer="Bergmann Logistik", period="2019")
    assert r.empty_reason == "no_payments" and r.values["payment_count"].text == "0"
    assert "average_days_to_pay" not in r.values


def test_customer_profile(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    r = fn.call("customer_profile", customer="Bergmann Logistik")
    v = {k: x.text for k, x in r.values.items()}
    balance = {i: b for i, b in erp.outstanding(AS_OF).items() if b > 0 and erp.invoices[i].customer_id == BERGMANN}
    assert v["open_balance"] == de_amount(sum(balance.values(), Decimal(0)))
    assert v["open_invoice_count"] == de_count(len(balance))
    assert v["overdue_total"] == de_amount(sum((b for _, b in erp.overdue(BERGMANN)), Decimal(0)))
    assert v["open_ticket_count"] == de_count(len(erp.open_tickets(BERGMANN)))
    assert (v["customer_number"], v["city"], v["country"], v["account_owner"], v["payment_terms"]) == (
        "C-4471", "Bremen", "DE", "Ana Kovač", "30 days")
    assert_evidence_is_real(db, r)


@pytest.mark.parametrize(("measure", "direction"), [("overdue", "desc"), ("overdue", "asc"), ("outstanding", "desc"),
                                                    ("oldest_overdue", "desc"), ("oldest_overdue", "asc")])
def test_rank_customers(db: TestDatabase, fn: Footnote, erp: Erp, measure: str, direction: str) -> None:
    r = fn.call("rank_customers", measure=measure, direction=direction, limit=7)
    per: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
    if measure == "outstanding":
        for i, b in erp.outstanding(AS_OF).items():
            if b > 0:
                per[erp.invoices[i].customer_id].append((0, b))
    else:  # the overdue part of each invoice, and the days past due of its earliest open instalment
        per.update(erp.overdue_by_customer(AS_OF))
    value = {c: (Decimal(max(d for d, _ in xs)) if measure == "oldest_overdue" else sum((b for _, b in xs), Decimal(0)))
             for c, xs in per.items()}
    ordered = sorted(value, key=lambda c: (-value[c] if direction == "desc" else value[c], erp.customers[c][1], c))
    expected = [(erp.customers[c][1], value[c]) for c in ordered[:7]]
    got = [(row["customer"].text, Decimal(row["value"].raw or "0")) for row in r.rows]
    assert got == expected
    assert r.values["ranked"].text == de_count(len(value))
    ranks = [int(row["rank"].text or "0") for row in r.rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert_evidence_is_real(db, r)


def test_ranking_arguments_are_checked(fn: Footnote) -> None:
    with pytest.raises(InvalidArgument, match="measure: profit is not one of overdue, outstanding, oldest_overdue"):
        fn.call("rank_customers", measure="profit")
    with pytest.raises(InvalidArgument, match="direction: sideways is not one of desc, asc"):
        fn.call("rank_customers", measure="overdue", direction="sideways")


@pytest.mark.parametrize(("period", "months"), [("2026-Q2", [(2026, 4), (2026, 5), (2026, 6)]),
                                               ("2026-H1", [(2026, m) for m in range(1, 7)]),
                                               ("2026-07-10..2026-08-14", [(2026, 7), (2026, 8)])])
def test_revenue_by_month(db: TestDatabase, fn: Footnote, erp: Erp, period: str, months: list[tuple[int, int]]) -> None:
    r = fn.call("revenue_by_month", period=period)
    starts = dt.date(2026, 7, 10) if ".." in period else dt.date(*months[0], 1)
    ends = dt.date(2026, 8, 15) if ".." in period else dt.date(months[-1][0] + months[-1][1] // 12,
                                                               months[-1][1] % 12 + 1, 1)
    expected = []
    for y, m in months:
        a = max(dt.date(y, m, 1), starts)
        b = min(dt.date(y + m // 12, m % 12 + 1, 1), ends)
        expected.append(de_amount(erp.revenue(a, b)))
    assert [row["revenue"].text for row in r.rows] == expected
    assert r.values["revenue"].text == de_amount(erp.revenue(starts, ends))
    assert_evidence_is_real(db, r)


def test_credit_notes_of_a_period(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    r = fn.call("credit_notes", period="2026-Q2")
    notes = [c for c in erp.credit_notes if dt.date(2026, 4, 1) <= c[3] < dt.date(2026, 7, 1)]
    assert r.values["credit_note_count"].text == de_count(len(notes))
    assert r.values["total_net"].text == de_amount(sum((c[4] for c in notes), Decimal(0)))
    assert [row["net"].text for row in r.rows] == [de_amount(c[4]) for c in sorted(notes, key=lambda c: (c[3], c[0]))]
    assert_evidence_is_real(db, r)


def test_items_below_reorder_level(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    with db.connect() as conn:  # make two items short: the sample keeps every item above its level
        conn.execute("UPDATE erp.items SET reorder_level = 100000 "
                     "WHERE id IN (SELECT id FROM erp.items ORDER BY id LIMIT 2)")
    erp = Erp(db.url)
    r = fn.call("items_below_reorder")
    on_hand: dict[int, Decimal] = defaultdict(Decimal)
    for _id, item_id, quantity in erp.stock:
        on_hand[item_id] += quantity
    short = sorted((it for it in erp.items.values() if on_hand[it[0]] < it[3]), key=lambda it: (it[2], it[0]))
    assert [row["sku"].text for row in r.rows] == [it[1] for it in short] and len(short) == 2
    assert r.values["item_count"].text == "2"
    assert_evidence_is_real(db, r)


def test_one_purchase_order_and_an_unknown_one(db: TestDatabase, fn: Footnote) -> None:
    number, net, status = db.rows("SELECT number, net, status FROM erp.purchase_orders ORDER BY id LIMIT 1")[0]
    r = fn.call("purchase_order", number=number.lower())
    assert r.values["number"].text == number and r.values["net"].text == de_amount(net)
    assert r.values["status"].text == status.replace("_", " ")
    with pytest.raises(UnknownEntity) as caught:
        fn.call("purchase_order", number="PO-2025-9999")
    assert caught.value.alternatives and all(a["name"].startswith("PO-") for a in caught.value.alternatives)


def test_customers_by_account_owner_and_country(db: TestDatabase, fn: Footnote, erp: Erp) -> None:
    r = fn.call("list_customers", owner="ana kovač", limit=1000)
    assert {row["name"].text for row in r.rows} == {c[1] for c in erp.customers.values() if c[3] == "Ana Kovač"}
    assert r.values["owner"].text == "Ana Kovač"
    german = {n for (n,) in db.rows("SELECT name FROM erp.customers WHERE country = 'DE'")}
    r = fn.call("list_customers", country="de", limit=1000)
    assert {row["name"].text for row in r.rows} == german and r.values["country"].text == "DE"
    with pytest.raises(UnknownEntity) as caught:
        fn.call("list_customers", owner="Nobody Atall")
    owners = {c[3] for c in erp.customers.values()}
    assert {a["name"] for a in caught.value.alternatives} == owners
    with pytest.raises(InvalidArgument, match="country: Germany is not a two-letter country code"):
        fn.call("list_customers", country="Germany")


def test_half_years_and_date_ranges_are_periods(fn: Footnote, erp: Erp) -> None:
    r = fn.call("revenue", period="H1 2026")
    assert r.values["period"].text == "H1 2026"
    assert r.values["revenue"].text == de_amount(erp.revenue(dt.date(2026, 1, 1), dt.date(2026, 7, 1)))
    r = fn.call("revenue", period="2026-01-01..2026-08-14")
    assert r.values["period"].text == "01.01.2026–14.08.2026"
    assert r.values["revenue"].text == de_amount(erp.revenue(dt.date(2026, 1, 1), dt.date(2026, 8, 15)))
    for bad, why in (("2026-H3", "is not a period"), ("2026-02-30..2026-03-01", "does not exist"),
                     ("2026-05-01..2026-04-01", "ends before it starts")):
        with pytest.raises(InvalidArgument, match=why):
            fn.call("revenue", period=bad)


def _payables(db: TestDatabase, as_of: dt.date, supplier_id: int | None = None
              ) -> list[tuple[int, Decimal, dt.date, Decimal]]:
    """Supplier invoices received by as_of with some of their gross not allocated by then: (id, gross, due date,
    open), from the erp tables (a payment allocated to an invoice pays it from the payment's day)."""
    paid: dict[int, Decimal] = defaultdict(Decimal)
    for invoice_id, amount, paid_on in db.rows(
            "SELECT a.supplier_invoice_id, a.amount, p.paid_on FROM erp.supplier_payment_allocations a "
            "JOIN erp.supplier_payments p ON p.id = a.payment_id"):
        if paid_on <= as_of:
            paid[invoice_id] += amount
    rows = db.rows("SELECT id, gross, due_date, supplier_id, invoice_date FROM erp.supplier_invoices")
    return sorted((r[0], r[1], r[2], r[1] - paid[r[0]]) for r in rows
                  if r[4] <= as_of and r[1] - paid[r[0]] > 0 and supplier_id in (None, r[3]))


@pytest.mark.parametrize(("supplier", "as_of"), [(None, None), ("Northwind Supply", None),
                                                 ("Northwind Supply", "2026-07-01"), (None, "2026-03-31"),
                                                 ("Nordisk Kullager AB", "2026-08-05"), (None, "2026-08-05")])
def test_accounts_payable(db: TestDatabase, fn: Footnote, supplier: str | None, as_of: str | None) -> None:
    day = dt.date.fromisoformat(as_of) if as_of else AS_OF
    supplier_id = db.scalar("SELECT id FROM erp.suppliers WHERE name = %s", (supplier,)) if supplier else None
    expected = _payables(db, day, supplier_id)
    r = fn.call("accounts_payable", supplier=supplier, as_of=as_of)
    v = r.values
    assert expected, "the sample has open supplier invoices on every day tested"
    assert v["open_total"].text == de_amount(sum((o for *_x, o in expected), Decimal(0)))
    assert v["open_count"].text == de_count(len(expected))
    overdue = [o for _i, _g, due, o in expected if due < day]
    assert v["overdue_total"].text == de_amount(sum(overdue, Decimal(0)))
    assert v["overdue_count"].text == de_count(len(overdue))
    buckets = sum((Decimal(v[k].raw) for k in ("current", "days_1_30", "days_31_60", "days_61_90", "over_90")),
                  Decimal(0))
    assert buckets == Decimal(v["open_total"].raw)
    assert [row["number"].evidence[0] for row in r.rows] == [f"supplier_invoice:{i}" for i, *_x in sorted(
        expected, key=lambda x: (x[2], x[0]))]
    assert [(Decimal(row["gross"].raw), Decimal(row["open"].raw)) for row in r.rows] == [
        (g, o) for _i, g, _d, o in sorted(expected, key=lambda x: (x[2], x[0]))]
    assert all(int(row["days_past_due"].raw) == max(0, (day - dt.date.fromisoformat(row["due_date"].raw)).days)
               for row in r.rows)
    assert_evidence_is_real(db, r)


def test_a_partly_paid_supplier_invoice_counts_at_what_is_still_open(fn: Footnote) -> None:
    """Nordisk Kullager AB's part payments (sql/sample/20_generate.sql): 26-0882, 882,00, paid 300,00 on 10.07.2026;
    26-0883, 1.250,00, and 400,00 of 26-0884, 2.000,00, paid by one payment on 03.08.2026; the rest of both on
    12.08.2026."""
    def ours(as_of: str) -> dict[str, tuple[str, str, str]]:
        r = fn.call("accounts_payable", supplier="Nordisk Kullager AB", as_of=as_of)
        return {row["number"].raw: (row["gross"].text, row["paid"].text, row["open"].text) for row in r.rows
                if row["number"].raw in ("26-0882", "26-0883", "26-0884")}

    assert ours("2026-07-09") == {"26-0882": ("882,00 €", "0,00 €", "882,00 €"),
                                  "26-0883": ("1.250,00 €", "0,00 €", "1.250,00 €")}
    assert ours("2026-07-10") == {"26-0882": ("882,00 €", "300,00 €", "582,00 €"),
                                  "26-0883": ("1.250,00 €", "0,00 €", "1.250,00 €")}
    assert ours("2026-08-05") == {"26-0882": ("882,00 €", "300,00 €", "582,00 €"),
                                  "26-0884": ("2.000,00 €", "400,00 €", "1.600,00 €")}
    assert ours("2026-08-14") == {}
    r = fn.call("accounts_payable", supplier="Nordisk Kullager AB", as_of="2026-08-05")
    shown = {row["number"].raw: row for row in r.rows}
    assert shown["26-0882"]["days_past_due"].raw == "21"
    text = fn.compose([r.call_id])["answer"]
    assert "26-0882 (Nordisk Kullager AB): 582,00 € open of 882,00 € (300,00 € paid) due 15.07.2026, 21 days past " \
           "due" in text
    graded = fn.check_answer(text, None, [r.call_id])  # the gate reads the open, paid and gross amounts as stated
    assert graded["status"] == "verified", graded["findings"]
    cited = {e.id: e for e in r.evidence}[shown["26-0884"]["open"].evidence[0]]
    assert (Decimal(cited.fields["gross"]), Decimal(cited.fields["paid"]), Decimal(cited.fields["open"])) == (
        Decimal("2000.00"), Decimal("400.00"), Decimal("1600.00"))


def test_the_northwind_invoice_behind_the_bank_change(fn: Footnote) -> None:
    r = fn.call("accounts_payable", supplier="Northwind Supply")
    assert [(row["number"].text, row["gross"].text, row["due_date"].text) for row in r.rows] == [
        ("NW-26-0688", "25.480,00 €", "30.08.2026")]
    assert r.values["overdue_total"].text == "0,00 €"
    record = fn.call("source_record", uri="erp://supplier_invoice/49999")
    assert record.values["type"].raw == "supplier_invoice"
    with pytest.raises(UnknownEntity) as err:
        fn.call("accounts_payable", supplier="Northwind Supplies Ltd")
    assert "Northwind Supply" in str(err.value)


def test_accounts_payable_over_an_unmapped_view_refuses_rather_than_says_nothing_is_open(db: TestDatabase) -> None:
    with db.connect() as conn:        # the placeholder an upgrade installs: the right columns, no rows
        conn.execute("CREATE OR REPLACE VIEW footnote_src.supplier_invoices AS SELECT i.id::bigint AS id, "
                     "i.number::text AS number, i.supplier_id::bigint AS supplier_id, i.invoice_date::date AS "
                     "invoice_date, i.due_date::date AS due_date, i.gross::numeric AS gross, NULL::date AS paid_on, "
                     "NULL::text AS uri FROM erp.supplier_invoices AS i WHERE false")
    fn = db.client("service")
    with pytest.raises(SourceNotMapped) as err:
        fn.call("accounts_payable")
    assert err.value.view == "footnote_src.supplier_invoices"
    answer = fn.ask("What do we owe Northwind?")
    assert answer.status == "refused" and "not mapped" in answer.answer


@pytest.mark.parametrize("operation,arguments,counted", [
    ("ar_aging", {}, """SELECT (SELECT count(*) FROM footnote_src.invoice_balances('2026-08-14') WHERE outstanding > 0)
        + (SELECT count(*) FROM footnote_src.account_credits('2026-08-14'))"""),  # open invoices and credits
    ("days_sales_outstanding", {}, """SELECT count(*) FROM (
        SELECT invoice_id FROM footnote_src.invoice_balances('2026-08-14') WHERE outstanding > 0
        UNION SELECT id FROM footnote_src.invoices WHERE issue_date > date '2026-08-14' - 90
                                                   AND issue_date <= '2026-08-14') AS cited"""),
    ("revenue", {"period": "2026"}, """SELECT
        (SELECT count(*) FROM footnote_src.invoices WHERE issue_date >= '2026-01-01' AND issue_date < '2027-01-01')
        + (SELECT count(*) FROM footnote_src.credit_notes WHERE issue_date >= '2026-01-01'
                                                            AND issue_date < '2027-01-01')
        """),
])
def test_more_evidence_than_the_limit_is_cited_as_an_evidence_set(db: TestDatabase, operation: str,
                                                                  arguments: dict[str, str], counted: str) -> None:
    """One row over max_evidence_rows, the operation answers the same figures and cites its rows as sets (count
    and digest, never the rows themselves); paging through each set gives back exactly the rows the operation
    inlines at the limit, and their digest recomputed here is the set's; the call log keeps a small document."""
    from footnote_pg.results import Evidence, evidence_set_digest

    rows = int(db.scalar(counted))
    assert rows > 100
    fn = db.client("service")
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1", (str(rows),))
    inline = fn.call(operation, **arguments)
    assert len(inline.evidence) == rows and not any(e.is_set for e in inline.evidence)
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1", (str(rows - 1),))
    cited = fn.call(operation, **arguments)
    assert {k: (v.raw, v.text) for k, v in cited.values.items()} == \
        {k: (v.raw, v.text) for k, v in inline.values.items()}, "the same figures"
    sets = [e for e in cited.evidence if e.is_set]
    assert sets and len(cited.evidence) < 10
    cited_ids = {i for v in cited.values.values() for i in v.evidence} | \
        {i for row in cited.rows for v in row.values() for i in v.evidence}
    assert cited_ids <= {e.id for e in cited.evidence} and {e.id for e in sets} <= cited_ids
    paged: dict[str, Evidence] = {}
    for s in sets:
        got = []
        while page := fn.evidence_rows(cited.call_id, s.id, len(got), 97):
            got += page
        assert [r.n for r in got] == list(range(1, len(got) + 1))
        assert len(got) == int(s.fields["rows"]) and evidence_set_digest(r.text for r in got) == s.fields["digest"]
        for r in got:  # an invoice both open and sold is in both sets of DSO, inlined once with the first's fields
            paged.setdefault(r.evidence.id, r.evidence)
    others = {e.id for e in cited.evidence if not e.is_set}
    for e in inline.evidence:
        assert e.id in paged or e.id in others, e.id
        if e.id in paged:
            assert (paged[e.id].uri, paged[e.id].fields) == (e.uri, e.fields), e.id
    logged = db.scalar("SELECT length(result::text) FROM footnote.call_log WHERE call_id = %s", (cited.call_id,))
    assert logged < 20_000


@pytest.mark.parametrize("operation,arguments,question", [
    ("credit_notes", {"period": "2026"}, "Which credit notes were issued in 2026?"),
    ("open_purchase_orders", {}, "Which purchase orders are open?"),
])
@pytest.mark.parametrize("over", ["one_over", "far_over"])
def test_a_listing_over_the_limit_cites_its_set_and_lists_its_first_rows(
        db: TestDatabase, operation: str, arguments: dict[str, str], question: str, over: str) -> None:
    """Beyond max_evidence_rows a listing (credit notes, open purchase orders) gives the same count and total,
    citing one evidence set that pages back to exactly the rows it inlines at the limit, and lists the first rows
    (as many as fit beside the set, at most 100) with the same values and their own inline evidence; an answer
    listing them is verified and re-attests."""
    from footnote_pg.results import evidence_set_digest

    fn = db.client("service")
    inline = fn.call(operation, **arguments)
    rows = len(inline.evidence)
    assert rows > 20 and len(inline.rows) == rows and not any(e.is_set for e in inline.evidence)
    limit = rows - 1 if over == "one_over" else 12
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1", (str(limit),))
    cited = fn.call(operation, **arguments)
    assert {k: v.text for k, v in cited.values.items()} == {k: v.text for k, v in inline.values.items()}
    sets = [e for e in cited.evidence if e.is_set]
    shown = min(100, limit - 1)
    assert len(sets) == 1 and len(cited.evidence) == 1 + shown <= limit
    assert all(v.evidence == (sets[0].id,) for v in cited.values.values() if v.evidence)
    assert [{k: (v.text, v.evidence) for k, v in r.items()} for r in cited.rows] == \
        [{k: (v.text, v.evidence) for k, v in r.items()} for r in inline.rows[:shown]], "the first rows, unchanged"
    assert [e for e in cited.evidence if not e.is_set] == inline.evidence[:shown]
    got = fn.evidence_rows(cited.call_id, sets[0].id, 0, 10_000)
    assert len(got) == rows == int(sets[0].fields["rows"])
    assert [r.evidence for r in got] == inline.evidence
    assert evidence_set_digest(r.text for r in got) == sets[0].fields["digest"]
    answer = fn.ask(question)
    assert answer.status == "verified", (answer.status, answer.answer)
    assert any(e.is_set for e in answer.evidence)
    with db.connect("service") as conn:
        verdicts = {r[0] for r in conn.execute("SELECT verdict FROM footnote.reattest(%s)", (answer.receipt.seq,))}
    assert verdicts == {"still_holds"}, verdicts


SET_CALLS = [("ar_aging", {}), ("ar_aging", {"customer": "Bergmann Logistik"}), ("days_sales_outstanding", {}),
             ("revenue", {"period": "2026"}), ("revenue_by_month", {"period": "2026"}),
             ("revenue_change", {"period_from": "2025", "period_to": "2026"})]
SET_QUESTIONS = ["What is our AR aging?", "What is our DSO?", "What was revenue in 2026?",
                 "How did revenue change from 2025 to 2026?", "Revenue by month in 2026"]


def test_a_low_limit_changes_what_is_cited_never_a_figure_and_answers_stay_verified(db: TestDatabase) -> None:
    """With max_evidence_rows at 12 (a set per month of a year still fits) every portfolio figure is the one it is
    at the default; answers citing sets are verified, their ledger records hold the sets (not the rows), and
    re-attestation finds every claim holds."""
    fn = db.client("service")
    default = [fn.call(op, **args) for op, args in SET_CALLS]
    db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
    for (op, args), before in zip(SET_CALLS, default, strict=True):
        after = fn.call(op, **args)
        assert {k: v.text for k, v in after.values.items()} == {k: v.text for k, v in before.values.items()}, op
        assert [{k: v.text for k, v in r.items()} for r in after.rows] == \
            [{k: v.text for k, v in r.items()} for r in before.rows], op
        assert len(after.evidence) <= 12, op
        assert any(e.is_set for e in after.evidence) == (len(before.evidence) > 12), op
    for question in SET_QUESTIONS:
        answer = fn.ask(question)
        assert answer.status == "verified", (question, answer.status, answer.answer)
        assert any(e.is_set for e in answer.evidence), question
        seq = answer.receipt.seq
        assert db.scalar("SELECT count(*) FROM footnote.ledger, jsonb_array_elements(evidence) AS e "
                         "WHERE seq = %s AND e->>'type' = 'invoice'", (seq,)) == 0, "the record keeps sets, not rows"
        with db.connect("service") as conn:
            verdicts = {r[0] for r in conn.execute("SELECT verdict FROM footnote.reattest(%s)", (seq,))}
        assert verdicts == {"still_holds"}, (question, verdicts)


def test_evidence_rows_refuses_what_it_cannot_page(db: TestDatabase) -> None:
    from footnote_pg import InvalidArgument

    fn = db.client("service")
    overdue = fn.call("customer_overdue", customer="Bergmann Logistik")
    db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
    aging = fn.call("ar_aging")
    real = next(e.id for e in aging.evidence if e.is_set)
    cases = [((aging.call_id, "evidence_set:1"), f"cites no evidence set evidence_set:1; it cites {real}"),
             ((overdue.call_id, real), "its evidence is all inline"),
             (("00000000-0000-0000-0000-000000000007", real), "was never made"),
             (("not-a-call", real), "is not a call id"),
             ((aging.call_id, real, -1), "invalid argument offset: must be 0 or more"),
             ((aging.call_id, real, 0, 0), "invalid argument limit")]
    for arguments, message in cases:
        with pytest.raises(InvalidArgument) as err:
            fn.evidence_rows(*arguments)  # type: ignore[arg-type]
        assert message in str(err.value), (arguments, str(err.value))
    assert fn.evidence_rows(aging.call_id, real, 10_000_000) == []


def test_an_evidence_set_is_verified_offline_against_a_bundle(db: TestDatabase, tmp_path: Path) -> None:
    """footnote-pg evidence -o writes a set's rows; verify --evidence-set --bundle recomputes their digest with no
    database and compares it with the set the bundle's record cites; a changed, dropped or foreign row fails."""
    from typer.testing import CliRunner

    from footnote_pg.cli import app

    runner = CliRunner()
    fn = db.client("service")
    db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
    answer = fn.ask("What is our AR aging?")
    (the_set,) = [e for e in answer.evidence if e.is_set]
    call_id = next(c["call_id"] for c in answer.claims if the_set.id in c["evidence"])
    rows, bundle = tmp_path / "set.jsonl", tmp_path / "bundle.jsonl"
    done = runner.invoke(app, ["evidence", call_id, the_set.id, "-o", str(rows),
                               "--database-url", db.url_as("service")])
    assert done.exit_code == 0 and f"321 rows of {the_set.id} written" in done.output, done.output
    assert runner.invoke(app, ["export", str(bundle), "--database-url", db.url]).exit_code == 0
    done = runner.invoke(app, ["verify", "--bundle", str(bundle), "--evidence-set", str(rows)])
    assert done.exit_code == 0 and f"321 rows hash to the digest record #{answer.receipt.seq} cites" in done.output

    lines = rows.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = [lines[0], lines[1].replace('"paid": "', '"paid": "1'), *lines[2:]]
    for name, text, says in [("changed", changed, "the file's 321 rows hash to"),
                             ("dropped", lines[:-1], "the file's 320 rows hash to"),
                             ("foreign", [lines[0].replace(the_set.id, "evidence_set:1"), *lines[1:]],
                              "no record of the bundle cites this set")]:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(text), encoding="utf-8")
        done = runner.invoke(app, ["verify", "--bundle", str(bundle), "--evidence-set", str(path)])
        assert done.exit_code == 1 and says in done.output, (name, done.output)


def test_a_credit_note_that_names_no_invoice(fn: Footnote, erp: Erp) -> None:
    """CN-2024-4999 (sql/sample/20_generate.sql): 250,00 net, 302,50 gross, to Horák Logistika s.r.o. on 16.12.2024,
    naming no invoice and never set off against one."""
    horak = 4453
    assert [c for c in erp.credit_notes if c[1] is None] == [
        (4999, None, horak, dt.date(2024, 12, 16), Decimal("250.00"), Decimal("302.50"), None)]
    # it lowers revenue when issued (December 2024 holds no invoice: revenue is minus its net)
    revenue = fn.call("revenue", period="2024-12")
    assert revenue.values["revenue"].text == "-250,00 €"
    # it is listed with the others, as crediting no invoice
    notes = fn.call("credit_notes", period="2024-12")
    assert [(row["number"].text, row["net"].text, row["invoice"].raw) for row in notes.rows] == [
        ("CN-2024-4999", "250,00 €", None)]
    text = fn.compose([notes.call_id])["answer"]
    assert "CN-2024-4999 (Horák Logistika s.r.o.): 250,00 € net on 16.12.2024, naming no invoice" in text, text
    assert fn.check_answer(text, None, [notes.call_id])["status"] == "verified"
    # a credit on the customer's account until applied: the net receivable is what its invoices owe less 302,50
    aging = fn.call("ar_aging", customer="Horák Logistika s.r.o.")
    owed = sum((b for i, b in erp.outstanding(AS_OF).items() if erp.invoices[i].customer_id == horak and b > 0),
               Decimal(0))
    assert Decimal(aging.values["unapplied_credits"].raw) == erp.credits(horak) == Decimal("302.50")
    assert Decimal(aging.values["total_outstanding"].raw) == owed
    assert "credit_note:4999" in aging.values["unapplied_credits"].evidence
    # asked for as an invoice, it says what it is, and credits nothing
    with pytest.raises(UnknownEntity, match=r"CN-2024-4999 is a credit note, not an invoice; credit notes are"):
        fn.call("invoice", number="CN-2024-4999")

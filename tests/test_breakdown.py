"""The breakdown operation: every measure by every dimension that applies to it, against figures computed here
from the sample ERP's own tables (never the source views or footnote's SQL); its arguments, filters, limits,
evidence sets, and an answer through ``ask``."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import psycopg
import pytest

from footnote_pg import Footnote, InvalidArgument, UnknownEntity
from footnote_pg.question import Directory, route
from tests.conftest import TestDatabase
from tests.reference import de_amount, de_count
from tests.test_operations import assert_evidence_is_real
from tests.test_router import SETTINGS, directory  # noqa: F401 (the sample's names, read once per module)

PERIOD = "2026-H1"
STARTS, ENDS = dt.date(2026, 1, 1), dt.date(2026, 7, 1)
CUSTOMER_DIMENSIONS = ["customer", "country", "account_owner", "month", "quarter"]
SUPPLIER_DIMENSIONS = ["supplier", "supplier_country", "month", "quarter"]
# measure -> (SQL over the ERP's tables giving (party id, day, amount, severity), aggregate, dimensions)
MEASURES: dict[str, tuple[str, str, list[str]]] = {
    "revenue": ("SELECT customer_id, issue_date, net, NULL FROM erp.invoices UNION ALL "
                "SELECT customer_id, issue_date, -net, NULL FROM erp.credit_notes", "sum", CUSTOMER_DIMENSIONS),
    "invoiced": ("SELECT customer_id, issue_date, gross, NULL FROM erp.invoices", "sum", CUSTOMER_DIMENSIONS),
    "invoice_count": ("SELECT customer_id, issue_date, net, NULL FROM erp.invoices", "count", CUSTOMER_DIMENSIONS),
    "average_invoice": ("SELECT customer_id, issue_date, net, NULL FROM erp.invoices", "average", CUSTOMER_DIMENSIONS),
    "cash_collected": ("SELECT customer_id, paid_on, amount, NULL FROM erp.payments", "sum", CUSTOMER_DIMENSIONS),
    "credit_notes": ("SELECT customer_id, issue_date, net, NULL FROM erp.credit_notes", "sum", CUSTOMER_DIMENSIONS),
    "tickets_opened": ("SELECT customer_id, opened_on, NULL, severity FROM erp.tickets", "count",
                       [*CUSTOMER_DIMENSIONS, "severity"]),
    "purchase_volume": ("SELECT supplier_id, invoice_date, gross, NULL FROM erp.supplier_invoices", "sum",
                        SUPPLIER_DIMENSIONS),
    "supplier_payments": ("SELECT supplier_id, paid_on, amount, NULL FROM erp.supplier_payments", "sum",
                          SUPPLIER_DIMENSIONS),
}


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    client: Footnote = db.client("service", actor="zoran", actor_role="controller")
    return client


class Ledger:
    """The sample's customers, suppliers and the records of each measure, read from the ERP's tables."""

    def __init__(self, url: str) -> None:
        with psycopg.connect(url) as conn:
            self.customers = {r[0]: r[1:] for r in conn.execute(
                "SELECT c.id, c.name, c.country, e.name FROM erp.customers c "
                "JOIN erp.employees e ON e.id = c.account_owner_id")}
            self.suppliers = {r[0]: r[1:] for r in conn.execute("SELECT id, name, country FROM erp.suppliers")}
            self.records = {m: conn.execute(q).fetchall() for m, (q, _, _) in MEASURES.items()}

    def key(self, dim: str | None) -> Callable[[tuple[Any, ...]], str]:
        return {
            None: lambda r: "",
            "customer": lambda r: self.customers[r[0]][0],
            "country": lambda r: self.customers[r[0]][1],
            "account_owner": lambda r: self.customers[r[0]][2],
            "supplier": lambda r: self.suppliers[r[0]][0],
            "supplier_country": lambda r: self.suppliers[r[0]][1],
            "month": lambda r: r[1].strftime("%B %Y"),
            "quarter": lambda r: f"Q{(r[1].month - 1) // 3 + 1} {r[1].year}",
            "severity": lambda r: r[3],
        }[dim]

    def figures(self, measure: str, dim: str | None, keep: Callable[[tuple[Any, ...]], bool] = lambda r: True
                ) -> tuple[dict[str, tuple[Decimal, int]], Decimal, int]:
        """{group: (value, records)}, the total and the number of records in PERIOD."""
        aggregate = MEASURES[measure][1]
        rows = [r for r in self.records[measure] if STARTS <= r[1] < ENDS and keep(r)]
        groups: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        key = self.key(dim)
        for r in rows:
            groups[key(r)].append(r)

        def value(rs: list[tuple[Any, ...]]) -> Decimal:
            if aggregate == "count":
                return Decimal(len(rs))
            total = sum((Decimal(r[2]) for r in rs), Decimal(0))
            return (total / len(rs)).quantize(Decimal("0.01"), ROUND_HALF_UP) if aggregate == "average" else total

        return {g: (value(rs), len(rs)) for g, rs in groups.items()}, value(rows) if rows else Decimal(0), len(rows)


def _text(measure: str, value: Decimal) -> str:
    return de_count(int(value)) if MEASURES[measure][1] == "count" else de_amount(value)


@pytest.mark.parametrize("measure", list(MEASURES))
def test_every_measure_by_every_dimension_as_computed_from_the_erp(db: TestDatabase, fn: Footnote,
                                                                   measure: str) -> None:
    ledger = Ledger(db.url)
    for dim in [None, *MEASURES[measure][2]]:
        groups, total, records = ledger.figures(measure, dim)
        assert records > 0, (measure, "the sample has records of every measure in the period")
        r = fn.call("breakdown", measure=measure, period=PERIOD, by=dim)
        where = (measure, dim)
        assert r.values["total"].text == _text(measure, total), where
        assert r.values["count"].text == de_count(records), where
        if dim is None:
            assert r.rows == [] and "groups" not in r.values, where
            continue
        assert r.values["groups"].text == de_count(len(groups)), where
        got = {str(row[dim].text): (row["value"].text, row["count"].text) for row in r.rows}
        assert len(got) == len(r.rows) == min(len(groups), 100), where
        for group, (value, text) in got.items():
            assert group in groups, (where, group)
            assert (_text(measure, groups[group][0]), de_count(groups[group][1])) == (value, text), (where, group)
        values = [v for v, _ in groups.values()]
        if dim in ("month", "quarter"):   # time order
            assert list(got) == [g for g, _ in sorted(groups.items(), key=lambda x: min(
                d[1] for d in ledger.records[measure] if STARTS <= d[1] < ENDS and ledger.key(dim)(d) == x[0]))]
        else:                             # largest first
            assert [groups[g][0] for g in got] == sorted(values, reverse=True)[:len(got)], where
        if MEASURES[measure][1] != "average" and len(groups) > len(got):
            rest = sum((groups[g][0] for g in groups if g not in got), Decimal(0))
            assert r.values["others"].text == _text(measure, rest), where
        if MEASURES[measure][1] == "sum" and len(groups) == len(got):   # the groups add up to the total
            assert sum((groups[g][0] for g in got), Decimal(0)) == total, where
    assert_evidence_is_real(db, r)


def test_revenue_is_the_revenue_operations(fn: Footnote) -> None:
    for period in ("2026-Q2", "2025", "2026-01-01..2026-08-14"):
        assert fn.call("breakdown", measure="revenue", period=period).values["total"].text == \
            fn.call("revenue", period=period).values["revenue"].text
        months = fn.call("revenue_by_month", period="2026-H1")
        by_month = fn.call("breakdown", measure="revenue", period="2026-H1", by="month")
        assert [(m["month"].text, m["revenue"].text) for m in months.rows] == \
            [(m["month"].text, m["value"].text) for m in by_month.rows]


def test_filters_limit_and_direction(db: TestDatabase, fn: Footnote) -> None:
    ledger = Ledger(db.url)
    owner = sorted({c[2] for c in ledger.customers.values()})[0]
    groups, total, _ = ledger.figures("cash_collected", "country", lambda r: ledger.customers[r[0]][2] == owner)
    r = fn.call("breakdown", measure="cash_collected", period=PERIOD, by="country", owner=owner.upper())
    assert r.values["total"].text == de_amount(total) and r.values["account_owner"].text == owner
    assert {row["country"].text: row["value"].text for row in r.rows} == \
        {g: de_amount(v) for g, (v, _) in groups.items()}

    groups, total, _ = ledger.figures("revenue", "customer", lambda r: ledger.customers[r[0]][1] == "DE")
    r = fn.call("breakdown", measure="revenue", period=PERIOD, by="customer", country="de", limit=3, direction="asc")
    ranked = sorted(groups.items(), key=lambda g: g[1][0])
    assert [(row["customer"].text, row["value"].text) for row in r.rows] == \
        [(g, de_amount(v)) for g, (v, _) in ranked[:3]]
    assert r.values["others"].text == de_amount(sum((v for _, (v, _) in ranked[3:]), Decimal(0)))
    assert r.values["other_groups"].text == de_count(len(ranked) - 3)
    assert r.values["total"].text == de_amount(total)

    bergmann = fn.call("breakdown", measure="invoice_count", period=PERIOD, customer="Bergmann Logistik")
    n = sum(1 for x in ledger.records["invoice_count"] if STARTS <= x[1] < ENDS and x[0] == 4471)
    assert bergmann.values["total"].text == de_count(n) and str(bergmann.values["customer"].text).startswith("Bergmann")

    supplier = sorted(ledger.suppliers.values())[0][0]
    sid = next(k for k, v in ledger.suppliers.items() if v[0] == supplier)
    one = fn.call("breakdown", measure="purchase_volume", period=PERIOD, supplier=supplier, by="quarter")
    want = sum((Decimal(x[2]) for x in ledger.records["purchase_volume"] if STARTS <= x[1] < ENDS and x[0] == sid),
               Decimal(0))
    assert one.values["total"].text == de_amount(want)


@pytest.mark.parametrize("arguments,message", [
    ({"measure": "profit", "period": PERIOD}, "measure: profit is not one of revenue, invoiced, "),
    ({"measure": "revenue", "period": PERIOD, "by": "severity"},
     "by: severity does not apply to revenue; it is grouped by customer, country, account_owner, month, quarter"),
    ({"measure": "purchase_volume", "period": PERIOD, "by": "customer"},
     "by: customer does not apply to purchase_volume; it is grouped by supplier, supplier_country, month, quarter"),
    ({"measure": "tickets_opened", "period": PERIOD, "by": "supplier"},
     "by: supplier does not apply to tickets_opened"),
    ({"measure": "revenue", "period": "2026-Q7"}, "period: "),
    ({"measure": "revenue"}, "period: is required"),
    ({"measure": "revenue", "period": PERIOD, "country": "Germany"}, "country: Germany is not a two-letter"),
    ({"measure": "supplier_payments", "period": PERIOD, "owner": "Sofia Rossi"}, "owner: filters customers"),
    ({"measure": "revenue", "period": PERIOD, "supplier": "Northwind"}, "supplier: filters suppliers"),
    ({"measure": "revenue", "period": PERIOD, "limit": 0}, "limit: "),
    ({"measure": "revenue", "period": PERIOD, "direction": "up"}, "direction: up is not one of desc, asc"),
])
def test_bad_arguments_are_one_line_naming_the_argument(fn: Footnote, arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgument) as info:
        fn.call("breakdown", **arguments)
    assert str(info.value).startswith(message) or message in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


def test_a_low_evidence_limit_lists_fewer_groups_and_the_rest_in_one_figure(db: TestDatabase, fn: Footnote) -> None:
    everything = fn.call("breakdown", measure="revenue", period=PERIOD, by="customer")
    db.scalar("UPDATE footnote.settings SET value = '21' WHERE key = 'max_evidence_rows' RETURNING 1")
    few = fn.call("breakdown", measure="revenue", period=PERIOD, by="customer")
    assert len(few.rows) == 10 and len(few.evidence) <= 21
    assert few.values["total"].text == everything.values["total"].text
    assert [r["value"].text for r in few.rows] == [r["value"].text for r in everything.rows[:10]]
    rest = sum((Decimal(str(r["value"].raw)) for r in everything.rows[10:]), Decimal(0))
    assert few.values["others"].text == de_amount(rest)


def test_unknown_names_list_real_ones(fn: Footnote) -> None:
    with pytest.raises(UnknownEntity, match="account owner"):
        fn.call("breakdown", measure="revenue", period=PERIOD, owner="Nobody Atall")
    with pytest.raises(UnknownEntity):
        fn.call("breakdown", measure="revenue", period=PERIOD, customer="Zzyzx Nonexistent")


def test_over_the_limit_the_total_and_each_listed_group_cite_an_evidence_set(db: TestDatabase, fn: Footnote) -> None:
    """Beyond max_evidence_rows the same figures cite sets: the whole, and one per listed group; paging through
    each gives back the rows the group's figure stands on, and the digest recomputed here is the set's."""
    from footnote_pg.results import evidence_set_digest

    inline = fn.call("breakdown", measure="revenue", period=PERIOD, by="country")
    rows = int(str(inline.values["count"].raw))
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1", (str(rows - 1),))
    cited = fn.call("breakdown", measure="revenue", period=PERIOD, by="country")
    assert {k: v.text for k, v in cited.values.items()} == {k: v.text for k, v in inline.values.items()}
    assert [{k: v.text for k, v in row.items()} for row in cited.rows] == \
        [{k: v.text for k, v in row.items()} for row in inline.rows]
    sets = {e.id: e for e in cited.evidence if e.is_set}
    assert len(sets) == 1 + len(cited.rows) and len(cited.evidence) == len(sets)
    by_id = {e.id: e for e in inline.evidence}
    for row, inline_row in zip(cited.rows, inline.rows, strict=True):
        (set_id,) = row["value"].evidence
        got: list[Any] = []
        while page := fn.evidence_rows(cited.call_id, set_id, len(got), 97):
            got += page
        assert len(got) == int(sets[set_id].fields["rows"]) == int(str(row["count"].raw))
        assert evidence_set_digest(p.text for p in got) == sets[set_id].fields["digest"]
        assert [p.evidence.id for p in got] == list(inline_row["value"].evidence)
        assert all(p.evidence.fields == by_id[p.evidence.id].fields for p in got)
    assert_evidence_is_real(db, cited)


@pytest.mark.parametrize("question,measure,by", [
    ("What was our revenue by country in the first half of 2026?", "revenue", "country"),
    ("How much cash did we collect in H1 2026, by account owner?", "cash_collected", "account_owner"),
    ("How many tickets were opened in the first half of 2026, by severity?", "tickets_opened", "severity"),
    ("Which suppliers did we buy the most from in H1 2026?", "purchase_volume", "supplier"),
    ("What was the average invoice value in H1 2026?", "average_invoice", None),
])
def test_an_answer_through_ask_is_verified(db: TestDatabase, question: str, measure: str, by: str | None) -> None:
    with db.client("service", actor="zoran", actor_role="controller") as fn:
        answer = fn.ask(question)
    assert answer.status == "verified", (answer.status, answer.answer, answer.message)
    assert [(c["operation"], c["arguments"].get("measure"), c["arguments"].get("by")) for c in answer.calls] == \
        [("breakdown", measure, by)]
    groups, total, _ = Ledger(db.url).figures(measure, by)
    assert _text(measure, total) in answer.answer
    for g, (v, _) in sorted(groups.items(), key=lambda x: -x[1][0])[:5]:
        assert f"{g}: {_text(measure, v)}" in answer.answer, (g, answer.answer)


# -- the router ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question,arguments", [
    ("What was our revenue by country in the first half of 2026?", {"measure": "revenue", "period": "2026-H1",
                                                                     "by": "country"}),
    ("revenue per sales rep in Q2 2026", {"measure": "revenue", "period": "2026-Q2", "by": "account_owner"}),
    ("what were our sales in France in 2025", {"measure": "revenue", "period": "FY2025", "country": "FR"}),
    ("revenue of customers managed by Sofia Rossi in 2025", {"measure": "revenue", "period": "FY2025",
                                                             "owner": "Sofia Rossi"}),
    ("How much cash did we collect in Q2 2026?", {"measure": "cash_collected", "period": "2026-Q2"}),
    ("cash collected from Bergmann Logistik in Q2 2026 by month",
     {"measure": "cash_collected", "period": "2026-Q2", "by": "month", "customer": "Bergmann Logistik GmbH"}),
    ("average invoice value by account owner in 2025", {"measure": "average_invoice", "period": "FY2025",
                                                        "by": "account_owner"}),
    ("tickets opened last month by severity", {"measure": "tickets_opened", "period": "2026-07", "by": "severity"}),
    ("how many tickets did Bergmann Logistik open in 2025",
     {"measure": "tickets_opened", "period": "FY2025", "customer": "Bergmann Logistik GmbH"}),
    ("top 5 suppliers by purchase volume in 2025", {"measure": "purchase_volume", "period": "FY2025",
                                                    "by": "supplier", "limit": 5}),
    ("which supplier did we buy the most from last year", {"measure": "purchase_volume", "period": "FY2025",
                                                           "by": "supplier", "limit": 1}),
    ("How much did we pay suppliers in Q1 2026, by supplier country?",
     {"measure": "supplier_payments", "period": "2026-Q1", "by": "supplier_country"}),
    ("How many invoices did we issue in Q2 2026 by country?", {"measure": "invoice_count", "period": "2026-Q2",
                                                               "by": "country"}),
    ("credit notes by customer in 2026", {"measure": "credit_notes", "period": "FY2026", "by": "customer"}),
    ("breakdown measure=cash_collected by=account_owner period=2026-Q2",
     {"measure": "cash_collected", "period": "2026-Q2", "by": "account_owner"}),
])
def test_questions_the_breakdown_answers(directory: Directory, question: str,  # noqa: F811
                                         arguments: dict[str, Any]) -> None:
    r = route(question, directory, SETTINGS)
    assert [(c.operation, c.arguments) for c in r.calls] == [("breakdown", arguments)], (r.kind, r.message)


@pytest.mark.parametrize("question,outcome", [
    ("top customers by revenue in 2025", "top_customers"),          # what other operations answer stays theirs
    ("revenue by month 2026", "revenue_by_month"),
    ("What was revenue in Q2 2026?", "revenue"),
    ("payments received from Bergmann Logistik in 2025", "customer_payments"),
    ("credit notes of Q2 2026", "credit_notes"),
    ("revenue by product line in 2025", "refusal"),                 # what none computes is still refused
    ("revenue by country and product in 2025", "refusal"),
    ("which supplier do we owe the most", "refusal"),
    ("rank suppliers by how much we owe them", "refusal"),
    ("open tickets by severity in Q2 2026", "refusal"),
    ("tickets by severity", "refusal"),
    ("average invoice value", "clarification"),                     # a period is asked for, never assumed
    ("revenue by country in Q5 2026", "clarification"),
])
def test_questions_the_breakdown_leaves_alone(directory: Directory, question: str, outcome: str) -> None:  # noqa: F811
    r = route(question, directory, SETTINGS)
    assert (r.kind if r.kind in ("refusal", "clarification") else r.calls[0].operation) == outcome, r

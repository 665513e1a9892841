"""The composer: answer text built only from the strings the catalog returned.

Templates are Python, their words carry no digit (checked at run time), and
every figure is inserted by :meth:`Text.fig`, which records a claim whose span
satisfies ``answer[start:end] == text`` together with the call and evidence
behind it. The gate in PostgreSQL then checks each claim again; nothing here
is trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from footnote_pg.results import OperationResult, Value
from footnote_pg.router import Route

INTERPRETATION = "This is an interpretation — the underlying facts are:"


@dataclass
class Composed:
    """An answer: text, claims with spans, and the span of any inference in it."""

    answer: str
    claims: list[dict[str, Any]]
    inference: dict[str, int] | None = None
    facts: list[dict[str, int]] = field(default_factory=list)


class Text:
    """Answer text assembled from template words and returned figures."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.claims: list[dict[str, Any]] = []
        self.inference: dict[str, int] | None = None
        self.facts: list[dict[str, int]] = []

    def _append(self, s: str) -> None:
        self._parts.append(s)
        self._length += len(s)

    def add(self, words: str) -> Text:
        """Template words. A digit here would be a figure nobody returned: refuse it."""
        if any(ch.isdigit() for ch in words):
            raise ValueError(f"template text must not contain digits: {words!r}")
        self._append(words)
        return self

    def name(self, words: str) -> Text:
        """A name the user or an error supplied (not a figure); digits in it stay uncited."""
        self._append(words)
        return self

    def fig(self, result: OperationResult, path: str) -> Text:
        """Insert the formatted value at ``path`` of ``result`` and record its claim."""
        v = value(result, path)
        if v.text is None:
            raise ValueError(f"{result.operation} returned no text for {path}")
        start = self._length
        self._append(v.text)
        self.claims.append({"text": v.text, "span": {"start": start, "end": self._length},
                            "call_id": result.call_id, "evidence": list(v.evidence), "origin": "structured",
                            "kind": v.kind})
        return self

    def line(self) -> Text:
        self._append("\n")
        return self

    @contextmanager
    def infer(self) -> Iterator[Text]:
        """Mark what is added inside the block as inference (a conclusion by rule, not a figure)."""
        start = self._length
        yield self
        self.inference = {"start": start, "end": self._length}

    @contextmanager
    def fact(self) -> Iterator[Text]:
        """One cited fact on its own line: what is added inside the block."""
        self.line().add("- ")
        start = self._length
        yield self
        self.facts.append({"start": start, "end": self._length})

    def done(self) -> Composed:
        return Composed("".join(self._parts), self.claims, self.inference, self.facts)


def value(result: OperationResult, path: str) -> Value:
    """A value by path: ``overdue_total`` or ``rows[1].outstanding`` (rows counted from 1)."""
    if path.startswith("rows["):
        index, name = path[5:].split("].", 1)
        return result.rows[int(index) - 1][name]
    return result.values[path]


def raw(result: OperationResult, path: str) -> str:
    return value(result, path).raw or ""


def number(result: OperationResult, path: str) -> float:
    try:
        return float(raw(result, path) or 0)
    except ValueError:
        return 0.0


def _period(t: Text, result: OperationResult, path: str, note: str | None) -> None:
    t.fig(result, path)
    if note and not any(ch.isdigit() for ch in note):  # "last quarter": how the user said it
        t.add(f" ({note})")


# -- templates, one per intent ---------------------------------------------------------------------------------

def overdue(t: Text, r: OperationResult, route: Route) -> None:
    if r.empty_reason:
        t.fig(r, "customer").add(" has nothing overdue as of ").fig(r, "as_of").add(".")
        return
    t.fig(r, "customer").add(" owes ").fig(r, "overdue_total").add(" overdue across ").fig(r, "invoice_count")
    t.add(" invoices" if raw(r, "invoice_count") != "1" else " invoice")
    t.add(", the oldest ").fig(r, "oldest_days_past_due").add(" past due (as of ").fig(r, "as_of").add(").")
    for i in range(1, min(len(r.rows), 10) + 1):
        with t.fact():
            (t.fig(r, f"rows[{i}].number").add(": ").fig(r, f"rows[{i}].outstanding")
             .add(" due ").fig(r, f"rows[{i}].due_date").add(", ").fig(r, f"rows[{i}].days_past_due")
             .add(" past due"))


def risk(t: Text, r: OperationResult, route: Route) -> None:
    oldest = number(r, "oldest_days_past_due") if "oldest_days_past_due" in r.values else 0.0
    overdue_total = number(r, "overdue_total")
    high = number(r, "high_severity_ticket_count")
    if oldest > 90 or (overdue_total > 0 and high > 0 and oldest > 30):
        level = "is at high risk of not paying on time"
    elif overdue_total > 0 or high > 0:
        level = "shows some risk of paying late"
    else:
        level = "shows no sign of payment risk in these facts"
    with t.infer():
        t.fig(r, "customer").add(f" {level}.")
    t.line().add(INTERPRETATION)
    if overdue_total > 0:
        with t.fact():
            (t.fig(r, "overdue_total").add(" is overdue across ").fig(r, "overdue_invoice_count")
             .add(" invoices, the oldest ").fig(r, "oldest_days_past_due").add(" past due (as of ")
             .fig(r, "as_of").add(")."))
    else:
        with t.fact():
            t.add("Nothing is overdue (as of ").fig(r, "as_of").add(").")
    with t.fact():
        (t.fig(r, "open_ticket_count").add(" support tickets are open, ")
         .fig(r, "high_severity_ticket_count").add(" of them high severity."))
    with t.fact():
        (t.add("The agreed payment terms are ").fig(r, "payment_terms")
         .add(" and the account owner is ").fig(r, "account_owner").add("."))


def tickets(t: Text, r: OperationResult, route: Route) -> None:
    if r.empty_reason:
        t.fig(r, "customer").add(" has no open support tickets as of ").fig(r, "as_of").add(".")
        return
    t.fig(r, "customer").add(" has ").fig(r, "open_count").add(" open support tickets, ")
    t.fig(r, "high_severity_count").add(" of them high severity (as of ").fig(r, "as_of").add("):")
    for i in range(1, len(r.rows) + 1):
        with t.fact():
            (t.fig(r, f"rows[{i}].subject").add(" (").fig(r, f"rows[{i}].severity")
             .add(", open for ").fig(r, f"rows[{i}].age").add(")"))


def aging(t: Text, r: OperationResult, route: Route) -> None:
    t.add("Accounts receivable")
    if "customer" in r.values:
        t.add(" of ").fig(r, "customer")
    t.add(" as of ").fig(r, "as_of").add(": ").fig(r, "total_outstanding").add(" open across ")
    t.fig(r, "invoice_count").add(" invoices.")
    for i in range(1, len(r.rows) + 1):
        with t.fact():
            (t.fig(r, f"rows[{i}].bucket").add(": ").fig(r, f"rows[{i}].outstanding")
             .add(" (").fig(r, f"rows[{i}].invoice_count").add(" invoices)"))


def dso(t: Text, r: OperationResult, route: Route) -> None:
    if "dso" not in r.values:
        t.add("Days sales outstanding cannot be computed as of ").fig(r, "as_of")
        t.add(": nothing was invoiced in the ").fig(r, "window").add(" before it.")
        return
    t.add("Days sales outstanding as of ").fig(r, "as_of").add(" were ").fig(r, "dso").add(": receivables of ")
    t.fig(r, "receivables").add(" against gross sales of ").fig(r, "gross_sales").add(" in the ")
    t.fig(r, "window").add(" ending that day.")


def revenue(t: Text, r: OperationResult, route: Route) -> None:
    note = route.notes.get("period")
    if r.empty_reason:
        t.add("There was no revenue in ")
        _period(t, r, "period", note)
        t.add(": no invoices or credit notes were issued.")
        return
    t.add("Revenue")
    if "customer" in r.values:
        t.add(" from ").fig(r, "customer")
    t.add(" in ")
    _period(t, r, "period", note)
    t.add(" was ").fig(r, "revenue").add(" (").fig(r, "invoice_count").add(" invoices, ")
    t.fig(r, "credit_note_count").add(" credit notes).")


def _change_sentence(t: Text, r: OperationResult, route: Route) -> None:
    direction = raw(r, "direction")
    subject = "Revenue"
    t.add(subject)
    if "customer" in r.values:
        t.add(" from ").fig(r, "customer")
    if direction == "unchanged":
        t.add(" was unchanged at ").fig(r, "revenue_to").add(" in ").fig(r, "period_from").add(" and ")
        t.fig(r, "period_to").add(".")
        return
    t.add(" rose" if direction == "up" else " fell").add(" from ").fig(r, "revenue_from").add(" in ")
    t.fig(r, "period_from").add(" to ").fig(r, "revenue_to").add(" in ").fig(r, "period_to").add(", by ")
    t.fig(r, "change")
    if "change_percent" in r.values:
        t.add(" (").fig(r, "change_percent").add(")")
    t.add(".")


def revenue_change(t: Text, r: OperationResult, route: Route) -> None:
    _change_sentence(t, r, route)
    note = route.notes.get("period")
    if note and not any(ch.isdigit() for ch in note):
        t.add(f" ({note})")


def revenue_why(t: Text, change: OperationResult, drivers: OperationResult, route: Route) -> None:
    _change_sentence(t, change, route)
    if not drivers.rows or raw(change, "direction") == "unchanged":
        return
    t.line()
    with t.infer():
        (t.add("The largest part of the change came from ")
         .fig(drivers, "rows[1].customer").add("."))
    t.line().add(INTERPRETATION)
    for i in range(1, len(drivers.rows) + 1):
        word = {"up": "up", "down": "down"}.get(raw(drivers, f"rows[{i}].direction"), "unchanged")
        with t.fact():
            (t.fig(drivers, f"rows[{i}].customer").add(": ")
             .fig(drivers, f"rows[{i}].revenue_from").add(" in ").fig(drivers, "period_from").add(", ")
             .fig(drivers, f"rows[{i}].revenue_to").add(" in ").fig(drivers, "period_to")
             .add(f" ({word} ").fig(drivers, f"rows[{i}].change").add(")"))


def top_customers(t: Text, r: OperationResult, route: Route) -> None:
    if not r.rows:
        t.add("No customer had revenue in ").fig(r, "period").add(".")
        return
    t.add("Top ").fig(r, "listed").add(" customers by revenue in ")
    _period(t, r, "period", route.notes.get("period"))
    t.add(":")
    for i in range(1, len(r.rows) + 1):
        t.line().fig(r, f"rows[{i}].rank").add(". ").fig(r, f"rows[{i}].customer").add(": ")
        t.fig(r, f"rows[{i}].revenue")


def compare_overdue(t: Text, results: list[OperationResult], route: Route) -> None:
    for n, r in enumerate(results):
        if n:
            t.line()
        if r.empty_reason:
            t.fig(r, "customer").add(" has nothing overdue")
        else:
            t.fig(r, "customer").add(" owes ").fig(r, "overdue_total").add(" overdue across ")
            t.fig(r, "invoice_count").add(" invoices, the oldest ").fig(r, "oldest_days_past_due").add(" past due")
        t.add(" (as of ").fig(r, "as_of").add(").")


def compare_revenue(t: Text, results: list[OperationResult], route: Route) -> None:
    for n, r in enumerate(results):
        if n:
            t.line()
        t.add("Revenue")
        if "customer" in r.values:
            t.add(" from ").fig(r, "customer")
        t.add(" in ").fig(r, "period").add(" was ").fig(r, "revenue").add(".")


def invoice(t: Text, r: OperationResult, route: Route) -> None:
    t.fig(r, "number").add(" (").fig(r, "customer").add("), issued ").fig(r, "issue_date").add(" and due ")
    t.fig(r, "due_date").add(", is ").fig(r, "gross").add(" gross.")
    if "outstanding" not in r.values:
        t.add(" It was not yet issued as of ").fig(r, "as_of").add(".")
        return
    t.add(" Paid ").fig(r, "paid").add(", credited ").fig(r, "credited").add(", outstanding ")
    t.fig(r, "outstanding")
    if "days_past_due" in r.values:
        t.add(", ").fig(r, "days_past_due").add(" past due")
    t.add(" (as of ").fig(r, "as_of").add(").")
    for i in range(1, len(r.rows) + 1):
        with t.fact():
            (t.fig(r, f"rows[{i}].type").add(" of ").fig(r, f"rows[{i}].amount")
             .add(" on ").fig(r, f"rows[{i}].date"))


def open_pos(t: Text, r: OperationResult, route: Route) -> None:
    def scope() -> None:
        if "supplier" in r.values:
            t.add(" from ").fig(r, "supplier")

    if r.empty_reason:
        t.add("There are no open purchase orders")
        scope()
        t.add(".")
        return
    t.add("There are ").fig(r, "open_count").add(" open purchase orders")
    scope()
    t.add(" worth ").fig(r, "open_total").add(" net.")
    for i in range(1, min(len(r.rows), 10) + 1):
        with t.fact():
            (t.fig(r, f"rows[{i}].number").add(" (").fig(r, f"rows[{i}].supplier").add("): ")
             .fig(r, f"rows[{i}].net").add(", expected ").fig(r, f"rows[{i}].expected_on")
             .add(", ").fig(r, f"rows[{i}].status"))


def stock(t: Text, r: OperationResult, route: Route) -> None:
    if r.empty_reason:
        t.add("There is no stock record of ").fig(r, "item").add(" (").fig(r, "sku").add(").")
        return
    t.add("Stock of ").fig(r, "item").add(" (").fig(r, "sku").add("): ").fig(r, "quantity").add(" ")
    t.fig(r, "unit").add(" across ").fig(r, "warehouse_count").add(" warehouses; the reorder level is ")
    t.fig(r, "reorder_level")
    t.add(", so it is below it." if raw(r, "below_reorder_level") == "yes" else ".")
    for i in range(1, len(r.rows) + 1):
        with t.fact():
            t.fig(r, f"rows[{i}].warehouse").add(": ").fig(r, f"rows[{i}].quantity")


def supplier_payment(t: Text, r: OperationResult, route: Route) -> None:
    pending = "pending_account_ending" in r.values
    unverified = pending and r.values["pending_account_ending"].extra.get("verified") is False
    if unverified:
        with t.infer():
            (t.add("Hold any payment to the new account and call ").fig(r, "supplier")
             .add(" back on the phone number on file before changing bank details."))
    elif pending:
        with t.infer():
            (t.add("A bank-detail change for ").fig(r, "supplier")
             .add(" is pending; pay only to an account that has been verified."))
    else:
        with t.infer():
            (t.add("Nothing in these records argues against paying ").fig(r, "supplier")
             .add(" to the account on file."))
    t.line().add(INTERPRETATION)
    if "first_payment_on" in r.values:
        with t.fact():
            (t.fig(r, "payment_count").add(" payments since ").fig(r, "first_payment_on")
             .add(", the last on ").fig(r, "last_payment_on").add(".")
             if "paid_account_ending" not in r.values else
             t.fig(r, "payment_count").add(" payments since ").fig(r, "first_payment_on")
             .add(", all to the account ending ").fig(r, "paid_account_ending").add(" (verified)."))
    if pending:
        with t.fact():
            (t.add("A request by ").fig(r, "pending_channel").add(" on ").fig(r, "pending_requested_on")
             .add(" asks to pay a new account ending ").fig(r, "pending_account_ending")
             .add("; it is not verified." if unverified else "."))
        if "pending_domain_age" in r.values:
            with t.fact():
                (t.add("The sender's domain was registered ").fig(r, "pending_domain_age")
                 .add(" before the request."))
    with t.fact():
        (t.add("The phone number on file has not changed since ").fig(r, "phone_unchanged_since")
         .add("."))


def list_customers(t: Text, r: OperationResult, route: Route) -> None:
    if r.empty_reason:
        t.add("No customer matches.")
        return
    t.fig(r, "matching").add(" customers match; ").fig(r, "listed").add(" listed:")
    for i in range(1, min(len(r.rows), 30) + 1):
        with t.fact():
            t.fig(r, f"rows[{i}].name").add(" (").fig(r, f"rows[{i}].customer_number").add(")")


SINGLE: dict[str, Callable[[Text, OperationResult, Route], None]] = {
    "overdue": overdue, "risk": risk, "tickets": tickets, "aging": aging, "dso": dso, "revenue": revenue,
    "revenue_change": revenue_change, "top_customers": top_customers, "invoice": invoice, "open_pos": open_pos,
    "stock": stock, "supplier_payment": supplier_payment, "list_customers": list_customers,
}
MULTI: dict[str, Callable[[Text, list[OperationResult], Route], None]] = {
    "compare_overdue": compare_overdue, "compare_revenue": compare_revenue,
}


def compose(route: Route, results: list[OperationResult]) -> Composed:
    """The answer for a route whose calls all returned."""
    t = Text()
    if route.notes.get("assumed_customer") or route.notes.get("assumed_supplier"):
        assumed = route.notes.get("assumed_customer") or route.notes.get("assumed_supplier") or ""
        t.add("(Reading “").name(route.notes.get("typed", "")).add("” as ").name(assumed).add(".)").line()
    if route.intent in SINGLE:
        SINGLE[route.intent](t, results[0], route)
    elif route.intent in MULTI:
        MULTI[route.intent](t, results, route)
    elif route.intent == "revenue_why":
        revenue_why(t, results[0], results[1], route)
    else:
        raise ValueError(f"no template for intent {route.intent!r}")
    return t.done()


def plain(message: str, options: tuple[str, ...] = ()) -> Composed:
    """A clarification or refusal: a sentence and, for a clarification, its options one per line."""
    t = Text()
    t.name(message)
    for option in options:
        t.line().add("- ").name(option)
    return t.done()

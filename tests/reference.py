"""Independent computations over the sample ERP, in Python, for checking catalog results.

Reads the erp tables directly (never the source views or footnote functions)
and computes what each operation should return.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import psycopg

AS_OF = dt.date(2026, 8, 14)


def de_amount(value: Decimal) -> str:
    q = abs(value).quantize(Decimal("0.01"))
    whole, frac = f"{q:f}".split(".")
    grouped = f"{int(whole):,}".replace(",", ".")
    return f"{'-' if value < 0 else ''}{grouped},{frac} €"


def de_count(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def de_date(value: dt.date) -> str:
    return value.strftime("%d.%m.%Y")


def fold(name: str) -> str:
    """Accent-folded lower case, punctuation as spaces (as people match names)."""
    special = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
               "đ": "d", "Đ": "D"}
    out = "".join(special.get(c, c) for c in name)
    out = "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c)).lower()
    return " ".join("".join(c if c.isalnum() and c.isascii() else " " for c in out).split())


@dataclass
class Invoice:
    id: int
    number: str
    customer_id: int
    issue_date: dt.date
    due_date: dt.date
    net: Decimal
    gross: Decimal


class Erp:
    """The sample ERP read into memory."""

    def __init__(self, url: str) -> None:
        with psycopg.connect(url) as conn:
            self.customers = {r[0]: r for r in conn.execute(
                "SELECT c.id, c.name, c.payment_terms_days, e.name FROM erp.customers c "
                "JOIN erp.employees e ON e.id = c.account_owner_id").fetchall()}
            self.invoices = {r[0]: Invoice(*r) for r in conn.execute(
                "SELECT id, number, customer_id, issue_date, due_date, net, gross FROM erp.invoices").fetchall()}
            self.payments = conn.execute(
                "SELECT id, invoice_id, paid_on, amount FROM erp.payments WHERE invoice_id IS NOT NULL").fetchall()
            self.credit_notes = conn.execute(
                "SELECT id, invoice_id, customer_id, issue_date, net, gross, applied_on FROM erp.credit_notes"
            ).fetchall()
            self.schedule: dict[int, list[tuple[dt.date, Decimal]]] = defaultdict(list)
            for invoice_id, due_date, amount in conn.execute(
                    "SELECT invoice_id, due_date, amount FROM erp.invoice_instalments ORDER BY invoice_id, instalment"):
                self.schedule[invoice_id].append((due_date, amount))
            self.on_account = conn.execute(
                "SELECT id, customer_id, paid_on, amount FROM erp.payments WHERE invoice_id IS NULL").fetchall()
            self.tickets = conn.execute(
                "SELECT id, customer_id, severity, opened_on, closed_on FROM erp.tickets").fetchall()
            self.purchase_orders = conn.execute(
                "SELECT id, supplier_id, status, net FROM erp.purchase_orders").fetchall()
            self.stock = conn.execute("SELECT id, item_id, quantity FROM erp.stock").fetchall()
            items = conn.execute("SELECT id, sku, name, reorder_level FROM erp.items").fetchall()
            self.items = {r[0]: r for r in items}

    def outstanding(self, as_of: dt.date = AS_OF) -> dict[int, Decimal]:
        """Outstanding balance per invoice issued on or before as_of."""
        paid: dict[int, Decimal] = defaultdict(Decimal)
        for _id, invoice_id, paid_on, amount in self.payments:
            if paid_on <= as_of:
                paid[invoice_id] += amount
        for _id, invoice_id, _c, _issue_date, _net, gross, applied_on in self.credit_notes:
            if applied_on is not None and applied_on <= as_of:  # an open credit note credits the account
                paid[invoice_id] += gross
        return {i.id: i.gross - paid[i.id] for i in self.invoices.values() if i.issue_date <= as_of}

    def open_lines(self, invoice_id: int, outstanding: Decimal) -> list[tuple[dt.date, Decimal]]:
        """The open part of each due line of an invoice (due date, amount): what is settled settles the earliest
        lines first."""
        invoice = self.invoices[invoice_id]
        lines = self.schedule.get(invoice_id) or [(invoice.due_date, invoice.gross)]
        settled = invoice.gross - outstanding
        out = []
        for due, line_amount in lines:
            part = min(line_amount, max(settled, Decimal(0)))
            settled -= part
            if line_amount - part > 0:
                out.append((due, line_amount - part))
        return out

    def overdue(self, customer_id: int, as_of: dt.date = AS_OF) -> list[tuple[Invoice, Decimal]]:
        """Invoices with due lines past due, with their overdue part, by the due date of their earliest open line."""
        rows = []
        for i, b in self.outstanding(as_of).items():
            if b > 0 and self.invoices[i].customer_id == customer_id:
                lines = self.open_lines(i, b)
                late = sum((a for due, a in lines if due < as_of), Decimal(0))
                if late > 0:
                    rows.append((self.invoices[i], late, lines[0][0]))
        return [(inv, late) for inv, late, _ in sorted(rows, key=lambda r: (r[2], r[0].id))]

    def overdue_by_customer(self, as_of: dt.date = AS_OF) -> dict[int, list[tuple[int, Decimal]]]:
        """Per customer, each invoice with something overdue: (days past due of its earliest open line, the
        overdue part)."""
        out: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
        for i, b in self.outstanding(as_of).items():
            if b > 0:
                lines = self.open_lines(i, b)
                late = sum((a for due, a in lines if due < as_of), Decimal(0))
                if late > 0:
                    out[self.invoices[i].customer_id].append(((as_of - lines[0][0]).days, late))
        return out

    def credits(self, customer_id: int | None = None, as_of: dt.date = AS_OF) -> Decimal:
        """Payments on account and credit notes not applied yet, as of a day."""
        total = sum((a for _id, c, paid_on, a in self.on_account
                     if paid_on <= as_of and customer_id in (None, c)), Decimal(0))
        return total + sum((gross for _id, _i, c, issued, _n, gross, applied_on in self.credit_notes
                            if issued <= as_of and (applied_on is None or applied_on > as_of)
                            and customer_id in (None, c)), Decimal(0))

    def open_tickets(self, customer_id: int, as_of: dt.date = AS_OF) -> list[tuple[Any, ...]]:
        return [t for t in self.tickets
                if t[1] == customer_id and t[3] <= as_of and (t[4] is None or t[4] > as_of)]

    def revenue(self, starts: dt.date, ends: dt.date, customer_id: int | None = None) -> Decimal:
        total = sum((i.net for i in self.invoices.values()
                     if starts <= i.issue_date < ends and customer_id in (None, i.customer_id)), Decimal(0))
        credits = sum((c[4] for c in self.credit_notes
                       if starts <= c[3] < ends and customer_id in (None, c[2])), Decimal(0))
        return total - credits

    def aging(self, as_of: dt.date = AS_OF) -> dict[str, tuple[Decimal, int]]:
        buckets: dict[str, list[Decimal]] = {k: [] for k in ("current", "1-30", "31-60", "61-90", "over_90")}
        invoices: dict[str, set[int]] = {k: set() for k in buckets}
        for invoice_id, balance in self.outstanding(as_of).items():
            if balance <= 0:
                continue
            for due, open_amount in self.open_lines(invoice_id, balance):
                days = (as_of - due).days
                key = ("current" if days <= 0 else "1-30" if days <= 30 else "31-60" if days <= 60
                       else "61-90" if days <= 90 else "over_90")
                buckets[key].append(open_amount)
                invoices[key].add(invoice_id)
        return {k: (sum(v, Decimal(0)), len(invoices[k])) for k, v in buckets.items()}

    def aging_lines(self, as_of: dt.date = AS_OF) -> dict[str, int]:
        """Open due lines per aging bucket: an invoice in instalments has one per part, each aged by its own due date."""
        lines = {k: 0 for k in ("current", "1-30", "31-60", "61-90", "over_90")}
        for invoice_id, balance in self.outstanding(as_of).items():
            for due, _open in (self.open_lines(invoice_id, balance) if balance > 0 else []):
                days = (as_of - due).days
                lines["current" if days <= 0 else "1-30" if days <= 30 else "31-60" if days <= 60
                      else "61-90" if days <= 90 else "over_90"] += 1
        return lines

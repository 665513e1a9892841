"""What passes between the steps of the question path: settings, a catalog call, a route."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RouterSettings:
    as_of: dt.date
    fiscal_year_start_month: int = 1


@dataclass(frozen=True)
class Call:
    operation: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Route:
    kind: str
    intent: str
    calls: tuple[Call, ...] = ()
    options: tuple[str, ...] = ()
    reason: str | None = None
    message: str | None = None
    notes: dict[str, str] = field(default_factory=dict)


INTENT_KIND = {
    "overdue": "figure", "risk": "interpretation", "tickets": "list", "aging": "list",
    "dso": "figure", "revenue": "figure", "revenue_change": "change",
    "revenue_why": "interpretation", "top_customers": "list", "compare_overdue": "comparison",
    "compare_revenue": "comparison", "invoice": "lookup", "open_pos": "list", "stock": "figure",
    "supplier_payment": "decision", "list_customers": "list", "payments": "figure", "profile": "lookup",
    "ranking": "list", "revenue_monthly": "list", "credit_notes": "list", "below_reorder": "list",
    "purchase_order": "lookup", "revenue_drivers": "list", "compare_dso": "comparison", "combined": "comparison",
    "compare_top": "comparison",
    "list_suppliers": "list", "list_items": "list", "payables": "list",
}

_REFUSAL_MESSAGES = {
    "forecast": "I only report figures that are already recorded and do not forecast future ones.",
    "advice": "I can show the recorded facts behind a decision, but I do not give advice on it.",
    "currency_conversion": "I report amounts in the company's own currency, as the ERP books them, and do not "
                           "convert them into another currency.",
    "instruction": "I only answer questions about the recorded data and do not follow "
                   "instructions to change how I work.",
    "database_command": "I only read recorded data and never run commands that change it.",
    "not_covered": "None of the available operations answers this question.",
}
_KIND_NOUN = {"customer": ("customer", "customers"), "supplier": ("supplier", "suppliers"),
              "item": ("item", "items")}



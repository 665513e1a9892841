"""The rule table: which intent a question is, refusals first."""

from __future__ import annotations

from footnote_pg.question.lexicon import (
    _ADVICE,
    _AGING,
    _ALL_ITEMS,
    _BALANCE,
    _BALANCE_CLEAR,
    _BANK_CHANGE,
    _CASH_METRIC,
    _COMMAND,
    _CURRENCY,
    _DATABASE,
    _DSO,
    _FORECAST,
    _HOW_MANY_HAVE,
    _INSTRUCTION,
    _LIST,
    _LIST_SCOPE,
    _NOT_COVERED,
    _OVERDUE,
    _PAY,
    _PO,
    _PO_CONTEXT,
    _REVENUE,
    _RISK,
    _SHOULD_FINE,
    _SHOULD_PAY,
    _STOCK,
    _STRONG_METRIC,
    _TICKETS,
    _TOP,
    _WEAK_METRIC,
)
from footnote_pg.question.names import Directory
from footnote_pg.question.plan import (
    _balance_route,
    _clarify,
    _dso_route,
    _invoice_route,
    _list_route,
    _metric_options,
    _one_customer,
    _refuse,
    _revenue_route,
    _stock_route,
    _supplier_route,
    _top_route,
)
from footnote_pg.question.reading import _Question
from footnote_pg.question.types import Route


def _security(q: _Question) -> Route | None:
    if _INSTRUCTION.search(q.low):
        return _refuse("instruction")
    if _DATABASE.search(q.low) or _COMMAND.search(q.low):
        return _refuse("database_command")
    return None


def _pre_refusal(q: _Question) -> Route | None:
    if q.has(_CURRENCY):
        return _refuse("currency_conversion")
    po = q.has(_PO) or (q.has(_PO_CONTEXT) and not q.has(_REVENUE))
    if q.time.future or (q.has(_FORECAST) and not po):
        return _refuse("forecast")
    if _ADVICE.search(_SHOULD_FINE.sub(" ", q.masked)):
        return _refuse("advice")
    if q.has(_NOT_COVERED):
        return _refuse("not_covered")
    return None


def _decide(q: _Question, directory: Directory) -> Route:
    refusal = _security(q) or _pre_refusal(q)
    if refusal:
        return refusal
    if q.time.invalid_date:
        return _clarify("unclear_period", "That day does not exist or can be read two ways; "
                        "which day do you mean?")
    if q.invoice:
        return _invoice_route(q)
    if q.sku or (q.has(_STOCK) and not q.has(_TICKETS)):
        if not q.sku and q.has(_ALL_ITEMS):
            return _refuse("not_covered")
        stock = _stock_route(q, directory, require_match=False)
        if stock:
            return stock
    if q.has(_BANK_CHANGE) or q.has(_SHOULD_PAY) or (
            q.has(_PAY) and directory.supplier_index.find(q) and not q.has(_OVERDUE)):
        return _supplier_route(q, directory, "supplier_payment")
    if q.has(_PO):
        return _supplier_route(q, directory, "open_pos")
    if q.has(_DSO):
        return _dso_route(q)
    if q.has(_AGING):
        return _one_customer(q, directory, "aging", "ar_aging", required=False)
    if q.has(_TICKETS):
        return _one_customer(q, directory, "tickets", "open_tickets")
    if q.has(_RISK):
        return _one_customer(q, directory, "risk", "customer_risk")
    if q.has(_TOP):
        return _top_route(q)
    if q.has(_LIST) and not q.has(_OVERDUE) and not q.has(_REVENUE):
        if q.has(_LIST_SCOPE):
            return _refuse("not_covered")
        return _list_route(q)
    if q.has(_STRONG_METRIC) or (q.has(_WEAK_METRIC) and not q.has(_REVENUE)
                                 and not q.has(_OVERDUE)):
        return _clarify("ambiguous_metric", "That measure can mean several things; which of these "
                        "figures do you want?", _metric_options(q, directory, q.has(_CASH_METRIC)))
    if q.has(_REVENUE):
        return _revenue_route(q, directory)
    if q.has(_OVERDUE) or q.has(_BALANCE_CLEAR):
        return _one_customer(q, directory, "overdue", "customer_overdue")
    if q.has(_BALANCE):
        return _balance_route(q, directory)
    if q.has(_HOW_MANY_HAVE):
        stock = _stock_route(q, directory, require_match=True)
        if stock:
            return stock
    known = directory.customer_index.find(q)
    if known:                          # a customer and nothing else: offer what we can tell
        options = [question for name in known[0].candidates
                   for question in (f"How much does {name} owe?", f"Is {name} at risk?",
                                    f"Show open tickets for {name}")]
        return _clarify("ambiguous_metric", "What would you like to know about this customer?",
                        options)
    return _refuse("not_covered")



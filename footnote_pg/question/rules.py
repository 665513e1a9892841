"""The rule table: which intent a question is, as an ordered list of named rules, refusals first.

Each rule looks at the question read once (:class:`footnote_pg.question.reading._Question`) and either
returns a route or passes. The first rule that returns wins, and its name travels with the route
(``notes["rule"]``), so a misroute is one look away. Rules that refuse or ask back come before the
rules that answer; within the answering rules the more specific comes first ("average days to pay"
for one customer before days sales outstanding, a ranking across customers before one customer's
overdue).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from footnote_pg.question import breakdown, portfolio, words
from footnote_pg.question.text import fold
from footnote_pg.question.lexicon import (
    _ACTION,
    _SUPPLIER_DOC,
    _ADVICE,
    _AGING,
    _AGING_STRICT,
    _ALL_ITEMS,
    _ALL_OVERDUE,
    _BALANCE,
    _OVER_AGE,
    _BALANCE_CLEAR,
    _BANK_CHANGE,
    _BELOW_REORDER,
    _CASH_METRIC,
    _COMMAND,
    _CREDIT_NOTES,
    _CURRENCY,
    _DATABASE,
    _DEMONYM,
    _DRIVER_ASK,
    _DSO,
    _EXPECTED,
    _FORECAST,
    _FRAUD,
    _HOW_MANY_HAVE,
    _INSTRUCTION,
    _LIST,
    _LIST_FILTER,
    _LIST_ITEMS,
    _LIST_SCOPE,
    _LIST_SUPPLIERS,
    _MONTHLY,
    _NEGATIVE,
    _NOT_COVERED,
    _NOT_PAID,
    _OPEN_TOTAL,
    _OVERDUE,
    _OWNER,
    _PAY,
    _PAYABLES,
    _PAYMENTS,
    _PO,
    _PO_CONTEXT,
    _PO_NUMBER,
    _PROFILE,
    _RANK_OWE,
    _REVENUE,
    _RISK,
    _SHOULD_FINE,
    _SHOULD_PAY,
    _STOCK,
    _STOCK_VALUE,
    _STRONG_METRIC,
    _TAX,
    _TICKETS,
    _TOP,
    _WEAK_METRIC,
    _WHO_MOST,
    _ZERO_COUNT,
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
    _unclear_period,
)
from footnote_pg.question.reading import _Question
from footnote_pg.question.types import Call, Route

Rule = Callable[[_Question, Directory], Route | None]

_CUSTOMER_WORD = re.compile(r"\b(?:customer|client|kunde)\b")
_CUSTOMERS_WORD = re.compile(r"\b(?:customers|clients|accounts)\b")
_ACTION_MESSAGE = "I only read the recorded data; I do not send messages, contact anyone or change an account."
_FRAUD_MESSAGE = ("I have no operation that assesses whether a customer is a fraud risk; I can show a customer's risk "
                  "facts (what is overdue, open tickets) and, for a supplier, the checks on a bank detail change.")
_NEGATIVE_MESSAGE = ("A count, a limit or a number of days must be at least one; I do not read a negative number or "
                     "zero as another one. Please ask again with the number you mean.")
_STOCK_VALUE_MESSAGE = ("I have no operation that values stock; I can show the quantity on hand of an item and which "
                        "items are below their reorder level.")


def instruction(q: _Question, d: Directory) -> Route | None:
    return _refuse("instruction") if _INSTRUCTION.search(q.low) else None


def database_command(q: _Question, d: Directory) -> Route | None:
    return _refuse("database_command") if _DATABASE.search(q.low) or _COMMAND.search(q.low) else None


def currency_conversion(q: _Question, d: Directory) -> Route | None:
    return _refuse("currency_conversion") if q.has(_CURRENCY) else None


def forecast(q: _Question, d: Directory) -> Route | None:
    po = q.has(_PO) or (q.has(_PO_CONTEXT) and not q.has(_REVENUE)) or _PO_NUMBER.search(q.low) is not None
    if po and (_EXPECTED.search(q.masked) or (q.time.periods and q.time.future and not q.has(_FORECAST))) \
            and not q.has(_REVENUE):
        return None          # orders expected next month, open POs next week: recorded expected dates, not a forecast
    if q.has(_NOT_COVERED):
        return None          # "the weather tomorrow": not covered at all, whatever the day
    return _refuse("forecast") if q.time.future or (q.has(_FORECAST) and not po) else None


def advice(q: _Question, d: Directory) -> Route | None:
    return _refuse("advice") if _ADVICE.search(_SHOULD_FINE.sub(" ", q.masked)) else None


def action(q: _Question, d: Directory) -> Route | None:
    """"Send a reminder to X", "block the account": an action, not a question about the records."""
    return _refuse("not_covered", _ACTION_MESSAGE) if q.has(_ACTION) else None


def foreign_language(q: _Question, d: Directory) -> Route | None:
    """A question in a language the router does not read: refused, saying which it reads (never half-read)."""
    return _refuse("not_covered", words.foreign_message()) if words.foreign_language(q.text, d) else None


def negative_count(q: _Question, d: Directory) -> Route | None:
    """"top -5", "DSO over -5 days", "top 0": a count, limit or number of days below one is never read as another."""
    if q.has(_NEGATIVE) or q.has(_ZERO_COUNT):
        return _refuse("not_covered", _NEGATIVE_MESSAGE)
    return None


def not_computed(q: _Question, d: Directory) -> Route | None:
    """What people ask that no operation computes (revenue by country, tickets opened in a period, a ranking of
    suppliers, ...): refused, saying what the catalog gives instead (words.toml)."""
    if q.invoice and q.invoice.upper().startswith("CN"):
        return None  # a credit note's number: looked up as an invoice, which says it is a credit note and offers its list
    if not words.may_be_not_computed(q.masked):
        return None
    customer = bool(q.customer_ref) or bool(d.customer_index.find(q))
    message = words.not_computed(q.masked, customer, bool(d.supplier_index.find(q)))
    return _refuse("not_covered", message) if message else None


def not_covered(q: _Question, d: Directory) -> Route | None:
    m = _NOT_COVERED.search(_TAX.sub(" ", q.masked) if q.invoice else q.masked)   # the tax on one invoice is shown
    if m and not (m.group(0).startswith("spen") and q.has(_REVENUE) and d.customer_index.find(q)):
        return _refuse("not_covered")           # not "how much did Vidal spend": a customer's spend is revenue
    if q.has(_STOCK_VALUE):
        return _refuse("not_covered", _STOCK_VALUE_MESSAGE)
    return None


def payables(q: _Question, d: Directory) -> Route | None:
    """What we owe suppliers ("AP aging", "what do we owe Northwind"); not "should we pay X" (a payment decision)."""
    if q.has(_PAYABLES) and not q.has(_SHOULD_PAY) and not q.has(_BANK_CHANGE):
        return portfolio.payables_route(q, d)
    return None


def supplier_invoice(q: _Question, d: Directory) -> Route | None:
    """A supplier's invoice by its number ("supplier invoice 26-0882 Nordisk Kullager paid?", "Northwind NW-26-0688 due
    when?"): what we owe that supplier, invoice by invoice (an invoice no longer listed is paid)."""
    if q.invoice or q.customer_ref or not q.has(_SUPPLIER_DOC):
        return None
    if not d.supplier_index.find(q) or d.customer_index.find(q):
        return None
    return portfolio.payables_route(q, d)


def invalid_day(q: _Question, d: Directory) -> Route | None:
    if q.time.invalid_date:
        return _clarify("unclear_period", "That day does not exist or can be read two ways; which day do you mean?")
    return None


def invalid_period(q: _Question, d: Directory) -> Route | None:
    """A period that does not exist (Q5) or lies outside the records (1066): ask, never use another one."""
    if q.time.invalid_period:
        r = _unclear_period(q)
        return Route(kind=r.kind, intent=r.intent, reason=r.reason, options=r.options,
                     message="There is no such period in the records; which period do you mean?")
    return None


_DANGLING_END = re.compile(r"\b(?:(?:as\s+(?:of|at)|at|by|on)\s+(?:the\s+)?end(?:\s+of)?|end\s+of(?:\s+the)?)"
                           r"\s*[?.!]*$")


def dangling_end(q: _Question, d: Directory) -> Route | None:
    """ "aging as of the end": the end of what is not said; asked, never read as today."""
    if _DANGLING_END.search(q.masked.rstrip()):
        return _clarify("unclear_period", "The end of which month, quarter or year do you mean?")
    return None


def invoice(q: _Question, d: Directory) -> Route | None:
    return _invoice_route(q) if q.invoice else None


def purchase_order(q: _Question, d: Directory) -> Route | None:
    return portfolio.purchase_order_route(q)


def below_reorder(q: _Question, d: Directory) -> Route | None:
    if q.has(_BELOW_REORDER) and not q.sku and _stock_route(q, d, require_match=True) is None:
        return portfolio.below_reorder_route()
    return None


def stock(q: _Question, d: Directory) -> Route | None:
    if q.sku or (q.has(_STOCK) and not q.has(_TICKETS)):
        if not q.sku and q.has(_ALL_ITEMS):
            return _refuse("not_covered")
        return _stock_route(q, d, require_match=False)
    return None


_PAYMENTS_TO = re.compile(r"\bpayments?\s+(?:(?:that\s+)?we\s+(?:have\s+)?(?:made|sent)\s+)?to\b")


def supplier_payment(q: _Question, d: Directory) -> Route | None:
    if q.has(_FRAUD) and not d.supplier_index.find(q) and d.customer_index.find(q):
        return _refuse("not_covered", _FRAUD_MESSAGE)          # "is customer X a fraud risk"
    paying = q.has(_PAY)
    suppliers = d.supplier_index.find(q) if paying or q.has(_PAYMENTS_TO) else []
    if q.has(_PAYMENTS_TO) and not q.has(_BANK_CHANGE) and not q.has(_SHOULD_PAY) and len(q.time.periods) == 1 \
            and not q.time.dates and len(suppliers) == 1 and len(suppliers[0].candidates) == 1 \
            and not d.customer_index.find(q):
        p = q.time.periods[0]         # "payments we made to Lagerwall in 2025": the payments to it in that period
        call = Call("breakdown", {"measure": "supplier_payments", "period": p.period.catalog(),
                                  "supplier": suppliers[0].candidates[0]})
        return Route(kind="figure", intent="breakdown", calls=(call,), notes={"period": p.phrase})
    if q.has(_BANK_CHANGE) or q.has(_SHOULD_PAY) or (
            paying and suppliers and not d.customer_index.find(q)):
        return _supplier_route(q, d, "supplier_payment")
    return None


_ONE_PO = re.compile(r"^\W*(?:(?:the|that|this|my|our)\s+)?(?:po|purchase\s+order)\s+status\W*$"
                     r"|\bstatus\s+of\s+(?:the|that|this|my|our)\s+(?:po|purchase\s+order)\b(?!s)")


def purchase_orders(q: _Question, d: Directory) -> Route | None:
    if q.has(_PO) and _ONE_PO.search(q.masked) and not d.supplier_index.find(q):
        return _clarify("missing_entity", "Which purchase order do you mean? Please name its number.")   # "PO status?"
    return _supplier_route(q, d, "open_pos") if q.has(_PO) else None


def payments(q: _Question, d: Directory) -> Route | None:
    """What a customer paid, when, how fast: before DSO ("average days to pay") and before overdue ("has X paid
    anything"). "DSO for X": no operation computes it for one customer; said so, with X's days to pay first."""
    if q.has(_DSO) and not q.has(_PAYMENTS) and (q.customer_ref or d.customer_index.find(q)):
        return portfolio.customer_dso_route(q, d)
    if q.has(_PAYMENTS) and not q.has(_NOT_PAID) and (q.customer_ref or d.customer_index.find(q)):
        return portfolio.payments_route(q, d)
    return None


def dso(q: _Question, d: Directory) -> Route | None:
    return _dso_route(q) if q.has(_DSO) else None


def all_overdue(q: _Question, d: Directory) -> Route | None:
    """One total across all customers ("total overdue", "how much is past due in total"): the aging states it."""
    if q.has(_ALL_OVERDUE) and not q.has(_WHO_MOST) and not d.customer_index.find(q) and not q.customer_ref:
        return portfolio.all_overdue_route(q)
    return None


def ranking(q: _Question, d: Directory) -> Route | None:
    return portfolio.ranking_route(q) if q.has(_RANK_OWE) else None


def aging(q: _Question, d: Directory) -> Route | None:
    """The aging, of all customers or one; "AR overdue for X" is what X owes overdue, not X's aging."""
    if not q.has(_AGING):
        return None
    if q.has(_OVERDUE) and not q.has(_AGING_STRICT) and (q.customer_ref or d.customer_index.find(q)):
        return None
    return _one_customer(q, d, "aging", "ar_aging", required=False)


_OPEN_WORD = re.compile(r"\b(?:open|still|unresolved|pending|active|currently|now)\b")


def tickets(q: _Question, d: Directory) -> Route | None:
    if not q.has(_TICKETS):
        return None
    if q.time.periods and not q.time.dates and not _OPEN_WORD.search(q.masked):
        mentions = d.customer_index.find(q)      # "complaints Lombardi this year": the tickets opened in it
        if len(mentions) == 1 and len(mentions[0].candidates) == 1 and len(q.time.periods) == 1:
            p = q.time.periods[0]
            call = Call("breakdown", {"measure": "tickets_opened", "period": p.period.catalog(),
                                      "customer": mentions[0].candidates[0]})
            return Route(kind="figure", intent="breakdown", calls=(call,),
                         notes={"period": p.phrase, "measure": "tickets_opened"})
    return _one_customer(q, d, "tickets", "open_tickets")


def profile(q: _Question, d: Directory) -> Route | None:
    if q.has(_PROFILE) and not q.has(_RISK) and not q.has(_OVERDUE) and (q.customer_ref or d.customer_index.find(q)):
        return portfolio.profile_route(q, d)
    return None


def risk(q: _Question, d: Directory) -> Route | None:
    return _one_customer(q, d, "risk", "customer_risk") if q.has(_RISK) else None


def credit_notes(q: _Question, d: Directory) -> Route | None:
    return portfolio.credit_notes_route(q, d) if q.has(_CREDIT_NOTES) else None


def monthly(q: _Question, d: Directory) -> Route | None:
    return portfolio.monthly_route(q, d) if q.has(_MONTHLY) and q.has(_REVENUE) else None


def drivers(q: _Question, d: Directory) -> Route | None:
    return portfolio.drivers_route(q, d) if q.has(_DRIVER_ASK) else None


def top(q: _Question, d: Directory) -> Route | None:
    return _top_route(q) if q.has(_TOP) else None


def customers_of(q: _Question, d: Directory) -> Route | None:
    if q.has(_LIST) or q.has(_LIST_SCOPE) or q.has(_DEMONYM) or _OWNER.search(q.text):
        return portfolio.owner_or_country(q, d)
    if _CUSTOMERS_WORD.search(q.masked) and any(fold(o) in fold(q.text) for o in d.owners):
        return portfolio.owner_or_country(q, d)      # "Zoran Petrović customers", "customers of Ana Kovač"
    return None


def other_lists(q: _Question, d: Directory) -> Route | None:
    """"List suppliers", "which items do we have": the supplier and item lists (a filter they lack is refused by
    coverage)."""
    if q.has(_LIST_SUPPLIERS) and (not d.supplier_index.find(q) or _LIST_FILTER.search(q.text)):
        return portfolio.name_list_route(q, "list_suppliers")
    if q.has(_LIST_ITEMS) and not q.sku:
        return portfolio.name_list_route(q, "list_items")
    return None


def customer_list(q: _Question, d: Directory) -> Route | None:
    if q.has(_LIST) and q.customer_ref:
        return portfolio.profile_route(q, d)         # "show customer C-4471": that customer's record
    if q.has(_LIST) and not q.has(_OVERDUE) and not q.has(_REVENUE):
        return _refuse("not_covered") if q.has(_LIST_SCOPE) else _list_route(q)
    return None


def metric(q: _Question, d: Directory) -> Route | None:
    if q.has(_STRONG_METRIC) or (q.has(_WEAK_METRIC) and not q.has(_REVENUE) and not q.has(_OVERDUE)):
        return _clarify("ambiguous_metric", "That measure can mean several things; which of these figures do you want?",
                        _metric_options(q, d, q.has(_CASH_METRIC)))
    return None


_INVOICE_COUNT = re.compile(r"\bhow\s+many\s+(?:\w+\s+)?invoices\b|\bnumber\s+of\s+(?:\w+\s+)?invoices\b")


def revenue(q: _Question, d: Directory) -> Route | None:
    if q.has(_OVERDUE) and _INVOICE_COUNT.search(q.masked) and not q.has(_REVENUE_WORD):
        return None          # "how many invoices has X overdue": what X owes overdue, invoice by invoice
    return _revenue_route(q, d) if q.has(_REVENUE) else None


_REVENUE_WORD = re.compile(r"\b(?:revenues?|sales|turnover|invoiced|billed|sold)\b")


def overdue(q: _Question, d: Directory) -> Route | None:
    """What a customer owes overdue; all it owes ("open balance", "total outstanding, not just overdue"): its aging."""
    if q.has(_OVER_AGE) and (q.has(_OVERDUE) or q.has(_BALANCE)):
        if q.customer_ref or d.customer_index.find(q):
            return _one_customer(q, d, "aging", "ar_aging")  # "what X owes more than 90 days": the aging's buckets
        return portfolio.all_overdue_route(q)                # "what is more than 90 days overdue": across customers
    if q.has(_OPEN_TOTAL) and (q.has(_OVERDUE) or q.has(_BALANCE_CLEAR)) and (
            q.customer_ref or d.customer_index.find(q)):
        return _one_customer(q, d, "aging", "ar_aging")
    if q.has(_OVERDUE) and _INVOICE_COUNT.search(q.masked) and not q.customer_ref and not d.customer_index.find(q) \
            and not _UNNAMED.search(q.masked):
        return portfolio.all_overdue_route(q)      # "how many overdue invoices in total": across customers, the aging
    if (q.has(_OVERDUE) or q.has(_BALANCE_CLEAR)) and not q.customer_ref and not d.customer_index.find(q) \
            and any(m.known for m in d.supplier_index.find(q)):
        return portfolio.payables_route(q, d)      # "is anything past due for <a supplier>": what we owe it
    if q.has(_OVERDUE) or q.has(_BALANCE_CLEAR):
        return _one_customer(q, d, "overdue", "customer_overdue")
    return None


def balance(q: _Question, d: Directory) -> Route | None:
    return _balance_route(q, d) if q.has(_BALANCE) else None


def how_many_have(q: _Question, d: Directory) -> Route | None:
    return _stock_route(q, d, require_match=True) if q.has(_HOW_MANY_HAVE) else None


def about_a_customer(q: _Question, d: Directory) -> Route | None:
    if q.customer_ref and not d.customer_index.find(q) and (
            q.customer_ref.startswith("erp://") or _CUSTOMER_WORD.search(q.low)):
        return portfolio.profile_route(q, d)         # "customer C-4471", "erp://customer/4471": its record
    known = d.customer_index.find(q)
    if not known:
        return None
    options = [question for name in known[0].candidates
               for question in (f"How much does {name} owe?", f"Is {name} at risk?", f"Show open tickets for {name}")]
    return _clarify("ambiguous_metric", "What would you like to know about this customer?", options)


RULES: tuple[tuple[str, Rule], ...] = (
    ("instruction", instruction), ("database_command", database_command), ("foreign_language", foreign_language),
    ("currency_conversion", currency_conversion), ("forecast", forecast), ("advice", advice), ("action", action),
    ("negative_count", negative_count), ("breakdown", breakdown.route), ("not_computed", not_computed),
    ("not_covered", not_covered), ("invalid_day", invalid_day), ("invalid_period", invalid_period),
    ("dangling_end", dangling_end),
    ("payables", payables), ("supplier_invoice", supplier_invoice), ("invoice", invoice),
    ("purchase_order", purchase_order), ("below_reorder", below_reorder), ("stock", stock),
    ("supplier_payment", supplier_payment), ("purchase_orders", purchase_orders), ("payments", payments),
    ("dso", dso), ("all_overdue", all_overdue), ("drivers", drivers), ("ranking", ranking), ("aging", aging),
    ("tickets", tickets), ("profile", profile),
    ("risk", risk), ("credit_notes", credit_notes), ("monthly", monthly), ("top", top),
    ("customers_of", customers_of), ("other_lists", other_lists), ("customer_list", customer_list),
    ("metric", metric), ("revenue", revenue),
    ("overdue", overdue), ("balance", balance), ("how_many_have", how_many_have),
    ("about_a_customer", about_a_customer),
)


# One customer, supplier, invoice or order referred to but not named: "they", "their account", "the invoice",
# "der Rechnung", "the Dutch customer", "beim Lieferanten", "PO status?" (one order, no number).
_UNNAMED = re.compile(r"\b(?:they|them|their|theirs)\b"
                      r"|\b(?:the|that|this|this\s+one|our)\s+(?:[a-z]+\s+)?(?:customer|client|supplier|vendor"
                      r"|invoice|bill|order|purchase\s+order|po)\b(?!\s*(?:s\b|list|aging|ageing))"
                      r"|^\W*(?:invoice|bill|po)\b(?!s)(?=\W*\s[a-z])(?!.*\b(?:all|list|every|each|any)\b)")
# ... about what the catalog answers for one of them
_ABOUT = re.compile(r"\b(?:owe[sd]?|owing|paid|pay(?:s|ing|ment|ments)?|bought|buy|purchas\w*|invoices?|bills?"
                    r"|balance|open|outstanding|overdue|late|due|revenue|sales|tickets?|orders?|po|status|stock"
                    r"|credit|terms|risk|spent|spend|profile|settled|check)\b")
_VAGUE = re.compile(r"^\W*(?:(?:please|pls|can\s+you|could\s+you|would\s+you)\s+)*(?:send|show|give|get|tell)?\s*"
                    r"(?:me|us)?\s*(?:(?:the|all|our|your|some|latest|current|key|main)\s+)*(?:figures|numbers|kpis?"
                    r"|metrics|stats|statistics|reports?|dashboard|key\s+figures|overview)\b(?:\s+(?:for|of|in)\b.*)?\W*$")
_ENTITY_NOUN = (("supplier", re.compile(r"\b(?:supplier|vendor|suppliers|purchase\s+order|po)\b")),
                ("invoice", re.compile(r"\b(?:invoice|bill)\b")), ("customer", re.compile(r"")))


_DIGIT = re.compile(r"\d")


def unnamed(q: _Question, d: Directory) -> Route | None:
    """One customer, supplier or invoice referred to ("what's the balance on their account", "was ist mit der
    Rechnung", "is the Dutch customer paying on time") but none named: which one is asked, never all of them or a
    refusal. Only for a question no rule answers, or asks back about the measure only."""
    if q.invoice or q.sku or q.customer_ref or q.supplier_ref or not _UNNAMED.search(q.masked) \
            or not _ABOUT.search(q.masked) or _DIGIT.search(q.masked):
        return None              # a number typed that names nothing ("INV-2026-88xx"): not a reference left out
    if d.customer_index.find(q) or d.supplier_index.find(q):
        return None
    noun = next(n for n, p in _ENTITY_NOUN if p.search(q.masked))
    return _clarify("missing_entity", f"Which {noun} do you mean? Please name one.")


def vague(q: _Question, d: Directory) -> Route | None:
    """"Send me the figures", "die Kennzahlen für Q2": no measure named; which one is asked, never refused."""
    if not _VAGUE.search(q.masked):
        return None
    return _clarify("ambiguous_metric", "Which figures do you want?", _metric_options(q, d, False))


def _decide(q: _Question, directory: Directory) -> Route:
    for name, rule in RULES:
        r = rule(q, directory)
        if r is not None:
            if r.kind == "clarification" and r.reason == "ambiguous_metric" and not r.calls:
                if (u := unnamed(q, directory)) is not None:      # "the balance on their account": whose first
                    r, name = u, "unnamed"
            return Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason,
                         message=r.message, notes={**r.notes, "rule": name})
    for name, rule in (("unnamed", unnamed), ("vague", vague)):
        r = rule(q, directory)
        if r is not None:
            return Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason,
                         message=r.message, notes={**r.notes, "rule": name})
    r = _refuse("not_covered")
    return Route(kind=r.kind, intent=r.intent, reason=r.reason, message=r.message, notes={"rule": "nothing_matched"})

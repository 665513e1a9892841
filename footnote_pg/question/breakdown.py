"""Figures across customers or suppliers that the breakdown operation computes: a measure of a period (cash
collected, tickets opened, average invoice value, purchase volume, payments to suppliers; revenue, invoiced, invoice
counts and credit notes when they are split or filtered in a way no other operation does), grouped by a dimension
(customer, country, account owner, month, quarter, severity, supplier, supplier country), filtered by a country, an
account owner, a customer or a supplier, ranked and limited.

What the other operations answer stays theirs: revenue by customer is the top customers, revenue by month is
revenue by month, one customer's payments are its payment history. What none computes (revenue by product line)
is still refused by the vocabulary's not_computed entries.
"""

from __future__ import annotations

import re

from footnote_pg.question.lexicon import (
    _DEMONYM,
    _IN_COUNTRY,
    _MONTHLY,
    _PAYMENTS,
    _RANK_ASC,
    _REVENUE,
    _TOP_LIMIT,
    COUNTRIES,
    DEMONYMS,
)
from footnote_pg.question.names import Directory
from footnote_pg.question.plan import _ambiguous, _call, _clarify, _number, _unclear_period
from footnote_pg.question.reading import _Question
from footnote_pg.question.text import fold
from footnote_pg.question.types import Route


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_BY = r"\b(?:by|per|for\s+each|each|every|split\s+by|broken\s+down\s+by|grouped\s+by)\s+(?:the\s+|our\s+|their\s+)?"

# the measures, the first that matches wins (tickets and averages before revenue words)
MEASURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tickets_opened", _rx(
        r"\btickets?\s+(?:were\s+|was\s+|got\s+|have\s+been\s+|been\s+)?(?:opened|raised|created|logged|filed|submitted)\b"
        r"|\btickets?\b[^?.!]{0,20}\b(?:did|do|have)\s+(?:we|they|customers)\s+(?:open|raise|create|log|get|receive)\b"
        r"|\btickets?\s+did\b[^?.!]{0,60}\b(?:open|raise|create|log|file|submit)\b"
        r"|\b(?:opened|raised|created|logged|new)\s+(?:support\s+)?tickets?\b"
        r"|\b(?:opened|raised|logged)\s+(?:the\s+)?(?:most|fewest|least)\s+(?:support\s+)?tickets\b")),
    ("average_invoice", _rx(
        r"\baverage\s+(?:invoice|order)\s+(?:value|amount|size)|\baverage\s+(?:value|amount|size)\s+(?:of\s+)?"
        r"(?:an?\s+|our\s+|the\s+)?(?:invoices?|orders?)|\baverage\s+(?:invoice|order)\b|\bavg\.?\s+invoice")),
    ("purchase_volume", _rx(
        r"\bpurchas(?:e|es|ing)\s+(?:volume|spend|totals?|amounts?)\b"
        r"|\bwe\s+(?:buy|bought|purchase[d]?|order(?:ed)?)\s+(?:the\s+)?most\s+from\b"
        r"|\b(?:spend|spent)\s+(?:with|on|per|by)\s+(?:each\s+|our\s+)?suppliers?\b|\bsupplier\s+spend\b"
        r"|\b(?:biggest|largest|main|top)\s+(?:\d+\s+)?suppliers?\b|\brank\w*\s+(?:our\s+|the\s+|all\s+)?suppliers\b"
        r"|\bsuppliers?\s+(?:ranked|sorted)\s+by\b|\bhow\s+much\s+did\s+we\s+(?:buy|purchase)\b")),
    ("supplier_payments", _rx(
        r"\b(?:paid|payments?\s+to|pay)\s+(?:our\s+|the\s+|all\s+)?suppliers\b|\bsupplier\s+payments\b")),
    ("cash_collected", _rx(
        r"\b(?:which|what)\s+customers?\s+paid\s+(?:us\s+)?(?:the\s+)?most\b"
        r"|\b(?:cash|money|payments?)\s+(?:did\s+we\s+|have\s+we\s+|we\s+|was\s+|were\s+)?"
        r"(?:collected|collect|received|receive|came\s+in|come\s+in)\b"
        r"|\btotal\s+payments\b|\bcash\s+collect(?:ed|ion|ions)\b|\bcollections\b"
        r"|\bhow\s+much\s+(?:cash|money)\s+(?:did|have)\s+we\s+(?:collect|receive)"
        r"|\bhow\s+much\s+(?:did|have)\s+we\s+(?:collect(?:ed)?|take\s+in|taken\s+in)\b(?!\s+from)"
        r"|^\W*(?:all\s+|total\s+|our\s+)?(?:customer\s+|incoming\s+)?payments?(?:\s+(?:received|in|during|for|since"
        r"|of))*\s*[?.!]*$")),
    ("credit_notes", _rx(r"\bcredit\s+(?:notes?|memos?)\b")),
    ("invoice_count", _rx(r"\bhow\s+many\s+invoices\b|\bnumber\s+of\s+invoices\b|\binvoice\s+count\b"
                          r"|\bcount\s+of\s+invoices\b")),
    ("invoiced", _rx(r"\binvoic(?:e|ed)\s+(?:in\s+)?gross\b|\bgross\s+(?:invoiced|sales|invoicing|invoices?)\b")),
    ("revenue", _REVENUE),
)
# tickets by severity of a period (not the open ones): the tickets opened in it
_TICKETS_OF_PERIOD = _rx(r"^(?![^?.!]*\bopen\s+tickets)[^?.!]*(?:\btickets?\s+(?:by|per)\s+(?:severity|priority)\b"
                         r"|\b(?:customers?|clients?)\s+by\s+(?:the\s+)?(?:number|count)\s+of\s+(?:support\s+)?tickets\b)")
_SUPPLIER_MEASURES = ("purchase_volume", "supplier_payments")
# measures no other operation computes: answered with or without a dimension
_OWN = ("tickets_opened", "average_invoice", "purchase_volume", "supplier_payments", "cash_collected")

DIMENSIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("supplier_country", _rx(_BY + r"supplier(?:'?s)?\s+countr(?:y|ies)\b"
                             r"|\b(?:top|biggest|largest|main|which|what)\s+(?:\d+\s+)?supplier\s+countr(?:y|ies)\b"
                             r"|\bsuppliers?\b[^?.!]*" + _BY + r"countr(?:y|ies)\b")),
    ("account_owner", _rx(_BY + r"(?:account\s+(?:owners?|managers?)|owners?|sales\s*(?:reps?|persons?|people)"
                          r"|key\s+account\s+managers?)\b"
                          r"|\b(?:which|what)\s+(?:account\s+(?:owners?|managers?)|sales\s*(?:reps?|persons?))\b"
                          r"|\b(?:ranking|rank|list)\s+of\s+(?:the\s+|our\s+)?(?:account\s+(?:owners|managers)|sales\s*(?:reps"
                          r"|people))\b|\b(?:top|bottom)\s+\d{1,3}\s+(?:account\s+(?:owners|managers)|sales\s*reps)\b")),
    ("severity", _rx(_BY + r"(?:severity|severities|priority|priorities)\b")),
    ("country", _rx(_BY + r"(?:customer(?:'?s)?\s+)?countr(?:y|ies)\b"
                    r"|\b(?:ranking|rank|list)\s+of\s+(?:the\s+)?countries\b|\bcountries\s+(?:ranked|sorted)\s+by\b"
                    r"|\b(?:which|what)\s+countr(?:y|ies)\b")),
    ("quarter", _rx(_BY + r"quarters?\b|\bquarterly\b|\bquarter[\s-](?:by|over)[\s-]quarter\b"
                    r"|\b(?:best|worst|strongest|weakest)\s+quarters?\b|\b(?:which|what)\s+quarter\b")),
    ("month", _MONTHLY),
    ("supplier", _rx(_BY + r"suppliers?\b|\b(?:which|what)\s+suppliers?\b|\b(?:biggest|largest|main|top)\s+(?:\d+\s+)?"
                     r"suppliers?\b|\brank\w*\s+(?:our\s+|the\s+|all\s+)?suppliers\b|\bsuppliers?\s+(?:ranked|sorted)\s+by\b"
                     r"|\bmost\s+from\b")),
    ("customer", _rx(_BY + r"customers?\b|\b(?:which|what)\s+customers?\b|\btop\s+(?:\d+\s+)?(?:[^\W\d_]+\s+)?customers\b")),
)
# the dimensions another operation answers for a measure (revenue by customer: top_customers; by month:
# revenue_by_month)
_ELSEWHERE = {"revenue": ("customer", "month")}
# splits no operation makes: left to the refusal that says so
_NO_SPLIT = _rx(_BY + r"(?:products?|product\s+(?:lines?|groups?|categor(?:y|ies))|segments?|industr(?:y|ies)"
                r"|branch(?:es)?|categor(?:y|ies)|regions?|cit(?:y|ies)|sales\s+channels?|channels?|items?|skus?)\b"
                r"|\band\s+(?:by\s+)?(?:products?|product\s+lines?|segments?|industr(?:y|ies)|regions?)\b")
# what we owe suppliers is the payables' (a ranking of it, no operation computes)
_OWED = _rx(r"\bowe[ds]?\b|\bowing\b|\bpayables?\b|\bunpaid\b|\boutstanding\b|\bopen\s+(?:invoices|balances?)\b")
# "the top customers and their <measure>": the top customers are those by revenue, not by that measure
_TOP_AND_THEIR = _rx(r"\btop\s+(?:\d+\s+)?customers\b.*\btheir\b")
_ONE_OWNER = _rx(r"\b(?:which|what)\s+(?:account\s+(?:owner|manager)|sales\s*(?:rep|person))\b(?!s)")
_ONE_COUNTRY = _rx(r"\b(?:which|what)\s+country\b|\b(?:the\s+)?(?:top|biggest|largest|main)\s+(?:supplier\s+|customer\s+)?country\b")
_ONE_SUPPLIER = _rx(r"\b(?:which|what)\s+supplier\b(?!s)|\bwho\s+(?:do|did)\s+we\s+buy\b")
# "which customer received the largest amount": the one ranked first
_ONE_CUSTOMER = _rx(r"\b(?:which|what)\s+(?:one\s+)?(?:customer|client)\b(?!s)[^?.!]*\b(?:most|least|largest|biggest"
                    r"|smallest|highest|lowest)\b")

# what the route accounts for (footnote_pg.question.coverage): its cue patterns and the words that qualify them
CUES: tuple[re.Pattern[str], ...] = (*(p for _, p in MEASURES), *(p for _, p in DIMENSIONS), _TOP_LIMIT, _RANK_ASC,
                                     _DEMONYM, _IN_COUNTRY, _TICKETS_OF_PERIOD)
WORDS = frozenset("""
opened open raised created logged filed submitted new support tickets ticket complaints complaint cases case
severity severities priority priorities
country countries owner owners manager managers sales rep reps person persons people key
collected collect collection collections received receive came come cash payments payment paid pay incoming
spend spent bought buy purchase purchased purchases purchasing volume volumes gross net average avg value size
issued issue invoiced ranked rank ranking sorted biggest largest main top most least smallest lowest highest
best worst strongest weakest
quarter quarters quarterly month months monthly per each every split broken down grouped across all
managed manage manages owned own owns handled handle looked after first last made
revenue revenues sales turnover credit notes note memos memo invoices invoice count
""".split())
LABEL = "a measure of a period grouped by one dimension"


def _measure(q: _Question) -> str | None:
    if q.time.periods and _TICKETS_OF_PERIOD.search(q.masked):
        return "tickets_opened"
    return next((name for name, pattern in MEASURES if pattern.search(q.masked)), None)


def _measures(q: _Question) -> list[str]:
    """The measures a question names side by side ("cash collected vs supplier payments"): each that no other
    operation computes, named where no other named measure is."""
    spans: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    for name, pattern in MEASURES:
        if name not in _OWN:
            continue
        for m in pattern.finditer(q.masked):
            if not any(m.start() < e and s < m.end() for s, e in spans):
                spans.append((m.start(), m.end()))
                found.append((m.start(), name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


def _dimension(q: _Question, measure: str) -> str | None:
    supplier = measure in _SUPPLIER_MEASURES
    for name, pattern in DIMENSIONS:
        if pattern.search(q.masked) and (name.startswith("supplier") == supplier or name in ("month", "quarter")) \
                and (name != "severity" or measure == "tickets_opened"):
            return name
    return None


def _country(q: _Question) -> str | None:
    if (m := _DEMONYM.search(q.low)) is not None:
        return DEMONYMS[m.group(1)]
    if (m := _IN_COUNTRY.search(q.low)) is not None:
        return COUNTRIES[m.group(1)]
    return None


def _limit(q: _Question) -> int | None:
    m = _TOP_LIMIT.search(q.masked)
    if m:
        return _number(next(g for g in m.groups() if g))
    return 1 if _ONE_SUPPLIER.search(q.masked) or _ONE_OWNER.search(q.masked) or _ONE_COUNTRY.search(q.masked) \
        or _ONE_CUSTOMER.search(q.masked) else None


def route(q: _Question, d: Directory) -> Route | None:
    """The breakdown call a question asks for, a clarification when its period is missing, or None when the
    question is not one (or another operation answers it)."""
    measure = _measure(q)
    if q.invoice:
        return None                    # "Rg.-Nr. INV-2025-8174 Zahlungseingang?": that invoice
    if measure is None or _NO_SPLIT.search(q.masked) or (measure in _SUPPLIER_MEASURES and _OWED.search(q.masked)):
        return None
    dim = _dimension(q, measure)
    if dim == "customer" and measure != "revenue" and _TOP_AND_THEIR.search(q.masked):
        return None
    supplier = measure in _SUPPLIER_MEASURES
    customers = [] if supplier else d.customer_index.find(q)
    suppliers = d.supplier_index.find(q) if supplier else []
    owner = None if supplier else next((o for o in d.owners if fold(o) in fold(q.text)), None)
    country = _country(q)
    if measure not in _OWN and (dim is None or dim in _ELSEWHERE.get(measure, ())) and not (owner or country) \
            or measure not in _OWN and dim is None and customers:
        return None                    # revenue of a period, by customer or month, of one customer: theirs
    if measure == "cash_collected" and dim is None and (customers or q.customer_ref) and q.has(_PAYMENTS):
        return None                    # "payments received from X": its payment history
    for m in [*customers, *suppliers]:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "supplier" if supplier else "customer")
    if q.time.invalid_period or q.time.invalid_date:   # a period that does not exist: asked, never another one
        r = _unclear_period(q)
        return Route(kind=r.kind, intent=r.intent, reason=r.reason, options=r.options,
                     message="There is no such period in the records; which period do you mean?")
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    others = [m for m in _measures(q) if m != measure]
    periods = list(dict.fromkeys(x.period for x in q.time.periods))
    if (others or len(periods) > 1) and dim is None and not customers and not suppliers \
            and not q.customer_ref and not q.supplier_ref and not (owner or country):
        if len(periods) > 1 and others:
            return None               # two measures of two periods: no one reading
        named = _measures(q) if others else [measure]      # in the order the question names them
        calls = tuple(_call("breakdown", measure=m, period=x.catalog())     # "cash collected vs supplier payments
                      for m in named for x in periods)                       # in Q2", "collections Jun vs Jul"
        return Route(kind="comparison", intent="combined", calls=calls,
                     notes={"period": p.phrase, "measure": measure, "clauses": " | ".join("breakdown" for _ in calls)})
    if p.period.kind == "month" and dim == "month":
        return _clarify("unclear_period", "A month by month breakdown needs more than one month; which period do "
                        "you mean?", [q.text.replace(p.phrase, label) for label in (
                            q.cal.current("quarter").label(), q.cal.current("fy").label())])
    customer = q.customer_ref or (customers[0].candidates[0] if customers else None)
    call = _call("breakdown", measure=measure, period=p.period.catalog(), by=dim, country=country, owner=owner,
                 customer=None if supplier else customer,
                 supplier=(q.supplier_ref or suppliers[0].candidates[0]) if supplier and (q.supplier_ref or suppliers)
                 else None,
                 limit=_limit(q) if dim else None,
                 direction="asc" if dim and _RANK_ASC.search(q.masked) else None)
    return Route(kind="list" if dim else "figure", intent="breakdown", calls=(call,),
                 notes={"period": p.phrase, "measure": measure})

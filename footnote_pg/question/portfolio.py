"""Plans for questions across customers and about one customer's payments and profile, credit notes, items below
their reorder level, one purchase order, customers of an account owner or a country.

Each builder returns the route for a question the rule table has recognised, or a clarification when a part it
needs (a customer, a period) is missing; it never guesses a name or a period.
"""

from __future__ import annotations

import re

from footnote_pg.question.lexicon import (
    _COUNTRY,
    _DEMONYM,
    _DOWN_WORDS,
    _HOW_MANY,
    _IN_COUNTRY,
    _LIST_LIMIT,
    _LIST_FILTER,
    _OPEN_TOTAL,
    _OWNER,
    _PO_NUMBER,
    _RANK_ASC,
    _RANK_OLDEST,
    _RANK_OPEN,
    _TOP_LIMIT,
    _TOP_SINGLE,
    _UP_WORDS,
    COUNTRIES,
    DEMONYMS,
)
from footnote_pg.question.names import _stem, Directory, Mention
from footnote_pg.question.plan import (
    _ambiguous,
    _answer,
    _as_of,
    _assumed,
    _call,
    _change_periods,
    _clarify,
    _customer_mentions,
    _entities,
    _in_slot,
    _missing,
    _number,
    _refuse,
    _unclear_period,
)
from footnote_pg.question.reading import _Question
from footnote_pg.question.text import fold
from footnote_pg.question.types import Route


def _limit(q: _Question, default: int | None = None) -> int | None:
    m = _TOP_LIMIT.search(q.masked)
    if m:
        return _number(next(g for g in m.groups() if g))
    if _TOP_SINGLE.search(q.masked) or _ONE_WHO.search(q.masked):
        return 1 if not _PLURAL_OWED.search(_AMONG.sub(" ", q.masked)) else default
    return default


_ONE_WHO = re.compile(r"\bwho\s+(?:owes|has|lost|gained|grew|dropped|declined)\b|\b(?:which|what)\s+(?:customer|client)\b(?!s)")
_AMONG = re.compile(r"\b(?:of|among|from)\s+(?:the|all|our|those)?\s*(?:customers|clients|accounts)\b")   # the set chosen from
_PLURAL_OWED = re.compile(r"\b(?:customers|clients|balances|amounts|invoices|accounts|debts)\b")


def customer_dso_route(q: _Question, directory: Directory) -> Route:
    """DSO of one customer: no operation computes it; the customer's own days to pay is the best reading, offered
    first, our DSO overall second."""
    paid = payments_route(q, directory)
    if paid.kind == "clarification" or not paid.calls:
        return paid
    name = str(paid.calls[0].arguments["customer"])
    return _clarify("ambiguous_metric",
                    "No operation computes days sales outstanding for one customer. I read this as how long this "
                    "customer takes to pay (its payment history: average days to pay, invoices paid late); answer "
                    "that, or give our DSO overall?",
                    [f"Show the payment history of {name}", "What is our DSO?"])


def payments_route(q: _Question, directory: Directory) -> Route:
    """What one customer paid, when, how fast and how late."""
    mentions = _customer_mentions(q, directory, required=True)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    if not mentions:
        return _missing("customer")
    as_of, notes = _as_of(q) if not q.time.periods else (None, {})
    period = q.time.periods[0] if q.time.periods else None
    calls = [_call("customer_payments", customer=m.candidates[0], period=period.period.catalog() if period else None,
                   as_of=as_of) for m in mentions]
    return _answer("payments", calls, {**_assumed("customer", mentions), **notes,
                                       **({"period": period.phrase} if period else {})})


def profile_route(q: _Question, directory: Directory) -> Route:
    mentions = _customer_mentions(q, directory, required=True)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    if not mentions:
        return _missing("customer")
    as_of, notes = _as_of(q)
    return _answer("profile", [_call("customer_profile", customer=m.candidates[0], as_of=as_of) for m in mentions],
                   {**_assumed("customer", mentions), **notes})


def all_overdue_route(q: _Question) -> Route:
    as_of, notes = _as_of(q)
    return _answer("aging", [_call("ar_aging", as_of=as_of)], notes)


_SORTED = re.compile(r"\bsorted\s+(asc|desc)(?:ending)?\b")


def ranking_route(q: _Question) -> Route:
    """Customers ranked by what they owe: overdue (default), outstanding or oldest overdue; largest or smallest
    first."""
    as_of, notes = _as_of(q)
    measure = ("oldest_overdue" if _RANK_OLDEST.search(q.masked)
               else "outstanding" if (_RANK_OPEN.search(q.masked) and "overdue" not in q.masked)
               or _OPEN_TOTAL.search(q.masked)
               else "overdue")
    direction = "asc" if _RANK_ASC.search(q.masked) and measure != "oldest_overdue" else None
    if _SORTED.search(q.masked):            # "sorted descending", "asc" as a tool call's argument: as said
        direction = "asc" if _SORTED.search(q.masked).group(1).startswith("asc") else "desc"
    return _answer("ranking", [_call("rank_customers", measure=measure, direction=direction, limit=_limit(q),
                                     as_of=as_of)], notes)


def monthly_route(q: _Question, directory: Directory) -> Route:
    mentions = [m for m in _customer_mentions(q, directory, required=False)]
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    if p.period.kind == "month":
        return _clarify("unclear_period", "A month by month breakdown needs more than one month; which period do "
                        "you mean?", [q.text.replace(p.phrase, label) for label in (
                            q.cal.current("quarter").label(), q.cal.current("fy").label())])
    customer = mentions[0].candidates[0] if mentions else None
    return _answer("revenue_monthly", [_call("revenue_by_month", period=p.period.catalog(), customer=customer)],
                   {**_assumed("customer", mentions[:1]), "period": p.phrase})


def credit_notes_route(q: _Question, directory: Directory) -> Route:
    mentions = _customer_mentions(q, directory, required=False)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    customer = mentions[0].candidates[0] if mentions else None
    return _answer("credit_notes", [_call("credit_notes", period=p.period.catalog(), customer=customer)],
                   {**_assumed("customer", mentions[:1]), "period": p.phrase})


def payables_route(q: _Question, directory: Directory) -> Route:
    """Accounts payable as of a day, of all suppliers or one."""
    mentions = [m for m in _entities(q, directory.supplier_index, required=False)
                if m.known or _in_slot(q, m.start, m.end, strict=True)]
    if q.supplier_ref:
        mentions.insert(0, Mention((q.supplier_ref,), 0, 0, q.supplier_ref, known=False))
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "supplier")
    if not mentions and _ONE_SUPPLIER.search(q.masked):       # "what do we owe the supplier": which one?
        return _clarify("missing_entity", "Which supplier do you mean? Please name one.")
    as_of, notes = _as_of(q)
    calls = [_call("accounts_payable", supplier=m.candidates[0], as_of=as_of) for m in mentions] or [
        _call("accounts_payable", as_of=as_of)]
    return _answer("payables", calls, {**_assumed("supplier", mentions), **notes})


def below_reorder_route() -> Route:
    return _answer("below_reorder", [_call("items_below_reorder")])


def purchase_order_route(q: _Question) -> Route | None:
    m = _PO_NUMBER.search(q.low)
    if not m:
        return None
    number = f"PO-{m.group(1)}-{m.group(2)}" if m.group(1) else m.group(3) or m.group(4) or m.group(5)
    return _answer("purchase_order", [_call("purchase_order", number=number)])


def name_list_route(q: _Question, operation: str) -> Route:
    """Suppliers or items by name, optionally those whose name contains a text."""
    m = _LIST_FILTER.search(q.text)
    name = next(g for g in m.groups() if g).strip(" '\"") if m else None
    if name and operation == "list_items" and name.islower() and " " not in name:
        name = _stem(name)                 # "with screws in the name": the text "screw" (any of them)
    first = _FIRST_N.search(q.masked)          # "list the first 10 items": that many
    return _answer(operation, [_call(operation, name_contains=name, limit=int(first.group(1)) if first else None)])


_FIRST_N = re.compile(r"\b(?:first|top)\s+(\d{1,4})\s+(?:items|products|articles|skus|suppliers|vendors)\b")


_ONE_SUPPLIER = re.compile(r"\b(?:the|this|that|this\s+one|our)\s+(?:supplier|vendor)\b(?!s)", re.IGNORECASE)
_TITLE = re.compile(r"^(?:frau|herrn?|mrs?|ms|miss|dr)\.?\s+", re.IGNORECASE)
_IN_CODE = re.compile(r"\b(?:in|from)\s+(?:the\s+)?([A-Z]{2})\b")
_CODES = frozenset(COUNTRIES.values())


def owner_or_country(q: _Question, directory: Directory) -> Route | None:
    """Customers of an account owner ("managed by Ana Kovač", "Jonas Weber's customers") or of a country
    ("customers in Germany", "our Dutch customers")."""
    owner = country = None
    folded = fold(q.text)
    named = [o for o in directory.owners if fold(o) in folded]
    m = _OWNER.search(q.text)
    if named:
        owner = named[0]
    elif m:
        typed = re.split(r"\s+(?:in|from|with|and|based|located|who|that)\b", next(g for g in m.groups() if g))[0]
        typed = _TITLE.sub("", typed.strip(" '\""))            # "Frau Rossi", "Ms Rossi": the surname
        known = [o for o in directory.owners if fold(o) == fold(typed) or fold(o).split()[0] == fold(typed)
                 or fold(o).split()[-1] == fold(typed)]
        if len(known) > 1:
            return _clarify("ambiguous_entity", "Several account owners match that name; which one do you mean?",
                            [q.text.replace(typed, o) for o in known])
        owner = known[0] if known else typed
    c = _COUNTRY.search(q.low)
    demonym = _DEMONYM.search(q.low)
    named_country = _IN_COUNTRY.search(q.low)
    if demonym:
        country = DEMONYMS[demonym.group(1)]
    elif named_country:
        country = COUNTRIES[named_country.group(1)]
    elif (code := _IN_CODE.search(q.text)) and code.group(1) in _CODES:     # "in DE": a country code as typed
        country = code.group(1)
    elif c and not named:                  # "customers of Sofia Rossi": an owner, no country
        word = c.group(1).strip()
        country = COUNTRIES.get(word) or (word.upper() if re.fullmatch(r"[a-z]{2}", word) else None)
        if country is None:
            return _refuse("not_covered")
    if owner is None and country is None:
        return None
    lm = _LIST_LIMIT.search(q.masked)
    limit = _number(next(g for g in lm.groups() if g)) if lm and not q.has(_HOW_MANY) else None
    return _answer("list_customers", [_call("list_customers", owner=owner, country=country, limit=limit)])


def drivers_route(q: _Question, directory: Directory) -> Route:
    """Which customers changed revenue most between two periods (the drops, the gains, or both)."""
    resolved = _change_periods(q)
    if resolved is None:
        return _unclear_period(q)
    before, after, notes = resolved
    if after.start() > q.cal.as_of:
        return _refuse("forecast")
    direction = "down" if _DOWN_WORDS.search(q.masked) else "up" if _UP_WORDS.search(q.masked) else None
    return _answer("revenue_drivers", [_call("revenue_drivers", period_from=before.catalog(), period_to=after.catalog(),
                                             limit=_limit(q, 3), direction=direction)], notes)

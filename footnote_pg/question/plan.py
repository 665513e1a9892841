"""Plans: what to call for each intent, and the clarifications and refusals when it cannot be called."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from footnote_pg.question.dates import _SINCE_YEAR, DateMention, Period, Unclear, _months_back
from footnote_pg.question.lexicon import (
    _LIST_ITEMS,
    _ARTICLES,
    _BASE_BEFORE,
    _CHANGE,
    _COMPARE,
    _DSO_WINDOW,
    _EXPECTED,
    _HALF,
    _HOW_MANY,
    _JOINED,
    _LIST_FILTER,
    _LIST_LIMIT,
    _NAME_GAP,
    _NOW_VS,
    _NUMBER_WORDS,
    _ON_HAND,
    _POSSESSIVE_ENTITY,
    _PREP_BEFORE,
    _QOQ,
    _RANK_ASC,
    _SLOT_BEFORE,
    _SLOT_PREP,
    _TOP_LIMIT,
    _TOP_SINGLE,
    _WHY,
    _YEAR_IN,
    _YOY,
    VOCABULARY,
)
from footnote_pg.question import words as words_data
from footnote_pg.question.names import _GENERIC_NAME_WORDS, _ITEM_STOP, Directory, Mention, _NameIndex
from footnote_pg.question.reading import _Question
from footnote_pg.question.text import _Tok
from footnote_pg.question.types import _KIND_NOUN, _REFUSAL_MESSAGES, INTENT_KIND, Call, Route


def _refuse(reason: str, message: str | None = None) -> Route:
    return Route(kind="refusal", intent=reason, reason=reason, message=message or _REFUSAL_MESSAGES[reason])


MAX_OPTIONS = 20  # a short name may fit thousands of records: offer the first ones and say how many


def _clarify(reason: str, message: str, options: Sequence[str] = ()) -> Route:
    unique = tuple(dict.fromkeys(options))
    if len(unique) > MAX_OPTIONS:
        message = f"{message} (the first {MAX_OPTIONS} of {len(unique)}; type more of the name to narrow it)"
    return Route(kind="clarification", intent=reason, reason=reason, message=message, options=unique[:MAX_OPTIONS])


def _answer(intent: str, calls: Sequence[Call], notes: dict[str, str] | None = None) -> Route:
    return Route(kind=INTENT_KIND[intent], intent=intent, calls=tuple(calls),
                 notes=dict(notes or {}))


def _call(operation: str, **arguments: Any) -> Call:
    return Call(operation, {k: v for k, v in arguments.items() if v is not None})


def _with(question: str, start: int, end: int, replacement: str) -> str:
    return question[:start] + replacement + question[end:]


def _add_period(q: _Question, label: str) -> str:
    """The question without its unclear period phrase, asking about ``label`` instead."""
    text = q.text
    spans: list[Unclear | DateMention] = [*q.time.unclear, *q.time.dates]   # a day where a period is needed too
    for u in sorted(spans, key=lambda u: -u.start):
        start = u.start
        before = _PREP_BEFORE.search(text[:start], max(0, start - 40))
        if before:
            start = before.start()
        text = (text[:start].rstrip() + " " + text[u.end:].lstrip()).strip()
    body = text.rstrip(" ?.!")
    tail = text[len(body):].strip() or "?"
    return f"{body} in {label}{tail}"


def _period_options(q: _Question) -> list[str]:
    cal = q.cal
    labels = [cal.last_complete("month").label(), cal.last_complete("quarter").label(),
              cal.current("fy").label()]
    if q.time.dates:                   # "revenue for June 26": the month of that day first
        labels = list(dict.fromkeys([cal.month(q.time.dates[0].day).label(), *labels]))
    phrases = " ".join(u.phrase for u in q.time.unclear)
    half = _HALF.search(phrases)
    if half:                           # the two quarters of the half year, and its year
        first = 1 if half.group(1) else 3
        named = _YEAR_IN.search(phrases)
        year = int(named.group(0)) if named else cal.as_of.year
        if not named and Period("quarter", year, first + 1).start() > cal.as_of:
            year -= 1
        labels = [Period("quarter", year, first).label(),
                  Period("quarter", year, first + 1).label(), cal.year_period(year).label()]
    return [_add_period(q, label) for label in labels]


def _unclear_period(q: _Question) -> Route:
    return _clarify("unclear_period",
                    "Which period do you mean: a month, a quarter or a fiscal year?",
                    _period_options(q))


def _missing(kind: str) -> Route:
    noun = _KIND_NOUN[kind][0]
    return _clarify("missing_entity", f"Which {noun} do you mean? Please name one.")


def _ambiguous(q: _Question, mention: Mention, kind: str) -> Route:
    noun = _KIND_NOUN[kind][1]
    options = [_with(q.text, mention.start, mention.end, name) for name in mention.candidates]
    return _clarify("ambiguous_entity",
                    f"Several {noun} match that name; which one do you mean?", options)


# -- entities ------------------------------------------------------------------

def _leftover_runs(q: _Question, taken: Sequence[Mention]) -> list[tuple[int, int]]:
    """Runs of words that are neither vocabulary nor already matched: names the directory lacks."""
    runs: list[tuple[int, int]] = []
    cur: list[_Tok] = []

    def close() -> None:
        if cur:
            runs.append((cur[0].start, cur[-1].end))
            cur.clear()

    for tok in q.tokens:
        free = (not q.consumed(tok) and tok.fold not in VOCABULARY and not tok.fold.isdigit()
                and not any(m.start <= tok.start < m.end for m in taken))
        if not free:
            close()
            continue
        if cur and not _NAME_GAP.fullmatch(q.text[cur[-1].end:tok.start]):
            close()
        cur.append(tok)
    close()
    return runs


def _in_slot(q: _Question, start: int, end: int, strict: bool) -> bool:
    """A run of unknown words where a name belongs: after 'for', 'does', ...; or capitalised (in a text that is not
    all capitals, where a capital says nothing)."""
    before = [t for t in q.tokens if t.end <= start]
    prev = next((t.fold for t in reversed(before) if t.fold not in _ARTICLES), None)
    if prev in (_SLOT_PREP if strict else _SLOT_BEFORE):
        return True
    if _POSSESSIVE_ENTITY.match(q.text[end:end + 3]):
        return True
    return not strict and (not before or (q.text[start].isupper() and not q.text.isupper()))


def _joined_to(q: _Question, start: int, end: int, found: Sequence[Mention]) -> bool:
    """A run of unknown words beside a joiner whose other side is a name the directory holds ("Bergmann and Foo",
    "Foo or Krause"): a second name. A word elsewhere in the message ("I have a call with X ... and ...") is not."""
    toks = [t for t in q.tokens if t.fold not in _ARTICLES]
    inside = [i for i, t in enumerate(toks) if start <= t.start < end]
    if not inside:
        return False
    named = lambda i: 0 <= i < len(toks) and any(m.start <= toks[i].start < m.end for m in found)  # noqa: E731
    first, last = inside[0], inside[-1]
    joiner = lambda i: 0 <= i < len(toks) and _JOINED.fullmatch(toks[i].fold) is not None  # noqa: E731
    return (joiner(first - 1) and named(first - 2)) or (joiner(last + 1) and named(last + 2))


def _entities(q: _Question, index: _NameIndex, required: bool) -> list[Mention]:
    """Names from the directory, plus unknown names in a name's place."""
    found = index.find(q)
    for start, end in _leftover_runs(q, found):
        if found and not q.has(_COMPARE) and not (_JOINED.search(q.low) and _joined_to(q, start, end, found)):
            continue
        words = [t.fold for t in q.tokens if start <= t.start < end]
        if all(w in _GENERIC_NAME_WORDS for w in words) or words_data.never_a_name(words):
            continue                                  # "the logistics company", "items", "NPS": no name
        shortened = index.short_form(words[0]) if len(words) == 1 and words[0].isalpha() else []
        if shortened:                                 # "bergm" alone: the names it begins, asked back when several
            names = tuple(dict.fromkeys(index.entries[e].name for e, _ in sorted(shortened)))
            found.append(Mention(names, start, end, q.text[start:end], fuzzy=True))
            continue
        if _in_slot(q, start, end, strict=not required):
            typed = q.text[start:end].rstrip(".")
            found.append(Mention((typed,), start, end, typed, known=False))
    found.sort(key=lambda m: m.start)
    return found


def _assumed(kind: str, mentions: Sequence[Mention]) -> dict[str, str]:
    for m in mentions:
        if m.fuzzy and len(m.candidates) == 1:
            return {f"assumed_{kind}": m.candidates[0], "typed": m.typed}
    return {}


# -- time ----------------------------------------------------------------------

def _as_of(q: _Question) -> tuple[str | None, dict[str, str]]:
    """The day a point-in-time question names (a date, or the end of a past period)."""
    if q.time.dates:
        d = q.time.dates[0]
        return d.day.isoformat(), {"as_of": d.phrase}
    if q.time.periods:
        p = q.time.periods[0]
        end = p.period.end()
        if end < q.cal.as_of:
            return end.isoformat(), {"as_of": p.phrase}
    return None, {}


def _change_periods(q: _Question) -> tuple[Period, Period, dict[str, str]] | None:
    """The two periods a change is between; a period still running is compared like for like (its days so far
    against the same days of the earlier period), never a part against a whole."""
    found = _two_periods(q)
    if found is None:
        return None
    before, after, notes = found
    as_of = q.cal.as_of
    if after.kind != "range" and after.start() <= as_of < after.end() and before.end() < as_of:
        months = (after.start().year - before.start().year) * 12 + after.start().month - before.start().month
        return (Period.days(before.start(), _months_back(as_of, months)), Period.days(after.start(), as_of),
                {**notes, "like_for_like": "to date"})
    return before, after, notes


_RELATIVE = re.compile(r"\b(?:previous|prior|last|before|preceding|vor\w*)\b", re.IGNORECASE)


def _two_periods(q: _Question) -> tuple[Period, Period, dict[str, str]] | None:
    mentions = list(q.time.periods)
    cal = q.cal
    if q.has(_QOQ):                # quarter over quarter: the quarter named (or this one) against the one before
        quarters = [m for m in mentions if m.period.kind == "quarter"]
        quarter = quarters[0].period if quarters else cal.current("quarter")
        return quarter.previous(), quarter, {"period": quarters[0].phrase if quarters else "quarter over quarter"}
    if q.has(_YOY) or _YOY.search(q.pre):
        others = [m for m in mentions if not m.last_year]
        if others:
            base = others[0]
            return base.period.year_ago(), base.period, {"period": base.phrase}
        current = Period.days(cal.current("fy").start(), cal.as_of)   # like for like: to date, both years
        phrase = mentions[0].phrase if mentions else "year over year"
        return current.year_ago(), current, {"period": phrase}
    if len(mentions) >= 2:
        a, b = mentions[0], mentions[1]
        if a.period.kind != b.period.kind and (a.last_year or b.last_year):
            base = b if a.last_year else a
            return base.period.year_ago(), base.period, {"period": base.phrase}
        first, second = sorted((a, b), key=lambda m: (m.period.start(), m.start))
        if first.period == second.period and any(_RELATIVE.search(m.phrase) for m in (a, b)):
            return a.period.previous(), a.period, {"period": a.phrase}   # "July vs previous month": June and July
        notes = {"period_from": first.phrase, "period_to": second.phrase}
        return first.period, second.period, notes
    if len(mentions) == 1 and _SINCE_YEAR.match(mentions[0].phrase.lower()):
        current = Period.days(cal.current("fy").start(), cal.as_of)   # "changed since last year": year on year
        return current.year_ago(), current, {"period": mentions[0].phrase}
    if len(mentions) == 1:
        m = mentions[0]
        if _BASE_BEFORE.search(q.pre[:m.start], max(0, m.start - 40)):
            current = cal.current(m.period.kind if m.period.kind != "year" else "fy")
            if current.kind == m.period.kind and current.start() > m.period.start():
                return m.period, current, {"period_from": m.phrase}
        return m.period.previous(), m.period, {"period": m.phrase}
    return None


# =========================================================================== intents

def _invoice_route(q: _Question) -> Route:
    as_of, notes = _as_of(q)
    return _answer("invoice", [_call("invoice", number=q.invoice, as_of=as_of)], notes)


def _stock_route(q: _Question, directory: Directory, require_match: bool) -> Route | None:
    if len(q.skus) > 1:                # several SKUs in one clause: never the first alone (joined ones are clauses)
        return _refuse("not_covered")
    if q.sku:
        return _answer("stock", [_call("stock_on_hand", item=q.sku)])
    text = _ON_HAND.sub(lambda m: " " * len(m.group(0)), q.masked)
    words = [t for t in q.tokens if text[t.start:t.end].strip() and t.fold not in _ITEM_STOP]
    index = directory.item_index
    several = _several_items(text, words, directory)
    if several:                      # "stock of euro pallets and hex nuts M8": one call per item, none dropped
        return _answer("stock", [_call("stock_on_hand", item=name) for name in several])
    hits, fuzzy = index.match([t.fold for t in words])
    if len(hits) == 1:
        name = index.items[hits[0]][1]
        typed = q.text[words[0].start:words[-1].end]
        notes = {"assumed_item": name, "typed": typed} if fuzzy else {}
        return _answer("stock", [_call("stock_on_hand", item=name)], notes)
    if hits:
        start, end = words[0].start, words[-1].end
        options = [_with(q.text, start, end, index.items[i][1]) for i in hits[:8]]
        return _clarify("ambiguous_entity", "Several items match that name; which one do you mean?",
                        options)
    if require_match:
        return None
    if not words:
        return _missing("item")
    if words_data.never_a_name([t.fold for t in words]):
        return None if q.has(_LIST_ITEMS) else _missing("item")   # "how many items do we stock": no item named
    return _answer("stock", [_call("stock_on_hand", item=q.text[words[0].start:words[-1].end])])


def _several_items(text: str, words: Sequence[_Tok], directory: Directory) -> list[str]:
    """The items of a question that names several, joined by "and" or commas, when each part names exactly one."""
    cuts = [m.start() for m in _ITEM_JOIN.finditer(text)]
    if not cuts:
        return []
    bounds = [0, *cuts, len(text)]
    names: list[str] = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        part = [t.fold for t in words if start <= t.start < end]
        if not part:
            continue
        hits, _fuzzy = directory.item_index.match(part)
        if len(hits) != 1:
            return []
        names.append(directory.item_index.items[hits[0]][1])
    return list(dict.fromkeys(names)) if len(set(names)) >= 2 else []


def _year_on(day: dt.date) -> dt.date:
    """The same day a year later (28 February for 29 February)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return day.replace(year=day.year + 1, day=28)


_ITEM_JOIN = re.compile(r"\band\b|\bplus\b|,\s")
_THIS_WEEK = re.compile(r"\bthis\s+week\b", re.IGNORECASE)


def _supplier_route(q: _Question, directory: Directory, intent: str) -> Route:
    mentions = _entities(q, directory.supplier_index, required=intent == "supplier_payment")
    if intent == "open_pos":
        mentions = [m for m in mentions if m.known or _in_slot(q, m.start, m.end, strict=True)]
    if q.supplier_ref:
        mentions.insert(0, Mention((q.supplier_ref,), 0, 0, q.supplier_ref, known=False))
    if mentions and len(mentions[0].candidates) > 1:
        return _ambiguous(q, mentions[0], "supplier")
    supplier = mentions[0].candidates[0] if mentions else None
    notes = _assumed("supplier", mentions[:1])
    if intent == "open_pos":
        expected = q.time.periods[0] if q.time.periods and (_EXPECTED.search(q.masked) or q.time.future) else None
        window = expected.period if expected else None
        if expected and window and window.kind != "range" and window.end() < q.cal.as_of \
                and not _YEAR_IN.search(expected.phrase):
            window = window.next_year()       # "expected in September": the coming September
        elif expected and window and window.kind == "range" and window.end() < q.cal.as_of \
                and not _YEAR_IN.search(expected.phrase) and window.first and window.last:
            window = Period.days(_year_on(window.first), _year_on(window.last))   # "1 to 15 September": the coming
        elif expected and window and window.kind == "range" and window.end() == q.cal.as_of \
                and _THIS_WEEK.search(expected.phrase):
            window = Period.days(window.start(), window.start() + dt.timedelta(days=6))   # all of this week
        return _answer("open_pos", [_call("open_purchase_orders", supplier=supplier,
                                          expected_in=window.catalog() if window else None)],
                       {**notes, **({"period": expected.phrase} if expected else {})})
    if supplier is None:
        return _missing("supplier")
    as_of, time_notes = _as_of(q)
    return _answer("supplier_payment",
                   [_call("supplier_payment_facts", supplier=supplier, as_of=as_of)],
                   {**notes, **time_notes})


def _customer_mentions(q: _Question, directory: Directory, required: bool) -> list[Mention]:
    mentions = _entities(q, directory.customer_index, required)
    if q.customer_refs:              # given by number: no other word is an unknown name ("CREDIT LIMIT C-4471")
        mentions = [m for m in mentions if m.known]
    for ref in reversed(q.customer_refs):
        mentions.insert(0, Mention((ref,), 0, 0, ref, known=False))
    return mentions


def _one_customer(q: _Question, directory: Directory, intent: str, operation: str,
                  required: bool = True) -> Route:
    mentions = _customer_mentions(q, directory, required)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    seen: set[str] = set()             # "Müller or Mueller": one customer, asked once
    mentions = [m for m in mentions if not (m.candidates[0] in seen or seen.add(m.candidates[0]))]
    as_of, notes = _as_of(q)
    if as_of and len(mentions) == 1 and q.has(_NOW_VS):    # "overdue as of end of June and now": both days
        calls = [_call(operation, customer=mentions[0].candidates[0], as_of=day) for day in (as_of, None)]
        return _answer("compare_overdue" if intent == "overdue" else intent, calls,
                       {**_assumed("customer", mentions), **notes})
    if len(mentions) >= 2:          # "open tickets for Krenn and Lombardi": one call each, none dropped
        calls = [_call(operation, customer=m.candidates[0], as_of=as_of) for m in mentions]
        return _answer("compare_overdue" if intent == "overdue" else intent, calls,
                       {**_assumed("customer", mentions), **notes})
    if not mentions:
        if required:
            return _missing("customer")
        customer = None
    else:
        customer = mentions[0].candidates[0]
    return _answer(intent, [_call(operation, customer=customer, as_of=as_of)],
                   {**_assumed("customer", mentions[:1]), **notes})


def _dso_route(q: _Question) -> Route:
    """DSO as of a day; "now and at the end of last year": both days. A window the catalog refuses is passed on,
    never replaced by the default."""
    window = None
    m = _DSO_WINDOW.search(q.pre)
    if m:
        window = int(m.group(1) or m.group(2))
    days = sorted({d.day for d in q.time.dates}
                  | {p.period.end() for p in q.time.periods if p.period.end() < q.cal.as_of})
    if days and q.has(_NOW_VS):
        calls = [_call("days_sales_outstanding", as_of=day.isoformat(), window_days=window) for day in days]
        calls.append(_call("days_sales_outstanding", window_days=window))
        return _answer("compare_dso", calls)
    if len(days) > 1:                  # "DSO Q2 vs Q1", "DSO end of Q1 and end of Q2": each day
        return _answer("compare_dso", [_call("days_sales_outstanding", as_of=day.isoformat(), window_days=window)
                                       for day in days])
    as_of, notes = _as_of(q)
    return _answer("dso", [_call("days_sales_outstanding", as_of=as_of, window_days=window)], notes)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


def _top_route(q: _Question) -> Route:
    limit = None
    m = _TOP_LIMIT.search(q.masked)
    if m:
        limit = _number(next(g for g in m.groups() if g))
    elif _TOP_SINGLE.search(q.masked):
        limit = 1
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    direction = "asc" if _RANK_ASC.search(q.masked) else None
    periods = list(dict.fromkeys(x.period.catalog() for x in q.time.periods))
    if len(periods) > 1:              # "top customers 2025 vs 2024": the ranking of each period, none left out
        calls = [_call("top_customers", period=x, limit=limit, direction=direction) for x in periods]
        return _answer("compare_top", calls, {"period": p.phrase})
    call = _call("top_customers", period=p.period.catalog(), limit=limit, direction=direction)
    return _answer("top_customers", [call], {"period": p.phrase})


def _list_route(q: _Question) -> Route:
    name = None
    m = _LIST_FILTER.search(q.text)
    if m:
        name = next(g for g in m.groups() if g).strip(" '\"")
    limit = None
    lm = _LIST_LIMIT.search(q.masked)
    if lm and not q.has(_HOW_MANY):
        limit = _number(next(g for g in lm.groups() if g))
    return _answer("list_customers", [_call("list_customers", name_contains=name, limit=limit)])


def _metric_options(q: _Question, directory: Directory, cash: bool) -> list[str]:
    p = q.time.periods[0].period if q.time.periods else q.cal.current("fy")
    customers = [m for m in _customer_mentions(q, directory, False) if m.known]
    if customers:
        out: list[str] = []
        for name in customers[0].candidates:
            out += [f"What was revenue from {name} in {p.label()}?", f"How much does {name} owe?"]
        return out
    if cash:
        return ["Show AR aging", "What is our DSO?", f"What was revenue in {p.label()}?"]
    return [f"What was revenue in {p.label()}?",
            f"How did revenue change from {p.previous().label()} to {p.label()}?"]


def _balance_route(q: _Question, directory: Directory) -> Route:
    mentions = _customer_mentions(q, directory, True)
    if mentions and len(mentions[0].candidates) > 1:
        return _ambiguous(q, mentions[0], "customer")   # "balance for Bergmann": which Bergmann first
    options: list[str] = []
    for m in mentions[:1]:
        for name in m.candidates:
            options += [f"How much does {name} owe?", f"Show AR aging for {name}"]
    if not options:
        options = ["Show AR aging", "What is our DSO?"]
    return _clarify("ambiguous_metric", "Do you mean the overdue amount or all open receivables?",
                    options)


_ON_BEFORE = re.compile(r"\bon\s+(?:the\s+)?$")
_POINT_WORDS = re.compile(r"(?:as\s+(?:of|at)|end\s+of|ende|per|by|until|till|through|since|from|to|stand)\s+(?:the\s+)?$")
_FULL_YEAR = re.compile(r"(?:19|20)\d\d")


def _one_day(q: _Question, d: DateMention) -> bool:
    """Whether a day a question names is the span asked ("on 30 June", a date written with its year), not the end of
    a period ("as of 30 June", "Ende Q2") or a day that may be a month ("June 26")."""
    before = q.low[max(0, d.start - 16):d.start]
    if _ON_BEFORE.search(before):
        return True
    return bool(_FULL_YEAR.search(d.phrase)) and not _POINT_WORDS.search(before)


def _revenue_route(q: _Question, directory: Directory) -> Route:
    mentions = _customer_mentions(q, directory, required=False)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    customers = [m.candidates[0] for m in mentions]
    customer = customers[0] if len(customers) == 1 else None
    notes = _assumed("customer", mentions)
    why, change = q.has(_WHY), q.has(_CHANGE) or q.has(_QOQ) or _YOY.search(q.pre) is not None
    if len(customers) >= 2:
        if not q.time.periods:
            return _unclear_period(q)
        p = q.time.periods[0]
        calls = [_call("revenue", period=p.period.catalog(), customer=c) for c in customers]
        return _answer("compare_revenue", calls, {**notes, "period": p.phrase})
    if why or change:
        resolved = _change_periods(q)
        if resolved is None:
            return _unclear_period(q)
        before, after, period_notes = resolved
        if after.start() > q.cal.as_of:
            return _refuse("forecast")
        span = {"period_from": before.catalog(), "period_to": after.catalog()}
        change_call = _call("revenue_change", **span, customer=customer)
        if why:
            drivers = _call("revenue_drivers", **span, limit=3)
            return _answer("revenue_why", [change_call, drivers], {**notes, **period_notes})
        return _answer("revenue_change", [change_call], {**notes, **period_notes})
    if len(q.time.periods) >= 2:
        ordered = sorted(q.time.periods, key=lambda m: (m.period.start(), m.start))
        calls = [_call("revenue", period=m.period.catalog(), customer=customer)
                 for m in dict((m.period, m) for m in ordered).values()]
        return _answer("compare_revenue", calls, notes)
    if not q.time.periods and len(q.time.dates) == 1 and q.time.dates[0].day <= q.cal.as_of \
            and _one_day(q, q.time.dates[0]):
        d = q.time.dates[0]              # "revenue on 30 June 2026", "Umsatz am 31.07.2026": that one day
        return _answer("revenue", [_call("revenue", period=Period.days(d.day, d.day).catalog(), customer=customer)],
                       {**notes, "period": d.phrase})
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    return _answer("revenue", [_call("revenue", period=p.period.catalog(), customer=customer)],
                   {**notes, "period": p.phrase})



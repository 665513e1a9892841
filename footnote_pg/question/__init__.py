"""The question path: a question -> catalog calls, a clarification or a refusal.

Deterministic rules, no model, no network: ``route(question, directory,
settings)`` returns a :class:`Route` that names the catalog operations to call
with typed, JSON-ready arguments, or asks one clarifying question whose options
are complete questions that route to an answer, or refuses with a reason. It
never computes or states a figure; its messages contain no digit.

Steps, one module each: ``text`` (folding, tokens), ``lexicon`` (vocabulary and cue patterns), ``dates``
(periods and days as values, and the phrases that name them), ``periods`` (a question's periods and days
resolved against the reference day), ``names`` (the directory of customers, suppliers, items and account
owners), ``reading`` (a question read once), ``rules`` (which intent a question is: an ordered table of named
rules), ``plan`` and ``portfolio`` (what each intent calls, or what it asks back), ``coverage`` (every content
word used, or the part no operation answers named; keyword typos), ``words`` (the vocabulary kept as data:
German and shorthand read as English, filler, other languages, what no operation computes). This module splits a
question into clauses and routes each.
"""

from __future__ import annotations

import re
import threading

from footnote_pg.question import coverage, toolcall, words
from footnote_pg.question.names import Directory, Mention
from footnote_pg.question.reading import _analyse
from footnote_pg.question.lexicon import _INSTRUCTION
from footnote_pg.question.rules import _decide
from footnote_pg.question.text import _tokens
from footnote_pg.question.types import Call, Route, RouterSettings

__all__ = ["Call", "Directory", "Mention", "Route", "RouterSettings", "route", "unanswered_words"]


def _settle(r: Route, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    """Replace an option that would itself need clarifying by the first option it offers."""
    if r.kind != "clarification" or not r.options:
        return r
    settled: list[str] = []
    for option in r.options:
        current = option
        for _ in range(3):
            routed = _route(current, directory, settings, depth + 1)
            if routed.kind != "clarification":
                settled.append(current)
                break
            if not routed.options or depth >= 2:
                break
            current = routed.options[0]
    return Route(kind=r.kind, intent=r.intent, calls=r.calls, options=tuple(dict.fromkeys(settled)),
                 reason=r.reason, message=r.message, notes=r.notes)


_CLAUSE = re.compile(r"\s*(?:;\s*(?:also\s+|and\s+|plus\s+)?|,?\s+and\s+(?:also\s+|then\s+)?|,\s*(?:also|plus)\s+"
                     r"|\s+plus\s+|,\s*then\s+"
                     r"|(?:,|\s+&)\s+(?=(?:overdue|tickets|open\s+tickets|risk|aging|dso|revenue|sales|payments"
                     r"|payment\s+history|profile|credit\s+notes|open\s+balance|payment\s+terms"
                     r"|(?:last\s+)?payments?|credit\s+limit)\b)"
                     r"|\s+as\s+well\s+as\s+|\?\s+|\s+\+\s+|(?<=[^\W\d_]{3})\.\s+(?=[A-ZÄÖÜ])"
                     r"|,\s+(?=(?:their|its|his|her|what|how|is|are|do|does|did|when|who|which)\b))"
                     r"(?=\S)", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:they|them|their|theirs|it|its|he|she|his|her|this\s+customer|that\s+customer"
                      r"|the\s+same\s+customer)\b", re.IGNORECASE)
_SUBJECT_ARGS = ("customer", "supplier", "item")
_PERIOD_PRONOUN = re.compile(r"\s*\b(?:of|in|for|during|from)\s+(?:that|this|the\s+same)\s+(?:quarter|month|year|period|week"
                             r"|half(?:[\s-]year)?|time)\b|\s*\b(?:in\s+)?the\s+same\s+period\b", re.IGNORECASE)
_THEY = re.compile(r"\b(?:they|them|their|theirs)\b", re.IGNORECASE)
_UNRESOLVED = Route(kind="clarification", intent="missing_entity", reason="missing_entity",
                    message="Which customer do you mean? Please name one.")
_GLUED = re.compile(r"\b(top|bottom|first)-?(\d{1,3})(?:\b-?|-(?=\w))", re.IGNORECASE)     # "top10", "Top-5-Kunden"
_ORDINALS = ("first", "second", "third", "fourth")
_DETAIL = ("unclear_period", "ambiguous_entity")   # a clause that needs one more detail to be answered
_FINAL = ("instruction", "database_command")       # refusals no clause may override
_POINT_IN_TIME = ("aging", "dso", "overdue", "tickets", "risk", "profile", "payables", "ranking")
_ALL = re.compile(r"\b(?:all|total|overall|every|any\s+supplier|in\s+general)\b", re.IGNORECASE)
_AS_OF_WORDS = re.compile(r"(?:as\s+(?:of|at)|at|by|on|until)\b", re.IGNORECASE)


# One operation asked at several days or periods: the comparison its intent has, or (a list) the same intent.
_AT_SEVERAL_TIMES = {"overdue": ("comparison", "compare_overdue"), "revenue": ("comparison", "compare_revenue"),
                     "dso": ("comparison", "compare_dso")}
_TIME_ARGS = ("as_of", "period")


def _same_but_time(calls: tuple[Call, ...]) -> bool:
    """Several calls of one operation whose arguments differ only in their day or period."""
    if len(calls) < 2 or len({c.operation for c in calls}) != 1:
        return False
    rest = [{k: v for k, v in c.arguments.items() if k not in _TIME_ARGS} for c in calls]
    times = [tuple(c.arguments.get(k) for k in _TIME_ARGS) for c in calls]
    return all(r == rest[0] for r in rest) and len(set(times)) == len(times) and all(any(t) for t in times)


def _subject(r: Route) -> str | None:
    return next((str(c.arguments[a]) for c in r.calls for a in _SUBJECT_ARGS if a in c.arguments), None)


def _asked_back(r: Route) -> bool:
    return r.kind in ("refusal", "clarification")


def _carried(text: str, r: Route, subject: str | None, subject_kind: str | None, period: str | None,
             as_of: str | None, directory: Directory, settings: RouterSettings, depth: int,
             span: tuple[str, str] | None = None) -> tuple[str, Route]:
    """A clause with what another clause named and it lacks: the customer or supplier ("... and open POs with
    them", "overdue and open tickets for X"), the period ("revenue in Q2 and the top customers", "top customers
    2025 and how revenue changed vs 2024") or the day ("AR aging and DSO as of end of Q2")."""
    tries: list[str] = []
    if subject and _PRONOUN.search(text) and (_asked_back(r) or _subject(r) is None):
        tries.append(_PRONOUN.sub(subject, text, count=1))    # "do they have open tickets" -> "do <X> have ..."
    elif subject and (r.reason == "missing_entity" or (r.kind == "refusal" and r.reason == "not_covered"
                                                       and _bare(text) and not words.may_be_not_computed(text))):
        tries.append(f"{text.rstrip('?')} for {subject}?")     # "X overdue and profile": the profile of X
    elif subject_kind == "supplier" and r.intent in ("open_pos", "payables") and _subject(r) is None \
            and not _ALL.search(text):
        tries.append(f"{text.rstrip('?')} with {subject}?")       # "what do we owe X; also any open POs?"
    for attempt in tries:
        routed = _route(attempt, directory, settings, depth + 1)
        if not _asked_back(routed) or _asked_back(r):
            text, r = attempt, routed
        elif routed.kind == "clarification" and _THEY.search(text) and _subject(r) is None:
            text, r = attempt, routed    # "X's overdue and their DSO": no DSO of X; never the DSO overall instead
    if span and r.reason == "unclear_period" and not period:     # "revenue change Q1->Q2 and who grew most"
        attempt = f"{text.rstrip('?')} from {span[0]} to {span[1]}?"
        routed = _route(attempt, directory, settings, depth + 1)
        if not _asked_back(routed):
            return attempt, routed
    if period and (r.reason == "unclear_period" or ("period_from" in r.notes and "period_to" not in r.notes
                                                     and r.notes["period_from"] != period)):
        attempt = (_PERIOD_PRONOUN.sub(f" in {period}", text.rstrip("?"), count=1) + "?"
                   if _PERIOD_PRONOUN.search(text) else f"{text.rstrip('?')} in {period}?")   # "... of that quarter"
        routed = _route(attempt, directory, settings, depth + 1)
        if not _asked_back(routed) or _asked_back(r):
            text, r = attempt, routed
    elif as_of and not _asked_back(r) and r.intent in _POINT_IN_TIME and "as_of" not in r.notes \
            and "period" not in r.notes:
        attempt = f"{text.rstrip('?')} {as_of if _AS_OF_WORDS.match(as_of) else 'as of ' + as_of}?"
        routed = _route(attempt, directory, settings, depth + 1)
        if not _asked_back(routed):
            text, r = attempt, routed
    return text, r


_NUMBER_ONLY = re.compile(r"#?\d{3,8}\b", re.IGNORECASE)
_INVOICE_WORD = re.compile(r"\binv(?:oices?)?\b|\brechnung(?:en)?\b", re.IGNORECASE)
_BARE = 3     # words of a clause that only names what is asked ("credit notes", "AR aging")


def _bare(text: str) -> bool:
    return len(_tokens(text)) <= _BARE and not _ALL.search(text) and not _PRONOUN.search(text)


def _shared(text: str, r: Route, subject: str, directory: Directory, settings: RouterSettings,
            depth: int) -> tuple[str, Route]:
    """An earlier clause that only names what is asked takes the last clause's customer or supplier ("credit notes
    and revenue for X in 2025": both of X), when its operation takes one."""
    if _subject(r) is not None or r.reason == "ambiguous_entity":     # it names its own customer or supplier
        return text, r
    attempt = f"{text.rstrip('?')} for {subject}?"
    routed = _route(attempt, directory, settings, depth + 1)
    if _asked_back(routed) or _subject(routed) != subject:
        return text, r
    return attempt, routed


_ONLY_TIME = re.compile(r"^(?:(?:as\s+(?:of|at)|at|on|in|for|per|by)\s+)?(?:the\s+)?(?:end\s+of\s+|ende\s+)?(?:the\s+)?"
                        r"(?:q[1-4]|h[12]|fy\s*\d{2,4}|\d{4}|\d{1,2}[./]\d{1,2}[./]?(?:\d{2,4})?|\d{4}-\d{2}(?:-\d{2})?"
                        r"|(?:last|this|previous)\s+(?:month|quarter|year)|january|february|march|april|may|june|july"
                        r"|august|september|october|november|december)(?:\s+\d{4})?\s*[?.!]*$", re.IGNORECASE)


def _same_of_another_time(prev: tuple[str, Route], part: str, current: tuple[str, Route], directory: Directory,
                          settings: RouterSettings, depth: int) -> tuple[str, Route]:
    """A clause that only names a day asks what the clause before it asks, as of that day."""
    text, r = prev
    phrase = r.notes.get("as_of")            # a day only: periods joined by "and" are read by the periods
    if _asked_back(r) or not phrase or phrase not in text:
        return current
    bare = part.rstrip("?.! ")
    if not _AS_OF_WORDS.match(bare):
        bare = "as of " + bare
    attempt = text.replace(phrase, bare, 1)
    routed = _route(attempt, directory, settings, depth + 1)
    return (attempt, routed) if not _asked_back(routed) and routed.intent == r.intent else current


_TOPIC = re.compile(r"^\s*[^\W\d_][^:?\n]{1,60}:\s+\S")


def _topical(text: str, r: Route, subject: str, directory: Directory, settings: RouterSettings,
             depth: int) -> tuple[str, Route]:
    """A clause of a question headed by its customer or supplier ("X: open items and average days to pay"): about
    that one, when it names no other and its operation takes one."""
    if _subject(r) is not None or r.reason == "ambiguous_entity":
        return text, r
    attempt = f"{text.rstrip('?')} for {subject}?"
    routed = _route(attempt, directory, settings, depth + 1)
    if _asked_back(routed) or _subject(routed) != subject:
        return text, r
    return attempt, routed


def _why_not(r: Route) -> str | None:
    """What a clause's refusal says plainly (what no operation computes, a forecast, advice), or None."""
    if r.message and r.kind == "refusal":
        return r.message if r.message.endswith((".", "?", "!")) else r.message + "."
    if r.message and r.message.startswith("No operation"):
        return r.message.split(". ")[0].rstrip(".") + "."      # its first sentence, not the question it asks
    return None


def _combined(question: str, directory: Directory, settings: RouterSettings, depth: int) -> Route | None:
    """A question of several clauses ("what does X owe and do they have open tickets"): each clause answered with
    its own calls in one answer; when a clause cannot be answered, a clarification that offers the others."""
    parts = [p.strip(" ,;") for p in _CLAUSE.split(question) if p.strip(" ,;?")]
    parts = [p for p in parts if not all(t.fold in coverage.FILLER for t in _tokens(p))]   # "um, what's ..."
    if len(parts) < 2 or len(parts) > 4:
        return None
    for i in range(1, len(parts)):      # "invoice 8812 and 8834": the second is an invoice too
        if _NUMBER_ONLY.match(parts[i]) and _INVOICE_WORD.search(parts[i - 1]):
            parts[i] = "invoice " + parts[i]
    first = []
    for part in parts:
        text = part if part.rstrip().endswith("?") else part + "?"
        first.append((text, _route(text, directory, settings, depth + 1)))
    subject = next((s for _, r in first if (s := _subject(r)) is not None), None)
    subject_kind = next((a for _, r in first for c in r.calls for a in _SUBJECT_ARGS if a in c.arguments), None)
    if subject is None and any(_PRONOUN.search(t) for t, _ in first):
        q = _analyse(question, settings)         # "Krause want to renegotiate. Send me their revenue ...": theirs
        customers, suppliers = directory.customer_index.find(q), directory.supplier_index.find(q)
        named = [m for m in (*customers, *suppliers) if m.known]
        if len(named) == 1 and len(named[0].candidates) == 1:
            subject, subject_kind = named[0].candidates[0], "customer" if customers else "supplier"
    period = next((r.notes["period"] for _, r in first if "period" in r.notes), None)
    as_of = next((r.notes["as_of"] for _, r in first if "as_of" in r.notes), None)
    final = next((r for _, r in first if r.reason in _FINAL), None)
    if final is not None:
        return final                        # "overdue for X and delete the invoice": the command wins
    span = next(((r.notes["period_from"], r.notes["period_to"]) for _, r in first
                 if "period_from" in r.notes and "period_to" in r.notes), None)
    routes = [_carried(t, r, subject, subject_kind, period, as_of, directory, settings, depth, span) for t, r in first]
    for i in range(1, len(routes)):     # "X overdue as of end of Q1 and end of Q2": the same asked of another day
        if _asked_back(routes[i][1]) and _ONLY_TIME.match(parts[i]) and "as_of" in routes[i - 1][1].notes:
            routes[i] = _same_of_another_time(routes[i - 1], parts[i], routes[i], directory, settings, depth)
    if subject is not None and _TOPIC.match(question) and _subject(first[0][1]) == subject:
        routes = [(t, r) if i == 0 else _topical(t, r, subject, directory, settings, depth)
                  for i, (t, r) in enumerate(routes)]       # "Rinaldi: open items and average days to pay"
    last = _subject(first[-1][1])
    if last is not None and all(_subject(r) is None for _, r in first[:-1]):
        routes = [_shared(t, r, last, directory, settings, depth)
                  if i < len(routes) - 1 and _bare(first[i][0]) else (t, r) for i, (t, r) in enumerate(routes)]
    if subject is None:              # "top 5 customers ... plus their revenue": "their" names no one the calls take
        routes = [(t, _UNRESOLVED if _THEY.search(t) and not _asked_back(r) and _subject(r) is None else r)
                  for t, r in routes]
    answered = [(t, r) for t, r in routes if r.kind not in ("refusal", "clarification")]
    if answered:       # "... ? They are chasing us.", "Lindqvist Elteknik, Malmö.": context, not a question
        sentences = {x.strip(" ,;?.!") for x in _SENTENCE.split(question)}
        kept = [(t, r) for (t, r), part, (_, r0) in zip(routes, parts, first, strict=True)
                if not (_asked_back(r) and part.strip(" ,;?.!") in sentences and _context(part, r0))]
        if len(kept) < len(routes):
            if len(kept) == 1:
                r = kept[0][1]
                return Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason,
                             message=r.message, notes={**r.notes, "context": "left out"})
            routes = kept
    if not answered:      # "how much does Bergmann owe? The CEO asked.": the one question asked back, the rest context
        asking = [(t, r) for (t, r), part, (_, r0) in zip(routes, parts, first, strict=True)
                  if not (_asked_back(r) and _context(part, r0))]
        if len(asking) == 1 and asking[0][1].kind == "clarification" and len(routes) > 1:
            return asking[0][1]
    if len(answered) == len(routes):
        if all(_keys(r) == _keys(routes[0][1]) for _, r in routes):
            return routes[0][1]          # "what we owe them and whether anything is past due": one answer, once
        calls = tuple(c for _, r in routes for c in r.calls)
        notes: dict[str, str] = {}
        for _, r in reversed(routes):
            notes.update(r.notes)
        if len({r.intent for _, r in routes}) == 1 and _same_but_time(calls):
            r0 = routes[0][1]           # "Krause overdue end of June and end of July": one figure at several times
            kind, intent = _AT_SEVERAL_TIMES.get(r0.intent, (r0.kind, r0.intent))
            return Route(kind=kind, intent=intent, calls=calls, notes={**notes, "rule": "clauses"})
        return Route(kind="comparison", intent="combined", calls=calls,
                     notes={**notes, "rule": "clauses", "clauses": " | ".join(r.intent for _, r in routes)})
    unclear = [(i, r) for i, (_, r) in enumerate(routes)
               if r.kind == "clarification" and r.options and r.reason in _DETAIL]
    if answered and len(unclear) == 1 and len(answered) == len(routes) - 1:
        i, r = unclear[0]                   # one clause needs a detail: ask it, with the whole question as options
        ask = r.message or ""
        options = [" and ".join(t.rstrip("?") if j != i else o.rstrip("?") for j, (t, _) in enumerate(routes)) + "?"
                   for o in r.options]
        return Route(kind="clarification", intent=r.intent, reason=r.reason,
                     message=f"About the {_ORDINALS[i]} part of this question: {ask[:1].lower()}{ask[1:]}",
                     options=tuple(options),
                     notes={"rule": "clauses"})
    if answered:
        missing = [i for i, (_, r) in enumerate(routes) if r.kind in ("refusal", "clarification")]
        named = " and the ".join(_ORDINALS[i] for i in missing)
        said = [m for i in missing if (m := _why_not(routes[i][1]))]
        why = " ".join(said) if len(said) == len(missing) else \
            f"no operation answers {'it' if len(missing) == 1 else 'them'} as asked."
        return Route(kind="clarification", intent="partly_covered", reason="partly_covered",
                     message=f"I can answer part of this question, but not the {named} part: {why} "
                             f"Shall I answer the rest?",
                     options=tuple(t for t, _ in answered),
                     notes={"rule": "clauses", "unanswered": " | ".join(routes[i][0] for i in missing)})
    return None


_STATEMENT = re.compile(r"^\s*(?:asking|because|since|fyi|background|context|note|i|i'm|i've|i'd|i'll|we|we're|we've|we'll|they|they're|they've|he|she|it|it's|this|that"
                        r"|these|those|the|our|my|their|his|her|ich|wir|sie|er|es|das|der|die|unser|unsere|mein|meine)\b",
                        re.IGNORECASE)
_ASKING = re.compile(r"\b(?:what|how|who|whom|which|when|where|why|whether|can\s+you|could\s+you|would\s+you|please|pls"
                     r"|show|give|list|tell|need\s+to\s+know|want\s+to\s+know|wie|was(?=\s+(?:ist|sind|hat|haben|schulden|kostet|gibt)\b)|wer|welche|bitte)\b", re.IGNORECASE)


_SENTENCE = re.compile(r"(?<=[?!])\s+|(?<=[^\W\d_]{3})\.\s+(?=[^\W\d_])")


def _context(text: str, r: Route) -> bool:
    """A sentence of a message that tells rather than asks ("The customer wants 200 pcs.", "They are chasing us",
    a customer's name and city under the question): context of the question, never a part of it."""
    if r.reason in _FINAL or r.reason in ("instruction", "database_command", "forecast", "advice"):
        return False
    if r.notes.get("rule") == "about_a_customer":
        return True
    return ((r.notes.get("rule") in ("nothing_matched", "action", "coverage", "not_covered", "unnamed", "vague")
             or r.reason in ("missing_entity", "ambiguous_metric"))
            and bool(_STATEMENT.match(text) or (_TELLS.search(text) and not text.rstrip().endswith("?")))
            and not _ASKING.search(text))


# a sentence that tells what someone did, wants or said ("Krause Industrieservice want to renegotiate.")
_TELLS = re.compile(r"\b(?:want|wants|wanted|say|says|said|called|calls|asked|asks|told|has|have|had|will|plan|plans"
                    r"|planning|thinks?|claims?|sent|sends|needs?|wrote|writes|mentioned|complained|is|are|was|were)\b",
                    re.IGNORECASE)


def _keys(r: Route) -> set[str]:
    return {f"{c.operation} {sorted(c.arguments.items())}" for c in r.calls}


def _tool_call(call: toolcall.Call, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    """A request naming an operation with an argument key it does not take: asked back, naming the keys it takes,
    with the request read without the keys (their values as words) first when that reading is answered."""
    bare = _route(toolcall.question(call), directory, settings, depth + 1)
    if bare.reason == "missing_entity":
        return bare            # stock_on_hand(warehouse=...) without its item: which item, first
    guess = toolcall.guess(call)
    routed = _route(guess, directory, settings, depth + 1)
    if routed.kind == "refusal" and routed.reason in ("currency_conversion", "forecast", "database_command",
                                                      "instruction"):
        return routed          # revenue(period=..., currency="CHF"): what the key asks is refused as such
    options = () if routed.kind in ("clarification", "refusal") else (guess,)
    return Route(kind="clarification", intent="ambiguous_metric", reason="ambiguous_metric",
                 message=toolcall.unknown_message(call), options=options, notes={"rule": "tool_call"})


_INJECTED_KEY = re.compile(r"\b(?:system|system_?prompt|instructions?|prompt|override|role|developer|assistant)\b",
                           re.IGNORECASE)
# "invoices 8812, 8834 and 8901", "inv 8812 / 8834": one invoice each, none dropped
_INVOICE_LIST = re.compile(r"\b(?:invoices?|inv\.?|rechnungen|rechnung)\s*(?:numbers?\s+|nos?\.?\s*|nr\.?\s*)?#?"
                           r"(?!(?:19|20)\d\d\b)(\d{3,8})(?![-/.]\d)"
                           r"((?:\s*(?:,|&|\+|\band\b|\bund\b|\bor\b)?\s*#?\d{3,8}\b(?![-/.]\d))+)", re.IGNORECASE)
_LIST_NUMBER = re.compile(r"\d{3,8}")
# "INV-2026-8901, INV-2026-8977", "PO-2025-3098 / PO-2025-3120": each its own clause, none dropped
_NUMBER_LIST = re.compile(r"\b(?:(?:inv|po)-(?:19|20)\d\d-\d{1,8}|sku-\d{3,8})\b(?:\s*(?:,|/|&|\+|\band\b|\bund\b)\s*"
                          r"\b(?:(?:inv|po)-(?:19|20)\d\d-\d{1,8}|sku-\d{3,8})\b)+", re.IGNORECASE)
_NUMBER = re.compile(r"\b(?:(?:inv|po)-(?:19|20)\d\d-\d{1,8}|sku-\d{3,8})\b", re.IGNORECASE)


def _numbers(m: re.Match[str]) -> str:
    numbers = _NUMBER.findall(m.group(0))
    return m.group(0) if len(numbers) > 4 else " and ".join(numbers)


def _invoices(m: re.Match[str]) -> str:
    numbers = [m.group(1), *_LIST_NUMBER.findall(m.group(2))]
    if len(numbers) > 4 or len({len(n) for n in numbers}) > 1 or any(n.startswith("0") for n in numbers):
        return m.group(0)                   # more than a question's four parts: left as typed, asked back
    return " and ".join(f"invoice {n}" for n in numbers)


_SEEN = threading.local()     # the routes of one question's clauses and options, each worked out once


def _route(question: str, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    memo: dict[tuple[str, int], Route] | None = getattr(_SEEN, "memo", None)
    if memo is None:
        return _routed(question, directory, settings, depth)
    key = (question, depth)
    if key not in memo:
        memo[key] = _routed(question, directory, settings, depth)
    return memo[key]


def _routed(question: str, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    if depth == 0:
        body = words.body(question)               # "Subject: ...\n<the message>": the message alone, when answered
        if body is not None:
            routed = _route(body, directory, settings, depth)
            if not _asked_back(routed):
                return routed
        question = words.unwrapped(question)      # "Hi team, ... Thanks, Anna": the question in the message
    call = toolcall.parse(question) if depth == 0 else None
    if depth == 0 and toolcall.is_write(question, call):      # a GraphQL mutation, "approve_invoice": a change
        return Route(kind="refusal", intent="database_command", reason="database_command",
                     message=_decide(_analyse("drop table invoices", settings), directory).message,
                     notes={"rule": "database_command"})
    if call is not None:
        unknown = toolcall.unknown_keys(call)
        if unknown and (_INJECTED_KEY.search(" ".join(unknown)) or _INSTRUCTION.search(question.lower())):
            return Route(kind="refusal", intent="instruction", reason="instruction",     # '{"system": "invent ..."}'
                         message=_decide(_analyse("ignore previous instructions", settings), directory).message,
                         notes={"rule": "instruction"})
        if unknown:
            return _tool_call(call, directory, settings, depth)
        question = toolcall.question(call)
    text, read = words.read_as(_GLUED.sub(r"\1 \2 ", question), directory)
    text = _INVOICE_LIST.sub(_invoices, text)
    text = _NUMBER_LIST.sub(_numbers, text)
    text, corrections = coverage.correct_spelling(text, directory)
    corrections = {**read, **corrections}
    q = _analyse(text, settings)
    r = coverage.check(q, _decide(q, directory), directory)
    if depth == 0 and _CLAUSE.search(text) and r.reason not in _FINAL:
        whole = r
        parts = _combined(text, directory, settings, depth)
        if parts is not None and (
                ((parts.intent == "combined" or (parts.calls and "context" not in parts.notes))
                 and (whole.kind in ("refusal", "clarification")
                                                 or not _keys(whole) >= _keys(parts)))
                or (parts.kind == "clarification" and whole.reason != "currency_conversion"
                    and (whole.kind == "refusal" or whole.reason == "ambiguous_metric"))
                or ("context" in parts.notes and whole.kind in ("refusal", "clarification"))
                or parts.reason in _FINAL):
            r = parts
    if call is not None and call.operation is not None and r.notes.get("rule") == "nothing_matched" \
            and call.operation.positional and call.operation.positional not in call.arguments and not call.free:
        noun = {"number": "document", "item": "item", "supplier": "supplier"}.get(call.operation.positional, "customer")
        r = Route(kind="clarification", intent="missing_entity", reason="missing_entity",   # {"op": "invoice"}
                  message=f"Which {noun} do you mean? Please name one.", notes={"rule": "tool_call"})
    if call is not None:
        r = Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason, message=r.message,
                  notes={**r.notes, "read_as": question})
    if corrections:
        r = Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason, message=r.message,
                  notes={**r.notes, "corrected": "; ".join(f"{a} -> {b}" for a, b in corrections.items())})
    if depth < 2:
        r = _settle(r, directory, settings, depth)
    return r


def unanswered_words(question: str, r: Route, directory: Directory, settings: RouterSettings) -> list[str]:
    """The content words, periods, days and names of the question that route r does not use (none for a route
    that route() returned as an answer, unless it combines clauses)."""
    question = words.unwrapped(question)
    call = toolcall.parse(question)
    if call is not None and not toolcall.unknown_keys(call):
        question = toolcall.question(call)     # a tool call: the question it asks
    text, _ = coverage.correct_spelling(words.read_as(_GLUED.sub(r"\1 \2 ", question), directory)[0], directory)
    q = _analyse(text, settings)
    _decide(q, directory)                 # reads the names, as routing does
    return coverage.unaccounted(q, r, directory)


def route(question: str, directory: Directory, settings: RouterSettings) -> Route:
    """Map a question to catalog calls, a clarification or a refusal. Pure and deterministic."""
    if getattr(_SEEN, "memo", None) is not None:
        return _route(question, directory, settings, 0)
    _SEEN.memo = {}
    try:
        return _route(question, directory, settings, 0)
    finally:
        _SEEN.memo = None


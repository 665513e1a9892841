"""Coverage: nothing asked is silently dropped.

An answer's route must account for every content word of the question: the words of the names it resolved,
the periods, days and references it read, the cue words of its own intent (and of the modifiers it applied:
a limit, a direction, a comparison), and the function words any question has. A word left over is a part of
the question the route does not answer ("smallest" in "smallest customers by revenue", "value" in "inventory
value", "tickets" in a question about what a customer owes and its tickets): the route becomes a refusal that
says which words no operation answers, and what it could have answered instead.

Spelling: a keyword or an ordinary question word typed with one slip ("revnue", "custmers", "recievables", "dose",
"stauts") is read as that word when the word is not a name the directory knows (a word of four letters only when
two letters are swapped); names keep their own typo tolerance in :mod:`names`.
"""

from __future__ import annotations

import datetime as dt
import functools
import re

from footnote_pg.question import breakdown, words
from footnote_pg.question import lexicon as cue
from footnote_pg.question.dates import DateMention, PeriodMention
from footnote_pg.question.names import Directory
from footnote_pg.question.reading import _Question
from footnote_pg.question.text import _tokens, _within_one, fold
from footnote_pg.question.types import Route

# Words every question may hold without asking for anything: question frames, function words, politeness,
# the kinds of things the catalog is about, and words that only restate what any answer shows.
FILLER = frozenset("""
a an the this that these those of in on at for from to by with about as and or but vs versus via per into over
is are was were be been being am do does did doing done have has had having will would can could should shall may
might must i me my mine we us our ours you your yours it its they them their theirs he she his her him
who whom whose what whats which when where why how much many any some all each every no not
please pls kindly thanks thank thx hi hello hey dear ok okay yes well so just also still yet already again
tell show give list display get find check look see know let lets want need like wondering wonder curious quick
currently current now today right total overall amount amounts number numbers figure figures value
info information detail details status report summary overview breakdown quick latest date dates as end
customer customers client clients account accounts company companies firm supplier suppliers vendor vendors item
items product products invoice invoices there here then than else anything something everything exactly
actually really precisely approximately roughly around more most less least
our ours whole full entire exact exactly money euros euro eur in-house erp system records record data numbers
s t don doesn isn aren wasn weren didn haven hasn amt amnt qty no nr
""".split()) | words.FILLER

# Each intent's own cue words (as the rule table and the plan read them).
INTENT_CUES: dict[str, tuple[re.Pattern[str], ...]] = {
    "overdue": (cue._OVERDUE, cue._BALANCE_CLEAR, cue._BALANCE, cue._COMPARE),
    "compare_overdue": (cue._OVERDUE, cue._BALANCE_CLEAR, cue._BALANCE, cue._COMPARE),
    "risk": (cue._RISK, cue._OVERDUE),
    "tickets": (cue._TICKETS,),
    "aging": (cue._AGING, cue._ALL_OVERDUE, cue._OVERDUE, cue._RANK_OWE, cue._OVER_AGE),
    "dso": (cue._DSO, cue._DSO_WINDOW),
    "compare_dso": (cue._DSO, cue._DSO_WINDOW, cue._NOW_VS, cue._COMPARE, cue._CHANGE),
    "revenue": (cue._REVENUE, cue._COMPARE),
    "revenue_change": (cue._REVENUE, cue._CHANGE, cue._YOY, cue._QOQ, cue._BASE_BEFORE, cue._COMPARE, cue._DOWN_WORDS,
                       cue._UP_WORDS),
    "revenue_why": (cue._REVENUE, cue._CHANGE, cue._YOY, cue._WHY, cue._BASE_BEFORE, cue._COMPARE, cue._DOWN_WORDS,
                    cue._UP_WORDS),
    "compare_revenue": (cue._REVENUE, cue._CHANGE, cue._COMPARE),
    "compare_top": (cue._TOP, cue._TOP_LIMIT, cue._TOP_SINGLE, cue._REVENUE, cue._RANK_ASC, cue._CHANGE, cue._COMPARE),
    "revenue_drivers": (cue._DRIVER_ASK, cue._DOWN_WORDS, cue._UP_WORDS, cue._REVENUE, cue._CHANGE, cue._WHY,
                        cue._BASE_BEFORE, cue._TOP_LIMIT),
    "top_customers": (cue._TOP, cue._TOP_LIMIT, cue._TOP_SINGLE, cue._REVENUE, cue._RANK_ASC),
    "invoice": (cue._OVERDUE, cue._PAY, cue._INVOICE_WORDS),
    "open_pos": (cue._PO, cue._PO_CONTEXT),
    "stock": (cue._STOCK, cue._HOW_MANY_HAVE, cue._ON_HAND),
    "supplier_payment": (cue._BANK_CHANGE, cue._SHOULD_PAY, cue._PAY, cue._PAYMENTS),
    "list_customers": (cue._LIST, cue._LIST_LIMIT, cue._COUNTRY, cue._DEMONYM, cue._LIST_SCOPE, cue._IN_COUNTRY),
    "list_suppliers": (cue._LIST_SUPPLIERS,),
    "payables": (cue._PAYABLES, cue._OVERDUE, cue._AGING_STRICT, cue._OVER_AGE, cue._SUPPLIER_DOC),
    "list_items": (cue._LIST_ITEMS,),
    "payments": (cue._PAYMENTS, cue._PAY, cue._DSO),
    "profile": (cue._PROFILE,),
    "ranking": (cue._RANK_OWE, cue._RANK_ASC, cue._RANK_OLDEST, cue._RANK_OPEN, cue._OVERDUE, cue._TOP_LIMIT),
    "revenue_monthly": (cue._MONTHLY, cue._REVENUE, cue._CHANGE),
    "credit_notes": (cue._CREDIT_NOTES, cue._REVENUE),
    "below_reorder": (cue._BELOW_REORDER, cue._STOCK),
    "purchase_order": (cue._PO_NUMBER, cue._PO),
}

# Words an intent uses beyond its cue patterns (they qualify what it answers, and it answers them).
INTENT_WORDS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "risk": "credit creditworthy paying pay payer late assessment assess check review wise doing profile safe keep "
            "delivering deliver ship shipping supply supplying sell selling",
    "aging": "open outstanding total balance days more older than overall just only not late current due yet "
             "including incl",
    "revenue": "net issue issued issuing raised sent send out make made bought buy purchased brought bring received receive got get",
    "credit_notes": "issue issued raised given granted sent",
    "revenue_monthly": "net issue issued",
    "payables": "open unpaid supplier suppliers invoice invoices bill bills due overdue outstanding total ap "
                "received when",
    "profile": "manager owner terms payment country located based city limit credit number responsible days net",
    "tickets": "unresolved pending active open opened support cases case raised complaints complaint issues issue "
               "severity high critical "
               "escalated",
    "dso": "window day days collect collection outstanding sales average take across",
    "compare_dso": "window day days collect collection outstanding sales",
    "open_pos": "open expected pending outstanding placed delivery deliveries arrive arriving arrives due delivered "
                "coming",
    "stock": "level levels left hand units reorder point below enough quantity",
    "supplier_payment": "phone number numbers file verified new asked change changed legitimate legit genuine real "
                        "safe request requested details bank pending changes updated update verify confirmed "
                        "account iban transfer wire email fraud phishing scam suspicious release approve sent",
    "list_customers": "name names named called starting start starts beginning begins containing contains letter "
                      "managed manage manages owned own owns handled handle looked after served",
    "list_suppliers": "name names named called starting start starts beginning begins containing contains letter first",
    "list_items": "name names named called starting start starts beginning begins containing contains letter first stock stocked carry carried keep sell",
    "overdue": "compared compare between ar receivable receivables payments payment days late part stuff",
    "compare_overdue": "compared compare between",
    "revenue_change": "compared compare between up down same period",
    "compare_revenue": "compared compare between",
    "compare_top": "compared compare between",
    "top_customers": "first ascending order sorted",
    "revenue_why": "compared compare between",
    "purchase_order": "expected due arrive arriving arrives delivered received ordered status supplier when",
    "ranking": "payments payment behind with everything open included including incl sorted ascending descending",
    "invoice": "paid settled vat tax days late overdue credit note remaining each customer received",  # a credit note by number: said which it is
    "payments": "paid pay pays paying payment payments late time times average quickly fast usually typically make made "
                "receive received",
}.items()}
INTENT_CUES["breakdown"], INTENT_WORDS["breakdown"] = breakdown.CUES, breakdown.WORDS
INTENT_CUES["combined"], INTENT_WORDS["combined"] = breakdown.CUES, breakdown.WORDS   # measures side by side
GENERAL_WORDS = frozenset("compared compare comparison between against versus".split())

LABELS = {
    "overdue": "what a customer owes overdue", "compare_overdue": "what customers owe overdue",
    "risk": "a customer's risk facts", "tickets": "a customer's open support tickets", "aging": "the receivables aging",
    "dso": "days sales outstanding", "compare_dso": "days sales outstanding", "revenue": "revenue of a period",
    "revenue_change": "how revenue changed", "revenue_why": "what drove a revenue change",
    "compare_revenue": "revenue of each period", "compare_top": "the top customers of each period",
    "revenue_drivers": "which customers changed revenue most",
    "top_customers": "the top customers by revenue", "invoice": "one invoice", "open_pos": "open purchase orders",
    "stock": "an item's stock", "supplier_payment": "the facts about paying a supplier",
    "list_customers": "a list of customers", "list_suppliers": "a list of suppliers", "list_items": "a list of items",
    "payables": "what we owe suppliers",
    "payments": "what a customer paid and how fast",
    "profile": "a customer's profile", "ranking": "customers ranked by what they owe",
    "revenue_monthly": "revenue by month", "credit_notes": "the credit notes of a period",
    "below_reorder": "the items below their reorder level", "purchase_order": "one purchase order",
    "breakdown": breakdown.LABEL,
}

# Keywords a typo may be corrected to (the words the cue patterns are written in).
KEYWORDS = frozenset("""
revenue revenues customer customers invoice invoices overdue outstanding receivable receivables receivables
tickets ticket supplier suppliers payment payments purchase orders inventory quarter average customers
turnover balance aging ageing profile credit notes monthly ranking largest biggest smallest oldest
""".split())
CORRECTABLE = KEYWORDS | words.ORDINARY
_BY_LENGTH: dict[int, tuple[str, ...]] = {n: tuple(sorted(k for k in CORRECTABLE if abs(len(k) - n) <= 1))
                                          for n in range(1, 1 + max(map(len, CORRECTABLE)) + 1)}
_WORD = re.compile(r"[^\W\d_]{4,}")


def correct_spelling(question: str, directory: Directory) -> tuple[str, dict[str, str]]:
    """The question with keywords typed with one slip (a letter added, dropped, changed or two swapped) corrected;
    words of names and words the router knows stay as they are. Returns the text and the corrections."""
    corrections: dict[str, str] = {}

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        if low in CORRECTABLE or low in cue.VOCABULARY or low in FILLER or directory.knows_word(low):
            return word
        key = _correction(low)
        if key is None:
            return word
        corrections[word] = key
        return key

    return _WORD.sub(fix, question), corrections


@functools.lru_cache(maxsize=4096)
def _correction(low: str) -> str | None:
    """The keyword or ordinary word a word is one slip away from (two letters swapped; for longer words also one
    letter added, dropped or changed), or None."""
    for key in _BY_LENGTH.get(len(low), ()):
        if _swapped(low, key) or (len(low) > 4 and len(key) > 4 and _within_one(low, key)):
            return key
    return None


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters exchanged: recieve / receive."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def unaccounted(q: _Question, r: Route, directory: Directory) -> list[str]:
    """The content words of the question that route r does not use."""
    if r.kind in ("refusal", "clarification"):
        return []
    covered = [False] * len(q.text)

    def cover(start: int, end: int) -> None:
        for i in range(max(0, start), min(len(covered), end)):
            covered[i] = True

    used = " ".join(str(v) for c in r.calls for v in c.arguments.values())
    out: list[str] = []
    for i, ch in enumerate(q.pre):         # invoice numbers, SKUs and customer numbers the reading blanked
        if ch == " " and q.low[i] != " ":
            covered[i] = True
    times: list[PeriodMention | DateMention] = [*q.time.periods, *q.time.dates]
    windows = {str(c.arguments["window_days"]) for c in r.calls if "window_days" in c.arguments}
    for when in times:                     # a period or day counts only when a call uses it
        window = _WINDOW.search(when.phrase)    # "DSO, rolling 90 days": the window DSO is computed over
        if window and window.group(1) in windows:
            cover(when.start, when.end)
            continue
        if not _time_used(when, used, q.cal.as_of):
            out.append(when.phrase)
        cover(when.start, when.end)          # named once, as a phrase
    for i, ch in enumerate(q.masked):      # the rest of what the period reading blanked (no period of its own)
        if ch == " " and q.pre[i] != " " and not any(w.start <= i < w.end for w in times):
            covered[i] = True
    for pattern in INTENT_CUES.get(r.intent, ()):
        for found in pattern.finditer(q.masked):
            cover(found.start(), found.end())
    beside: list[tuple[int, int, frozenset[str]]] = []     # the used names: their spans and words
    for mentions in q.found.values():      # a name counts only when a call uses it (typos and short forms too)
        for name in mentions:
            if any(c in used for c in name.candidates) or name.typed in used:
                cover(name.start, name.end)
                beside.append((name.start, name.end, frozenset(
                    fold(t.text) for c in name.candidates if c in used for t in _tokens(c))))
    words = INTENT_WORDS.get(r.intent, frozenset()) | GENERAL_WORDS
    used_words = {fold(t.text) for t in _tokens(used)}
    for tok in q.tokens:
        if all(covered[tok.start:tok.end]) or tok.fold in FILLER or tok.fold in used_words or tok.fold.isdigit() \
                or tok.fold in words:
            continue
        if r.intent == "stock" and directory.item_index.match([tok.fold])[0]:
            continue           # a word of the item (typos within one letter, plurals)
        if directory.knows_word(tok.fold) and tok.fold not in cue.VOCABULARY:
            continue           # a word of a name of the directory (a name the route passed on, or its legal form)
        if any((0 <= tok.start - end <= 2 or 0 <= start - tok.end <= 2)
               and any(_within_one(tok.fold, w) or _swapped(tok.fold, w) for w in named if len(w) >= 4)
               for start, end, named in beside):
            continue           # "nowak stall": a word of the name beside it, typed with one slip
        out.append(tok.text)
    return out


_WINDOW = re.compile(r"^(?:(?:in|over|for|during)\s+)?(?:the\s+)?(?:last|past|trailing|rolling)\s+(\d{1,4})\s+days$",
                     re.IGNORECASE)


def _time_used(when: PeriodMention | DateMention, used: str, as_of: dt.date) -> bool:
    """Whether the calls use a period or day the question names: as itself, as its last day (an as-of day), as
    the start of a range, or as the fiscal year of a calendar year; a day only as itself or as the reference day."""
    if isinstance(when, DateMention):
        return when.day == as_of or when.day.isoformat() in used
    p = when.period
    short = p.kind == "range" and (p.end() - p.start()).days <= 6 and p.end() < as_of   # a past day or week
    forms = {p.catalog(), f"{p.start().isoformat()}.."} | (
        {p.end().isoformat()} if p.kind != "range" or short else set())
    if p.kind == "year":
        forms.add(f"FY{p.year}")
    if p.kind != "range":
        forms.add(p.next_year().catalog())     # "expected in September": the coming one
    elif p.first is not None and (p.first.month, p.first.day) != (2, 29):
        forms.add(f"{p.first.replace(year=p.first.year + 1).isoformat()}..")   # "expected 1 to 15 September"
    if when.last_year:                         # "Q2 vs last year": Q2 of last year
        forms |= {f"{p.start().year}-", f"{p.end().year}-"}
    return any(f in used for f in forms)


def check(q: _Question, r: Route, directory: Directory) -> Route:
    """r, or a refusal that names the part of the question r would leave unanswered."""
    left = unaccounted(q, r, directory)
    if not left:
        return r
    named = [f"“{w}”" for w in dict.fromkeys(left) if not any(c.isdigit() for c in w)]
    if len(named) < len(set(left)):
        named.append("a period or number it names")      # a message holds no digit
    words = ", ".join(named)
    label = LABELS.get(r.intent, "part of this")
    return Route(kind="refusal", intent="not_covered", reason="not_covered",
                 message=f"I can give {label}, but no operation answers what {words} asks for, so I will not "
                         "answer only part of the question.",
                 notes={"rule": "coverage", "unanswered": ", ".join(dict.fromkeys(left)), "would_answer": r.intent})

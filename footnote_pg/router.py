"""The question router: a question -> catalog calls, a clarification or a refusal.

Deterministic rules, no model, no network: ``route(question, directory,
settings)`` returns a :class:`Route` that names the catalog operations to call
with typed, JSON-ready arguments, or asks one clarifying question whose options
are complete questions that route to an answer, or refuses with a reason. The
router never computes or states a figure; its messages contain no digit.

Names are matched against a :class:`Directory` of the real customers,
suppliers and items, folded (case, accents, ``ß``), without legal forms, in any
word order, within one typo of a distinctive word. A name the directory does
not know is still passed on when it sits where a name belongs: the catalog
resolves names authoritatively and rejects unknown ones with real alternatives.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from footnote_pg import periods
from footnote_pg.periods import Calendar, Period, TimeInfo

if TYPE_CHECKING:
    from footnote_pg.client import Footnote

__all__ = ["Call", "Directory", "Route", "RouterSettings", "route"]


# =========================================================================== interface

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


@dataclass(frozen=True)
class Directory:
    """The names the router matches: customers, suppliers and items (sku, name)."""

    customers: tuple[str, ...]
    suppliers: tuple[str, ...]
    items: tuple[tuple[str, str], ...]

    @classmethod
    def load(cls, fn: Footnote) -> Directory:
        def texts(operation: str, column: str) -> list[str]:
            rows = fn.call(operation, limit=1000).rows
            return [r[column].text or "" for r in rows]

        items = fn.call("list_items", limit=1000).rows
        return cls(
            customers=tuple(n for n in texts("list_customers", "name") if n),
            suppliers=tuple(n for n in texts("list_suppliers", "name") if n),
            items=tuple((r["sku"].text or "", r["name"].text or "")
                        for r in items if r["name"].text),
        )

    @cached_property
    def customer_index(self) -> _NameIndex:
        return _NameIndex(self.customers)

    @cached_property
    def supplier_index(self) -> _NameIndex:
        return _NameIndex(self.suppliers)

    @cached_property
    def item_index(self) -> _ItemIndex:
        return _ItemIndex(self.items)


INTENT_KIND = {
    "overdue": "figure", "risk": "interpretation", "tickets": "list", "aging": "list",
    "dso": "figure", "revenue": "figure", "revenue_change": "change",
    "revenue_why": "interpretation", "top_customers": "list", "compare_overdue": "comparison",
    "compare_revenue": "comparison", "invoice": "lookup", "open_pos": "list", "stock": "figure",
    "supplier_payment": "decision", "list_customers": "list",
}

_REFUSAL_MESSAGES = {
    "forecast": "I only report figures that are already recorded and do not forecast future ones.",
    "advice": "I can show the recorded facts behind a decision, but I do not give advice on it.",
    "currency_conversion": "I report amounts only in the currency they are recorded in and do "
                           "not convert them.",
    "instruction": "I only answer questions about the recorded data and do not follow "
                   "instructions to change how I work.",
    "database_command": "I only read recorded data and never run commands that change it.",
    "not_covered": "None of the available operations answers this question.",
}
_KIND_NOUN = {"customer": ("customer", "customers"), "supplier": ("supplier", "suppliers"),
              "item": ("item", "items")}


# =========================================================================== folding, tokens

_FOLD_MAP = str.maketrans({
    "ß": "ss", "ẞ": "ss", "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae",
    "œ": "oe", "Œ": "oe", "đ": "d", "Đ": "d", "þ": "th", "Þ": "th", "ı": "i",
})
_TRANSLIT_MAP = str.maketrans({
    "ä": "ae", "Ä": "ae", "ö": "oe", "Ö": "oe", "ü": "ue", "Ü": "ue", "ø": "oe", "Ø": "oe",
    "å": "aa", "Å": "aa",
})
_TOKEN = re.compile(r"[^\W_]+")
_SPLIT_DIM = re.compile(r"(?<=\d)x(?=\d)")


def fold(text: str) -> str:
    """Lower case without accents: ``Müller`` -> ``muller``, ``Weiß`` -> ``weiss``."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD_MAP))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _variants(token: str) -> set[str]:
    """The folded token and its German/Nordic transliteration (``Müller`` -> ``mueller``)."""
    out = {fold(token)}
    if not token.isascii():
        out.add(fold(token.translate(_TRANSLIT_MAP)))
    return out


@dataclass(frozen=True)
class _Tok:
    text: str
    fold: str
    start: int
    end: int


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        word = m.group(0)
        if word in ("s", "S") and m.start() > 0 and text[m.start() - 1] == "'":
            continue                                      # possessive 's
        out.append(_Tok(word, fold(word), m.start(), m.end()))
    return out


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _within_one(a: str, b: str) -> bool:
    """One insertion, deletion or substitution apart (or equal)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


# Legal forms, stripped from directory names and skipped after a name in a question.
_LEGAL = (r"(?:gmbh\s*&\s*co\.?\s*kg|gmbh|ag|kg|ohg|e\.?\s?k\.?|s\.?a\.?s\.?|sarl|s\.?a\.?r\.?l\.?"
          r"|s\.?r\.?l\.?|s\.?p\.?a\.?|s\.?a\.?|s\.?l\.?|b\.?v\.?|n\.?v\.?|ab|oy|oyj|a/s|aps"
          r"|(?-i:AS)(?!\s+(?:[oO][fF]|[aA][tT])\b)|s\.?r\.?o\.?|a\.?s\.?|sp\.?\s*z\s*o\.?\s*o\.?|sp\.?\s*j\.?|ltd\.?|limited"
          r"|inc\.?|llc|plc|corp\.?|co\.?)")
_LEGAL_TAIL = re.compile(rf"(?:[\s,]+{_LEGAL})+\s*$", re.IGNORECASE)
_LEGAL_AFTER = re.compile(rf"^(?:\s*,?\s*{_LEGAL}(?![\w]))+", re.IGNORECASE)

# Words of a name that identify nothing on their own (trades, connectors, articles).
_GENERIC_NAME_WORDS = frozenset("""
and und et y e de den der van von la le les du des del di da the
logistik logistics logistiikka logistika logistikk logistiek logistyka logistic
transport transports transporte transportes trasporti supply supplies suministros distribution
distribuciones distribuzione bau stal steel elektro electro electricite elettro electric
industrielle industriales industrial industrie industries industry industriebedarf service
services industrieservice partner partners group gruppe holding international trading handel
technik tekniikka teknik techniek technika mecanique meccanica meccaniche emballages emballage
embalajes imballaggi verpakkingen verpackungen packaging costruzioni construction stavby bygg
budownictwo maskin maskinfabrik machines metallwaren metal metaal hydraulik hydraulics agri
meble maison ateliers officine talleres hermanos sohne sons company
""".split())


# =========================================================================== name index

@dataclass(frozen=True)
class _Named:
    name: str
    order: int
    tokens: tuple[str, ...]
    distinctive: frozenset[str]


@dataclass(frozen=True)
class Mention:
    """A name in the question: the directory records it may mean (or the phrase as typed)."""

    candidates: tuple[str, ...]
    start: int
    end: int
    typed: str
    fuzzy: bool = False
    known: bool = True


class _NameIndex:
    """Names by folded word, with a deletion index for one-typo matches."""

    def __init__(self, names: Sequence[str]) -> None:
        self.entries: list[_Named] = []
        self.exact: dict[str, list[tuple[int, int]]] = {}
        self.deletes: dict[str, set[str]] = {}
        for order, name in enumerate(names):
            core = _LEGAL_TAIL.sub("", name) or name
            words = _TOKEN.findall(core)
            folded = tuple(fold(w) for w in words)
            distinctive = (frozenset(t for t in folded if t not in _GENERIC_NAME_WORDS)
                           or frozenset(folded))
            self.entries.append(_Named(name, order, folded, distinctive))
            for ti, word in enumerate(words):
                for v in _variants(word):
                    self.exact.setdefault(v, []).append((order, ti))
                    if len(v) >= 5:
                        for key in _deletions(v) | {v}:
                            self.deletes.setdefault(key, set()).add(v)

    def lookup(self, word: str, fuzzy: bool) -> tuple[list[tuple[int, int]], bool]:
        hits = self.exact.get(word)
        if hits:
            return hits, False
        if not fuzzy or len(word) < 4:
            return [], False
        found: set[str] = set()
        for key in _deletions(word) | {word}:
            for cand in self.deletes.get(key, ()):
                if cand not in found and _within_one(word, cand):
                    found.add(cand)
        out: list[tuple[int, int]] = []
        for cand in sorted(found):
            out.extend(self.exact[cand])
        return out, bool(out)

    def find(self, q: _Question) -> list[Mention]:
        """Every name mentioned in the question, best reading per place, ties kept as candidates."""
        cached = q.found.get(id(self))
        if cached is None:
            cached = q.found[id(self)] = self._find(q)
        return list(cached)

    def _find(self, q: _Question) -> list[Mention]:
        per_entry: dict[int, list[tuple[int, int, bool]]] = {}
        for pos, tok in enumerate(q.tokens):
            if q.consumed(tok):
                continue
            may_fuzz = tok.fold not in VOCABULARY and not tok.fold.isdigit()
            found, fuzzy = self.lookup(tok.fold, may_fuzz)
            for entry, ti in found:
                per_entry.setdefault(entry, []).append((pos, ti, fuzzy))
        clusters: list[tuple[tuple[int, int, int], int, tuple[int, ...], bool]] = []
        for entry, hits in per_entry.items():
            named = self.entries[entry]
            for group in _groups(sorted(hits)):
                matched = {ti for _, ti, _ in group}
                if not any(named.tokens[ti] in named.distinctive for ti in matched):
                    continue
                exact = len({ti for _, ti, fz in group if not fz})
                full = int(len(matched) == len(set(named.tokens)))
                positions = tuple(sorted({p for p, _, _ in group}))
                fuzzy_used = any(f for *_, f in group)
                clusters.append(((len(matched), exact, full), entry, positions, fuzzy_used))
        clusters.sort(key=lambda c: (-c[0][0], -c[0][1], -c[0][2], c[2][0], c[1]))
        chosen: list[tuple[tuple[int, int, int], set[int], list[int], bool]] = []
        for score, entry, positions, fuzzy in clusters:
            pos_set = set(positions)
            for c_score, c_pos, c_entries, _ in chosen:
                if c_pos & pos_set:
                    if c_score == score and entry not in c_entries:
                        c_entries.append(entry)
                        c_pos |= pos_set
                    break
            else:
                chosen.append((score, pos_set, [entry], fuzzy))
        mentions: list[Mention] = []
        for _, pos_set, entries, fuzzy in chosen:
            start = q.tokens[min(pos_set)].start
            end = q.tokens[max(pos_set)].end
            tail = _LEGAL_AFTER.match(q.text[end:])
            if tail:
                end += tail.end()
            names = tuple(self.entries[e].name for e in sorted(entries))
            mentions.append(Mention(names, start, end, q.text[start:end], fuzzy))
        mentions.sort(key=lambda m: m.start)
        return mentions


def _groups(hits: list[tuple[int, int, bool]]) -> Iterable[list[tuple[int, int, bool]]]:
    """Split matched words into mentions: apart by more than two words, or a name word repeated."""
    group: list[tuple[int, int, bool]] = []
    seen: set[int] = set()
    for hit in hits:
        if group and (hit[0] - group[-1][0] > 2 or (hit[1] in seen and hit[0] != group[-1][0])):
            yield group
            group = []
            seen = set()
        group.append(hit)
        seen.add(hit[1])
    if group:
        yield group


# =========================================================================== items

_ITEM_GENERIC = frozenset("""
box of pack pc pcs piece pieces mm m kg l x size roll set din iso en with and the a blue black
white yellow clear grey brown natural spool
""".split())
_ITEM_STOP = frozenset("""
how many much do does we have has got hold carry in stock of the what is are our level levels
left on quantity quantities available inventory there units unit currently right now enough any
below above under reorder point sku show me tell give check a an for at warehouse warehouses
stocked out low running short i us it its still total sum number count amount whats much
please remaining current status which
""".split())


def _stem(word: str) -> str:
    if len(word) > 3:
        if word.endswith(("ches", "shes", "xes", "sses")):
            return word[:-2]
        if word.endswith("ies") and len(word) > 4:
            return word[:-3] + "y"
        if word.endswith("s") and not word.endswith(("ss", "us")):
            return word[:-1]
    return word


class _ItemIndex:
    def __init__(self, items: Sequence[tuple[str, str]]) -> None:
        self.items = list(items)
        self.exact: dict[str, set[int]] = {}
        self.deletes: dict[str, set[str]] = {}
        for i, (_sku, name) in enumerate(items):
            for word in _TOKEN.findall(name):
                for part in {fold(word), *_SPLIT_DIM.split(fold(word))}:
                    stem = _stem(part)
                    self.exact.setdefault(stem, set()).add(i)
                    if len(stem) >= 5 and not stem.isdigit():
                        for key in _deletions(stem) | {stem}:
                            self.deletes.setdefault(key, set()).add(stem)

    def match(self, words: Sequence[str]) -> tuple[list[int], bool]:
        """Items that contain the most of the words (each within one typo); tied items all."""
        score: dict[int, int] = {}
        fuzzy_used = False
        for word in dict.fromkeys(_stem(w) for w in words):
            if word in _ITEM_GENERIC:
                continue
            hits = self.exact.get(word)
            if hits is None and len(word) >= 5 and not word.isdigit():
                found = {c for k in _deletions(word) | {word}
                         for c in self.deletes.get(k, ()) if _within_one(word, c)}
                hits = set().union(*(self.exact[c] for c in found)) if found else None
                fuzzy_used = fuzzy_used or bool(hits)
            for i in hits or ():
                score[i] = score.get(i, 0) + 1
        if not score:
            return [], False
        best = max(score.values())
        return sorted(i for i, s in score.items() if s == best), fuzzy_used


# =========================================================================== vocabulary

# Words that are never part of a name the user typed (question words, intent words, periods).
VOCABULARY = frozenset("""
a an the this that these those of in on at for from to by with about as and or but vs versus via
per is are was were be been being am do does did doing done have has had having will would can
could should shall may might must i me my we us our ours you your it its they them their theirs
he she his her him who whom whose what whats which when where why how much many any some all
each every no not yes please pls kindly thanks thank hi hello hey tell show give list display
get find check look see know let lets want need like just also still yet already again
currently current now today right total overall amount amounts money sum number numbers figure
figures value level status info information detail details report summary overview breakdown
exactly approximately roughly around more most less least than over under between across into
out up down off so far since until till through during within there here then there's
owe owes owed owing outstanding open balance balances unpaid past due overdue arrears behind
late payment payments pay paid paying payer payers debt debts receivable receivables ar
accounts account aging ageing aged bucket buckets dso days day sales sale revenue revenues
turnover income invoiced invoice invoices billed bill billing earned earn earnings made make
sell sold grow grew growth grown rise rose risen increase increased decrease decreased drop
dropped fall fell fallen decline declined change changed changes compare compared comparison
difference higher lower better worse drove drive driven caused cause causes reason reasons
explain driver drivers risk risky riskiness worry worried concern concerned concerning trouble
credit creditworthy creditworthiness ticket tickets support case cases complaint complaints
issue issues incident incidents request requests top biggest largest best highest customers
customer client clients company companies firm supplier suppliers vendor vendors item items
stock inventory hand units left quantity sku purchase order orders po pos pending bank iban
legitimate legit safe real genuine new transfer wire quarter quarters month months year years
fiscal fy calendar ytd week weeks date end close start beginning first last previous prior
next yesterday tomorrow q1 q2 q3 q4 h1 h2 half
january february march april june july august september october november december jan feb mar
apr jun jul aug sep sept oct nov dec
one two three four five six seven eight nine ten twenty
again ok okay mean means meant regarding re entire whole full currently anything something
everything nothing money euros euro eur cash flow profit profits margin margins net gross
named called containing contains contain starting start starts begin begins beginning name
names letter letters ranked rank ranking by much long quickly fast take takes collect
collected collection terms term average window sorted sort order ordered
high severity critical severe escalated escalation
risky healthy reliable trustworthy danger red flag flags warning signs health
date dates today's recently lately
""".split())

_ARTICLES = frozenset({"the", "our", "a", "an", "my"})
# Words after which a name can follow ("does X owe", "for X", "is X at risk").
_SLOT_BEFORE = frozenset("""
does do did is are was were for of from by with about to at on has have customer client supplier
vendor and or vs versus than pay paying between compare owes owe named called
""".split())
# The narrower set for questions where a name is optional ("revenue from X", "open POs with X").
_SLOT_PREP = frozenset("for of from by with to at and or vs versus than between named called"
                       .split())


# =========================================================================== patterns

def _rx(pattern: str) -> re.Pattern[str]:
    """A pattern for the lower-cased question (IGNORECASE would make every search slower)."""
    return re.compile(pattern)


def _rxi(pattern: str) -> re.Pattern[str]:
    """A pattern for the question as typed."""
    return re.compile(pattern, re.IGNORECASE)


_INSTRUCTION = _rx(
    r"\b(?:ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(?:instructions?|rules?|prompts?"
    r"|guidelines?|guardrails?|constraints?|restrictions?|directives?|checks?|citations?)\b"
    r"|\byou\s+are\s+(?:now|no\s+longer)\b|\bact\s+as\b|\bpretend\s+(?:to\s+be|you\s+are|that)\b"
    r"|\bsystem\s+prompt\b|\b(?:reveal|show|print|repeat|output|leak)\b.{0,30}\b(?:prompt|instructions"
    r"|configuration|hidden\s+rules|secrets?|passwords?|credentials?)\b|\bjailbreak|\bdeveloper\s+mode"
    r"|\bdan\s+mode|\bfrom\s+now\s+on\b|\bnew\s+instructions?\b|\bdo\s+anything\s+now\b"
    r"|\brole[\s-]?play\b|\bmake\s+up\s+(?:a\s+)?(?:number|figure|answer)|\binvent\s+(?:a\s+)?"
    r"(?:number|figure)|\bjust\s+(?:guess|make\s+it\s+up)\b|\bwithout\s+(?:any\s+)?(?:citations?"
    r"|sources?|evidence)\b")
_DATABASE = _rx(
    r"\b(?:(?:drop|truncate)\s+(?:table|schema|database|view|role|user|function|index|sequence)\b"
    r"|truncate\b|delete\s+from\b|update\s+[\w.\"]+\s+set\b|insert\s+into\b"
    r"|alter\s+(?:table|role|user|database|schema|system)\b"
    r"|create\s+(?:table|role|user|function|database|schema|index|view)\b"
    r"|grant\s+\w+(?:\s*,\s*\w+)*\s+on\b|revoke\b"
    r"|select\s+(?:\*|[\w.()*]+(?:\s*,\s*[\w.()*]+)*)\s+from\s+\w|copy\s+\w+\s+(?:to|from)\b"
    r"|pg_\w+\s*\(|execute\s+\w|or\s+'?1'?\s*=\s*'?1\b"
    r"|(?:change|set|update|edit|modify|raise|lower)\s+(?:the\s+|their\s+|its\s+)?(?:due\s+date"
    r"|credit\s+limit|payment\s+terms|amount|status|iban|bank\s+details)\s+(?:of|for|on|to)\b)"
    r"|;\s*--")
# An imperative to change data, at the start of a sentence ("Delete invoice 8812").
_COMMAND = _rx(
    r"(?:^|[.;!?]\s+)(?:please\s+)?(?:delete|remove|erase|wipe|purge|drop|modify|overwrite|mark|void"
    r"|insert|create|rename|reset|edit|update|set|change|cancel)\b"
    r"(?!\s+(?:in|of|on|me|to|over|between)\b)")
_CURRENCY = _rx(
    r"\b(?:(?:in|into|to|as)\s+(?:us\s+|american\s+|canadian\s+|australian\s+)?(?:dollars?|usd|gbp"
    r"|chf|jpy|cny|sek|dkk|nok|pln|czk|huf|yen|yuan|pounds?(?:\s+sterling)?|sterling|swiss\s+francs?"
    r"|francs?|zloty|korun[ay]?|kron(?:or|er|a|e)|crowns?|bitcoin|btc|rupees?|inr)\b"
    r"|convert(?:ed|ing)?\b|exchange\s+rates?\b|usd\b|gbp\b|fx\s+rates?\b)|\$")
_FORECAST = _rx(
    r"\bwill\b(?!\s+you\b)|\b(?:going|gonna)\s+to\s+\w+|\bgonna\b|\bforecast|\bpredict|\bprojection"
    r"|\bproject(?:ed)?\s+(?:revenue|sales)|\bexpect(?:ed|ing|s)?\b|\bestimat|\boutlook\b|\banticipat"
    r"|\bbudget|\blikely\s+to\b|\bin\s+the\s+future\b")
_ADVICE = _rx(
    r"\bshould\s+(?:we|i|you|the\s+company)\b|\bsue\b|\bsuing\b|\blawsuit|\blegal\s+action|\bcourt\b"
    r"|\bfire\b|\blay\s*off|\bhire\b|\brecommend|\badvi[cs]e|\bstrateg|\bwhat\s+(?:should|would|do)"
    r"\s+(?:we|i|you)\s+(?:do|suggest|recommend)|\bhow\s+(?:can|could|should|do)\s+(?:we|i)\s+"
    r"(?:improve|increase|grow|boost|reduce|cut|get|fix|collect|make|win|keep)|\bis\s+it\s+(?:a\s+)?"
    r"(?:good|bad|wise|smart)\s+(?:idea|move)|\bwrite\s+(?:it\s+|them\s+)?off|\bnegotiat"
    r"|\bcut\s+(?:them\s+|it\s+)?off\b|\bstop\s+(?:delivering|supplying|selling|shipping|working)"
    r"|\bcollections?\s+agency|\bbest\s+way\s+to|\bopinion\b|\bwhat\s+do\s+you\s+think")
_SHOULD_FINE = _rx(r"\bshould\s+(?:we|i)\s+(?:still\s+|really\s+)?(?:pay|approve|accept|trust"
                   r"|worry|be\s+(?:worried|concerned|careful|nervous)|be\s+paying)\b")
_NOT_COVERED = _rx(
    r"\b(?:salary|salaries|payroll|wages?|weather|employees?|headcount|staff|ceo|cfo|coo"
    r"|stock\s+(?:price|market)|share\s+price|shares|dividends?|vat|tax(?:es)?|interest\s+rates?"
    r"|competitors?|market\s+share|news|joke|poem|recipe|capital\s+of|costs?|expenses?|spend(?:ing)?"
    r"|bank\s+balance|cash\s+(?:in\s+the\s+bank|on\s+hand|at\s+bank)|credit\s+limits?)\b")
_PO_CONTEXT = _rx(r"\b(?:purchase\s+orders?|p\.?o\.?s?|deliver(?:y|ies)|orders?)\b")

_INVOICE_NO = _rx(r"\binv[\s-]?((?:19|20)\d\d)[\s-](\d{3,7})\b")
_INVOICE_BARE = _rx(r"\binvoices?\s*(?:number|no\.?|nr\.?|num\.?|#)?\s*#?\s*(\d{3,8})\b")
_INVOICE_URI = _rx(r"\berp://invoice/\d+")
_SKU = _rx(r"\bsku[\s#:-]*(\d{3,8})\b")
_CUSTOMER_REF = _rx(r"\b(c-\d{3,8})\b|\bcustomer\s+(?:number\s+|no\.?\s*|#\s*|id\s+)(\d{3,8})\b")

_STOCK = _rx(
    r"\bin\s+stock\b|\bstock(?:s|ed)?\b|\binventory\b|\bon\s+hand\b|\bre-?order\s+(?:level|point)"
    r"|\bout\s+of\s+stock|\brunning\s+(?:low|out)\b|\b(?:low|short)\s+on\b")
_HOW_MANY_HAVE = _rx(r"\bhow\s+(?:many|much)\b.+\b(?:do|have|did)\s+we\s+(?:have|got|hold|carry)\b"
                     r"|\bdo\s+we\s+(?:still\s+)?have\s+(?:enough|any)\b")
_BANK_CHANGE = _rx(
    r"\bbank\s+(?:details?|accounts?|change|data|information|info)\b|\biban\b|\bnew\s+(?:bank\s+)?"
    r"account\b|\baccount\s+(?:change|details?|number)\b|\bchange\s+(?:of|in|to)\s+(?:their\s+)?bank"
    r"|\blegit(?:imate)?\b|\bgenuine\b|\bfraud|\bphishing\b|\bscam\b|\bsuspicious\b|\bauthentic"
    r"|\bchange\s+request\b|\bpayment\s+details\b")
_PAY = _rx(r"\b(?:pay|paying|paid|payments?|remit|wire|transfer)\b")
_SHOULD_PAY = _rx(r"\b(?:should|can|could|may|do)\s+(?:we|i)\s+(?:still\s+)?pay\b"
                  r"|\b(?:safe|ok|okay|fine|alright)\s+to\s+pay\b|\bpay(?:ing)?\s+the\s+new\b")
_PO = _rx(r"\bpurchase\s+orders?\b|\bp\.?o\.?s?\b|\bopen\s+orders?\b|\borders?\s+(?:from|with|to|"
          r"placed\s+with)\s+(?:our\s+)?(?:suppliers?|vendors?)?|\b(?:incoming|pending|outstanding"
          r"|expected)\s+deliveries\b|\bon\s+order\b|\bwhat\s+(?:have|did)\s+we\s+order")
_DSO = _rx(
    r"\bdso\b|\bdays?[\s-]+(?:of\s+)?sales?[\s-]+outstanding\b|\bhow\s+(?:long|quickly|fast|many\s+days)"
    r"\s+(?:does\s+it\s+take\s+(?:for\s+)?|do\s+|does\s+|are\s+)?(?:our\s+)?(?:customers?|clients?|we)"
    r"\s+(?:take\s+to\s+|to\s+)?(?:pay|get\s+paid|collect)|\b(?:average\s+)?collection\s+(?:period|time"
    r"|days)\b|\baverage\s+days\s+to\s+(?:pay|collect)\b|\bdays\s+to\s+(?:collect|get\s+paid)\b")
_DSO_WINDOW = _rx(r"\b(\d{1,4})[\s-]*days?\b(?!\s+(?:sales|of\s+sales))"
                  r"|\bwindow\s+of\s+(\d{1,4})\b")
_AGING = _rx(
    r"\bag(?:e)?ing\b|\baged\s+(?:debt|debtors|receivables?|balances?|invoices?|report)\b"
    r"|\breceivables?\b|\baccounts?\s+receivable\b|\ba/?r\b|\bdebtors?\s+(?:list|report|book|ledger)\b"
    r"|\bopen\s+(?:invoices|items)\b|\bbuckets?\b")
_TICKETS = _rx(
    r"\btickets?\b|\bsupport\s+(?:cases?|requests?|issues?|calls?)\b|\bcomplaints?\b|\bcomplain"
    r"|\bservice\s+(?:requests?|cases?)\b|\bincidents?\b|\bescalations?\b|\bopen\s+issues?\b")
_RISK = _rx(
    r"\bat\s+risk\b|\brisk(?:s|y|ier|iest|iness)?\b|\bworr(?:y|ied|ying)\b|\bconcern(?:ed|ing|s)?\b"
    r"|\bcredit\s*worth(?:y|iness)\b|\bred\s+flags?\b|\bwarning\s+signs?\b|\bin\s+trouble\b"
    r"|\bhealthy\b|\bhealth\s+of\b|\breliable\b|\btrustworthy\b|\b(?:good|bad|slow|poor)\s+payer\b"
    r"|\bdanger|\bpayment\s+terms\b|\baccount\s+(?:owner|manager)\b"
    r"|\bwho\s+(?:looks\s+after|manages)\b")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20, "fifty": 50,
                 "hundred": 100}
_NUM = r"(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|fifty|hundred)"
_WHO = r"(?:customers?|clients?|accounts?|buyers?)"
_TOP = _rx(
    rf"\btop(?:[\s-]+{_NUM})?\s+{_WHO}|\b(?:{_NUM}\s+)?(?:biggest|largest|best|most\s+valuable"
    rf"|highest[\s-]+revenue|leading|most\s+important)\s+(?:{_NUM}\s+)?{_WHO}"
    rf"|\b{_WHO}\s+(?:ranked\s+)?by\s+(?:revenue|sales|turnover)\b"
    rf"|\b(?:revenue|sales|turnover)\s+(?:by|per)\s+{_WHO}|\brank(?:ed|ing)?\s+(?:of\s+)?"
    rf"(?:the\s+|our\s+)?{_WHO}|\b(?:which|what)\s+customers?\s+(?:bought|spent|ordered|generated"
    rf"|brought\s+in)\s+(?:the\s+)?most|\bwho\s+(?:bought|spent|ordered)\s+(?:the\s+)?most")
_TOP_LIMIT = _rx(rf"\btop[\s-]+{_NUM}\b|\b{_NUM}\s+(?:biggest|largest|best|top|most\s+valuable"
                 rf"|highest|leading|most\s+important)\b|\b(?:biggest|largest|best|top)\s+{_NUM}\b")
_TOP_SINGLE = _rx(r"\b(?:the\s+)?(?:top|biggest|largest|best|most\s+valuable|most\s+important)\s+"
                  r"(?:customer|client|account|buyer)\b(?!s)")
_LIST = _rx(
    r"\b(?:list|show|display|give\s+me|get|print|name|enumerate)\s+(?:me\s+)?(?:all\s+|the\s+|our\s+"
    r"|of\s+|first\s+|\d+\s+)*(?:customers?|clients?)\b(?!\s+(?:by|with\s+(?:overdue|open|unpaid|late)|who|that))"
    r"|\ball\s+(?:(?:of\s+)?our\s+|the\s+)?customers\b(?!\s+(?:by|with\s+(?:overdue|open|unpaid)|who|that))"
    r"|\b(?:which|what)\s+customers?\s+(?:names?\s+)?(?:start|begin|are\s+(?:named|called)|have\s+.+"
    r"\s+in\s+(?:the|their)\s+names?|contain|with\s+['\"]?\w+['\"]?\s+in)"
    r"|\bcustomers?\s+(?:starting|beginning|named|called|whose\s+names?|with\s+.+\s+in\s+(?:the|their)"
    r"\s+names?)|\bhow\s+many\s+customers\b|\bcustomer\s+(?:list|directory|master)\b"
    r"|\b(?:a|any)\s+customers?\s+(?:called|named)\b|\b(?:which|what)\s+customers\s+do\s+we\s+have"
    r"|\bwho\s+are\s+our\s+customers\b")
_LIST_FILTER = _rxi(
    r"(?:start(?:s|ing)?|begin(?:s|ning)?)\s+with\s+(?:the\s+letter\s+|an?\s+)?['\"]?(.+?)['\"]?\s*[?.!]*$"
    r"|(?:named|called|containing|contains?)\s+['\"]?(.+?)['\"]?\s*[?.!]*$"
    r"|\bwith\s+['\"]?(.+?)['\"]?\s+in\s+(?:the|their)\s+names?")
_LIST_LIMIT = _rx(rf"\b(?:first|top|only)\s+{_NUM}\s+customers\b|\b{_NUM}\s+customers\b")
_LIST_SCOPE = _rx(r"\bcustomers?\s+(?:in|from|based\s+in|located\s+in)\s+[a-z]")

_STRONG_METRIC = _rx(
    r"\b(?:(?:gross|net|operating)\s+)?(?:profits?|profitability|margins?|earnings|ebitda?|ebit"
    r"|net\s+income|p\s*&\s*l|bottom\s+line)\b|\bcash[\s-]?flows?\b|\bcash\s+position\b"
    r"|\bliquidity\b|\bworking\s+capital\b")
_CASH_METRIC = _rx(r"\bcash[\s-]?flows?\b|\bcash\s+position\b|\bliquidity\b|\bworking\s+capital\b")
_WEAK_METRIC = _rx(r"\b(?:income|made|make|earn(?:ed)?|performance"
                   r"|how\s+(?:are|did|were)\s+we\s+do(?:ing)?|how\s+is\s+business"
                   r"|how\s+(?:are|were)\s+things)\b")
_REVENUE = _rx(
    r"\brevenues?\b|\bsales\b|\bturnover\b|\binvoiced\b|\binvoicing\b|\bbilled\b|\bbilling\b"
    r"|\btop\s+line\b|\b(?:how\s+much|what)\s+(?:did|have|do)\s+we\s+(?:invoice|bill|sell)\b"
    r"|\bsold\b"
    r"|\bhow\s+much\s+did\s+\S+(?:\s+\S+){0,4}\s+buy\b")
_CHANGE = _rx(
    r"\b(?:chang(?:e|ed|es|ing)|(?:go|goes|gone|going|went)\s+(?:up|down)|ris(?:e|es|en|ing)|rose"
    r"|increas(?:e|ed|es|ing)|gr(?:ow|ows|own|owing|ew|owth)|drop(?:ped|s|ping)?|fall(?:en|s|ing)?"
    r"|fell|declin(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|shr(?:ink|ank|unk)|jump(?:ed)?|spiked?"
    r"|dip(?:ped)?|plunged?|slump(?:ed)?|improv(?:e|ed|ement)|worsen(?:ed)?|vs|versus"
    r"|compared?\s+(?:to|with)|comparison\s+(?:to|with)"
    r"|(?:higher|lower|more|less|better|worse|bigger|smaller)\b.{0,40}\bthan"
    r"|(?:is|are|was|were)\s+(?:\w+\s+){0,3}(?:up|down)|year[\s-]+(?:over|on)[\s-]+year|yoy|y/y"
    r"|difference|delta|trend|against)\b")
_YOY = _rx(
    r"\byear[\s-]+(?:over|on)[\s-]+year\b|\byoy\b|\by/y\b|\b(?:compared?\s+(?:to|with)|vs\.?|versus|than"
    r"|against)\s+(?:the\s+)?(?:same\s+\w+\s+(?:of\s+)?)?(?:last|previous|prior|a)\s+year\b"
    r"|\bsame\s+(?:period|quarter|month)\s+(?:last|of\s+the\s+previous|of\s+last|a)\s+year\b")
_BASE_BEFORE = _rx(r"(?:compared?\s+(?:to|with)|vs\.?|versus|than|from|since|against)\s+"
                   r"(?:the\s+)?$")
_WHY = _rx(
    r"\bwhy\b|\bwhat\s+(?:drove|drives|caused|causes|explains|is\s+behind|was\s+behind|happened)"
    r"|\bdrivers?\b|\breasons?\s+(?:for|behind)\b|\bexplain|\bhow\s+come\b"
    r"|\bwhich\s+customers?\s+(?:drove|caused|explain)|\bwho\s+(?:drove|caused)")
_COMPARE = _rx(r"\bcompar(?:e|ing|ison)\b|\bboth\b|\bside\s+by\s+side\b|\beach\s+of\b")
_OVERDUE = _rx(
    r"\bowe[sd]?\b|\bowing\b|\boutstanding\b|\bopen\s+balances?\b|\bunpaid\b|\bpast[\s-]+due\b"
    r"|\boverdue\b|\bin\s+arrears\b|\barrears\b|\bbehind\s+(?:on|with)\b|\blate\s+(?:payments?"
    r"|invoices?|payers?)\b|\bpa(?:ys|id)\s+late\b|\bdebts?\b|\bstill\s+(?:to\s+pay|unpaid|due)\b"
    r"|\bamount\s+due\b|\bbalance\s+due\b|\b(?:has|have)n'?t\s+(?:yet\s+)?paid\b|\bnot\s+(?:yet\s+)?"
    r"paid\b|\b(?:yet|left)\s+to\s+pay\b|\bwhat\s+is\s+due\b"
    r"|\b(?:has|have|did)\b[^?.!]{1,60}\b(?:paid|made\s+(?:any\s+)?payments?)\b")
_BALANCE = _rx(r"\bbalances?\b")
_BALANCE_CLEAR = _rx(r"\b(?:open|overdue|outstanding|unpaid|past[\s-]+due)\s+balances?\b"
                     r"|\bbalances?\s+(?:due|overdue|outstanding)\b")
# Questions about many items at once: no operation lists stock across items.
_ALL_ITEMS = _rx(r"\b(?:which|what|all|any|every)\s+(?:of\s+(?:our|the)\s+)?(?:items|products"
                 r"|materials|skus|articles)\b")
_POSSESSIVE_ENTITY = _rx(r"^'s\b|^s'")
_PREP_BEFORE = _rxi(r"(?:\b(?:in|for|during|over|of|from|the)\s+)+$")
_HALF = _rxi(r"\b(?:(first|1st|h1)|(second|2nd|h2))\b")
_YEAR_IN = re.compile(r"\b(?:19|20)\d\d\b")
_NAME_GAP = re.compile(r"[\s&.'-]*")
_JOINED = _rx(r"\b(?:and|or|vs|versus|than)\b")
_ON_HAND = _rx(r"\bon\s+hand\b")
_HOW_MANY = _rx(r"\bhow\s+many\b")


# =========================================================================== the question

@dataclass
class _Question:
    text: str
    low: str
    pre: str                 # low with invoice numbers, SKUs and customer numbers blanked
    masked: str              # pre with days and periods blanked too
    tokens: list[_Tok]
    time: TimeInfo
    cal: Calendar
    invoice: str | None
    sku: str | None
    customer_ref: str | None
    found: dict[int, list[Mention]] = field(default_factory=dict)   # per name index

    def consumed(self, tok: _Tok) -> bool:
        return not self.masked[tok.start:tok.end].strip()

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.masked) is not None


_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _analyse(question: str, settings: RouterSettings) -> _Question:
    text = _SPACES.sub(" ", question.translate(_QUOTES)).strip()
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    pre = low
    invoice = sku = customer_ref = None
    m = _INVOICE_NO.search(pre)
    if m:
        invoice = f"INV-{m.group(1)}-{m.group(2)}"
        pre = _blank(pre, m.start(), m.end())
    else:
        m = _INVOICE_URI.search(pre) or _INVOICE_BARE.search(pre)
        if m:
            invoice = m.group(1) if m.lastindex else m.group(0)
            start = m.start(1) if m.lastindex else m.start()
            pre = _blank(pre, start, m.end())
    m = _SKU.search(pre)
    if m:
        sku = f"SKU-{m.group(1)}"
        pre = _blank(pre, m.start(), m.end())
    m = _CUSTOMER_REF.search(pre)
    if m:
        customer_ref = (m.group(1) or m.group(2)).upper()
        pre = _blank(pre, m.start(1) if m.group(1) else m.start(2), m.end())
    cal = Calendar(settings.as_of, settings.fiscal_year_start_month)
    time = periods.scan(pre, cal, text)
    return _Question(text, low, pre, time.masked, _tokens(text), time, cal, invoice, sku,
                     customer_ref)


# =========================================================================== route helpers

def _refuse(reason: str) -> Route:
    return Route(kind="refusal", intent=reason, reason=reason, message=_REFUSAL_MESSAGES[reason])


def _clarify(reason: str, message: str, options: Sequence[str] = ()) -> Route:
    return Route(kind="clarification", intent=reason, reason=reason, message=message,
                 options=tuple(dict.fromkeys(options)))


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
    for u in sorted(q.time.unclear, key=lambda u: -u.start):
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
    """A run of unknown words where a name belongs: after 'for', 'does', ...; or capitalised."""
    before = [t for t in q.tokens if t.end <= start]
    prev = next((t.fold for t in reversed(before) if t.fold not in _ARTICLES), None)
    if prev in (_SLOT_PREP if strict else _SLOT_BEFORE):
        return True
    if _POSSESSIVE_ENTITY.match(q.text[end:end + 3]):
        return True
    return not strict and (not before or q.text[start].isupper())


def _entities(q: _Question, index: _NameIndex, required: bool) -> list[Mention]:
    """Names from the directory, plus unknown names in a name's place."""
    found = index.find(q)
    for start, end in _leftover_runs(q, found):
        if found and not q.has(_COMPARE) and not _JOINED.search(q.low):
            break
        words = [t.fold for t in q.tokens if start <= t.start < end]
        if all(w in _GENERIC_NAME_WORDS for w in words):
            continue                                  # "the logistics company": no name
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
    mentions = list(q.time.periods)
    cal = q.cal
    if q.has(_YOY) or _YOY.search(q.pre):
        others = [m for m in mentions if not m.last_year]
        if others:
            base = others[0]
            return base.period.year_ago(), base.period, {"period": base.phrase}
        current = cal.current("fy")
        phrase = mentions[0].phrase if mentions else "year over year"
        return current.previous(), current, {"period": phrase}
    if len(mentions) >= 2:
        a, b = mentions[0], mentions[1]
        if a.period.kind != b.period.kind and (a.last_year or b.last_year):
            base = b if a.last_year else a
            return base.period.year_ago(), base.period, {"period": base.phrase}
        first, second = sorted((a, b), key=lambda m: (m.period.start(), m.start))
        notes = {"period_from": first.phrase, "period_to": second.phrase}
        return first.period, second.period, notes
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
    if q.sku:
        return _answer("stock", [_call("stock_on_hand", item=q.sku)])
    text = _ON_HAND.sub(lambda m: " " * len(m.group(0)), q.masked)
    words = [t for t in q.tokens if text[t.start:t.end].strip() and t.fold not in _ITEM_STOP]
    index = directory.item_index
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
    return _answer("stock", [_call("stock_on_hand", item=q.text[words[0].start:words[-1].end])])


def _supplier_route(q: _Question, directory: Directory, intent: str) -> Route:
    mentions = _entities(q, directory.supplier_index, required=intent == "supplier_payment")
    if intent == "open_pos":
        mentions = [m for m in mentions if m.known or _in_slot(q, m.start, m.end, strict=True)]
    if mentions and len(mentions[0].candidates) > 1:
        return _ambiguous(q, mentions[0], "supplier")
    supplier = mentions[0].candidates[0] if mentions else None
    notes = _assumed("supplier", mentions[:1])
    if intent == "open_pos":
        return _answer("open_pos", [_call("open_purchase_orders", supplier=supplier)], notes)
    if supplier is None:
        return _missing("supplier")
    as_of, time_notes = _as_of(q)
    return _answer("supplier_payment",
                   [_call("supplier_payment_facts", supplier=supplier, as_of=as_of)],
                   {**notes, **time_notes})


def _customer_mentions(q: _Question, directory: Directory, required: bool) -> list[Mention]:
    mentions = _entities(q, directory.customer_index, required)
    if q.customer_ref:
        mentions.insert(0, Mention((q.customer_ref,), 0, 0, q.customer_ref, known=False))
    return mentions


def _one_customer(q: _Question, directory: Directory, intent: str, operation: str,
                  required: bool = True) -> Route:
    mentions = _customer_mentions(q, directory, required)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    as_of, notes = _as_of(q)
    if intent == "overdue" and len(mentions) >= 2:
        calls = [_call("customer_overdue", customer=m.candidates[0], as_of=as_of) for m in mentions]
        return _answer("compare_overdue", calls, {**_assumed("customer", mentions), **notes})
    if not mentions:
        if required:
            return _missing("customer")
        customer = None
    else:
        customer = mentions[0].candidates[0]
    return _answer(intent, [_call(operation, customer=customer, as_of=as_of)],
                   {**_assumed("customer", mentions[:1]), **notes})


def _dso_route(q: _Question) -> Route:
    as_of, notes = _as_of(q)
    window = None
    m = _DSO_WINDOW.search(q.pre)
    if m:
        window = int(m.group(1) or m.group(2))
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
    call = _call("top_customers", period=p.period.catalog(), limit=limit)
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
    options: list[str] = []
    for m in mentions[:1]:
        for name in m.candidates:
            options += [f"How much does {name} owe?", f"Show AR aging for {name}"]
    if not options:
        options = ["Show AR aging", "What is our DSO?"]
    return _clarify("ambiguous_metric", "Do you mean the overdue amount or all open receivables?",
                    options)


def _revenue_route(q: _Question, directory: Directory) -> Route:
    mentions = _customer_mentions(q, directory, required=False)
    for m in mentions:
        if len(m.candidates) > 1:
            return _ambiguous(q, m, "customer")
    customers = [m.candidates[0] for m in mentions]
    customer = customers[0] if len(customers) == 1 else None
    notes = _assumed("customer", mentions)
    why, change = q.has(_WHY), q.has(_CHANGE) or _YOY.search(q.pre) is not None
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
    if not q.time.periods:
        return _unclear_period(q)
    p = q.time.periods[0]
    return _answer("revenue", [_call("revenue", period=p.period.catalog(), customer=customer)],
                   {**notes, "period": p.phrase})


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


def _route(question: str, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    q = _analyse(question, settings)
    r = _decide(q, directory)
    if depth < 2:
        r = _settle(r, directory, settings, depth)
    return r


def route(question: str, directory: Directory, settings: RouterSettings) -> Route:
    """Map a question to catalog calls, a clarification or a refusal. Pure and deterministic."""
    return _route(question, directory, settings, 0)

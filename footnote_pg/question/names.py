"""Names in a question: customers, suppliers and items of the directory, and names it does not know.

Names are matched against a :class:`Directory` of the real customers, suppliers
and items, folded (case, accents, ``ß``), without legal forms, in any word order,
within one typo of a distinctive word. A name the directory does not know is
still passed on when it sits where a name belongs: the catalog resolves names
authoritatively and rejects unknown ones with real alternatives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from footnote_pg.question.lexicon import VOCABULARY
from footnote_pg.question.text import _SPLIT_DIM, _TOKEN, _deletions, _variants, _swapped, _within_one, fold

if TYPE_CHECKING:
    from footnote_pg.client import Footnote
    from footnote_pg.question.reading import _Question

@dataclass(frozen=True)
class Directory:
    """The names the router matches: customers, suppliers and items (sku, name)."""

    customers: tuple[str, ...]
    suppliers: tuple[str, ...]
    items: tuple[tuple[str, str], ...]
    owners: tuple[str, ...] = ()

    @classmethod
    def load(cls, fn: Footnote) -> Directory:
        """Every name, from footnote.router_names() (read-only, not written to the call log)."""
        names = fn.router_names()
        return cls(
            customers=tuple(names["customers"]),
            suppliers=tuple(names["suppliers"]),
            items=tuple((sku, name) for sku, name in names["items"]),
            owners=tuple(sorted(names["owners"])),
        )

    @cached_property
    def _name_words(self) -> frozenset[str]:
        words: set[str] = set()
        for name in (*self.customers, *self.suppliers, *(n for _sku, n in self.items), *self.owners):
            for word in _TOKEN.findall(name):
                words |= _variants(word)
        return frozenset(words)

    def knows_word(self, folded: str) -> bool:
        """True when a folded word is a word of some customer, supplier, item or account owner name."""
        return folded in self._name_words

    @cached_property
    def customer_index(self) -> _NameIndex:
        return _NameIndex(self.customers)

    @cached_property
    def supplier_index(self) -> _NameIndex:
        return _NameIndex(self.suppliers)

    @cached_property
    def item_index(self) -> _ItemIndex:
        return _ItemIndex(self.items)


# Legal forms, stripped from directory names and skipped after a name in a question.
_LEGAL = (r"(?:gmbh\s*&\s*co\.?\s*kg|gmbh|ag|kg|ohg|e\.?\s?k\.?|s\.?a\.?s\.?|sarl|s\.?a\.?r\.?l\.?"
          r"|s\.?r\.?l\.?|s\.?p\.?a\.?|s\.?a\.?|s\.?l\.?|b\.?v\.?|n\.?v\.?|ab|oy|oyj|a/s|aps"
          r"|(?-i:AS)(?!\s+(?:[oO][fF]|[aA][tT])\b)|s\.?r\.?o\.?|a\.?s\.?|sp\.?\s*z\s*o\.?\s*o\.?|sp\.?\s*j\.?|ltd\.?|limited"
          r"|inc\.?|llc|plc|corp\.?|co\.?)")
_LEGAL_TAIL = re.compile(rf"(?:[\s,]+{_LEGAL})+\s*$", re.IGNORECASE)
_FORM = re.compile(r"[\s.,]")
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

_SHORT_FORM = 3       # letters a short form of a name's word has at least ("Emb." for Embalajes)
FILLER_WORDS = frozenset("""
the and for from with our your their about what how much many does did show give tell list all any
""".split())

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
        self.prefixes: dict[str, list[tuple[int, int]]] = {}     # "bergm", "emb": short forms of a name's words
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
                    for n in range(_SHORT_FORM, len(v) - 1):
                        if (order, ti) not in self.prefixes.setdefault(v[:n], []):
                            self.prefixes[v[:n]].append((order, ti))

    def lookup(self, word: str, fuzzy: bool) -> tuple[list[tuple[int, int]], bool]:
        hits = self.exact.get(word)
        if hits:
            return hits, False
        if not fuzzy or len(word) < 4:
            return [], False
        found: set[str] = set()
        for key in _deletions(word) | {word}:
            for cand in self.deletes.get(key, ()):
                if cand not in found and (_within_one(word, cand) or _swapped(word, cand)):
                    found.add(cand)
        out: list[tuple[int, int]] = []
        for cand in sorted(found):
            out.extend(self.exact[cand])
        return out, bool(out)

    def short_form(self, word: str) -> list[tuple[int, int]]:
        """The name words a word is the beginning of ("Bergm." for Bergmann, "Emb." for Embalajes)."""
        return [] if word in self.exact else self.prefixes.get(word, [])

    def find(self, q: _Question) -> list[Mention]:
        """Every name mentioned in the question, best reading per place, ties kept as candidates."""
        cached = q.found.get(id(self))
        if cached is None:
            cached = q.found[id(self)] = self._find(q)
        return list(cached)

    def _find(self, q: _Question) -> list[Mention]:
        per_entry: dict[int, list[tuple[int, int, bool]]] = {}
        weak: set[tuple[int, int]] = set()       # (entry, position) of a short form without its dot
        short: set[int] = set()                  # positions of short forms
        joined: dict[int, int] = {}              # "lind quist el teknik": a name's word typed as two
        skip = -1
        for pos, tok in enumerate(q.tokens):
            if q.consumed(tok) or pos == skip:
                continue
            may_fuzz = tok.fold not in VOCABULARY and not tok.fold.isdigit()
            found, fuzzy = self.lookup(tok.fold, may_fuzz)
            if not found and may_fuzz and tok.fold.isalpha() and tok.fold not in FILLER_WORDS \
                    and pos + 1 < len(q.tokens):
                nxt = q.tokens[pos + 1]
                if nxt.fold.isalpha() and nxt.fold not in VOCABULARY and nxt.fold not in FILLER_WORDS \
                        and not q.consumed(nxt) and q.text[tok.end:nxt.start] == " " \
                        and not self.exact.get(nxt.fold) and len(tok.fold) + len(nxt.fold) >= 6:
                    both, fz = self.lookup(tok.fold + nxt.fold, True)
                    if both:
                        found, fuzzy, joined[pos], skip = both, fz, pos + 1, pos + 1
            if not found and may_fuzz and tok.fold.isalpha() and tok.fold not in FILLER_WORDS:
                found, fuzzy = self.short_form(tok.fold), True
                short.add(pos)
                if not q.text.startswith(".", tok.end):
                    weak.update((entry, pos) for entry, _ in found)
            for entry, ti in found:
                per_entry.setdefault(entry, []).append((pos, ti, fuzzy))
        clusters: list[tuple[tuple[int, int, int], int, tuple[int, ...], bool]] = []
        for entry, hits in per_entry.items():
            named = self.entries[entry]
            for group in _groups(sorted(hits)):
                if all((entry, p) in weak for p, _, _ in group):
                    continue                      # a short form without a dot counts only beside the name's words
                matched = {ti for _, ti, _ in group}
                if not any(named.tokens[ti] in named.distinctive for ti in matched):
                    continue
                exact = len({ti for _, ti, fz in group if not fz})
                full = int(len(matched) == len(set(named.tokens)))
                positions = tuple(sorted({p for p, _, _ in group} | {joined[p] for p, _, _ in group if p in joined}))
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
            if max(pos_set) in short and q.text.startswith(".", end):
                end += 1                          # "Bergm.": the dot is the short form's
            tail = _LEGAL_AFTER.match(q.text[end:])
            names = tuple(self.entries[e].name for e in sorted(entries))
            if tail:
                end += tail.end()
                if len(names) > 1:             # "bergmann ag": the Bergmann whose legal form that is
                    form = _FORM.sub("", tail.group(0).lower())
                    named = tuple(n for n in names if (m := _LEGAL_TAIL.search(n)) and _FORM.sub("", m.group(0).lower()) == form)
                    names = named or names
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



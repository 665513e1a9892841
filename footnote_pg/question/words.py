"""The vocabulary kept as data (words.toml): words read as English, filler, ordinary words, other languages, and
what no operation computes.

``read_as(question, directory)`` rewrites the German words and chat shorthand a question mixes in into the
English the rules are written in ("Umsatz 2025" -> "revenue 2025", "KW 32" -> "calendar week 32"); a word of a
customer, supplier or item name stays as typed. ``foreign_language(question)`` names the language of a question
the router does not read. ``not_computed(text)`` is the message for a question no operation answers, saying what
the catalog gives instead.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from footnote_pg.question.text import _TOKEN, fold

if TYPE_CHECKING:
    from footnote_pg.question.names import Directory

_DATA = tomllib.loads((Path(__file__).with_name("words.toml")).read_text(encoding="utf-8"))

FILLER: frozenset[str] = frozenset(_DATA["filler"]["words"].split())
ORDINARY: frozenset[str] = frozenset(_DATA["ordinary"]["words"].split())
NOT_NAMES: frozenset[str] = frozenset(fold(w) for w in _DATA["not_names"]["words"].split())
_GERMAN_NOUN = re.compile(_DATA["not_names"]["german_noun"], re.IGNORECASE)


def never_a_name(words: list[str]) -> bool:
    """True when a run of unknown words is no name: a common noun of the domain, an acronym of a measure, a German
    noun (words.toml [not_names])."""
    return all(w in NOT_NAMES or w in FILLER or (len(w) >= 8 and _GERMAN_NOUN.search(w) is not None) for w in words)
LANGUAGES: dict[str, frozenset[str]] = {lang: frozenset(fold(w) for w in words.split())
                                        for lang, words in _DATA["languages"].items()}
_FOREIGN: frozenset[str] = frozenset().union(*LANGUAGES.values())
READ = ("English", "with the German words of a German ERP such as Umsatz, Rechnung or offene Posten")


@dataclass(frozen=True)
class NotComputed:
    pattern: re.Pattern[str]
    message: str
    customer_only: bool = False
    without_customer: bool = False


NOT_COMPUTED: tuple[NotComputed, ...] = tuple(
    NotComputed(re.compile(entry["pattern"]), entry["message"], bool(entry.get("customer_only")),
                bool(entry.get("without_customer")))
    for entry in _DATA["not_computed"])
_ANY_NOT_COMPUTED = re.compile("|".join(f"(?:{entry.pattern.pattern})" for entry in NOT_COMPUTED))

# each with the words (any of them, lower case) without which it cannot match: the others are not run
_REWRITES = tuple((re.compile(e["pattern"], re.IGNORECASE), e["replace"], tuple(e["when"]))
                  for e in _DATA.get("rewrite", []))
_WHEN: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    (w, tuple(i for i, (_p, _r, when) in enumerate(_REWRITES) if w in when))
    for w in dict.fromkeys(w for _p, _r, when in _REWRITES for w in when))
# The gate words by their first two letters: only those whose first two letters the question holds are looked for.
_WHEN_BY_START: dict[str, tuple[tuple[str, tuple[int, ...]], ...]] = {}
for _w, _ids in _WHEN:
    _WHEN_BY_START[_w[:2]] = (*_WHEN_BY_START.get(_w[:2], ()), (_w, _ids))
_SIGN_GATE = re.compile(r"thank|thx|cheers|regard|best|\bbr\b|\bta\b|tia|\bty\b|danke|gr[uü](?:ß|ss|e)|\blg\b|\bvg\b|mfg|sent\s"
                        r"|appreciat|have\s+a|talk\s+soon|wishes|\n\s*--", re.IGNORECASE)
_GREETING = re.compile(_DATA["letter"]["greeting"], re.IGNORECASE)
_SIGNOFF = re.compile(_DATA["letter"]["signoff"], re.IGNORECASE)
_PURPOSE = re.compile(_DATA["purpose"]["pattern"], re.IGNORECASE)
_PURPOSE_WORD = re.compile(r"\b(?:for|in|before|after)\s+(?:the|my|our|a|an|this|tomorrow's|today's|monday's|next)\s"
                           r"|\b(?:meeting|call|visit)\s+(?:tomorrow|tmrw|today|later|this|next)\b"
                           r"|\b(?:meeting|seeing|visiting|calling)\b"
                           r"|\b(?:frage|anfrage|bitte|question|request)\s+(?:vom|von|from)\s",
                           re.IGNORECASE)
# lower, not casefold: ß stays ß (and is also read as ss: GRÖSSTEN, the Swiss spelling)
_READ_AS: dict[str, str] = {k.lower(): v for k, v in _DATA["read_as"].items()}
_READ_AS.update({k.replace("ß", "ss"): v for k, v in list(_READ_AS.items()) if "ß" in k})
# The words of each key: a question holding all the words of none of the keys is left as it is (the fast path).
_KEYS_OF: dict[str, list[frozenset[str]]] = {}
for _key in _READ_AS:
    _words = frozenset(_TOKEN.findall(_key))
    for _word in _words:
        _KEYS_OF.setdefault(_word, []).append(_words)


def _trie(keys: list[str]) -> str:
    """The keys as one pattern that shares their common beginnings (a long alternation of literals is tried key by
    key at every word); at each letter the longer keys first, as an alternation sorted longest first would."""
    root: dict[str, dict] = {}
    for key in keys:
        node = root
        for ch in key:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(root)


_PHRASE = re.compile(r"(?<![\w#/])(?:" + _trie(list(_READ_AS)) + r")(?![\w/]|-\d)",
                     re.IGNORECASE)  # not the prefix of a number: CN-2026-0003


def unwrapped(question: str) -> str:
    """The question without the greeting, subject label and sign-off of a message around it ("Hi team, ...
    Thanks, Anna"); the question as it is when nothing would be left."""
    text = _GREETING.sub("", question, count=1)
    if _SIGN_GATE.search(text):
        text = _SIGNOFF.sub("", text, count=1)
    return text if text.strip(" \n,.!?") else question


_SUBJECT_LINE = re.compile(r"^\s*(?:subject|betreff|re|aw|fwd?|wg)\s*:[^\n]*\n+(?=\S)", re.IGNORECASE)


def body(question: str) -> str | None:
    """The message under a subject line ("Subject: Overdue Fischer\nHow much ..."), or None."""
    m = _SUBJECT_LINE.match(question)
    return question[m.end():] if m else None


_PARTS: dict[str, str] = {fold(k): v for k, v in _DATA["compound"]["parts"].items()}
_PART = re.compile("(" + "|".join(sorted(map(re.escape, _PARTS), key=len, reverse=True)) + ")")
_ENDING = re.compile(r"(?:en|n|e|s|es|er)?")
_COMPOUND_WORD = re.compile(r"(?<![\w#/-])[^\W\d_]{4,}(?![\w/-])")


def _split(word: str) -> list[str] | None:
    """A folded word made entirely of item parts (a linking s or hyphen, a plural ending): their English."""
    m = _PART.match(word)
    if m is None:
        return None
    read, rest = _PARTS[m.group(1)], word[m.end():]
    if _ENDING.fullmatch(rest):
        return [read]
    for link in ("", "s", "-"):
        if rest.startswith(link) and (tail := _split(rest[len(link):])) is not None:
            return [read, *tail]
    return None


def _compounds(question: str, directory: Directory, changes: dict[str, str]) -> str:
    def swap(m: re.Match[str]) -> str:
        typed = m.group(0)
        folded = fold(typed)
        if folded in _READ_AS or directory.knows_word(folded) or not _PART.match(folded):
            return typed
        parts = _split(folded)
        if parts is None:
            return typed
        changes[typed] = " ".join(parts)
        return changes[typed]

    return _COMPOUND_WORD.sub(swap, question)


def read_as(question: str, directory: Directory) -> tuple[str, dict[str, str]]:
    """The question with the words of read_as replaced (the replacements returned, as typed -> read)."""
    changes: dict[str, str] = {}
    question = _compounds(question, directory, changes)
    low = question.lower()
    due = {i for pair in ({low[j:j + 2] for j in range(len(low))} | set(low)) & _WHEN_BY_START.keys()
           for w, ids in _WHEN_BY_START[pair] if w in low for i in ids}
    for i, (pattern, replace, _when) in enumerate(_REWRITES):
        if i not in due:
            continue
        question = pattern.sub(lambda m, r=replace: changes.setdefault(
            m.group(0), re.sub(r"\s{2,}", " ", m.expand(r))), question)
    if _PURPOSE_WORD.search(question) is not None:
        question = _PURPOSE.sub(lambda m: changes.setdefault(m.group(0), m.group("keep") or "") or "", question)
    present = _KEYS_OF.keys() & set(_TOKEN.findall(question.lower()))
    if not any(k <= present for word in present for k in _KEYS_OF[word]):
        return question, changes

    def swap(m: re.Match[str]) -> str:
        typed = m.group(0)
        words = [w for w in _TOKEN.findall(typed) if not w.isdigit()]
        if words and all(directory.knows_word(fold(w)) for w in words):
            return typed                   # a word of a name ("Bau", "Logistik"), as typed
        read = _READ_AS[typed.lower()]
        changes[typed] = read
        return read

    return _PHRASE.sub(swap, question), changes


def foreign_language(question: str, directory: Directory) -> str | None:
    """The language of a question written in one the router does not read (two or more of its own words, and more
    of them than of anything else that is not a name)."""
    words = [fold(w) for w in _TOKEN.findall(question) if not w.isdigit()]
    if not _FOREIGN.intersection(words):
        return None
    words = [w for w in words if not directory.knows_word(w)]
    if len(words) < 2:
        return None
    for lang, vocabulary in LANGUAGES.items():
        hits = {w for w in words if w in vocabulary}
        if len(hits) >= 2 and 2 * sum(w in vocabulary for w in words) >= len(words):
            return lang
    return None


def foreign_message() -> str:
    return f"I read questions in {READ[0]} ({READ[1]}); please ask in English."


def may_be_not_computed(text: str) -> bool:
    """Whether any pattern of what no operation computes is in the text (before the names are looked up)."""
    return _ANY_NOT_COMPUTED.search(text) is not None


def not_computed(text: str, customer_named: bool, supplier_named: bool) -> str | None:
    """The message for what no operation computes, or None."""
    if _ANY_NOT_COMPUTED.search(text) is None:
        return None
    for entry in NOT_COMPUTED:
        if entry.customer_only and (supplier_named or not customer_named):
            continue
        if entry.without_customer and customer_named:
            continue
        if entry.pattern.search(text):
            return entry.message
    return None

"""Text of a question as the other steps read it: folded words with their spans, edit distance."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

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




def blank(text: str, start: int, end: int) -> str:
    """text with [start, end) replaced by spaces (same length, so spans stay valid)."""
    return text[:start] + " " * (end - start) + text[end:]


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters swapped ("Moreua" for "Moreau")."""
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]

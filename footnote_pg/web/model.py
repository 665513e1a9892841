"""The simulated model of the web demo: a fluent writer that gets the numbers slightly wrong.

A language model asked to phrase an answer tends to write figures that look
right: the same format, the same magnitude, a digit moved or a day off. This
module imitates that deterministically, so the demo (and its tests) can show
what the gate in PostgreSQL says about such an answer.

:func:`model_rewrite` keeps every word of the answer and every claim's call and
evidence, and changes each figure (amounts, counts, days, percentages,
quantities, dates) while keeping its format; names, identifiers such as
``INV-2026-8812``, periods and bucket labels are left as they are. It returns
the rewritten text and the claims the model "asserts", with their new spans.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

# Formats of footnote.format() (sql/02_format.sql), de-DE and en-US.
_AMOUNT_DE = re.compile(r"^(-?)(\d{1,3}(?:\.\d{3})*),(\d{2}) (\S+)$")          # 43.805,00 €
_AMOUNT_EN = re.compile(r"^(-?)([^\d\s-]+)(\d{1,3}(?:,\d{3})*)\.(\d{2})$")       # €43,805.00
_PERCENT = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})*[.,]\d)( ?%)$")                # 12,3 % / 12.3%
_DAYS_INT = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})*) (days?)$")                  # 104 days, 1 day
_DAYS_FRAC = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})*[.,]\d) (days?)$")           # 45,3 days
_COUNT = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})*|\d+)$")                          # 4, 2.400, 2,400
_QUANTITY = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})*[.,]\d{1,3}|\d+[.,]\d{1,3})$")  # 12,5 / 1.250,125
_DATE_DE = re.compile(r"^(\d{2})\.(\d{2})\.(\d{4})$")                               # 02.05.2026
_DATE_EN = re.compile(r"^([A-Z][a-z]+) (\d{1,2}), (\d{4})$")                        # May 2, 2026
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _rotate_digits(digits: str) -> str:
    """Keep the first digit, rotate the others right by one: 43805 -> 45380, 123 -> 132."""
    if len(digits) == 1:
        return str(int(digits) + 1) if digits != "9" else "8"
    head, rest = digits[0], digits[1:]
    rotated = rest[-1] + rest[:-1]
    if rotated == rest:  # 1000, 5,0: bump the second digit instead
        rotated = str((int(rest[0]) + 1) % 10) + rest[1:]
    return head + rotated


def _replace_digits(text: str, digits: str) -> str:
    """Put ``digits`` back into the digit positions of ``text`` (same count), keeping every separator."""
    it = iter(digits)
    return "".join(next(it) if ch.isdigit() else ch for ch in text)


def _shift_integer(n: int) -> int:
    """A count or a number of days a model might write instead: 4 -> 5, 104 -> 96, 30 -> 28."""
    if n < 10:
        return n + 1 if n != 9 else 8
    return n - max(2, round(n * 0.077))


def _group(n: int, sep: str) -> str:
    s = str(n)
    if not sep:
        return s
    out = []
    while len(s) > 3:
        out.append(s[-3:])
        s = s[:-3]
    out.append(s)
    return sep.join(reversed(out))


def _integer_text(original: str, n: int) -> str:
    seps = {ch for ch in original if ch in ".,"}
    return _group(n, seps.pop() if seps else ("." if n >= 10000 else ""))


def _rewrite_once(text: str) -> str | None:
    """The figure a fluent model would write instead of ``text``; None when ``text`` is not a figure."""
    if m := _AMOUNT_DE.match(text):
        integer = m.group(2)
        return f"{m.group(1)}{_replace_digits(integer, _rotate_digits(_digits(integer)))},{m.group(3)} {m.group(4)}"
    if m := _AMOUNT_EN.match(text):
        integer = m.group(3)
        return f"{m.group(1)}{m.group(2)}{_replace_digits(integer, _rotate_digits(_digits(integer)))}.{m.group(4)}"
    if (m := _PERCENT.match(text)) or (m := _DAYS_FRAC.match(text)):
        number = m.group(2)
        return f"{m.group(1)}{_replace_digits(number, _rotate_digits(_digits(number)))}" + (
            m.group(3) if m.re is _PERCENT else " days")
    if m := _DAYS_INT.match(text):
        n = _shift_integer(int(_digits(m.group(2))))
        return f"{m.group(1)}{_integer_text(m.group(2), n)} {'day' if n == 1 else 'days'}"
    if m := _DATE_DE.match(text):
        try:
            d = dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1))) + dt.timedelta(days=3)
        except ValueError:
            return None
        return d.strftime("%d.%m.%Y")
    if m := _DATE_EN.match(text):
        if m.group(1) not in _MONTHS:
            return None
        try:
            d = dt.date(int(m.group(3)), _MONTHS.index(m.group(1)) + 1, int(m.group(2))) + dt.timedelta(days=3)
        except ValueError:
            return None
        return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"
    if m := _COUNT.match(text):
        digits = _digits(m.group(2))
        if len(digits) > 1 and digits.startswith("0"):  # 0042: an identifier, not a count
            return None
        return m.group(1) + _integer_text(m.group(2), _shift_integer(int(digits)))
    if m := _QUANTITY.match(text):
        number = m.group(2)
        return m.group(1) + _replace_digits(number, _rotate_digits(_digits(number)))
    return None


def rewrite_figure(text: str, avoid: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The changed figure (never equal to ``text`` or to anything in ``avoid``); None for names and identifiers."""
    new = _rewrite_once(text)
    seen = {text}
    while new is not None and (new in avoid or new in seen):
        seen.add(new)
        new = _rewrite_once(new)
        if len(seen) > 20:  # pragma: no cover - the rules always move away
            return None
    return new


def _edits(answer: str, claims: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(start, end, new text) for every claim whose figure the model changes, in text order."""
    originals = {str(c.get("text", "")) for c in claims}
    edits: list[tuple[int, int, str]] = []
    last_end = -1
    for c in sorted(claims, key=lambda c: (c["span"]["start"], c["span"]["end"])):
        start, end = int(c["span"]["start"]), int(c["span"]["end"])
        if start < last_end or answer[start:end] != c.get("text"):
            continue  # overlapping or stale spans: leave them alone
        new = rewrite_figure(answer[start:end], originals)
        if new is not None:
            edits.append((start, end, new))
            last_end = end
    return edits


def map_offset(pos: int, edits: list[tuple[int, int, str]], *, end: bool = False) -> int:
    """Where offset ``pos`` of the original answer lands in the rewritten one (``end``: as a span's end)."""
    delta = 0
    for start, stop, new in edits:
        if stop <= pos:  # the edit lies before pos
            delta += len(new) - (stop - start)
        elif start < pos:  # pos falls inside a changed figure
            return start + delta + (len(new) if end else 0)
        else:
            break
    return pos + delta


def map_span(span: dict[str, int] | None, answer: str, claims: list[dict[str, Any]]) -> dict[str, int] | None:
    """An inference or fact span of the original answer, moved to the rewritten answer."""
    if span is None:
        return None
    edits = _edits(answer, claims)
    return {"start": map_offset(int(span["start"]), edits), "end": map_offset(int(span["end"]), edits, end=True)}


def model_rewrite(answer: str, claims: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The answer as a fluent model would write it: same words, every figure changed, same formats.

    Returns the rewritten text and the claims the model asserts: the same call ids
    and evidence as ``claims``, with the new text and spans (only the fields the
    gate reads: text, span, call_id, evidence, origin).
    """
    edits = _edits(answer, claims)
    parts: list[str] = []
    pos = 0
    for start, stop, new in edits:
        parts.append(answer[pos:start])
        parts.append(new)
        pos = stop
    parts.append(answer[pos:])
    text = "".join(parts)
    changed = {start: new for start, _stop, new in edits}
    rewritten: list[dict[str, Any]] = []
    for c in claims:
        start, end = int(c["span"]["start"]), int(c["span"]["end"])
        new_start = map_offset(start, edits)
        new_text = changed.get(start, c["text"]) if answer[start:end] == c.get("text") else c["text"]
        rewritten.append({
            "text": new_text,
            "span": {"start": new_start, "end": new_start + len(new_text)},
            "call_id": c["call_id"],
            "evidence": list(c.get("evidence") or []),
            "origin": c.get("origin") or "structured",
        })
    return text, rewritten

"""A question read once: lower-cased, references and periods found and blanked, tokens with spans."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from footnote_pg.question import periods
from footnote_pg.question.dates import Calendar, TimeInfo
from footnote_pg.question.lexicon import (
    _CUSTOMER_REF,
    _DOCUMENT_NO,
    _INVOICE_BARE,
    _INVOICE_NO,
    _INVOICE_SHORT,
    _INVOICE_URI,
    _PO_NUMBER,
    _SKU,
    _SUPPLIER_REF,
)
from footnote_pg.question.text import _Tok, _tokens, blank
from footnote_pg.question.types import RouterSettings

if TYPE_CHECKING:
    from footnote_pg.question.names import Mention


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
    supplier_ref: str | None = None
    customer_refs: tuple[str, ...] = ()    # every customer number or link, in order (customer_ref is the first)
    skus: tuple[str, ...] = ()             # every SKU, in order (sku is the first)
    found: dict[int, list[Mention]] = field(default_factory=dict)   # per name index

    def consumed(self, tok: _Tok) -> bool:
        return not self.masked[tok.start:tok.end].strip()

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.masked) is not None


_SPACES = re.compile(r"\s+")
_PO_LABEL = re.compile(r"\b(?:purchase\s+)?order\s*(?:no\.?|nr\.?|number|#)?\s*$")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def _analyse(question: str, settings: RouterSettings) -> _Question:
    text = _SPACES.sub(" ", question.translate(_QUOTES)).strip()
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    pre = low
    invoice = sku = customer_ref = None
    m = _INVOICE_NO.search(pre)
    if m:
        digits = m.group(2) or m.group(4)
        if len(digits) > 4 and digits.startswith("0"):      # INV-2026-08812: the zeros typed in front are padding
            digits = digits.lstrip("0").rjust(4, "0")
        year = m.group(1) or m.group(3)
        invoice = f"INV-{'20' + year if len(year) == 2 else year}-{digits}"     # INV-26-8901: the year 2026
        pre = blank(pre, m.start(), m.end())
    elif (m := _DOCUMENT_NO.search(pre)) is not None:   # the ERP's own numbering, kept as written
        invoice = text[m.start():m.end()].upper()
        pre = blank(pre, m.start(), m.end())
    else:
        m = _INVOICE_URI.search(pre) or _INVOICE_BARE.search(pre)
        if m:
            group = next((i for i in range(1, (m.lastindex or 0) + 1) if m.group(i)), 0)
            invoice = m.group(group)
            start = m.start(group)
            pre = blank(pre, start, m.end())
        elif (m := _INVOICE_SHORT.search(pre)) is not None:   # "inv 8901", "#8812", "is 8834 paid"
            group = next(i for i in range(1, (m.lastindex or 0) + 1) if m.group(i))
            invoice = m.group(group)
            pre = blank(pre, m.start(group), m.end(group))
    m = _PO_NUMBER.search(pre)          # a purchase order number is no period ("PO-2025-3043")
    if m and m.group(1):
        pre = blank(pre, m.start(), m.end())
        if (label := _PO_LABEL.search(pre, 0, m.start())) is not None:    # "order PO-2026-3279": the number's label
            pre = blank(pre, label.start(), label.end())
    skus: list[str] = []
    for m in list(_SKU.finditer(pre)):      # "SKU-10045 / SKU-10046": each of them
        skus.append(f"SKU-{m.group(1)}")
        pre = blank(pre, m.start(), m.end())
    sku = skus[0] if skus else None
    refs: list[str] = []
    for m in list(_CUSTOMER_REF.finditer(pre)):
        group = next(i for i in (1, 2, 3) if m.group(i))
        ref = m.group(group) if group == 3 else m.group(group).upper()
        refs.append("C-" + ref[1:] if group == 1 and ref[1:2] != "-" else ref)      # "c4471": C-4471
        pre = blank(pre, m.start(group), m.end())
    customer_ref = refs[0] if refs else None
    supplier_ref = None
    m = _SUPPLIER_REF.search(pre)
    if m:
        group = next(i for i in (1, 2, 3, 4) if m.group(i))
        supplier_ref = m.group(group) if group == 3 else m.group(group).upper()
        if group == 4:                                  # "S 309", "s309": S-309
            supplier_ref = "S-" + supplier_ref[1:].strip()
        pre = blank(pre, m.start(group), m.end())
    cal = Calendar(settings.as_of, settings.fiscal_year_start_month)
    time = periods.scan(pre, cal, text)
    return _Question(text, low, pre, time.masked, _tokens(text), time, cal, invoice, sku,
                     customer_ref, supplier_ref, tuple(dict.fromkeys(refs)), tuple(dict.fromkeys(skus)))



"""Figures by reference in an agent's text: ``[[2]]`` or ``[[values.overdue_total]]`` becomes the figure's exact text.

An agent need not copy a figure: it may write where the figure goes

* ``[[n]]``: footnote ``n`` of the template answer for the same calls, counted from 1 (numbered as the claims of
  ``fallback`` in a ``submit_answer`` result and the footnotes of an ``answer`` result for the same operations);
* ``[[values.overdue_total]]``, ``[[rows[2].outstanding]]``: the claim of that figure of a call, as the gate names
  it (``claims[].value``), rows counted from 1; ``[[<call_id>:values.overdue_total]]`` when several calls have it.

:func:`render` puts the claim's exact text in its place before the gate reads the answer, so the gate grades the
words around it as if the figure had been copied. A reference nothing answers to is one error naming it.
"""

from __future__ import annotations

import re
from typing import Any

from footnote_pg import errors

REFERENCE = re.compile(r"\[\[((?:[^\[\]]|\[\d+\])*)\]\]")
SHOWN = 8  # figure names an unknown reference's error lists


def has_references(text: str) -> bool:
    return REFERENCE.search(text) is not None


def _table(claims: list[dict[str, Any]]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Exact text by footnote number and by call_id:value; the texts each bare value name has across calls."""
    exact: dict[str, str] = {}
    by_value: dict[str, set[str]] = {}
    for n, claim in enumerate(claims, start=1):
        text, value, call_id = claim.get("text"), claim.get("value"), claim.get("call_id")
        if not isinstance(text, str):
            continue
        exact[str(n)] = text
        if isinstance(value, str):
            exact.setdefault(f"{call_id}:{value}", text)
            by_value.setdefault(value, set()).add(text)
    return exact, by_value


def _unknown(ref: str, claims: list[dict[str, Any]]) -> errors.InvalidArgument:
    names = list(dict.fromkeys(str(c.get("value")) for c in claims if c.get("value")))
    listed = ", ".join(names[:SHOWN]) + (f" (and {len(names) - SHOWN} more)" if len(names) > SHOWN else "")
    known = (f"footnotes [[1]] to [[{len(claims)}]] or a figure such as {listed}" if claims
             else "no figure: the calls' template answer states none")
    return errors.InvalidArgument(
        f"invalid argument answer: unknown reference [[{ref[:60]}]]; these calls have {known}",
        {"argument": "answer", "reference": ref[:60]})


def render(text: str, claims: list[dict[str, Any]]) -> str:
    """``text`` with every reference replaced by its claim's exact text (``claims``: the template's, in order)."""
    exact, by_value = _table(claims)

    def one(match: re.Match[str]) -> str:
        ref = match.group(1).strip()
        if ref in exact:
            return exact[ref]
        texts = by_value.get(ref)
        if texts is None:
            raise _unknown(ref, claims)
        if len(texts) > 1:
            raise errors.InvalidArgument(
                f"invalid argument answer: reference [[{ref[:60]}]] is a figure of several calls "
                f"({', '.join(sorted(texts))}); write [[<call_id>:{ref[:60]}]]",
                {"argument": "answer", "reference": ref[:60]})
        return next(iter(texts))

    return REFERENCE.sub(one, text)

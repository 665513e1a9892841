"""Helpers for gate tests: build claims from a result the way a composer would."""

from __future__ import annotations

import re
from typing import Any

from footnote_pg.results import OperationResult, Value


def value(result: OperationResult, path: str) -> Value:
    """A value by path: 'overdue_total' or 'rows[1].outstanding' (rows counted from 1)."""
    if path.startswith("rows["):
        index, name = path[5:].split("].", 1)
        return result.rows[int(index) - 1][name]
    return result.values[path]


def claim(answer: str, result: OperationResult, path: str, *, text: str | None = None, occurrence: int = 1,
          evidence: list[str] | None = None) -> dict[str, Any]:
    """A claim for the n-th occurrence of the value's text (or ``text``) in the answer."""
    v = value(result, path)
    wanted = text if text is not None else v.text
    assert wanted is not None
    # the n-th occurrence that is not part of a longer figure ("4" inside "43.805,00 €" does not count)
    matches = [m.start() for m in re.finditer(rf"(?<!\d)(?<!\d[.,]){re.escape(wanted)}(?!\d)(?![.,]\d)", answer)]
    start = matches[occurrence - 1]
    return {"text": wanted, "span": {"start": start, "end": start + len(wanted)}, "call_id": result.call_id,
            "evidence": list(v.evidence) if evidence is None else evidence, "origin": "structured"}

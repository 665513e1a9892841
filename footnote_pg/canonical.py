"""Canonical JSON and SHA-256, implemented from docs/hash-spec.md alone.

This is the independent half of the chain check: it never calls the
database's hashing code, so a verifier built on it can disagree with a
database that lies. Numbers must arrive as ``int`` or ``Decimal`` (parse JSON
with :func:`loads`); a ``float`` is refused, because binary floats have no
single decimal text.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def loads(text: str | bytes) -> Any:
    """Parse JSON keeping every number exact (int or Decimal); nesting too deep for Python is a ValueError."""
    try:
        return json.loads(text, parse_float=Decimal, parse_int=int)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _number(n: int | Decimal) -> str:
    if isinstance(n, bool):  # pragma: no cover - handled by the caller
        raise TypeError("bool is not a number")
    if isinstance(n, int):
        return str(n)
    if not n.is_finite():
        raise ValueError(f"{n} has no JSON form")
    text = format(n, "f")
    if n.is_zero() and text.startswith("-"):
        text = text[1:]
    return text


def canonical_json(value: Any) -> str:
    """The canonical text of a JSON value: sorted keys, no whitespace, exact numbers."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (int, Decimal)):
        return _number(value)
    if isinstance(value, float):
        raise TypeError("floats are not allowed in canonical JSON; parse with canonical.loads")
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(f"object keys must be strings, not {type(key).__name__}")
        return "{" + ",".join(f"{_string(k)}:{canonical_json(value[k])}" for k in sorted(value)) + "}"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

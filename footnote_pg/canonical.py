"""Canonical JSON and SHA-256, implemented from docs/hash-spec.md alone.

This is the independent half of the chain check: it never calls the
database's hashing code, so a verifier built on it can disagree with a
database that lies. Numbers must arrive as ``int`` or ``Decimal`` (parse JSON
with :func:`loads`); a ``float`` is refused, because binary floats have no
single decimal text.

:func:`canonical_json` is the reference, written character by character from
the spec. :func:`decode` and :func:`encode` give the same bytes at the speed
of a C parser and serialiser (msgspec): its string escapes and its key order
(by code point) are the spec's, and :func:`decode` keeps every number with a
fraction or an exponent as its exact canonical text, which :func:`encode`
writes back as it is. ``tests/test_verify_speed.py`` proves the two equal.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal, InvalidOperation
from typing import Any

import msgspec

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


_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}  # jsonb's member order of a key set, as the keys arrive
_quoted = json.encoder.encode_basestring  # C: the spec's string escapes (\uXXXX in lower case, no other escapes)


def jsonb_text(value: Any) -> str:
    """The text PostgreSQL writes for a jsonb value (docs/hash-spec.md, section 8): object members ordered by the
    length of their key in UTF-8 bytes, then by those bytes; ``": "`` after a key and ``", "`` between members
    and elements; strings and numbers as in canonical JSON."""
    kind = type(value)
    if kind is str:
        return _quoted(value)
    if kind is dict:
        keys = tuple(value)
        order = _ORDERS.get(keys)
        if order is None:
            for key in keys:
                if not isinstance(key, str):
                    raise TypeError(f"object keys must be strings, not {type(key).__name__}")
            order = tuple(sorted(keys, key=lambda k: (len(k.encode("utf-8")), k.encode("utf-8"))))
            if len(_ORDERS) < 4096:
                _ORDERS[keys] = order
        return "{" + ", ".join([f"{_quoted(k)}: {jsonb_text(value[k])}" for k in order]) + "}"
    if kind is list or kind is tuple:
        return "[" + ", ".join([jsonb_text(v) for v in value]) + "]"
    if kind is msgspec.Raw:  # an exact number as decode() keeps it: its canonical text
        return bytes(value).decode("ascii")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join([jsonb_text(v) for v in value]) + "]"
    if isinstance(value, dict):
        return jsonb_text(dict(value))
    if isinstance(value, str):
        return _quoted(str(value))
    return canonical_json(value)


def result_hash_matches(result: Any, stored: str) -> bool:
    """Whether a call's result (parsed with :func:`loads`) hashes to the result hash its call log row keeps:
    SHA-256 of its jsonb text, or, for a call logged before revision 0013, of its canonical JSON."""
    return sha256_hex(jsonb_text(result)) == stored or sha256_hex(canonical_json(result)) == stored


def _exact_number(text: str) -> msgspec.Raw:
    """A JSON number with a fraction or an exponent, kept as its canonical text (never a binary float)."""
    try:
        return msgspec.Raw(_number(Decimal(text)).encode("ascii"))
    except (InvalidOperation, ValueError):  # pragma: no cover - the parser hands over JSON numbers only
        raise msgspec.DecodeError(f"{text} is not an exact number") from None


_DECODER = msgspec.json.Decoder(float_hook=_exact_number)
_ENCODER = msgspec.json.Encoder(order="sorted")


def decode(data: bytes | str) -> Any:
    """Parse JSON for :func:`encode`: integers as ``int``, other numbers as their canonical text
    (``msgspec.Raw``). Not JSON (or an integer too large to parse) is a ValueError."""
    try:
        return _DECODER.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def encode(value: Any) -> bytes:
    """The UTF-8 bytes of :func:`canonical_json`, for values built from :func:`decode`, ``str``, ``int``,
    ``bool`` and ``None`` (a ``Decimal`` or ``float`` here is not written exactly: use canonical_json)."""
    return _ENCODER.encode(value)

"""Named SQL statements of the Python layer, loaded from ``queries.sql``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from psycopg import sql

_BLOCK = re.compile(r"^-- name: (?P<name>\w+)\n(?:--[^\n]*\n)*(?P<body>.*?)(?=^-- name: |\Z)", re.M | re.S)


@cache
def _load() -> dict[str, str]:
    text = (Path(__file__).parent / "queries.sql").read_text(encoding="utf-8")
    found = {m.group("name"): m.group("body").strip() for m in _BLOCK.finditer(text)}
    if not found:
        raise RuntimeError("queries.sql has no named queries")
    return found


def query(name: str) -> sql.SQL:
    """The statement called ``name``, as a composable that psycopg accepts as-is."""
    return sql.SQL(_load()[name])


def names() -> list[str]:
    return sorted(_load())

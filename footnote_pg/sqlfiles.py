"""The SQL files of footnote-pg: where they are, in which order, split into statements.

``sql/`` is the single source of truth for the database side. Alembic revisions
apply a frozen copy of it, statement by statement; tests and the sample loader
read it from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    """The shipped copy inside the package (wheel), else the repository's top-level folder."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"footnote-pg installation is incomplete: no {name}/ folder found")


def sql_dir() -> Path:
    return _find("sql")


def alembic_dir() -> Path:
    return _find("alembic")


def schema_files() -> list[Path]:
    """The schema files in apply order (``sql/NN_*.sql``)."""
    return sorted(sql_dir().glob("[0-9][0-9]_*.sql"))


def sample_files() -> list[Path]:
    """The sample ERP files in apply order (``sql/sample/NN_*.sql``)."""
    return sorted((sql_dir() / "sample").glob("[0-9][0-9]_*.sql"))


_TOKEN = re.compile(
    r"""
      (?P<line_comment>--[^\n]*)
    | (?P<block_comment>/\*.*?\*/)
    | (?P<dollar>\$(?P<tag>[A-Za-z_][A-Za-z_0-9]*)?\$)
    | (?P<single>'(?:[^']|'')*')
    | (?P<double>"(?:[^"]|"")*")
    | (?P<semicolon>;)
    """,
    re.VERBOSE | re.DOTALL,
)


def split_statements(sql: str) -> list[str]:
    """Split a script into statements at top-level semicolons.

    Semicolons inside comments, quoted strings, quoted identifiers and
    dollar-quoted bodies do not split. Statements keep their text exactly
    (comments included); empty and comment-only pieces are dropped.
    """
    statements: list[str] = []
    start = 0
    pos = 0
    while True:
        match = _TOKEN.search(sql, pos)
        if match is None:
            break
        if match.group("dollar"):
            closing = sql.find(match.group("dollar"), match.end())
            if closing < 0:
                raise ValueError(f"unterminated dollar quote {match.group('dollar')} at offset {match.start()}")
            pos = closing + len(match.group("dollar"))
            continue
        if match.group("semicolon"):
            statements.append(sql[start : match.end()])
            start = match.end()
        pos = match.end()
    statements.append(sql[start:])
    return [s.strip() for s in statements if _has_code(s)]


def _has_code(piece: str) -> bool:
    without = re.sub(r"--[^\n]*|/\*.*?\*/", "", piece, flags=re.DOTALL)
    return bool(without.strip(" \t\r\n;"))


def iter_statements(files: list[Path]) -> Iterator[str]:
    for path in files:
        yield from split_statements(path.read_text(encoding="utf-8"))


def operation_names() -> list[str]:
    """The operations this version's catalog defines (``sql/50_catalog.sql``), for help text; calls go by the
    database's own ``footnote.operations``."""
    text = (sql_dir() / "50_catalog.sql").read_text(encoding="utf-8")
    blocks = re.findall(r"INSERT INTO footnote\.operations \(name, title, description, returns\) VALUES\n(.*?);\n",
                        text, re.S)
    return sorted(name for block in blocks for name in re.findall(r"^\('([a-z_]+)', ", block, re.M))

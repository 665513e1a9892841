"""Who may do what in a footnote-pg database, read from the GRANTs of ``sql/`` (the single source of truth).

A permission error from PostgreSQL names the object ("permission denied for function router_names") but not
the role that may use it: :func:`remedy` adds that, from the same statements the install runs.
"""

from __future__ import annotations

import functools
import re

from footnote_pg import sqlfiles

# The group roles a login is made a member of, and what each is for.
PURPOSE = {
    "footnote_service": "asking questions and calling the catalog",
    "footnote_auditor": "reading and verifying the ledger",
}
GRANT_FILES = ("00_roles.sql", "90_grants.sql")

_GRANT = re.compile(r"\bGRANT\s+(?P<privileges>[A-Z][A-Z, ]*?)\s+ON\s+(?P<objects>(?:(?!\bTO\b).)*?)\s+"
                    r"TO\s+(?P<roles>\w+(?:\s*,\s*\w+)*)\s*;", re.S)
_DENIED = re.compile(r"^permission denied for (?P<kind>[a-z ]+?) (?P<name>\S+)$")
# PostgreSQL's word for an object in its message -> the kind a GRANT names it by
_KINDS = {"function": "function", "procedure": "function", "routine": "function", "schema": "schema",
          "table": "relation", "view": "relation", "materialized view": "relation", "sequence": "relation"}


@functools.cache
def grants() -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """(kind, name) -> (privileges, roles) for every object footnote-pg grants by name to a login's group role."""
    found: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for name in GRANT_FILES:
        text = re.sub(r"--[^\n]*", "", (sqlfiles.sql_dir() / name).read_text(encoding="utf-8"))
        for m in _GRANT.finditer(text):
            roles = tuple(r.strip() for r in m["roles"].split(",") if r.strip() in PURPOSE)
            objects = m["objects"].strip()
            if not roles or objects.startswith("ALL "):
                continue
            privileges = tuple(p.strip() for p in m["privileges"].split(","))
            if objects.startswith("SCHEMA "):
                keys = [("schema", s.strip()) for s in objects[len("SCHEMA "):].split(",")]
            elif objects.startswith("FUNCTION"):
                keys = [("function", f) for f in re.findall(r"\bfootnote\.(\w+)\s*\(", objects)]
            else:
                keys = [("relation", t) for t in re.findall(r"\bfootnote\.(\w+)", objects)]
            for key in keys:
                had_privileges, had_roles = found.get(key, ((), ()))
                found[key] = (tuple(dict.fromkeys(had_privileges + privileges)),
                              tuple(dict.fromkeys(had_roles + roles)))
    return found


@functools.cache
def own_names() -> frozenset[str]:
    """Every name of ours the schema files qualify (footnote.x, footnote_src.x): an ERP table is none of them."""
    return frozenset(name for path in sqlfiles.schema_files()
                     for name in re.findall(r"\bfootnote(?:_src)?\.(\w+)", path.read_text(encoding="utf-8")))


def remedy(message: str) -> str | None:
    """What to do about ``permission denied for <kind> <name>``: the role footnote-pg grants it to, or None
    when the message names no object of ours."""
    m = _DENIED.match(message.strip())
    if m is None:
        return None
    kind = _KINDS.get(m["kind"])
    granted = grants().get((kind, m["name"])) if kind else None
    if granted is None:
        if m["name"] not in own_names() and not m["name"].startswith("footnote"):
            return None  # not ours (an ERP table): nothing to say about it
        return ("footnote-pg grants it to no login's role: use footnote-pg's functions as a member of "
                + " or ".join(f"{role} ({purpose})" for role, purpose in PURPOSE.items()))
    privileges, roles = granted
    whom = " and ".join(f"{role} ({PURPOSE[role]})" for role in roles)
    one = "that role" if len(roles) == 1 else "one of them"
    return (f"footnote-pg grants {'/'.join(privileges)} on it to {whom}: connect as a member of {one} "
            f"(GRANT {roles[0]} TO your_login)")

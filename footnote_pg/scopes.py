"""Access scopes as the DBA keeps them: list, show, create and bind (the tables of sql/03_scopes.sql).

A scope limits customers (account owner, country, customer id), suppliers (supplier id, supplier country) and
items (item id); a kind it gives no criterion of is seen in full.

Plain SQL over ``footnote.scopes`` and ``footnote.scope_bindings``, run as the DBA's connection (a superuser or a
member of ``footnote_owner``, which owns them); ``footnote_service`` can neither read nor change them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import psycopg

from footnote_pg import errors

_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,62}$")


@dataclass
class Scope:
    id: str
    description: str
    account_owners: list[str] | None
    countries: list[str] | None
    customer_ids: list[int] | None
    digest: str
    roles: list[str] = field(default_factory=list)
    customers: int | None = None
    supplier_ids: list[int] | None = None
    supplier_countries: list[str] | None = None
    item_ids: list[int] | None = None
    suppliers: int | None = None
    items: int | None = None

    def criteria(self) -> str:
        """The criteria as one line: 'account owner Ana Kovač; country FR, NL', or 'every customer'."""
        parts = [f"{label} {', '.join(str(v) for v in values)}" for label, values in (
            ("account owner", self.account_owners), ("country", self.countries), ("customer id", self.customer_ids))
            if values]
        return "; ".join(parts) or "every customer"

    def supplier_criteria(self) -> str:
        """The supplier criteria as one line, or 'every supplier'."""
        parts = [f"{label} {', '.join(str(v) for v in values)}" for label, values in (
            ("country", self.supplier_countries), ("supplier id", self.supplier_ids)) if values]
        return "; ".join(parts) or "every supplier"

    def item_criteria(self) -> str:
        return f"item id {', '.join(str(i) for i in self.item_ids)}" if self.item_ids else "every item"

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "description": self.description, "account_owners": self.account_owners,
                "countries": self.countries, "customer_ids": self.customer_ids, "digest": self.digest,
                "supplier_ids": self.supplier_ids, "supplier_countries": self.supplier_countries,
                "item_ids": self.item_ids, "roles": self.roles, "customers": self.customers,
                "suppliers": self.suppliers, "items": self.items}


_SELECT = """
    SELECT s.id, s.description, s.account_owners, s.countries, s.customer_ids,
           footnote._scope_digest(s),
           ARRAY(SELECT b.role FROM footnote.scope_bindings AS b WHERE b.scope = s.id ORDER BY b.role),
           s.supplier_ids, s.supplier_countries, s.item_ids
    FROM footnote.scopes AS s"""


def _text(name: str, value: str) -> str:
    value = value.strip()
    if not value or len(value) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise errors.InvalidArgument(f"{name} must be 1 to 200 printable characters, not {value!r}")
    return value


def _scope_id(value: str) -> str:
    if not _ID.match(value):
        raise errors.InvalidArgument(
            f"scope id {value!r} must be lower-case letters, digits, '_', '.' or '-' (at most 63, starting with a "
            "letter or digit)")
    return value


def _scope(row: tuple[Any, ...]) -> Scope:
    return Scope(id=row[0], description=row[1], account_owners=row[2], countries=row[3], customer_ids=row[4],
                 digest=row[5], roles=list(row[6]), supplier_ids=row[7], supplier_countries=row[8], item_ids=row[9])


def list_scopes(conn: psycopg.Connection[Any]) -> list[Scope]:
    return [_scope(row) for row in conn.execute(_SELECT + " ORDER BY s.id").fetchall()]


def show(conn: psycopg.Connection[Any], scope_id: str) -> Scope:
    row = conn.execute(_SELECT + " WHERE s.id = %s", (_scope_id(scope_id),)).fetchone()
    if row is None:
        raise errors.InvalidArgument(f"no scope {scope_id}; footnote-pg scope list shows them")
    scope = _scope(row)
    scope.customers = conn.execute(
        """SELECT count(*) FROM footnote_src.customers AS c
           WHERE (%(o)s::text[] IS NULL OR c.account_owner = ANY (%(o)s::text[]))
             AND (%(c)s::text[] IS NULL OR c.country = ANY (%(c)s::text[]))
             AND (%(i)s::bigint[] IS NULL OR c.id = ANY (%(i)s::bigint[]))""",
        {"o": scope.account_owners, "c": scope.countries, "i": scope.customer_ids}).fetchone()[0]  # type: ignore[index]
    scope.suppliers, scope.items = conn.execute(  # type: ignore[misc]
        """SELECT (SELECT count(*) FROM footnote_src.suppliers AS s
                   WHERE (%(s)s::bigint[] IS NULL OR s.id = ANY (%(s)s::bigint[]))
                     AND (%(c)s::text[] IS NULL OR s.country = ANY (%(c)s::text[]))),
                  (SELECT count(*) FROM footnote_src.items AS i WHERE %(i)s::bigint[] IS NULL OR i.id = ANY (%(i)s::bigint[]))""",
        {"s": scope.supplier_ids, "c": scope.supplier_countries, "i": scope.item_ids}).fetchone()
    return scope


def create(conn: psycopg.Connection[Any], scope_id: str, description: str, account_owners: list[str],
           countries: list[str], customer_ids: list[int], supplier_ids: list[int] | None = None,
           supplier_countries: list[str] | None = None, item_ids: list[int] | None = None) -> Scope:
    """A new scope; a customer (supplier, item) is in it when it matches every kind of customer (supplier, item)
    criterion given (none: every customer, supplier, item)."""
    scope_id = _scope_id(scope_id)
    description = _text("description", description)
    owners = [_text("account owner", o) for o in account_owners] or None
    lands = [_text("country", c) for c in countries] or None
    supplier_lands = [_text("supplier country", c) for c in supplier_countries or []] or None
    for name, ids in (("customer", customer_ids), ("supplier", supplier_ids or []), ("item", item_ids or [])):
        if any(i < 1 for i in ids):
            raise errors.InvalidArgument(f"{name} ids are positive whole numbers")
    with conn.transaction():
        if conn.execute("SELECT 1 FROM footnote.scopes WHERE id = %s", (scope_id,)).fetchone():
            raise errors.InvalidArgument(f"scope {scope_id} exists already; change it with UPDATE footnote.scopes")
        conn.execute("INSERT INTO footnote.scopes (id, description, account_owners, countries, customer_ids, "
                     "supplier_ids, supplier_countries, item_ids) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                     (scope_id, description, owners, lands, customer_ids or None, supplier_ids or None,
                      supplier_lands, item_ids or None))
    return show(conn, scope_id)


def bind(conn: psycopg.Connection[Any], role: str, scope_id: str) -> str | None:
    """Bind a PostgreSQL role to a scope (in place of its binding, which is returned)."""
    role = _text("role", role)
    scope_id = _scope_id(scope_id)
    with conn.transaction():
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            raise errors.InvalidArgument(f"no role {role} in this cluster; create the login first "
                                         "(CREATE ROLE ... LOGIN IN ROLE footnote_service)")
        if not conn.execute("SELECT 1 FROM footnote.scopes WHERE id = %s", (scope_id,)).fetchone():
            raise errors.InvalidArgument(f"no scope {scope_id}; footnote-pg scope list shows them")
        before = conn.execute("SELECT scope FROM footnote.scope_bindings WHERE role = %s", (role,)).fetchone()
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES (%s, %s) "
                     "ON CONFLICT (role) DO UPDATE SET scope = excluded.scope", (role, scope_id))
    return before[0] if before else None

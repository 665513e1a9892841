"""The Python client: ``Footnote``.

A small wrapper around a psycopg connection pool. Every call runs in one
transaction that first names the application actor (and locale), then calls a
``footnote.*`` function through a named query; PostgreSQL errors become the
typed errors of :mod:`footnote_pg.errors`.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from footnote_pg import errors
from footnote_pg.queries import query
from footnote_pg.results import Argument, Operation, OperationResult

log = logging.getLogger(__name__)


def resolve_database_url(database_url: str | None = None) -> str:
    """The URL given, else ``DATABASE_URL``, else the embedded demo database (started on demand)."""
    url = database_url or os.environ.get("DATABASE_URL")
    if url:
        return url
    from footnote_pg import embedded

    return embedded.demo_url()


def actor_from_env() -> tuple[str | None, str | None]:
    """``PROVENANCE_ACTOR`` as ``id`` or ``id:role`` (and ``PROVENANCE_ACTOR_ROLE``)."""
    raw = os.environ.get("PROVENANCE_ACTOR") or None
    role = os.environ.get("PROVENANCE_ACTOR_ROLE") or None
    if raw and ":" in raw and role is None:
        raw, role = raw.split(":", 1)
    return raw, role


class Footnote:
    """Client of a footnote-pg database.

    >>> fn = Footnote("postgresql://assistant@db/erp", actor="zoran", actor_role="controller")
    >>> fn.call("customer_overdue", customer="Bergmann Logistik").values["overdue_total"].text
    '43.805,00 €'
    """

    def __init__(
        self,
        database_url: str | None = None,
        *,
        actor: str | None = None,
        actor_role: str | None = None,
        locale: str | None = None,
        min_size: int = 1,
        max_size: int = 4,
        pool: ConnectionPool[Any] | None = None,
    ) -> None:
        env_actor, env_role = actor_from_env()
        self.actor = actor if actor is not None else env_actor
        self.actor_role = actor_role if actor_role is not None else env_role
        self.locale = locale
        if pool is not None:
            self.pool = pool
            self._owns_pool = False
        else:
            self.database_url = resolve_database_url(database_url)
            try:
                self.pool = ConnectionPool(
                    self.database_url, min_size=min_size, max_size=max_size, open=True,
                    kwargs={"autocommit": False}, name="footnote-pg",
                )
                self.pool.wait(timeout=10)
            except psycopg.Error as exc:  # pragma: no cover - depends on the network
                raise errors.ConnectionFailed(f"cannot connect to the database: {exc}") from exc
            except Exception as exc:  # PoolTimeout
                raise errors.ConnectionFailed(f"cannot connect to the database: {exc}") from exc
            self._owns_pool = True

    # -- plumbing -----------------------------------------------------------
    def close(self) -> None:
        if self._owns_pool:
            self.pool.close()

    def __enter__(self) -> Footnote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, actor: str | None = None, actor_role: str | None = None) -> Iterator[psycopg.Connection[Any]]:
        """A connection in a transaction with the actor and locale set; errors mapped."""
        try:
            with self.pool.connection() as conn:
                with conn.transaction():
                    conn.execute(query("set_actor"), {
                        "actor": actor if actor is not None else (self.actor or ""),
                        "actor_role": actor_role if actor_role is not None else (self.actor_role or ""),
                    })
                    if self.locale:
                        conn.execute(query("set_locale"), {"locale": self.locale})
                    yield conn
        except psycopg.Error as exc:
            mapped = errors.from_psycopg(exc)
            if mapped is None:
                raise
            raise mapped from exc

    # -- catalog ------------------------------------------------------------
    def call(self, operation: str, /, *, actor: str | None = None, **arguments: Any) -> OperationResult:
        """Run one catalog operation; the call is logged server-side before it returns."""
        for name, value in arguments.items():
            if isinstance(value, str) and "\x00" in value:
                raise errors.InvalidArgument(f"invalid argument {name}: contains a NUL (0x00) character",
                                             {"argument": name, "reason": "contains a NUL character"})
        payload = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in arguments.items()}
        with self.transaction(actor=actor) as conn:
            row = conn.execute(query("call"), {"operation": operation, "arguments": Jsonb(payload)}).fetchone()
        assert row is not None
        doc = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        return OperationResult.from_json(doc)

    def catalog(self) -> list[Operation]:
        """Every operation the database offers, with typed arguments."""
        with self.transaction() as conn:
            rows = conn.execute(query("catalog")).fetchall()
        return [
            Operation(
                name=r[0], title=r[1], description=r[2], returns=r[3], signature=r[5],
                arguments=tuple(Argument(a["name"], a["type"], a["required"], a["description"], a.get("example"))
                                for a in r[4]),
            )
            for r in rows
        ]

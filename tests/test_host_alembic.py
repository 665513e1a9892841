"""A host application's own Alembic project runs footnote-pg's revisions from one of its migrations: the host's
`alembic upgrade head` and downgrade run to the end, with a host revision before and after ours and a host
operation right after ours in the same revision."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from footnote_pg import install
from tests.conftest import TestDatabase

ROOT = Path(__file__).resolve().parent.parent

ENV_PY = '''
import os

import psycopg
from sqlalchemy import create_engine, pool

from alembic import context

url = os.environ["HOST_DATABASE_URL"]
engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url), poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()
'''

REVISIONS = {
    "h1_customers": ('None', '''
def upgrade():
    op.create_table("host_customers", sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.Text))


def downgrade():
    op.drop_table("host_customers")
'''),
    "h2_footnote": ('"h1_customers"', '''
from footnote_pg import install


def upgrade():
    install.upgrade(os.environ["HOST_DATABASE_URL"])  # footnote-pg's own revisions, its own version table
    op.execute("INSERT INTO host_customers (name) VALUES ('after footnote-pg')")


def downgrade():
    op.execute("DELETE FROM host_customers")
    install.downgrade(os.environ["HOST_DATABASE_URL"], "base")
'''),
    "h3_orders": ('"h2_footnote"', '''
def upgrade():
    op.create_table("host_orders", sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("customer_id", sa.Integer, sa.ForeignKey("host_customers.id")))


def downgrade():
    op.drop_table("host_orders")
'''),
}


def _host_project(directory: Path) -> Path:
    (directory / "versions").mkdir(parents=True)
    (directory / "env.py").write_text(ENV_PY, encoding="utf-8")
    for name, (down, body) in REVISIONS.items():
        (directory / "versions" / f"{name}.py").write_text(
            f'import os\n\nimport sqlalchemy as sa\n\nfrom alembic import op\n\nrevision = "{name}"\n'
            f"down_revision = {down}\nbranch_labels = None\ndepends_on = None\n{body}", encoding="utf-8")
    ini = directory / "alembic.ini"
    ini.write_text(f"[alembic]\nscript_location = {directory}\n", encoding="utf-8")
    return ini


def _alembic(ini: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOST_DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "alembic", "-c", str(ini), *args], capture_output=True, text=True,
                          env=env, cwd=ini.parent, timeout=600)


def test_a_host_alembic_project_runs_our_revisions_inside_its_own(empty_db: TestDatabase, tmp_path: Path) -> None:
    ini = _host_project(tmp_path / "host")
    done = _alembic(ini, empty_db.url, "upgrade", "head")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    # both histories: the host's in its version table, ours in footnote_meta's
    assert empty_db.scalar("SELECT version_num FROM public.alembic_version") == "h3_orders"
    assert install.current_revision(empty_db.url) == install.head_revision()
    assert empty_db.scalar("SELECT count(*) FROM footnote.catalog") == 26
    # the host's operation after ours and its revision after ours both ran
    assert empty_db.rows("SELECT name FROM host_customers") == [("after footnote-pg",)]
    assert empty_db.scalar("SELECT to_regclass('public.host_orders') IS NOT NULL")
    current = _alembic(ini, empty_db.url, "current")
    assert current.returncode == 0 and "h3_orders (head)" in current.stdout, current.stderr

    done = _alembic(ini, empty_db.url, "downgrade", "base")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert empty_db.scalar("SELECT count(*) FROM public.alembic_version") == 0
    assert empty_db.scalar("SELECT to_regclass('public.host_orders') IS NULL AND "
                           "to_regclass('public.host_customers') IS NULL")
    assert install.current_revision(empty_db.url) is None
    assert empty_db.scalar("SELECT to_regnamespace('footnote') IS NULL AND to_regnamespace('footnote_src') IS NULL")

    # and up again: a no-op for nothing, the whole way for both
    done = _alembic(ini, empty_db.url, "upgrade", "head")
    assert done.returncode == 0, done.stderr
    assert install.current_revision(empty_db.url) == install.head_revision()
    assert empty_db.scalar("SELECT version_num FROM public.alembic_version") == "h3_orders"

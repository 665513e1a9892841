"""Installing footnote-pg: Alembic, the reviewed script, re-runs, removal, and drift against sql/."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import psycopg
import pytest
from psycopg import sql

from footnote_pg import install, sqlfiles
from tests.conftest import TestDatabase
from tests.snapshot import snapshot
from tests.test_chain import _cli


def erp_checksum(db: TestDatabase) -> dict[str, str]:
    """md5 of every row of every erp table, by table."""
    out = {}
    with db.connect() as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'erp' AND c.relkind = 'r' ORDER BY 1").fetchall()]
        for table in tables:
            row = conn.execute(sql.SQL("SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM erp.{} t")
                               .format(sql.Identifier(table))).fetchone()
            out[table] = row[0] if row else ""
    return out


def test_install_creates_everything_and_rerun_is_a_no_op(empty_db: TestDatabase) -> None:
    assert install.current_revision(empty_db.url) is None
    install.upgrade(empty_db.url)
    assert install.current_revision(empty_db.url) == install.head_revision()
    first = snapshot(empty_db.url)
    assert {r[1] for r in first["functions"]} >= {"call", "customer_overdue", "ar_aging", "supplier_payment_facts"}
    install.upgrade(empty_db.url)
    assert snapshot(empty_db.url) == first


def test_install_never_creates_the_sample(empty_db: TestDatabase) -> None:
    install.upgrade(empty_db.url)
    assert empty_db.scalar("SELECT to_regnamespace('erp')") is None
    # the source views are the empty contract until a mapping replaces them
    assert empty_db.scalar("SELECT count(*) FROM footnote_src.invoices") == 0
    assert not install.sample_installed(empty_db.url)


def test_alembic_head_is_exactly_what_sql_describes(server, empty_db: TestDatabase) -> None:
    """The drift test: upgrade head and a plain apply of sql/ give identical catalogs."""
    install.upgrade(empty_db.url)
    by_alembic = snapshot(empty_db.url)

    other = f"{empty_db.name}_plain"
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{other}"')
    try:
        url = server.url_for(other)
        with psycopg.connect(url) as conn:
            for statement in sqlfiles.iter_statements(sqlfiles.schema_files()):
                conn.execute(statement, prepare=False)
        assert snapshot(url) == by_alembic
    finally:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{other}" WITH (FORCE)')


def test_offline_script_needs_no_database_and_installs_the_same(empty_db: TestDatabase) -> None:
    """For a fresh database the script is today's schema squashed (each file of sql/ once, in order, and the stamp
    of head), not the history of every revision; applied, it gives what the revisions give, and Alembic goes on
    from it."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PGHOST", "PGDATABASE")}
    env["PGHOST"] = "/nonexistent-socket-dir"
    done = subprocess.run([sys.executable, "-m", "footnote_pg.cli", "install", "--sql"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    script = done.stdout
    assert script.lstrip("-").split("\nBEGIN;", 1)[0].startswith(f" footnote-pg {install.head_revision()}: ")
    assert script.rstrip().endswith("COMMIT;") and script.count("BEGIN;") == 1
    assert re.findall(r"^-- ==== sql/(\S+) ", script, re.M) == [p.name for p in sqlfiles.schema_files()]
    assert "Running upgrade" not in script and script.count("CREATE TABLE footnote.ledger ") == 1
    assert script.count("\n") < sum(p.read_text(encoding="utf-8").count("\n") for p in sqlfiles.schema_files()) + 200
    assert "CREATE FUNCTION footnote.customer_overdue" in script
    stamped = "INSERT INTO footnote_meta.alembic_version (version_num) VALUES ('{}')"
    assert stamped.format(install.head_revision()) in script
    assert "erp." not in script.split("-- ==== sql/90_grants.sql")[0].split("CREATE SCHEMA footnote")[0]

    with psycopg.connect(empty_db.url, autocommit=True) as conn:
        conn.execute(script)  # type: ignore[arg-type]
    applied = snapshot(empty_db.url)
    assert install.current_revision(empty_db.url) == install.head_revision()

    reference = f"{empty_db.name}_ref"
    with psycopg.connect(empty_db.server.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{reference}"')
    try:
        url = empty_db.server.url_for(reference)
        install.upgrade(url)
        assert snapshot(url) == applied
    finally:
        with psycopg.connect(empty_db.server.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{reference}" WITH (FORCE)')
    # the stamp lets the revisions continue from the squashed install: one back and up again, as an upgrade runs
    code, out, err = _cli("install", "--database-url", empty_db.url)
    assert code == 0 and "up to date" in out, err
    install.downgrade(empty_db.url, install.revisions()[-2])
    install.upgrade(empty_db.url)
    assert snapshot(empty_db.url) == applied


def test_downgrade_to_base_removes_ours_and_touches_no_erp_table(db: TestDatabase) -> None:
    before = erp_checksum(db)
    erp_columns = db.rows("""SELECT table_name, column_name, data_type FROM information_schema.columns
                             WHERE table_schema = 'erp' ORDER BY 1, 2""")
    assert before["invoices"] and len(before) >= 10

    install.downgrade(db.url, "base")
    assert db.scalar("SELECT count(*) FROM pg_namespace WHERE nspname IN ('footnote', 'footnote_src')") == 0
    assert install.current_revision(db.url) is None
    assert erp_checksum(db) == before
    assert db.rows("""SELECT table_name, column_name, data_type FROM information_schema.columns
                      WHERE table_schema = 'erp' ORDER BY 1, 2""") == erp_columns

    install.uninstall(db.url)
    assert db.scalar("SELECT to_regnamespace('footnote_meta')") is None

    # and it comes back cleanly
    install.upgrade(db.url)
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") == 0


def test_downgrade_refuses_when_an_outside_object_depends_on_ours(db: TestDatabase) -> None:
    with db.connect() as conn:
        conn.execute("CREATE VIEW public.my_report AS SELECT operation FROM footnote.catalog")
    with pytest.raises(Exception) as caught:
        install.downgrade(db.url, "base")
    assert "public.my_report" in str(caught.value) or "my_report" in str(caught.value)
    assert install.current_revision(db.url) == install.head_revision()
    assert db.scalar("SELECT count(*) FROM footnote.catalog") == 26


def _with_records(db: TestDatabase) -> int:
    with db.connect("service") as conn:
        conn.execute("SELECT footnote.call('customer_overdue', '{\"customer\": \"Bergmann Logistik\"}')")
        conn.execute("SELECT footnote.record_answer('What will revenue be?', 'I can''t forecast.', '[]', '{}', "
                     "'refusal', '{\"reason\": \"forecast\"}')")
    return int(db.scalar("SELECT count(*) FROM footnote.ledger"))


def test_a_downgrade_that_would_drop_records_is_refused_unless_told(db: TestDatabase) -> None:
    _with_records(db)
    with pytest.raises(Exception) as caught:
        install.downgrade(db.url, "base")
    assert getattr(caught.value, "sqlstate", None) == "FN107"
    assert "the ledger holds 1 records and the call log 1 calls" in str(caught.value)
    assert install.current_revision(db.url) == install.head_revision()
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 1
    install.downgrade(db.url, "base", drop_ledger=True)
    assert db.scalar("SELECT to_regnamespace('footnote')") is None


def test_uninstall_keeps_records_unless_exported_first(db: TestDatabase, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from footnote_pg import canonical, ledger

    records = _with_records(db)
    code, _out, err = _cli("uninstall", "--yes", "--database-url", db.url)
    assert code == 2 and err.count("\n") == 1, err
    assert "the ledger holds 1 records and the call log 1 calls: uninstall refuses" in err
    code, _out, err = _cli("uninstall", "--yes", "--drop-ledger", "--database-url", db.url)
    assert code == 2 and "--export DIR" in err
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == records

    target = tmp_path / "kept" / "here"
    code, out, err = _cli("uninstall", "--yes", "--drop-ledger", "--export", str(target), "--database-url", db.url)
    assert code == 0, err
    assert "footnote-pg removed" in out and db.scalar("SELECT to_regnamespace('footnote')") is None
    bundle = next(target.glob("ledger-*.jsonl"))
    assert ledger.verify_bundle(bundle).ok and ledger.verify_bundle(bundle).records == records
    digest = canonical.loads(next(target.glob("digest-*.json")).read_text(encoding="utf-8"))
    assert ledger.bundle_hash_at(bundle, digest["seq"]) == digest["hash"]
    calls = next(target.glob("calls-*.jsonl")).read_text(encoding="utf-8").splitlines()
    assert len(calls) == 1 and canonical.loads(calls[0])["operation"] == "customer_overdue"
    # each call's result still hashes to its result hash, offline
    call = canonical.loads(calls[0])
    assert canonical.sha256_hex(canonical.jsonb_text(call["result"])) == call["result_hash"]


def test_uninstall_over_a_dependent_view_is_one_line_naming_it(db: TestDatabase) -> None:
    with db.connect() as conn:
        conn.execute("CREATE VIEW public.my_report AS SELECT operation FROM footnote.catalog")
    code, out, err = _cli("uninstall", "--yes", "--database-url", db.url)
    assert code == 2 and err.count("\n") == 1 and not out, err
    assert "objects outside its schemas depend on it: rule _RETURN on view my_report" in err
    assert "drop or change those objects first" in err
    assert install.current_revision(db.url) == install.head_revision()


def test_uninstall_where_nothing_is_installed_says_so(empty_db: TestDatabase) -> None:
    code, out, err = _cli("uninstall", "--yes", "--database-url", empty_db.url)
    assert (code, out) == (2, "")
    assert err == "error: footnote-pg is not installed in this database: nothing to remove\n"


def test_a_schema_without_its_revision_is_refused_and_stamp_adopts_it(empty_db: TestDatabase) -> None:
    install.upgrade(empty_db.url)
    with empty_db.connect() as conn:
        conn.execute("DELETE FROM footnote_meta.alembic_version")
    code, out, err = _cli("install", "--database-url", empty_db.url)
    assert code == 2 and err.count("\n") == 1 and "no footnote-pg revision is recorded" in err, err
    code, out, err = _cli("install", "--stamp", "0004_ledger", "--database-url", empty_db.url)
    assert code == 2 and "invalid argument stamp: '0004_ledger' is not a revision; they are 0001_core" in err
    code, out, err = _cli("install", "--stamp", install.head_revision(), "--database-url", empty_db.url)
    assert code == 0 and "recorded as installed at revision" in out, err
    code, out, _ = _cli("install", "--database-url", empty_db.url)
    assert code == 0 and "up to date" in out


def test_install_sql_from_a_revision_prints_only_the_upgrade(empty_db: TestDatabase) -> None:
    revisions = install.revisions()
    assert revisions[0] == "0001_core" and revisions[-1] == install.head_revision()
    code, delta, _ = _cli("install", "--sql", "--from", revisions[-2])
    assert code == 0
    assert f"Running upgrade {revisions[-2]} -> {revisions[-1]}" in delta and "CREATE SCHEMA footnote " not in delta
    # applied to a database at that revision, the printed delta brings it to head, as install would
    install.upgrade(empty_db.url, revisions[-2])
    with empty_db.connect() as conn:
        conn.execute(delta)
    assert install.current_revision(empty_db.url) == install.head_revision()
    assert _cli("install", "--sql", "--from", "9999_nope")[0] == 2
    code, _, err = _cli("install", "--from", revisions[-2], "--database-url", empty_db.url)
    assert code == 2 and "--from REVISION goes with --sql" in err


def test_a_createrole_installer_installs_and_uninstalls_on_a_fresh_cluster(server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The installer the README allows (CREATEROLE, owns the database, not a superuser) on a cluster where the
    footnote roles do not exist yet, so it creates them: PostgreSQL 16+ gives it ADMIN on them, not SET ROLE."""
    from tests import pgservers

    backend = {"embedded-pg18": "embedded", "system-pg15": "pg15"}.get(server.name)
    if backend is None:
        pytest.skip(f"needs a fresh cluster of its own; {server.name} is shared")
    with pgservers.start(backend) as fresh:
        with psycopg.connect(fresh.url, autocommit=True) as conn:
            conn.execute("CREATE ROLE installer LOGIN CREATEROLE CREATEDB")
            conn.execute("CREATE DATABASE erp OWNER installer")
        url = fresh.url_for("erp", user="installer")
        code, out, err = _cli("install", "--sample", "--database-url", url)
        assert code == 0 and "installed: revision none" in out, err
        assert "footnote_ledger (owns the evidence) has no member" in out
        assert "no event trigger: installed without a superuser" in out
        with psycopg.connect(url) as conn:  # the installer cannot act as the role that owns the evidence
            assert conn.execute("SELECT pg_has_role('footnote_ledger', 'USAGE'), "
                                "has_table_privilege('footnote.call_log', 'INSERT')").fetchone() == (False, False)
        code, out, err = _cli("ask", "How much does Bergmann Logistik owe?", "--database-url", url)
        # the DBA's mapping role records nothing through the gate: asking takes footnote_service
        assert code != 0 and "GRANT footnote_service TO" in err, (out, err)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("GRANT footnote_service TO installer")
        code, out, err = _cli("ask", "How much does Bergmann Logistik owe?", "--database-url", url)
        assert code == 0 and "status: verified · ledger #1" in out, err
        code, out, err = _cli("uninstall", "--yes", "--drop-ledger", "--export", str(tmp_path), "--database-url",
                              url)
        assert code == 0 and "footnote-pg removed" in out, err
        with psycopg.connect(fresh.url, autocommit=True) as conn:
            left = conn.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE 'footnote%'").fetchall()
        assert left == []
        assert next(tmp_path.glob("ledger-*.jsonl")).stat().st_size > 0


def test_the_version_table_lives_in_our_schema_and_an_old_install_is_moved(empty_db: TestDatabase) -> None:
    install.upgrade(empty_db.url, install.revisions()[-2])
    assert empty_db.scalar("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "WHERE n.nspname = 'public'") == 0
    assert empty_db.scalar("SELECT version_num FROM footnote_meta.alembic_version") == install.revisions()[-2]
    assert empty_db.scalar("SELECT has_schema_privilege('footnote_service', 'footnote_meta', 'USAGE')") is False
    # an install from before the table moved kept it in public: the next upgrade moves it and goes on
    with empty_db.connect() as conn:
        conn.execute("ALTER TABLE footnote_meta.alembic_version RENAME TO footnote_alembic_version")
        conn.execute("ALTER TABLE footnote_meta.footnote_alembic_version SET SCHEMA public")
    assert install.current_revision(empty_db.url) == install.revisions()[-2]
    code, out, err = _cli("install", "--database-url", empty_db.url)
    assert code == 0 and f"revision {install.revisions()[-2]} -> {install.head_revision()}" in out, err
    assert empty_db.scalar("SELECT to_regclass('public.footnote_alembic_version')") is None
    assert empty_db.scalar("SELECT version_num FROM footnote_meta.alembic_version") == install.head_revision()


def test_a_createrole_installer_where_the_roles_exist_is_told_the_grant_then_installs(server, template_db) -> None:  # type: ignore[no-untyped-def]
    """The footnote roles exist already (the template database was installed by a superuser); an installer
    with CREATEROLE that owns its database has no ADMIN option on them. On PostgreSQL 16+ it is refused with one line
    naming the GRANT a superuser runs; after that GRANT it installs, says it has no DDL guard, and can make login
    roles members of footnote_service as the README says."""
    import uuid

    installer, database = f"installer_{uuid.uuid4().hex[:8]}", f"fn_ci_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_roles WHERE rolname LIKE 'footnote\\_%'").fetchone() == (6,)
        version = int(conn.execute("SHOW server_version_num").fetchone()[0])  # type: ignore[index]
        conn.execute(f"CREATE ROLE {installer} LOGIN CREATEROLE CREATEDB PASSWORD 'installer'")  # type: ignore[arg-type]
        conn.execute(f'CREATE DATABASE "{database}" OWNER {installer}')  # type: ignore[arg-type]
    url = server.url_for(database, user=installer, password="installer")
    try:
        code, out, err = _cli("install", "--database-url", url)
        if version >= 160000:
            grant = (f"GRANT footnote_ledger, footnote_owner, footnote_service, footnote_auditor, footnote_gateway, "
                     f"footnote_redactor "
                     f"TO {installer} "
                     "WITH ADMIN OPTION, INHERIT FALSE, SET FALSE")
            assert code == 2 and err.count("\n") == 1 and not out, err
            assert err.startswith("error: permission denied: the footnote roles exist already")
            assert f"a superuser runs: {grant}; then run footnote-pg install again" in err
            assert "ADMIN option on role" not in err  # PostgreSQL's own words are not what the DBA reads
            assert install.current_revision(url) is None
            with psycopg.connect(server.url, autocommit=True) as conn:
                conn.execute(grant)  # type: ignore[arg-type]
            code, out, err = _cli("install", "--database-url", url)
        assert code == 0 and "installed: revision none" in out, err
        assert "DDL guard off: no event trigger: installed without a superuser" in out
        assert "footnote_ledger (owns the evidence) has no member" in out
        assert "cannot make login roles members" not in out
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT pg_has_role('footnote_ledger', 'USAGE')").fetchone() == (False,)
            conn.execute(f"CREATE ROLE {installer}_app LOGIN IN ROLE footnote_service")  # type: ignore[arg-type]
            assert conn.execute(f"SELECT pg_has_role('{installer}_app', 'footnote_service', 'USAGE')"  # type: ignore[arg-type]  # noqa: S608
                                ).fetchone() == (True,)
        # the guard a superuser adds afterwards, as the line says: sql/95_protect.sql run on its own
        with psycopg.connect(server.url_for(database), autocommit=True) as conn:
            conn.execute((sqlfiles.sql_dir() / "95_protect.sql").read_text(encoding="utf-8"))  # type: ignore[arg-type]
        assert any(line.startswith("DDL guard on: ") for line in install.protection(url))
        with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.Error, match="FN107|refuse"):
            conn.execute("SET ROLE footnote_owner")
            conn.execute("ALTER FUNCTION footnote._op_customer_overdue(text, date) SECURITY INVOKER")
    finally:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')  # type: ignore[arg-type]
            conn.execute(f"DROP ROLE IF EXISTS {installer}_app")  # type: ignore[arg-type]
            conn.execute(f"DROP OWNED BY {installer}")  # type: ignore[arg-type]
            conn.execute(f"DROP ROLE {installer}")  # type: ignore[arg-type]

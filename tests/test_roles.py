"""Role boundaries, proved by connecting as a LOGIN member of each group role."""

from __future__ import annotations

import psycopg
import pytest

from tests.conftest import TestDatabase


def _denied(db: TestDatabase, role: str, statement: str) -> str:
    with db.connect(role) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)  # type: ignore[arg-type]
    assert caught.value.sqlstate == "42501", (statement, caught.value.sqlstate, str(caught.value))
    return str(caught.value)


@pytest.mark.parametrize("statement", [
    "SELECT * FROM erp.invoices",
    "SELECT * FROM erp.customers",
    "SELECT * FROM footnote_src.invoices",
    "SELECT * FROM footnote_src.invoice_balances(current_date)",
    "SELECT * FROM footnote.call_log",
    "SELECT * FROM footnote.queries",
    "SELECT * FROM footnote.settings",
    "INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, operation, arguments, evidence_ids, "
    "result, result_hash, duration_ms) VALUES (gen_random_uuid(), now(), 'x', 1, 'x', '{}', '{}', '{}', "
    "repeat('a', 64), 0)",
    "UPDATE footnote.settings SET value = 'en-US' WHERE key = 'locale'",
    "DELETE FROM footnote.operations",
    "SELECT footnote._resolve('customer', 'customer', 'Bergmann Logistik')",
    "SELECT footnote._finish('x', '{}', now(), '{}')",
    "SELECT footnote._invalid('x', 'y')",
    "CREATE TABLE footnote.mine (a int)",
    "CREATE OR REPLACE VIEW footnote_src.customers AS SELECT 1",
])
def test_service_cannot_read_sources_or_write_ours(db: TestDatabase, statement: str) -> None:
    _denied(db, "service", statement)


def test_service_can_call_the_catalog_and_read_it(db: TestDatabase) -> None:
    with db.connect("service") as conn:
        doc = conn.execute("SELECT footnote.call('customer_overdue', '{\"customer\": \"4471\"}')").fetchone()[0]
        assert doc["values"]["overdue_total"]["text"] == "43.805,00 €"
        assert conn.execute("SELECT count(*) FROM footnote.catalog").fetchone()[0] == 26
        direct = conn.execute("SELECT footnote.customer_overdue('Bergmann Logistik')").fetchone()[0]
        assert direct["values"]["overdue_total"]["raw"] == "43805.00"
        values = conn.execute("SELECT name, text FROM footnote.result_values(%s) WHERE name = 'overdue_total'",
                              (psycopg.types.json.Jsonb(direct),)).fetchall()
        assert values == [("overdue_total", "43.805,00 €")]


def test_call_log_records_the_session_role_and_actor(db: TestDatabase) -> None:
    fn = db.client("service", actor="zoran", actor_role="controller")
    result = fn.call("customer_overdue", customer="Bergmann Logistik")
    row = db.rows("SELECT db_role, actor_id, actor_role, operation, evidence_ids, arguments FROM footnote.call_log "
                  "WHERE call_id = %s", (result.call_id,))[0]
    assert row[:4] == ("fn_test_service", "zoran", "controller", "customer_overdue")
    assert row[4] == [e.id for e in result.evidence]
    assert row[5] == {"customer": "Bergmann Logistik", "as_of": None}


def test_call_log_result_hash_is_the_sha256_of_the_logged_result(db: TestDatabase) -> None:
    from footnote_pg import canonical

    fn = db.client("service")
    result = fn.call("supplier_payment_facts", supplier="Northwind Supply")
    text, stored = db.rows("SELECT result::text, result_hash FROM footnote.call_log WHERE call_id = %s",
                           (result.call_id,))[0]
    assert canonical.sha256_hex(text) == stored  # its jsonb text (docs/hash-spec.md, section 8)


def test_auditor_reads_the_call_log_but_cannot_call_or_change(db: TestDatabase) -> None:
    db.client("service").call("ar_aging")
    with db.connect("auditor") as conn:
        assert conn.execute("SELECT count(*) FROM footnote.call_log").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM footnote.queries").fetchone()[0] > 10
    _denied(db, "auditor", "SELECT footnote.call('ar_aging', '{}')")
    _denied(db, "auditor", "SELECT * FROM erp.invoices")
    _denied(db, "auditor", "DELETE FROM footnote.call_log")


def test_a_role_outside_our_groups_reaches_nothing(db: TestDatabase) -> None:
    _denied(db, "outsider", "SELECT footnote.call('ar_aging', '{}')")
    _denied(db, "outsider", "SELECT * FROM footnote.catalog")


def test_call_log_is_append_only_even_for_its_owner(db: TestDatabase) -> None:
    """footnote_ledger owns it (FN101 from its triggers); footnote_owner has no privilege to write it (42501)."""
    db.client("service").call("ar_aging")
    for role, sqlstate in (("footnote_ledger", "FN101"), ("footnote_owner", "42501")):
        with db.connect() as conn:
            conn.execute(f"SET ROLE {role}")  # type: ignore[arg-type]
            for statement in ("UPDATE footnote.call_log SET operation = 'x'", "DELETE FROM footnote.call_log",
                              "TRUNCATE footnote.call_log CASCADE"):
                with pytest.raises(psycopg.Error) as caught:
                    conn.execute(statement)  # type: ignore[arg-type]
                assert caught.value.sqlstate == sqlstate, (role, statement, caught.value)
    assert db.scalar("SELECT count(*) FROM footnote.call_log") == 1


def test_every_definer_function_pins_search_path_and_is_not_public(db: TestDatabase) -> None:
    rows = db.rows("""
        SELECT p.oid::regprocedure::text, p.prosecdef, p.proconfig, pg_get_userbyid(p.proowner),
               has_function_privilege('public', p.oid, 'EXECUTE') AS public_exec
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname IN ('footnote', 'footnote_src')""")
    assert len(rows) > 30
    for signature, definer, config, owner, public_exec in rows:
        # the ERP's readers run as footnote_owner; everything the ledger runs belongs to footnote_ledger (footnote.call
        # and reattest too: they run the entry points and read no source view)
        reads_the_erp = signature.startswith(("footnote_src.", "footnote._op_", "footnote.evidence_rows(",
                                              "footnote.router_names(", "footnote._customer_evidence(",
                                              "footnote._document_evidence(", "footnote._overdue(",
                                              "footnote._names_matching("))
        assert owner == ("footnote_owner" if reads_the_erp else "footnote_ledger"), signature
        assert not public_exec, f"{signature} is executable by PUBLIC"
        if definer:
            assert config and "search_path=pg_catalog, pg_temp" in config, signature
    definers = {r[0].split("(")[0] for r in rows if r[1]}
    assert "footnote.call" in definers and "footnote.customer_overdue" in definers


def test_shadowing_objects_in_the_callers_path_change_nothing(db: TestDatabase) -> None:
    """Objects named like our dependencies, in the caller's schema and in pg_temp, are never used."""
    fn = db.client("service")
    baseline = fn.call("customer_overdue", customer="Bergmann Logistik")
    with db.connect() as conn:
        conn.execute("CREATE SCHEMA shadow AUTHORIZATION fn_test_service")
    with db.connect("service") as conn:
        conn.execute("""
            CREATE TABLE shadow.invoices (id bigint, customer_id bigint, gross numeric);
            CREATE TABLE shadow.customers (id bigint, name text);
            INSERT INTO shadow.customers VALUES (4471, 'Bergmann Logistik GmbH');
            CREATE FUNCTION shadow.lower(text) RETURNS text LANGUAGE sql AS $$ SELECT 'hijacked' $$;
            CREATE FUNCTION shadow.btrim(text) RETURNS text LANGUAGE sql AS $$ SELECT 'hijacked' $$;
            CREATE FUNCTION shadow.sum(numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT 1::numeric $$;
            CREATE FUNCTION shadow.coalesce(numeric, numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT 0::numeric $$;
            CREATE OPERATOR shadow.< (LEFTARG = date, RIGHTARG = date, FUNCTION = date_gt);
            CREATE TEMP TABLE invoices (id bigint, customer_id bigint);
            CREATE TEMP TABLE customers (id bigint, name text);
            CREATE FUNCTION pg_temp.format(text, text, text) RETURNS text LANGUAGE sql AS $$ SELECT 'hijacked' $$;
            SET search_path = pg_temp, shadow, public;
        """)
        doc = conn.execute("SELECT footnote.call('customer_overdue', '{\"customer\": \"Bergmann Logistik\"}')"
                           ).fetchone()[0]
        direct = conn.execute("SELECT footnote.customer_overdue('Bergmann Logistik')").fetchone()[0]
    for got in (doc, direct):
        assert got["values"] == baseline.document["values"]
        assert got["evidence"] == baseline.document["evidence"]

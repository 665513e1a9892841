import psycopg, pytest
from tests.test_attacks import history, _evidence, _intact, OVERDUE, ANSWER, FORGED_CALL_ROW  # noqa
from tests.conftest import TestDatabase
from footnote_pg import ledger

EVIL = ("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
        "IF current_user = 'footnote_ledger' THEN "
        "INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, operation, arguments, evidence_ids, result, result_hash, duration_ms) "
        "SELECT gen_random_uuid(), now(), 'fn_test_service', 1, 'x', '{}', '{}', d, footnote.sha256_hex(d::text), 1 FROM (SELECT '{\"forged\": 1}'::jsonb AS d) s; "
        "END IF; RETURN true; END $f$")

def report(db, label, before):
    after = _evidence(db)
    sql = db.rows("SELECT ok, problem FROM footnote.verify_chain()")[0]
    calls = db.rows("SELECT ok, problem FROM footnote.verify_calls()")[0]
    with db.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn, recompute_calls=True)
    print(f"\nPROBE {label}: before={before[:4]} after={after[:4]} sql={sql} calls={calls} py={py.ok}")

def run(db, login, stmts):
    with db.connect(login) as conn:
        for s in stmts:
            try:
                conn.execute(s)
            except psycopg.Error as e:
                print("ERR", s[:60], e.sqlstate, str(e).splitlines()[0]); return False
    return True

def test_allow_ddl(history):
    before = _evidence(history)
    ok = run(history, "owner", ["SET footnote.allow_ddl = on",
        "ALTER FUNCTION footnote._op_customer_overdue(text, date) SET search_path = footnote_src, pg_catalog"])
    print("allow_ddl bypass:", ok)

def test_settings_rls(history):
    before = _evidence(history)
    ok = run(history, "owner", ["SET footnote.allow_ddl = on", EVIL,
        "GRANT USAGE ON SCHEMA footnote_src TO footnote_ledger",
        "GRANT EXECUTE ON FUNCTION footnote_src.evil() TO footnote_ledger",
        "ALTER TABLE footnote.settings ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY p ON footnote.settings USING (footnote_src.evil())"])
    print("rls setup", ok)
    run(history, "service", [OVERDUE])
    report(history, "settings_rls", before)

def test_names_invoker(history):
    before = _evidence(history)
    ok = run(history, "owner", ["SET footnote.allow_ddl = on", EVIL,
        "GRANT USAGE ON SCHEMA footnote_src TO footnote_ledger",
        "GRANT EXECUTE ON FUNCTION footnote_src.evil() TO footnote_ledger",
        "GRANT SELECT ON footnote_src.entity_names TO footnote_ledger",
        "DO $d$ BEGIN EXECUTE format('CREATE OR REPLACE VIEW footnote_src.entity_names AS SELECT c.* FROM (%s) AS c WHERE footnote_src.evil()', rtrim(pg_get_viewdef('footnote_src.entity_names'::regclass), ';')); END $d$",
        "ALTER FUNCTION footnote._names_matching(text) SECURITY INVOKER"])
    print("names setup", ok)
    with history.connect("service") as conn:
        cid = conn.execute(OVERDUE).fetchone()[0]
        r = conn.execute("SELECT footnote.submit_answer('q', 'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (cid,)).fetchone()[0]
        print(r.get("status"))
    report(history, "names_invoker", before)

def test_src_refs(db):
    for r in db.rows("""SELECT p.oid::regprocedure::text, pg_get_userbyid(p.proowner), p.prosecdef, p.proconfig FROM pg_proc p
        WHERE p.pronamespace = 'footnote'::regnamespace AND (p.prosrc ~ 'footnote_src' OR pg_get_userbyid(p.proowner) <> 'footnote_ledger') ORDER BY 2, 1"""):
        print("SRCREF", r)

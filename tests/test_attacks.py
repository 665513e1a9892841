"""Attacks on the evidence by every login that can reach the database (docs/threat-model.md).

Each attempt is run by a real login: a member of footnote_owner (the DBA's mapping role, which owns the source
views, the catalog's computations and the settings), the service, the auditor, and a login outside our groups.
Each is either refused by PostgreSQL, or runs and changes no evidence; after each, both verifiers
(footnote.verify_chain() / verify_calls() and the independent Python verifier) say the chain and every cited call
are intact, and no record or call-log row was added but through the gate and the catalog's entry points.
The evidence belongs to footnote_ledger, which no login is a member of.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import psycopg
import pytest
from psycopg import sql

from footnote_pg import ledger
from footnote_pg.queries import query
from tests.conftest import TestDatabase
from tests.test_chain import REFUSAL

OVERDUE = "SELECT footnote.call('customer_overdue', '{\"customer\": \"Bergmann Logistik\"}')->>'call_id'"
ANSWER = "Bergmann Logistik GmbH owes 43.805,00 € overdue."
FORGED_G = """'{"status": "verified", "claims": [], "operations": [], "evidence": [], "findings": []}'::jsonb"""
DOCTORED = ("jsonb_build_object('operation', 'customer_overdue', 'call_id', gen_random_uuid()::text, 'called_at', "
            "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), 'arguments', "
            "'{\"customer\": \"Bergmann Logistik\"}'::jsonb, 'values', "
            "'{\"overdue_total\": {\"kind\": \"amount\", \"raw\": \"0.00\", \"text\": \"0,00 €\"}}'::jsonb)")
FORGED_QUEUE_ROW = ("INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, question, answer, status, "
                    "claims, operations, evidence, findings) VALUES (gen_random_uuid(), now(), 'fn_test_service', "
                    "'answer', 'q', 'Overdue: 0,00 €.', 'verified', '[]', '[]', '[]', '[]')")
FORGED_CALL_ROW = ("INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, operation, arguments, "
                   "evidence_ids, result, result_hash, duration_ms) VALUES (gen_random_uuid(), now(), "
                   "'fn_test_service', 1, 'customer_overdue', '{}', '{}', "
                   "'{\"values\": {\"overdue_total\": {\"text\": \"0,00 €\"}}}', repeat('a', 64), 1)")
QUEUE_RECORD = (f"SELECT footnote._queue_record(gen_random_uuid(), '{{\"id\": null, \"role\": null}}', 'answer', "
                f"'q', 'Overdue: 0,00 €.', {FORGED_G}, NULL, NULL)")
# the customers' source view redefined in place (what reads it, the scoped views too, reads it then) to call evil()
EVIL_VIEW = ("DO $d$ BEGIN EXECUTE format('CREATE OR REPLACE VIEW footnote_src.customers AS SELECT c.* FROM (%s) AS c "
             "WHERE footnote_src.evil()', rtrim(pg_get_viewdef('footnote_src.customers'::regclass), ';')); END $d$")

# Writes, locks and objects that touch the evidence: (login, statements run in one transaction).
ATTEMPTS: dict[str, tuple[str, list[str]]] = {
    # a member of footnote_owner: the evidence is not its own
    "owner_insert_queue": ("owner", [FORGED_QUEUE_ROW]),
    "owner_insert_ledger": ("owner", ["INSERT INTO footnote.ledger (id) VALUES (gen_random_uuid())"]),
    "owner_insert_call_log": ("owner", [FORGED_CALL_ROW]),
    "owner_insert_call_use": ("owner", ["INSERT INTO footnote.call_use SELECT call_id, gen_random_uuid() "
                                        "FROM footnote.call_log LIMIT 1"]),
    "owner_update_ledger": ("owner", ["UPDATE footnote.ledger SET answer = 'Overdue: 0,00 €.'"]),
    "owner_update_queue": ("owner", ["UPDATE footnote.ledger_queue SET status = 'verified'"]),
    "owner_update_call_log": ("owner", ["UPDATE footnote.call_log SET result = result || '{\"values\": {}}'"]),
    "owner_delete_queue": ("owner", ["DELETE FROM footnote.ledger_queue"]),
    "owner_delete_call_use": ("owner", ["DELETE FROM footnote.call_use"]),
    "owner_truncate_call_log": ("owner", ["TRUNCATE footnote.call_log CASCADE"]),
    "owner_truncate_merkle": ("owner", ["TRUNCATE footnote.merkle_nodes"]),
    "owner_delete_chain_lock": ("owner", ["DELETE FROM footnote.chain_lock"]),
    "owner_lock_chain_row": ("owner", ["SELECT FROM footnote.chain_lock FOR UPDATE"]),
    "owner_lock_chain_share": ("owner", ["SELECT FROM footnote.chain_lock FOR KEY SHARE"]),
    "owner_lock_ledger_table": ("owner", ["LOCK TABLE footnote.ledger IN EXCLUSIVE MODE"]),
    "owner_lock_merkle_table": ("owner", ["LOCK TABLE footnote.merkle_nodes IN SHARE ROW EXCLUSIVE MODE"]),
    "owner_temp_child_of_queue": ("owner", ["CREATE TEMP TABLE q () INHERITS (footnote.ledger_queue)"]),
    "owner_temp_child_of_ledger": ("owner", ["CREATE TEMP TABLE l () INHERITS (footnote.ledger)"]),
    "owner_temp_child_of_call_use": ("owner", ["CREATE TEMP TABLE u () INHERITS (footnote.call_use)"]),
    "owner_temp_child_of_call_log": ("owner", ["CREATE TEMP TABLE c () INHERITS (footnote.call_log)"]),
    "owner_child_in_src": ("owner", ["CREATE TABLE footnote_src.q () INHERITS (footnote.ledger_queue)"]),
    "owner_attach_inherit": ("owner", ["CREATE TEMP TABLE q (LIKE footnote.ledger_queue)",
                                       "ALTER TABLE q INHERIT footnote.ledger_queue"]),
    "owner_queue_record": ("owner", [QUEUE_RECORD]),
    "owner_queue_record_in_do": ("owner", [f"DO $$ BEGIN PERFORM {QUEUE_RECORD[7:]}; END $$"]),
    "owner_logged_doctored": ("owner", [f"SELECT footnote._logged('customer_overdue', {DOCTORED})"]),
    "owner_temp_sql_frame": ("owner", [
        f"CREATE FUNCTION pg_temp.customer_overdue(c text) RETURNS jsonb LANGUAGE sql AS "
        f"$f$ SELECT footnote._logged('customer_overdue', {DOCTORED}) $f$",
        "SELECT pg_temp.customer_overdue('Bergmann Logistik')"]),
    "owner_temp_plpgsql_frame": ("owner", [
        f"CREATE FUNCTION pg_temp.record_answer() RETURNS uuid LANGUAGE plpgsql AS "
        f"$f$ BEGIN RETURN {QUEUE_RECORD[7:]}; END $f$",
        "SELECT pg_temp.record_answer()"]),
    "owner_finish_backdated": ("owner", [
        "SELECT footnote._logged('customer_overdue', footnote._finish('customer_overdue', '{}', "
        "now() - interval '1 day', '{\"values\": {}}'))"]),
    "owner_ledger_link_direct": ("owner", ["SELECT footnote._ledger_link()"]),
    "owner_seal_at_commit_direct": ("owner", ["SELECT footnote._seal_at_commit()"]),
    "owner_set_role_ledger": ("owner", ["SET ROLE footnote_ledger"]),
    "owner_grant_itself_ledger": ("owner", ["GRANT footnote_ledger TO fn_test_owner"]),
    "owner_grant_call_log": ("owner", ["GRANT SELECT, INSERT ON footnote.call_log TO fn_test_outsider"]),
    "owner_grant_queue_record": ("owner", ["GRANT EXECUTE ON FUNCTION footnote._queue_record(uuid, jsonb, text, "
                                           "text, text, jsonb, jsonb, jsonb) TO fn_test_service"]),
    "owner_default_privileges": ("owner", ["SET ROLE footnote_owner",
                                           "ALTER DEFAULT PRIVILEGES IN SCHEMA footnote GRANT ALL ON TABLES TO PUBLIC"]),
    "owner_disable_triggers": ("owner", ["ALTER TABLE footnote.ledger DISABLE TRIGGER USER"]),
    "owner_drop_trigger": ("owner", ["DROP TRIGGER ledger_append_only ON footnote.ledger"]),
    "owner_rule_on_queue": ("owner", ["CREATE RULE forge AS ON INSERT TO footnote.ledger_queue DO INSTEAD NOTHING"]),
    "owner_policy_on_ledger": ("owner", ["CREATE POLICY p ON footnote.ledger USING (true)"]),
    "owner_trigger_on_queue": ("owner", [
        "CREATE FUNCTION footnote_src.forge() RETURNS trigger LANGUAGE plpgsql AS "
        "$f$ BEGIN NEW.status := 'verified'; RETURN NEW; END $f$",
        "CREATE TRIGGER a_forge BEFORE INSERT ON footnote.ledger_queue FOR EACH ROW EXECUTE FUNCTION "
        "footnote_src.forge()"]),
    "owner_publication": ("owner", ["CREATE PUBLICATION leak FOR TABLE footnote.call_log"]),
    "owner_drop_schema": ("owner", ["DROP SCHEMA footnote CASCADE"]),
    "owner_drop_call_log": ("owner", ["DROP TABLE footnote.call_log CASCADE"]),
    "owner_rename_schema": ("owner", ["ALTER SCHEMA footnote RENAME TO gone"]),
    "owner_replace_gate": ("owner", ["CREATE OR REPLACE FUNCTION footnote._grade(answer text, claims jsonb, idx jsonb, "
                                     "tpl jsonb, outcome text) RETURNS jsonb LANGUAGE sql AS "
                                     "$f$ SELECT '{\"status\": \"verified\"}'::jsonb $f$"]),
    "owner_shadow_overload": ("owner", ["CREATE FUNCTION footnote.sha256_hex(t varchar) RETURNS text LANGUAGE sql "
                                        "AS $f$ SELECT repeat('0', 64) $f$"]),
    "owner_computation_as_invoker": ("owner", ["ALTER FUNCTION footnote._op_customer_overdue(text, date) "
                                               "SECURITY INVOKER"]),
    "owner_computation_search_path": ("owner", ["ALTER FUNCTION footnote._op_customer_overdue(text, date) "
                                                "SET search_path = footnote_src, pg_catalog"]),
    "owner_replace_computation": ("owner", [
        "CREATE OR REPLACE FUNCTION footnote._op_customer_overdue(customer text, as_of date DEFAULT NULL) "
        "RETURNS jsonb LANGUAGE sql AS $f$ SELECT '{}'::jsonb $f$"]),
    "owner_change_queries": ("owner", ["UPDATE footnote.queries SET sql = 'SELECT 0'"]),
    "owner_change_lexicon": ("owner", ["DELETE FROM footnote.lexicon"]),
    "owner_change_operation_arguments": ("owner", ["UPDATE footnote.operation_arguments SET type = 'text); "
                                                   "INSERT INTO footnote.call_log VALUES (NULL'"]),
    "owner_replication_role": ("owner", ["SET session_replication_role = replica"]),
    # footnote.allow_ddl is a setting any login may set: for a member of footnote_owner the guard refuses all the same
    "owner_allow_ddl_computation": ("owner", ["SET footnote.allow_ddl = on", "ALTER FUNCTION "
                                              "footnote._op_customer_overdue(text, date) SECURITY INVOKER"]),
    "owner_allow_ddl_name_reader": ("owner", ["SELECT set_config('footnote.allow_ddl', 'on', true)",
                                              "ALTER FUNCTION footnote._names_matching(text) SECURITY INVOKER"]),
    "owner_allow_ddl_replace_gate": ("owner", ["SET footnote.allow_ddl = on", "DROP FUNCTION footnote._logged"]),
    # the settings and the scopes, which the ledger's role reads, are not the owner's: no policy, rule or trigger
    # of its own on them (its function would run as whoever reads the table)
    "owner_policy_on_settings": ("owner", ["SET footnote.allow_ddl = on",
                                           "ALTER TABLE footnote.settings ENABLE ROW LEVEL SECURITY"]),
    "owner_policy_on_scope_bindings": ("owner", ["CREATE POLICY p ON footnote.scope_bindings USING (true)"]),
    "owner_trigger_on_settings": ("owner", [
        "CREATE FUNCTION footnote_src.t() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NEW; END $f$",
        "CREATE TRIGGER t BEFORE UPDATE ON footnote.settings FOR EACH ROW EXECUTE FUNCTION footnote_src.t()"]),
    # the end user a gateway verified is named only by the gateway: not by the owner, nor by the mapping's code
    # running inside a gateway's session
    "owner_assert_identity": ("owner", ["SELECT footnote.assert_identity('ceo', 'all')"]),
    # the gate's writers are not the owner's: not from its login, nor from the mapping's code, which runs inside the
    # service's session and would record in the service's name
    "owner_records_a_decision": ("owner", ["SELECT footnote.record_decision('approve', 'x', 'y', NULL, NULL)"]),
    "owner_mapping_records_for_the_service": ("owner", [
        "CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE sql AS $f$ SELECT footnote.record_decision("
        "'approve_payment', 'Bergmann Logistik', 'approved', NULL, NULL) IS NOT NULL $f$",
        EVIL_VIEW, OVERDUE]),
    "owner_security_invoker_catalog": ("owner", ["ALTER VIEW footnote.catalog SET (security_invoker = true)"]),
    "owner_session_authorization": ("owner", ["SET SESSION AUTHORIZATION fn_test_service"]),
    # a view of the mapping (which the owner may redefine) that runs the owner's code: it runs as footnote_owner
    "owner_mapping_runs_a_writer": ("owner", [
        "CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "  # noqa: S608 (an attack)
        f"INSERT INTO footnote.call_log SELECT * FROM footnote.call_log LIMIT 0; {FORGED_CALL_ROW}; RETURN true; "
        "END $f$",
        EVIL_VIEW, OVERDUE]),
    "owner_mapping_calls_logger": ("owner", [
        f"CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE sql AS "
        f"$f$ SELECT footnote._logged('customer_overdue', {DOCTORED}) IS NOT NULL $f$",
        EVIL_VIEW, OVERDUE]),
    # the service
    "service_insert_call_log": ("service", [FORGED_CALL_ROW]),
    "service_insert_queue": ("service", [FORGED_QUEUE_ROW]),
    "service_insert_ledger": ("service", ["INSERT INTO footnote.ledger (id) VALUES (gen_random_uuid())"]),
    "service_logged": ("service", [f"SELECT footnote._logged('customer_overdue', {DOCTORED})"]),
    "service_computation": ("service", ["SELECT footnote._op_customer_overdue('Bergmann Logistik')"]),
    "service_queue_record": ("service", [QUEUE_RECORD]),
    "service_seal_queue": ("service", ["SELECT footnote._seal_queue(false)"]),
    "service_temp_child": ("service", ["CREATE TEMP TABLE q () INHERITS (footnote.ledger_queue)"]),
    "service_lock_chain": ("service", ["SELECT FROM footnote.chain_lock FOR UPDATE"]),
    "service_lock_ledger": ("service", ["LOCK TABLE footnote.ledger IN ACCESS SHARE MODE"]),
    "service_read_call_log": ("service", ["SELECT count(*) FROM footnote.call_log"]),
    "service_temp_shadow": ("service", [
        "CREATE FUNCTION pg_temp.sha256_hex(t text) RETURNS text LANGUAGE sql AS $f$ SELECT repeat('0', 64) $f$",
        "SET search_path = pg_temp, footnote, pg_catalog",
        "SELECT footnote.record_answer('q', 'x', '[]', '{}', 'refusal', NULL, NULL, NULL)",
        "SELECT footnote.seal()",
        "SELECT 1 / (CASE WHEN (SELECT hash FROM footnote.receipt((SELECT (footnote.record_answer('q2', 'y', '[]', "
        "'{}', 'refusal', NULL, NULL, NULL))->>'record_id')::uuid)) = repeat('0', 64) THEN 0 ELSE 1 END)"]),
    "service_replay_call": ("service", [  # an accepted answer's call cited again
        "CREATE TEMP TABLE c AS " + OVERDUE.replace("->>'call_id'", "->>'call_id' AS id"),
        "SELECT footnote.submit_answer('How much does Bergmann Logistik owe?', footnote.compose(ARRAY[(SELECT "
        "id::uuid FROM c)])->>'answer', ARRAY[(SELECT id::uuid FROM c)])",
        "SELECT footnote.submit_answer('How much does Bergmann Logistik owe?', footnote.compose(ARRAY[(SELECT "
        "id::uuid FROM c)])->>'answer', ARRAY[(SELECT id::uuid FROM c)])"]),
    "service_submits_a_made_up_call": ("service", [
        "SELECT footnote.submit_answer('q', 'Overdue: 0,00 €.', "
        "ARRAY['00000000-0000-0000-0000-000000000001']::uuid[])"]),
    "service_set_role_owner": ("service", ["SET ROLE footnote_owner"]),
    "service_grant": ("service", ["GRANT footnote_service TO fn_test_outsider"]),
    # the auditor
    "auditor_insert_ledger": ("auditor", ["INSERT INTO footnote.ledger (id) VALUES (gen_random_uuid())"]),
    "auditor_update_call_log": ("auditor", ["UPDATE footnote.call_log SET operation = 'x'"]),
    "auditor_call": ("auditor", [OVERDUE]),
    "auditor_reattest": ("auditor", ["SELECT * FROM footnote.reattest(1)"]),
    "auditor_temp_child": ("auditor", ["CREATE TEMP TABLE l () INHERITS (footnote.ledger)"]),
    "auditor_lock_ledger": ("auditor", ["LOCK TABLE footnote.ledger IN EXCLUSIVE MODE"]),
    "auditor_record": ("auditor", ["SELECT footnote.record_answer('q', 'x', '[]', '{}', 'refusal', NULL, NULL, NULL)"]),
    # a login outside our groups
    "outsider_read_ledger": ("outsider", ["SELECT * FROM footnote.ledger"]),
    "outsider_verify": ("outsider", ["SELECT * FROM footnote.verify_chain()"]),
    "outsider_lock_chain": ("outsider", ["LOCK TABLE footnote.chain_lock"]),
    "outsider_temp_child": ("outsider", ["CREATE TEMP TABLE l () INHERITS (footnote.ledger)"]),
    "outsider_call": ("outsider", [OVERDUE]),
    "outsider_seal": ("outsider", ["SELECT footnote.seal()"]),
}
# attempts that run without error and change no evidence (the rest must be refused)
HARMLESS = {"service_temp_shadow", "owner_grant_call_log", "owner_grant_queue_record"}
# what a malformed attempt fails with (it would prove nothing): the test refuses these
MALFORMED = {"42601", "42P01", "42703", "42883", "42804", "42P13"}


def _evidence(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows("""SELECT (SELECT count(*) FROM footnote.ledger),  -- our tables, no input
                             (SELECT count(*) FROM footnote.ledger_queue),
                             (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.call_use),
                             (SELECT string_agg(hash, ',' ORDER BY seq) FROM footnote.ledger)""")[0]


def _intact(db: TestDatabase) -> None:
    sql = db.rows("SELECT ok, problem, detail FROM footnote.verify_chain()")[0]
    calls = db.rows("SELECT ok, problem, detail FROM footnote.verify_calls()")[0]
    with db.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn, recompute_calls=True)
    assert sql[0] and calls[0] and py.ok, (sql, calls, py)


@pytest.fixture
def history(db: TestDatabase) -> TestDatabase:
    """Two sealed answers citing real calls, and one refusal."""
    with db.connect("service") as conn:
        for question in ("How much does Bergmann Logistik owe?", "And now?"):
            call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
            conn.execute(query("record_answer"), dict(REFUSAL, question=question, answer=ANSWER, claims=None,
                                                      call_ids=[call_id], outcome="answer", details=None))
        conn.execute(query("record_answer"), REFUSAL)
    return db


@pytest.mark.parametrize("attempt", sorted(ATTEMPTS))
def test_an_attempt_on_the_evidence_is_refused_and_changes_nothing(history: TestDatabase, attempt: str) -> None:
    login, statements = ATTEMPTS[attempt]
    before = _evidence(history)
    error: psycopg.Error | None = None
    with history.connect(login, autocommit=False) as conn:
        try:
            for statement in statements:
                conn.execute(statement)  # type: ignore[arg-type]
            conn.commit()
        except psycopg.Error as exc:
            error = exc
            conn.rollback()
    if attempt in HARMLESS:
        assert error is None, error
    else:
        assert error is not None, f"{attempt} ran"
        assert error.sqlstate not in MALFORMED, (attempt, error)
    if attempt == "service_replay_call":  # the first record went through the gate; the replay was refused
        assert error is not None and error.sqlstate == "FN104"
    after = _evidence(history)
    assert after[:4] == before[:4] or attempt == "service_temp_shadow", (before, after)
    assert after[4].startswith(before[4])  # the sealed history is the same (a harmless attempt may add to it)
    _intact(history)


def test_no_login_is_a_member_of_the_ledger_role_and_it_owns_the_evidence(history: TestDatabase) -> None:
    assert history.rows("SELECT member::regrole::text FROM pg_auth_members "
                        "WHERE roleid = 'footnote_ledger'::regrole") == []
    assert history.scalar("SELECT rolcanlogin FROM pg_roles WHERE rolname = 'footnote_ledger'") is False
    owners = dict(history.rows("""SELECT c.relname, pg_get_userbyid(c.relowner) FROM pg_class c
                                   WHERE c.relnamespace = 'footnote'::regnamespace AND c.relkind IN ('r', 'v')"""))
    for table in ("ledger", "ledger_queue", "call_log", "call_use", "chain_lock", "merkle_nodes", "lexicon",
                  "queries", "operations", "operation_arguments"):
        assert owners[table] == "footnote_ledger", table
    for table in ("settings", "scopes", "scope_bindings", "catalog"):  # the DBA's configuration too
        assert owners[table] == "footnote_ledger", table
    assert history.scalar("SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'footnote'") \
        == "footnote_ledger"
    # the DBA's login still edits the configuration it does not own
    with history.connect("owner", autocommit=False) as conn:
        conn.execute("UPDATE footnote.settings SET value = '30' WHERE key = 'dso_window_days'")
        conn.execute("INSERT INTO footnote.scopes (id, description) VALUES ('probe', 'a scope')")
        conn.execute("DELETE FROM footnote.scopes WHERE id = 'probe'")
        conn.rollback()


def test_a_call_of_the_owners_mapping_code_runs_as_the_owner(history: TestDatabase) -> None:
    """The computations read the ERP through the mapping as footnote_owner: a mapping that says whose
    privileges it runs with sees footnote_owner, never the ledger's role."""
    with history.connect() as conn:
        conn.execute("SET ROLE footnote_owner")
        conn.execute("CREATE TABLE footnote_src.seen (who text)")
        conn.execute("GRANT INSERT ON footnote_src.seen TO PUBLIC")
        conn.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE sql AS "
                     "$f$ INSERT INTO footnote_src.seen VALUES (current_user) RETURNING true $f$")
        conn.execute(EVIL_VIEW)  # type: ignore[arg-type]
    with history.connect("service") as conn:
        conn.execute(OVERDUE)
    assert {r[0] for r in history.rows("SELECT who FROM footnote_src.seen")} == {"footnote_owner"}


def test_a_child_table_is_tampering_for_both_verifiers(history: TestDatabase) -> None:
    with history.connect() as conn:  # only a superuser could, past the event trigger
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("CREATE TABLE public.extra () INHERITS (footnote.call_log)")
        assert caught.value.sqlstate == "FN107" and "inheriting from footnote.call_log" in str(caught.value)
        conn.execute("SET session_replication_role = replica")
        conn.execute("CREATE TABLE public.extra () INHERITS (footnote.call_log)")
    sql = history.rows("SELECT ok, problem, detail FROM footnote.verify_chain()")[0]
    with history.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn)
    assert (sql[0], sql[1]) == (False, "child_table") and "public.extra inherits from footnote.call_log" in sql[2]
    assert (py.ok, py.problem) == (False, "child_table") and py.detail == sql[2]


@pytest.mark.parametrize("column, change", [
    ("called_at", "called_at - interval '1 day'"),
    ("arguments", "'{\"customer\": \"Acme\"}'::jsonb"),
    ("evidence_ids", "evidence_ids[1:1]"),
], ids=["called_at", "arguments", "evidence_ids"])
def test_a_call_column_changed_by_a_superuser_is_named_by_both_verifiers(history: TestDatabase, column: str,
                                                                         change: str) -> None:
    with history.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute(f"UPDATE footnote.call_log SET {column} = {change} "  # type: ignore[arg-type]  # noqa: S608
                     "WHERE call_id = (SELECT (operations->0->>'call_id')::uuid FROM footnote.ledger WHERE seq = 2)")
    sql = history.rows("SELECT ok, first_bad_seq, problem FROM footnote.verify_chain()")[0]
    with history.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn)
    assert sql == (False, 2, "call_changed")
    assert (py.ok, py.first_bad_seq, py.problem) == (False, 2, "call_changed")


def test_regrading_finds_a_text_changed_before_the_seal(db: TestDatabase) -> None:
    """A superuser changes a queued verified answer's text before its seal (sealed as changed: the chain and the
    calls are intact), but graded again the text is not what the gate verified."""
    with db.connect("service", autocommit=False) as conn:
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ  # waits in the queue
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        answer = conn.execute("SELECT footnote.compose(ARRAY[%s]::uuid[])->>'answer'", (call_id,)).fetchone()[0]  # type: ignore[index]
        conn.execute(query("record_answer"), dict(REFUSAL, question="How much does Bergmann Logistik owe?",
                                                  answer=answer, claims=None, call_ids=[call_id], outcome="answer",
                                                  details=None))
        conn.commit()
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger_queue SET answer = replace(answer, '43.805,00', '0,00'), "
                     "canonical_parts = NULL")
    with db.connect("service") as conn:
        conn.execute("SELECT footnote.seal()")
    assert db.rows("SELECT ok, status FROM footnote.verify_chain(), footnote.ledger") == [(True, "verified")]
    ok, seq, problem, detail = db.rows("SELECT ok, first_bad_seq, problem, detail "
                                       "FROM footnote.verify_chain(regrade => true)")[0]
    assert (ok, seq, problem) == (False, 1, "regraded_differently")
    assert "insufficient_evidence, not verified" in detail


def test_regrading_an_honest_chain_finds_every_answer_as_sealed(history: TestDatabase) -> None:
    with history.connect("service") as conn:
        fn_call = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        conn.execute("SELECT footnote.submit_answer('How much does Bergmann Logistik owe?', %s, ARRAY[%s]::uuid[])",
                     (ANSWER, fn_call))
    ok, problem, detail = history.rows("SELECT ok, problem, detail FROM footnote.verify_chain(regrade => true)")[0]
    assert ok and problem is None, detail
    assert detail.startswith("4 records graded again, each as it was sealed")


def test_regrading_in_parts_on_several_connections_names_the_first_changed_record(
        db: TestDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven answers, the 3rd and the 6th changed before their seal: footnote.regrade() over a part names the first
    in it, and `verify --regrade --jobs 3` in parts of two records names the 3rd, whichever part ends first."""
    with db.connect("service", autocommit=False) as conn:
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ  # waits in the queue
        for n in range(7):
            call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
            answer = conn.execute("SELECT footnote.compose(ARRAY[%s]::uuid[])->>'answer'", (call_id,)).fetchone()[0]  # type: ignore[index]
            conn.execute(query("record_answer"), dict(REFUSAL, question=f"How much does Bergmann owe? ({n + 1})",
                                                      answer=answer, claims=None, call_ids=[call_id],
                                                      outcome="answer", details=None))
        conn.commit()
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger_queue SET answer = replace(answer, '43.805,00', '0,00'), "
                     "canonical_parts = NULL WHERE question ~ '\\((3|6)\\)$'")
    with db.connect("service") as conn:
        conn.execute("SELECT footnote.seal()")
    assert db.rows("SELECT ok FROM footnote.verify_chain()") == [(True,)]
    with db.connect("auditor") as conn:
        assert conn.execute("SELECT * FROM footnote.regrade(1, 2)").fetchone() == (2, 0, None, None)
        assert conn.execute("SELECT graded, first_bad_seq FROM footnote.regrade(4, NULL)").fetchone() == (2, 6)
        assert conn.execute("SELECT graded, first_bad_seq FROM footnote.regrade()").fetchone() == (2, 3)
    from typer.testing import CliRunner

    from footnote_pg.cli import app

    monkeypatch.setattr(ledger, "REGRADE_PART", 2)
    out = CliRunner().invoke(app, ["verify", "--database-url", db.url_as("auditor"), "--regrade", "--jobs", "3",
                                   "--json"], catch_exceptions=False)
    verdict = json.loads(out.stdout)
    assert out.exit_code == 1 and (verdict["first_bad_seq"], verdict["problem"]) == (3, "regraded_differently")
    assert "insufficient_evidence, not verified" in verdict["detail"]


def test_an_idle_tree_head_holder_is_ended_after_the_timeout(history: TestDatabase) -> None:
    history.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', '500ms', 'test') RETURNING 1")
    with history.connect("auditor", autocommit=False) as holder:
        holder.execute("SELECT * FROM footnote.tree_head()")  # extends the tree: holds its lock
        holder.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
        with history.connect("service") as conn:
            conn.execute(query("record_answer"), REFUSAL)
        started = time.monotonic()
        with history.connect("service") as other:
            assert other.execute("SELECT tree_size FROM footnote.tree_head()").fetchone() == (4,)
        assert time.monotonic() - started < 4
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")


def test_a_long_statement_after_a_seal_holds_no_one_up(history: TestDatabase) -> None:
    """SELECT footnote.seal(), pg_sleep(...) in one statement: the next seal ends it after seal_lock_timeout."""
    history.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', '500ms', 'test') RETURNING 1")
    outcome: list[Any] = []

    def hold() -> None:
        with history.connect("service") as holder:
            try:
                holder.execute("SELECT footnote.seal(), pg_sleep(30)")
                outcome.append("finished")
            except psycopg.Error as exc:
                outcome.append(exc)

    thread = threading.Thread(target=hold)
    thread.start()
    time.sleep(0.5)
    started = time.monotonic()
    with history.connect("service") as conn:
        record_id = conn.execute(query("record_answer"), REFUSAL).fetchone()[0]["record_id"]  # type: ignore[index]
        assert conn.execute("SELECT seq FROM footnote.receipt(%s)", (record_id,)).fetchone() == (4,)
    assert time.monotonic() - started < 5
    thread.join(10)
    assert outcome and isinstance(outcome[0], psycopg.Error)


def test_a_question_saying_prepare_or_constraints_is_sealed_at_its_commit(db: TestDatabase) -> None:
    """The question written into the statement itself (the text a seal at COMMIT sees as the current query)."""
    with db.connect("service") as conn:
        for question in ("Please prepare the overdue list", "Any constraints on Bergmann's credit?"):
            conn.execute(sql.SQL("SELECT footnote.record_answer({}, 'I can''t.', '[]', '{{}}', 'refusal', NULL, NULL, "
                                 "NULL)").format(sql.Literal(question)))
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 2


def test_without_the_event_trigger_a_computation_made_to_run_as_its_caller_is_refused(history: TestDatabase) -> None:
    """Where no superuser installed the event trigger, footnote_owner may ALTER its computations: one made
    SECURITY INVOKER would run as the ledger's role, which may not even read the source views (42501), and
    _finish runs only as footnote_owner (FN105): refused, and nothing is logged."""
    before = _evidence(history)
    with history.connect() as conn:
        conn.execute("ALTER EVENT TRIGGER footnote_guard_ddl DISABLE")
    with history.connect("owner") as conn:
        conn.execute("ALTER FUNCTION footnote._op_customer_overdue(text, date) SECURITY INVOKER")
    with history.connect("service") as conn:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(OVERDUE)
    assert caught.value.sqlstate in ("42501", "FN105"), caught.value
    assert _evidence(history) == before
    _intact(history)


# The owner's function that writes a call-log row when it runs as the ledger's role (a forgery both verifiers would
# accept: a row written as the entry points write it), and the grants that would let that role run it.
EVIL_AS_LEDGER = [
    "CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
    "IF current_user = 'footnote_ledger' THEN INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, "
    "operation, arguments, evidence_ids, result, result_hash, duration_ms) SELECT gen_random_uuid(), now(), "
    "'fn_test_service', 1, 'customer_overdue', '{}', '{}', d, footnote.sha256_hex(d::text), 1 "
    "FROM (SELECT '{\"forged\": true}'::jsonb AS d) AS x; END IF; RETURN true; END $f$",
    "GRANT USAGE ON SCHEMA footnote_src TO footnote_ledger",
    "GRANT EXECUTE ON FUNCTION footnote_src.evil() TO footnote_ledger",
    "GRANT SELECT ON ALL TABLES IN SCHEMA footnote_src TO footnote_ledger",
    "DO $d$ BEGIN EXECUTE format('CREATE OR REPLACE VIEW footnote_src.entity_names AS SELECT c.* FROM (%s) AS c "
    "WHERE footnote_src.evil()', rtrim(pg_get_viewdef('footnote_src.entity_names'::regclass), ';')); END $d$",
    EVIL_VIEW]


@pytest.mark.parametrize("alter", [
    "ALTER FUNCTION footnote._names_matching(text) SECURITY INVOKER",
    "ALTER FUNCTION footnote._names_matching(text) SET search_path = footnote_src, pg_catalog",
    "ALTER FUNCTION footnote._op_customer_overdue(text, date) SECURITY INVOKER",
    "ALTER FUNCTION footnote._op_customer_overdue(text, date) SET search_path = footnote_src, pg_catalog",
    "ALTER FUNCTION footnote._op_customer_overdue(text, date) SET TimeZone = 'Pacific/Kiritimati'",
    # a helper of the owner's that a computation runs
    "ALTER FUNCTION footnote._overdue(bigint, date) SET search_path = footnote_src, pg_catalog",
])
def test_without_the_event_trigger_the_ledgers_role_runs_no_owner_code_altered(history: TestDatabase,
                                                                               alter: str) -> None:
    """Where no event trigger guards, footnote_owner may ALTER the functions it owns that the ledger's role calls:
    the gate's name reader or a computation made SECURITY INVOKER would run the mapping's code (which the owner
    may let that role read) as the ledger's role, which could then write a call-log row of its own; one given its
    own settings would compute what the queries it records do not say. The entry point and the gate refuse it
    (FN105) before it runs: nothing is written, and both verifiers find the evidence intact."""
    with history.connect() as conn:
        conn.execute("ALTER EVENT TRIGGER footnote_guard_ddl DISABLE")
    with history.connect("service") as conn:
        # for the gate's name reader: a call made before the owner's change, cited by an answer naming a short form
        call_id = None if "_names_matching" not in alter else conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        with history.connect("owner") as owner:
            for statement in [*EVIL_AS_LEDGER, alter]:
                owner.execute(statement)  # type: ignore[arg-type]
        before = _evidence(history)
        with pytest.raises(psycopg.Error) as caught:
            if call_id is None:
                conn.execute(OVERDUE)
            else:  # "Bergmann" is a short form the gate looks up among the names
                conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                             "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
    assert caught.value.sqlstate == "FN105", caught.value
    assert "is not as installed" in str(caught.value)
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.call_log WHERE result ? 'forged'") == 0
    _intact(history)


def test_the_mappings_code_records_nothing_in_the_services_name(history: TestDatabase) -> None:
    """The mapping's code runs inside the service's session: were the gate's writers footnote_owner's to call, a
    view could record a decision (or an answer) the service never made, as the service and its actor, and both
    verifiers would accept it. They are not granted to footnote_owner: the service's call is refused (42501) and
    nothing is recorded."""
    with history.connect("owner") as conn:
        conn.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE sql AS $f$ SELECT "
                     "footnote.record_decision('approve_payment', 'Bergmann Logistik', 'approved', NULL, NULL) "
                     "IS NOT NULL $f$")
        conn.execute(EVIL_VIEW)
    before = _evidence(history)
    with history.connect("service") as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="record_decision"):
            conn.execute(OVERDUE)
    assert _evidence(history) == before
    _intact(history)


@pytest.mark.parametrize("path", ["catalog_call", "router_names", "gate_names"])
def test_the_mappings_code_cannot_change_whom_the_session_speaks_for(history: TestDatabase, path: str) -> None:
    """The mapping's code runs in the caller's session (as footnote_owner): a view that sets footnote.actor would
    make the application's calls and records, and everything after them in the session, name another user, and
    both verifiers would accept them. A computation, the router's name list and the gate's name reader that ran
    such code are refused (FN105), the transaction's abort takes the setting back, and nothing is recorded."""
    with history.connect("service") as conn:
        conn.execute("SET footnote.actor = 'alice'")
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]  # before the mapping changed
        with history.connect("owner") as owner:
            owner.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
                          "PERFORM set_config('footnote.actor', 'mallory', false); RETURN true; END $f$")
            owner.execute(EVIL_VIEW if path != "gate_names" else EVIL_AS_LEDGER[-2])  # type: ignore[arg-type]
        before = _evidence(history)
        with pytest.raises(psycopg.Error) as caught:
            if path == "catalog_call":
                conn.execute(OVERDUE)
            elif path == "router_names":
                conn.execute("SELECT footnote.router_names()")
            else:  # "Bergmann" is a short form the gate looks up among the names
                conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                             "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
        assert caught.value.sqlstate == "FN105" and "footnote.actor" in str(caught.value), caught.value
        assert conn.execute("SELECT current_setting('footnote.actor')").fetchone() == ("alice",)
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.call_log WHERE actor_id = 'mallory'") == 0
    _intact(history)


def test_a_refused_submission_may_be_fixed_and_resubmitted_on_the_same_calls_once(db: TestDatabase) -> None:
    """An agent's text the gate does not accept is recorded; the agent fixes it and submits again on the same
    calls; the ledger links the attempts; once one is accepted, the calls back nothing more (FN104)."""
    question = "How much does Bergmann Logistik owe?"
    with db.connect("service") as conn:
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        fixed = conn.execute("SELECT footnote.compose(ARRAY[%s]::uuid[])->>'answer'", (call_id,)).fetchone()[0]  # type: ignore[index]
        submit = "SELECT footnote.submit_answer(%s, %s, ARRAY[%s]::uuid[])"
        first = conn.execute(submit, (question, fixed.replace("43.805,00", "0,00"), call_id)).fetchone()[0]  # type: ignore[index]
        assert first["status"] != "verified"
        second = conn.execute(submit, (question, fixed, call_id)).fetchone()[0]  # type: ignore[index]
        assert second["status"] == "verified", second
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(submit, (question, fixed, call_id))
    assert caught.value.sqlstate == "FN104" and "accepted" in str(caught.value)
    details = db.scalar("SELECT details FROM footnote.ledger WHERE id = %s", (second["record_id"],))
    assert details["attempt"] == 2 and details["earlier_attempts"] == [first["record_id"]]
    assert db.rows("SELECT status FROM footnote.ledger ORDER BY seq") == [(first["status"],), ("verified",)]
    _intact(db)


def test_a_forged_accepted_record_on_a_tried_call_is_named_by_both_verifiers(db: TestDatabase) -> None:
    """A superuser turns a refused attempt into 'verified' (with its hashes made right): its call was only tried,
    never used by an accepted record."""
    with db.connect("service") as conn:
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        conn.execute("SELECT footnote.submit_answer('q', 'Bergmann Logistik owes 0,00 €.', ARRAY[%s]::uuid[])",
                     (call_id,))
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger AS l SET status = 'verified'")
        conn.execute("UPDATE footnote.ledger AS l SET canonical = footnote._canonical_json(footnote._record_object(l))")
        conn.execute("UPDATE footnote.ledger SET hash = footnote.sha256_hex(canonical)")
    sql = db.rows("SELECT ok, first_bad_seq, problem, detail FROM footnote.verify_chain()")[0]
    with db.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn)
    assert sql[:3] == (False, 1, "not_from_gate") and "is accepted, but the gate never marked" in sql[3]
    assert (py.ok, py.first_bad_seq, py.problem, py.detail) == (False, 1, "not_from_gate", sql[3])


def test_a_result_naming_another_actor_than_the_session_is_not_logged(history: TestDatabase) -> None:
    """The actor in a call-log row is what the computation stamped (footnote._finish). Mapping code could set
    footnote.actor only while the stamp is taken and put it back before the computation returns, so that the
    session's check before and after sees nothing; the row would name another user, and every record citing it,
    with both verifiers content. The entry point compares the result's actor with the session's (FN105), and
    nothing is logged. (The superuser stands in for the mapping code here: it makes a computation that returns
    a result naming mallory.)"""
    with history.connect() as su:
        su.execute("SET footnote.allow_ddl = on")
        definition = su.execute("SELECT pg_get_functiondef('footnote._op_customer_overdue(text, date)'::regprocedure)"
                                ).fetchone()[0]  # type: ignore[index]
        su.execute(definition.replace("footnote._op_customer_overdue(", "footnote._op_customer_overdue_stamped(", 1))
        su.execute("ALTER FUNCTION footnote._op_customer_overdue_stamped(text, date) OWNER TO footnote_owner")
        su.execute("CREATE OR REPLACE FUNCTION footnote._op_customer_overdue(customer text, as_of date DEFAULT NULL) "
                   "RETURNS jsonb LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$ "
                   "SELECT jsonb_set(footnote._op_customer_overdue_stamped(customer, as_of), '{actor,id}', "
                   "'\"mallory\"') $f$")
    before = _evidence(history)
    with history.connect("service") as conn:
        conn.execute("SET footnote.actor = 'alice'")
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(OVERDUE)
    assert caught.value.sqlstate == "FN105", caught.value
    assert "names another actor than the session's" in str(caught.value)
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.call_log WHERE actor_id = 'mallory'") == 0
    _intact(history)


@pytest.mark.parametrize("path", ["catalog_call", "router_names", "gate_names"])
def test_the_mappings_code_makes_no_calls_in_the_callers_name(history: TestDatabase, path: str) -> None:
    """The mapping's code runs in the caller's session: a view that calls an entry point would have a call logged in
    the service's name (its role and actor) that the service never made, and both verifiers would accept it. The
    computation, the router's name list and the gate's name reader that ran such code are refused (FN105), and the
    statement's abort takes the call back: nothing is logged."""
    with history.connect("service") as conn:
        conn.execute("SET footnote.actor = 'alice'")
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]  # before the mapping changed
        with history.connect("owner") as owner:
            owner.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
                          "PERFORM footnote.items_below_reorder(); RETURN true; END $f$")
            owner.execute(EVIL_VIEW if path != "gate_names" else EVIL_AS_LEDGER[-2])  # type: ignore[arg-type]
        before = _evidence(history)
        with pytest.raises(psycopg.Error) as caught:
            if path == "catalog_call":
                conn.execute(OVERDUE)
            elif path == "router_names":
                conn.execute("SELECT footnote.router_names()")
            else:  # "Bergmann" is a short form the gate looks up among the names
                conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                             "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
        assert caught.value.sqlstate == "FN105", caught.value
        assert "called the catalog (items_below_reorder) in the caller's name" in str(caught.value)
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.call_log WHERE operation = 'items_below_reorder'") == 0
    _intact(history)


def test_without_the_event_trigger_the_owner_cannot_alter_the_way_to_an_entry_point(history: TestDatabase) -> None:
    """footnote.call and re-attestation stand between the service and the entry points: given a setting of their own
    (a time zone, a search_path under which a type in footnote_src changes an argument on its way), the entry point
    would compute under it. They belong to footnote_ledger, so footnote_owner cannot ALTER them, even where no event
    trigger guards (42501)."""
    with history.connect() as conn:
        conn.execute("ALTER EVENT TRIGGER footnote_guard_ddl DISABLE")
    for fn in ("footnote.call(text, jsonb)", "footnote.call(text, text)", "footnote.reattest(bigint)"):
        for change in ("SECURITY INVOKER", "SET TimeZone = 'Pacific/Kiritimati'",
                       "SET search_path = footnote_src, pg_catalog", "SET SCHEMA footnote_src"):
            with history.connect("owner") as owner:
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match="must be owner"):
                    owner.execute(f"ALTER FUNCTION {fn} {change}")  # type: ignore[arg-type]
    _intact(history)


def test_without_the_event_trigger_every_function_of_the_owners_altered_stops_the_computations(
        history: TestDatabase) -> None:
    """footnote._owner_code reads pg_proc by name (through its index, on every call): the computations and the
    readers it names. Each function footnote_owner owns in schema footnote, given a setting of its own where no event
    trigger guards, makes a computation refuse to run (FN105): none is left out of the names it reads."""
    with history.connect() as conn:
        conn.execute("ALTER EVENT TRIGGER footnote_guard_ddl DISABLE")
    owned = [r[0] for r in history.rows("SELECT p.oid::regprocedure::text FROM pg_proc AS p WHERE p.pronamespace = "
                                        "'footnote'::regnamespace AND p.proowner = 'footnote_owner'::regrole")]
    assert len(owned) > 30 and "footnote._names_matching(text)" in owned
    before = _evidence(history)
    with history.connect("service") as conn, history.connect("owner") as owner:
        for fn in owned:
            owner.execute(f"ALTER FUNCTION {fn} SET TimeZone = 'Pacific/Kiritimati'")  # type: ignore[arg-type]
            with pytest.raises(psycopg.Error) as caught:
                conn.execute(OVERDUE)
            assert caught.value.sqlstate == "FN105" and fn in str(caught.value), (fn, caught.value)
            owner.execute(f"ALTER FUNCTION {fn} RESET TimeZone")  # type: ignore[arg-type]
        conn.execute(OVERDUE)  # each as installed again: the computation runs
    assert _evidence(history)[2] == before[2] + 1
    _intact(history)


@pytest.mark.parametrize("erasure", ["footnote.redact('customer:Bergmann Logistik', 'R-forged')",
                                     "footnote.prune(false, now(), NULL)"], ids=["redact", "prune"])
def test_the_mappings_code_redacts_nothing_in_an_auditors_name(history: TestDatabase, erasure: str) -> None:
    """The mapping's code also runs inside an auditor's session: verification that grades the answers again reads
    names through the gate's name reader. Were footnote.redact footnote_owner's to call, a view could erase a customer
    from every record and call there, recorded as the auditor's erasure request, and both verifiers would accept it
    (redact refuses only a session whose login is a member of footnote_service or footnote_owner). It is not granted
    to footnote_owner, nor is footnote.prune (retention): the regrading is refused (42501) and nothing is erased."""
    with history.connect("service") as conn:  # an answer naming a short form, which the gate looks up among the names
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                     "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
    with history.connect("owner") as owner:
        owner.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
                      "IF session_user = 'fn_test_auditor' THEN "
                      f"PERFORM {erasure}; END IF; RETURN true; END $f$")
        owner.execute(EVIL_AS_LEDGER[-2])  # type: ignore[arg-type]
    before = _evidence(history)
    with history.connect("auditor") as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match=erasure.split("(")[0].split(".")[1]):
            conn.execute("SELECT * FROM footnote.verify_chain(true)")
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.redactions") == 0
    assert history.scalar("SELECT count(*) FROM footnote.prunes") == 0
    _intact(history)


# The mapping's code puts a statement of its own in place of each of the service's prepared statements (psycopg
# prepares a query it runs often), with the same parameter types: it would run as the service the next time the
# application runs its query, and record a decision in the service's name.
HIJACK = ("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ DECLARE s record; BEGIN "
          "FOR s IN SELECT name, parameter_types FROM pg_prepared_statements WHERE statement LIKE '%footnote.call%' "
          "LOOP EXECUTE format('DEALLOCATE %I', s.name); EXECUTE format('PREPARE %I (%s) AS SELECT "
          "footnote.record_decision(''approve_payment'', ''Bergmann Logistik GmbH'', ''approved'', NULL, NULL)::jsonb "
          "WHERE $1 IS NOT NULL AND $2 IS NOT NULL', s.name, array_to_string(s.parameter_types::text[], ', ')); "
          "END LOOP; RETURN true; END $f$")


@pytest.mark.parametrize("leaves", ["prepared_statement", "temporary_view"])
def test_the_mappings_code_leaves_nothing_in_the_callers_session(history: TestDatabase, leaves: str) -> None:
    """The mapping's code runs in the service's session. A statement it prepares in place of the application's own
    (prepared statements are not transactional) would run later as the service: a decision recorded in the service's
    name, which both verifiers would accept. A temporary view or type of its own would be what the application's
    unqualified SQL finds first (pg_temp comes before pg_catalog). The computation that ran such code is refused
    (FN105): the statements it prepared are deallocated, the objects taken back with the statement."""
    query = "SELECT footnote.call(%s, %s)"
    arguments = ("customer_overdue", json.dumps({"customer": "Bergmann Logistik"}))
    with psycopg.connect(history.url_as("service"), autocommit=True, prepare_threshold=0) as conn:
        conn.execute(query, arguments)  # prepared by psycopg, before the mapping changed
        with history.connect("owner") as owner:
            owner.execute(HIJACK if leaves == "prepared_statement" else  # type: ignore[arg-type]
                          "CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN IF "
                          "to_regclass('pg_temp.pg_roles') IS NULL THEN CREATE TEMP VIEW pg_roles AS SELECT "
                          "'footnote_ledger'::name AS rolname; END IF; RETURN true; END $f$")
            owner.execute(EVIL_VIEW)  # type: ignore[arg-type]
        before = _evidence(history)
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(query, arguments)
        assert caught.value.sqlstate == "FN105", caught.value
        assert ("prepared statements" if leaves == "prepared_statement" else "temporary objects") in str(caught.value)
        assert conn.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%record_decision%'",
                            prepare=False).fetchone() == (0,)
        assert conn.execute("SELECT to_regclass('pg_temp.pg_roles')", prepare=False).fetchone() == (None,)
        with pytest.raises(psycopg.Error):  # the application's statement is gone too: a pool discards the connection
            conn.execute(query, arguments)
    assert _evidence(history) == before
    assert history.scalar("SELECT count(*) FROM footnote.ledger WHERE kind = 'decision'") == 0
    _intact(history)


def test_the_mappings_code_cannot_change_how_the_session_reads_sql(history: TestDatabase) -> None:
    """standard_conforming_strings, transform_null_equals and their kind change how the session parses the SQL of
    footnote_ledger's functions that run after them (with it off, the formatter's pattern '(\\d)' is '(d)'): the
    mapping's code that sets one in the service's session is refused (FN105) and the setting taken back."""
    with history.connect("owner") as owner:
        owner.execute("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
                      "PERFORM set_config('standard_conforming_strings', 'off', false); RETURN true; END $f$")
        owner.execute(EVIL_VIEW)  # type: ignore[arg-type]
    before = _evidence(history)
    with history.connect("service") as conn:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(OVERDUE)
        assert caught.value.sqlstate == "FN105" and "standard_conforming_strings" in str(caught.value), caught.value
        assert conn.execute("SHOW standard_conforming_strings").fetchone() == ("on",)
    assert _evidence(history) == before
    _intact(history)


# The mapping's code changes a setting only for a while within one computation: the payments' view is read twice by
# customer_payments, first for the payments (whose rows it formats at once), then for the invoices they settled. The
# first read switches the setting, the second puts it back, so the session says the same before and after the
# computation (footnote._session_kept sees nothing): the payments' rows were formatted under the other setting.
# (Which read is which: the rows footnote_src.reads holds under the statement's snapshot.)
PAYMENTS = "SELECT footnote.call('customer_payments', '{\"customer\": \"Bergmann Logistik\"}')"
FLIP = ("CREATE FUNCTION footnote_src.evil(later boolean) RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN {switch}; "
        "INSERT INTO footnote_src.reads VALUES (1); RETURN true; END $f$")
SWITCH = ("IF NOT later AND current_setting('fn_evil.kept', true) IS NULL THEN PERFORM set_config('fn_evil.kept', "
          "current_setting('{name}'), false); END IF; PERFORM set_config('{name}', CASE WHEN later THEN "
          "current_setting('fn_evil.kept') ELSE '{value}' END, false)")
TWO_READS = [
    "CREATE TABLE footnote_src.reads (n integer)", "GRANT ALL ON footnote_src.reads TO footnote_owner",
    "DO $d$ BEGIN EXECUTE format('CREATE OR REPLACE VIEW footnote_src.{view} AS SELECT x.* FROM (%s) AS x WHERE {qual}',"
    " rtrim(pg_get_viewdef('footnote_src.{view}'::regclass), ';')); END $d$"]


@pytest.mark.parametrize("switch", [
    SWITCH.format(name="DateStyle", value="SQL, DMY"),
    SWITCH.format(name="footnote.locale", value="en-US"),
    "UPDATE footnote.settings SET value = CASE WHEN later THEN 'EUR' ELSE 'USD' END WHERE key = 'currency'",
], ids=["DateStyle", "locale", "currency"])
def test_a_setting_changed_only_while_a_view_is_read_formats_no_figure(history: TestDatabase, switch: str) -> None:
    """Under a date style switched for that while, a payment's raw date would be '15/03/2026' instead of
    '2026-03-15'; under another locale or currency, its amounts would read '€…' or '… $' in a record that says de-DE
    and EUR. The formatter pins what it depends on and a raw date is written in ISO form whatever the session's date
    style (the result is the honest one); a text formatted under another locale or currency than the session has
    when the result is logged is refused (FN105)."""
    with history.connect("service") as conn:
        conn.execute("SET footnote.locale = 'de-DE'")
        honest = conn.execute(PAYMENTS).fetchone()[0]  # type: ignore[index]
    with history.connect("owner") as owner:
        for statement in [FLIP.format(switch=switch), *TWO_READS]:
            owner.execute(statement.format(view="payments", qual=  # type: ignore[arg-type]
                                           "footnote_src.evil(EXISTS (SELECT FROM footnote_src.reads))"))
    before = _evidence(history)
    with history.connect("service") as conn:
        conn.execute("SET footnote.locale = 'de-DE'")
        if "DateStyle" in switch:  # pinned: the same figures, raw values and texts as the honest call
            flipped = conn.execute(PAYMENTS).fetchone()[0]  # type: ignore[index]
            assert flipped["rows"] == honest["rows"] and flipped["values"] == honest["values"]
        else:
            with pytest.raises(psycopg.Error) as caught:
                conn.execute(PAYMENTS)
            assert caught.value.sqlstate == "FN105", caught.value
            assert "formatted under another locale or currency" in str(caught.value)
    if "DateStyle" not in switch:
        assert _evidence(history) == before
    assert history.scalar("SELECT value FROM footnote.settings WHERE key = 'currency'") == "EUR"
    _intact(history)


def test_a_session_date_style_changes_no_raw_value(history: TestDatabase) -> None:
    """What a call returns does not depend on how the application's session writes dates."""
    with history.connect("service") as conn:
        iso = conn.execute(PAYMENTS).fetchone()[0]  # type: ignore[index]
        conn.execute("SET DateStyle = 'SQL, DMY'")
        dmy = conn.execute(PAYMENTS).fetchone()[0]  # type: ignore[index]
    assert dmy["rows"] == iso["rows"] and dmy["values"] == iso["values"]
    assert iso["rows"][0]["paid_on"]["raw"][4] == "-"


def test_a_view_giving_other_rows_on_a_second_read_gives_no_figure(history: TestDatabase) -> None:
    """A ranking reads the customers' totals once and each listed customer's invoices again for its evidence. A
    mapping that returns other rows on the second read (here: Bergmann's rows vanish once the view has been read
    once in the computation; a volatile function, a table the mapping's code writes) would give a figure whose
    evidence says something else. The computation compares what it read twice and refuses (FN105)."""
    with history.connect("owner") as owner:
        owner.execute("CREATE FUNCTION footnote_src.evil(later boolean) RETURNS boolean LANGUAGE plpgsql AS $f$ "
                      "BEGIN INSERT INTO footnote_src.reads VALUES (1); RETURN true; END $f$")
        for statement in TWO_READS:
            owner.execute(statement.format(view="customers", qual=  # type: ignore[arg-type]
                                           "footnote_src.evil(false) AND (x.name NOT LIKE ''Bergmann%%'' OR NOT "
                                           "EXISTS (SELECT FROM footnote_src.reads))"))
    before = _evidence(history)
    with history.connect("service") as conn:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.call('rank_customers', '{\"measure\": \"outstanding\", \"limit\": 20}')")
    assert caught.value.sqlstate == "FN105", caught.value
    assert "other rows on a second read" in str(caught.value)
    assert _evidence(history) == before
    _intact(history)


# The source view {view} as the owner may make it: read once in a computation, it is what it was; from then on (a table
# the mapping's code writes: footnote_src.reads) its column {column} says {expr} instead.
OTHER_VALUE = ("DO $d$ BEGIN EXECUTE format('CREATE OR REPLACE VIEW footnote_src.{view} AS SELECT %s FROM (%s) AS x "
               "WHERE footnote_src.evil(false)', (SELECT string_agg(CASE WHEN a.attname = '{column}' THEN format("
               "'CASE WHEN EXISTS (SELECT FROM footnote_src.reads) THEN ({expr})::%s ELSE x.%I END AS %I', "
               "format_type(a.atttypid, a.atttypmod), a.attname, a.attname) ELSE format('x.%I', a.attname) END, ', ' "
               "ORDER BY a.attnum) FROM pg_attribute AS a WHERE a.attrelid = 'footnote_src.{view}'::regclass "
               "AND a.attnum > 0 AND NOT a.attisdropped), rtrim(pg_get_viewdef('footnote_src.{view}'::regclass), ';'));"
               " END $d$")
# (the view, its column, what it says on a second read; the call; the figure whose evidence was read again)
SECOND_READS = {
    # the subject resolved from entity_names, its evidence row read again from its view
    "customer": ("customers", "name", "upper(x.name)",
                 ("customer_overdue", {"customer": "Bergmann Logistik"}), "customer"),
    "customer_profile_subject": ("customers", "name", "upper(x.name)",
                                 ("customer_profile", {"customer": "Bergmann Logistik"}), "customer"),
    "supplier": ("suppliers", "name", "upper(x.name)",
                 ("supplier_payment_facts", {"supplier": "Hansa Stahlhandel"}), "supplier"),
    "item": ("items", "name", "upper(x.name)", ("stock_on_hand", {"item": "SKU-10001"}), "item"),
    # each item's stock read again for its evidence
    "items_below_reorder": ("stock", "quantity", "x.quantity + 1000000", ("items_below_reorder", {}),
                           "rows.0.quantity"),
    # the documents behind a customer's revenue read again by id
    "top_customers": ("invoices", "net", "x.net * 2", ("top_customers", {"period": "2026-Q1"}), "rows.0.revenue"),
    "revenue_drivers": ("invoices", "net", "x.net * 2",
                        ("revenue_drivers", {"period_from": "2026-Q1", "period_to": "2026-Q2"}), "rows.0.revenue_to"),
    # two periods that share documents: the second period's evidence is the first's rows
    "revenue_change": ("invoices", "net", "x.net * 2",
                       ("revenue_change", {"period_from": "2026", "period_to": "2026-Q1"}), "revenue_to"),
    # the invoice's balance, then its settlements
    "invoice": ("payments", "amount", "x.amount * 2", ("invoice", {"number": "INV-2025-7001"}), "paid"),
    # the overdue invoices, then the open invoices (their evidence rows)
    "customer_profile_overdue": ("invoices", "gross", "x.gross * 2",
                                 ("customer_profile", {"customer": "Bergmann Logistik"}), "overdue_total"),
}


@pytest.mark.parametrize("case", sorted(SECOND_READS))
def test_a_figure_and_its_evidence_read_twice_come_from_the_same_rows(history: TestDatabase, case: str) -> None:
    """Where a computation takes a figure from one read of the source views and the evidence beside it from another
    (the subject's own row after the name resolver's read, each item's stock, a customer's documents by id, two
    periods sharing documents, an invoice's balance and its settlements, the overdue invoices and the open ones), a
    view that says something else on its second read would log a figure whose evidence says otherwise. The
    computation reads once, or compares the second read with the first and refuses (FN105); with the view as it was,
    the same call gives its figure (tests/test_operations.py, tests/test_portfolio.py)."""
    view, column, expr, (operation, arguments), figure = SECOND_READS[case]
    if case == "items_below_reorder":  # two items short: the sample keeps every item above its level
        with history.connect() as conn:
            conn.execute("UPDATE erp.items SET reorder_level = 100000 "
                         "WHERE id IN (SELECT id FROM erp.items ORDER BY id LIMIT 2)")
    with history.connect("service") as conn:  # the honest call: the figure, and its evidence
        honest = conn.execute("SELECT footnote.call(%s, %s)", (operation, json.dumps(arguments))).fetchone()[0]  # type: ignore[index]
    with history.connect("owner") as owner:
        owner.execute("CREATE FUNCTION footnote_src.evil(later boolean) RETURNS boolean LANGUAGE plpgsql AS $f$ "
                      "BEGIN INSERT INTO footnote_src.reads VALUES (1); RETURN true; END $f$")
        for statement in [*TWO_READS[:2], OTHER_VALUE.format(view=view, column=column, expr=expr)]:
            owner.execute(statement)  # type: ignore[arg-type]
    before = _evidence(history)
    with history.connect("service") as conn:
        try:
            doctored = conn.execute("SELECT footnote.call(%s, %s)",
                                    (operation, json.dumps(arguments))).fetchone()[0]  # type: ignore[index]
        except psycopg.Error as caught:
            assert caught.sqlstate == "FN105", caught
            assert f"{operation}: the source views gave other rows on a second read" in str(caught)
        else:  # what was logged: the figure, and the evidence rows it cites
            value: Any = doctored
            for key in (figure if "." in figure else f"values.{figure}").split("."):
                value = value[int(key)] if key.isdigit() else value[key]
            cited = [e for e in doctored["evidence"] if e["id"] in value["evidence"]]
            pytest.fail(f"logged {value['text']} (honest: {honest['values'].get(figure, {}).get('text')}) beside "
                        f"{json.dumps(cited, ensure_ascii=False)[:600]}")
    assert _evidence(history) == before
    _intact(history)


def test_compose_reads_no_setting_when_it_is_called(history: TestDatabase) -> None:
    """compose() (outside the gate) fills the templates from the logged results only: settings the owner changes
    between a call and its composition (the as-of date, the fiscal year's first month, the locale, the currency) change
    no word of the template answer."""
    with history.connect("service") as conn:
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        compose = "SELECT footnote.compose(ARRAY[%s]::uuid[], NULL, NULL, 'How much does Bergmann owe this year?')"
        before = conn.execute(compose, (call_id,)).fetchone()[0]  # type: ignore[index]
        with history.connect("owner") as owner:
            for key, value in (("as_of", "2026-09-30"), ("fiscal_year_start_month", "4"), ("locale", "en-US"),
                               ("currency", "USD")):
                owner.execute("UPDATE footnote.settings SET value = %s WHERE key = %s", (value, key))
        after = conn.execute(compose, (call_id,)).fetchone()[0]  # type: ignore[index]
    assert after == before and "43.805,00 €" in before["answer"], (before["answer"], after["answer"])


# The mapping's code sets the as-of date in the settings while a catalog call reads the ERP (committed with the
# service's call) and puts it back when the gate reads names for the answer: the gate graded with a setting that
# the DBA never set and that no one sees afterwards.
SETTINGS_FLIP = ("CREATE FUNCTION footnote_src.evil() RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN "
                 "UPDATE footnote.settings SET value = CASE WHEN current_setting('fn_test.gate', true) = 'on' "
                 "THEN {kept} ELSE '2026-09-30' END WHERE key = 'as_of'; RETURN true; END $f$")


def test_settings_the_gate_reads_changed_while_it_grades_are_refused_and_named(history: TestDatabase) -> None:
    """The gate reads its settings (the as-of date, the fiscal year's first month) once, before it runs any code of
    the mapping's; it refuses (FN105) an answer during whose grading they changed, and the record names the settings
    it was graded with, which verify --regrade grades it again with."""
    with history.connect("service") as conn:
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                     "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
    kept = history.scalar("SELECT value FROM footnote.settings WHERE key = 'as_of'")
    as_of = history.scalar("SELECT as_of::text FROM footnote.client_settings()")
    with history.connect("owner") as owner:
        owner.execute(SETTINGS_FLIP.format(kept=sql.Literal(kept).as_string()))  # type: ignore[arg-type]
        owner.execute(EVIL_AS_LEDGER[-2])  # type: ignore[arg-type]  # the gate's names
        owner.execute(EVIL_VIEW)  # type: ignore[arg-type]  # the computations' customers
    with history.connect("service") as conn:
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        assert history.scalar("SELECT value FROM footnote.settings WHERE key = 'as_of'") == "2026-09-30"
        before = _evidence(history)
        conn.execute("SET fn_test.gate = on")
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.submit_answer('How much does Bergmann owe?', "
                         "'Bergmann owes 43.805,00 € overdue.', ARRAY[%s]::uuid[])", (call_id,))
    assert caught.value.sqlstate == "FN105", caught.value
    assert "settings the gate reads changed while it graded (as_of)" in str(caught.value)
    assert _evidence(history) == before
    _intact(history)
    named = history.scalar("SELECT details->'gate'->'settings' FROM footnote.ledger ORDER BY seq DESC LIMIT 1")
    assert named == {"as_of": as_of, "fiscal_year_start_month": 1}, named
    # the grading's abort took the putting back with it: the change the mapping's code made stays, for the DBA to see
    assert history.scalar("SELECT value FROM footnote.settings WHERE key = 'as_of'") == "2026-09-30"

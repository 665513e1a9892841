"""Tampering by the people closest to the ledger (docs/threat-model.md).

footnote_owner and every login: every write of evidence by hand is *prevented*
(42501: the evidence belongs to footnote_ledger, which no login is a member of;
FN101 for footnote_ledger itself). A superuser (who can disable triggers): each change is
*detected* and the record named, by footnote.verify_chain() and by the
independent Python verifier alike. Outside logins and the service role cannot
hold up recording.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from psycopg import IsolationLevel

from footnote_pg import ledger
from footnote_pg.queries import query
from tests.conftest import TestDatabase
from tests.test_chain import REFUSAL, _cli

OVERDUE = "SELECT footnote.call('customer_overdue', '{\"customer\": \"Bergmann Logistik\"}')->>'call_id'"


def composed(conn: psycopg.Connection[Any], call_id: str) -> str:
    row = conn.execute("SELECT footnote.compose(ARRAY[%s]::uuid[])->>'answer'", (call_id,)).fetchone()
    assert row is not None
    return str(row[0])


def record(conn: psycopg.Connection[Any], question: str = "q", call: bool = False) -> str:
    """One recorded answer (citing a real catalog call when ``call``); returns the record id."""
    params = dict(REFUSAL, question=question)
    if call:  # the answer the template gives: verified, so its call backs no other record
        call_id = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        params.update(answer=composed(conn, call_id), claims=None, call_ids=[call_id], outcome="answer", details=None)
    row = conn.execute(query("record_answer"), params).fetchone()
    assert row is not None
    return str(row[0]["record_id"])


def queued_record(db: TestDatabase) -> str:
    """A committed record that waits in the queue: written in REPEATABLE READ, which never seals."""
    with db.connect("service", autocommit=False) as conn:
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        record_id = record(conn, "waiting", call=True)
        conn.commit()
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 1
    return record_id


def as_owner(db: TestDatabase, statement: str, params: Any = None) -> None:
    with db.connect() as conn:
        conn.execute("SET ROLE footnote_owner")
        conn.execute(statement, params)  # type: ignore[arg-type]


def refused(db: TestDatabase, statement: str, sqlstate: str | set[str], params: Any = None) -> str:
    with pytest.raises(psycopg.Error) as caught:
        as_owner(db, statement, params)
    assert caught.value.sqlstate in ({sqlstate} if isinstance(sqlstate, str) else sqlstate), caught.value
    return str(caught.value.diag.message_primary)


def verdicts(db: TestDatabase, recompute: bool = False) -> tuple[tuple[Any, ...], ledger.Verdict]:
    sql = db.rows("SELECT ok, first_bad_seq, problem, detail FROM footnote.verify_chain()")[0]
    if recompute and sql[0]:
        sql = db.rows("SELECT ok, first_bad_seq, problem, detail FROM footnote.verify_calls()")[0]
    with db.connect(autocommit=False) as conn:
        py = ledger.verify_database(conn, recompute_calls=recompute)
    return sql, py


def detected(db: TestDatabase, seq: int | None, problem: str, recompute: bool = False) -> str:
    sql, py = verdicts(db, recompute)
    assert (sql[0], sql[1], sql[2]) == (False, seq, problem), sql
    assert (py.ok, py.first_bad_seq, py.problem) == (False, seq, problem), py
    return str(sql[3])


def superuser(db: TestDatabase, *statements: str) -> None:
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")  # no triggers: what a superuser can always do
        for s in statements:
            conn.execute(s)  # type: ignore[arg-type]


@pytest.fixture
def chain(db: TestDatabase) -> TestDatabase:
    with db.connect("service") as conn:
        for i in range(3):
            record(conn, f"question {i}", call=True)
        record(conn, "a refusal")
    sql, py = verdicts(db)
    assert sql[0] is True and py.ok, (sql, py)
    return db


# -- footnote_owner: prevented by privileges ----------------------------------------------------------------------

def test_the_owner_cannot_change_delete_or_truncate_a_queued_record(db: TestDatabase) -> None:
    record_id = queued_record(db)
    assert "permission denied" in refused(db, "UPDATE footnote.ledger_queue SET status = 'verified', "
                                              "answer = 'Overdue: 0,00 €.'", "42501")
    assert "permission denied" in refused(db, "DELETE FROM footnote.ledger_queue", "42501")
    refused(db, "TRUNCATE footnote.ledger_queue", "42501")
    with db.connect("service") as conn:
        conn.execute("SELECT footnote.seal()")
    assert db.rows("SELECT id::text, left(answer, 47) FROM footnote.ledger") == [
        (record_id, "Bergmann Logistik GmbH owes 43.805,00 € overdue")]
    sql, py = verdicts(db)
    assert sql[0] and py.ok


def test_the_owner_cannot_write_queue_call_use_call_log_or_ledger_by_hand(chain: TestDatabase) -> None:
    message = refused(chain, """
        INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, question, answer, status, claims, operations,
                                           evidence, findings)
        VALUES (gen_random_uuid(), now(), 'fn_test_service', 'answer', 'q', 'Overdue: 0,00 €.', 'verified',
                '[]', '[]', '[]', '[]')""", "42501")
    assert message == "permission denied for table ledger_queue"
    with chain.connect("service") as conn:
        fresh = conn.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
    refused(chain, "INSERT INTO footnote.call_use VALUES (%s, gen_random_uuid())", "42501", (fresh,))
    message = refused(chain, """
        INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, operation, arguments, evidence_ids,
                                       result, result_hash, duration_ms)
        VALUES (gen_random_uuid(), now(), 'fn_test_service', 1, 'customer_overdue', '{}', '{}',
                '{"values": {"overdue_total": {"text": "1,00 €"}}}', repeat('a', 64), 1)""", "42501")
    assert message == "permission denied for table call_log"
    message = refused(chain, "INSERT INTO footnote.ledger (id) VALUES (gen_random_uuid())", "42501")
    refused(chain, "UPDATE footnote.ledger SET answer = 'x' WHERE seq = 1", "42501")
    refused(chain, "DELETE FROM footnote.call_log", "42501")
    refused(chain, "DELETE FROM footnote.call_use", "42501")
    sql, py = verdicts(chain)
    assert sql[0] and py.ok and py.records == 4
    assert chain.scalar("SELECT count(*) FROM footnote.call_use WHERE call_id = %s", (fresh,)) == 0


def test_an_insert_into_the_ledger_only_seals_the_queued_record_as_it_was(db: TestDatabase) -> None:
    record_id = queued_record(db)
    with db.connect() as conn:  # a superuser, triggers on
        conn.execute("SET ROLE footnote_ledger")
        conn.execute("INSERT INTO footnote.ledger (id, answer, status) VALUES (%s, 'Overdue: 0,00 €.', 'verified')",
                     (record_id,))
    assert db.rows("SELECT seq, left(answer, 47) FROM footnote.ledger") == [
        (1, "Bergmann Logistik GmbH owes 43.805,00 € overdue")]
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0


FORGED_G = """'{"status": "verified", "claims": [], "operations": [], "evidence": [], "findings": []}'::jsonb"""
DOCTORED = ("jsonb_build_object('operation', 'customer_overdue', 'call_id', gen_random_uuid()::text, 'called_at', "
            "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
            "'arguments', '{}'::jsonb, "
            "'values', '{\"overdue_total\": {\"kind\": \"amount\", \"raw\": \"0.00\", \"text\": \"0,00 €\"}}'::jsonb)")


@pytest.mark.parametrize("statement", [
    f"SELECT footnote._queue_record(gen_random_uuid(), '{{}}', 'answer', 'q', 'Overdue: 0,00 €.', {FORGED_G}, "
    "NULL, NULL)",
    f"DO $$ DECLARE r uuid; BEGIN r := footnote._queue_record(gen_random_uuid(), '{{}}', 'answer', 'q', 'x', "
    f"{FORGED_G}, NULL, NULL); END $$",
    f"SELECT footnote._logged('customer_overdue', {DOCTORED})",
    # a function of the caller's own, named like an operation, handing the logger a doctored result
    f"CREATE FUNCTION pg_temp.customer_overdue(c text) RETURNS jsonb LANGUAGE sql AS "
    f"$f$ SELECT footnote._logged('customer_overdue', {DOCTORED}) $f$; SELECT pg_temp.customer_overdue('x')",
    "SELECT footnote._finish('customer_overdue', '{}', now(), "
    "'{\"values\": {\"overdue_total\": {\"kind\": \"amount\", \"raw\": \"1.00\", \"text\": \"1,00 €\"}}}')",
    "SELECT footnote._seal_queue(false) FROM footnote.ledger_queue",
], ids=["queue_record", "queue_record_in_do", "logged", "temp_function_frame", "finish", "seal_queue_direct"])
def test_the_owner_cannot_reach_the_writers_behind_the_gate(db: TestDatabase, statement: str) -> None:
    """The writers that are no SECURITY DEFINER run as their caller, who may not write evidence; _finish, which
    only builds a document, refuses to run as anyone but the computation's role; nothing is written."""
    rows = ("SELECT (SELECT count(*) FROM footnote.ledger_queue) + (SELECT count(*) FROM footnote.call_log)"
            " + (SELECT count(*) FROM footnote.ledger)")
    before = db.scalar(rows)
    with db.connect() as conn:
        conn.execute("SET ROLE footnote_owner")
        try:
            conn.execute(statement)  # type: ignore[arg-type]
        except psycopg.Error as exc:
            assert exc.sqlstate in ("42501", "FN105"), exc
    assert db.scalar(rows) == before


def test_a_concurrent_replay_of_one_call_is_fn104(db: TestDatabase) -> None:
    with db.connect("service", autocommit=False) as first:
        call_id = first.execute(OVERDUE).fetchone()[0]  # type: ignore[index]
        first.commit()
        params = dict(REFUSAL, answer=composed(first, call_id), claims=None, call_ids=[call_id], outcome="answer",
                      details=None)
        first.execute(query("record_answer"), params)  # holds its call_use row, uncommitted
        outcome: list[Any] = []

        def second() -> None:
            with db.connect("service") as conn:
                try:
                    conn.execute(query("record_answer"), params)
                    outcome.append("recorded")
                except psycopg.Error as exc:
                    outcome.append(exc)

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.5)
        first.commit()
        thread.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], psycopg.Error), outcome
    assert outcome[0].sqlstate == "FN104" and "concurrent replay" in str(outcome[0])
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 1


# -- holding up recording: prevented ------------------------------------------------------------------------

def _records_within(db: TestDatabase, seconds: float) -> float:
    """Record and commit one answer as the service; how long it took (the test fails past ``seconds``)."""
    started = time.monotonic()
    with db.connect("service") as conn:
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (str(int(seconds * 1000)),))
        record_id = record(conn, "meanwhile")
        receipt = conn.execute("SELECT seq FROM footnote.receipt(%s)", (record_id,)).fetchone()
    assert receipt is not None and receipt[0] is not None
    return time.monotonic() - started


def test_an_outside_login_cannot_take_the_chain_lock(db: TestDatabase) -> None:
    with db.connect("outsider", autocommit=False) as outsider:
        outsider.execute("SELECT pg_advisory_lock(hashtext('footnote.ledger'))")  # the old key: no longer ours
        for attack in ("SELECT FROM footnote.chain_lock FOR UPDATE", "LOCK TABLE footnote.chain_lock",
                       "LOCK TABLE footnote.ledger"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                outsider.execute(attack)  # type: ignore[arg-type]
            outsider.rollback()
            outsider.execute("SELECT pg_advisory_lock(hashtext('footnote.ledger'))")
        assert _records_within(db, 5) < 5


@pytest.mark.parametrize("early", ["SET CONSTRAINTS ALL IMMEDIATE",
                                   "DO $$ BEGIN EXECUTE 'SET CONSTRAINTS ALL IMMEDIATE'; END $$"],
                         ids=["set_constraints", "set_constraints_in_do"])
def test_an_early_seal_seals_nothing_and_blocks_no_one(db: TestDatabase, early: str) -> None:
    with db.connect("service", autocommit=False) as holder:
        mine = record(holder, "held open")
        holder.execute(early)  # type: ignore[arg-type]
        assert _records_within(db, 5) < 5  # another writer records and gets its receipt meanwhile
        time.sleep(0.2)
        assert _records_within(db, 5) < 5
        holder.commit()
    with db.connect("service") as conn:
        assert conn.execute("SELECT seq FROM footnote.receipt(%s)", (mine,)).fetchone() == (3,)
    sql, py = verdicts(db)
    assert sql[0] and py.ok and py.records == 3


def test_a_seal_held_open_costs_others_at_most_the_timeouts(db: TestDatabase) -> None:
    """The holder turns the server's idle timeout off after sealing and idles: the next seal waits
    seal_lock_timeout, ends the holder's session and seals."""
    db.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', '500ms', 'test') RETURNING 1")
    with db.connect("service", autocommit=False) as holder:
        holder.execute("SELECT footnote.seal()")  # holds the chain lock for its transaction
        holder.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
        started = time.monotonic()
        with db.connect("service") as other:
            mine = record(other, "committed while the chain is held")  # COMMIT gives up after seal_commit_wait
            assert time.monotonic() - started < 2
            assert other.execute("SELECT footnote.seal()").fetchone() == (1,)
            assert time.monotonic() - started < 4
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")
    with db.connect("service") as conn:
        assert conn.execute("SELECT seq FROM footnote.receipt(%s)", (mine,)).fetchone() == (1,)


# -- a superuser (or the owner with DDL): detected, the record named, by both verifiers -------------------------

def test_a_deleted_queued_record_is_named_as_lost(db: TestDatabase) -> None:
    record_id = queued_record(db)
    superuser(db, "DELETE FROM footnote.ledger_queue")
    detail = detected(db, None, "record_lost")
    assert record_id in detail


def _forged_record(citing: str) -> str:
    """A record inserted with a correct link and hash, citing the given operations JSON (test text only)."""
    return f"""
        DO $$
        DECLARE r footnote.ledger; head footnote.ledger;
        BEGIN
            SELECT * INTO head FROM footnote.ledger ORDER BY seq DESC LIMIT 1;
            r := ROW(gen_random_uuid(), head.seq + 1, clock_timestamp(), head.db_role, head.actor_id, head.actor_role,
                     'answer', 'How much does Bergmann Logistik owe?', 'Bergmann Logistik owes 1,00 €.', 'verified',
                     '[]', {citing}, '[]', '[]', NULL, NULL, head.hash, NULL, NULL, NULL)::footnote.ledger;
            r.canonical := footnote.canonical_json(footnote._record_object(r));
            r.hash := footnote.sha256_hex(r.canonical);
            INSERT INTO footnote.ledger SELECT r.*;
        END $$"""  # noqa: S608


def test_an_inserted_record_citing_another_records_call_is_named(chain: TestDatabase) -> None:
    superuser(chain, _forged_record("(SELECT operations FROM footnote.ledger WHERE seq = 2)"))
    assert "marked as used by record" in detected(chain, 5, "not_from_gate")


def test_an_inserted_record_citing_a_made_up_call_is_named(chain: TestDatabase) -> None:
    superuser(chain, _forged_record("""jsonb_build_array(jsonb_build_object('call_id', gen_random_uuid()::text,
        'operation', 'customer_overdue', 'result_hash', repeat('b', 64)))"""))
    assert "not in the call log" in detected(chain, 5, "call_missing")


def test_a_call_rewritten_with_its_hash_is_named(chain: TestDatabase) -> None:
    superuser(chain, """UPDATE footnote.call_log SET
        result = jsonb_set(result, '{values,overdue_total,text}', '"1,00 €"'),
        result_hash = repeat('c', 64)
        WHERE call_id = (SELECT (operations->0->>'call_id')::uuid FROM footnote.ledger WHERE seq = 2)""")
    assert "the call log holds customer_overdue with cccccccccccc" in detected(chain, 2, "call_changed")


def test_a_call_given_to_another_actor_is_named(chain: TestDatabase) -> None:
    superuser(chain, """UPDATE footnote.call_log SET actor_id = 'ceo'
        WHERE call_id = (SELECT (operations->0->>'call_id')::uuid FROM footnote.ledger WHERE seq = 3)""")
    # the actor column no longer says what the hashed result says
    assert "no longer agree with the result its hash covers" in detected(chain, 3, "call_changed")


def test_a_call_result_changed_behind_its_hash_is_named_when_results_are_hashed_again(chain: TestDatabase) -> None:
    superuser(chain, """UPDATE footnote.call_log SET
        result = jsonb_set(result, '{values,overdue_total,text}', '"1,00 €"')
        WHERE call_id = (SELECT (operations->0->>'call_id')::uuid FROM footnote.ledger WHERE seq = 2)""")
    sql, py = verdicts(chain)
    assert sql[0] and py.ok  # the quick check compares hashes only
    assert "its result was changed in the call log" in detected(chain, 2, "call_result_changed", recompute=True)
    code, out, _ = _cli("verify", "--database-url", chain.url)
    assert code == 0 and "chain intact: 4 records" in out
    code, _, err = _cli("verify", "--calls", "--database-url", chain.url)
    assert code == 1 and err.startswith("chain broken at record 2: call_result_changed: call ")


def test_a_sealed_text_that_is_not_json_is_a_changed_record(chain: TestDatabase) -> None:
    superuser(chain, "UPDATE footnote.ledger SET canonical = 'not json', hash = footnote.sha256_hex('not json') "
                     "WHERE seq = 3")
    assert "not the JSON of a record" in detected(chain, 3, "content_changed")


# -- footnote_owner with DDL: prevented by the event trigger (installed by a superuser) -----------------------

@pytest.mark.parametrize("statement", [
    "ALTER TABLE footnote.ledger DISABLE TRIGGER ledger_append_only",
    "ALTER TABLE footnote.ledger_queue DISABLE TRIGGER USER",
    "DROP TABLE footnote.ledger CASCADE",
    "DROP TABLE footnote.call_log CASCADE",
    "DROP SCHEMA footnote CASCADE",
    "DROP TRIGGER ledger_append_only ON footnote.ledger",
    "CREATE OR REPLACE FUNCTION footnote._append_only() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RETURN NEW; END $$",
    "CREATE RULE forge AS ON INSERT TO footnote.ledger_queue DO INSTEAD NOTHING",
    "ALTER FUNCTION footnote._append_only() RENAME TO _off",
    "ALTER FUNCTION footnote._op_customer_overdue(text, date) SECURITY INVOKER",
    "CREATE OR REPLACE FUNCTION footnote._op_customer_overdue(customer text, as_of date DEFAULT NULL) RETURNS jsonb "
    "LANGUAGE sql AS $$ SELECT '{}'::jsonb $$",
    "CREATE FUNCTION footnote.sha256_hex(t varchar) RETURNS text LANGUAGE sql AS $$ SELECT '0' $$",
], ids=["disable_trigger", "disable_user_triggers", "drop_ledger", "drop_call_log", "drop_schema", "drop_trigger",
        "replace_guard", "create_rule", "rename_guard", "computation_as_invoker", "replace_computation",
        "shadowing_overload"])
def test_the_owner_cannot_change_the_ledger_objects_with_ddl(chain: TestDatabase, statement: str) -> None:
    """Not its objects (42501), or the event trigger's refusal (FN107) for the computations it owns."""
    message = refused(chain, statement, {"42501", "FN107"})
    assert ("must be owner" in message or "permission denied" in message
            or "is refused: the ledger, the call log and the gate change only through footnote-pg install" in message)
    sql, py = verdicts(chain)
    assert sql[0] and py.ok and py.records == 4


def test_the_owner_cannot_add_a_trigger_to_the_queue(chain: TestDatabase) -> None:
    with chain.connect() as conn:  # a function the owner may use, outside our schema
        conn.execute("CREATE FUNCTION public.forge() RETURNS trigger LANGUAGE plpgsql AS "
                     "$$ BEGIN NEW.status := 'verified'; RETURN NEW; END $$")
    refused(chain, "CREATE TRIGGER a_forge BEFORE INSERT ON footnote.ledger_queue "
                   "FOR EACH ROW EXECUTE FUNCTION public.forge()", "42501")


@pytest.mark.parametrize("statement", ["GRANT SELECT ON footnote.call_log TO PUBLIC",
                                       "GRANT EXECUTE ON FUNCTION footnote._queue_record(uuid, jsonb, text, text, text, jsonb, jsonb, jsonb) "
                                       "TO PUBLIC",
                                       "REVOKE SELECT ON footnote.ledger FROM footnote_auditor",
                                       "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA footnote TO PUBLIC",
                                       "GRANT ALL ON SCHEMA footnote TO PUBLIC",
                                       "ALTER DEFAULT PRIVILEGES IN SCHEMA footnote GRANT SELECT ON TABLES TO PUBLIC",
                                       "ALTER DEFAULT PRIVILEGES FOR ROLE footnote_owner GRANT ALL ON TABLES TO PUBLIC"],
                         ids=["grant_table", "grant_function", "revoke", "all_functions", "schema", "default_in_schema",
                              "default_of_owner"])
def test_a_change_of_privileges_by_a_superuser_is_refused_by_name(db: TestDatabase, statement: str) -> None:
    """Outside a migration even a superuser's GRANT, REVOKE or ALTER DEFAULT PRIVILEGES that would change who may use
    our objects (now or when a revision creates them) is refused, and the refusal says so."""
    def acl() -> list[Any]:
        with db.connect() as conn:
            return conn.execute("SELECT footnote_guard.acl_digest()").fetchall()

    before = acl()
    with db.connect() as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)
    assert caught.value.sqlstate == "FN107"
    tag = "ALTER DEFAULT PRIVILEGES" if statement.startswith("ALTER") else statement.split()[0]
    assert str(caught.value).startswith(f"{tag} on privileges of objects in schema footnote or created by its roles "
                                        "is refused")
    assert acl() == before


def test_the_owner_cannot_switch_the_event_triggers_off(db: TestDatabase) -> None:
    for statement in ("ALTER EVENT TRIGGER footnote_guard_ddl DISABLE", "DROP EVENT TRIGGER footnote_guard_drop",
                      "DROP FUNCTION footnote_guard.refuse_ddl() CASCADE",
                      "CREATE OR REPLACE FUNCTION footnote_guard.refuse_ddl() RETURNS event_trigger "
                      "LANGUAGE plpgsql AS $$ BEGIN END $$"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            as_owner(db, statement)


# -- several changes at once: the earliest is named, whichever of verify_chain's passes finds it -----------------

# each names the record it is applied to ({s}); what verify_chain (and the Python verifier) must say there
SEVERAL = {
    "answer": (["UPDATE footnote.ledger SET answer = answer || ' They are a fraud risk.' WHERE seq = {s}"],
               "content_changed"),
    "not_json": (["UPDATE footnote.ledger SET canonical = left(canonical, -1) WHERE seq = {s}"], "content_changed"),
    "hash": (["UPDATE footnote.ledger SET hash = md5('h' || seq) || md5('x' || seq) WHERE seq = {s}"],
             "content_changed"),
    "link": (["UPDATE footnote.ledger SET prev_hash = md5('p' || seq) || md5('y' || seq) WHERE seq = {s}"],
             "content_changed"),
    "gone": (["DELETE FROM footnote.ledger WHERE seq = {s}"], "sequence_gap"),
    "earlier": (["UPDATE footnote.ledger SET recorded_at = recorded_at - interval '1 hour' WHERE seq = {s}"],
                "content_changed"),
    # rewritten whole (text and hash agree with the columns): only its place or its time gives it away
    "resealed_elsewhere": (["UPDATE footnote.ledger SET seq = seq + 1000 WHERE seq = {s}",
                            "UPDATE footnote.ledger AS l SET canonical = footnote._canonical_json("
                            "footnote._record_object(l)) WHERE seq = {s} + 1000",
                            "UPDATE footnote.ledger SET hash = footnote.sha256_hex(canonical), seq = seq - 1000 "
                            "WHERE seq = {s} + 1000"], "reordered"),
    "resealed_earlier": (["UPDATE footnote.ledger SET recorded_at = recorded_at - interval '1 hour' WHERE seq = {s}",
                          "UPDATE footnote.ledger AS l SET canonical = footnote._canonical_json("
                          "footnote._record_object(l)) WHERE seq = {s}",
                          "UPDATE footnote.ledger SET hash = footnote.sha256_hex(canonical) WHERE seq = {s}"],
                         "reordered"),
}


def test_several_changes_at_once_name_the_earliest_like_the_python_verifier(db: TestDatabase) -> None:
    """verify_chain finds the first bad record with two set-based passes (links in order; content and hashes,
    in parallel where it can) and diagnoses that one alone: with two or three changes anywhere in the chain,
    of every kind, it names the earliest, with the problem a walk in sequence order gives, as the independent
    Python verifier does; a text that is no longer JSON after an earlier broken link is still not what it names."""
    import random

    with db.connect("service") as conn:
        for i in range(12):
            record(conn, f"question {i}", call=i % 3 == 0)
    rng = random.Random(20261202)
    # (the last record gone is a shorter chain, which only a digest kept elsewhere shows: test_a_truncated_tail_*;
    # the first one sealed again earlier has no record before it to be earlier than)
    cases = [[(kind, s)] for kind in SEVERAL for s in (1 if kind != "resealed_earlier" else 2, 7,
                                                        11 if kind == "gone" else 12)]
    cases += [list(zip(rng.sample(sorted(SEVERAL), k), sorted(rng.sample(range(2, 13), k)), strict=True))
              for k in (2, 3) for _ in range(25)]
    cases += [[("link", 3), ("not_json", 9)], [("not_json", 3), ("gone", 9)], [("gone", 2), ("answer", 5)]]
    for case in cases:
        with db.connect(autocommit=False) as conn:
            conn.execute("SET LOCAL session_replication_role = replica")
            for kind, s in case:
                for statement in SEVERAL[kind][0]:
                    conn.execute(statement.format(s=s))  # type: ignore[arg-type]
            row = conn.execute("SELECT ok, first_bad_seq, problem, detail, records FROM footnote.verify_chain()"
                               ).fetchone()
            py = ledger.verify_database(conn)
            conn.rollback()
        assert row is not None
        first_kind, first = min(case, key=lambda c: c[1])
        want = SEVERAL[first_kind][1]
        assert (row[0], row[1], row[2]) == (False, first, want), (case, row)
        assert (py.ok, py.first_bad_seq, py.problem) == (False, first, want), (case, py)
        assert str(first) in row[3], (case, row[3])
    sql, py = verdicts(db)
    assert sql[0] and py.ok, "every change was rolled back"

"""Erasure on an append-only ledger: a customer redacted from the ledger, its queue and the call log, while both
verifiers, receipts, consistency proofs and exported bundles still verify (docs/hash-spec.md §9, docs/ledger.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from footnote_pg import install, ledger, receipts
from footnote_pg.cli import app
from footnote_pg.queries import query
from tests.conftest import TestDatabase
from tests.test_chain import REFUSAL

SUBJECT = "customer:Bergmann Logistik GmbH"
# what identifies the subject in what the ledger and the call log hold (its name, short form, ids, number)
TRACES = ("Bergmann Logistik", "customer:4471", "erp://customer/4471", "C-4471", '"customer_id": "4471"')
TABLES = ("ledger", "ledger_queue", "call_log", "call_use", "call_attempts", "merkle_nodes")


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def sql_verdict(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows("SELECT ok, first_bad_seq, problem, detail FROM footnote.verify_chain()", role="auditor")[0]


def python_verdict(db: TestDatabase) -> ledger.Verdict:
    with db.connect("auditor", autocommit=False) as conn:
        return ledger.verify_database(conn, recompute_calls=True)


def traces(db: TestDatabase) -> dict[str, int]:
    """Rows of our tables whose text holds a trace of the subject, byte for byte (case ignored)."""
    found = {}
    for table in TABLES:
        for trace in TRACES:
            n = db.scalar(f"SELECT count(*) FROM ONLY footnote.{table} AS t "  # noqa: S608 (our table names)
                          "WHERE strpos(lower(t::text), lower(%s)) > 0", (trace,))
            if n:
                found[f"{table}: {trace}"] = n
    return found


def write_story(db: TestDatabase) -> dict[str, Any]:
    """Answers, a decision, a call behind an evidence set and a queued answer that mention Bergmann Logistik, and
    others that do not."""
    fn = db.client("service")
    with db.connect() as conn:  # small evidence sets, so the customer's aging cites one
        conn.execute("UPDATE footnote.settings SET value = '2' WHERE key = 'max_evidence_rows'")
    fn.call("ar_aging", customer="Bergmann Logistik GmbH")
    aging = fn.ask("Show the AR aging of Bergmann Logistik GmbH")
    with db.connect() as conn:
        conn.execute("UPDATE footnote.settings SET value = '10000' WHERE key = 'max_evidence_rows'")
    answers = [fn.ask(q) for q in ("Is Bergmann Logistik at risk?", "How much does Bergmann Logistik GmbH owe?",
                                   "Show AR aging", "How much does Bergmann Bau AG owe?")]
    r = fn.call("customer_risk", customer="Bergmann Logistik GmbH")
    decision = fn.decide("hold", "Bergmann Logistik GmbH credit", "Four invoices are overdue.",
                         [{"evidence": "customer:4471", "call_id": r.call_id}], [r.call_id])
    with db.connect("service", autocommit=False) as conn:  # a writer in REPEATABLE READ: its record stays queued
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        with conn.transaction():
            conn.execute(query("record_answer"), {**REFUSAL, "question": "Will Bergmann Logistik pay next quarter?"})
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 1
    sets = db.scalar("SELECT count(*) FROM footnote.call_log WHERE result::text LIKE '%%evidence_set%%'")
    return {"answers": [aging, *answers], "decision": decision, "evidence_sets": sets}


@pytest.fixture(scope="module")
def erased(module_db: TestDatabase, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = module_db
    story = write_story(db)
    tmp = tmp_path_factory.mktemp("erasure")
    with db.connect("auditor", autocommit=True) as conn:
        story["receipt"] = receipts.make_receipt(conn, 2)
    assert _cli("digest", "-o", str(tmp / "old.json"), "--database-url", db.url_as("auditor"))[0] == 0
    story["before"] = {"sql": sql_verdict(db), "python": python_verdict(db), "traces": traces(db)}
    code, out, err = _cli("redact", "--subject", SUBJECT, "--request", "GDPR-2026-0117",
                          "--database-url", db.url_as("redactor"))
    assert code == 0, err
    story["redact_out"] = out
    assert _cli("digest", "--extends", str(tmp / "old.json"), "-o", str(tmp / "new.json"),
                "--database-url", db.url_as("auditor"))[0] == 0
    story["tmp"] = tmp
    return story


def test_the_story_mentions_the_subject_everywhere_before(erased: dict[str, Any]) -> None:
    before = erased["before"]
    assert before["sql"][0] is True and before["python"].ok
    assert erased["evidence_sets"] > 0
    assert {k.split(":")[0] for k in before["traces"]} >= {"ledger", "call_log"}


def test_nothing_of_the_subject_remains(module_db: TestDatabase, erased: dict[str, Any]) -> None:
    assert traces(module_db) == {}
    assert module_db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0
    # others stay: Bergmann Bau AG's answer is whole
    assert module_db.scalar("SELECT count(*) FROM footnote.ledger WHERE answer LIKE '%%Bergmann Bau AG%%'") >= 1


def test_both_verifiers_pass_and_say_what_is_redacted(module_db: TestDatabase, erased: dict[str, Any]) -> None:
    ok, bad, problem, detail = sql_verdict(module_db)
    assert (ok, bad, problem) == (True, None, None)
    verdict = python_verdict(module_db)
    assert verdict.ok and verdict.redacted > 0
    assert detail == f"{verdict.redacted} parts of " + detail.split(" parts of ", 1)[1]
    code, out, _ = _cli("verify", "--calls", "--database-url", module_db.url_as("auditor"))
    assert code == 0 and f"{verdict.redacted} parts redacted" in out


def test_the_redaction_is_a_record_auditors_read(module_db: TestDatabase, erased: dict[str, Any]) -> None:
    rows = module_db.rows("SELECT seq, redacted_by, request, subject_kind, records, parts, calls, not_redactable "
                          "FROM footnote.redactions", role="auditor")
    assert len(rows) == 1
    seq, by, request, kind, records, parts, calls, old = rows[0]
    assert (by, request, kind, old) == ("fn_test_redactor", "GDPR-2026-0117", "customer", [])
    assert records >= 3 and parts >= records and calls >= 3
    assert seq == module_db.scalar("SELECT max(seq) FROM footnote.ledger")
    assert f"redaction record {seq}" in erased["redact_out"] and "the ERP itself" in erased["redact_out"]
    record = module_db.rows("SELECT canonical, details::text FROM footnote.ledger WHERE seq = %s", (seq,))[0]
    assert not any(t.lower() in (record[0] + record[1]).lower() for t in TRACES)


def test_a_receipt_issued_before_still_verifies(erased: dict[str, Any]) -> None:
    outcome = receipts.verify_receipt(json.loads(json.dumps(erased["receipt"])))
    assert outcome.ok, outcome


def test_a_consistency_proof_across_the_redaction_verifies(erased: dict[str, Any]) -> None:
    tmp: Path = erased["tmp"]
    code, out, err = _cli("verify", "--digest", str(tmp / "old.json"), "--digest", str(tmp / "new.json"))
    assert code == 0, err


def test_an_export_after_the_redaction_verifies_offline_and_opens_no_redacted_part(
        module_db: TestDatabase, erased: dict[str, Any], tmp_path: Path) -> None:
    bundle = tmp_path / "after.jsonl"
    assert _cli("export", str(bundle), "--database-url", module_db.url_as("auditor"))[0] == 0
    text = bundle.read_text(encoding="utf-8")
    assert not any(t.lower() in text.lower() for t in TRACES)
    code, out, err = _cli("verify", "--bundle", str(bundle))
    assert code == 0 and "parts redacted" in out, err
    # an opening changed by one byte: the record is named
    lines = bundle.read_bytes().split(b"\n")
    at = next(i for i, line in enumerate(lines) if b"Bergmann Bau AG" in line)
    lines[at] = lines[at].replace(b"Bergmann Bau AG", b"Bergmann Bau AH", 1)
    (tmp_path / "edited.jsonl").write_bytes(b"\n".join(lines))
    code, _, err = _cli("verify", "--bundle", str(tmp_path / "edited.jsonl"))
    assert code == 1 and f"chain broken at record {at}: content_changed" in err


def test_reattest_skips_what_is_redacted(module_db: TestDatabase, erased: dict[str, Any]) -> None:
    seq = module_db.scalar("SELECT min(seq) FROM footnote.ledger WHERE claims @> '[{\"redacted\": true}]'")
    code, out, _ = _cli("reattest", str(seq), "--database-url", module_db.url_as("service"))
    assert "redacted" in out and "not attested again" in out, out


@pytest.mark.parametrize("role", ["service", "owner", "auditor"])
def test_a_redaction_by_another_role_is_refused(module_db: TestDatabase, role: str) -> None:
    with module_db.connect(role) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM footnote.redact('customer:4471', 'R-1')")
    code, _, err = _cli("redact", "--subject", "customer:4471", "--request", "R-1",
                        "--database-url", module_db.url_as(role))
    assert code == 2 and "footnote_redactor" in err and "Traceback" not in err


def test_a_redactor_that_is_also_the_service_is_refused(db: TestDatabase) -> None:
    user = "fn_test_redactor_and_service"
    with db.connect() as conn:
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (user,)).fetchone() is None:
            conn.execute(f"CREATE ROLE {user} LOGIN PASSWORD 'fn-test-password' IN ROLE footnote_redactor, "
                         "footnote_service")
    url = db.server.url_for(db.name, user=user, password="fn-test-password")
    with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege,
                                                                       match="may not redact"):
        conn.execute("SELECT * FROM footnote.redact('customer:4471', 'R-1')")


@pytest.mark.parametrize("subject, request_ref, wanted", [
    ("4471", "R-1", "subject"), ("employee:7", "R-1", "subject"), ("customer:4471", " ", "request")])
def test_a_bad_subject_or_request_is_one_clear_line(module_db: TestDatabase, subject: str, request_ref: str,
                                                    wanted: str) -> None:
    code, _, err = _cli("redact", "--subject", subject, "--request", request_ref,
                        "--database-url", module_db.url_as("redactor"))
    assert code == 2 and wanted in err and "Traceback" not in err


def test_changing_an_unredacted_byte_still_fails_naming_the_record(db: TestDatabase) -> None:
    write_story(db)
    assert _cli("redact", "--subject", SUBJECT, "--request", "R-2", "--database-url", db.url_as("redactor"))[0] == 0
    # a record with redacted parts; one of its parts that was not redacted, changed by one character
    seq, at = db.rows("SELECT l.seq, c.n - 1 FROM footnote.ledger AS l, jsonb_array_elements(l.claims) "
                      "WITH ORDINALITY AS c(claim, n) WHERE strpos(l.salts::text, 'null') > 0 AND c.claim ? 'text' "
                      "ORDER BY l.seq, c.n LIMIT 1")[0]
    with db.connect() as conn:  # a superuser, without triggers
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET claims = jsonb_set(claims, ARRAY[%s::text, 'text'], "
                     "to_jsonb(claims->%s->>'text' || '0')) WHERE seq = %s", (at, at, seq))
    ok, bad, problem, detail = sql_verdict(db)
    assert (ok, bad, problem) == (False, seq, "content_changed") and "claims" in detail
    verdict = python_verdict(db)
    assert (verdict.ok, verdict.first_bad_seq, verdict.problem) == (False, seq, "content_changed")


def test_a_redaction_placeholder_cannot_hide_a_change(db: TestDatabase) -> None:
    """Content written where a part was redacted, or a salt dropped without the content: content_changed."""
    write_story(db)
    assert _cli("redact", "--subject", SUBJECT, "--request", "R-3", "--database-url", db.url_as("redactor"))[0] == 0
    seq = db.scalar("SELECT min(seq) FROM footnote.ledger WHERE answer IS NULL AND salts->'answer' = 'null'")
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = 'Nothing is overdue.' WHERE seq = %s", (seq,))
    assert sql_verdict(db)[:3] == (False, seq, "content_changed")
    assert python_verdict(db).first_bad_seq == seq
    # and the append-only tables refuse a hand-made redaction, whoever asks
    with db.connect() as conn, pytest.raises(psycopg.Error, match="append-only"):
        conn.execute("UPDATE footnote.ledger SET salts = jsonb_set(salts, '{question}', 'null'), question = NULL "
                     "WHERE seq = (SELECT max(seq) FROM footnote.ledger WHERE salts ? 'question')")


def test_old_version_records_still_verify_after_the_upgrade(empty_db: TestDatabase) -> None:
    """Installed at the revision before hash version 2, records written, upgraded, more written: both verifiers
    pass both versions; a redaction names the old records it cannot redact and leaves them verifying."""
    db = empty_db
    install.upgrade(db.url, "0027_payables")
    install.load_sample(db.url)
    fn = db.client("service")
    fn.ask("Is Bergmann Logistik at risk?")
    fn.ask("Show AR aging")
    fn.close()
    install.upgrade(db.url)
    fn = db.client("service")
    fn.ask("How much does Bergmann Logistik GmbH owe?")
    fn.ask("How much does Bergmann Bau AG owe?")
    versions = db.rows("SELECT seq, salts IS NOT NULL FROM footnote.ledger ORDER BY seq")
    assert [v for _, v in versions] == [False, False, True, True]
    assert sql_verdict(db)[0] is True and python_verdict(db).ok
    code, out, err = _cli("redact", "--subject", "customer:4471", "--request", "R-4", "--json",
                          "--database-url", db.url_as("redactor"))
    assert code == 0, err
    outcome = json.loads(out)
    assert outcome["not_redactable"] == [1, 2] and outcome["records"] >= 1
    assert sql_verdict(db)[0] is True and python_verdict(db).ok

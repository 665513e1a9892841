"""Retention on an append-only ledger: the records older than the policy pruned behind a checkpoint (the tree head
at the cut), while both verifiers, receipts issued before, consistency proofs across it and the bundle exported
before it still verify (docs/ledger.md#retention, docs/hash-spec.md §10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from footnote_pg import ledger, receipts
from footnote_pg.cli import app
from footnote_pg.queries import query
from tests.conftest import TestDatabase
from tests.test_chain import REFUSAL

POLICY = {"retention_days.answers": "0", "retention_days.refusals": "0", "retention_days.calls": "0"}
SNAPSHOT = "SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM ONLY footnote.{} AS t"


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def sql_verdict(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows("SELECT ok, first_bad_seq, problem, detail FROM footnote.verify_chain()", role="auditor")[0]


def python_verdict(db: TestDatabase) -> ledger.Verdict:
    with db.connect("auditor", autocommit=False) as conn:
        return ledger.verify_database(conn, recompute_calls=True)


def snapshot(db: TestDatabase) -> tuple[str, ...]:
    return tuple(db.scalar(SNAPSHOT.format(t)) for t in ("ledger", "call_log", "ledger_queue"))


def set_policy(db: TestDatabase, policy: dict[str, str | None]) -> None:
    with db.connect() as conn:
        for key, value in policy.items():
            conn.execute("UPDATE footnote.settings SET value = %s WHERE key = %s", (value, key))


@pytest.fixture(scope="module")
def pruned(module_db: TestDatabase, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Old answers, a refusal, a decision and a call no record cites; then newer answers; a policy keeping no answer,
    refusal or uncited call (decisions for ever) and a prune of what is older than the first newer record."""
    db = module_db
    tmp = tmp_path_factory.mktemp("retention")
    story: dict[str, Any] = {"tmp": tmp}
    redactor = db.url_as("redactor")
    story["no_policy"] = _cli("prune", "--dry-run", "--database-url", redactor)
    fn = db.client("service")
    for q in ("Is Bergmann Logistik at risk?", "How much does Bergmann Logistik GmbH owe?", "Show AR aging"):
        fn.ask(q)
    with db.connect("service") as conn, conn.transaction():
        conn.execute(query("record_answer"), REFUSAL)
    r = fn.call("customer_risk", customer="Bergmann Logistik GmbH")
    fn.decide("hold", "Bergmann Logistik GmbH credit", "Four invoices are overdue.",
              [{"evidence": "customer:4471", "call_id": r.call_id}], [r.call_id])
    fn.call("ar_aging", customer="Bergmann Bau AG")  # cited by no record
    old_max = db.scalar("SELECT max(seq) FROM footnote.ledger")
    for q in ("How much does Bergmann Bau AG owe?", "Is Bergmann Logistik at risk?"):
        fn.ask(q)
    fn.close()
    story["old_max"] = old_max
    story["before"] = db.scalar("SELECT recorded_at FROM footnote.ledger WHERE seq = %s", (old_max + 1,))
    story["kept_seq"] = db.scalar("SELECT max(seq) FROM footnote.ledger")
    story["rows_before"] = {s: (q, a) for s, q, a in db.rows("SELECT seq, question, answer FROM footnote.ledger")}
    with db.connect("auditor", autocommit=True) as conn:
        story["receipt"] = receipts.make_receipt(conn, story["kept_seq"])
        story["receipt_pruned"] = receipts.make_receipt(conn, 1)
    assert _cli("digest", "-o", str(tmp / "old.json"), "--database-url", db.url_as("auditor"))[0] == 0
    set_policy(db, POLICY)
    before = story["before"].isoformat()
    story["snapshot"] = snapshot(db)
    story["dry"] = _cli("prune", "--dry-run", "--json", "--before", before, "--database-url", redactor)
    story["snapshot_after_dry"] = snapshot(db)
    code, out, err = _cli("prune", "--export", str(tmp), "--json", "--before", before, "--database-url", redactor)
    assert code == 0, err
    story["outcome"] = json.loads(out)
    assert _cli("digest", "--extends", str(tmp / "old.json"), "-o", str(tmp / "new.json"),
                "--database-url", db.url_as("auditor"))[0] == 0
    return story


def test_without_a_policy_every_record_is_kept(pruned: dict[str, Any]) -> None:
    code, out, _ = pruned["no_policy"]
    assert code == 0 and "no retention policy is set" in out


def test_a_dry_run_changes_nothing_and_says_what_a_prune_would_do(pruned: dict[str, Any]) -> None:
    assert pruned["snapshot_after_dry"] == pruned["snapshot"]
    code, out, _ = pruned["dry"]
    dry = json.loads(out)
    assert code == 0 and dry["dry_run"] is True and dry["record_id"] is None
    done = pruned["outcome"]
    assert (dry["cut"], dry["records"], dry["parts"], dry["calls"]) == \
        (done["cut"], done["records"], done["parts"], done["calls"])


def test_the_records_beyond_the_policy_lose_their_contents_and_the_others_stay(
        module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    rows = module_db.rows("SELECT seq, kind, question, answer, NOT jsonb_path_exists(salts, "
                          "'strict $.** ? (@.type() == \"string\")'), decision->>'action' FROM footnote.ledger "
                          "ORDER BY seq")
    old_max, done = pruned["old_max"], pruned["outcome"]
    gone = [seq for seq, _, q, a, emptied, _ in rows if q is None and a is None and emptied]
    # every answer and refusal before the cut, not the decision (decisions are kept for ever), nothing after
    assert gone == [seq for seq, kind, *_ in rows if seq <= old_max and kind == "answer"]
    assert done["cut"] == max(gone) and done["records"] == len(gone) and done["calls"] >= 1
    for seq, _, q, a, _, _ in rows:
        if seq not in gone and seq in pruned["rows_before"]:
            assert (q, a) == pruned["rows_before"][seq]
    decision = next(r for r in rows if r[1] == "decision" and r[0] <= old_max)
    assert decision[2] is not None and decision[5] == "hold"
    # the call no record cites went with the policy; the calls the newer answers cite are whole
    assert module_db.scalar("SELECT count(*) FROM footnote.call_log WHERE result ? 'redacted'") == done["calls"]
    assert module_db.scalar("SELECT count(*) FROM footnote.call_log AS c WHERE c.result ? 'redacted' AND EXISTS "
                            "(SELECT FROM footnote.ledger AS l, jsonb_array_elements(l.operations) AS o "
                            "WHERE o->>'call_id' = c.call_id::text)") == 0


def test_the_prune_is_a_record_auditors_read(module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    rows = module_db.rows("SELECT seq, pruned_by, policy, cut, records, by_kind, parts, calls, checkpoint "
                          "FROM footnote.prunes", role="auditor")
    assert len(rows) == 1
    seq, by, policy, cut, records, by_kind, parts, calls, checkpoint = rows[0]
    done = pruned["outcome"]
    assert (by, seq) == ("fn_test_redactor", done["seq"])
    assert policy == {"answers": 0, "refusals": 0, "calls": 0}
    assert (cut, records, parts, calls) == (done["cut"], done["records"], done["parts"], done["calls"])
    assert by_kind == {"answers": records - 1, "refusals": 1}
    head = module_db.rows("SELECT hash FROM footnote.ledger WHERE seq = %s", (cut,))[0][0]
    assert checkpoint["tree_size"] == cut and checkpoint["seq"] == cut and checkpoint["hash"] == head
    text = module_db.rows("SELECT canonical || details::text FROM footnote.ledger WHERE seq = %s", (seq,))[0][0]
    assert "Bergmann" not in text and "4471" not in text


def test_both_verifiers_pass_from_the_checkpoint_and_say_so(module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    cut = pruned["outcome"]["cut"]
    ok, bad, problem, detail = sql_verdict(module_db)
    assert (ok, bad, problem) == (True, None, None)
    assert f"pruned up to record {cut}: verified from the checkpoint at record {cut}" in detail
    verdict = python_verdict(module_db)
    assert verdict.ok and verdict.pruned is not None and f"pruned up to record {cut}" in verdict.pruned
    code, out, _ = _cli("verify", "--calls", "--database-url", module_db.url_as("auditor"))
    assert code == 0 and "verified from the checkpoint" in out


def test_receipts_issued_before_still_verify(pruned: dict[str, Any]) -> None:
    assert receipts.verify_receipt(json.loads(json.dumps(pruned["receipt"]))).ok
    # the receipt of a pruned record, too: it carries the record as it was
    assert receipts.verify_receipt(json.loads(json.dumps(pruned["receipt_pruned"]))).ok


def test_a_consistency_proof_across_the_prune_verifies(pruned: dict[str, Any]) -> None:
    tmp: Path = pruned["tmp"]
    code, _, err = _cli("verify", "--digest", str(tmp / "old.json"), "--digest", str(tmp / "new.json"))
    assert code == 0, err


def test_an_older_digest_checks_the_checkpoint_and_the_bundle_verifies_offline_against_it(
        module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    tmp: Path = pruned["tmp"]
    done = pruned["outcome"]
    checkpoint = json.loads(Path(done["checkpoint_file"]).read_text(encoding="utf-8"))
    assert (checkpoint["tree_size"], checkpoint["root_hash"]) == \
        (done["checkpoint"]["tree_size"], done["checkpoint"]["root_hash"])
    # the older digest extends the checkpoint: the prune kept the history it signed
    code, _, err = _cli("verify", "--digest", done["checkpoint_file"], "--digest", str(tmp / "old.json"),
                        "--database-url", module_db.url_as("auditor"))
    assert code == 0, err
    # the bundle exported before the prune: offline, its records end in the checkpoint's
    code, out, err = _cli("verify", "--bundle", done["bundle"])
    assert code == 0, err
    manifest, lines = ledger.read_bundle(Path(done["bundle"]))
    assert manifest["last_seq"] == done["cut"] and manifest["head_hash"] == checkpoint["hash"]
    assert any(b"Bergmann Logistik" in line for line in lines)  # what was pruned is in the bundle


def test_a_changed_byte_in_a_kept_record_still_fails_naming_it(module_db: TestDatabase,
                                                               pruned: dict[str, Any]) -> None:
    seq = pruned["kept_seq"]
    answer = module_db.scalar("SELECT answer FROM footnote.ledger WHERE seq = %s", (seq,))
    with module_db.connect() as conn:  # a superuser, without triggers
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = answer || '0' WHERE seq = %s", (seq,))
    try:
        assert sql_verdict(module_db)[:3] == (False, seq, "content_changed")
        verdict = python_verdict(module_db)
        assert (verdict.ok, verdict.first_bad_seq, verdict.problem) == (False, seq, "content_changed")
    finally:
        with module_db.connect() as conn:
            conn.execute("SET session_replication_role = replica")
            conn.execute("UPDATE footnote.ledger SET answer = %s WHERE seq = %s", (answer, seq))
    assert sql_verdict(module_db)[0] is True


def test_a_second_prune_has_nothing_left_to_do(module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    code, out, err = _cli("prune", "--json", "--before", pruned["before"].isoformat(),
                          "--database-url", module_db.url_as("redactor"))
    again = json.loads(out)
    assert code == 0 and (again["records"], again["calls"], again["seq"]) == (0, 0, None), err
    code, out, _ = _cli("prune", "--dry-run", "--before", pruned["before"].isoformat(),
                        "--database-url", module_db.url_as("redactor"))
    assert code == 0 and "would prune 0 parts of 0 records and 0 calls" in out
    # the newer records are beyond a policy of 0 days too, once --before no longer holds them back: said, not done
    code, out, _ = _cli("prune", "--dry-run", "--database-url", module_db.url_as("redactor"))
    assert code == 0 and "would prune" in out and "checkpoint: tree of" in out


@pytest.mark.parametrize("role", ["service", "owner", "auditor"])
def test_a_prune_by_another_role_is_refused(module_db: TestDatabase, role: str) -> None:
    with module_db.connect(role) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM footnote.prune()")
    code, _, err = _cli("prune", "--database-url", module_db.url_as(role))
    assert code == 2 and "footnote_redactor" in err and "Traceback" not in err


def test_a_bad_policy_or_time_is_one_clear_line(module_db: TestDatabase, pruned: dict[str, Any]) -> None:
    redactor = module_db.url_as("redactor")
    code, _, err = _cli("prune", "--dry-run", "--before", "yesterday", "--database-url", redactor)
    assert code == 2 and "before" in err and "Traceback" not in err
    with pytest.raises(psycopg.Error, match="invalid setting retention_days.answers: must be a number of days"):
        set_policy(module_db, {"retention_days.answers": "a year"})


def test_a_changed_record_is_not_pruned(db: TestDatabase) -> None:
    """Erasing the parts of a record changed behind the gate's back would erase the evidence: the prune is refused,
    naming the record, and changes nothing."""
    fn = db.client("service")
    for q in ("How much does Bergmann Logistik GmbH owe?", "Show AR aging"):
        fn.ask(q)
    fn.close()
    set_policy(db, {"retention_days.answers": "0"})
    with db.connect() as conn:  # a superuser, without triggers
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = answer || '0' WHERE seq = 2")
    kept = snapshot(db)
    code, _, err = _cli("prune", "--database-url", db.url_as("redactor"))
    assert code == 1 and "record 2 differs from what was sealed: nothing was pruned" in err and "Traceback" not in err
    assert snapshot(db) == kept

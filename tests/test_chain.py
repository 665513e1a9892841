"""The ledger chain: concurrency, tampering, the independent verifier, bundles, digests, re-attestation."""

from __future__ import annotations

import json
import threading
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import IsolationLevel
from psycopg.types.json import Jsonb

from footnote_pg import canonical, ledger
from footnote_pg.queries import query
from tests.conftest import TestDatabase
from tests.gatehelp import claim

REFUSAL = {"question": "What will revenue be next quarter?", "answer": "I can't forecast.", "claims": Jsonb([]),
           "call_ids": [], "outcome": "refusal", "details": Jsonb({"reason": "forecast"}), "template": None,
           "narration": None}


def append(conn: psycopg.Connection[Any], n: int, question: str = "q") -> None:
    for i in range(n):
        with conn.transaction():
            conn.execute(query("record_answer"), {**REFUSAL, "question": f"{question} {i}"})


def python_verdict(db: TestDatabase) -> ledger.Verdict:
    with db.connect(autocommit=False) as conn:
        return ledger.verify_database(conn)


def sql_verdict(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows("SELECT ok, records, first_bad_seq, problem, detail FROM footnote.verify_chain()")[0]


# -- concurrency ----------------------------------------------------------------------------------------------

def _writer(url: str, isolation: IsolationLevel, n: int, tag: str, committed: list[int], errors: list[str]) -> None:
    try:
        with psycopg.connect(url) as conn:
            conn.isolation_level = isolation
            done = 0
            for i in range(n):
                rollback = i % 7 == 3
                with conn.transaction(force_rollback=rollback):
                    conn.execute(query("record_answer"), {**REFUSAL, "question": f"{tag} {i}"})
                if not rollback:
                    done += 1
            committed.append(done)
    except Exception as exc:  # reported by the test, with the writer's tag
        errors.append(f"{tag}: {exc!r}")


WRITES = 60  # per writer: sixteen writers still overlap throughout; more only lengthens the suite


@pytest.mark.parametrize("isolation", [IsolationLevel.READ_COMMITTED, IsolationLevel.REPEATABLE_READ,
                                       IsolationLevel.SERIALIZABLE], ids=["read_committed", "repeatable_read",
                                                                          "serializable"])
def test_sixteen_concurrent_writers_never_fork_or_skip(db: TestDatabase, isolation: IsolationLevel) -> None:
    committed: list[int] = []
    errors: list[str] = []
    threads = [threading.Thread(target=_writer, args=(db.url_as("service"), isolation, WRITES, f"w{k}", committed,
                                                      errors)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with db.connect("service") as conn:
        conn.execute("SELECT footnote.seal()")  # records of REPEATABLE READ / SERIALIZABLE writers wait for this
    total = sum(committed)
    assert total == 16 * (WRITES - len([i for i in range(WRITES) if i % 7 == 3]))
    seqs = [r[0] for r in db.rows("SELECT seq FROM footnote.ledger ORDER BY seq")]
    assert seqs == list(range(1, total + 1)), "gap-free, one record per committed transaction"
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0
    assert db.scalar("SELECT count(DISTINCT prev_hash) FROM footnote.ledger") == total
    times = [r[0] for r in db.rows("SELECT recorded_at FROM footnote.ledger ORDER BY seq")]
    assert times == sorted(times), "time never runs backwards along the chain"
    assert sql_verdict(db)[:2] == (True, total)
    assert python_verdict(db).ok


def test_a_long_transaction_does_not_block_other_writers(db: TestDatabase) -> None:
    opened, release = threading.Event(), threading.Event()

    def long_writer() -> None:
        with psycopg.connect(db.url_as("service")) as conn, conn.transaction():
            conn.execute(query("record_answer"), {**REFUSAL, "question": "long"})
            opened.set()
            release.wait(30)

    t = threading.Thread(target=long_writer)
    t.start()
    assert opened.wait(30)
    with psycopg.connect(db.url_as("service")) as conn:
        append(conn, 20, "quick")  # each commits and is sealed while the long transaction stays open
    sealed_meanwhile = db.scalar("SELECT count(*) FROM footnote.ledger WHERE question LIKE 'quick%'")
    release.set()
    t.join()
    assert sealed_meanwhile == 20
    assert db.rows("SELECT seq FROM footnote.ledger WHERE question = 'long'") == [(21,)]
    assert python_verdict(db).ok


def test_commits_while_the_chain_is_sealing_are_sealed_in_one_batch_in_commit_order(db: TestDatabase) -> None:
    """Group sealing: while one transaction holds the chain lock, other writers' COMMITs do not wait for it; their
    records stay queued, committed, and the next seal takes all of them in one batch, numbered in the order they
    were queued, the chain intact."""
    with psycopg.connect(db.url_as("service")) as holder:
        holder.execute("BEGIN")
        holder.execute("SELECT footnote.seal()")  # holds the chain lock until its transaction ends
        started = time.monotonic()
        with psycopg.connect(db.url_as("service")) as conn:
            append(conn, 6, "grouped")
        took = time.monotonic() - started
        assert db.scalar("SELECT count(*) FROM footnote.ledger") == 0
        assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 6
        holder.execute("COMMIT")
    print(f"  6 commits while the chain was held: {took * 1000:.0f} ms")
    with psycopg.connect(db.url_as("service")) as conn:
        assert conn.execute("SELECT footnote.seal()").fetchone() == (6,)
    assert db.rows("SELECT seq, question FROM footnote.ledger ORDER BY seq") == \
        [(i + 1, f"grouped {i}") for i in range(6)]
    assert python_verdict(db).ok and sql_verdict(db)[0]


def test_a_rolled_back_record_leaves_no_number_behind(db: TestDatabase) -> None:
    with psycopg.connect(db.url_as("service")) as conn:
        append(conn, 2)
        with conn.transaction(force_rollback=True):
            conn.execute(query("record_answer"), REFUSAL)
        append(conn, 2)
    assert [r[0] for r in db.rows("SELECT seq FROM footnote.ledger ORDER BY seq")] == [1, 2, 3, 4]


# -- roles --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("statement", [
    "UPDATE footnote.ledger SET answer = 'x'",
    "DELETE FROM footnote.ledger",
    "TRUNCATE footnote.ledger",
    "INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, kind, status, claims, operations, evidence, findings,"
    " prev_hash, canonical, hash) VALUES (gen_random_uuid(), 1, now(), 'x', 'answer', 'verified', '[]', '[]', '[]',"
    " '[]', repeat('0', 64), '', repeat('0', 64))",
    "INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, status, claims, operations, evidence, findings)"
    " VALUES (gen_random_uuid(), now(), 'x', 'answer', 'verified', '[]', '[]', '[]', '[]')",
    "DELETE FROM footnote.call_use",
    "SELECT footnote._seal_queue()",
    "SELECT footnote._queue_record('answer', 'q', 'a', '{}', '{}', NULL, NULL)",
    "SET ROLE footnote_owner",
    "SET SESSION AUTHORIZATION postgres",
    "SET session_replication_role = replica",
    "ALTER TABLE footnote.ledger DISABLE TRIGGER USER",
])
def test_the_service_role_cannot_touch_the_ledger(db: TestDatabase, statement: str) -> None:
    with db.connect("service") as conn:
        append(conn, 1)
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(statement)  # type: ignore[arg-type]
    assert caught.value.sqlstate in ("42501", "42883"), (statement, caught.value.sqlstate, str(caught.value))
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 1


def test_the_trigger_function_cannot_be_called(db: TestDatabase) -> None:
    with db.connect("service") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote._ledger_link()")
    assert caught.value.sqlstate in ("42501", "0A000")


def test_the_ledger_is_append_only_for_every_role(db: TestDatabase) -> None:
    with db.connect("service") as conn:
        append(conn, 2)
    with db.connect() as conn:  # a superuser, triggers enabled
        for statement in ("UPDATE footnote.ledger SET answer = 'x' WHERE seq = 1",
                          "DELETE FROM footnote.ledger WHERE seq = 2", "TRUNCATE footnote.ledger CASCADE"):
            with pytest.raises(psycopg.Error) as caught:
                conn.execute(statement)  # type: ignore[arg-type]
            assert caught.value.sqlstate == "FN101"


def test_the_database_role_cannot_be_forged(db: TestDatabase) -> None:
    with db.connect("service") as conn:
        conn.execute("SET footnote.actor = 'ceo'")
        conn.execute("SELECT set_config('footnote.db_role', 'postgres', false)")
        append(conn, 1)
    assert db.rows("SELECT db_role, actor_id FROM footnote.ledger") == [("fn_test_service", "ceo")]


# -- tampering by a superuser ----------------------------------------------------------------------------------

def _tamper(db: TestDatabase, *statements: str) -> None:
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        for s in statements:
            conn.execute(s)  # type: ignore[arg-type]


@pytest.fixture
def chain(db: TestDatabase) -> TestDatabase:
    with db.connect("service") as conn:
        append(conn, 8)
    assert sql_verdict(db)[0] is True
    return db


def _named(db: TestDatabase, seq: int, sql_problems: set[str], py_problems: set[str]) -> None:
    ok, _records, bad, problem, detail = sql_verdict(db)
    assert (ok, bad) == (False, seq) and problem in sql_problems, (problem, detail)
    verdict = python_verdict(db)
    assert (verdict.ok, verdict.first_bad_seq) == (False, seq) and verdict.problem in py_problems, verdict


def test_changing_one_field_names_the_record(chain: TestDatabase) -> None:
    _tamper(chain, "UPDATE footnote.ledger SET answer = 'I can forecast.' WHERE seq = 5")
    _named(chain, 5, {"content_changed"}, {"content_changed"})
    assert "answer" in sql_verdict(chain)[4]


def test_deleting_a_record_names_the_gap(chain: TestDatabase) -> None:
    _tamper(chain, "DELETE FROM footnote.ledger WHERE seq = 4")
    _named(chain, 4, {"sequence_gap"}, {"sequence_gap"})


def test_swapping_two_records_is_caught(chain: TestDatabase) -> None:
    _tamper(chain, "UPDATE footnote.ledger SET seq = 1000003 WHERE seq = 3",
            "UPDATE footnote.ledger SET seq = 3 WHERE seq = 4",
            "UPDATE footnote.ledger SET seq = 4 WHERE seq = 1000003")
    _named(chain, 3, {"reordered"}, {"content_changed", "reordered"})


def test_a_forged_record_with_a_wrong_link_is_caught(chain: TestDatabase) -> None:
    _tamper(chain, """
        INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, kind, question, answer, status, claims, operations,
                                     evidence, findings, prev_hash, canonical, hash)
        SELECT gen_random_uuid(), 9, clock_timestamp(), 'fn_test_service', 'answer', 'q', 'forged', 'verified',
               '[]', '[]', '[]', '[]', repeat('a', 64), '', repeat('0', 64)""",
        """UPDATE footnote.ledger SET canonical = footnote.canonical_json(footnote._record_object(ledger))
           WHERE seq = 9""",
        "UPDATE footnote.ledger SET hash = footnote.sha256_hex(canonical) WHERE seq = 9")
    _named(chain, 9, {"link_broken"}, {"link_broken"})


REWRITE = """
DO $$
DECLARE r footnote.ledger; prev text;
BEGIN
    SELECT hash INTO prev FROM footnote.ledger WHERE seq = 2;
    FOR r IN SELECT * FROM footnote.ledger WHERE seq >= 3 ORDER BY seq LOOP
        IF r.seq = 3 THEN r.answer := 'a rewritten answer'; END IF;
        r.prev_hash := prev;
        r.canonical := footnote.canonical_json(footnote._record_object(r));
        r.hash := footnote.sha256_hex(r.canonical);
        UPDATE footnote.ledger SET answer = r.answer, prev_hash = r.prev_hash, canonical = r.canonical, hash = r.hash
        WHERE seq = r.seq;
        prev := r.hash;
    END LOOP;
END $$"""


def _digest(db: TestDatabase, tmp_path: Path, key: bytes | None = None) -> Path:
    with db.connect(autocommit=False) as conn:
        head = ledger.chain_head(conn)
    assert head is not None
    path = tmp_path / "digest.json"
    path.write_text(canonical.canonical_json(ledger.make_digest(head, key)), encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from footnote_pg.cli import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_consistent_rewrite_passes_the_chain_but_not_the_digest(chain: TestDatabase, tmp_path: Path) -> None:
    digest = _digest(chain, tmp_path)
    assert _cli("verify", "--digest", str(digest), "--database-url", chain.url_as("auditor"))[0] == 0
    _tamper(chain, REWRITE)
    assert sql_verdict(chain)[0] is True and python_verdict(chain).ok, "a consistent rewrite fools the chain alone"
    code, _, err = _cli("verify", "--digest", str(digest), "--database-url", chain.url_as("auditor"))
    assert code == 1 and "chain broken at record 8: rewritten" in err
    assert chain.rows("SELECT ok, problem FROM footnote.verify_digest(8, %s)",
                      (json.loads(digest.read_text())["hash"],)) == [(False, "rewritten")]


def test_a_truncated_tail_is_caught_by_the_digest(chain: TestDatabase, tmp_path: Path) -> None:
    digest = _digest(chain, tmp_path)
    _tamper(chain, "DELETE FROM footnote.ledger WHERE seq > 6")
    assert python_verdict(chain).ok
    code, _, err = _cli("verify", "--digest", str(digest), "--database-url", chain.url_as("auditor"))
    assert code == 1 and "truncated" in err and "chain ends at 6" in err


def test_a_signed_digest_verifies_and_a_wrong_key_is_refused(chain: TestDatabase, tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    for name, k in (("pub.pem", key), ("other.pem", other)):
        (tmp_path / name).write_bytes(k.public_key().public_bytes(serialization.Encoding.PEM,
                                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
    digest = _digest(chain, tmp_path, pem)
    url = chain.url_as("auditor")
    pinned = str(tmp_path / "pub.pem")
    assert _cli("verify", "--digest", str(digest), "--public-key", pinned, "--database-url", url)[0] == 0
    code, _, err = _cli("verify", "--digest", str(digest), "--public-key", str(tmp_path / "other.pem"),
                        "--database-url", url)
    assert code == 2 and "signature does not verify" in err
    doc = json.loads(digest.read_text())
    doc["seq"] = 7
    digest.write_text(json.dumps(doc))
    code, _, err = _cli("verify", "--digest", str(digest), "--database-url", url)
    assert code == 2 and "signature does not verify" in err


# -- the independent verifier agrees with SQL -----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.decimals(allow_nan=False, allow_infinity=False).filter(lambda d: abs(d.adjusted()) < 60)
    | st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                              max_size=12), children, max_size=5),
    max_leaves=25,
)


def _loose_json(value: Any) -> str:
    """Valid but non-canonical JSON: reversed keys, spaces, exponents, escapes."""
    if isinstance(value, dict):
        return "{ " + " , ".join(f"{json.dumps(k)} : {_loose_json(v)}" for k, v in reversed(list(value.items()))) + " }"
    if isinstance(value, list):
        return "[ " + " , ".join(_loose_json(v) for v in value) + " ]"
    if isinstance(value, Decimal):
        return f"{value:E}" if value.adjusted() % 2 else str(value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
def test_python_and_sql_canonical_json_agree(db: TestDatabase, value: Any) -> None:
    text = _loose_json(value)
    with db.connect() as conn:
        sql_text, sql_hash = conn.execute("SELECT footnote.canonical_json(%s::jsonb), "
                                          "footnote.sha256_hex(footnote.canonical_json(%s::jsonb))",
                                          (text, text)).fetchone()  # type: ignore[misc]
    py_text = canonical.canonical_json(canonical.loads(text))
    assert py_text == sql_text
    assert canonical.sha256_hex(py_text) == sql_hash


claims_strategy = st.lists(st.fixed_dictionaries({
    "text": st.text(max_size=20).filter(lambda s: "\x00" not in s),
    "span": st.fixed_dictionaries({"start": st.integers(0, 10**6), "end": st.integers(0, 10**6)}),
    "evidence": st.lists(st.text(min_size=1, max_size=15).filter(lambda s: "\x00" not in s), max_size=3),
    "amount": st.decimals(min_value=Decimal("-1e15"), max_value=Decimal("1e15"), places=2).map(str),
    "nested": json_values,
}), max_size=4)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.text(max_size=80).filter(lambda s: "\x00" not in s),
       answer=st.text(max_size=200).filter(lambda s: "\x00" not in s), claims=claims_strategy,
       question_null=st.booleans(), parts=st.booleans(), version2=st.booleans())
def test_python_verifies_records_sealed_by_sql(db: TestDatabase, question: str, answer: str, claims: list,
                                               question_null: bool, parts: bool, version2: bool) -> None:
    """A record sealed from the pieces the gate writes (footnote._canonical_parts: the canonical text but for
    seq, time and link) or, queued without them, canonicalised whole: both verifiers find the same text, for a
    version 1 record and for a version 2 one (its parts' commitments over their jsonb text, docs/hash-spec.md §9)."""
    text = _loose_json(claims)
    with db.connect() as conn:  # queue it by hand (a superuser, without triggers), then let SQL seal it
        conn.execute("SET session_replication_role = replica")
        record_id = conn.execute("""
            INSERT INTO footnote.ledger_queue
            SELECT (jsonb_populate_record(q, jsonb_build_object('canonical_parts',
                        CASE WHEN %(parts)s THEN footnote._canonical_parts(q) END))).*
            FROM (SELECT (gen_random_uuid(), now(), current_user, 'hypothesis ✓', NULL, 'answer', %(q)s, %(a)s,
                          'verified', %(c)s::jsonb, '[]', '[]', '[]', NULL, NULL, NULL,
                          CASE WHEN %(v2)s THEN footnote._new_salts(%(q)s, %(a)s, %(c)s::jsonb, '[]', '[]', '[]',
                                                                    NULL, NULL) END)::footnote.ledger_queue
                          AS q) AS x
            RETURNING id""", {"q": None if question_null else question, "a": answer, "c": text,
                              "parts": parts, "v2": version2}).fetchone()[0]  # type: ignore[index]
        conn.execute("SET session_replication_role = origin")
        conn.execute("INSERT INTO footnote.ledger (id) VALUES (%s)", (record_id,))
    verdict = python_verdict(db)
    assert verdict.ok, verdict
    assert verdict.head_hash == db.scalar("SELECT hash FROM footnote.ledger ORDER BY seq DESC LIMIT 1")
    assert db.scalar("SELECT canonical = footnote._canonical_json(footnote._record_object(l)) "
                     "FROM footnote.ledger AS l WHERE id = %s", (record_id,)) is True


# -- bundles -------------------------------------------------------------------------------------------------

def test_an_exported_bundle_verifies_offline_and_a_one_byte_edit_names_the_record(chain: TestDatabase,
                                                                                tmp_path: Path) -> None:
    bundle = tmp_path / "ledger.jsonl"
    code, out, _ = _cli("export", str(bundle), "--database-url", chain.url_as("auditor"))
    assert code == 0 and "exported 8 records (1..8)" in out
    code, out, _ = _cli("verify", "--bundle", str(bundle))
    assert code == 0 and "chain intact: 8 records" in out

    lines = bundle.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b"I can't forecast.", b"I can't forecasT.")  # record 5, one byte
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join(lines))
    code, _, err = _cli("verify", "--bundle", str(edited))
    assert code == 1 and "chain broken at record 5: content_changed" in err


def test_a_partial_bundle_checks_against_its_anchor(chain: TestDatabase, tmp_path: Path) -> None:
    bundle = tmp_path / "part.jsonl"
    with chain.connect(autocommit=False) as conn:
        manifest = ledger.export_bundle(conn, bundle, from_seq=3, to_seq=5)
    assert (manifest["count"], manifest["first_seq"], manifest["last_seq"]) == (3, 3, 5)
    assert ledger.verify_bundle(bundle).ok
    lines = bundle.read_bytes().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_bytes(b"".join(lines[:-1]))
    verdict = ledger.verify_bundle(tmp_path / "cut.jsonl")
    assert not verdict.ok and verdict.problem == "manifest_mismatch"


def test_a_whole_bundle_without_its_first_record_is_caught(chain: TestDatabase, tmp_path: Path) -> None:
    """Deleting line 2 and fixing the manifest (count, first_seq, anchor, sha256) makes a valid-looking range."""
    import hashlib

    bundle = tmp_path / "all.jsonl"
    with chain.connect(autocommit=False) as conn:
        manifest = ledger.export_bundle(conn, bundle)
    lines = bundle.read_bytes().splitlines(keepends=True)
    second = canonical.loads(lines[2].decode("utf-8"))
    body = b"".join(lines[2:])
    manifest.update(count=manifest["count"] - 1, first_seq=2, first_prev_hash=second["prev_hash"],
                    records_sha256=hashlib.sha256(body).hexdigest())
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(canonical.canonical_json({"manifest": manifest}).encode("utf-8") + b"\n" + body)
    verdict = ledger.verify_bundle(forged)
    assert (verdict.ok, verdict.first_bad_seq, verdict.problem) == (False, 1, "sequence_gap")
    assert "whole export but starts at record 2" in str(verdict.detail)


def test_export_by_time_range(chain: TestDatabase, tmp_path: Path) -> None:
    cut = chain.scalar("SELECT recorded_at FROM footnote.ledger WHERE seq = 6")
    bundle = tmp_path / "late.jsonl"
    code, out, _ = _cli("export", str(bundle), "--since", cut.isoformat(), "--database-url", chain.url_as("auditor"))
    assert code == 0 and "exported 3 records (6..8)" in out


def test_verify_names_a_garbage_bundle_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_text("not json\n")
    code, _, err = _cli("verify", "--bundle", str(tmp_path / "x.jsonl"))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


# -- re-attestation --------------------------------------------------------------------------------------------

def test_reattest_reports_still_holds_then_changed(db: TestDatabase) -> None:
    fn = db.client("service", actor="zoran")
    r = fn.call("customer_overdue", customer="Bergmann Logistik")
    answer = f"{r.values['customer'].text} owes {r.values['overdue_total'].text}."
    graded = fn.record_answer("How much does Bergmann Logistik owe?", answer,
                              [claim(answer, r, "customer"), claim(answer, r, "overdue_total")], [r.call_id])
    seq = graded["receipt"].seq
    with pytest.raises(psycopg.errors.InsufficientPrivilege):  # it reads current ERP values: not the auditor's
        db.rows("SELECT * FROM footnote.reattest(%s)", (seq,), role="auditor")
    assert [x[4] for x in db.rows("SELECT * FROM footnote.reattest(%s)", (seq,), role="service")] == \
        ["still_holds", "still_holds"]
    with db.connect() as conn:  # the customer pays part of INV-2026-8812, dated on the as-of day
        conn.execute("INSERT INTO erp.payments (id, invoice_id, customer_id, paid_on, amount, method) "
                     "VALUES (999001, 8812, 4471, '2026-08-14', 5000.00, 'bank transfer')")
    rows = db.rows("SELECT text, verdict, old_text, new_text FROM footnote.reattest(%s)", (seq,), role="service")
    assert rows == [("Bergmann Logistik GmbH", "still_holds", "Bergmann Logistik GmbH", "Bergmann Logistik GmbH"),
                    ("43.805,00 €", "changed", "43.805,00 €", "38.805,00 €")]
    code, out, _ = _cli("reattest", str(seq), "--database-url", db.url_as("service"))
    assert code == 1 and "38.805,00 €" in out


def test_the_auditors_page_queries_run(chain: TestDatabase) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "auditors.md").read_text(encoding="utf-8")
    block = page.split("<!-- auditor-queries -->")[1].split("<!-- /auditor-queries -->")[0]
    statements = [s.strip() for s in block.split("```sql")[1].split("```")[0].split(";") if s.strip()]
    assert len(statements) >= 5
    with chain.connect("auditor") as conn:
        for statement in statements:
            conn.execute(statement).fetchall()  # type: ignore[arg-type]


def test_time_does_not_come_from_the_transaction_start(db: TestDatabase) -> None:
    with psycopg.connect(db.url_as("service")) as conn:
        with conn.transaction():
            conn.execute(query("record_answer"), REFUSAL)
            time.sleep(0.3)
            started = conn.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
    recorded = db.scalar("SELECT recorded_at FROM footnote.ledger WHERE seq = 1")
    assert (recorded - started).total_seconds() >= 0.3


def test_serializable_clients_retry_their_conflicts_and_lose_nothing(db: TestDatabase) -> None:
    """SERIALIZABLE writers abort each other at the gate's checks; the client runs such a transaction again."""
    from psycopg.conninfo import make_conninfo

    url = make_conninfo(db.url_as("service"), options="-c default_transaction_isolation=serializable")
    failures: list[str] = []
    done: list[int] = []

    def writer(tag: int) -> None:
        from footnote_pg import Footnote

        try:
            with Footnote(url, min_size=1, max_size=1) as client:
                for i in range(4):
                    r = client.call("customer_overdue", customer="Bergmann Logistik")
                    client.record_answer(f"writer {tag} question {i}", "Bergmann Logistik GmbH owes "
                                         f"{r.values['overdue_total'].text} overdue.", None, [r.call_id])
                    done.append(1)
        except Exception as exc:  # reported by the test
            failures.append(f"writer {tag}: {exc!r}")

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert failures == [] and len(done) == 32
    with db.connect() as conn:
        conn.execute("SELECT footnote.seal()")
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 32
    assert sql_verdict(db)[0] is True and python_verdict(db).ok

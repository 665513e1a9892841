"""The verifier at hashing speed: the fast check gives the reference's verdict, byte for byte and record for record.

* canonical.decode/encode (msgspec) write exactly canonical.canonical_json's bytes (hypothesis);
* the chain pass reads seq, prev_hash and recorded_at from a canonical text's end, and finds a bundle line's
  own hash among hash members of nested objects (hypothesis);
* on real PostgreSQL, the fast and the reference verifier agree on an intact chain and on every kind of
  tampering, in the database and in a bundle, and name the record SQL's verify_chain() names;
* a bundle is verified while it is still being written: line by line, not read whole first;
* with the content check in worker processes, every verdict is the serial one, workers start for long walks
  only, stop with the walk however it ends, and memory stays bounded.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import io
import json
import multiprocessing
import os
import threading
import tracemalloc
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from footnote_pg import canonical, chainwalk, ledger, parallel
from tests.conftest import TestDatabase
from tests.test_chain import _loose_json
from tests.test_tamper import SEVERAL, record

# -- canonical.decode / encode against canonical_json ----------------------------------------------------------

NASTY = ["", "plain", "tab\there", "line\nfeed\r\n", "quote \" back \\ slash /", "bell \x07 esc \x1b unit \x1f",
         "del \x7f", "\u2028 line and paragraph \u2029", "ünïcödé €", "emoji 😀 clef 𝄞", "\ufeff bom", "\uffff",
         "\U00010000", "\ud7ff\ue000", "\x00nul", "0", "1.50", "null", '{"hash":"x"}']

strings = st.sampled_from(NASTY) | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24)
decimals = (st.decimals(allow_nan=False, allow_infinity=False).filter(lambda d: abs(d.adjusted()) < 80)
            | st.sampled_from([Decimal("-0"), Decimal("-0.0"), Decimal("1.50"), Decimal("1E+2"), Decimal("1E-7"),
                               Decimal("-0E+3"), Decimal("123456789012345678901234567890.000001")]))
integers = st.integers(min_value=-(10**45), max_value=10**45) | st.sampled_from([0, -1, 2**63, -(2**63) - 1, 2**64])


def json_values(numbers: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(st.none() | st.booleans() | numbers | strings,
                        lambda children: st.lists(children, max_size=5)
                        | st.dictionaries(strings, children, max_size=5), max_leaves=30)


@settings(max_examples=600, deadline=None)
@given(value=json_values(integers | decimals))
def test_decode_encode_writes_the_bytes_of_canonical_json(value: Any) -> None:
    """From any JSON text (keys out of order, whitespace, exponents, \\u escapes) to the same canonical bytes."""
    expected = canonical.canonical_json(value).encode("utf-8")
    loose = _loose_json(value)
    assert canonical.canonical_json(canonical.loads(loose)).encode("utf-8") == expected
    assert canonical.encode(canonical.decode(loose)) == expected
    assert canonical.encode(canonical.decode(expected)) == expected


@settings(max_examples=300, deadline=None)
@given(value=json_values(integers))
def test_encode_of_plain_values_is_canonical_json(value: Any) -> None:
    """Values built in Python (strings, ints, lists, dicts) need no decode: encode writes canonical_json's bytes."""
    assert canonical.encode(value) == canonical.canonical_json(value).encode("utf-8")


def test_lone_surrogates_and_huge_integers_are_refused_by_both() -> None:
    for text in ('"\\ud800"', '["\\udfff"]'):
        with pytest.raises(ValueError):
            canonical.decode(text)
        with pytest.raises(UnicodeEncodeError):  # the reference parses it, but it has no UTF-8 bytes
            canonical.canonical_json(canonical.loads(text)).encode("utf-8")
    huge = "1" + "0" * 4300
    with pytest.raises(ValueError):
        canonical.decode(huge)
    with pytest.raises(ValueError):
        canonical.loads(huge)


# -- the chain pass reads a record's canonical text -----------------------------------------------------------

hex64 = st.binary(min_size=8, max_size=8).map(lambda b: hashlib.sha256(b).hexdigest())
# nested members named like the record's own: the chain pass must not be fooled by them
decoys = st.dictionaries(st.sampled_from(["hash", "prev_hash", "seq", "recorded_at", "status", "version", "id",
                                          "question"]), hex64 | strings | integers, max_size=6)
nested = st.lists(decoys | json_values(integers), max_size=3)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    return {"version": 1, "id": "0b7f6d3e-3c1a-4d5e-9f00-123456789abc", "seq": draw(st.integers(1, 10**12)),
            "recorded_at": "2026-08-14T10:00:00.123456Z", "db_role": draw(strings),
            "actor": {"id": draw(st.none() | strings), "role": draw(st.none() | strings)},
            "kind": "answer", "question": draw(st.none() | strings), "answer": draw(st.none() | strings),
            "status": draw(st.sampled_from(["verified", "refused", "partially_verified"])),
            "claims": draw(nested), "operations": draw(nested), "evidence": draw(nested), "findings": draw(nested),
            "decision": None, "details": draw(st.none() | decoys), "prev_hash": draw(hex64)}


@settings(max_examples=300, deadline=None)
@given(obj=records())
def test_the_chain_pass_reads_the_records_own_members(obj: dict[str, Any]) -> None:
    text = canonical.encode(obj)
    assert chainwalk.tail(text) == (obj["seq"], obj["prev_hash"], obj["recorded_at"])
    stored = hashlib.sha256(text).hexdigest()
    line = canonical.encode({**obj, "hash": stored}) + b"\n"
    assert chainwalk.split_hash(line[:-1]) == stored
    for check in (lambda w: chainwalk.chain_line(line, 2, w) is None, lambda w: chainwalk.fast_line(line, w),
                  lambda w: chainwalk.reference_line(line, 2, w) is None):
        walk = chainwalk.Walk(obj["seq"], obj["prev_hash"])
        assert check(walk) and (walk.head_seq, walk.head_hash) == (obj["seq"], stored)


# -- a chain in PostgreSQL with every kind of content ---------------------------------------------------------

HAND_QUEUED = """
INSERT INTO footnote.ledger_queue (id, queued_at, db_role, actor_id, actor_role, kind, question, answer, status,
                                   claims, operations, evidence, findings, decision, details)
VALUES (gen_random_uuid(), clock_timestamp(), current_user, %s, 'analyst ✓', 'answer', %s, %s, 'verified',
        %s::jsonb, '[]', %s::jsonb, %s::jsonb, NULL, %s::jsonb)"""


def _nasty(conn: psycopg.Connection[Any], i: int) -> None:
    """A record queued by hand (a superuser, no triggers) with strings, numbers and nested "hash" members."""
    text = NASTY[i % len(NASTY)].replace("\x00", "")
    claims = json.dumps([{"text": text, "span": {"start": 0, "end": len(text)}, "value": {"raw": "43805.00"},
                          "hash": hashlib.sha256(text.encode()).hexdigest(), "n": 10**30 + i}])
    evidence = json.dumps([{"id": f"row:{i}", "fields": {"amount": "1.50", "ratio": "x"}, "prev_hash": "0" * 64}])
    findings = '[{"code": "note", "hash": "' + "a" * 64 + '", "id": "x", "seq": 7, "ratio": 0.250, "big": 1e2}]'
    details = '{"notes": ' + json.dumps(text + " \u2028 😀 \x7f") + ', "neg": -0.0, "tiny": 1e-7}'
    conn.execute(HAND_QUEUED, (text or None, f"question {i}: {text}", f"answer {i}: {text}", claims, evidence,
                               findings, details))


@pytest.fixture
def chain(db: TestDatabase) -> TestDatabase:
    """Nine records: answers citing real calls (1, 2, 8), refusals (3, 9), hand-queued nasty records (4 to 7)."""
    with db.connect("service") as conn:
        record(conn, "question 1", call=True)
        record(conn, "question 2", call=True)
        record(conn, "a refusal")
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        for i in range(4):
            _nasty(conn, i + 3)
        conn.execute("SET session_replication_role = origin")
        conn.execute("SELECT footnote.seal()")
    with db.connect("service") as conn:
        record(conn, "question 8", call=True)
        record(conn, "another refusal")
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 9
    return db


def _verdicts(db: TestDatabase) -> tuple[ledger.Verdict, ledger.Verdict, ledger.Verdict]:
    """Fast, reference and chain pass alone, each from its own connection, in a transaction (as the CLI)."""
    found = []
    for kwargs in ({}, {"reference": True}, {"content": False}):
        with db.connect("auditor", autocommit=False) as conn:
            found.append(ledger.verify_database(conn, **kwargs))
            conn.execute("SELECT 1")  # a walk that stopped early leaves the transaction usable
    return found[0], found[1], found[2]


def _sql(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows("SELECT ok, first_bad_seq, problem FROM footnote.verify_chain()")[0]


def test_fast_and_reference_agree_on_an_intact_chain(chain: TestDatabase, tmp_path: Path) -> None:
    fast, reference, chain_pass = _verdicts(chain)
    head = chain.rows("SELECT seq, hash FROM footnote.ledger ORDER BY seq DESC LIMIT 1")[0]
    assert fast == reference == chain_pass == ledger.Verdict(True, 9, head[0], head[1])
    assert _sql(chain) == (True, None, None)
    bundle = tmp_path / "all.jsonl"
    with chain.connect("auditor", autocommit=False) as conn:
        ledger.export_bundle(conn, bundle)
        rows = list(ledger.iter_rows(conn))
    # every line is the reference's serialisation of its record, byte for byte
    # (a record of hash version 2 with its parts, each with its salt: docs/hash-spec.md §9)
    assert bundle.read_bytes().split(b"\n")[1:-1] == [
        canonical.canonical_json({**ledger.record_object(row), "hash": row["hash"], **_parts(row)}).encode("utf-8")
        for row in rows]
    assert ledger.verify_bundle(bundle) == ledger.verify_bundle(bundle, reference=True) == \
        ledger.verify_bundle(bundle, content=False) == ledger.Verdict(True, 9, head[0], head[1])


def _rewrite_from(seq: int, change: str) -> str:
    """Records ``seq`` on rewritten with their hashes and links recomputed (``change`` applies to ``r`` first)."""
    return f"""
DO $$
DECLARE r footnote.ledger; prev text;
BEGIN
    SELECT hash INTO prev FROM footnote.ledger WHERE seq = {seq} - 1;
    FOR r IN SELECT * FROM footnote.ledger WHERE seq >= {seq} ORDER BY seq LOOP
        r.prev_hash := prev;
        IF r.seq = {seq} THEN {change}; END IF;
        r.canonical := footnote.canonical_json(footnote._record_object(r));
        r.hash := footnote.sha256_hex(r.canonical);
        UPDATE footnote.ledger SET recorded_at = r.recorded_at, prev_hash = r.prev_hash, canonical = r.canonical,
                                   hash = r.hash WHERE seq = r.seq;
        prev := r.hash;
    END LOOP;
END $$"""  # noqa: S608


SAME = (3, "content_changed")
TAMPERING = {  # statements, (python), (sql), (chain pass alone); None: passes
    "canonical_only": (["UPDATE footnote.ledger SET canonical = replace(canonical, '\"question\":\"', "
                        "'\"question\":\"!') WHERE seq = 3"], SAME, SAME, SAME),
    "column_only": (["UPDATE footnote.ledger SET answer = 'I can forecast.' WHERE seq = 3"], SAME, SAME, None),
    "column_and_canonical": (["UPDATE footnote.ledger SET answer = 'I can forecast.' WHERE seq = 3",
                              "UPDATE footnote.ledger SET canonical = footnote.canonical_json("
                              "footnote._record_object(ledger)) WHERE seq = 3"], SAME, SAME, SAME),
    "hash_only": (["UPDATE footnote.ledger SET hash = repeat('e', 64) WHERE seq = 3"], SAME, SAME, SAME),
    "not_canonical": (["UPDATE footnote.ledger SET canonical = replace(canonical, ',\"seq\":', ', \"seq\":') "
                       "WHERE seq = 5", "UPDATE footnote.ledger SET hash = footnote.sha256_hex(canonical) "
                                        "WHERE seq = 5"], (5, "content_changed"), (6, "link_broken"),
                      (5, "content_changed")),  # SQL compares the sealed text as jsonb: the spaces pass
    "not_json": (["UPDATE footnote.ledger SET canonical = 'not json', hash = footnote.sha256_hex('not json') "
                  "WHERE seq = 6"], (6, "content_changed"), (6, "content_changed"), (6, "content_changed")),
    "reordered": (["UPDATE footnote.ledger SET seq = 1000004 WHERE seq = 4",
                   "UPDATE footnote.ledger SET seq = 4 WHERE seq = 5",
                   "UPDATE footnote.ledger SET seq = 5 WHERE seq = 1000004"], (4, "reordered"), (4, "reordered"),
                  (4, "reordered")),
    "gap": (["DELETE FROM footnote.ledger WHERE seq = 4"], (4, "sequence_gap"), (4, "sequence_gap"),
            (4, "sequence_gap")),
    "broken_link": ([_rewrite_from(5, "r.prev_hash := repeat('a', 64)")], (5, "link_broken"), (5, "link_broken"),
                    (5, "link_broken")),
    "time_backwards": ([_rewrite_from(6, "r.recorded_at := r.recorded_at - interval '1 day'")], (6, "reordered"),
                       (6, "reordered"), (6, "reordered")),
}


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_fast_and_reference_name_the_same_record_for_every_tampering(chain: TestDatabase, kind: str) -> None:
    statements, python, sql, chain_only = TAMPERING[kind]
    with chain.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]
    fast, reference, chain_pass = _verdicts(chain)
    assert fast == reference, (fast, reference)
    assert (fast.ok, fast.first_bad_seq, fast.problem) == (False, *python), fast
    ok, bad, problem = _sql(chain)
    assert (bad, problem) == (sql or (None, None)) and ok is (sql is None), (bad, problem)
    if chain_only is None:
        assert chain_pass.ok, chain_pass
    else:
        assert (chain_pass.ok, chain_pass.first_bad_seq, chain_pass.problem) == (False, *chain_only), chain_pass


def test_a_client_encoding_other_than_utf8_gives_the_same_verdicts(db: TestDatabase) -> None:
    """The canonical bytes are UTF-8 whatever the client encoding: in WIN1250 the texts arrive as text and are
    encoded again (the euro sign of the answers has another byte there)."""
    with db.connect("service") as conn:
        for i in range(3):
            record(conn, f"question {i} – über", call=True)
    verdicts = []
    for encoding in ("UTF8", "WIN1250"):
        with db.connect("auditor", autocommit=False) as conn:
            conn.execute(f"SET client_encoding TO '{encoding}'")  # type: ignore[arg-type]
            assert (conn.info.encoding == "utf-8") is (encoding == "UTF8")
            verdicts += [ledger.verify_database(conn), ledger.verify_database(conn, reference=True),
                         ledger.verify_database(conn, content=False)]
    assert all(v == verdicts[0] for v in verdicts) and verdicts[0].ok and verdicts[0].records == 3, verdicts


def test_the_content_check_names_what_changed(chain: TestDatabase) -> None:
    with chain.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = 'x', question = 'y' WHERE seq = 7")
    fast, _, _ = _verdicts(chain)
    assert fast.detail == "record 7 differs from what was sealed in: answer, question"
    with chain.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET seq = 100 WHERE seq = 9")
        conn.execute("DELETE FROM footnote.ledger WHERE seq >= 4 AND seq <= 8")
        conn.execute("UPDATE footnote.ledger SET seq = 4 WHERE seq = 100")
    fast, reference, _ = _verdicts(chain)
    assert fast == reference and (fast.first_bad_seq, fast.problem, fast.detail) == (
        4, "reordered", "record 4 was sealed as record 9")


# -- bundles --------------------------------------------------------------------------------------------------

def _lines(chain: TestDatabase, tmp_path: Path) -> list[bytes]:
    bundle = tmp_path / "all.jsonl"
    with chain.connect("auditor", autocommit=False) as conn:
        ledger.export_bundle(conn, bundle)
    return bundle.read_bytes().splitlines(keepends=True)


def _write(tmp_path: Path, lines: list[bytes], name: str = "edited.jsonl") -> Path:
    """A bundle of these lines with its manifest made to match them (count, head, records_sha256)."""
    manifest = canonical.loads(lines[0])["manifest"]
    body = b"".join(lines[1:])
    last = canonical.loads(lines[-1])
    manifest.update(count=len(lines) - 1, head_hash=last["hash"], last_seq=last["seq"],
                    records_sha256=hashlib.sha256(body).hexdigest())
    path = tmp_path / name
    path.write_bytes(canonical.encode({"manifest": manifest}) + b"\n" + body)
    return path


def _parts(row: dict[str, Any]) -> dict[str, Any]:
    """The ``parts`` member of a row's bundle line (hash version 2), or nothing (version 1)."""
    if row["salts"] is None:
        return {}
    return {"parts": chainwalk.openings(chainwalk.content_object(row), canonical.loads(row["salts"]))}


def _changed(obj: dict[str, Any], **parts: Any) -> dict[str, Any]:
    """A bundle line's object with these parts changed: in a version 2 line the openings, with new salts, and the
    commitments to them (a forger's consistent change)."""
    obj = dict(obj)
    if obj.get("version") != 2:
        return {**obj, **parts}
    opened = dict(obj["parts"])
    for key, value in parts.items():
        many = value if isinstance(value, list) else [value]
        openings = [{"salt": "ab" * 16, "value": v} for v in many]
        opened[key] = openings if isinstance(value, list) else openings[0]
        commits = [chainwalk.commitment(o["salt"], o["value"]) for o in openings]
        obj[key] = commits if isinstance(value, list) else commits[0]
    obj["parts"] = opened
    return obj


def _resealed(obj: dict[str, Any]) -> bytes:
    """A bundle line for ``obj`` with its hash recomputed (over the record without its parts)."""
    obj = {k: v for k, v in obj.items() if k != "hash"}
    sealed = {k: v for k, v in obj.items() if k != "parts"}
    return canonical.canonical_json({**obj, "hash": ledger.record_hash(sealed)}).encode("utf-8") + b"\n"


def _relinked(lines: list[bytes], start: int) -> list[bytes]:
    """Lines from index ``start`` on with their links and hashes recomputed (a consistent rewrite)."""
    out = lines[:start]
    for line in lines[start:]:
        obj = canonical.loads(line)
        obj["prev_hash"] = canonical.loads(out[-1])["hash"] if len(out) > 1 else obj["prev_hash"]
        out.append(_resealed(obj))
    return out


def _spaced(line: bytes) -> bytes:
    obj = canonical.loads(line)
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8") + b"\n"


BUNDLE_TAMPERING: dict[str, Any] = {  # what is done to the lines (index 3 is record 3), (full check), (chain pass)
    "one_byte": (lambda ls: ls[:3] + [ls[3].replace(b'"answer":"', b'"answer":"!', 1)] + ls[4:], SAME, SAME),
    "hash_member": (lambda ls: ls[:3] + [ls[3].replace(canonical.loads(ls[3])["hash"].encode(), b"e" * 64)]
                    + ls[4:], SAME, SAME),
    "not_canonical": (lambda ls: ls[:3] + [_spaced(ls[3])] + ls[4:], SAME, SAME),
    "not_a_record": (lambda ls: ls[:3] + [b"not json\n"] + ls[4:], SAME, SAME),
    "swapped": (lambda ls: ls[:3] + [ls[4], ls[3]] + ls[5:], (3, "sequence_gap"), (3, "sequence_gap")),
    "deleted": (lambda ls: ls[:4] + ls[5:], (4, "sequence_gap"), (4, "sequence_gap")),
    "broken_link": (lambda ls: ls[:5] + [_resealed({**canonical.loads(ls[5]), "prev_hash": "a" * 64})] + ls[6:],
                    (5, "link_broken"), (5, "link_broken")),
    "rewritten_consistently": (lambda ls: _relinked(ls[:3] + [_resealed(_changed(canonical.loads(ls[3]),
                                                                                 answer="rewritten"))] + ls[4:], 4),
                               None, None),
}


@pytest.mark.parametrize("kind", sorted(BUNDLE_TAMPERING))
def test_fast_and_reference_agree_on_every_tampered_bundle(chain: TestDatabase, tmp_path: Path, kind: str) -> None:
    change, full, chain_only = BUNDLE_TAMPERING[kind]
    path = _write(tmp_path, change(_lines(chain, tmp_path)))
    fast, reference = ledger.verify_bundle(path), ledger.verify_bundle(path, reference=True)
    assert fast == reference, (fast, reference)
    chain_pass = ledger.verify_bundle(path, content=False)
    for verdict, expected in ((fast, full), (chain_pass, chain_only)):
        if expected is None:
            assert verdict.ok, verdict
        else:
            assert (verdict.ok, verdict.first_bad_seq, verdict.problem) == (False, *expected), verdict


def test_a_record_holding_hash_members_of_its_own_verifies(chain: TestDatabase, tmp_path: Path) -> None:
    """Members named hash, prev_hash, seq inside the record, before and after its own hash member."""
    lines = _lines(chain, tmp_path)
    obj = canonical.loads(lines[4])
    decoy = {"code": "x", "hash": obj["hash"], "prev_hash": "b" * 64, "seq": 99,
             "recorded_at": "2000-01-01T00:00:00.000000Z"}
    obj = _changed(obj, operations=[{"arguments": decoy, "call_id": "x", "hash": "c" * 64}], findings=[decoy])
    path = _write(tmp_path, _relinked(lines[:4] + [_resealed(obj)] + lines[5:], 5))
    for verdict in (ledger.verify_bundle(path), ledger.verify_bundle(path, reference=True),
                    ledger.verify_bundle(path, content=False)):
        assert verdict.ok and verdict.records == 9, verdict
    assert ledger.bundle_hash_at(path, 4) == canonical.loads(path.read_bytes().split(b"\n")[4])["hash"]


def test_a_bundle_is_verified_while_it_is_still_being_written(db: TestDatabase, tmp_path: Path) -> None:
    """The verifier reports its first records done before the rest of the bundle exists: it reads line by line
    (a verifier that read the whole file first would wait for the writer, which waits for it)."""
    count = 2 * ledger._TICK + 10
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("""
            INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, question, answer, status, claims,
                                               operations, evidence, findings)
            SELECT gen_random_uuid(), clock_timestamp(), 'bench', 'answer', 'q' || g, 'answer ' || g, 'refused',
                   '[]', '[]', '[]', '[]'
            FROM generate_series(1, %s) AS g""", (count,))
        conn.execute("SET session_replication_role = origin")
        conn.execute("SELECT footnote.seal()")
    bundle = tmp_path / "long.jsonl"
    with db.connect("auditor", autocommit=False) as conn:
        ledger.export_bundle(conn, bundle)
    data = bundle.read_bytes()
    first_part = data.index(b"\n", len(data) // 2) + 1  # the manifest and the first half of the records
    progressed = threading.Event()
    seen: list[bool] = []
    read_fd, write_fd = os.pipe()

    def writer() -> None:
        with open(write_fd, "wb") as out:
            out.write(data[:first_part])
            out.flush()
            seen.append(progressed.wait(60))  # the verifier must get on with what it has
            out.write(data[first_part:])

    thread = threading.Thread(target=writer)
    thread.start()
    done: list[int] = []

    def advance(n: int) -> None:
        done.append(n)
        progressed.set()

    with open(read_fd, "rb") as stream:
        verdict = ledger.verify_bundle(stream, advance)
    thread.join(60)
    assert seen == [True], "the verifier waited for the whole bundle before checking a record"
    assert verdict.ok and verdict.records == count and sum(done) == count, verdict


def test_verify_bundle_takes_an_open_stream(chain: TestDatabase, tmp_path: Path) -> None:
    lines = _lines(chain, tmp_path)
    stream = io.BytesIO(b"".join(lines))
    assert ledger.verify_bundle(stream) == ledger.verify_bundle(tmp_path / "all.jsonl")


# -- the content check in worker processes (footnote_pg.parallel) ---------------------------------------------

@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Two workers from the first record on, the walk waiting for them to start, a record or a few lines a
    batch: every record's content check goes to a worker first. Each verification appends how many records
    the walk passed on facts a worker found (the walk itself finds none: it runs the serial code)."""
    monkeypatch.setattr(parallel, "THRESHOLD", 0)
    monkeypatch.setattr(parallel, "WORKERS", 2)
    monkeypatch.setattr(parallel, "CHECK_WHILE_STARTING", False)
    monkeypatch.setattr(parallel, "TASK", 1)
    monkeypatch.setattr(ledger, "_BLOCK", 1500)  # lines cut across blocks
    used: list[int] = []
    checked = parallel.checked

    def counting(items: Any, check: Any, expected: int, weight: Any, spare: int = 0) -> Any:
        inner, found = checked(items, check, expected, weight, spare), 0
        try:
            for item, facts in inner:
                found += facts is not None
                yield item, facts
        finally:
            inner.close()
            used.append(found)

    monkeypatch.setattr(parallel, "checked", counting)
    return used


@pytest.mark.parametrize(("cores", "spare", "expected"), [(1, 0, 0), (2, 0, 2), (2, 1, 0), (3, 1, 2), (8, 1, 7)])
def test_workers_are_one_a_core_and_never_one_alone(monkeypatch: pytest.MonkeyPatch, cores: int, spare: int,
                                                    expected: int) -> None:
    """One a core, less the one a database server on this machine works on, and none unless that makes two."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)))
    assert parallel.workers(spare) == expected


def _many(db: TestDatabase, count: int) -> None:
    """``count`` more small records, queued by hand and sealed."""
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("""
            INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, question, answer, status, claims,
                                               operations, evidence, findings)
            SELECT gen_random_uuid(), clock_timestamp(), 'bench', 'answer', 'q' || g, 'answer ' || g || ' €',
                   'refused', '[]', '[]', '[{"id": "row", "amount": "1.50", "n": 7}]', '[]'
            FROM generate_series(1, %s) AS g""", (count,))
        conn.execute("SET session_replication_role = origin")
        conn.execute("SELECT footnote.seal()")


def test_workers_give_the_serial_verdict_on_an_intact_chain(chain: TestDatabase, tmp_path: Path,
                                                             workers: list[int]) -> None:
    with chain.connect("auditor", autocommit=False) as conn:
        found = ledger.verify_database(conn)
        assert found == ledger.verify_database(conn, reference=True) and found.ok and found.records == 9
        ledger.export_bundle(conn, tmp_path / "all.jsonl")
    assert ledger.verify_bundle(tmp_path / "all.jsonl") == found
    assert workers == [9, 0, 9]  # every record passed on a worker's facts; the reference uses none
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_workers_give_the_serial_verdict_for_every_tampering(chain: TestDatabase, workers: list[int],
                                                             kind: str) -> None:
    statements, python, _sql, _chain_only = TAMPERING[kind]
    with chain.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]
    with chain.connect("auditor", autocommit=False) as conn:
        found = ledger.verify_database(conn)
        conn.execute("SELECT 1")  # the walk stopped early and left the transaction usable
        assert not multiprocessing.active_children()
        assert found == ledger.verify_database(conn, reference=True), found
    assert (found.ok, found.first_bad_seq, found.problem) == (False, *python), found
    assert workers[0] >= python[0] - 1  # the records before the bad one passed on workers' facts


@pytest.mark.parametrize("kind", sorted(BUNDLE_TAMPERING))
def test_workers_give_the_serial_verdict_on_every_tampered_bundle(chain: TestDatabase, tmp_path: Path,
                                                                  workers: list[int], kind: str) -> None:
    change, full, _chain_only = BUNDLE_TAMPERING[kind]
    path = _write(tmp_path, change(_lines(chain, tmp_path)))
    found = ledger.verify_bundle(path)
    assert not multiprocessing.active_children()
    assert found == ledger.verify_bundle(path, reference=True), found
    if full is None:
        assert found.ok and workers[0] == 9, (found, workers)
    else:
        assert (found.ok, found.first_bad_seq, found.problem) == (False, *full), found
        assert workers[0] >= full[0] - 1


def test_workers_give_the_serial_verdict_for_several_changes_at_once(db: TestDatabase,
                                                                     workers: list[int]) -> None:
    """Changes of every kind, alone and two or three at once, with the calls behind the records checked too:
    the workers' verdict is the serial one, detail for detail."""
    import random

    with db.connect("service") as conn:
        for i in range(12):
            record(conn, f"question {i}", call=i % 3 == 0)
    rng = random.Random(20261203)
    cases = [[(kind, 7)] for kind in SEVERAL]
    cases += [list(zip(rng.sample(sorted(SEVERAL), k), sorted(rng.sample(range(2, 13), k)), strict=True))
              for k in (2, 3) for _ in range(3)]
    cases.append([])  # and a chain that holds
    for case in cases:
        with db.connect(autocommit=False) as conn:
            conn.execute("SET LOCAL session_replication_role = replica")
            for kind, s in case:
                for statement in SEVERAL[kind][0]:
                    conn.execute(statement.format(s=s))  # type: ignore[arg-type]
            found = ledger.verify_database(conn)
            serial = ledger.verify_database(conn, reference=True)
            conn.rollback()
        assert found == serial, (case, found, serial)
        assert found.ok is not case, (case, found)
    assert len(workers) == 2 * len(cases) and all(workers[::2]), workers


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"\n", b"\n\n", b"a", b"bc", b"\r", b"xyz" * 9])).map(b"".join),
       block=st.integers(1, 40))
def test_a_bundle_read_by_blocks_has_the_lines_and_bytes_it_has_read_by_lines(data: bytes, block: int) -> None:
    """Blocks of any size cut lines anywhere: the lines are those of reading line by line, less their line
    feeds, and records_sha256 covers every byte."""
    saved, ledger._BLOCK = ledger._BLOCK, block
    try:
        records = hashlib.sha256()
        found = [line for lines in ledger._line_batches(io.BytesIO(data), records) for line in lines]
    finally:
        ledger._BLOCK = saved
    assert found == [line.removesuffix(b"\n") for line in io.BytesIO(data)]
    assert records.hexdigest() == hashlib.sha256(data).hexdigest()


def test_workers_start_for_a_long_walk_only(db: TestDatabase, tmp_path: Path, workers: list[int],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Below the threshold no worker is started; from it on they are, and check the records they are sent (here
    the walk waits for them), with the same verdict and the same progress reports."""
    _many(db, 300)
    bundle = tmp_path / "long.jsonl"
    with db.connect("auditor", autocommit=False) as conn:
        ledger.export_bundle(conn, bundle)
    started: list[int] = []

    class Counted(cf.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(parallel.cf, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(parallel, "TASK", 2000)
    monkeypatch.setattr(ledger, "_BLOCK", 8000)
    verdicts = []
    for threshold in (301, 300):
        monkeypatch.setattr(parallel, "THRESHOLD", threshold)
        done: list[int] = []
        with db.connect("auditor", autocommit=False) as conn:
            verdicts.append(ledger.verify_database(conn, advance=done.append))
        verdicts.append(ledger.verify_bundle(bundle, done.append))
        assert sum(done) == 2 * 300 and not multiprocessing.active_children()
    assert started == [1, 1] and workers[:2] == [0, 0] and all(workers[2:]), (started, workers)
    assert all(v == verdicts[0] for v in verdicts) and verdicts[0].ok and verdicts[0].records == 300, verdicts


def test_workers_stop_at_the_first_bad_record_and_leave(db: TestDatabase, tmp_path: Path,
                                                        workers: list[int]) -> None:
    """A bundle read from a stream: after a bad record the walk reads a few blocks more at most, and every
    worker is gone when it returns; in the database the COPY ends cleanly and the transaction stays usable."""
    _many(db, 1500)
    lines = _lines(db, tmp_path)
    lines[50] = lines[50].replace(b'"answer":"', b'"answer":"!', 1)
    path = _write(tmp_path, lines)
    data = path.read_bytes()
    bad_at = len(b"".join(lines[:51]))
    stream = io.BytesIO(data)
    found = ledger.verify_bundle(stream)
    assert not multiprocessing.active_children()
    assert found == ledger.verify_bundle(path, reference=True)
    assert (found.first_bad_seq, found.problem, found.records) == (50, "content_changed", 50), found
    assert stream.tell() < bad_at + (2 * parallel.AHEAD + 2) * ledger._BLOCK < len(data) // 4, stream.tell()
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = 'x' WHERE seq = 50")
    with db.connect("auditor", autocommit=False) as conn:
        found = ledger.verify_database(conn)
        assert not multiprocessing.active_children()
        assert conn.execute("SELECT count(*) FROM footnote.ledger").fetchone() == (1500,)
        assert found == ledger.verify_database(conn, reference=True)
        assert (found.first_bad_seq, found.problem) == (50, "content_changed"), found


def test_workers_leave_when_the_walk_is_interrupted(db: TestDatabase, tmp_path: Path,
                                                    workers: list[int]) -> None:
    _many(db, 1100)
    bundle = tmp_path / "all.jsonl"
    with db.connect("auditor", autocommit=False) as conn:
        ledger.export_bundle(conn, bundle)

    def interrupt(_n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ledger.verify_bundle(bundle, interrupt)
    assert not multiprocessing.active_children()
    with db.connect("auditor", autocommit=False) as conn, pytest.raises(KeyboardInterrupt):
        ledger.verify_database(conn, advance=interrupt)
    assert not multiprocessing.active_children()
    assert workers == [1024, 1024]  # interrupted at the first progress report


def test_workers_keep_memory_bounded(db: TestDatabase, tmp_path: Path, workers: list[int],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk holds a few batches: its peak memory is a small part of a bundle's size and does not grow with
    it. From the database, memory grows as without workers (the check of the calls keeps each record's id)."""
    monkeypatch.setattr(parallel, "TASK", 4000)
    monkeypatch.setattr(ledger, "_BLOCK", 16000)

    def peak(verify: Any) -> int:
        tracemalloc.start()
        try:
            assert verify().ok
            return int(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()

    def database_peaks() -> tuple[int, int]:
        """With workers, and the serial walk."""
        with db.connect("auditor", autocommit=False) as conn:
            monkeypatch.setattr(parallel, "THRESHOLD", 0)
            found = peak(lambda: ledger.verify_database(conn))
            monkeypatch.setattr(parallel, "THRESHOLD", 10**9)
            serial = peak(lambda: ledger.verify_database(conn))
            monkeypatch.setattr(parallel, "THRESHOLD", 0)
            return found, serial

    _many(db, 1000)
    short = _lines(db, tmp_path)
    assert ledger.verify_bundle(io.BytesIO(b"".join(short))).ok  # what starting workers imports, imported
    before = database_peaks()
    _many(db, 2000)
    long = _lines(db, tmp_path)
    after = database_peaks()
    data = [b"".join(short), b"".join(long)]
    bundle = [peak(lambda: ledger.verify_bundle(io.BytesIO(data[0]))),
              peak(lambda: ledger.verify_bundle(io.BytesIO(data[1])))]
    size = len(data[1])
    assert bundle[1] < bundle[0] + 50_000 and bundle[1] < size // 5, (bundle, size)
    assert after[0] - before[0] < after[1] - before[1] + 50_000, (before, after)
    assert workers == [1000, 1000, 0, 3000, 0, 1000, 3000], workers


def test_a_line_whose_hash_is_null_is_not_passed(chain: TestDatabase, tmp_path: Path) -> None:
    """A last line with "hash": null, and a manifest saying so, has no hash to check: the fast check once passed
    it (its null compared equal to "no hash member found"); now the reference decides, as it does for any line."""
    lines = _lines(chain, tmp_path)
    last = canonical.loads(lines[-1])
    last["hash"] = None
    path = _write(tmp_path, lines[:-1] + [canonical.canonical_json(last).encode("utf-8") + b"\n"])
    fast, reference = ledger.verify_bundle(path), ledger.verify_bundle(path, reference=True)
    assert fast == reference and (fast.ok, fast.first_bad_seq, fast.problem) == (False, 9, "content_changed"), fast

"""The Merkle tree over the ledger: roots, inclusion and consistency proofs (SQL against the independent Python
implementation), receipts and extended digests verified offline with the database gone, tampering, bad input, roles."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import IsolationLevel

from footnote_pg import canonical, chainwalk, ledger, merkle, receipts
from tests.conftest import TestDatabase, _drop_database
from tests.test_chain import append

# -- set-up ---------------------------------------------------------------------------------------------------


@pytest.fixture
def mdb(db: TestDatabase) -> TestDatabase:
    """A database at head, with its Merkle tree (revision 0004)."""
    assert db.scalar("SELECT to_regprocedure('footnote.tree_head(bigint)')") is not None
    return db


def records(db: TestDatabase, n: int) -> None:
    with db.connect("service") as conn:
        append(conn, n, "merkle")


def leaves(db: TestDatabase) -> list[bytes]:
    return [merkle.leaf_hash(r[0]) for r in db.rows("SELECT hash FROM footnote.ledger ORDER BY seq")]


def tree_head(db: TestDatabase, size: int | None = None, role: str | None = "auditor") -> tuple[Any, ...]:
    return db.rows("SELECT * FROM footnote.tree_head(%s)", (size,), role=role)[0]


def inclusion(db: TestDatabase, seq: int, size: int | None = None) -> dict[str, Any]:
    return db.scalar("SELECT footnote.inclusion_proof(%s, %s)", (seq, size), role="auditor")  # type: ignore[no-any-return]


def consistency(db: TestDatabase, old: int, new: int | None = None) -> dict[str, Any]:
    return db.scalar("SELECT footnote.consistency_proof(%s, %s)", (old, new), role="auditor")  # type: ignore[no-any-return]


def fill(db: TestDatabase, upto: int) -> None:
    """Ledger rows up to seq ``upto`` as a superuser, triggers off: fast, and enough for the tree (not a chain)."""
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("""
            INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, kind, status, claims, operations, evidence,
                                         findings, prev_hash, canonical, hash)
            SELECT gen_random_uuid(), s, clock_timestamp(), 'filler', 'answer', 'refused', '[]', '[]', '[]', '[]',
                   encode(sha256(('prev ' || s)::bytea), 'hex'), '', encode(sha256(('record ' || s)::bytea), 'hex')
            FROM generate_series((SELECT coalesce(max(seq), 0) + 1 FROM footnote.ledger), %s) AS s""", (upto,))


def flip(hex_text: str, at: int = 0) -> str:
    """The same hash with one hex digit changed."""
    return hex_text[:at] + ("1" if hex_text[at] == "0" else "0") + hex_text[at + 1:]


def _cli(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from footnote_pg.cli import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# -- the Python implementation against RFC 6962's test vectors ---------------------------------------------------

CT_INPUTS = [b"", b"\x00", b"\x10", b"\x20\x21", b"\x30\x31", b"\x40\x41\x42\x43",
             bytes(range(0x50, 0x58)), bytes(range(0x60, 0x70))]
CT_ROOTS = ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"]
CT_CONSISTENCY = {
    (1, 8): ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
             "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"],
    (6, 8): ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
             "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"],
    (2, 5): ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"],
}
CT_INCLUSION = {(5, 8): ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                         "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                         "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]}


def test_python_matches_the_rfc_6962_test_vectors() -> None:
    ct = [hashlib.sha256(b"\x00" + data).digest() for data in CT_INPUTS]
    assert merkle.root([]).hex() == hashlib.sha256(b"").hexdigest()
    assert [merkle.root(ct[:n]).hex() for n in range(1, 9)] == CT_ROOTS
    for (m, n), path in CT_CONSISTENCY.items():
        assert [h.hex() for h in merkle.consistency_path(ct[:n], m)] == path
        assert merkle.verify_consistency(m, n, merkle.root(ct[:m]), merkle.root(ct[:n]), merkle.parse_path(path) or [])
    for (i, n), path in CT_INCLUSION.items():
        assert [h.hex() for h in merkle.inclusion_path(ct[:n], i)] == path
        assert merkle.verify_inclusion(ct[i], i, n, merkle.parse_path(path) or [], merkle.root(ct[:n]))


def test_python_verifiers_name_what_is_wrong() -> None:
    hashes = [hashlib.sha256(bytes([i])).digest() for i in range(13)]
    root, path = merkle.root(hashes), merkle.inclusion_path(hashes, 6)
    assert merkle.verify_inclusion(hashes[6], 6, 13, path, root).ok
    assert merkle.verify_inclusion(hashes[6], 13, 13, path, root).reason == "leaf index 13 is not inside a tree " \
        "of 13 leaves"
    assert "more than a tree of 13" in str(merkle.verify_inclusion(hashes[6], 6, 13, [*path, root], root).reason)
    assert "fewer than a tree of 13" in str(merkle.verify_inclusion(hashes[6], 6, 13, path[:-1], root).reason)
    assert merkle.verify_inclusion(hashes[6], 6, 13, path, hashes[0]).reason == "the inclusion path does not lead to " \
        "the root"
    old = merkle.root(hashes[:5])
    proof = merkle.consistency_path(hashes, 5)
    assert merkle.verify_consistency(5, 13, old, root, proof).ok
    assert merkle.verify_consistency(5, 13, hashes[0], root, proof).reason == "the consistency path does not lead " \
        "to the old root"
    assert merkle.verify_consistency(5, 13, old, hashes[0], proof).reason == "the consistency path does not lead " \
        "to the new root"
    assert merkle.verify_consistency(5, 13, old, root, []).reason == "the consistency path is empty"
    assert "larger than the new one" in str(merkle.verify_consistency(13, 5, root, old, proof).reason)
    assert merkle.verify_consistency(13, 13, root, root, []).ok
    assert not merkle.verify_consistency(13, 13, root, old, [])
    assert not merkle.verify_consistency(0, 13, merkle.EMPTY_ROOT, root, proof)


# -- SQL against Python ---------------------------------------------------------------------------------------------

def test_tree_heads_for_sizes_1_to_40_match_python_as_the_ledger_grows(mdb: TestDatabase) -> None:
    assert tree_head(mdb)[:3] == (0, merkle.EMPTY_ROOT.hex(), None), "the empty ledger: the empty tree"
    for n in range(1, 41):
        records(mdb, 1)
        size, root, head_seq, head_hash, _recorded_at = tree_head(mdb)  # extends the tree by one leaf
        hashes = leaves(mdb)
        assert (size, head_seq, root) == (n, n, merkle.root(hashes).hex()), n
        assert head_hash == mdb.scalar("SELECT hash FROM footnote.ledger WHERE seq = %s", (n,))
    hashes = leaves(mdb)
    assert [tree_head(mdb, k)[1] for k in range(0, 41)] == [merkle.root(hashes[:k]).hex() for k in range(0, 41)]
    assert tree_head(mdb, role="service")[:2] == (40, merkle.root(hashes).hex())


def test_tree_heads_of_random_larger_sizes_match_python(mdb: TestDatabase) -> None:
    records(mdb, 150)
    assert tree_head(mdb)[0] == 150
    fill(mdb, 5_000)  # extended from 150 leaves to 5,000, then to 70,000: every level gains nodes
    assert tree_head(mdb)[0] == 5_000
    fill(mdb, 70_000)
    hashes = leaves(mdb)
    rng = random.Random(6962)
    for size in [151, 4_096, 4_097, 5_000, 65_536, 70_000, *rng.sample(range(41, 70_001), 12)]:
        assert tree_head(mdb, size)[1] == merkle.root(hashes[:size]).hex(), size
    nodes = mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes")
    assert nodes == sum(70_000 >> level for level in range(17)), "perfect subtrees only, each stored once"


def test_every_inclusion_proof_verifies_and_a_wrong_leaf_index_or_root_fails(mdb: TestDatabase) -> None:
    records(mdb, 33)
    hashes = leaves(mdb)
    for n in (1, 2, 3, 5, 7, 8, 13, 32, 33):
        root = merkle.root(hashes[:n])
        for i in range(n):
            proof = inclusion(mdb, i + 1, n)
            assert (proof["leaf_index"], proof["tree_size"], proof["root_hash"]) == (i, n, root.hex())
            assert proof["path"] == [h.hex() for h in merkle.inclusion_path(hashes[:n], i)], (i, n)
            path = merkle.parse_path(proof["path"])
            assert path is not None and len(path) <= max(1, (n - 1).bit_length())
            assert merkle.verify_inclusion(hashes[i], i, n, path, root), (i, n)
            if n > 1:
                other = (i + 1) % n
                assert not merkle.verify_inclusion(hashes[other], i, n, path, root), "another record's leaf"
                assert not merkle.verify_inclusion(hashes[i], other, n, path, root), "another index"
                assert not merkle.verify_inclusion(hashes[i], i, n, path, merkle.root(hashes[:n - 1])), "other root"
    assert inclusion(mdb, 7) == inclusion(mdb, 7, 33), "default: the tree of every sealed record"


def test_consistency_proofs_for_every_pair_up_to_20_and_a_forged_root_fails(mdb: TestDatabase) -> None:
    records(mdb, 20)
    hashes = leaves(mdb)
    roots = [merkle.root(hashes[:k]) for k in range(21)]
    for n in range(1, 21):
        for m in range(1, n + 1):
            proof = consistency(mdb, m, n)
            assert (proof["old_size"], proof["new_size"]) == (m, n)
            assert (proof["old_root"], proof["new_root"]) == (roots[m].hex(), roots[n].hex())
            assert proof["path"] == [h.hex() for h in merkle.consistency_path(hashes[:n], m)], (m, n)
            path = merkle.parse_path(proof["path"]) or []
            assert merkle.verify_consistency(m, n, roots[m], roots[n], path), (m, n)
            forged_old = bytes.fromhex(flip(roots[m].hex(), 5))
            forged_new = bytes.fromhex(flip(roots[n].hex(), 5))
            assert not merkle.verify_consistency(m, n, forged_old, roots[n], path), (m, n)
            assert not merkle.verify_consistency(m, n, roots[m], forged_new, path), (m, n)
            if m < n:
                assert not merkle.verify_consistency(m, n, roots[m], roots[n - 1], path), "the tree of another size"
    assert consistency(mdb, 3) == consistency(mdb, 3, 20)


def test_proofs_at_70000_leaves_are_logarithmic(mdb: TestDatabase) -> None:
    fill(mdb, 70_000)
    hashes = leaves(mdb)
    root = merkle.root(hashes)
    for seq in (1, 2, 35_000, 65_536, 65_537, 69_999, 70_000):
        proof = inclusion(mdb, seq)
        path = merkle.parse_path(proof["path"]) or []
        assert len(path) <= 17 and merkle.verify_inclusion(hashes[seq - 1], seq - 1, 70_000, path, root), seq
    for old in (1, 1_000, 65_536, 69_999):
        proof = consistency(mdb, old)
        path = merkle.parse_path(proof["path"]) or []
        assert len(path) <= 2 * 17 and merkle.verify_consistency(old, 70_000, merkle.root(hashes[:old]), root, path)


# -- how the tree is kept ------------------------------------------------------------------------------------------

def test_sealing_never_touches_the_tree_and_the_first_head_after_extends_it(mdb: TestDatabase) -> None:
    records(mdb, 12)
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes") == 0, "appending costs nothing extra"
    tree_head(mdb)
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes") == 12 + 6 + 3 + 1
    records(mdb, 3)
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes") == 22
    inclusion(mdb, 15)
    assert mdb.rows("SELECT level, count(*) FROM footnote.merkle_nodes GROUP BY 1 ORDER BY 1") == [
        (0, 15), (1, 7), (2, 3), (3, 1)]


def test_concurrent_extenders_and_writers_leave_one_right_tree(mdb: TestDatabase) -> None:
    records(mdb, 20)
    failures: list[str] = []

    def extender(k: int) -> None:
        try:
            with psycopg.connect(mdb.url_as("service" if k % 2 else "auditor"), autocommit=True) as conn:
                for _ in range(25):
                    head = conn.execute("SELECT tree_size, root_hash FROM footnote.tree_head()").fetchone()
                    assert head is not None
                    proof = conn.execute("SELECT footnote.inclusion_proof(1, %s)", (head[0],)).fetchone()
                    assert proof is not None and proof[0]["root_hash"] == head[1]
        except Exception as exc:  # reported by the test
            failures.append(f"extender {k}: {exc!r}")

    def writer() -> None:
        try:
            with psycopg.connect(mdb.url_as("service")) as conn:
                append(conn, 120, "concurrent")
        except Exception as exc:  # reported by the test
            failures.append(f"writer: {exc!r}")

    threads = [threading.Thread(target=extender, args=(k,)) for k in range(6)] + [threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    hashes = leaves(mdb)
    assert tree_head(mdb)[:2] == (140, merkle.root(hashes).hex())
    assert mdb.rows("SELECT level, count(*) FROM footnote.merkle_nodes GROUP BY 1 ORDER BY 1") == [
        (level, 140 >> level) for level in range(8)]


def test_extending_needs_read_committed_and_reading_does_not(mdb: TestDatabase) -> None:
    records(mdb, 5)
    with mdb.connect("auditor", autocommit=False) as conn:
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT * FROM footnote.tree_head()")
        assert caught.value.sqlstate == "FN102" and "READ COMMITTED" in str(caught.value)
    tree_head(mdb)
    with mdb.connect("auditor", autocommit=False) as conn:
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        assert conn.execute("SELECT tree_size FROM footnote.tree_head()").fetchone() == (5,)


@pytest.mark.parametrize("statement", [
    "UPDATE footnote.merkle_nodes SET hash = sha256('x'::bytea)",
    "DELETE FROM footnote.merkle_nodes",
    "TRUNCATE footnote.merkle_nodes",
])
def test_the_tree_is_append_only_even_for_its_owner(mdb: TestDatabase, statement: str) -> None:
    records(mdb, 4)
    tree_head(mdb)
    for role, sqlstate in ((None, "FN101"), ("footnote_ledger", "FN101"), ("footnote_owner", "42501")):
        with mdb.connect() as conn:
            if role:
                conn.execute(f"SET ROLE {role}")  # type: ignore[arg-type]
            with pytest.raises(psycopg.Error) as caught:
                conn.execute(statement)  # type: ignore[arg-type]
        assert caught.value.sqlstate == sqlstate, (role, caught.value)
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes") == 7


@pytest.mark.parametrize("role,statement", [
    ("service", "SELECT * FROM footnote.merkle_nodes"),
    ("service", "INSERT INTO footnote.merkle_nodes VALUES (0, 99, sha256('x'::bytea))"),
    ("service", "SELECT footnote._merkle_extend()"),
    ("auditor", "SELECT footnote._merkle_extend()"),
    ("auditor", "INSERT INTO footnote.merkle_nodes VALUES (0, 99, sha256('x'::bytea))"),
    ("outsider", "SELECT * FROM footnote.tree_head()"),
    ("outsider", "SELECT footnote.inclusion_proof(1)"),
    ("outsider", "SELECT footnote.consistency_proof(1)"),
])
def test_roles_reach_the_proofs_and_nothing_else(mdb: TestDatabase, role: str, statement: str) -> None:
    records(mdb, 2)
    with mdb.connect(role) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)  # type: ignore[arg-type]
    assert caught.value.sqlstate in ("42501", "42883"), (statement, caught.value.sqlstate)
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes WHERE idx = 99") == 0
    for allowed in ("service", "auditor"):
        assert mdb.scalar("SELECT footnote.inclusion_proof(2)->>'tree_size'", role=allowed) == "2"
    assert mdb.scalar("SELECT count(*) FROM footnote.merkle_nodes", role="auditor") == 3


@pytest.mark.parametrize("statement,message", [
    ("SELECT footnote.inclusion_proof(0)", "invalid argument seq: there is no ledger record 0; the chain holds "
                                           "records 1 to 6"),
    ("SELECT footnote.inclusion_proof(7)", "there is no ledger record 7; the chain holds records 1 to 6"),
    ("SELECT footnote.inclusion_proof(NULL)", "invalid argument seq: is required"),
    ("SELECT footnote.inclusion_proof(5, 4)", "invalid argument tree_size: must be between 5 (the record) and 6"),
    ("SELECT footnote.inclusion_proof(5, 9)", "invalid argument tree_size: must be between 5 (the record) and 6"),
    ("SELECT footnote.consistency_proof(5, 4)", "invalid argument old_size: 5 is larger than new_size 4"),
    ("SELECT footnote.consistency_proof(0, 4)", "invalid argument old_size: must be at least 1"),
    ("SELECT footnote.consistency_proof(NULL)", "invalid argument old_size: is required"),
    ("SELECT footnote.consistency_proof(2, 7)", "invalid argument new_size: must be between 1 and 6"),
    ("SELECT footnote.consistency_proof(7)", "invalid argument old_size: 7 is larger than new_size 6"),
    ("SELECT * FROM footnote.tree_head(7)", "invalid argument tree_size: must be between 0 and 6, the number of "
                                            "sealed records"),
    ("SELECT * FROM footnote.tree_head(-1)", "invalid argument tree_size: must be between 0 and 6"),
])
def test_bad_input_is_one_clear_error(mdb: TestDatabase, statement: str, message: str) -> None:
    records(mdb, 6)
    with mdb.connect("auditor") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)  # type: ignore[arg-type]
    assert caught.value.sqlstate == "FN001" and message in str(caught.value), str(caught.value)


def test_an_empty_ledger_has_no_record_to_prove(mdb: TestDatabase) -> None:
    with mdb.connect("auditor") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote.inclusion_proof(1)")
    assert "the ledger is empty" in str(caught.value)


def test_a_record_changed_after_the_tree_covered_it_gets_no_proof(mdb: TestDatabase) -> None:
    records(mdb, 6)
    tree_head(mdb)
    with mdb.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET hash = encode(sha256('forged'::bytea), 'hex') WHERE seq = 4")
    with mdb.connect("auditor") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote.inclusion_proof(4)")
    assert caught.value.sqlstate == "XX001" and "leaf for record 4 is not the record's hash" in str(caught.value)


def test_a_record_deleted_before_the_tree_covered_it_is_one_line_not_a_proof(mdb: TestDatabase) -> None:
    records(mdb, 6)
    with mdb.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("DELETE FROM footnote.ledger WHERE seq = 4")
    code, out, err = _cli("digest", "--database-url", mdb.url_as("auditor"))
    assert (code, out) == (1, "") and err == "error: the Merkle tree has no node for records 1 to 4: the ledger has " \
        "a gap there (run footnote.verify_chain())\n"
    code, out, err = _cli("receipt", "2", "--database-url", mdb.url_as("auditor"))
    assert (code, out) == (1, "") and "the ledger has a gap there" in err and err.count("\n") == 1


# -- receipts, offline ---------------------------------------------------------------------------------------------

@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    made = {}
    for name in ("signer", "other"):
        key = Ed25519PrivateKey.generate()
        made[name] = tmp_path / f"{name}.pem"
        made[name].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption()))
        made[f"{name}.pub"] = tmp_path / f"{name}.pub.pem"
        made[f"{name}.pub"].write_bytes(key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return made


def answered(db: TestDatabase, after: int = 3) -> int:
    """A few refusals, then a real answer (claims, evidence, amounts as text, €, ü), then more: its seq."""
    records(db, after)
    with db.client("service") as fn:
        answer = fn.ask("How much does Bergmann Logistik owe?")
    assert answer.receipt is not None and answer.status == "verified"
    records(db, 5)
    return int(answer.receipt.seq)


def gone(db: TestDatabase) -> str:
    """Drop the database; return a URL that can only fail, so a verifier that connects would fail too."""
    db.close()
    url = db.url_as("auditor")
    _drop_database(db.server, db.name)
    return url


def test_a_receipt_verifies_offline_after_the_database_is_dropped(mdb: TestDatabase, tmp_path: Path,
                                                                  keys: dict[str, Path]) -> None:
    seq = answered(mdb)
    path = tmp_path / "receipt.json"
    code, out, err = _cli("receipt", str(seq), "-o", str(path), "--sign-key", str(keys["signer"]),
                          "--database-url", mdb.url_as("auditor"))
    assert code == 0, err
    assert f"receipt of record {seq} in the tree of {seq + 5} records written to" in out
    doc = json.loads(path.read_text(encoding="utf-8"))
    # hash version 2: the record as sealed holds each part's commitment, and the receipt the parts that open them
    assert doc["record"]["parts"]["answer"]["value"].startswith("Bergmann Logistik GmbH owes 43.805,00 €")
    canonical_text = mdb.scalar("SELECT canonical FROM footnote.ledger WHERE seq = %s", (seq,))
    assert canonical.canonical_json({k: v for k, v in canonical.loads(path.read_text(encoding="utf-8"))["record"]
                                     .items() if k not in ("hash", "parts")}) == canonical_text, \
        "the record exactly as sealed"
    dead = gone(mdb)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(dead, connect_timeout=5)
    code, out, err = _cli("verify", "--receipt", str(path), "--database-url", dead)
    assert code == 0, err
    assert out.count("\n") == 1 and out.startswith(f"receipt verified: record {seq} (hash ")
    assert f"is leaf {seq - 1} of the tree of {seq + 5} records with root {doc['head']['root_hash'][:16]}" in out
    assert "signed by ed25519 key" in out
    code, out, _ = _cli("verify", "--receipt", str(path), "--public-key", str(keys["signer.pub"]),
                        "--database-url", dead)
    assert code == 0 and "(the given public key)" in out
    code, _, err = _cli("verify", "--receipt", str(path), "--public-key", str(keys["other.pub"]),
                        "--database-url", dead)
    assert code == 1 and err == "receipt rejected: the head is signed by another key than the given public key\n"
    # and as its own process, with no database anywhere
    env = {"PATH": "/usr/bin:/bin", "PGHOST": "/nonexistent-socket-dir", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "footnote_pg.cli", "verify", "--receipt", str(path), "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["details"]["tree_size"] == seq + 5


def _signed_receipt(db: TestDatabase, tmp_path: Path, key: Path, seq: int) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "receipt.json"
    code, _, err = _cli("receipt", str(seq), "-o", str(path), "--sign-key", str(key), "--database-url",
                        db.url_as("auditor"))
    assert code == 0, err
    return path, json.loads(path.read_text(encoding="utf-8"))


def _rejected(path: Path, doc: Any, *extra: str) -> tuple[int, str]:
    path.write_text(canonical.canonical_json(doc), encoding="utf-8")
    code, out, err = _cli("verify", "--receipt", str(path), *extra)
    assert (out + err).count("\n") == 1 and (err if code else out) == out + err, (out, err)
    return code, out + err


def test_a_one_byte_change_anywhere_in_a_receipt_fails_with_the_reason(mdb: TestDatabase, tmp_path: Path,
                                                                       keys: dict[str, Path]) -> None:
    seq = answered(mdb)
    path, doc = _signed_receipt(mdb, tmp_path, keys["signer"], seq)
    gone(mdb)
    original = json.loads(json.dumps(doc))
    forged = tmp_path / "forged.json"

    def edited(change: Any) -> dict[str, Any]:
        copy = json.loads(json.dumps(original))
        change(copy)
        return copy  # type: ignore[no-any-return]

    def forged_answer(d: dict[str, Any]) -> None:
        opening = d["record"]["parts"]["answer"]
        opening["value"] = opening["value"].replace("43.805", "43.806")

    def rehashed(d: dict[str, Any]) -> None:  # the forged answer committed to, and the record hashed again
        forged_answer(d)
        opening = d["record"]["parts"]["answer"]
        d["record"]["answer"] = chainwalk.commitment(opening["salt"], opening["value"])
        d["record"]["hash"] = ledger.record_hash({k: v for k, v in d["record"].items() if k not in ("hash", "parts")})

    cases = [
        (forged_answer, "the record's part answer does not open its commitment"),
        (lambda d: d["record"].__setitem__("answer", flip(d["record"]["answer"], 3)),
         "the record does not hash to the hash it carries"),
        (lambda d: d["record"].__setitem__("hash", flip(d["record"]["hash"], 40)),
         "the record does not hash to the hash it carries"),
        (rehashed, "the inclusion path does not lead to the signed root"),  # a forged record with its own hash
        (lambda d: d["inclusion"]["path"].__setitem__(1, flip(d["inclusion"]["path"][1], 7)),
         "the inclusion path does not lead to the signed root"),
        (lambda d: d["inclusion"].__setitem__("root_hash", flip(d["inclusion"]["root_hash"])),
         "the inclusion proof names another root than the signed head"),
        (lambda d: d["inclusion"].__setitem__("leaf_index", seq),
         f"the inclusion proof is for leaf {seq}, but record {seq} is leaf {seq - 1}"),
        (lambda d: d["head"].__setitem__("root_hash", flip(d["head"]["root_hash"], 63)),
         "signature does not match: the head was changed after it was signed"),
        (lambda d: d["head"]["signature"].__setitem__(  # its first character changed (a signature may start with A)
            "value", ("B" if d["head"]["signature"]["value"][0] == "A" else "A") + d["head"]["signature"]["value"][1:]),
         "signature does not match: the head was changed after it was signed"),
    ]
    for change, reason in cases:
        code, err = _rejected(forged, edited(change))
        assert (code, err) == (1, f"receipt rejected: {reason}\n")
    # without a signature the same forgeries fail on the proof itself (and a pinned key refuses the unsigned head)
    unsigned = edited(lambda d: d["head"].pop("signature"))
    assert _rejected(forged, unsigned)[0] == 0
    assert _rejected(forged, unsigned, "--public-key", str(keys["signer.pub"])) == (
        1, "receipt rejected: the head is not signed, but a public key was given\n")
    unsigned["head"]["root_hash"] = flip(unsigned["head"]["root_hash"])
    assert _rejected(forged, unsigned) == (1, "receipt rejected: the inclusion path does not lead to the signed root\n")

    # a sample of single bytes of the file changed, through the command: one line, exit 1 or 2, never a traceback
    data = path.read_bytes()
    for at in random.Random(9162).sample(range(len(data)), 150):
        forged.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:])
        code, out, err = _cli("verify", "--receipt", str(forged))
        assert code in (1, 2) and out == "" and err.count("\n") == 1, (at, data[max(0, at - 20):at + 20], out, err)


def test_no_single_byte_of_a_receipt_can_change_unnoticed(mdb: TestDatabase, tmp_path: Path,
                                                         keys: dict[str, Path]) -> None:
    """Every byte of a (small, signed) receipt changed in turn: refused by a proof or as malformed, every time."""
    records(mdb, 6)
    path, _ = _signed_receipt(mdb, tmp_path, keys["signer"], 3)
    data = path.read_bytes()
    refused = malformed = 0
    for at in range(len(data)):
        forged = tmp_path / "forged.json"
        forged.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:])
        try:
            outcome = receipts.verify_receipt(receipts.read_receipt(forged))
        except ledger.BundleError:
            malformed += 1
            continue
        assert not outcome.ok and outcome.line.startswith("receipt rejected: "), (at, data[at - 20:at + 20])
        refused += 1
    assert refused > len(data) // 2, (refused, malformed)  # most are read, and refused by a proof


def test_a_malformed_receipt_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "receipt.json"
    for text in ("not json", "[]", '{"format": "footnote-pg-receipt/1"}', "\xff\xfe",
                 '{"format": "footnote-pg-receipt/1", "record": {"seq": 1, "hash": "x"}, "inclusion": {}, "head": {}}'):
        path.write_bytes(text.encode("latin-1"))
        code, out, err = _cli("verify", "--receipt", str(path))
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in out + err
    code, _, err = _cli("verify", "--receipt", str(tmp_path / "missing.json"))
    assert code == 2 and err.count("\n") == 1
    code, _, err = _cli("verify", "--receipt", str(path), "--bundle", str(path))
    assert code == 2 and "verify takes --receipt FILE alone" in err


def test_receipt_for_a_record_not_in_the_ledger_is_one_line_and_exit_2(mdb: TestDatabase) -> None:
    records(mdb, 8)
    for seq, message in (("99", "there is no ledger record 99; the chain holds records 1 to 8"),
                         ("0", "there is no ledger record 0; the chain holds records 1 to 8"),
                         ("99999999999999999999", "99999999999999999999 is not a ledger sequence number")):
        code, out, err = _cli("receipt", seq, "--database-url", mdb.url_as("auditor"))
        assert (code, out, err) == (2, "", f"error: invalid argument seq: {message}\n"), seq
    code, _, err = _cli("receipt", "3", "--database-url", mdb.url_as("service"))
    assert code == 2 and err.startswith("error: permission denied") and err.count("\n") == 1
    code, _, err = _cli("receipt", "3", "--sign-key", "/nonexistent.pem", "--database-url", mdb.url_as("auditor"))
    assert code == 2 and err.count("\n") == 1


def test_receipts_print_to_stdout_and_unsigned_heads_say_so(mdb: TestDatabase) -> None:
    records(mdb, 3)
    code, out, _ = _cli("receipt", "2", "--database-url", mdb.url_as("auditor"))
    doc = json.loads(out)
    assert code == 0 and doc["format"] == receipts.RECEIPT_FORMAT and "signature" not in doc["head"]
    outcome = receipts.verify_receipt(doc)
    assert outcome.ok and "the head is not signed: compare its root with a digest you trust" in outcome.line


# -- digests that extend digests -------------------------------------------------------------------------------------

def test_a_new_digest_proves_it_extends_an_old_one_offline(mdb: TestDatabase, tmp_path: Path,
                                                          keys: dict[str, Path]) -> None:
    url = mdb.url_as("auditor")
    records(mdb, 11)
    old, new, signed = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "signed.json"
    old_signed = tmp_path / "old-signed.json"
    assert _cli("digest", "-o", str(old), "--database-url", url)[0] == 0
    assert _cli("digest", "-o", str(old_signed), "--sign-key", str(keys["signer"]), "--database-url", url)[0] == 0
    records(mdb, 30)
    code, out, err = _cli("digest", "--extends", str(old), "-o", str(new), "--database-url", mdb.url_as("service"))
    assert code == 0, err
    assert f"digest of record 41 written to {new} (extends {old}: a consistency proof of " in out
    assert _cli("digest", "--extends", str(old), "-o", str(signed), "--sign-key", str(keys["signer"]),
                "--database-url", url)[0] == 0
    made = json.loads(new.read_text(encoding="utf-8"))
    assert (made["tree_size"], made["consistency"]["old_size"], made["consistency"]["new_size"]) == (41, 11, 41)
    assert made["root_hash"] == merkle.root(leaves(mdb)).hex()
    dead = gone(mdb)

    code, out, err = _cli("verify", "--digest", str(old), "--digest", str(new), "--database-url", dead)
    assert code == 0, err
    assert out == (f"digests verified: {new} extends {old}: the tree of 41 records (root {made['root_hash'][:16]}…) "
                   f"holds the tree of 11 records (root {json.loads(old.read_text())['root_hash'][:16]}…) unchanged; "
                   f"consistency proof of {len(made['consistency']['path'])} hashes (embedded in {new}) verified\n")
    code, _, err = _cli("verify", "--digest", str(old), "--digest", str(signed), "--public-key",
                        str(keys["signer.pub"]), "--database-url", dead)
    assert (code, err) == (1, f"digests rejected: {old} is not signed, but a public key was given\n")
    assert _cli("verify", "--digest", str(old_signed), "--digest", str(signed), "--public-key",
                str(keys["signer.pub"]), "--database-url", dead)[0] == 0
    assert _cli("verify", "--digest", str(old_signed), "--digest", str(new), "--database-url", dead)[0] == 0

    def forged(change: Any, source: Path = new) -> tuple[int, str]:
        doc = json.loads(source.read_text(encoding="utf-8"))
        change(doc)
        target = tmp_path / "forged.json"
        target.write_text(json.dumps(doc), encoding="utf-8")
        code, out, err = _cli("verify", "--digest", str(old), "--digest", str(target), "--database-url", dead)
        assert out == "" and err.count("\n") == 1
        return code, err

    fails = "digests rejected: the new head does not extend the old one: consistency proof fails"
    code, err = forged(lambda d: d.__setitem__("root_hash", flip(d["root_hash"])))
    assert code == 1 and err.startswith(fails) and "does not lead to the new root" in err
    code, err = forged(lambda d: d["consistency"]["path"].__setitem__(0, flip(d["consistency"]["path"][0], 9)))
    assert code == 1 and err.startswith(fails)
    code, err = forged(lambda d: d["consistency"]["path"].pop())
    assert code == 1 and err.startswith(fails) and "fewer than these sizes need" in err
    code, err = forged(lambda d: d.__setitem__("root_hash", flip(d["root_hash"])), signed)
    assert (code, err) == (1, "digests rejected: signature does not match: "
                              f"{tmp_path / 'forged.json'} was changed after it was signed\n")
    code, err = forged(lambda d: (d.__setitem__("tree_size", 9), d.__setitem__("seq", 9)))
    assert (code, err) == (1, "digests rejected: the new head's tree (9 records) is smaller than the old one's (11): "
                              "it cannot extend it\n")
    code, err = forged(lambda d: d.pop("consistency"))  # no proof in NEW: the database is asked, and it is gone
    assert code == 2 and err.startswith("error: cannot connect to the database")
    code, err = forged(lambda d: d["consistency"].pop("old_root"))
    assert code == 2 and "consistency member is malformed" in err
    code, _, err = _cli("verify", "--digest", str(old), "--digest", str(new), "--digest", str(new))
    assert code == 2 and err.count("\n") == 1


def test_without_an_embedded_proof_the_database_gives_one_it_cannot_fake(mdb: TestDatabase, tmp_path: Path) -> None:
    url = mdb.url_as("auditor")
    records(mdb, 9)
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    assert _cli("digest", "-o", str(old), "--database-url", url)[0] == 0
    records(mdb, 4)
    assert _cli("digest", "-o", str(new), "--database-url", url)[0] == 0
    assert "consistency" not in json.loads(new.read_text(encoding="utf-8"))
    code, out, err = _cli("verify", "--digest", str(old), "--digest", str(new), "--database-url", url)
    assert code == 0 and "(from the database) verified" in out, err

    # a superuser rewrites record 5 and every hash after it, rebuilds the tree and writes a new head: the chain walk
    # passes, the database's proof cannot connect the new root to the old one
    with mdb.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("""
            DO $$
            DECLARE r footnote.ledger; prev text;
            BEGIN
                SELECT hash INTO prev FROM footnote.ledger WHERE seq = 4;
                FOR r IN SELECT * FROM footnote.ledger WHERE seq >= 5 ORDER BY seq LOOP
                    IF r.seq = 5 THEN r.answer := 'a rewritten answer'; END IF;
                    r.prev_hash := prev;
                    r.canonical := footnote.canonical_json(footnote._record_object(r));
                    r.hash := footnote.sha256_hex(r.canonical);
                    UPDATE footnote.ledger SET answer = r.answer, prev_hash = r.prev_hash, canonical = r.canonical,
                                               hash = r.hash WHERE seq = r.seq;
                    prev := r.hash;
                END LOOP;
            END $$""")
        conn.execute("DELETE FROM footnote.merkle_nodes")
    with mdb.connect(autocommit=False) as conn:
        assert ledger.verify_database(conn).ok, "a consistent rewrite fools the chain alone"
    rewritten = tmp_path / "rewritten.json"
    assert _cli("digest", "-o", str(rewritten), "--database-url", url)[0] == 0
    code, out, err = _cli("verify", "--digest", str(old), "--digest", str(rewritten), "--database-url", url)
    assert code == 1 and err.startswith("digests rejected: the new head does not extend the old one: consistency "
                                        "proof fails"), (out, err)
    code, _, err = _cli("digest", "--extends", str(old), "-o", str(tmp_path / "x.json"), "--database-url", url)
    assert code == 1 and err.startswith(f"error: the ledger does not extend {old}: record 9 has hash ")
    assert err.endswith("(rewritten)\n")


def test_digests_from_before_tree_heads_still_work(mdb: TestDatabase, tmp_path: Path) -> None:
    url = mdb.url_as("auditor")
    records(mdb, 6)
    with mdb.connect(autocommit=False) as conn:
        head = ledger.chain_head(conn)
    assert head is not None
    plain = tmp_path / "plain.json"
    plain.write_text(canonical.canonical_json(ledger.make_digest(head)), encoding="utf-8")
    assert _cli("verify", "--digest", str(plain), "--database-url", url)[0] == 0
    records(mdb, 3)
    new = tmp_path / "new.json"
    code, out, err = _cli("digest", "--extends", str(plain), "-o", str(new), "--database-url", url)
    assert code == 0 and "from its tree of 6 records" in out, err
    code, _, err = _cli("verify", "--digest", str(plain), "--digest", str(new), "--database-url", url)
    assert code == 2 and "the digest has no tree head (tree_size and root_hash)" in err
    with mdb.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("DELETE FROM footnote.ledger WHERE seq > 4")
    code, _, err = _cli("digest", "--extends", str(plain), "--database-url", url)
    assert code == 1 and err.startswith(f"error: the ledger does not extend {plain}: it holds 4 records")


def test_a_signed_tree_head_signs_its_root(mdb: TestDatabase, tmp_path: Path, keys: dict[str, Path]) -> None:
    records(mdb, 5)
    path = tmp_path / "head.json"
    assert _cli("digest", "-o", str(path), "--sign-key", str(keys["signer"]), "--database-url",
                mdb.url_as("auditor"))[0] == 0
    assert ledger.read_digest(path, keys["signer.pub"].read_bytes())["root_hash"] == merkle.root(leaves(mdb)).hex()
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["root_hash"] = flip(doc["root_hash"])
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ledger.BundleError, match="signature does not verify"):
        ledger.read_digest(path)
    code, _, err = _cli("digest", "--sign-key", str(keys["signer.pub"]), "--database-url", mdb.url_as("auditor"))
    assert code == 2 and err == "error: the signing key is not a readable, unencrypted PEM private key\n"


def test_one_digest_given_twice_verifies_offline(mdb: TestDatabase, tmp_path: Path) -> None:
    """--digest D --digest D: the same tree, an empty proof; no database is asked (an unreachable URL)."""
    records(mdb, 5)
    digest = tmp_path / "head.json"
    assert _cli("digest", "-o", str(digest), "--database-url", mdb.url_as("auditor"))[0] == 0
    code, out, err = _cli("verify", "--digest", str(digest), "--digest", str(digest), "--database-url", gone(mdb))
    assert code == 0, err
    assert "the tree of 5 records" in out and "consistency proof of 0 hashes (the same tree) verified" in out

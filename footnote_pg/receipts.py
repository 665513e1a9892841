"""Receipts and extended tree heads: proofs about the ledger that are checked offline (docs/hash-spec.md §7).

A *receipt* is one record with its inclusion proof and a signed tree head: it
proves, with no database, that the record is the one at its place in the tree
whose root the head signs. A digest written with ``--extends`` carries a
consistency proof: the tree it signs holds the earlier digest's tree unchanged,
so the ledger only grew between the two.

Making them needs the database; checking them uses only this module,
:mod:`footnote_pg.merkle`, :mod:`footnote_pg.canonical` and the digest
signature check of :mod:`footnote_pg.ledger`, never the database's hash code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from footnote_pg import canonical, chainwalk, errors, ledger, merkle
from footnote_pg.queries import query

RECEIPT_FORMAT = "footnote-pg-receipt/1"

_SIGNATURE_REASONS = {
    "unsigned": "{what} is not signed, but a public key was given",
    "malformed": "{what}'s signature is malformed (algorithm ed25519, public_key and value in base64)",
    "other_key": "{what} is signed by another key than the given public key",
    "mismatch": "signature does not match: {what} was changed after it was signed",
}


class NotProved(errors.FootnoteError):
    """The database cannot give the proof asked for: the ledger does not hold what it should."""

    exit_code = 1


@dataclass
class Outcome:
    """What a receipt or a pair of digests proved, or the reason they prove nothing."""

    ok: bool
    line: str
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _hex(value: object) -> bool:
    return isinstance(value, str) and merkle.parse_path([value]) is not None


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _signer(head: dict[str, Any]) -> str:
    signature = head.get("signature")
    return f"ed25519 key {signature['public_key'][:12]}…" if isinstance(signature, dict) else ""


# -- receipts ---------------------------------------------------------------

def make_receipt(conn: psycopg.Connection[Any], seq: int, private_key_pem: bytes | None = None) -> dict[str, Any]:
    """The receipt of record ``seq`` in the tree of every sealed record, its head signed when a key is given."""
    if not -(2**63) <= seq < 2**63:  # the rest the database refuses, naming the chain's range
        raise errors.InvalidArgument(f"invalid argument seq: {seq} is not a ledger sequence number")
    try:
        head = ledger.tree_head(conn)
        row = conn.execute(query("inclusion_proof"),
                           {"seq": seq, "tree_size": head["tree_size"] if head else None}).fetchone()
        record = conn.execute(query("receipt_record"), {"seq": seq}).fetchone()
    except psycopg.Error as exc:
        if exc.sqlstate == "XX001":  # the tree and the ledger disagree
            raise NotProved(exc.diag.message_primary or str(exc)) from None
        raise
    assert head is not None and row is not None
    proof = row[0]
    if record is None:
        raise NotProved(f"record {seq} is not in the ledger, although its tree has a leaf for it")
    obj, stored = canonical.loads(record[0]), record[1]
    if ledger.record_hash(obj) != stored:
        raise NotProved(f"record {seq} does not hash to its stored hash: the ledger was changed "
                        "(footnote-pg verify names the first bad record)")
    if proof["root_hash"] != head["root_hash"] or proof["tree_size"] != head["tree_size"]:
        raise NotProved("the inclusion proof and the tree head name different trees")
    opened: dict[str, Any] = {}
    if obj.get("version") == 2:  # its parts, each with its salt: they open the commitments the record holds
        row = next(ledger.iter_rows(conn, seq, seq), None)
        if row is not None and row["salts"] is not None:
            opened["parts"] = chainwalk.openings(chainwalk.content_object(row), canonical.loads(row["salts"]))
    return {"format": RECEIPT_FORMAT, "record": {**obj, "hash": stored, **opened}, "inclusion": proof,
            "head": ledger.make_digest(head, private_key_pem)}


def receipt_problem(doc: object) -> str | None:
    """Why a parsed document is not a receipt at all (its form, not its proofs), or None."""
    if not isinstance(doc, dict) or doc.get("format") != RECEIPT_FORMAT:
        return f"not a {RECEIPT_FORMAT} file"
    if set(doc) != {"format", "record", "inclusion", "head"}:
        return "a receipt has exactly the members format, record, inclusion and head"
    record, inclusion, head = doc["record"], doc["inclusion"], doc["head"]
    if not isinstance(record, dict) or not _hex(record.get("hash")):
        return "its record carries no hash of 64 lower-case hex digits"
    if not _count(record.get("seq")) or record["seq"] < 1:
        return "its record has no positive integer seq"
    if not isinstance(inclusion, dict) or set(inclusion) != {"leaf_index", "tree_size", "path", "root_hash"}:
        return "its inclusion proof has exactly the members leaf_index, tree_size, path and root_hash"
    if not (_count(inclusion["leaf_index"]) and _count(inclusion["tree_size"])):
        return "its inclusion proof's leaf_index and tree_size are not integers of at least 0"
    if merkle.parse_path(inclusion["path"]) is None or not _hex(inclusion["root_hash"]):
        return "its inclusion proof's path and root_hash are not hashes of 64 lower-case hex digits"
    problem = ledger.digest_problem(head)
    if problem is not None:
        return f"its head is {problem}" if problem.startswith("not ") else f"its head: {problem}"
    if "root_hash" not in head:
        return "its head is not a signed tree head (it has no tree_size and root_hash)"
    return None


def read_receipt(path: Path) -> dict[str, Any]:
    """Read a receipt file (BundleError when it cannot be read or is not a receipt)."""
    try:
        doc = canonical.loads(Path(path).read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise ledger.BundleError(f"{path}: not a readable receipt ({exc})") from None
    problem = receipt_problem(doc)
    if problem is not None:
        raise ledger.BundleError(f"{path}: {problem}")
    assert isinstance(doc, dict)
    return doc


def verify_receipt(doc: dict[str, Any], public_key_pem: bytes | None = None) -> Outcome:
    """Check a receipt offline: the head's signature, the record's hash, its leaf and the path to the signed root."""
    problem = receipt_problem(doc)
    if problem is not None:
        raise ledger.BundleError(problem)
    record, inclusion, head = doc["record"], doc["inclusion"], doc["head"]
    seq, stored = record["seq"], record["hash"]

    def rejected(reason: str) -> Outcome:
        return Outcome(False, f"receipt rejected: {reason}", {"seq": seq, "reason": reason})

    signature = ledger.signature_problem(head, public_key_pem)
    if signature is not None:
        return rejected(_SIGNATURE_REASONS[signature].format(what="the head"))
    sealed = {k: v for k, v in record.items() if k not in ("hash", "parts")}
    if ledger.record_hash(sealed) != stored:
        return rejected("the record does not hash to the hash it carries")
    if "parts" in record and (why := chainwalk.open_problem(sealed, record["parts"])) is not None:
        return rejected(f"the record's {why}")  # version 2: a part that is not the one committed to
    if inclusion["leaf_index"] != seq - 1:
        return rejected(f"the inclusion proof is for leaf {inclusion['leaf_index']}, but record {seq} is leaf "
                        f"{seq - 1}")
    if inclusion["tree_size"] != head["tree_size"]:
        return rejected(f"the inclusion proof is for a tree of {inclusion['tree_size']} records, the signed head's "
                        f"tree has {head['tree_size']}")
    path = merkle.parse_path(inclusion["path"]) or []
    checked = merkle.verify_inclusion(merkle.leaf_hash(stored), seq - 1, head["tree_size"], path,
                                      bytes.fromhex(head["root_hash"]))
    if not checked:
        reason = checked.reason or "the inclusion proof fails"
        return rejected(reason.replace("lead to the root", "lead to the signed root"))
    if inclusion["root_hash"] != head["root_hash"]:
        return rejected("the inclusion proof names another root than the signed head")
    size, root = head["tree_size"], head["root_hash"]
    signer = _signer(head)
    by = f"signed by {signer}" + (" (the given public key)" if public_key_pem else "") if signer else \
        "the head is not signed: compare its root with a digest you trust"
    return Outcome(True, f"receipt verified: record {seq} (hash {stored[:16]}…) is leaf {seq - 1} of the tree of "
                         f"{size} records with root {root[:16]}…, {by}",
                   {"seq": seq, "hash": stored, "tree_size": size, "root_hash": root, "path_length": len(path),
                    "signed_by": head["signature"]["public_key"] if signer else None})


# -- digests that extend digests --------------------------------------------

def extension_proof(conn: psycopg.Connection[Any], older: dict[str, Any], head: dict[str, Any],
                    name: str = "the earlier digest") -> dict[str, Any]:
    """The consistency proof from an earlier digest's tree to ``head``'s (NotProved: the ledger does not extend it)."""
    old_size = older.get("tree_size", older["seq"])  # a digest from before tree heads: its tree is records 1..seq
    if old_size > head["tree_size"]:
        raise NotProved(f"the ledger does not extend {name}: it holds {head['tree_size']} records, {name} names "
                        f"record {old_size} (truncated)")
    then = ledger.tree_head(conn, old_size)
    assert then is not None
    if then["hash"] != older["hash"]:
        raise NotProved(f"the ledger does not extend {name}: record {old_size} has hash {then['hash'][:12]}…, "
                        f"{name} says {older['hash'][:12]}… (rewritten)")
    if "root_hash" in older and then["root_hash"] != older["root_hash"]:
        raise NotProved(f"the ledger does not extend {name}: its first {old_size} records have root "
                        f"{then['root_hash'][:12]}…, {name} says {older['root_hash'][:12]}… (rewritten)")
    row = conn.execute(query("consistency_proof"), {"old_size": old_size, "new_size": head["tree_size"]}).fetchone()
    assert row is not None
    proof: dict[str, Any] = row[0]
    return proof


def _proof_problem(proof: object) -> str | None:
    if not isinstance(proof, dict) or set(proof) != {"old_size", "new_size", "path", "old_root", "new_root"}:
        return "a consistency proof has exactly the members old_size, new_size, path, old_root and new_root"
    if not (_count(proof["old_size"]) and _count(proof["new_size"])):
        return "its old_size and new_size are not integers of at least 0"
    if merkle.parse_path(proof["path"]) is None or not (_hex(proof["old_root"]) and _hex(proof["new_root"])):
        return "its path and roots are not hashes of 64 lower-case hex digits"
    return None


def verify_extension(old: dict[str, Any], new: dict[str, Any], *, public_key_pem: bytes | None = None,
                     fetch: Callable[[int, int], dict[str, Any]] | None = None,
                     names: tuple[str, str] = ("OLD", "NEW")) -> Outcome:
    """Does the tree ``new`` signs hold the one ``old`` signs unchanged? By ``new``'s own proof, else ``fetch``'s.

    ``fetch(old_size, new_size)`` asks a database for the proof; it need not be trusted, the proof is checked
    against the two digests' roots.
    """
    old_name, new_name = names
    for name, digest in ((old_name, old), (new_name, new)):
        problem = ledger.digest_problem(digest)
        if problem is not None:
            raise ledger.BundleError(f"{name}: {problem}")
        if "root_hash" not in digest:
            raise ledger.BundleError(f"{name}: the digest has no tree head (tree_size and root_hash): it was written "
                                     "before signed tree heads; check it against the database with one --digest")

    def failed(reason: str) -> Outcome:
        return Outcome(False, f"digests rejected: {reason}", {"reason": reason})

    for name, digest in ((old_name, old), (new_name, new)):
        signature = ledger.signature_problem(digest, public_key_pem)
        if signature is not None:
            return failed(_SIGNATURE_REASONS[signature].format(what=name))
    m, n = old["tree_size"], new["tree_size"]
    if m > n:
        return failed(f"the new head's tree ({n} records) is smaller than the old one's ({m}): it cannot extend it")
    embedded = new.get("consistency")
    if m == n:  # one tree: the proof is empty, and needs no database
        proof, source = {"old_size": m, "new_size": n, "path": [], "old_root": old["root_hash"],
                         "new_root": new["root_hash"]}, "the same tree"
    elif isinstance(embedded, dict) and embedded.get("old_size") == m:
        proof, source = embedded, f"embedded in {new_name}"
    elif fetch is not None:
        proof, source = fetch(m, n), "from the database"
    else:
        raise ledger.BundleError(f"{new_name} carries no consistency proof from a tree of {m} records")
    problem = _proof_problem(proof)
    if problem is not None:
        if source.startswith("embedded"):
            raise ledger.BundleError(f"{new_name}: its consistency member is malformed: {problem}")
        return failed(f"the database's consistency proof is malformed: {problem}")
    if proof["old_size"] != m or proof["new_size"] != n:
        return failed(f"the consistency proof ({source}) is for trees of {proof['old_size']} and "
                      f"{proof['new_size']} records, the heads have {m} and {n}")
    path = merkle.parse_path(proof["path"]) or []
    checked = merkle.verify_consistency(m, n, bytes.fromhex(old["root_hash"]), bytes.fromhex(new["root_hash"]), path)
    if not checked:
        return failed(f"the new head does not extend the old one: consistency proof fails ({checked.reason})")
    return Outcome(True, f"digests verified: {new_name} extends {old_name}: the tree of {n} records (root "
                         f"{new['root_hash'][:16]}…) holds the tree of {m} records (root {old['root_hash'][:16]}…) "
                         f"unchanged; consistency proof of {len(path)} hashes ({source}) verified",
                   {"old_size": m, "new_size": n, "old_root": old["root_hash"], "new_root": new["root_hash"],
                    "path_length": len(path), "proof": source})

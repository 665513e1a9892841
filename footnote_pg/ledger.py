"""The independent ledger verifier, exports and digests (docs/hash-spec.md).

Nothing here calls the database's hash code: records are rebuilt from their
columns, serialised with :mod:`footnote_pg.canonical` and hashed with hashlib.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import psycopg

from footnote_pg import canonical, errors
from footnote_pg.queries import query

GENESIS = "0" * 64
BUNDLE_FORMAT = "footnote-pg-bundle/1"
DIGEST_FORMAT = "footnote-pg-digest/1"
_FAR_PAST = dt.datetime(1, 1, 1, tzinfo=dt.UTC)
_FAR_FUTURE = dt.datetime(9999, 12, 31, tzinfo=dt.UTC)


class BundleError(ValueError):
    """A bundle or digest file that cannot be read at all."""


def timestamp(value: dt.datetime) -> str:
    """``recorded_at`` as the spec writes it: UTC, six fraction digits, Z."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def record_object(row: dict[str, Any]) -> dict[str, Any]:
    """The hashed object of a ledger row (columns as the ``ledger_rows`` query returns them)."""

    def parsed(value: str | None) -> Any:
        return None if value is None else canonical.loads(value)

    return {
        "version": 1,
        "id": row["id"],
        "seq": row["seq"],
        "recorded_at": timestamp(row["recorded_at"]),
        "db_role": row["db_role"],
        "actor": {"id": row["actor_id"], "role": row["actor_role"]},
        "kind": row["kind"],
        "question": row["question"],
        "answer": row["answer"],
        "status": row["status"],
        "claims": parsed(row["claims"]),
        "operations": parsed(row["operations"]),
        "evidence": parsed(row["evidence"]),
        "findings": parsed(row["findings"]),
        "decision": parsed(row["decision"]),
        "details": parsed(row["details"]),
        "prev_hash": row["prev_hash"],
    }


def record_hash(obj: dict[str, Any]) -> str:
    return canonical.sha256_hex(canonical.canonical_json(obj))


@dataclass
class Verdict:
    """The result of walking a chain."""

    ok: bool
    records: int
    head_seq: int | None
    head_hash: str | None
    first_bad_seq: int | None = None
    problem: str | None = None
    detail: str | None = None

    def line(self) -> str:
        if self.ok:
            return f"chain intact: {self.records} records, head {self.head_seq} {(self.head_hash or '')[:16]}…"
        if self.first_bad_seq is None:
            return f"ledger broken: {self.problem}: {self.detail}"
        return f"chain broken at record {self.first_bad_seq}: {self.problem}: {self.detail}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def verify_objects(items: Iterable[tuple[dict[str, Any], str]], *, first_seq: int = 1,
                   first_prev_hash: str = GENESIS) -> Verdict:
    """Walk ``(record object, stored hash)`` pairs in order; name the first bad record."""
    expected, prev_hash, prev_time = first_seq, first_prev_hash, ""
    count, head_seq, head_hash = 0, None, None

    def broken(seq: int, problem: str, detail: str) -> Verdict:
        return Verdict(False, count, head_seq, head_hash, seq, problem, detail)

    for obj, stored in items:
        count += 1
        seq = obj.get("seq")
        if not isinstance(seq, int):
            return broken(expected, "content_changed", f"record {expected} has no integer seq")
        if seq < expected:
            return broken(seq, "reordered", f"record {seq} appears after record {expected - 1}")
        if seq > expected:
            missing = f"record {expected} is missing" if seq == expected + 1 else \
                f"records {expected} to {seq - 1} are missing"
            return broken(expected, "sequence_gap", missing)
        if record_hash(obj) != stored:
            return broken(seq, "content_changed", f"record {seq} does not hash to its stored hash")
        if obj.get("prev_hash") != prev_hash:
            return broken(seq, "link_broken",
                          f"record {seq} points to {str(obj.get('prev_hash'))[:12]}…, "
                          f"but record {seq - 1} has hash {prev_hash[:12]}…")
        recorded_at = str(obj.get("recorded_at"))
        if recorded_at < prev_time:
            return broken(seq, "reordered", f"record {seq} was recorded before record {seq - 1}")
        expected, prev_hash, prev_time = seq + 1, stored, recorded_at
        head_seq, head_hash = seq, stored
    return Verdict(True, count, head_seq, head_hash)


# -- the database -----------------------------------------------------------

def iter_rows(conn: psycopg.Connection[Any], from_seq: int = 1, to_seq: int = 2**62,
              since: dt.datetime | None = None, until: dt.datetime | None = None) -> Iterator[dict[str, Any]]:
    """Ledger rows in sequence order, streamed with a server-side cursor."""
    params = {"from_seq": from_seq, "to_seq": to_seq, "since": since or _FAR_PAST, "until": until or _FAR_FUTURE}
    with conn.cursor(name="footnote_ledger_rows", row_factory=psycopg.rows.dict_row) as cur:
        cur.itersize = 2000
        cur.execute(query("ledger_rows"), params)
        yield from cur


def verify_database(conn: psycopg.Connection[Any], *, recompute_calls: bool = False,
                    advance: Callable[[int], None] | None = None) -> Verdict:
    """Verify the whole chain in the database, independently of its own verify_chain(), then the calls behind
    every record (:mod:`footnote_pg.provenance`; ``recompute_calls`` also hashes every cited result again).
    ``advance(1)`` is called after each record (a progress bar)."""
    from footnote_pg import provenance

    cited = provenance.Cited()

    def pairs() -> Iterator[tuple[dict[str, Any], str]]:
        for row in iter_rows(conn):
            obj = record_object(row)
            cited.add(obj)
            yield obj, row["hash"]
            if advance is not None:
                advance(1)

    verdict = verify_objects(pairs())
    if verdict.ok:
        found = provenance.first_problem(conn, cited, recompute=recompute_calls)
        if found is not None:
            return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, found.seq, found.problem,
                           found.detail)
    return verdict


def chain_head(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    row = conn.execute(query("chain_head")).fetchone()
    if row is None or row[0] is None:
        return None
    return {"seq": row[0], "hash": row[1], "recorded_at": timestamp(row[2])}


# -- bundles ----------------------------------------------------------------

def export_bundle(conn: psycopg.Connection[Any], path: Path, *, from_seq: int = 1, to_seq: int = 2**62,
                  since: dt.datetime | None = None, until: dt.datetime | None = None,
                  advance: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Write the records of a range as a bundle; returns its manifest (``advance(1)`` after each record)."""
    lines: list[str] = []
    first_seq = last_seq = None
    first_prev = head = None
    for row in iter_rows(conn, from_seq, to_seq, since, until):
        if advance is not None:
            advance(1)
        obj = record_object(row)
        lines.append(canonical.canonical_json({**obj, "hash": row["hash"]}) + "\n")
        if first_seq is None:
            first_seq, first_prev = row["seq"], row["prev_hash"]
        last_seq, head = row["seq"], row["hash"]
    body = "".join(lines).encode("utf-8")
    manifest = {
        "format": BUNDLE_FORMAT,
        "exported_at": timestamp(dt.datetime.now(dt.UTC)),
        "count": len(lines),
        "first_seq": first_seq,
        "last_seq": last_seq,
        "first_prev_hash": first_prev,
        "head_hash": head,
        "records_sha256": hashlib.sha256(body).hexdigest(),
        "range": {"from_seq": from_seq if from_seq > 1 else None, "to_seq": to_seq if to_seq < 2**62 else None,
                  "since": timestamp(since) if since else None, "until": timestamp(until) if until else None},
    }
    with open(path, "wb") as out:
        out.write(canonical.canonical_json({"manifest": manifest}).encode("utf-8") + b"\n")
        out.write(body)
    return manifest


def read_bundle(path: Path) -> tuple[dict[str, Any], list[bytes]]:
    data = Path(path).read_bytes()
    head, sep, rest = data.partition(b"\n")
    try:
        manifest = canonical.loads(head.decode("utf-8"))["manifest"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise BundleError(f"{path}: line 1 is not a footnote-pg bundle manifest ({reason})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{path}: not a {BUNDLE_FORMAT} file")
    for key, kinds in (("count", (int,)), ("first_seq", (int, type(None))), ("last_seq", (int, type(None))),
                       ("first_prev_hash", (str, type(None))), ("head_hash", (str, type(None))),
                       ("records_sha256", (str,)), ("range", (dict, type(None)))):
        if not isinstance(manifest.get(key), kinds) or isinstance(manifest.get(key), bool):
            raise BundleError(f"{path}: the manifest's {key} must be "
                              f"{' or '.join('null' if k is type(None) else k.__name__ for k in kinds)}")
    return manifest, rest.splitlines(keepends=True) if sep else []


def verify_bundle(path: Path, advance: Callable[[int], None] | None = None) -> Verdict:
    """Verify an exported bundle offline: manifest, every record's hash, every link (``advance(1)`` after
    each record)."""
    manifest, lines = read_bundle(path)
    body_ok = hashlib.sha256(b"".join(lines)).hexdigest() == manifest.get("records_sha256")

    def pairs() -> Iterator[tuple[dict[str, Any], str]]:
        for number, line in enumerate(lines, start=2):
            if advance is not None:
                advance(1)
            try:
                obj = canonical.loads(line.decode("utf-8"))
                stored = obj.pop("hash")
            except (ValueError, KeyError, AttributeError, UnicodeDecodeError, RecursionError):
                seq = (manifest.get("first_seq") or 1) + number - 2
                yield {"seq": seq, "unreadable": True}, f"line {number} is not a record"
                continue
            yield obj, stored

    first_seq = manifest.get("first_seq") or 1
    ranged: dict[str, Any] = manifest["range"] if isinstance(manifest.get("range"), dict) else {}
    whole = not any(ranged.get(k) for k in ("from_seq", "to_seq", "since", "until"))
    if whole and lines and (first_seq != 1 or (manifest.get("first_prev_hash") or GENESIS) != GENESIS):
        return Verdict(False, 0, None, None, 1, "sequence_gap",
                       f"the bundle is a whole export but starts at record {first_seq}, linked to "
                       f"{str(manifest.get('first_prev_hash'))[:12]}…: records before it are missing")
    verdict = verify_objects(pairs(), first_seq=first_seq, first_prev_hash=manifest.get("first_prev_hash") or GENESIS)
    if not verdict.ok:
        return verdict
    if verdict.records != manifest.get("count") or verdict.head_hash != manifest.get("head_hash"):
        return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, verdict.head_seq,
                       "manifest_mismatch", f"the manifest says {manifest.get('count')} records ending in "
                       f"{str(manifest.get('head_hash'))[:12]}…, the bundle has {verdict.records} ending in "
                       f"{str(verdict.head_hash)[:12]}…")
    if not body_ok:
        return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, None, "manifest_mismatch",
                       "the records' bytes do not hash to records_sha256")
    return verdict


# -- digests ----------------------------------------------------------------

_HEX64 = re.compile(r"[0-9a-f]{64}")
_DIGEST_MEMBERS = {"format", "seq", "hash", "recorded_at", "taken_at", "tree_size", "root_hash", "consistency",
                   "signature"}


class TreeBroken(errors.FootnoteError):
    """The Merkle tree cannot cover the ledger: a record is missing (the chain walk names it)."""

    exit_code = 1


def tree_head(conn: psycopg.Connection[Any], tree_size: int | None = None) -> dict[str, Any] | None:
    """The chain head with the Merkle root over it (docs/hash-spec.md §7): what a signed tree head records.

    None when the ledger is empty. ``seq``/``hash``/``recorded_at`` are the head record's, ``tree_size``
    (= ``seq``) and ``root_hash`` the tree's.
    """
    try:
        row = conn.execute(query("tree_head"), {"tree_size": tree_size}).fetchone()
    except psycopg.Error as exc:
        if exc.sqlstate == "XX001":  # a node the tree cannot have: the ledger has a gap
            raise TreeBroken(exc.diag.message_primary or str(exc)) from None
        raise
    if row is None or not row[0]:
        return None
    size, root_hash, seq, hash_, recorded_at = row
    return {"seq": seq, "hash": hash_, "recorded_at": timestamp(recorded_at), "tree_size": size,
            "root_hash": root_hash}


def _signing_key(private_key_pem: bytes) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        key = serialization.load_pem_private_key(private_key_pem, password=None)
    except (ValueError, TypeError):
        raise BundleError("the signing key is not a readable, unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise BundleError("the signing key is not an Ed25519 private key")
    return key


def load_public_key(public_key_pem: bytes) -> Any:
    """An Ed25519 public key from PEM (BundleError when it is not one)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(public_key_pem)
    except (ValueError, TypeError):
        raise BundleError("the public key is not a readable PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise BundleError("the public key is not an Ed25519 key")
    return key


def make_digest(head: dict[str, Any], private_key_pem: bytes | None = None, *,
                consistency: dict[str, Any] | None = None) -> dict[str, Any]:
    """A digest of ``head`` (``chain_head`` or ``tree_head``), with a consistency proof from an earlier one; signed."""
    digest: dict[str, Any] = {"format": DIGEST_FORMAT, **head, "taken_at": timestamp(dt.datetime.now(dt.UTC))}
    if consistency is not None:
        digest["consistency"] = consistency
    if private_key_pem is not None:
        from cryptography.hazmat.primitives import serialization

        key = _signing_key(private_key_pem)
        message = canonical.canonical_json(digest).encode("utf-8")
        public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        digest["signature"] = {"algorithm": "ed25519", "public_key": base64.b64encode(public).decode(),
                               "value": base64.b64encode(key.sign(message)).decode()}
    return digest


def _base64(value: object) -> bytes | None:
    """Strict base64: the canonical encoding of its bytes, or None (so no two texts carry one signature)."""
    if not isinstance(value, str):
        return None
    try:
        raw = base64.b64decode(value, validate=True)
    except ValueError:
        return None
    return raw if base64.b64encode(raw).decode() == value else None


def signature_problem(doc: dict[str, Any], public_key_pem: bytes | None = None) -> str | None:
    """What is wrong with a digest's signature, or None.

    ``unsigned`` (only when a public key was given), ``malformed``, ``other_key`` (signed, but not by the
    given key) or ``mismatch`` (the signature does not match the digest's content).
    """
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    signature = doc.get("signature")
    if signature is None:
        return "unsigned" if public_key_pem is not None else None
    if not isinstance(signature, dict) or signature.get("algorithm") != "ed25519" or set(signature) != {
            "algorithm", "public_key", "value"}:
        return "malformed"
    embedded, value = _base64(signature["public_key"]), _base64(signature["value"])
    if embedded is None or len(embedded) != 32 or value is None or len(value) != 64:
        return "malformed"
    key = Ed25519PublicKey.from_public_bytes(embedded)
    if public_key_pem is not None:
        pinned = load_public_key(public_key_pem)
        if pinned.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw) != embedded:
            return "other_key"
    unsigned = {k: v for k, v in doc.items() if k != "signature"}
    try:
        key.verify(value, canonical.canonical_json(unsigned).encode("utf-8"))
    except InvalidSignature:
        return "mismatch"
    return None


def digest_problem(digest: object) -> str | None:
    """Why a parsed document is not a digest (its members and their types), or None."""
    if not isinstance(digest, dict) or digest.get("format") != DIGEST_FORMAT:
        return f"not a {DIGEST_FORMAT} file"
    unknown = sorted(set(digest) - _DIGEST_MEMBERS)
    if unknown:  # a renamed member must not pass for a missing one (a signature among them)
        return f"it has members a digest does not have: {', '.join(unknown)}"
    seq = digest.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return "its seq is not a positive integer"
    if not isinstance(digest.get("hash"), str) or not _HEX64.fullmatch(digest["hash"]):
        return "its hash is not 64 lower-case hex digits"
    if "tree_size" in digest or "root_hash" in digest:  # a signed tree head (older digests have neither)
        if digest.get("tree_size") != seq or isinstance(digest.get("tree_size"), bool):
            return "its tree_size is not its seq (the tree of a head covers records 1 to seq)"
        if not isinstance(digest.get("root_hash"), str) or not _HEX64.fullmatch(digest["root_hash"]):
            return "its root_hash is not 64 lower-case hex digits"
    if "consistency" in digest and not isinstance(digest["consistency"], dict):
        return "its consistency member is not an object"
    return None


def load_digest(path: Path) -> dict[str, Any]:
    """Read a digest file and check its form, not its signature (BundleError when it is not a digest)."""
    try:
        digest = canonical.loads(Path(path).read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise BundleError(f"{path}: not a readable digest ({exc})") from None
    problem = digest_problem(digest)
    if problem is not None:
        raise BundleError(f"{path}: {problem}")
    assert isinstance(digest, dict)
    return digest


def read_digest(path: Path, public_key_pem: bytes | None = None) -> dict[str, Any]:
    """Read a digest file; check its signature (against the pinned public key when given)."""
    digest = load_digest(path)
    problem = signature_problem(digest, public_key_pem)
    if problem == "unsigned":
        raise BundleError(f"{path}: the digest is not signed, but a public key was given")
    if problem == "malformed":
        raise BundleError(f"{path}: the digest's signature is malformed (algorithm ed25519, public_key and value "
                          "in base64)")
    if problem == "other_key":
        raise BundleError(f"{path}: the digest's signature does not verify with the given public key "
                          "(it names another key)")
    if problem is not None:
        raise BundleError(f"{path}: the digest's signature does not verify")
    return digest


def check_digest(digest: dict[str, Any], found_hash: str | None, head_seq: int | None) -> Verdict | None:
    """None when the chain extends the digest (record ``seq`` has that hash), else what is wrong."""
    seq, expected = digest["seq"], digest["hash"]
    if found_hash is None:
        return Verdict(False, head_seq or 0, head_seq, None, seq, "truncated",
                       f"the digest names record {seq}, but the chain ends at {head_seq or 0}")
    if found_hash != expected:
        return Verdict(False, head_seq or 0, head_seq, None, seq, "rewritten",
                       f"record {seq} has hash {found_hash[:12]}…, the digest says {expected[:12]}…")
    return None


def bundle_hash_at(path: Path, seq: int) -> str | None:
    """The stored hash of record ``seq`` in a bundle, if it has it."""
    _manifest, lines = read_bundle(path)
    for line in lines:
        try:
            obj = canonical.loads(line.decode("utf-8"))
        except ValueError:
            continue
        if obj.get("seq") == seq:
            return str(obj.get("hash"))
    return None

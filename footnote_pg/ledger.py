"""The independent ledger verifier, exports and digests (docs/hash-spec.md).

Nothing here calls the database's hash code: the chain walk (:mod:`footnote_pg.chainwalk`) hashes the stored
canonical bytes with hashlib and compares them with the record's fields serialised again by
:mod:`footnote_pg.canonical`. Records are read by binary COPY, a batch at a time, and bundles a block of lines
at a time: memory stays the same whatever the length of the chain. For a long chain the costly half of every
record's check runs in worker processes (:mod:`footnote_pg.parallel`), the walk in order here.
"""

from __future__ import annotations

import base64
import concurrent.futures as cf
import contextlib
import datetime as dt
import hashlib
import itertools
import re
import shutil
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import psycopg

from footnote_pg import canonical, chainwalk, errors, parallel
from footnote_pg.chainwalk import GENESIS as GENESIS
from footnote_pg.chainwalk import Verdict as Verdict
from footnote_pg.chainwalk import record_hash as record_hash
from footnote_pg.chainwalk import record_object as record_object
from footnote_pg.chainwalk import timestamp as timestamp
from footnote_pg.queries import query

BUNDLE_FORMAT = "footnote-pg-bundle/1"
DIGEST_FORMAT = "footnote-pg-digest/1"
_FAR_PAST = dt.datetime(1, 1, 1, tzinfo=dt.UTC)
_FAR_FUTURE = dt.datetime(9999, 12, 31, tzinfo=dt.UTC)


class BundleError(ValueError):
    """A bundle or digest file that cannot be read at all."""


# -- the database -----------------------------------------------------------

ROW_COLUMNS = ("id", "seq", "recorded_at", "db_role", "actor_id", "actor_role", "kind", "question", "answer",
               "status", "claims", "operations", "evidence", "findings", "decision", "details", "prev_hash", "hash",
               "canonical", "salts")
_ROW_TYPES = ["text", "int8", "timestamptz", "text", "text", "text", "text", "text", "text", "text", "utf8", "utf8",
              "utf8", "utf8", "utf8", "utf8", "text", "text", "utf8", "utf8"]  # utf8: a text column wanted as its bytes
_TEXT_TYPES = ["int8", "text", "utf8"]
_BATCH = 10_000  # records per COPY: stopping early reads at most the rest of one batch
_TICK = 1024  # records per advance() call


def _loaded_as(conn: psycopg.Connection[Any], types: list[str]) -> tuple[list[str], list[int]]:
    """COPY types for ``types``, where ``utf8`` marks a text column wanted as its UTF-8 bytes: loaded as
    bytea (the binary form of text is its bytes in the client encoding) when that encoding is UTF-8, else as
    text, to be encoded here (the positions returned)."""
    if conn.info.encoding == "utf-8":
        return ["bytea" if t == "utf8" else t for t in types], []
    return ["text" if t == "utf8" else t for t in types], [i for i, t in enumerate(types) if t == "utf8"]


@contextlib.contextmanager
def _copy_batch(conn: psycopg.Connection[Any], name: str, types: list[str],
                params: dict[str, Any]) -> Iterator[Iterator[tuple[Any, ...]]]:
    with conn.cursor() as cur, cur.copy(query(name), params) as copy:
        copy.set_types(types)
        try:
            yield copy.rows()
        finally:
            for _rest in copy:  # a walk that stopped early: end this COPY cleanly, the transaction stays usable
                pass


def _rows(conn: psycopg.Connection[Any], name: str, types: list[str], seq_at: int, from_seq: int = 1,
          to_seq: int = 2**62, since: dt.datetime | None = None,
          until: dt.datetime | None = None) -> Iterator[tuple[Any, ...]]:
    """The rows of a COPY query of queries.sql in sequence order, ``_BATCH`` at a time."""
    params = {"from_seq": from_seq, "to_seq": to_seq, "since": since or _FAR_PAST, "until": until or _FAR_FUTURE,
              "limit": _BATCH}
    loaded, encode = _loaded_as(conn, types)
    while True:
        count = 0
        with _copy_batch(conn, name, loaded, params) as rows:
            for row in rows:
                count += 1
                if encode:
                    row = tuple(v.encode("utf-8") if i in encode and isinstance(v, str) else v
                                for i, v in enumerate(row))
                yield row
        if count < _BATCH:
            return
        params["from_seq"] = row[seq_at] + 1


def iter_rows(conn: psycopg.Connection[Any], from_seq: int = 1, to_seq: int = 2**62,
              since: dt.datetime | None = None, until: dt.datetime | None = None) -> Iterator[dict[str, Any]]:
    """Ledger rows in sequence order by column name (JSON and the sealed text as UTF-8 bytes)."""
    for row in _rows(conn, "ledger_rows", _ROW_TYPES, 1, from_seq, to_seq, since, until):
        yield dict(zip(ROW_COLUMNS, row, strict=True))


def sealed_texts(conn: psycopg.Connection[Any]) -> Iterator[tuple[int, str, bytes]]:
    """``seq``, ``hash`` and the sealed canonical text (its UTF-8 bytes) of every record, in sequence order."""
    return _rows(conn, "ledger_texts", _TEXT_TYPES, 0)


def _sealed_size(row: tuple[Any, ...]) -> int:
    """A ``ledger_rows`` tuple's weight in a worker's batch: its sealed text's bytes (and its salts')."""
    return len(row[18]) + len(row[19] or b"")


def _server_here(conn: psycopg.Connection[Any]) -> bool:
    """Whether the server runs on this machine (a Unix socket, a loopback address): its backend works on the
    COPY as hard as a worker on its records (on two cores, workers beside it cost more than they save)."""
    host = conn.info.host
    return host.startswith("/") or host in ("localhost", "127.0.0.1", "::1")


def _length(conn: psycopg.Connection[Any]) -> int:
    """How many records the chain has, by its last seq (the workers' guess: only the speed depends on it)."""
    row = conn.execute("SELECT max(seq) FROM footnote.ledger").fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


def _ticks(advance: Callable[[int], None] | None, count: int, *, last: bool = False) -> None:
    """``advance`` every ``_TICK`` records, and with the rest at the ``last``."""
    done = count % _TICK if last else (0 if count % _TICK else _TICK)
    if advance is not None and done:
        advance(done)


def verify_database(conn: psycopg.Connection[Any], *, recompute_calls: bool = False,
                    advance: Callable[[int], None] | None = None, content: bool = True,
                    reference: bool = False) -> Verdict:
    """Verify the whole chain in the database, independently of its own verify_chain(), then the calls behind
    every record (:mod:`footnote_pg.provenance`; ``recompute_calls`` also hashes every cited result again).

    ``content=False`` runs the chain pass alone (the stored texts, their hashes and links; no fields, no
    calls). ``reference=True`` checks every record the slow way (the same verdict). ``advance(n)`` is called
    as records are done (a progress bar)."""
    from footnote_pg import provenance

    walk = chainwalk.Walk()
    if not content:
        for seq, stored, sealed in sealed_texts(conn):
            walk.count += 1
            problem = chainwalk.chain_text(sealed, stored, walk, seq)
            if problem is not None:
                return walk.verdict(problem)
            _ticks(advance, walk.count)
        _ticks(advance, walk.count, last=True)
        return walk.verdict()
    child = provenance.child_tables(conn)
    if child is not None:
        return Verdict(False, 0, None, None, child.seq, child.problem, child.detail)
    cited = provenance.Cited()
    check, expected = (None, 0) if reference else (parallel.row_facts, _length(conn))
    checking = parallel.checked(_rows(conn, "ledger_rows", _ROW_TYPES, 1), check, expected, _sealed_size,
                                spare=1 if _server_here(conn) else 0)
    with contextlib.closing(checking) as rows:
        for row, facts in rows:
            walk.count += 1
            if facts is not None and walk.follows(row[1], row[16], facts[0]):  # its worker passed the rest
                walk.passed(row[1], row[17], facts[0])
                cited.sealed.add(facts[1])
                if facts[2] is not None:
                    cited.records.append(facts[2])
            else:
                obj = None if reference else chainwalk.fast_row(row, walk)
                if obj is None:
                    problem, obj = chainwalk.reference_row(dict(zip(ROW_COLUMNS, row, strict=True)), walk)
                    if problem is not None or obj is None:
                        return walk.verdict(problem)
                cited.add(obj)
            if row[19] is not None and b"null" in row[19]:  # version 2 with redacted parts
                walk.redacted += len(chainwalk.redacted_parts(canonical.decode(row[19])))
            _ticks(advance, walk.count)
    _ticks(advance, walk.count, last=True)
    verdict = walk.verdict()
    found = provenance.first_problem(conn, cited, recompute=recompute_calls)
    if found is not None:
        return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, found.seq, found.problem,
                       found.detail)
    return checkpoint_verdict(conn, verdict)


def checkpoint_verdict(conn: psycopg.Connection[Any], verdict: Verdict) -> Verdict:
    """After a walk that passed: when records were pruned (footnote.prunes), the last prune's checkpoint must be the
    tree head of the chain at its cut (the cut record's hash, the Merkle root over records 1 to the cut, computed
    here from the records' hashes); the verdict then says that the pruned records are vouched for by it."""
    from footnote_pg import merkle

    row = conn.execute(query("last_checkpoint")).fetchone()
    if row is None or row[1] is None:
        return verdict
    seq, cut, point = row
    hashes = [h for (h,) in conn.execute(query("record_hashes"), {"to_seq": cut})]
    root = merkle.root([merkle.leaf_hash(h) for h in hashes]).hex() if hashes else None
    point = point if isinstance(point, dict) else {}
    if len(hashes) != cut or hashes[-1] != point.get("hash") or root != point.get("root_hash") \
            or point.get("tree_size") != cut:
        return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, seq, "checkpoint_mismatch",
                       f"record {seq} prunes up to record {cut} behind a checkpoint that is not the chain's tree "
                       "head there")
    verdict.pruned = (f"pruned up to record {cut}: verified from the checkpoint at record {cut} "
                      f"(root {root[:16]}…, footnote.prunes)")
    return verdict


REGRADE_PART = 500  # records one footnote.regrade() call grades (progress shows, and a difference stops the rest)


def regrade(connect: Callable[[], psycopg.Connection[Any]], verdict: Verdict, jobs: int = 1,
            advance: Callable[[int], None] | None = None) -> Verdict:
    """Every sealed answer graded again by the database's gate against the calls it cites (the gate is
    deterministic: the verdict it sealed, or ``regraded_differently`` naming the first record, in sequence order,
    that is not). The chain is cut into parts of :data:`REGRADE_PART` records graded by ``footnote.regrade`` on
    ``jobs`` connections from ``connect``; once a part finds a difference, parts after it are not graded."""
    head = verdict.head_seq or 0
    parts = deque((first, min(first + REGRADE_PART - 1, head)) for first in range(1, head + 1, REGRADE_PART))
    lock = threading.Lock()
    found: list[tuple[int, str]] = []

    def work() -> None:
        with connect() as conn:
            conn.autocommit = True
            while True:
                with lock:
                    if not parts or (found and parts[0][0] > min(found)[0]):
                        return
                    first, last = parts.popleft()
                row = conn.execute("SELECT graded, skipped, first_bad_seq, detail FROM footnote.regrade(%s, %s)",
                                   (first, last)).fetchone()
                assert row is not None
                with lock:
                    if row[2] is not None:
                        found.append((row[2], row[3]))
                if advance is not None:
                    advance(last - first + 1)

    with cf.ThreadPoolExecutor(max_workers=max(1, min(jobs, len(parts)))) as pool:
        for done in [pool.submit(work) for _ in range(max(1, min(jobs, len(parts))))]:
            done.result()
    if not found:
        return verdict
    seq, detail = min(found)
    return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, seq, "regraded_differently", detail)


def chain_head(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    row = conn.execute(query("chain_head")).fetchone()
    if row is None or row[0] is None:
        return None
    return {"seq": row[0], "hash": row[1], "recorded_at": timestamp(row[2])}


# -- bundles ----------------------------------------------------------------

def _bundle_line(row: tuple[Any, ...]) -> bytes:
    """A record's bundle line: its object from its fields, with its stored hash, canonical, and a line feed."""
    if row[19] is not None:  # version 2: the hashed object (commitments) with the parts that open them
        try:
            content = chainwalk.fast_object(row)
            salts = canonical.decode(row[19])
            obj = chainwalk.committed(content, salts, canonical.decode(row[18]) if b"null" in row[19] else None)
            return canonical.encode({**obj, "hash": row[17], "parts": chainwalk.openings(content, salts)}) + b"\n"
        except (ValueError, TypeError):  # JSON the fast parser does not take: the reference's way
            pass
        named = dict(zip(ROW_COLUMNS, row, strict=True))
        obj = record_object(named)
        opened = chainwalk.openings(chainwalk.content_object(named), canonical.loads(row[19]))
        return canonical.canonical_json({**obj, "hash": row[17], "parts": opened}).encode("utf-8") + b"\n"
    try:
        obj = chainwalk.fast_object(row)
        return canonical.encode({**obj, "hash": row[17]}) + b"\n"
    except ValueError:  # JSON the fast parser does not take (an integer of thousands of digits)
        obj = record_object(dict(zip(ROW_COLUMNS, row, strict=True)))
        return canonical.canonical_json({**obj, "hash": row[17]}).encode("utf-8") + b"\n"


def export_bundle(conn: psycopg.Connection[Any], path: Path, *, from_seq: int = 1, to_seq: int = 2**62,
                  since: dt.datetime | None = None, until: dt.datetime | None = None,
                  advance: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Write the records of a range as a bundle; returns its manifest (``advance(n)`` as records are done).
    The records go to a temporary file beside ``path`` first: the manifest on line 1 needs their hash."""
    count = 0
    first_seq = last_seq = first_prev = head = None
    records = hashlib.sha256()
    path = Path(path)
    with tempfile.TemporaryFile(dir=path.parent, prefix=".footnote-export-") as body:
        for row in _rows(conn, "ledger_rows", _ROW_TYPES, 1, from_seq, to_seq, since, until):
            line = _bundle_line(row)
            body.write(line)
            records.update(line)
            count += 1
            if first_seq is None:
                first_seq, first_prev = row[1], row[16]
            last_seq, head = row[1], row[17]
            _ticks(advance, count)
        _ticks(advance, count, last=True)
        manifest = {
            "format": BUNDLE_FORMAT,
            "exported_at": timestamp(dt.datetime.now(dt.UTC)),
            "count": count,
            "first_seq": first_seq,
            "last_seq": last_seq,
            "first_prev_hash": first_prev,
            "head_hash": head,
            "records_sha256": records.hexdigest(),
            "range": {"from_seq": from_seq if from_seq > 1 else None, "to_seq": to_seq if to_seq < 2**62 else None,
                      "since": timestamp(since) if since else None, "until": timestamp(until) if until else None},
        }
        body.seek(0)
        with open(path, "wb") as out:
            out.write(canonical.canonical_json({"manifest": manifest}).encode("utf-8") + b"\n")
            shutil.copyfileobj(body, out, 1 << 20)
    return manifest


def _manifest(line: bytes, name: object) -> dict[str, Any]:
    """The manifest of a bundle from its first line (BundleError when it is not one)."""
    try:
        manifest = canonical.loads(line.decode("utf-8"))["manifest"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise BundleError(f"{name}: line 1 is not a footnote-pg bundle manifest ({reason})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{name}: not a {BUNDLE_FORMAT} file")
    for key, kinds in (("count", (int,)), ("first_seq", (int, type(None))), ("last_seq", (int, type(None))),
                       ("first_prev_hash", (str, type(None))), ("head_hash", (str, type(None))),
                       ("records_sha256", (str,)), ("range", (dict, type(None)))):
        if not isinstance(manifest.get(key), kinds) or isinstance(manifest.get(key), bool):
            raise BundleError(f"{name}: the manifest's {key} must be "
                              f"{' or '.join('null' if k is type(None) else k.__name__ for k in kinds)}")
    return manifest


@contextlib.contextmanager
def _bundle_stream(source: Path | IO[bytes]) -> Iterator[tuple[dict[str, Any], IO[bytes]]]:
    """A bundle's manifest, and the stream after it."""
    if isinstance(source, (str, Path)):
        with open(source, "rb", buffering=1 << 20) as stream:
            yield _manifest(stream.readline(), source), stream
        return
    yield _manifest(source.readline(), getattr(source, "name", "the bundle")), source


@contextlib.contextmanager
def open_bundle(source: Path | IO[bytes]) -> Iterator[tuple[dict[str, Any], Iterator[bytes]]]:
    """A bundle's manifest and its record lines, read as they are consumed (a path, or a binary stream read
    from where it stands and not closed here)."""
    with _bundle_stream(source) as (manifest, stream):
        yield manifest, iter(stream)


def read_bundle(path: Path) -> tuple[dict[str, Any], list[bytes]]:
    """A bundle's manifest and all its record lines, in memory (:func:`open_bundle` streams them)."""
    with open_bundle(path) as (manifest, lines):
        return manifest, list(lines)


_BLOCK = 1 << 20  # bytes a bundle is read by


def _line_batches(stream: IO[bytes], records: Any) -> Iterator[list[bytes]]:
    """A bundle's record lines without their line feeds, those of up to ``_BLOCK`` bytes at a time, read as they
    come (from a pipe: what is there); every byte read also goes to ``records`` (records_sha256), a block at a
    time. (Hashing in a thread beside the walk costs more than it saves: the GIL goes back and forth at every
    line's own hash.)"""
    read = getattr(stream, "read1", stream.read)
    carry: list[bytes] = []  # the start of a line that goes on in the next block
    while block := read(_BLOCK):
        records.update(block)
        lines: list[bytes] = []
        start, find = 0, block.find
        while (end := find(b"\n", start)) >= 0:  # memchr: faster than bytes.split for long lines
            lines.append(block[start:end])
            start = end + 1
        if not lines:
            carry.append(block)
            continue
        if carry:
            lines[0] = b"".join([*carry, lines[0]])
        carry = [block[start:]] if start < len(block) else []
        yield lines
    if carry:  # the last line, without a line feed
        yield [b"".join(carry)]


def verify_bundle(source: Path | IO[bytes], advance: Callable[[int], None] | None = None, *, content: bool = True,
                  reference: bool = False) -> Verdict:
    """Verify an exported bundle offline, reading it a block at a time: manifest, every record's hash, every
    link, every line the canonical form of its record (``content=False``: the chain pass alone;
    ``reference=True``: every line the slow way, the same verdict). ``advance(n)`` as records are done."""
    with _bundle_stream(source) as (manifest, stream):
        first_seq = manifest.get("first_seq") or 1
        first_prev = manifest.get("first_prev_hash") or GENESIS
        ranged: dict[str, Any] = manifest["range"] if isinstance(manifest.get("range"), dict) else {}
        whole = not any(ranged.get(k) for k in ("from_seq", "to_seq", "since", "until"))
        walk = chainwalk.Walk(first_seq, first_prev)
        records = hashlib.sha256()
        check = chainwalk.line_facts if content and not reference else None
        lines = itertools.chain.from_iterable(_line_batches(stream, records))
        with contextlib.closing(parallel.checked(lines, check, manifest["count"], len)) as checking:
            for number, (line, facts) in enumerate(checking, start=2):
                if number == 2 and whole and (first_seq != 1 or first_prev != GENESIS):
                    return Verdict(False, 0, None, None, 1, "sequence_gap",
                                   f"the bundle is a whole export but starts at record {first_seq}, linked to "
                                   f"{str(manifest.get('first_prev_hash'))[:12]}…: records before it are missing")
                walk.count += 1
                if not content:
                    problem = chainwalk.chain_line(line, number, walk)
                elif facts is not None and walk.follows(*facts[:3]):  # its worker passed the rest
                    walk.passed(facts[0], facts[3], facts[2])
                    walk.redacted += facts[4]
                    problem = None
                elif reference or not chainwalk.fast_line(line, walk):
                    problem = chainwalk.reference_line(line, number, walk)
                else:
                    problem = None
                if problem is not None:
                    return walk.verdict(problem)
                _ticks(advance, walk.count)
        _ticks(advance, walk.count, last=True)
    verdict = walk.verdict()
    if verdict.records != manifest.get("count") or verdict.head_hash != manifest.get("head_hash"):
        return Verdict(False, verdict.records, verdict.head_seq, verdict.head_hash, verdict.head_seq,
                       "manifest_mismatch", f"the manifest says {manifest.get('count')} records ending in "
                       f"{str(manifest.get('head_hash'))[:12]}…, the bundle has {verdict.records} ending in "
                       f"{str(verdict.head_hash)[:12]}…")
    if records.hexdigest() != manifest.get("records_sha256"):
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
    """The stored hash of record ``seq`` in a bundle, if it has it (read line by line)."""
    with open_bundle(path) as (_manifest, lines):
        for line in lines:
            body = line.rstrip(b"\n")
            fields = chainwalk.tail(body)
            if fields is not None and fields[0] != seq:
                continue
            found = chainwalk.split_hash(body) if fields is not None else None
            if found is not None:
                return found
            try:
                obj = canonical.loads(body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(obj, dict) and obj.get("seq") == seq:
                return str(obj.get("hash"))
    return None

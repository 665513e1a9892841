"""Walking the chain (docs/hash-spec.md §4): one record after another, each named when it fails.

A record is checked in this order: its place (``seq``), its sealed text against its fields (the content
check), the sealed text against its hash, its link (``prev_hash``) and its time. Two implementations:

* the reference re-derives the record object from its fields, writes it with
  :func:`canonical.canonical_json` and compares it with the sealed text; it names every problem;
* the fast check works on the stored canonical bytes: SHA-256 over them, and for the content check the
  fields serialised again by :func:`canonical.encode` (a C serialiser proved byte-equal to the reference).

A record the fast check does not pass whole goes to the reference, which names the problem (or, should the
fast check have been too strict, passes it): the verdict is the reference's, at the speed of the fast check.

The chain pass alone (``content=False``) checks only the chain of stored texts: each text's SHA-256 against
its hash, and ``seq``, ``prev_hash`` and ``recorded_at`` as its canonical tail writes them. It proves the
texts form an unbroken chain; only the content check proves each text is its record.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import asdict, dataclass
from typing import Any

from footnote_pg import canonical
from footnote_pg.provenance import Problem

GENESIS = "0" * 64


def timestamp(value: dt.datetime) -> str:
    """``recorded_at`` as the spec writes it: UTC, four year digits, six fraction digits, Z."""
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def content_object(row: dict[str, Any]) -> dict[str, Any]:
    """The record object of a ledger row with its parts as they are (version 1: the hashed object itself)."""

    def parsed(value: str | bytes | None) -> Any:
        return None if value is None else canonical.loads(value)

    return {
        "version": 1 if row.get("salts") is None else 2,
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


def record_object(row: dict[str, Any]) -> dict[str, Any]:
    """The hashed object of a ledger row (columns as ``ledger_rows`` gives them), for the reference: version 1
    holds the parts, version 2 their commitments (docs/hash-spec.md §9)."""
    obj = content_object(row)
    if row.get("salts") is None:
        return obj
    salts = canonical.loads(row["salts"])
    sealed = canonical.loads(row["canonical"]) if b"null" in _bytes(row["salts"]) else None
    return committed(obj, salts, sealed)


def _bytes(value: str | bytes) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value


# -- version 2: per-part commitments (docs/hash-spec.md §9) ----------------------------------------------------

SINGLE_PARTS = ("question", "answer", "decision", "details")
LIST_PARTS = ("claims", "operations", "evidence", "findings")
REDACTED = {"redacted": True}
_ABSENT = object()


def commitment(salt: str, part: Any) -> str:
    """HASH(salt || jsonb text of the part), lower-case hex (ValueError for a salt that is not hex)."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical.jsonb_text(part).encode("utf-8")).hexdigest()


def _commit(salt: Any, part: Any, sealed: Any) -> Any:
    """What the hashed object holds for a part: its commitment; null for an absent part; for a redacted part (its
    salt null, its column null or {"redacted": true}) the sealed commitment; else the part itself (which cannot
    equal a commitment: content_changed)."""
    if isinstance(salt, str) and part is not None:
        return commitment(salt, part)
    if salt is _ABSENT and part is None:
        return None
    if salt is None and (part is None or part == REDACTED):
        return sealed
    return part


def committed(obj: dict[str, Any], salts: Any, sealed: dict[str, Any] | None) -> dict[str, Any]:
    """The version 2 hashed object of a record object whose parts are as they are (salts: the record's salts;
    sealed: its sealed object, needed only when a part is redacted)."""
    if not isinstance(salts, dict):
        raise ValueError("the salts are not an object")
    out = dict(obj)
    out["version"] = 2
    sealed = sealed if isinstance(sealed, dict) else {}
    for key in SINGLE_PARTS:
        out[key] = _commit(salts.get(key, _ABSENT), obj[key], sealed.get(key))
    for key in LIST_PARTS:
        parts, keys, was = obj[key], salts.get(key), sealed.get(key)
        if not isinstance(parts, list) or not isinstance(keys, list) or len(keys) != len(parts):
            out[key] = parts
            continue
        was = was if isinstance(was, list) else []
        out[key] = [_commit(keys[i], p, was[i] if i < len(was) else None) for i, p in enumerate(parts)]
    return out


def openings(obj: dict[str, Any], salts: Any) -> dict[str, Any]:
    """The parts of a version 2 record with their salts, as an export carries them: {"salt", "value"} for each
    part that is there, null for a redacted or absent one."""

    def one(salt: Any, part: Any) -> Any:
        return {"salt": salt, "value": part} if isinstance(salt, str) and part is not None else None

    out: dict[str, Any] = {key: one(salts.get(key), obj[key]) for key in SINGLE_PARTS}
    for key in LIST_PARTS:
        keys = salts.get(key) or []
        out[key] = [one(keys[i] if i < len(keys) else None, p) for i, p in enumerate(obj[key] or [])]
    return out


def redacted_parts(salts: Any) -> list[str]:
    """The parts a version 2 record's salts mark as redacted (a null salt), as ``claims[2]``, ``answer``, …"""
    if not isinstance(salts, dict):
        return []
    found = [key for key in SINGLE_PARTS if key in salts and salts[key] is None]
    for key in LIST_PARTS:
        found += [f"{key}[{i}]" for i, s in enumerate(salts.get(key) or []) if s is None]
    return found


def open_problem(obj: dict[str, Any], opened: Any) -> str | None:
    """Why a bundle line's parts do not open the commitments of its hashed object (None when each does)."""
    if not isinstance(opened, dict) or set(opened) != {*SINGLE_PARTS, *LIST_PARTS}:
        return "parts are not the record's parts"

    def check(name: str, opening: Any, sealed: Any) -> str | None:
        if opening is None:
            return None  # redacted (or absent): nothing to open
        if not isinstance(opening, dict) or set(opening) != {"salt", "value"} or not isinstance(opening["salt"], str):
            return f"part {name} is not a salt and a value"
        try:
            if commitment(opening["salt"], opening["value"]) != sealed:
                return f"part {name} does not open its commitment"
        except (ValueError, TypeError):
            return f"part {name} does not open its commitment"
        return None

    for key in SINGLE_PARTS:
        if (problem := check(key, opened.get(key), obj.get(key))) is not None:
            return problem
    for key in LIST_PARTS:
        parts, sealed = opened.get(key), obj.get(key)
        if not isinstance(parts, list) or not isinstance(sealed, list) or len(parts) != len(sealed):
            return f"part {key} does not have one opening per commitment"
        for i, part in enumerate(parts):
            if (problem := check(f"{key}[{i}]", part, sealed[i])) is not None:
                return problem
    return None


def _redacted_openings(obj: dict[str, Any], opened: dict[str, Any]) -> int:
    """How many parts of a bundle line are redacted: a commitment with no opening."""
    count = sum(1 for key in SINGLE_PARTS if isinstance(obj.get(key), str) and opened.get(key) is None)
    for key in LIST_PARTS:
        count += sum(1 for c, o in zip(obj.get(key) or [], opened.get(key) or [], strict=False)
                     if isinstance(c, str) and o is None)
    return count


def fast_object(row: tuple[Any, ...]) -> dict[str, Any]:
    """:func:`content_object` of a ``ledger_rows`` tuple, its JSON parsed for :func:`canonical.encode`
    (ValueError when a column is not JSON)."""
    (id_, seq, recorded_at, db_role, actor_id, actor_role, kind, question, answer, status, claims, operations,
     evidence, findings, decision, details, prev_hash) = row[:17]
    decode = canonical.decode
    return {"version": 1 if row[19] is None else 2, "id": id_, "seq": seq, "recorded_at": timestamp(recorded_at),
            "db_role": db_role, "actor": {"id": actor_id, "role": actor_role}, "kind": kind, "question": question,
            "answer": answer, "status": status, "claims": decode(claims), "operations": decode(operations),
            "evidence": decode(evidence), "findings": decode(findings),
            "decision": None if decision is None else decode(decision),
            "details": None if details is None else decode(details), "prev_hash": prev_hash}


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
    redacted: int = 0  # parts redacted (version 2), which stand for their sealed commitments: not tampering
    pruned: str | None = None  # records pruned behind a checkpoint (footnote.prunes), said so

    def line(self) -> str:
        if self.ok:
            gone = f"; {self.redacted} parts redacted (footnote.redactions)" if self.redacted else ""
            if self.pruned:  # a prune replaces parts as a redaction does
                gone = gone.replace(" redacted (footnote.redactions)",
                                    " redacted or pruned (footnote.redactions, footnote.prunes)")
                gone += f"; {self.pruned}"
            return f"chain intact: {self.records} records, head {self.head_seq} {(self.head_hash or '')[:16]}…{gone}"
        if self.first_bad_seq is None:
            return f"ledger broken: {self.problem}: {self.detail}"
        return f"chain broken at record {self.first_bad_seq}: {self.problem}: {self.detail}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Walk:
    """Where a walk stands: the next ``seq``, the previous record's hash and time, the records seen."""

    def __init__(self, first_seq: int = 1, first_prev_hash: str = GENESIS) -> None:
        self.expected, self.prev_hash, self.prev_time = first_seq, first_prev_hash, ""
        self.count = 0
        self.redacted = 0
        self.head_seq: int | None = None
        self.head_hash: str | None = None

    def order(self, seq: int) -> Problem | None:
        expected = self.expected
        if seq < expected:
            return Problem(seq, "reordered", f"record {seq} appears after record {expected - 1}")
        if seq > expected:
            missing = f"record {expected} is missing" if seq == expected + 1 else \
                f"records {expected} to {seq - 1} are missing"
            return Problem(expected, "sequence_gap", missing)
        return None

    def link(self, seq: int, prev_hash: object, recorded_at: str) -> Problem | None:
        if prev_hash != self.prev_hash:
            return Problem(seq, "link_broken", f"record {seq} points to {str(prev_hash)[:12]}…, "
                                               f"but record {seq - 1} has hash {self.prev_hash[:12]}…")
        if recorded_at < self.prev_time:
            return Problem(seq, "reordered", f"record {seq} was recorded before record {seq - 1}")
        return None

    def follows(self, seq: object, prev_hash: object, recorded_at: str) -> bool:
        """Whether a record passes here (its place, link and time), the rest of it checked already."""
        return seq == self.expected and prev_hash == self.prev_hash and recorded_at >= self.prev_time

    def passed(self, seq: int, stored: str, recorded_at: str) -> None:
        self.expected, self.prev_hash, self.prev_time = seq + 1, stored, recorded_at
        self.head_seq, self.head_hash = seq, stored

    def verdict(self, problem: Problem | None = None) -> Verdict:
        if problem is None:
            return Verdict(True, self.count, self.head_seq, self.head_hash, redacted=self.redacted)
        return Verdict(False, self.count, self.head_seq, self.head_hash, problem.seq, problem.problem,
                       problem.detail)


# -- the reference ------------------------------------------------------------------------------------------

def _not_hashing(seq: int) -> Problem:
    return Problem(seq, "content_changed", f"record {seq} does not hash to its stored hash")


def _sealed_problem(seq: int, sealed: bytes, obj: dict[str, Any]) -> Problem:
    """Why a sealed text is not the canonical JSON of the record's fields."""
    try:
        found = canonical.loads(sealed)
        if not isinstance(found, dict):
            raise ValueError("not an object")
    except (ValueError, UnicodeDecodeError):
        return Problem(seq, "content_changed", f"record {seq}: the sealed text is not the JSON of a record")
    sealed_seq = found.get("seq")
    if not isinstance(sealed_seq, int) or isinstance(sealed_seq, bool) or sealed_seq != seq:
        return Problem(seq, "reordered", f"record {seq} was sealed as record {sealed_seq}")

    def member(doc: dict[str, Any], key: str) -> str | None:
        try:
            return canonical.canonical_json(doc[key]) if key in doc else None
        except (TypeError, ValueError):
            return "?"

    changed = [k for k in sorted(set(obj) | set(found)) if member(obj, k) != member(found, k)]
    if changed:
        return Problem(seq, "content_changed", f"record {seq} differs from what was sealed in: {', '.join(changed)}")
    return Problem(seq, "content_changed", f"record {seq}: the sealed text is not the canonical JSON of its fields")


def reference_row(row: dict[str, Any], walk: Walk) -> tuple[Problem | None, dict[str, Any] | None]:
    """The reference check of one database row (``ledger_rows`` columns by name): its problem, or its record
    object (and the walk moves on)."""
    seq: int = row["seq"]
    problem = walk.order(seq)
    if problem is not None:
        return problem, None
    sealed: bytes = row["canonical"]
    try:
        obj = record_object(row)
        text = canonical.canonical_json(obj).encode("utf-8")
        content = obj if row.get("salts") is None else content_object(row)
    except (TypeError, ValueError, UnicodeEncodeError):
        return Problem(seq, "content_changed", f"record {seq}: its fields are not JSON"), None
    if text != sealed:
        return _sealed_problem(seq, sealed, obj), None
    if hashlib.sha256(sealed).hexdigest() != row["hash"]:
        return _not_hashing(seq), None
    problem = walk.link(seq, obj["prev_hash"], obj["recorded_at"])
    if problem is not None:
        return problem, None
    walk.passed(seq, row["hash"], obj["recorded_at"])
    return None, content


def reference_line(line: bytes, number: int, walk: Walk) -> Problem | None:
    """The reference check of bundle line ``number`` (a record object with its ``hash``, written canonically);
    moves the walk on."""
    body = line[:-1] if line.endswith(b"\n") else line
    unreadable = Problem(walk.expected, "content_changed", f"line {number} is not a record")
    try:
        obj = canonical.loads(body.decode("utf-8"))
        stored = obj.pop("hash")
        opened = obj.pop("parts", _ABSENT)
    except (ValueError, KeyError, AttributeError, TypeError, UnicodeDecodeError):
        return unreadable
    seq = obj.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return Problem(walk.expected, "content_changed", f"record {walk.expected} has no integer seq")
    problem = walk.order(seq)
    if problem is not None:
        return problem
    try:
        text = canonical.canonical_json(obj).encode("utf-8")
        extra = {} if opened is _ABSENT else {"parts": opened}
        whole = canonical.canonical_json({**obj, "hash": stored, **extra}).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        return unreadable
    if whole != body:
        return Problem(seq, "content_changed", f"line {number} (record {seq}) is not written canonically")
    if not isinstance(stored, str) or hashlib.sha256(text).hexdigest() != stored:
        return _not_hashing(seq)
    if (obj.get("version") == 2) != (opened is not _ABSENT):
        return Problem(seq, "content_changed", f"line {number} (record {seq}): a version 2 record carries its "
                                               "parts, a version 1 record none")
    if opened is not _ABSENT and (why := open_problem(obj, opened)) is not None:
        return Problem(seq, "content_changed", f"line {number} (record {seq}): {why}")
    if opened is not _ABSENT:
        walk.redacted += _redacted_openings(obj, opened)
    recorded_at = str(obj.get("recorded_at"))
    problem = walk.link(seq, obj.get("prev_hash"), recorded_at)
    if problem is None:
        walk.passed(seq, stored, recorded_at)
    return problem


# -- the fast check -----------------------------------------------------------------------------------------

_END = re.compile(rb',"recorded_at":"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z)",'
                  rb'"seq":(0|[1-9][0-9]*),"status":"[^"]*","version":[12]}')
_LINK = re.compile(rb',"prev_hash":"([0-9a-f]{64})","question":')


def _tail(text: bytes) -> tuple[int, str, str, int] | None:
    """``seq``, ``prev_hash``, ``recorded_at`` of a record's canonical text and where its prev_hash member
    starts, read from the end: its last members are prev_hash, question, recorded_at, seq, status and version,
    and no text after prev_hash can hold a member name (a string's quotes are escaped; the status has none)."""
    when_at = text.rfind(b',"recorded_at":"')
    end = _END.fullmatch(text, when_at) if when_at >= 0 else None
    if end is None:
        return None
    link = text.rfind(b',"prev_hash":"', 0, when_at)
    found = _LINK.match(text, link) if link >= 0 else None
    if found is None:
        return None
    return int(end[2]), found[1].decode("ascii"), end[1].decode("ascii"), link


def tail(text: bytes) -> tuple[int, str, str] | None:
    """``seq``, ``prev_hash`` and ``recorded_at`` as a record's canonical text ends with them (None when its end
    is not a record's)."""
    found = _tail(text)
    return None if found is None else found[:3]


def split_hash(line: bytes, before: int | None = None) -> str | None:
    """The ``hash`` member of a bundle line when the line without it hashes to it, else None.

    The member is ``,"hash":"<64 hex>"`` before ``prev_hash`` (looked for backwards from ``before``, where the
    record's prev_hash member starts); one that a nested object holds cannot hash to the line without itself,
    so the one that does is the record's."""
    view = memoryview(line)
    end = len(line) if before is None else before
    while (at := line.rfind(b',"hash":"', 0, end)) >= 0:
        close = at + 73
        if line[close:close + 1] == b'"':
            digest = hashlib.sha256(view[:at])
            digest.update(view[close + 1:])
            stored = line[at + 9:close].decode("ascii", "replace")
            if digest.hexdigest() == stored:
                return stored
        end = at + 8  # the next candidate ends before this one's name
    return None


def chain_text(sealed: bytes, stored: str, walk: Walk, seq: int | None = None) -> Problem | None:
    """The chain pass over one stored canonical text, ``seq`` its row's when it has one; moves the walk on."""
    if seq is not None and (problem := walk.order(seq)) is not None:
        return problem
    fields = _tail(sealed)
    at = walk.expected if seq is None else seq
    if fields is None:
        return Problem(at, "content_changed", f"record {at}: the sealed text is not the canonical JSON of a record")
    sealed_seq, prev_hash, recorded_at, _link = fields
    if seq is not None and sealed_seq != seq:
        return Problem(seq, "reordered", f"record {seq} was sealed as record {sealed_seq}")
    if seq is None and (problem := walk.order(sealed_seq)) is not None:
        return problem
    if hashlib.sha256(sealed).hexdigest() != stored:
        return _not_hashing(sealed_seq)
    problem = walk.link(sealed_seq, prev_hash, recorded_at)
    if problem is None:
        walk.passed(sealed_seq, stored, recorded_at)
    return problem


def chain_line(line: bytes, number: int, walk: Walk) -> Problem | None:
    """The chain pass over bundle line ``number``; moves the walk on."""
    body = line[:-1] if line.endswith(b"\n") else line
    if b',"parts":' in body:  # a version 2 line: the hash is over the line without its parts
        try:
            obj = canonical.decode(body)
            stored, _parts = obj.pop("hash"), obj.pop("parts")
            text = canonical.encode(obj)
            seq, prev_hash, recorded_at = obj["seq"], obj["prev_hash"], obj["recorded_at"]
            if type(seq) is not int or not isinstance(recorded_at, str) or not isinstance(stored, str):
                raise ValueError("not a record")
        except (ValueError, TypeError, KeyError, AttributeError):
            return reference_line(line, number, walk)
        if (problem := walk.order(seq)) is not None:
            return problem
        if hashlib.sha256(text).hexdigest() != stored:
            return _not_hashing(seq)
        problem = walk.link(seq, prev_hash, recorded_at)
        if problem is None:
            walk.passed(seq, stored, recorded_at)
        return problem
    fields = _tail(body)
    if fields is None:
        return Problem(walk.expected, "content_changed", f"line {number} is not a canonical record")
    seq, prev_hash, recorded_at, link = fields
    problem = walk.order(seq)
    if problem is not None:
        return problem
    stored = split_hash(body, link)
    if stored is None:
        return _not_hashing(seq)
    problem = walk.link(seq, prev_hash, recorded_at)
    if problem is None:
        walk.passed(seq, stored, recorded_at)
    return problem


def row_object(row: tuple[Any, ...]) -> dict[str, Any] | None:
    """The record object of a ``ledger_rows`` tuple when its sealed text is the canonical JSON of its fields and
    hashes to its stored hash, else None: the half of :func:`fast_row` that needs no walk."""
    sealed = row[18]
    try:
        obj = fast_object(row)
        hashed = obj
        if row[19] is not None:
            salts = canonical.decode(row[19])
            hashed = committed(obj, salts, canonical.decode(sealed) if b"null" in row[19] else None)
        if canonical.encode(hashed) != sealed or hashlib.sha256(sealed).hexdigest() != row[17]:
            return None
    except (ValueError, TypeError):
        return None
    return obj


def fast_row(row: tuple[Any, ...], walk: Walk) -> dict[str, Any] | None:
    """The record object of a ``ledger_rows`` tuple when it passes every check (the walk moves on), else None
    (the walk unmoved: let :func:`reference_row` decide)."""
    seq, prev_hash, stored = row[1], row[16], row[17]
    if seq != walk.expected or prev_hash != walk.prev_hash:
        return None
    obj = row_object(row)
    if obj is None or not walk.follows(seq, prev_hash, obj["recorded_at"]):
        return None
    walk.passed(seq, stored, obj["recorded_at"])
    return obj


def line_facts(body: bytes) -> tuple[int, str, str, str, int] | None:
    """``seq``, ``prev_hash``, ``recorded_at``, ``hash`` and the number of redacted parts of a bundle line
    (without its line feed) when it is written canonically, hashes to its hash and (version 2) each of its parts
    opens its commitment, else None: the half of :func:`fast_line` that needs no walk."""
    try:
        obj = canonical.decode(body)
        if canonical.encode(obj) != body:
            return None
        seq, prev_hash, recorded_at, stored = obj["seq"], obj["prev_hash"], obj["recorded_at"], obj["hash"]
    except (ValueError, TypeError, KeyError):
        return None
    if type(seq) is not int or not isinstance(recorded_at, str) or not isinstance(stored, str):
        return None
    redacted = 0
    if "parts" in obj:  # version 2: the hash is over the line without its parts; each part opens its commitment
        opened = obj.pop("parts")
        del obj["hash"]
        try:
            if obj.get("version") != 2 or hashlib.sha256(canonical.encode(obj)).hexdigest() != stored \
                    or open_problem(obj, opened) is not None:
                return None
        except (ValueError, TypeError):
            return None
        redacted = _redacted_openings(obj, opened)
    elif obj.get("version") == 2 or split_hash(body) != stored:
        return None
    return seq, prev_hash, recorded_at, stored, redacted


def fast_line(line: bytes, walk: Walk) -> bool:
    """True when bundle line passes every check (the walk moves on); False: let :func:`reference_line` decide."""
    facts = line_facts(line[:-1] if line.endswith(b"\n") else line)
    if facts is None or not walk.follows(*facts[:3]):
        return False
    walk.passed(facts[0], facts[3], facts[2])
    walk.redacted += facts[4]
    return True

"""Records against the calls they cite: the second half of the Python verifier.

After the chain walk (:mod:`footnote_pg.ledger`), every record must be backed
by the calls it names (docs/threat-model.md): each call is in the call log,
with the result hash and operation the record holds, made by the record's role
and actor, and marked by the gate as used by this record (or, for an answer
the gate did not accept, as tried by it: an agent may fix its text and submit
it again on the same calls); and every call the gate marked as used or tried
belongs to a record that is sealed or still queued.
``recompute`` also hashes every cited call's result again (docs/hash-spec.md),
which catches a call log result changed behind its hash.

This reads the tables itself and never calls the database's own checks, so it
is a second, independent opinion next to ``footnote.verify_chain()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from footnote_pg import canonical


@dataclass(frozen=True)
class Problem:
    seq: int | None
    problem: str
    detail: str


def _stream(conn: psycopg.Connection[Any], sql: str, name: str) -> Iterator[tuple[Any, ...]]:
    with conn.cursor(name=name) as cur:
        cur.itersize = 5000
        cur.execute(sql)
        yield from cur


def _call_problem(seq: int, record: tuple[Any, ...], op: tuple[str, Any, Any], calls: dict[str, tuple[Any, ...]],
                  used_by: dict[str, str], tried: set[tuple[str, str]]) -> Problem | None:
    record_id, db_role, actor_id, actor_role, accepted = record
    call_id, cited_operation, cited_hash = op
    call = calls.get(call_id)
    if call is None:
        return Problem(seq, "call_missing", f"record {seq} cites call {call_id}, which is not in the call log")
    operation, call_role, call_actor, call_actor_role, result_hash, agree = call
    if result_hash != cited_hash or operation != cited_operation:
        return Problem(seq, "call_changed",
                       f"record {seq} cites call {call_id} as {cited_operation} with result hash "
                       f"{str(cited_hash)[:12]}…; the call log holds {operation} with {result_hash[:12]}…")
    if not agree:
        return Problem(seq, "call_changed",
                       f"record {seq} cites call {call_id}, whose call_id, called_at, operation, arguments, actor or "
                       "evidence_ids no longer agree with the result its hash covers")
    if (call_role, call_actor, call_actor_role) != (db_role, actor_id, actor_role):
        return Problem(seq, "call_not_theirs",
                       f"record {seq} ({db_role} / {actor_id or '-'}) cites call {call_id} made by "
                       f"{call_role} / {call_actor or '-'}")
    user = used_by.get(call_id)
    if user != record_id and not accepted and (call_id, record_id) in tried:
        return None  # an attempt the gate did not accept: the call may back the next one
    if user is None and (call_id, record_id) in tried:
        return Problem(seq, "not_from_gate", f"record {seq} is accepted, but the gate never marked call {call_id} "
                                             "as used by an accepted record")
    if user is None:
        return Problem(seq, "not_from_gate", f"record {seq} cites call {call_id}, which the gate never marked as used: "
                                             "it did not come through the gate")
    if user != record_id:
        return Problem(seq, "not_from_gate",
                       f"record {seq} cites call {call_id}, which the gate marked as used by record {user}")
    return None


def _cited(op: Any) -> tuple[str, Any, Any]:
    """What a record's operation names: call id, operation, result hash (a malformed one names nothing)."""
    if not isinstance(op, dict):
        return "None", None, None
    return str(op.get("call_id")), op.get("operation"), op.get("result_hash")


class Cited:
    """The records of a chain walk that cite calls, gathered as the walk goes (one pass over the ledger; per
    record only its id and, for each operation, call id, operation and result hash)."""

    def __init__(self) -> None:
        self.records: list[tuple[int, str, str, str | None, str | None, bool, tuple[tuple[str, Any, Any], ...]]] = []
        self.sealed: set[str] = set()

    def add(self, obj: dict[str, Any]) -> None:
        """One record object (docs/hash-spec.md §1), in sequence order."""
        self.sealed.add(str(obj["id"]))
        operations = obj.get("operations")
        if operations:
            actor = obj.get("actor") or {}
            accepted = obj.get("kind") != "answer" or obj.get("status") in ("verified", "partially_verified")
            self.records.append((obj["seq"], str(obj["id"]), obj["db_role"], actor.get("id"), actor.get("role"),
                                 accepted, tuple(_cited(op) for op in operations if op != {"redacted": True})))


# A call-log row's columns and the parts of its result that say the same (the hash covers the result).
_CALL_META = """
SELECT c.call_id, c.operation, c.db_role, c.actor_id, c.actor_role, c.result_hash,
       c.called_at, c.arguments, c.evidence_ids,
       c.result->>'call_id', c.result->>'called_at', c.result->>'operation', c.result->'arguments',
       c.result->'actor', ARRAY(SELECT e->>'id' FROM jsonb_array_elements(coalesce(c.result->'evidence', '[]'))
                                WITH ORDINALITY AS x(e, n) ORDER BY x.n)
FROM ONLY footnote.call_log AS c"""


def _agree(row: tuple[Any, ...]) -> bool:
    """Whether a call's columns say what its result says: id, time, operation, arguments, actor, evidence ids."""
    (call_id, operation, _role, actor_id, actor_role, _hash, called_at, arguments, evidence_ids,
     r_call_id, r_called_at, r_operation, r_arguments, r_actor, r_evidence) = row
    actor = r_actor if isinstance(r_actor, dict) else {}
    try:
        same_time = r_called_at is not None and datetime.fromisoformat(r_called_at.replace("Z", "+00:00")) == called_at
    except ValueError:
        same_time = False
    return (str(call_id) == r_call_id and same_time and operation == r_operation and arguments == r_arguments
            and (actor_id, actor_role) == (actor.get("id"), actor.get("role")) and list(evidence_ids) == r_evidence)


def child_tables(conn: psycopg.Connection[Any]) -> Problem | None:
    """A table inheriting from one of ours (a child or a partition): tampering, whatever it holds."""
    row = conn.execute("""SELECT quote_ident(n.nspname) || '.' || quote_ident(k.relname), quote_ident(c.relname)
                          FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhparent
                          JOIN pg_class AS k ON k.oid = i.inhrelid JOIN pg_namespace AS n ON n.oid = k.relnamespace
                          WHERE c.relnamespace = 'footnote'::regnamespace
                          ORDER BY c.relname, n.nspname, k.relname LIMIT 1""").fetchone()
    if row is None:
        return None
    return Problem(None, "child_table", f"{row[0]} inherits from footnote.{row[1]}: nothing may")


def first_problem(conn: psycopg.Connection[Any], cited: Cited, *, recompute: bool = False) -> Problem | None:
    """The first record not backed by its calls (sequence order, then call order), else a lost record, else None."""
    used_by = {str(c): str(r) for c, r in conn.execute("SELECT call_id, record_id FROM ONLY footnote.call_use")}
    tried = {(str(c), str(r)) for c, r in conn.execute("SELECT call_id, record_id FROM ONLY footnote.call_attempts")}
    calls = {str(row[0]): (*row[1:6], _agree(row)) for row in _stream(conn, _CALL_META, "footnote_call_meta")}
    first_citing: dict[str, int] = {}
    for seq, record_id, db_role, actor_id, actor_role, accepted, operations in cited.records:
        for op in operations:
            found = _call_problem(seq, (record_id, db_role, actor_id, actor_role, accepted), op, calls, used_by,
                                  tried)
            if found is not None:
                return found
            first_citing.setdefault(op[0], seq)
    queued = {str(r[0]) for r in conn.execute("SELECT id FROM ONLY footnote.ledger_queue")}
    for call_id, record_id in sorted(set(used_by.items()) | tried):
        if record_id not in cited.sealed and record_id not in queued:
            return Problem(None, "record_lost", f"call {call_id} was used by record {record_id}, "
                                                "which is neither in the ledger nor in the queue")
    if recompute:
        return _first_changed_result(conn, first_citing)
    return None


def _first_changed_result(conn: psycopg.Connection[Any], cited: dict[str, int]) -> Problem | None:
    """Hash every cited call's result again; the changed one cited earliest in the chain."""
    worst: Problem | None = None
    for call_id, result, result_hash in _stream(
            conn, "SELECT call_id, result::text, result_hash FROM ONLY footnote.call_log", "footnote_call_results"):
        seq = cited.get(str(call_id))
        if seq is None or (worst is not None and worst.seq is not None and worst.seq <= seq):
            continue
        # the text as the server keeps it hashes to the result hash (a call logged before revision 0013: the
        # canonical JSON of it does)
        if canonical.sha256_hex(result) != result_hash \
                and canonical.sha256_hex(canonical.canonical_json(canonical.loads(result))) != result_hash:
            worst = Problem(seq, "call_result_changed",
                            f"call {call_id}, cited by record {seq}, no longer hashes to its result hash "
                            f"{result_hash[:12]}…: its result was changed in the call log")
    return worst

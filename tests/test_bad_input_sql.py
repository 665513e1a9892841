"""Bad input to every SQL entry point the roles may execute: a footnote error naming the argument, never PostgreSQL's.

The cases are generated. Every function of schema footnote that footnote_service or footnote_auditor may
EXECUTE (read from pg_proc, with its argument types) is called, as each of those roles that may, with one
argument at a time replaced by each value of a table of bad values for its type and the others valid;
footnote.call is also given bad JSON values for every argument of every catalog operation, and bad keys;
the session's footnote.actor and footnote.actor_role are set to bad values before the calls that read them.
Each case must end in

* an error of class FN whose message is one line of under 400 characters naming the argument (FN001:
  "invalid argument <name>: <cause>"; FN002/FN003: the DETAIL's "argument"; FN004: the operation), or
* a result, only where the value is a fair one for that argument (free text, an optional NULL, an id no
  record has), or
* an error PostgreSQL raises before any function of ours runs (NUL, a lone surrogate, 2026-02-30 typed as
  a date, 2^31 typed as an integer): the same expression alone fails with the same SQLSTATE;

and nothing is written to the ledger or its queue, and to the call log only by the calls that succeeded.
A role that may not execute a function gets 42501 (permission denied): checked separately.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import sql

from tests.conftest import REPORTS, TestDatabase

ROLES = ("service", "auditor")
WRITES = """SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger),
                   (SELECT count(*) FROM footnote.ledger_queue), (SELECT count(*) FROM footnote.call_use),
                   (SELECT coalesce(max(seq), 0) FROM footnote.ledger)"""
RECORDERS = {"record_answer", "submit_answer", "record_decision"}  # queue a ledger record: run and rolled back
ALIASES = {("reattest", "record_seq"): {"seq"}}  # the CLI and the docs call it seq
INJECTION = "'; DROP TABLE erp.invoices; --"


@dataclass(frozen=True)
class Bad:
    label: str
    sql: str              # the value, as an SQL expression
    passes: bool = False  # a result is fine too (else it must be refused)


def _lit(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _jsonb(value: Any) -> str:
    return _lit(json.dumps(value, ensure_ascii=False)) + "::jsonb"


# -- bad values by SQL type, and which of them an argument may take, by what it holds ------------------------------

TEXT = [
    Bad("NULL", "NULL"), Bad("empty", "''"), Bad("blank", "'   '"),
    Bad("10k chars", "repeat('x', 10000)"), Bad("100k chars", "repeat('y', 100000)"),
    Bad("control SOH", "'a' || chr(1) || 'b'"), Bad("control ESC", "'a' || chr(27) || 'b'"),
    Bad("control DEL", "'a' || chr(127)"), Bad("line feed", "E'a\\nb'"), Bad("CR LF", "E'a\\r\\nb'"),
    Bad("tab", "E'a\\tb'"), Bad("injection", _lit(INJECTION)), Bad("regex metacharacters", "'.*(['"),
    Bad("LIKE wildcards", "'%_%'"), Bad("emoji", "'🙂'"), Bad("right-to-left override", "E'\\u202Eabc'"),
    Bad("zero-width space", "E'\\u200B'"), Bad("no-break space", "E'\\u00A0'"),
    Bad("backslash-u text", "'\\u0000'"), Bad("fullwidth digits", "'４４７１'"), Bad("Arabic-Indic digits", "'٤٤٧١'"),
    Bad("20 digits", "'99999999999999999999'"), Bad("negative id", "'-4471'"), Bad("one letter", "'a'"),
    Bad("200 characters", "repeat('Bergmann ', 25)"), Bad("deep link, huge id", "'erp://customer/999999999999999999'"),
    Bad("NUL by chr()", "chr(0)"), Bad("NUL in jsonb", "('\"a\\u0000b\"'::jsonb ->> 0)"),
    Bad("lone surrogate in jsonb", "('\"\\ud800\"'::jsonb #>> '{}')"),
    Bad("invalid UTF-8", "convert_from('\\xff'::bytea, 'UTF8')"),
]
FREE = {"injection", "regex metacharacters", "LIKE wildcards", "emoji", "right-to-left override",
        "zero-width space", "no-break space", "backslash-u text", "fullwidth digits", "Arabic-Indic digits",
        "20 digits", "negative id", "one letter", "200 characters", "deep link, huge id"}
TEXT_FAIR = {
    "name": set(),                                                      # a name, code, link, choice or period
    "line": FREE,                                                       # one line of free text
    "prose": FREE | {"line feed", "CR LF", "tab", "10k chars"},         # many lines (at most 20,000 characters)
    "search": {"injection", "Arabic-Indic digits", "backslash-u text", "right-to-left override", "20 digits",
               "negative id", "deep link, huge id", "one letter", "200 characters"},  # name_contains: a letter or digit
    "person": FREE - {"zero-width space", "no-break space"},            # owner: matched exactly, may match no one
    "any": FREE | {"empty", "blank", "10k chars", "100k chars", "control SOH", "control ESC", "control DEL",
                   "line feed", "CR LF", "tab"},                        # sha256_hex: every text has a hash
}

DATE = [Bad("NULL", "NULL", passes=True), Bad("infinity", "'infinity'"), Bad("-infinity", "'-infinity'"),
        Bad("year 1", "'0001-01-01'"), Bad("4713 BC", "'4713-01-01 BC'"), Bad("1899-12-31", "'1899-12-31'"),
        Bad("2200-01-01", "'2200-01-01'"), Bad("294277-01-01", "'294277-01-01'"),
        Bad("5874897-12-31", "'5874897-12-31'"), Bad("year 0", "'0000-01-01'"), Bad("February 30", "'2026-02-30'"),
        Bad("5874898-01-01", "'5874898-01-01'")]

INTEGER = [Bad("NULL", "NULL", passes=True), Bad("-1", "-1"), Bad("0", "0"), Bad("-2^31", "-2147483648"),
           Bad("2^31-1", "2147483647"), Bad("2^31", "2147483648"), Bad("1.5 as text", "'1.5'"), Bad("abc", "'abc'")]

BIGINT = [Bad("NULL", "NULL"), Bad("-1", "-1"), Bad("0", "0"), Bad("2^31", "2147483648"),
          Bad("-2^63", "-9223372036854775808"), Bad("2^63-1", "9223372036854775807"),
          Bad("2^63", "9223372036854775808"), Bad("1e30", "1e30")]
BIGINT_FAIR = {"seq": set(), "seq or later": {"2^31", "2^63-1"},  # a digest may name a record the chain lost
               "size": {"NULL", "0"}, "size of seq": {"NULL"},
               "offset": {"NULL", "0", "2^31", "2^63-1"},  # past the end of a set: no rows
               "seq bound": {"NULL", "2^31", "2^63-1"}}  # NULL: from the first or to the last; past the end: none

UUID = [Bad("NULL", "NULL"), Bad("nil", "'00000000-0000-0000-0000-000000000000'", passes=True),
        Bad("unknown", f"'{uuid.UUID(int=7)}'", passes=True), Bad("not a uuid", "'x'"), Bad("empty", "''")]


def _uuids(n: int) -> str:
    return f"(SELECT array_agg(gen_random_uuid()) FROM generate_series(1, {n}))"  # noqa: S608 (a count)


UUIDS = [Bad("NULL", "NULL"), Bad("empty", "'{}'"), Bad("{NULL}", "ARRAY[NULL]::uuid[]"),
         Bad("101 calls", _uuids(101)), Bad("10k calls", _uuids(10000)),
         Bad("unknown call", f"ARRAY['{uuid.UUID(int=7)}']::uuid[]"),
         Bad("two dimensions", "ARRAY[ARRAY[gen_random_uuid()], ARRAY[gen_random_uuid()]]"), Bad("not uuids", "'{x}'")]
UUIDS_FAIR = {"graded": {"NULL", "empty", "unknown call"},  # an answer or decision on no or unknown calls is graded
              "made": set()}                                # compose, submit_answer: calls that were made


def _deep(n: int, kind: str) -> str:
    if kind == "array":
        return f"(repeat('[', {n}) || repeat(']', {n}))::jsonb"
    return f"(repeat('{{\"a\":', {n}) || '1' || repeat('}}', {n}))::jsonb"


JSONB = [
    Bad("NULL", "NULL"), Bad("JSON null", "'null'::jsonb"), Bad("empty array", "'[]'::jsonb"),
    Bad("empty object", "'{}'::jsonb"), Bad("string", "'\"x\"'::jsonb"), Bad("number", "'1'::jsonb"),
    Bad("boolean", "'true'::jsonb"), Bad("array nested 40 deep", _deep(40, "array")),
    Bad("object nested 40 deep", _deep(40, "object")), Bad("array nested 10000 deep", _deep(10000, "array")),
    Bad("object nested 10000 deep", _deep(10000, "object")),
    Bad("100k elements", "(SELECT jsonb_agg(g) FROM generate_series(1, 100000) AS g)"),
    Bad("100k keys", "(SELECT jsonb_object_agg('k' || g, g) FROM generate_series(1, 100000) AS g)"),
    Bad("1M-character string", "to_jsonb(repeat('x', 1000000))"), Bad("array of null", "'[null]'::jsonb"),
    Bad("array of arrays", "'[[]]'::jsonb"), Bad("escaped NUL", "'\"\\u0000\"'::jsonb"),
    Bad("lone surrogate", "'\"\\ud800\"'::jsonb"), Bad("not JSON", "'{x'::jsonb"),
]
JSON_FAIR = {
    "claims": {"NULL", "JSON null", "empty array"},      # NULL: the gate finds the figures itself
    "citations": {"NULL", "JSON null", "empty array"},   # a decision citing nothing is graded unsupported
    "details": {"NULL", "empty object"}, "template": {"NULL", "empty object"}, "notes": {"NULL", "empty object"},
    "arguments": {"NULL"},
    "result": {"NULL", "empty object", "object nested 40 deep", "object nested 10000 deep", "100k keys"},
    "any": {"NULL", "JSON null", "empty array", "empty object", "string", "number", "boolean", "array nested 40 deep",
            "object nested 40 deep", "100k elements", "100k keys", "1M-character string", "array of null",
            "array of arrays", "escaped NUL"},   # canonical_json: anything nested at most 64 levels
}
SHAPES: dict[str, list[Any]] = {  # JSON values of the wrong shape, by what the argument holds
    "claims": [[{"text": 1}], [{"text": "x", "span": {"start": "0", "end": "1"}, "call_id": "c"}],
               [{"text": "x", "span": {"start": -1, "end": 1}, "call_id": "c"}],
               [{"text": "x", "span": {"start": 1e10, "end": 2e10}, "call_id": "c"}],
               [{"text": "x", "span": {"start": 0.5, "end": 1}, "call_id": "c"}],
               [{"text": "x", "span": [0, 1], "call_id": "c"}],
               [{"text": "x", "span": {"start": 0, "end": 1}, "call_id": 5}],
               [{"text": "x", "span": {"start": 0, "end": 1}, "call_id": "c", "evidence": "invoice:1"}],
               [{"text": "x", "span": {"start": 0, "end": 1}, "call_id": "c", "origin": "alien"}]],
    "citations": [[{}], [{"evidence": 1, "call_id": "c"}], [{"evidence": "x", "call_id": ["c"]}],
                  [{"evidence": "x", "call_id": "c", "fact": 5}], ["invoice:1"]],
    "template": [{"intent": 5}, {"intent": ["x"]}, {"notes": []}, {"notes": "x"}, {"intent": "x" * 10000}],
    "notes": [{"x": "y" * 100000}],
    "details": [{"a": "x" * 100001}],
    "arguments": [{"customer": {"name": "Bergmann"}}, {"customer": ["Bergmann"]}, {"as_of": {"$date": 1}}],
    "result": [{"values": []}, {"values": {"a": 1}}, {"values": {"a": {"evidence": {}}}},
               {"values": {"a": {"evidence": [[1]]}}}, {"rows": {}}, {"rows": [1]}, {"rows": [{"a": 1}]},
               {"rows": [{"a": {"evidence": "x"}}]}, {"evidence": {}}, {"evidence": [1]},
               {"evidence": [{"verified": "maybe"}]}, {"evidence": [{"fields": 5, "verified": 1}]}],
}

ACTOR = [("101 characters", "x" * 101), ("control SOH", "a\x01b"), ("line feed", "a\nb")]
ACTOR_READERS = {"customer_overdue", "call", "compose", "check_answer", "record_answer", "submit_answer",
                 "record_decision", "reattest"}  # log a call, or check whose calls an answer cites

# footnote.call: JSON values by catalog type (label, value, fair for a search or a person's name)
JSON_TEXT: list[tuple[str, Any, bool]] = [
    ("null", None, False), ("empty", "", False), ("blank", "   ", False), ("number", 5, False),
    ("boolean", True, False), ("array", ["Bergmann"], False), ("object", {"name": "Bergmann"}, False),
    ("empty array", [], False), ("10k chars", "x" * 10000, False), ("control", "a\u0001b", False),
    ("line feed", "a\nb", False), ("injection", INJECTION, True), ("Arabic-Indic digits", "٤٤٧١", True),
]
JSON_INTEGER: list[tuple[str, Any, bool]] = [
    ("null", None, True), ("-1", -1, False), ("0", 0, False), ("2^31", 2**31, False), ("10^12", 10**12, False),
    ("1e400", "1e400", False), ("1.5", 1.5, False), ("1.0", 1.0, False), ("string abc", "abc", False),
    ("string 1.5", "1.5", False), ("string empty", "", False), ("string with spaces", " 5 ", False),
    ("string line feed", "5\n", False), ("no-break space", "\u00a05", False), ("Arabic-Indic digit", "٥", False),
    ("fullwidth digit", "５", False), ("boolean", True, False), ("array", [5], False), ("object", {"n": 5}, False),
    ("-0", "-0", False), ("exponent", "1e2", False), ("40 digits", "9" * 40, False),
]
JSON_DATE: list[tuple[str, Any, bool]] = [
    ("null", None, True), ("February 30", "2026-02-30", False), ("month 13", "2026-13-01", False),
    ("year 0", "0000-01-01", False), ("9999-12-31", "9999-12-31", False), ("294277", "294277-01-01", False),
    ("infinity", "infinity", False), ("no zero padding", "2026-8-14", False), ("leading space", " 2026-08-14", False),
    ("line feed", "2026-08-14\n", False), ("with time", "2026-08-14T00:00:00", False),
    ("Arabic-Indic digits", "٢٠٢٦-٠٨-١٤", False), ("number", 20260814, False), ("empty", "", False),
    ("boolean", False, False), ("array", ["2026-08-14"], False), ("1899-12-31", "1899-12-31", False),
    ("BC", "2026-08-14 BC", False),
]
JSON_PERIOD: list[tuple[str, Any, bool]] = [
    ("null", None, False), ("empty", "", False), ("month 13", "2026-13", False), ("Q5", "Q5 2026", False),
    ("year 0", "0000", False), ("year 9999", "9999", False), ("FY0", "FY0", False), ("FY99999", "FY99999", False),
    ("February 30 range", "2026-02-30..2026-03-01", False), ("range to year 0", "2026-01-01..0000-01-01", False),
    ("range backwards", "2026-03-01..2026-01-01", False), ("range before 1900", "1899-12-31..2026-01-01", False),
    ("Arabic-Indic year", "٢٠٢٦", False), ("number", 2026, False), ("array", ["2026-Q2"], False),
    ("object", {"year": 2026}, False), ("injection", "2026-Q2'; DROP TABLE x; --", False),
    ("10k chars", "2026" * 2500, False), ("control", "2026\u0001Q2", False),
]
JSON_BY_TYPE = {"text": JSON_TEXT, "integer": JSON_INTEGER, "date": JSON_DATE, "period": JSON_PERIOD}
BAD_KEYS = [("unknown", "colour"), ("empty", ""), ("line feed", "a\nb"), ("1000 chars", "k" * 1000),
            ("control", "a\u0001b")]


# -- the entry points, from pg_proc --------------------------------------------------------------------------------

@dataclass
class Param:
    name: str
    type: str
    optional: bool            # NULL (or leaving it out, where it has a default) is fine
    kind: str                 # what it holds: a key of TEXT_FAIR, BIGINT_FAIR, UUIDS_FAIR or JSON_FAIR
    has_default: bool = True


@dataclass
class Entry:
    name: str
    signature: str
    params: list[Param]
    roles: set[str]  # of ROLES, those that may execute it


# parameters of the entry points that are not catalog operations (theirs come from footnote.catalog)
GATE = {
    "record_answer": {"question": (True, "line"), "answer": (False, "prose"), "claims": (True, "claims"),
                      "call_ids": (True, "graded"), "outcome": (True, "name"), "details": (True, "details"),
                      "template": (True, "template"), "narration": (True, "prose")},
    "submit_answer": {"question": (False, "line"), "answer": (False, "prose"), "call_ids": (False, "made"),
                      "details": (True, "details")},
    "record_decision": {"action": (False, "line"), "subject": (False, "line"), "rationale": (True, "prose"),
                        "citations": (True, "citations"), "call_ids": (True, "graded")},
    "check_answer": {"answer": (False, "prose"), "claims": (True, "claims"), "call_ids": (True, "graded"),
                     "outcome": (True, "name"), "template": (True, "template"), "question": (True, "line")},
    "compose": {"call_ids": (False, "made"), "intent": (True, "line"), "notes": (True, "notes"),
                "question": (True, "line")},
    "call": {"operation": (False, "name"), "arguments": (True, "arguments")},
    "receipt": {"record_id": (False, "record")},
    "verify_digest": {"digest_seq": (False, "seq or later"), "digest_hash": (False, "name")},
    "reattest": {"record_seq": (False, "seq")},
    "regrade": {"first_seq": (True, "seq bound"), "last_seq": (True, "seq bound")},
    "tree_head": {"tree_size": (True, "size")},
    "inclusion_proof": {"seq": (False, "seq"), "tree_size": (True, "size of seq")},
    "consistency_proof": {"old_size": (False, "seq"), "new_size": (True, "size of seq")},
    "canonical_json": {"j": (True, "any")}, "sha256_hex": {"t": (True, "any")},
    "result_values": {"result": (True, "result")}, "result_evidence": {"result": (True, "result")},
    "evidence_rows": {"call_id": (False, "call"), "evidence_set": (False, "name"), "offset": (True, "offset"),
                      "limit": (True, "count")},
}
WITHOUT_ARGUMENTS = {"seal", "verify_chain", "verify_calls", "chain_head", "client_settings", "router_names",
                     "items_below_reorder", "whoami", "node_position"}
CATALOG_TEXT_KIND = {"name_contains": "search", "owner": "person"}  # other catalog texts are names and choices


def entry_points(db: TestDatabase) -> dict[str, Entry]:
    rows = db.rows("""
        SELECT p.proname, p.oid::regprocedure::text, coalesce(p.proargnames, '{}'),
               ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) AS t), p.pronargs - p.pronargdefaults,
               has_function_privilege('footnote_service', p.oid, 'EXECUTE'),
               has_function_privilege('footnote_auditor', p.oid, 'EXECUTE')
        FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
        WHERE n.nspname = 'footnote' AND (has_function_privilege('footnote_service', p.oid, 'EXECUTE')
                                          OR has_function_privilege('footnote_auditor', p.oid, 'EXECUTE'))
          -- footnote.call with its arguments as text has a test of its own (the JSON text it is given), and so
          -- has verify_chain(regrade) (tests/test_attacks.py; regrade NULL is verify_chain() alone, below)
          AND p.oid::regprocedure::text NOT IN ('footnote.call(text,text)', 'footnote.verify_chain(boolean)')
        ORDER BY 1, 2""")
    catalog = {op: {a["name"]: a for a in args}
               for op, args in db.rows("SELECT operation, arguments FROM footnote.catalog")}
    out = {}
    for name, signature, names, types, without_default, service, auditor in rows:
        params = []
        for i, (pname, ptype) in enumerate(zip(names, types, strict=False)):
            if name in catalog:
                arg = catalog[name][pname]
                kind = CATALOG_TEXT_KIND.get(pname, "name") if arg["type"] in ("text", "period") else arg["type"]
                params.append(Param(pname, ptype, not arg["required"], kind, i >= without_default))
            else:
                optional, kind = GATE[name][pname]
                params.append(Param(pname, ptype, optional, kind, i >= without_default))
        out[name] = Entry(name, signature, params, {r for r, ok in zip(ROLES, (service, auditor), strict=True) if ok})
    return out


def bad_values(p: Param) -> Iterator[Bad]:
    """The bad values of one parameter, each marked whether a result is fine for it."""
    if p.type == "text":
        for b in TEXT:
            yield Bad(b.label, b.sql, (b.label == "NULL" and p.optional) or b.label in TEXT_FAIR[p.kind])
    elif p.type in ("date", "integer"):
        yield from DATE if p.type == "date" else INTEGER
    elif p.type == "bigint":
        yield from (Bad(b.label, b.sql, b.label in BIGINT_FAIR[p.kind]) for b in BIGINT)
    elif p.type == "uuid":
        yield from UUID
    elif p.type == "uuid[]":
        yield from (Bad(b.label, b.sql, b.label in UUIDS_FAIR[p.kind]) for b in UUIDS)
    elif p.type == "jsonb":
        yield from (Bad(b.label, b.sql, b.label in JSON_FAIR[p.kind]) for b in JSONB)
        yield from (Bad(f"shape {json.dumps(v)[:50]}", _jsonb(v)) for v in SHAPES.get(p.kind, []))
    else:
        raise AssertionError(f"{p.name}: no bad values for type {p.type}")


def call_cases(catalog: dict[str, list[dict[str, Any]]], base: dict[str, dict[str, Any]]) \
        -> Iterator[tuple[str, str, Bad]]:
    """(operation, argument, arguments of footnote.call) for every argument of every operation, and bad keys."""
    for op, args in sorted(catalog.items()):
        for arg in args:
            for label, value, fair in JSON_BY_TYPE[arg["type"]]:
                passes = (value is None and not arg["required"]) or (fair and arg["name"] in CATALOG_TEXT_KIND)
                text = json.dumps({**base[op], arg["name"]: 0 if label == "1e400" else value}, ensure_ascii=False)
                if label == "1e400":  # a JSON number no float holds
                    text = text.replace(f'"{arg["name"]}": 0', f'"{arg["name"]}": 1e400')
                yield op, arg["name"], Bad(f"json {label}", _lit(text) + "::jsonb", passes)
        for label, key in BAD_KEYS:
            yield op, key, Bad(f"key {label}", _jsonb({**base[op], key: 1}))
        yield op, "a", Bad("key escaped NUL", _lit('{"a\\u0000": 1}') + "::jsonb")


# -- a database to call into: calls made, records sealed -----------------------------------------------------------

@dataclass
class World:
    calls: dict[str, str]      # made by the service role, no actor: overdue (customer_overdue), supplier
    answer: str                # the template answer of calls["overdue"]
    citation: dict[str, str]   # a citation of calls["supplier"]
    first: tuple[str, str]     # id and hash of ledger record 1 (of 3, each on one customer_overdue call)
    result: dict[str, Any]     # the result of calls["overdue"]
    item: str                  # an item's SKU
    evidence_set: tuple[str, str]  # a call that cites an evidence set (ar_aging), and the set


def make_world(db: TestDatabase) -> World:
    with db.connect("service") as conn:
        def call(statement: LiteralString) -> dict[str, Any]:
            row = conn.execute(statement).fetchone()
            assert row is not None
            return dict(row[0])
        for _ in range(3):
            cid = call("SELECT footnote.customer_overdue('Bergmann Logistik')")["call_id"]
            conn.execute("SELECT footnote.submit_answer('How much does Bergmann Logistik owe?', "
                         "footnote.compose(ARRAY[%s]::uuid[])->>'answer', ARRAY[%s]::uuid[])", (cid, cid))
        overdue = call("SELECT footnote.customer_overdue('Bergmann Logistik')")
        supplier = call("SELECT footnote.supplier_payment_facts('Northwind Supply')")
        answer = conn.execute("SELECT footnote.compose(ARRAY[%s]::uuid[])->>'answer'", (overdue["call_id"],)).fetchone()
        limit = db.scalar("SELECT value FROM footnote.settings WHERE key = 'max_evidence_rows'")
        db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
        aging = call("SELECT footnote.ar_aging()")
        db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1", (limit,))
    assert answer is not None
    the_set = next(e["id"] for e in aging["evidence"] if e["type"] == "evidence_set")
    return World({"overdue": overdue["call_id"], "supplier": supplier["call_id"]}, answer[0],
                 {"evidence": supplier["evidence"][0]["id"], "call_id": supplier["call_id"]},
                 db.rows("SELECT id::text, hash FROM footnote.ledger WHERE seq = 1")[0], overdue,
                 db.scalar("SELECT sku FROM erp.items ORDER BY id LIMIT 1"), (aging["call_id"], the_set))


VALID = {"customer": "Bergmann Logistik", "supplier": "Northwind Supply", "number": "INV-2026-8812",
         "uri": "erp://invoice/8812", "period": "2026-Q2", "period_from": "2026-Q1", "period_to": "2026-Q2",
         "measure": "overdue", "owner": "Ana Kovač", "country": "DE", "name_contains": "Berg", "expected_in": "2026-08",
         "direction": "desc", "as_of": "2026-08-14", "limit": 5, "window_days": 90}
VALID_FOR = {("purchase_order", "number"): "PO-2025-3043", ("revenue_drivers", "direction"): "down",
             ("breakdown", "measure"): "revenue"}


def _valid(op: str, name: str, world: World) -> Any:
    return world.item if name == "item" else VALID_FOR.get((op, name), VALID.get(name))


def base_values(entry: Entry, world: World) -> dict[str, str]:
    """Valid SQL values of the required parameters (and of those without a default)."""
    overdue = f"ARRAY['{world.calls['overdue']}']::uuid[]"
    question = "'How much does Bergmann Logistik owe?'"
    gate = {
        "record_answer": {"question": question, "answer": _lit(world.answer), "call_ids": overdue},
        "submit_answer": {"question": question, "answer": _lit(world.answer), "call_ids": overdue},
        "check_answer": {"answer": _lit(world.answer), "call_ids": overdue},
        "compose": {"call_ids": overdue},
        "record_decision": {"action": "'pay'", "subject": "'Northwind Supply'", "rationale": "'history holds'",
                            "citations": _jsonb([world.citation]),
                            "call_ids": f"ARRAY['{world.calls['supplier']}']::uuid[]"},
        "call": {"operation": "'customer_overdue'", "arguments": _jsonb({"customer": "Bergmann Logistik"})},
        "receipt": {"record_id": _lit(world.first[0])},
        "verify_digest": {"digest_seq": "1", "digest_hash": _lit(world.first[1])},
        "reattest": {"record_seq": "1"}, "inclusion_proof": {"seq": "1"}, "consistency_proof": {"old_size": "1"},
        "canonical_json": {"j": "'{}'::jsonb"}, "sha256_hex": {"t": "'x'"},
        "result_values": {"result": _jsonb(world.result)}, "result_evidence": {"result": _jsonb(world.result)},
        "evidence_rows": {"call_id": _lit(world.evidence_set[0]), "evidence_set": _lit(world.evidence_set[1])},
    }
    if entry.name in gate:
        return {**{p.name: "NULL" for p in entry.params if not p.has_default}, **gate[entry.name]}
    out = {}
    for p in entry.params:
        if not p.optional:
            value = _valid(entry.name, p.name, world)
            out[p.name] = str(value) if isinstance(value, int) else _lit(value)
    return out


# -- running and judging the cases ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    state: str  # "result" or the SQLSTATE
    message: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


def run(conn: psycopg.Connection[Any], statement: sql.Composed, rollback: bool = False) -> Outcome:
    try:
        if rollback:
            with conn.transaction(force_rollback=True):
                conn.execute(statement).fetchall()
        else:
            conn.execute(statement).fetchall()
        return Outcome("result")
    except psycopg.Error as exc:
        try:
            detail = json.loads(exc.diag.message_detail or "{}")
        except ValueError:
            detail = {}
        return Outcome(exc.sqlstate or "?", exc.diag.message_primary or str(exc),
                       detail if isinstance(detail, dict) else {})


def call_statement(entry: Entry, values: dict[str, str]) -> sql.Composed:
    """SELECT count(*) FROM footnote.f(name => (value)::type, ...): results are counted, not fetched."""
    args = [sql.SQL("{} => ({})::{}").format(sql.Identifier(p.name), sql.SQL(values[p.name]), sql.SQL(p.type))
            for p in entry.params if p.name in values]
    return sql.SQL("SELECT count(*) FROM footnote.{}({})").format(sql.Identifier(entry.name), sql.SQL(", ").join(args))


def _shown(name: str) -> str:
    """A name as footnote's messages show it: control characters as their pictures (U+2401 ..., U+2421)."""
    return "".join(chr(0x2400 + ord(c)) if ord(c) < 32 else "\u2421" if c == "\x7f" else c for c in name)


def judge(outcome: Outcome, bad: Bad, expected: set[str]) -> str | None:
    """Why the outcome breaks the contract (a short category, then what happened), or None."""
    if outcome.state == "result":
        return None if bad.passes else "accepted: a result for a bad value"
    if not outcome.state.startswith("FN"):
        return f"PostgreSQL's error {outcome.state}: {outcome.message[:120]}"
    if "\n" in outcome.message:
        return f"message of several lines: {outcome.message[:120]!r}"
    if len(outcome.message) >= 400:
        return f"message of 400 characters or more ({len(outcome.message)}): {outcome.message[:120]}"
    if outcome.state == "FN004":
        named: Any = "operation"
    elif outcome.state == "FN001":
        m = re.match(r"invalid argument (.*?): ", outcome.message)
        named = m[1] if m else None
    else:
        named = outcome.detail.get("argument")
    named = re.sub(r"\[\d+\]$", "", str(named))  # claims[3]: an element of claims
    if not any(named == _shown(e) or (named.endswith("…") and _shown(e).startswith(named[:-1])) for e in expected):
        return f"names another argument ({named!r}): {outcome.message[:120]}"
    return None


@dataclass
class Report:
    cases: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    functions: set[str] = field(default_factory=set)
    failures: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)  # of the failures
    refused_before: Counter[str] = field(default_factory=Counter)  # by value and SQLSTATE
    logged: int = 0  # call-log rows written by the calls that succeeded

    def add(self, where: str, bad: Bad, outcome: Outcome, failure: str | None) -> None:
        self.cases += 1
        self.functions.add(where.split("(")[0])
        self.outcomes["result" if outcome.state == "result" else outcome.state] += 1
        if failure:
            self.failures.append(f"{where} <- {bad.label}: {failure}")
            self.kinds[failure.split(":")[0].split(" (")[0]] += 1


class Runner:
    """Every case of every entry point, as each role that may execute it."""

    def __init__(self, db: TestDatabase, world: World) -> None:
        self.db = db
        self.world = world
        self.entries = entry_points(db)
        self.catalog = {op: args for op, args in db.rows("SELECT operation, arguments FROM footnote.catalog")}
        self.report = Report()

    def logs(self, entry: Entry) -> int:
        """Call-log rows one successful call writes (reattest of record 1: its one operation again)."""
        return 1 if entry.name in self.catalog or entry.name in ("call", "reattest") else 0

    def case(self, conn: psycopg.Connection[Any], cache: dict[str, Outcome], entry: Entry, p: Param,
             values: dict[str, str], bad: Bad, expected: set[str], where: str) -> None:
        outcome = run(conn, call_statement(entry, values), entry.name in RECORDERS)
        if p.name in values and outcome.state != "result" and not outcome.state.startswith("FN"):
            key = f"{values[p.name]}::{p.type}"
            if key not in cache:  # the value alone, with no function of ours
                cache[key] = run(conn, sql.SQL("SELECT length(({})::{}::text)").format(
                    sql.SQL(values[p.name]), sql.SQL(p.type)))
            if cache[key].state == outcome.state:
                self.report.refused_before[f"{bad.label} ({outcome.state})"] += 1
                self.report.add(where, bad, outcome, None)
                return
        if outcome.state == "result":
            self.report.logged += self.logs(entry)
        self.report.add(where, bad, outcome, judge(outcome, bad, expected))

    def entry(self, conn: psycopg.Connection[Any], role: str, entry: Entry, cache: dict[str, Outcome]) -> None:
        base = base_values(entry, self.world)
        valid = run(conn, call_statement(entry, base), entry.name in RECORDERS)
        assert valid.state == "result", (entry.signature, "fails with valid arguments", valid)
        self.report.logged += self.logs(entry)
        for p in entry.params:
            expected = {p.name} | ALIASES.get((entry.name, p.name), set())
            if entry.name == "call" and p.name == "arguments":  # a whole object: it may name a key it holds
                expected |= {a["name"] for a in self.catalog["customer_overdue"]} | {"a", "k1"}
            for bad in bad_values(p):
                where = f"{entry.name}({p.name}) as {role}"
                if bad.label == "NULL" and p.optional and p.has_default:  # left out, as well as NULL
                    self.case(conn, cache, entry, p, {k: v for k, v in base.items() if k != p.name}, bad, expected,
                              where)
                self.case(conn, cache, entry, p, {**base, p.name: bad.sql}, bad, expected, where)
        if role == "service" and entry.name in ACTOR_READERS:
            for setting in ("footnote.actor", "footnote.actor_role"):
                for label, value in ACTOR:
                    conn.execute("SELECT set_config(%s, %s, false)", (setting, value))
                    outcome = run(conn, call_statement(entry, base), entry.name in RECORDERS)
                    conn.execute("SELECT set_config(%s, '', false)", (setting,))
                    bad = Bad(label, _lit(value))
                    self.report.add(f"{entry.name}({setting})", bad, outcome, judge(outcome, bad, {setting}))
        if entry.name == "call":
            base_json = {op: {a["name"]: _valid(op, a["name"], self.world) for a in args if a["required"]}
                         for op, args in self.catalog.items()}
            arguments = Param("arguments", "jsonb", True, "arguments")
            for op, name, bad in call_cases(self.catalog, base_json):
                self.case(conn, cache, entry, arguments, {"operation": _lit(op), "arguments": bad.sql}, bad, {name},
                          f"call({op}.{name}) as {role}")

    def all(self) -> Report:
        for role in ROLES:
            with self.db.connect(role) as conn:
                cache: dict[str, Outcome] = {}
                for entry in self.entries.values():
                    if role in entry.roles:
                        self.entry(conn, role, entry, cache)
        return self.report


# -- the tests -----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def world(module_db: TestDatabase) -> World:
    return make_world(module_db)


def test_every_granted_function_answers_bad_input_with_a_footnote_error(module_db: TestDatabase, world: World,
                                                                       request: pytest.FixtureRequest) -> None:
    before = module_db.rows(WRITES)[0]
    report = Runner(module_db, world).all()
    after = module_db.rows(WRITES)[0]
    summary = (f"bad input to the SQL entry points: {report.cases} cases over {len(report.functions)} functions; "
               + ", ".join(f"{k}: {v}" for k, v in sorted(report.outcomes.items()))
               + f"; refused by PostgreSQL before our code: {sum(report.refused_before.values())}"
               + f"; broke the contract: {len(report.failures)} {dict(report.kinds)}")
    request.config.stash.setdefault(REPORTS, []).append(summary)
    print(summary)
    assert report.cases >= 400
    assert not report.failures, "\n".join(report.failures[:60]) + f"\n({len(report.failures)} in all)"
    # what PostgreSQL refuses before a function runs is only what no text, date, integer or jsonb can hold
    assert {k.split(" (")[0] for k in report.refused_before} <= {
        "NUL by chr()", "NUL in jsonb", "lone surrogate in jsonb", "invalid UTF-8", "year 0", "February 30",
        "5874898-01-01", "2^31", "1.5 as text", "abc", "2^63", "1e30", "not a uuid", "empty", "not uuids",
        "escaped NUL", "lone surrogate", "not JSON", "key escaped NUL"}, report.refused_before
    # nothing queued, sealed or marked used (recording ran in transactions rolled back); the call log grew only
    # by the calls that succeeded
    assert after[1:] == before[1:]
    assert after[0] - before[0] == report.logged


def test_roles_without_execute_are_refused_with_42501(module_db: TestDatabase, world: World) -> None:
    entries = entry_points(module_db)
    refused = Counter[str]()
    for role in (*ROLES, "outsider"):
        with module_db.connect(role) as conn:
            for entry in entries.values():
                if role not in entry.roles:
                    outcome = run(conn, call_statement(entry, base_values(entry, world)), True)
                    assert outcome.state == "42501", (role, entry.signature, outcome)
                    refused[role] += 1
    assert refused["outsider"] == len(entries)
    assert refused["auditor"] >= 30 and refused["service"] == 0  # the auditor calls no catalog operation or gate


def test_every_granted_function_is_a_public_one_this_suite_knows(module_db: TestDatabase) -> None:
    entries = entry_points(module_db)
    assert not [e.signature for e in entries.values() if e.name.startswith("_")]
    catalog = {r[0] for r in module_db.rows("SELECT operation FROM footnote.catalog")}
    assert set(entries) == catalog | set(GATE) | WITHOUT_ARGUMENTS


def test_accepted_edge_values_are_sealed_and_verify(module_db: TestDatabase, world: World) -> None:
    """What the validators let through (nested 31 levels, 100,000 characters, any script) commits and hashes."""
    details = json.loads(repeat_nested(31))
    with module_db.connect("service") as conn:
        cid = conn.execute("SELECT footnote.customer_overdue('Bergmann Logistik')").fetchone()[0]["call_id"]  # type: ignore[index]
        recorded = conn.execute(
            "SELECT footnote.submit_answer(%s, footnote.compose(ARRAY[%s]::uuid[])->>'answer', ARRAY[%s]::uuid[], %s)",
            ("🙂 ٤٤٧١ \u202eabc — how much?", cid, cid, psycopg.types.json.Jsonb(details))).fetchone()
        assert recorded is not None and recorded[0]["record_id"]
        seq = conn.execute("SELECT seq FROM footnote.receipt(%s)", (recorded[0]["record_id"],)).fetchone()
        assert seq is not None
        assert conn.execute("SELECT ok FROM footnote.verify_digest(%s, %s)",
                            (seq[0], module_db.scalar("SELECT upper(hash) FROM footnote.ledger WHERE seq = %s",
                                                      (seq[0],)))).fetchone() == (True,)
        assert conn.execute("SELECT length(footnote.canonical_json(%s))", (psycopg.types.json.Jsonb(details),)
                            ).fetchone() == (len(json.dumps(details, separators=(",", ":"))),)
    assert module_db.rows("SELECT ok FROM footnote.verify_chain()") == [(True,)]


def test_verify_chain_with_regrade_null_or_false_is_the_chain_check_alone(module_db: TestDatabase) -> None:
    plain = module_db.rows("SELECT ok, records, problem FROM footnote.verify_chain()")
    for regrade in (None, False):
        assert module_db.rows("SELECT ok, records, problem FROM footnote.verify_chain(%s::boolean)", (regrade,),
                              role="auditor") == plain


def repeat_nested(levels: int) -> str:
    return '{"a":' * levels + '"x"' + "}" * levels


@pytest.mark.parametrize("text", ['{"number": "\\u0000"}', '{"number": "\\ud800"}', '{"number": ', "not json",
                                  "[" * 10_000 + "]" * 10_000, '{"number": 1e999999}', "'; DROP TABLE x; --"])
def test_call_with_text_arguments_names_them_when_postgresql_cannot_parse_them(db: TestDatabase, text: str) -> None:
    """What an unadorned literal in psql resolves to: footnote.call(text, text)."""
    before = db.rows(WRITES)
    with db.connect("service") as conn:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.call('invoice', %s::text)", (text,))
        message = caught.value.diag.message_primary or ""
        assert caught.value.sqlstate in ("FN001", "FN002"), (caught.value.sqlstate, message)
        assert "\n" not in message and len(message) < 400
        if caught.value.sqlstate == "FN001":
            assert message.startswith(("invalid argument arguments: is not valid JSON", "invalid argument number",
                                       "invalid argument arguments: must be a JSON object")), message
        # and the literal form, as a psql user types it, goes the same way
        assert conn.execute("SELECT footnote.call('invoice', '{\"number\": \"INV-2026-8812\"}')"
                            ).fetchone()[0]["values"]["number"]["text"] == "INV-2026-8812"
    assert db.rows(WRITES)[0][1:] == before[0][1:]

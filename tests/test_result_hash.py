"""A call's result hash is SHA-256 of the result's jsonb text (docs/hash-spec.md, section 8).

* the hash the call log keeps is over ``result::text``, for results of every kind of operation;
* ``canonical.jsonb_text`` writes PostgreSQL's jsonb text from a parsed value, byte for byte, so an export can be
  checked offline (hundreds of values with keys of every length, escapes, non-ASCII text and exact numbers);
* calls logged before revision 0013 hashed the canonical JSON: after the upgrade their records still verify in
  SQL and in Python, and a result changed behind either kind of hash is named.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

import psycopg

from footnote_pg import canonical, install, ledger
from tests.conftest import TestDatabase
from tests.test_tamper import record, superuser, verdicts

# strings the jsonb text must write as PostgreSQL does (jsonb holds no NUL character)
STRINGS = ["", "plain", "tab\there", "line\nfeed\r\n", "quote \" back \\ slash /", "bell \x07 esc \x1b unit \x1f",
           "del \x7f", "\u2028 line and paragraph \u2029", "ünïcödé €", "emoji 😀 clef 𝄞", "\ufeff bom", "\uffff",
           "ä", "ab", "b", "aa", "é", "z", "id", "uri", "type", "fields", "0", "1.50", "null", '{"hash":"x"}']
NUMBERS = [0, -1, 7, 2**63, -(2**63) - 1, 10**30, Decimal("1.50"), Decimal("-0.0"), Decimal("1E+2"),
           Decimal("1E-7"), Decimal("123456789012345678901234567890.000001"), Decimal("-42.000")]


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice(NUMBERS)
    if kind in (2, 3):
        return rng.choice(STRINGS) + "".join(rng.choice("aßé\n\"\\€😀 x") for _ in range(rng.randrange(3)))
    if kind in (4, 5):
        return {rng.choice(STRINGS) + rng.choice(["", "k", "é", "key"]): _value(rng, depth + 1)
                for _ in range(rng.randrange(6))}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(5))]


def _loose(value: Any) -> str:
    """JSON text of a value as a client might send it (keys in any order, ASCII escapes, exponents kept)."""
    return json.dumps(value, default=str, ensure_ascii=True)


def test_the_call_log_hashes_each_results_jsonb_text(db: TestDatabase) -> None:
    fn = db.client("service")
    calls = [fn.call("customer_overdue", customer="Bergmann Logistik"), fn.call("ar_aging"),
             fn.call("revenue", period="2026-07"), fn.call("list_customers", name_contains="gmbh"),
             fn.call("supplier_payment_facts", supplier="Northwind Supply")]
    for result in calls:
        text, stored = db.rows("SELECT result::text, result_hash FROM footnote.call_log WHERE call_id = %s",
                               (result.call_id,))[0]
        assert canonical.sha256_hex(text) == stored == result.result_hash
        assert canonical.jsonb_text(canonical.loads(text)) == text  # what an offline verifier recomputes
        assert canonical.result_hash_matches(canonical.loads(text), stored)
        assert not canonical.result_hash_matches(canonical.loads(text.replace("erp://", "erp:/")), stored)


def test_jsonb_text_writes_what_postgresql_writes(db: TestDatabase) -> None:
    rng = random.Random(20261203)
    values = [_value(rng) for _ in range(600)]
    values += [{"b": 1, "aa": 2, "é": 3, "ab": 4, "": 5}, {"uri": 1, "id": 2, "type": 3}, [], {}, [[{}]]]
    with db.connect() as conn:
        written = [r[0] for r in conn.execute(
            "SELECT t::jsonb::text FROM unnest(%s::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n",
            ([_loose(v) for v in values],)).fetchall()]
    for value, text in zip(values, written, strict=True):
        assert canonical.jsonb_text(canonical.loads(_loose(value))) == text, value


def test_records_citing_calls_hashed_before_0013_still_verify_and_a_change_is_named(empty_db: TestDatabase) -> None:
    url = empty_db.url
    install.upgrade(url, "0012_names_by_index")
    install.load_sample(url)
    # today's sample also maps a source view that the contract of 0012 does not have (revision 0027 adds it)
    with empty_db.connect() as conn:
        conn.execute("DROP VIEW IF EXISTS footnote_src.supplier_invoice_payments")
    with empty_db.connect("service") as conn:
        record(conn, "before the upgrade", call=True)
    old_text, old_hash = empty_db.rows("SELECT result::text, result_hash FROM footnote.call_log")[0]
    assert canonical.sha256_hex(canonical.canonical_json(canonical.loads(old_text))) == old_hash
    assert canonical.sha256_hex(old_text) != old_hash  # the earlier form
    install.upgrade(url)
    with empty_db.connect("service") as conn:
        record(conn, "after the upgrade", call=True)
    texts = empty_db.rows("SELECT result::text, result_hash FROM footnote.call_log ORDER BY called_at")
    assert canonical.sha256_hex(texts[1][0]) == texts[1][1]  # the new form
    sql, py = verdicts(empty_db, recompute=True)
    assert sql[0] and py.ok, (sql, py)
    assert py.records == 2

    for seq in (2, 1):  # a result changed behind a hash of either form is named (the new form first)
        superuser(empty_db, f"""UPDATE footnote.call_log SET
            result = jsonb_set(result, '{{values,overdue_total,text}}', '"1,00 €"')
            WHERE call_id = (SELECT (operations->0->>'call_id')::uuid FROM footnote.ledger WHERE seq = {seq})""")  # noqa: S608
        sql, py = verdicts(empty_db, recompute=True)
        assert (sql[0], sql[1], sql[2]) == (False, seq, "call_result_changed"), sql
        assert (py.ok, py.first_bad_seq, py.problem) == (False, seq, "call_result_changed"), py
    with psycopg.connect(url) as conn:  # the quick check compares hashes only: both records still pass it
        assert ledger.verify_database(conn).ok

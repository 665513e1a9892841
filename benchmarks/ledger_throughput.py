"""Ledger benchmark: appends per second through the gate, against plain INSERTs; verification speed.

    .venv/bin/python benchmarks/ledger_throughput.py [--records 100000] [--seconds 5]

Prints numbers; asserts nothing. Runs on a throwaway embedded PostgreSQL (or DATABASE_URL, which must be a
superuser URL of an empty database).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import as_role, database  # noqa: E402
from footnote_pg import ledger  # noqa: E402
from footnote_pg.queries import query  # noqa: E402

ANSWER = {"question": "What will revenue be next quarter?",
          "answer": "I can't forecast: footnote-pg reports recorded figures only.",
          "claims": Jsonb([]), "call_ids": [], "outcome": "refusal",
          "details": Jsonb({"reason": "forecast", "route": {"kind": "refusal", "intent": "forecast"}}),
          "template": None, "narration": None}


def run_writers(url: str, writers: int, seconds: float, work: Any, finish: Any = None) -> float:
    """Appends per second of ``writers`` threads, each committing one record per transaction; ``finish(conn)``
    runs after them, within the time (the gate's final seal: a record counts once it is in the chain)."""
    counts = [0] * writers
    stop = time.monotonic() + seconds

    def loop(k: int) -> None:
        with psycopg.connect(url) as conn:
            while time.monotonic() < stop:
                with conn.transaction():
                    work(conn, k)
                counts[k] += 1

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(writers)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if finish is not None:
        with psycopg.connect(url, autocommit=True) as conn:
            finish(conn)
    return sum(counts) / (time.monotonic() - started)


def seal_rest(conn: psycopg.Connection[Any]) -> None:
    """Seal what the writers' COMMITs left queued (they do not wait for a chain lock another COMMIT holds)."""
    conn.execute("SELECT footnote.seal()")


def gate_append(conn: psycopg.Connection[Any], _k: int) -> None:
    conn.execute(query("record_answer"), ANSWER)


def call_and_gate(conn: psycopg.Connection[Any], _k: int) -> None:
    doc = conn.execute("SELECT footnote.call('customer_overdue', '{\"customer\": \"4471\"}')").fetchone()[0]
    v = doc["values"]["overdue_total"]
    answer = f"Bergmann Logistik GmbH owes {v['text']} overdue."
    start = answer.index(v["text"])
    claims = [{"text": v["text"], "span": {"start": start, "end": start + len(v["text"])}, "call_id": doc["call_id"],
               "evidence": v["evidence"]}]
    conn.execute(query("record_answer"), {"question": "How much does Bergmann Logistik owe?", "answer": answer,
                                          "claims": Jsonb(claims), "call_ids": [doc["call_id"]],
                                          "outcome": "answer", "details": None, "template": None,
                                          "narration": None})


# the row the gate appends, its canonical text too (the same members, serialised by the server), with no chain
PLAIN_INSERT = """
    INSERT INTO public.plain_ledger (id, seq, recorded_at, db_role, kind, question, answer, status, claims,
                                     operations, evidence, findings, details, prev_hash, canonical, hash)
    SELECT r.id, r.seq, r.at, session_user, 'answer', %(question)s, %(answer)s, 'refused', '[]', '[]', '[]', '[]',
           %(details)s::jsonb, r.prev, json_build_object(
               'actor', json_build_object('id', NULL, 'role', NULL), 'answer', %(answer)s::text, 'claims', '[]'::json,
               'db_role', session_user, 'decision', NULL, 'details', %(details)s::json, 'evidence', '[]'::json,
               'findings', '[]'::json, 'id', r.id, 'kind', 'answer', 'operations', '[]'::json, 'prev_hash', r.prev,
               'question', %(question)s::text, 'recorded_at', r.at, 'seq', r.seq, 'status', 'refused',
               'version', 1)::text,
           md5(random()::text) || md5(random()::text)
    FROM (SELECT gen_random_uuid() AS id, nextval('public.plain_seq') AS seq, clock_timestamp() AS at,
                 md5(random()::text) || md5(random()::text) AS prev) AS r
"""


def create_plain_ledger(url: str, role: str) -> None:
    """An unchained table shaped like the ledger (``public.plain_ledger``) that ``role`` may insert into."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS public.plain_ledger "
                     "(LIKE footnote.ledger INCLUDING INDEXES INCLUDING CONSTRAINTS)")
        conn.execute("CREATE SEQUENCE IF NOT EXISTS public.plain_seq")
        conn.execute(sql.SQL("GRANT INSERT ON public.plain_ledger TO {role}; GRANT USAGE ON public.plain_seq TO {role}")
                     .format(role=sql.Identifier(role)))


def plain_insert(conn: psycopg.Connection[Any], _k: int) -> None:
    """The row ``gate_append`` records, as a plain INSERT into ``public.plain_ledger``."""
    conn.execute(PLAIN_INSERT, ANSWER)


def fill_chain(url: str, records: int) -> tuple[int, float]:
    """Queue refusals by hand (no gate) until the chain holds ``records``, seal them; (records, seconds)."""
    with psycopg.connect(url, autocommit=True) as conn:
        have = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
        missing = max(0, records - have)
        t0 = time.monotonic()
        conn.execute("SET session_replication_role = replica")  # queue by hand (no gate), then seal as usual
        conn.execute("""
            INSERT INTO footnote.ledger_queue (id, queued_at, db_role, kind, question, answer, status, claims,
                                               operations, evidence, findings)
            SELECT gen_random_uuid(), clock_timestamp(), 'bench', 'answer', 'q' || g, 'answer ' || g, 'refused',
                   '[]', '[]', '[]', '[]'
            FROM generate_series(1, %s) AS g""", (missing,))
        conn.execute("SET session_replication_role = origin")
        conn.execute("SELECT footnote.seal()")
        return missing, time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000, help="chain length for the verification figures")
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each throughput run")
    args = parser.parse_args()

    with database(url=os.environ.get("DATABASE_URL")) as url:
        service = as_role(url, "bench_service")
        create_plain_ledger(url, "bench_service")

        print("## appends per second (one record per transaction)")
        print(f"{'writers':>8} {'record_answer':>14} {'call+record':>12} {'plain INSERT':>13} {'ratio':>6}")
        for writers in (1, 8):
            gated = run_writers(service, writers, args.seconds, gate_append, seal_rest)
            with_call = run_writers(service, writers, args.seconds, call_and_gate, seal_rest)
            plain = run_writers(service, writers, args.seconds, plain_insert)
            print(f"{writers:>8} {gated:>14.0f} {with_call:>12.0f} {plain:>13.0f} {plain / gated:>5.1f}x")

        missing, fill = fill_chain(url, args.records)
        with psycopg.connect(url, autocommit=True) as conn:
            total = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
            print(f"\n(chain filled to {total:,} records in {fill:.1f} s by footnote.seal(): "
                  f"{missing / fill if fill else 0:,.0f} records/s in one transaction)")

            t0 = time.monotonic()
            ok = conn.execute("SELECT ok FROM footnote.verify_chain()").fetchone()[0]
            sql_s = time.monotonic() - t0
            t0 = time.monotonic()
            conn.execute("SELECT * FROM footnote._unbacked_record()").fetchall()
            cross_s = time.monotonic() - t0
        with psycopg.connect(url) as conn:
            t0 = time.monotonic()
            verdict = ledger.verify_database(conn)
            py_s = time.monotonic() - t0
            canon = [r[0].encode() for r in conn.execute("SELECT canonical FROM footnote.ledger ORDER BY seq")]
        t0 = time.monotonic()
        for text in canon:
            hashlib.sha256(text).hexdigest()
        raw_s = time.monotonic() - t0
        print(f"\n## verification of {total:,} records")
        print(f"{'SQL footnote.verify_chain()':<34} {total / sql_s:>10,.0f} records/s  (ok={ok}; of it, the "
              f"records checked against their calls: {cross_s:.2f} s)")
        print(f"{'Python verifier (fetch + canonical)':<34} {total / py_s:>10,.0f} records/s  (ok={verdict.ok})")
        print(f"{'raw hashlib SHA-256, same bytes':<34} {total / raw_s:>10,.0f} records/s")


if __name__ == "__main__":
    main()

"""Regrade benchmark: `footnote-pg verify --regrade` over a long chain of real answers.

    .venv/bin/python benchmarks/regrade.py [--records 100000] [--jobs 1 2]

Asks the questions of QUESTIONS once each (real calls, real gate), then fills the chain to ``--records`` with
copies of those sealed answers (queued by hand, sealed as usual: each copy cites the same calls, which only a
regrade reads, so every copy costs what its original costs; the chain check reports them as replays), and
times the chain check and the regrade the CLI runs, on each ``--jobs`` count. Prints numbers; asserts nothing.
Runs on a throwaway embedded PostgreSQL (or DATABASE_URL, a superuser URL of an empty database).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import as_role, database  # noqa: E402
from footnote_pg import Footnote, ledger  # noqa: E402

# a mix of what a finance team asks: per-customer and per-supplier figures, portfolio figures, a ranking, a
# comparison, a judgement with its facts, a refusal
QUESTIONS = [
    "How much does Bergmann Logistik owe?",
    "Is Bergmann Logistik at risk?",
    "How much does Hansen & Dahl owe?",
    "What do we owe Northwind Supply?",
    "Show AR aging",
    "What is our DSO?",
    "Top 5 customers by revenue last quarter",
    "How did revenue change from Q1 2026 to Q2 2026?",
    "Which items are below their reorder level?",
    "What will revenue be next quarter?",
]


def fill(url: str, records: int, most_evidence: int | None = None) -> None:
    """Copies of the sealed answers (those citing at most ``most_evidence`` rows), in turn, until the chain holds
    ``records``."""
    with psycopg.connect(url, autocommit=True) as conn:
        have = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
        conn.execute("SET session_replication_role = replica")  # queue by hand (no gate), then seal as usual
        conn.execute("""
            INSERT INTO footnote.ledger_queue (id, queued_at, db_role, actor_id, actor_role, kind, question, answer,
                                               status, claims, operations, evidence, findings, decision, details)
            SELECT gen_random_uuid(), clock_timestamp(), l.db_role, l.actor_id, l.actor_role, l.kind, l.question,
                   l.answer, l.status, l.claims, l.operations, l.evidence, l.findings, l.decision, l.details
            FROM generate_series(1, %s) AS g
            JOIN (SELECT *, row_number() OVER (ORDER BY seq) - 1 AS k, count(*) OVER () AS n FROM footnote.ledger
                  WHERE jsonb_array_length(evidence) <= coalesce(%s, jsonb_array_length(evidence))) AS l
              ON l.k = g %% l.n""", (max(0, records - have), most_evidence))
        conn.execute("SET session_replication_role = origin")
        conn.execute("SELECT footnote.seal()")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000, help="chain length")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, os.cpu_count() or 1],
                        help="connections grading at once (each count is one run)")
    parser.add_argument("--mix", choices=["all", "entity"], default="all",
                        help="copy every answer, or only those citing at most 100 rows (no portfolio answer: AR "
                             "aging, DSO and a revenue change cite hundreds, which makes a chain of 100,000 about "
                             "ten gigabytes)")
    args = parser.parse_args()

    with database(url=os.environ.get("DATABASE_URL")) as url:
        service = as_role(url, "bench_service")
        print("## one regrade per answer (median of 5)")
        with Footnote(service, min_size=1, max_size=1, actor="bench") as fn:
            for q in QUESTIONS:
                fn.ask(q)
        with psycopg.connect(url, autocommit=True) as conn:
            for seq, question, status, evidence in conn.execute(
                    "SELECT seq, question, status, jsonb_array_length(evidence) FROM footnote.ledger ORDER BY seq"
            ).fetchall():
                times = []
                for _ in range(5):
                    t0 = time.perf_counter()
                    conn.execute("SELECT * FROM footnote.regrade(%s, %s)", (seq, seq)).fetchone()
                    times.append(time.perf_counter() - t0)
                print(f"{sorted(times)[2] * 1e3:8.1f} ms  {status:<22} {evidence:>4} evidence  {question}")
        t0 = time.perf_counter()
        fill(url, args.records, 100 if args.mix == "entity" else None)
        with psycopg.connect(url, autocommit=True) as conn:
            total = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
        print(f"\n(chain filled to {total:,} records, copies of {args.mix} answers, in "
              f"{time.perf_counter() - t0:,.0f} s)")
        with psycopg.connect(url) as conn:
            t0 = time.perf_counter()
            verdict = ledger.verify_database(conn)
            check = time.perf_counter() - t0
        # the copies cite the calls of their originals, which the chain check reports (a call backs one accepted
        # record); grading them again is the same work as grading answers that cite calls of their own
        print(f"## `footnote-pg verify --regrade` over {total:,} records")
        print(f"chain and calls (verify without --regrade): {check:,.1f} s ({verdict.problem or 'intact'})")
        intact = ledger.Verdict(True, verdict.records, verdict.head_seq, verdict.head_hash)
        for jobs in args.jobs:
            t0 = time.perf_counter()
            graded = ledger.regrade(lambda: psycopg.connect(url), intact, jobs)
            seconds = time.perf_counter() - t0
            print(f"--regrade --jobs {jobs}: {seconds:,.1f} s ({total / seconds:,.0f} records/s; "
                  f"{seconds / 60:,.1f} min); {graded.detail or 'every answer graded as sealed'}", flush=True)

if __name__ == "__main__":
    main()

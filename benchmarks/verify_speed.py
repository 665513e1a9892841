"""Verification speed: the Python verifier against raw SHA-256 over the same canonical bytes.

    .venv/bin/python benchmarks/verify_speed.py [--records 100000] [--reference] [--workers N]

Fills a ledger with records of about 7.5 KB (claims, evidence rows with non-ASCII text, escapes, a JSON
decimal), sealed by footnote.seal(), then times: raw hashlib SHA-256 over the stored canonical bytes (in
memory), the chain pass over those bytes in memory, the chain pass and the full check (chain + every record's
canonical bytes against its columns + the calls) from the database and from an exported bundle, the full
check once more in one process (no worker processes: footnote_pg.parallel), and with --reference the
reference path (canonical_json per record). Client CPU is this process's and its workers'; server CPU the
backend's. Prints numbers; asserts nothing. Runs on a throwaway embedded PostgreSQL (or DATABASE_URL, a
superuser URL of an empty database or one this benchmark filled before).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import database  # noqa: E402
from footnote_pg import chainwalk, ledger, parallel  # noqa: E402

FILL = """
INSERT INTO footnote.ledger_queue (id, queued_at, db_role, actor_id, actor_role, kind, question, answer, status,
                                   claims, operations, evidence, findings, decision, details)
SELECT gen_random_uuid(), clock_timestamp(), 'bench_service', 'analyst-' || (g % 7), 'analyst', 'answer',
       format('How much does customer %s owe? "Müller & Söhne" – overdue since Q%s?', g, g % 4 + 1),
       format(E'Customer %s owes %s,%s € overdue across %s invoices.\\nThe oldest, INV-2026-%s, is %s days '
              'past due; two tickets are open (one “high”). Amounts are as of 2026-08-14.\\t— ', g, g % 90000,
              lpad((g % 100)::text, 2, '0'), g % 9 + 1, 8800 + g % 200, g % 120),
       'verified',
       (SELECT jsonb_agg(jsonb_build_object(
            'text', format('%s,%s €', (g * k) % 50000, lpad((k * 7 % 100)::text, 2, '0')),
            'span', jsonb_build_object('start', k * 40, 'end', k * 40 + 11),
            'call_id', md5(g::text || 'c' || k)::uuid::text,
            'evidence', jsonb_build_array('invoice:' || (g * 13 + k), 'customer:' || g % 5000),
            'origin', 'template', 'verdict', 'grounded', 'reason', NULL,
            'value', jsonb_build_object(
                'kind', 'amount', 'raw', ((g * k) % 50000)::text || '.' || lpad((k * 7 % 100)::text, 2, '0'),
                'text', format('%s,%s €', (g * k) % 50000, lpad((k * 7 % 100)::text, 2, '0')))))
        FROM generate_series(1, 10) AS k),
       '[]',
       (SELECT jsonb_agg(jsonb_build_object(
            'id', 'invoice:' || (g * 13 + k), 'type', 'invoice', 'record_id', (g * 13 + k)::text,
            'uri', format('erp://invoices/%s', g * 13 + k), 'verified', k % 5 <> 0,
            'fields', jsonb_build_object('amount', ((g + k) % 30000)::text || '.50', 'due_on', '2026-05-02',
                                         'customer', format('Bergmann Logistik GmbH – Zweigstelle Köln %s', k),
                                         'days_past_due', 100 + k, 'open', format('%s,50 €', (g + k) % 30000),
                                         'note', E'line 1\\nline 2 \\\\ "quoted" \\u2028')))
        FROM generate_series(1, 13) AS k),
       jsonb_build_array(jsonb_build_object('code', 'source_unverified', 'severity', 'info',
                                            'message', 'evidence row 5 is not verified in the source', 'row', 5)),
       NULL,
       jsonb_build_object('route', jsonb_build_object('kind', 'answer', 'intent', 'customer_overdue',
                                                      'score', 0.875),
                          'narration', jsonb_build_object('offered', true, 'kept', false, 'status', 'grounded'),
                          'notes', E'emoji 😀, tab\\t, bell \\u0007, del \\u007f',
                          'counts', jsonb_build_array(1, 2, 3, -4))
FROM generate_series(1, {n}) AS g
"""


def _fill(conn: psycopg.Connection[Any]) -> str:
    """FILL, its records of hash version 2 (a salt per part, as the gate writes them) where the schema has it."""
    if conn.execute("SELECT to_regprocedure('footnote._new_salts(text, text, jsonb, jsonb, jsonb, jsonb, jsonb, "
                    "jsonb)')").fetchone()[0] is None:  # type: ignore[index]
        return FILL
    head, select = FILL.split("SELECT", 1)
    return (head.replace("decision, details)", "decision, details, salts)")
            + "SELECT x.id, x.queued_at, x.db_role, x.actor_id, x.actor_role, x.kind, x.question, x.answer, x.status, "
              "x.claims::jsonb, x.operations::jsonb, x.evidence::jsonb, x.findings::jsonb, x.decision::jsonb, "
              "x.details::jsonb, footnote._new_salts(x.question, x.answer, x.claims::jsonb, x.operations::jsonb, "
              "x.evidence::jsonb, x.findings::jsonb, x.decision::jsonb, x.details::jsonb) FROM (SELECT" + select + ") AS x(id, queued_at, db_role, actor_id, actor_role, "
              "kind, question, answer, status, claims, operations, evidence, findings, decision, details)")


def fill(url: str, records: int) -> None:
    """Add records until the ledger has ``records`` (queued by hand without the gate, then sealed as usual)."""
    with psycopg.connect(url, autocommit=True) as conn:
        have = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
        t0 = time.monotonic()
        while have < records:
            n = min(20_000, records - have)
            with conn.transaction():
                conn.execute("SET LOCAL session_replication_role = replica")
                conn.execute(sql.SQL(_fill(conn)).format(n=sql.Literal(n)))
            conn.execute("SELECT footnote.seal()")
            have += n
            print(f"  sealed {have:,} records ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
        size = conn.execute("SELECT avg(octet_length(canonical)) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
    print(f"{have:,} records, {float(size):,.0f} bytes of canonical text each on average")


def _cpu(pid: int | None) -> float:
    """CPU seconds of a local process (the server backend), 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _client_cpu() -> float:
    """CPU seconds of this process and of its children that ended (the verifier's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(run: Callable[[], Any], pid: int | None = None) -> tuple[float, float, float, Any]:
    """Wall seconds, the client's CPU seconds (with its workers), the server backend's CPU seconds, the result."""
    server, cpu, wall = _cpu(pid), _client_cpu(), time.perf_counter()
    result = run()
    return time.perf_counter() - wall, _client_cpu() - cpu, _cpu(pid) - server, result


@contextlib.contextmanager
def one_process() -> Iterator[None]:
    """The verifier without worker processes."""
    threshold, parallel.THRESHOLD = parallel.THRESHOLD, 2**62
    try:
        yield
    finally:
        parallel.THRESHOLD = threshold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000, help="chain length (2000 for a quick look)")
    parser.add_argument("--reference", action="store_true", help="also time the reference path (slow)")
    parser.add_argument("--workers", type=int, help="worker processes for the full check (default: one per core, "
                                                    "none on one core)")
    args = parser.parse_args()
    parallel.WORKERS = args.workers

    with database(url=os.environ.get("DATABASE_URL")) as url:
        fill(url, args.records)
        with psycopg.connect(url) as conn:
            texts = [(sealed, stored) for _seq, stored, sealed in ledger.sealed_texts(conn)]
        total = len(texts)
        megabytes = sum(len(t) for t, _ in texts) / 1e6
        rows: list[tuple[str, float, float, float, str]] = []

        def add(what: str, wall: float, cpu: float, server: float, verdict: Any) -> None:
            ok = verdict.line().split(":")[0] if isinstance(verdict, ledger.Verdict) else "-"
            rows.append((what, wall, cpu, server, ok))

        def raw(texts: list[tuple[bytes, str]]) -> None:
            for text, _stored in texts:
                hashlib.sha256(text).hexdigest()

        def in_memory(texts: list[tuple[bytes, str]]) -> ledger.Verdict:
            walk = chainwalk.Walk()
            for text, stored in texts:
                walk.count += 1
                problem = chainwalk.chain_text(text, stored, walk)
                if problem is not None:
                    return walk.verdict(problem)
            return walk.verdict()

        wall, cpu, _, _ = timed(lambda: raw(texts))
        add("raw hashlib SHA-256 over the canonical bytes", wall, cpu, 0.0, None)
        add("chain pass over the same bytes in memory", *timed(lambda: in_memory(texts)))
        texts.clear()

        def from_db(**kwargs: Any) -> Callable[[], tuple[float, float, float, Any]]:
            def run() -> tuple[float, float, float, Any]:
                with psycopg.connect(url, autocommit=False) as conn:
                    pid = conn.info.backend_pid
                    return timed(lambda: ledger.verify_database(conn, **kwargs), pid)
            return run

        add("chain pass from the database", *from_db(content=False)())
        add("full check from the database", *from_db()())
        with one_process():
            add("full check from the database, one process", *from_db()())
        with tempfile.TemporaryDirectory(prefix="footnote-bench-") as tmp:
            bundle = Path(tmp) / "ledger.jsonl"
            with psycopg.connect(url, autocommit=False) as conn:
                export_wall, _, _, _ = timed(lambda: ledger.export_bundle(conn, bundle))
            add("chain pass from a bundle", *timed(lambda: ledger.verify_bundle(bundle, content=False)))
            add("full check from a bundle", *timed(lambda: ledger.verify_bundle(bundle)))
            with one_process():
                add("full check from a bundle, one process", *timed(lambda: ledger.verify_bundle(bundle)))
            if args.reference:
                add("reference path from the database", *from_db(reference=True)())
                add("reference path from a bundle", *timed(lambda: ledger.verify_bundle(bundle, reference=True)))
            tracemalloc.start()
            ledger.verify_bundle(bundle)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            bundle_mb = bundle.stat().st_size / 1e6

    raw_rate = total / rows[0][1]
    print(f"\n## verification of {total:,} records ({megabytes:,.0f} MB of canonical text)")
    print(f"{'what':<46} {'records/s':>10} {'x raw':>6} {'s':>7} {'client µs/rec':>14} {'server µs/rec':>14}  verdict")
    for what, wall, cpu, server, ok in rows:
        rate = total / wall
        print(f"{what:<46} {rate:>10,.0f} {rate / raw_rate:>6.2f} {wall:>7.2f} {cpu / total * 1e6:>14.1f} "
              f"{server / total * 1e6 if server else float('nan'):>14.1f}  {ok}")
    print(f"\nexport of the bundle ({bundle_mb:,.0f} MB): {total / export_wall:,.0f} records/s; full check of it: "
          f"peak Python memory {peak / 1e6:.1f} MB (tracemalloc)")


if __name__ == "__main__":
    main()

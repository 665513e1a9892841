"""Merkle tree benchmark: extending the tree over 1,000,000 records; proof sizes and times at 1k to 1M.

    .venv/bin/python benchmarks/merkle_proofs.py [--records 1000000] [--proofs 200]

Fills footnote.ledger with ``--records`` rows as a superuser (session_replication_role = replica, one
INSERT ... SELECT over generate_series with a computed hash: the tree needs the hashes, not a valid chain),
times footnote._merkle_extend() over all of them, then for trees of 1,000, 10,000, 100,000 and 1,000,000
records: the hashes and bytes of inclusion and consistency proofs, the database's time to give one
(round trip) and the Python verifier's time to check one. Prints numbers; asserts nothing. Runs on a
throwaway embedded PostgreSQL (or DATABASE_URL, a superuser URL of an empty database).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import database, percentile  # noqa: E402
from footnote_pg import canonical, merkle  # noqa: E402
from footnote_pg.queries import query  # noqa: E402

SIZES = (1_000, 10_000, 100_000, 1_000_000)


def fill(conn: psycopg.Connection[Any], records: int) -> float:
    t0 = time.monotonic()
    conn.execute("SET session_replication_role = replica")
    conn.execute("""
        INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, kind, status, claims, operations, evidence,
                                     findings, prev_hash, canonical, hash)
        SELECT gen_random_uuid(), s, clock_timestamp(), 'bench', 'answer', 'refused', '[]', '[]', '[]', '[]',
               CASE WHEN s = 1 THEN repeat('0', 64) ELSE encode(sha256(('record ' || (s - 1))::bytea), 'hex') END,
               '', encode(sha256(('record ' || s)::bytea), 'hex')
        FROM generate_series((SELECT coalesce(max(seq), 0) + 1 FROM footnote.ledger), %s) AS s""", (records,))
    conn.execute("SET session_replication_role = origin")
    conn.execute("VACUUM ANALYZE footnote.ledger")
    return time.monotonic() - t0


def timed(conn: psycopg.Connection[Any], statement: Any, params: dict[str, Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    row = conn.execute(statement, params).fetchone()
    return (row[0] if row else None), (time.perf_counter() - t0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1_000_000, help="ledger rows (the largest tree)")
    parser.add_argument("--proofs", type=int, default=200, help="proofs of each kind per tree size")
    args = parser.parse_args()
    sizes = [s for s in SIZES if s <= args.records] or [args.records]
    rng = random.Random(6962)

    with database(url=os.environ.get("DATABASE_URL")) as url:
        with psycopg.connect(url, autocommit=True) as conn:
            filled = fill(conn, args.records)
            print(f"ledger filled with {args.records:,} rows in {filled:.1f} s (superuser, triggers off)")

            t0 = time.monotonic()
            conn.execute("SELECT footnote._merkle_extend()")
            extend_s = time.monotonic() - t0
            nodes = conn.execute("SELECT count(*), pg_total_relation_size('footnote.merkle_nodes') "
                                 "FROM footnote.merkle_nodes").fetchone()
            assert nodes is not None
            print(f"\n## footnote._merkle_extend() over {args.records:,} new leaves")
            print(f"{extend_s:.1f} s: {nodes[0]:,} nodes, {nodes[1] / 2**20:.0f} MiB with the index "
                  f"({args.records / extend_s:,.0f} leaves/s)")
            for more in (1, 1_000):
                fill(conn, args.records + more)
                _, ms = timed(conn, query("tree_head"), {"tree_size": None})
                print(f"tree head after {more:,} more record{'s' if more > 1 else ''} (extends, then the root): "
                      f"{ms:.1f} ms")
                args.records += more

            hashes = {}
            print(f"\n## proofs ({args.proofs} of each kind per size; times p50 / p99; bytes: raw hashes and the "
                  "proof's canonical JSON)")
            print(f"{'tree size':>10} | {'inclusion: hashes':>17} {'bytes':>12} {'SQL ms':>12} {'verify µs':>12} | "
                  f"{'consistency: hashes':>19} {'bytes':>12} {'SQL ms':>12} {'verify µs':>12}")
            for size in sizes:
                root = bytes.fromhex(conn.execute(query("tree_head"), {"tree_size": size}).fetchone()[1])
                seqs = [rng.randint(1, size) for _ in range(args.proofs)]
                for seq, h in conn.execute("SELECT seq, hash FROM footnote.ledger WHERE seq = ANY(%s)", (seqs,)):
                    hashes[seq] = h
                inc: dict[str, list[float]] = {"len": [], "json": [], "sql": [], "verify": []}
                for seq in seqs:
                    proof, ms = timed(conn, query("inclusion_proof"), {"seq": seq, "tree_size": size})
                    path = merkle.parse_path(proof["path"]) or []
                    leaf = merkle.leaf_hash(hashes[seq])
                    t0 = time.perf_counter()
                    ok = merkle.verify_inclusion(leaf, seq - 1, size, path, root)
                    inc["verify"].append((time.perf_counter() - t0) * 1e6)
                    assert ok, (seq, size, ok.reason)
                    inc["len"].append(len(path))
                    inc["json"].append(len(canonical.canonical_json(proof)))
                    inc["sql"].append(ms)
                con: dict[str, list[float]] = {"len": [], "json": [], "sql": [], "verify": []}
                for old in [rng.randint(1, size) for _ in range(args.proofs)]:
                    proof, ms = timed(conn, query("consistency_proof"), {"old_size": old, "new_size": size})
                    path = merkle.parse_path(proof["path"]) or []
                    t0 = time.perf_counter()
                    ok = merkle.verify_consistency(old, size, bytes.fromhex(proof["old_root"]), root, path)
                    con["verify"].append((time.perf_counter() - t0) * 1e6)
                    assert ok, (old, size, ok.reason)
                    con["len"].append(len(path))
                    con["json"].append(len(canonical.canonical_json(proof)))
                    con["sql"].append(ms)

                def cols(m: dict[str, list[float]], width: int) -> str:
                    n = f"{statistics.mean(m['len']):.1f} (max {max(m['len']):.0f})"
                    size_b = f"{32 * max(m['len']):.0f} / {max(m['json']):.0f}"
                    sql_t = f"{percentile(m['sql'], 50):.2f} / {percentile(m['sql'], 99):.2f}"
                    ver = f"{percentile(m['verify'], 50):.0f} / {percentile(m['verify'], 99):.0f}"
                    return f"{n:>{width}} {size_b:>12} {sql_t:>12} {ver:>12}"

                print(f"{size:>10,} | {cols(inc, 17)} | {cols(con, 19)}")


if __name__ == "__main__":
    main()

"""Retention at scale: a prune over a long chain and a verify from its checkpoint.

    .venv/bin/python -m benchmarks --prune [--records 100000]
    .venv/bin/python benchmarks/prune_speed.py [--records 100000]

Fills a ledger with records of about 7.5 KB (as benchmarks/verify_speed.py does, hash version 2), verifies it
(SQL verify_chain and the Python verifier), sets retention_days.answers = 0 and prunes every record as a login of
footnote_redactor (footnote.prune: every part replaced by its commitment, the checkpoint taken, a prune record
appended), then verifies again, now from the checkpoint. Prints records per second for each; asserts nothing.
Runs on a throwaway embedded PostgreSQL (or DATABASE_URL, a superuser URL of an empty database).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import as_role, database  # noqa: E402
from benchmarks.verify_speed import fill  # noqa: E402
from footnote_pg import ledger  # noqa: E402

PRUNER = "footnote_bench_pruner"


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    wall = time.perf_counter()
    result = run()
    return time.perf_counter() - wall, result


def run(url: str, records: int) -> list[tuple[str, int, float, str]]:
    """(what, records, seconds, outcome) for: both verifiers before, the prune, both verifiers from the checkpoint."""
    fill(url, records)
    with psycopg.connect(url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (PRUNER,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN IN ROLE footnote_redactor").format(sql.Identifier(PRUNER)))
        conn.execute("SELECT footnote.seal()")
        conn.execute("UPDATE footnote.settings SET value = '0' WHERE key = 'retention_days.answers'")
        total = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()[0]  # type: ignore[index]
    rows: list[tuple[str, int, float, str]] = []

    def verify(when: str) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            wall, got = _timed(lambda: conn.execute("SELECT ok, detail FROM footnote.verify_chain()").fetchone())
        rows.append((f"verify_chain() (SQL) {when}", total, wall, f"ok={got[0]} {got[1] or ''}".strip()))
        with psycopg.connect(url) as conn:
            wall, verdict = _timed(lambda: ledger.verify_database(conn))
        rows.append((f"Python verifier {when}", total, wall, verdict.line()))

    verify("before the prune")
    with psycopg.connect(as_role(url, PRUNER), autocommit=True) as conn:
        with conn.transaction():
            wall, got = _timed(lambda: conn.execute(
                "SELECT records, parts, calls, cut FROM footnote.prune()").fetchone())
    rows.append(("footnote.prune() (retention_days.answers = 0)", got[0], wall,
                 f"{got[0]:,} records, {got[1]:,} parts, cut {got[3]}"))
    total += 1  # the prune record
    verify("from the checkpoint")
    return rows


def markdown(rows: list[tuple[str, int, float, str]]) -> str:
    lines = ["| what | records | seconds | records/s | outcome |", "|---|---:|---:|---:|---|"]
    for what, n, wall, outcome in rows:
        lines.append(f"| {what} | {n:,} | {wall:.1f} | {n / wall:,.0f} | {outcome} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000, help="chain length (2000 for a quick look)")
    args = parser.parse_args(argv)
    with database(url=os.environ.get("DATABASE_URL")) as url:
        rows = run(url, args.records)
    print(markdown(rows))


if __name__ == "__main__":
    main()

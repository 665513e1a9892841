"""Time AR aging and per-customer questions on two footnote-pg databases (medians of repeated calls).

    python -m tests.ledgersmb.timing URL [URL ...]

Each URL names a database with footnote-pg installed and mapped (a LedgerSMB company grown by
tests/ledgersmb/scale.py, the sample ERP installed with --sample --invoices N). The customer asked about is the one
with the most invoices. Run with PGOPTIONS="-c jit=off" to time without PostgreSQL's JIT compilation.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from footnote_pg.client import Footnote


def median_ms(work: Callable[[], Any], runs: int) -> float:
    work()  # warm
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def timings(fn: Footnote, uri: str, name: str) -> list[tuple[str, float]]:
    return [("ar_aging", median_ms(lambda: fn.call("ar_aging"), 5)),
            ("customer_overdue", median_ms(lambda: fn.call("customer_overdue", customer=uri), 7)),
            ("customer_profile", median_ms(lambda: fn.call("customer_profile", customer=uri), 7)),
            ("ask: What is our AR aging?", median_ms(lambda: fn.ask("What is our AR aging?"), 3)),
            (f"ask: What is overdue for {name}?", median_ms(lambda: fn.ask(f"What is overdue for {name}?"), 3))]


def main(urls: list[str]) -> int:
    if not urls:
        print("usage: python -m tests.ledgersmb.timing URL [URL ...]", file=sys.stderr)
        return 2
    for url in urls:
        fn = Footnote(url)
        with fn.transaction() as conn:
            uri, name, count = conn.execute(
                "SELECT c.uri, c.name, count(*) FROM footnote_src.customers AS c JOIN footnote_src.invoices AS i "
                "ON i.customer_id = c.id GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1").fetchone()  # type: ignore[misc]
            invoices = conn.execute("SELECT count(*) FROM footnote_src.invoices").fetchone()[0]  # type: ignore[index]
        print(f"{url}: {invoices} invoices; {name} has {count}")
        for label, ms in timings(fn, uri, name):
            print(f"  {label:<50} {ms:9.1f} ms")
        fn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

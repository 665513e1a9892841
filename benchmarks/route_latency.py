"""Latency of footnote_pg.question.route over every question file (tests/questions*.toml).

    .venv/bin/python benchmarks/route_latency.py [--rounds 200] [--questions FILE ...]

The directory comes from the database when DATABASE_URL is set (list_customers,
list_suppliers, list_items as the service would call them), else from the
sample generator's hand-written names in sql/sample/20_generate.sql (the same
56 customers, 15 suppliers and 80 items the sample database holds). Prints
p50, p99 and max in microseconds; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from footnote_pg.question import Directory, RouterSettings, route  # noqa: E402

_STRING = r"'((?:[^']|'')*)'"


def sample_directory(path: Path = ROOT / "sql" / "sample" / "20_generate.sql") -> Directory:
    """Customers, suppliers and items as the sample generator writes them (sorted like list_*)."""
    sql = path.read_text(encoding="utf-8")
    customers_block = sql[sql.index("WITH hand (k, name"):sql.index("slot AS (")]
    customers = [m.group(1).replace("''", "'") for m in
                 re.finditer(rf"\(\d+,\s+{_STRING},\s+'[A-Z]{{2}}'", customers_block)]
    customers.append("Bergmann Logistik GmbH")
    start = sql.index("WITH hand (id, name")
    suppliers_block = sql[start:sql.index("syn AS (", start)]
    suppliers = [m.group(1).replace("''", "'") for m in
                 re.finditer(rf"\(\d+(?:::bigint)?,\s+{_STRING},\s+'[A-Z]{{2}}'", suppliers_block)]
    items_block = sql[sql.index("INSERT INTO erp.items"):sql.index(") AS x (n, name")]
    items = [(f"SKU-{10000 + int(m.group(1))}", m.group(2).replace("''", "'"))
             for m in re.finditer(rf"\((\d+),\s+{_STRING},\s+'\w+'", items_block)]
    return Directory(customers=tuple(sorted(customers, key=str.casefold)),
                     suppliers=tuple(sorted(suppliers, key=str.casefold)),
                     items=tuple(sorted(items, key=lambda i: i[1].casefold())))


def database_directory(url: str) -> Directory:
    from footnote_pg import Footnote

    with Footnote(url, min_size=1, max_size=1) as fn:
        return Directory.load(fn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--questions", type=Path, nargs="+",
                        default=sorted((ROOT / "tests").glob("questions*.toml")))
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    directory = database_directory(url) if url else sample_directory()
    settings = RouterSettings(as_of=dt.date(2026, 8, 14))
    questions = [q["text"] for path in args.questions
                 for q in tomllib.loads(path.read_text(encoding="utf-8"))["q"]]
    for text in questions:                      # warm-up: build the indexes, compile nothing later
        route(text, directory, settings)
    samples: list[float] = []
    for _ in range(args.rounds):
        for text in questions:
            t0 = time.perf_counter_ns()
            route(text, directory, settings)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    samples.sort()
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"directory: {len(directory.customers)} customers, {len(directory.suppliers)} suppliers, "
          f"{len(directory.items)} items ({'DATABASE_URL' if url else 'sample generator'})")
    print(f"route(): {len(questions)} questions x {args.rounds} rounds = {len(samples)} calls")
    print(f"p50 {p50:.1f} us   p99 {p99:.1f} us   max {samples[-1]:.1f} us")


if __name__ == "__main__":
    main()

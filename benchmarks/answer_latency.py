"""Answer latency: route time, and question -> recorded answer, p50 and p99, warm pool.

    .venv/bin/python benchmarks/answer_latency.py [--rounds 50]

Prints numbers; asserts nothing. Embedded PostgreSQL with the sample ERP (or DATABASE_URL).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import as_role, database, percentile  # noqa: E402
from footnote_pg import Footnote  # noqa: E402
from footnote_pg.answers import Answerer  # noqa: E402

DEMO = ["How much does Bergmann owe?", "Is Bergmann Logistik at risk?", "Show AR aging",
        "How much does Acme Corporation owe?", "What will revenue be next quarter?",
        "How much does Bergmann Logistik owe?"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    with database(url=os.environ.get("DATABASE_URL")) as url:
        with Footnote(as_role(url, "bench_service") if not os.environ.get("DATABASE_URL") else url,
                      min_size=2, max_size=2, actor="bench") as fn:
            answerer = Answerer(fn)
            for q in DEMO:  # warm: pool, directory, plans
                fn.ask(q)
            print(f"{'question':<40} {'route p50':>10} {'route p99':>10} {'answer p50':>11} {'answer p99':>11}  status")
            for q in DEMO:
                routes, answers = [], []
                status = ""
                for _ in range(args.rounds):
                    t0 = time.perf_counter()
                    answerer.route(q)
                    routes.append((time.perf_counter() - t0) * 1e6)
                    t0 = time.perf_counter()
                    status = fn.ask(q).status
                    answers.append((time.perf_counter() - t0) * 1e3)
                print(f"{q:<40} {percentile(routes, 50):>8.0f}µs {percentile(routes, 99):>8.0f}µs "
                      f"{percentile(answers, 50):>9.1f}ms {percentile(answers, 99):>9.1f}ms  {status}")


if __name__ == "__main__":
    main()

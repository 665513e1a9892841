"""What grading costs in PostgreSQL: record_answer for the template, a narration, an agent's own text.

    .venv/bin/python benchmarks/gate_cost.py [--rounds 300]

Prints p50 and p90 of the server round trip of each statement (the catalog call and the commit are
outside the timing; each round rolls back, so the ledger does not grow). Asserts nothing. Embedded
PostgreSQL with the sample ERP, or DATABASE_URL.
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
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import database, percentile  # noqa: E402
from footnote_pg.queries import query  # noqa: E402

QUESTION = "How much does Bergmann Logistik owe?"
TEMPLATE = {"intent": "overdue", "notes": {}}


def _narrate(text: str) -> str:
    return "Sure — " + text.replace(" owes ", " currently owes ").replace("Bergmann Logistik GmbH", "Bergmann Logistik")


def measure(
    conn: psycopg.Connection[Any], rounds: int, statement: Callable[[dict[str, Any], str], None]
) -> list[float]:
    times = []
    for _ in range(rounds):
        call = conn.execute(
            query("call"), {"operation": "customer_overdue", "arguments": Jsonb({"customer": "Bergmann Logistik"})}
        ).fetchone()
        assert call is not None
        call_id = call[0]["call_id"]
        composed = conn.execute(
            query("compose"), {"call_ids": [call_id], "intent": "overdue", "notes": Jsonb({}), "question": QUESTION}
        ).fetchone()
        assert composed is not None
        t0 = time.perf_counter()
        statement(composed[0], call_id)
        times.append((time.perf_counter() - t0) * 1000)
        conn.rollback()
    return times[rounds // 5 :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    with database(url=os.environ.get("DATABASE_URL")) as url, psycopg.connect(url) as conn:

        def record(narration: bool) -> Callable[[dict[str, Any], str], None]:
            def run(t: dict[str, Any], call_id: str) -> None:
                conn.execute(
                    query("record_answer"),
                    {
                        "question": QUESTION,
                        "answer": t["answer"],
                        "claims": Jsonb(t["claims"]),
                        "call_ids": [call_id],
                        "outcome": "answer",
                        "details": None,
                        "template": Jsonb(TEMPLATE),
                        "narration": _narrate(t["answer"]) if narration else None,
                    },
                ).fetchone()

            return run

        def compose(t: dict[str, Any], call_id: str) -> None:
            conn.execute(
                query("compose"), {"call_ids": [call_id], "intent": "overdue", "notes": Jsonb({}), "question": QUESTION}
            ).fetchone()

        def submit(t: dict[str, Any], call_id: str) -> None:
            conn.execute(
                query("submit_answer"),
                {"question": QUESTION, "answer": _narrate(t["answer"]), "call_ids": [call_id], "details": None},
            ).fetchone()

        print(f"{'statement (Bergmann Logistik overdue, 21 figures)':<58} {'p50':>8} {'p90':>8}")
        for label, work in (
            ("compose (the template, in SQL)", compose),
            ("record_answer, the template's own text", record(False)),
            ("record_answer with a narration (graded, kept)", record(True)),
            ("submit_answer, an agent's own text", submit),
        ):
            times = measure(conn, args.rounds, work)
            print(f"{label:<58} {percentile(times, 50):>6.2f}ms {percentile(times, 90):>6.2f}ms")


if __name__ == "__main__":
    main()

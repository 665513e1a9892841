"""One answer end to end: round trips, statements, time waiting for the server vs time in Python, hot functions.

    .venv/bin/python benchmarks/answer_profile.py [--rounds 50] [--profile] [QUESTION ...]

Round trips and statements are read from libpq's own protocol trace of the pooled connection (every message
the client sends and receives); the time waiting for the server is the time psycopg spends in its wait loop.
Prints numbers; asserts nothing. Embedded PostgreSQL with the sample ERP (or DATABASE_URL).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import as_role, database, percentile  # noqa: E402
from footnote_pg import Footnote  # noqa: E402

QUESTIONS = ("How much does Bergmann Logistik owe?", "What is our AR aging?")


@dataclass(frozen=True)
class Turn:
    """One round trip: the statements sent in it and the time until the last reply arrived."""

    statements: tuple[str, ...]
    ms: float


@dataclass(frozen=True)
class Wire:
    """What one answer sent over the wire."""

    turns: tuple[Turn, ...]

    @property
    def round_trips(self) -> int:
        return len(self.turns)

    @property
    def statements(self) -> int:  # simple queries and extended-protocol executions, the pool's health checks too
        return sum(len(t.statements) for t in self.turns)


def _trace_lines(text: str) -> Iterator[tuple[dt.datetime, str, str, str]]:
    """(time, direction, message type, the rest) per message of a libpq trace with timestamps."""
    for line in text.splitlines():
        parts = line.split("\t", 4)
        if len(parts) >= 4 and parts[1] in ("F", "B"):
            yield (dt.datetime.strptime(parts[0], "%Y-%m-%d %H:%M:%S.%f"), parts[1], parts[3],
                   parts[4].strip() if len(parts) > 4 else "")


def wire_of(trace: str) -> Wire:
    """Round trips and statements in a libpq trace (``PQtrace``): a round trip starts where the client speaks
    after the server did."""
    turns: list[Turn] = []
    texts: list[str] = []
    parsed = ""
    started = ended = None
    last = "B"
    for at, direction, kind, rest in _trace_lines(trace):
        if direction == "F" and last == "B":
            if started is not None and ended is not None:
                turns.append(Turn(tuple(texts), (ended - started).total_seconds() * 1e3))
            texts, started = [], at
        last = direction
        if direction == "B":
            ended = at
        elif kind == "Query":
            texts.append(rest[1:rest.rindex('"')] if rest.count('"') >= 2 else rest)
            texts[-1] = texts[-1] or "(pool check: empty query)"
        elif kind == "Parse":  # "name" "text" n oids...
            text = rest.split('" "', 1)[-1]
            parsed = " ".join(text[:text.rindex('"')].split()) if '"' in text else text
        elif kind == "Execute":
            texts.append(parsed)
    if started is not None and ended is not None:
        turns.append(Turn(tuple(texts), (ended - started).total_seconds() * 1e3))
    return Wire(tuple(turns))


@contextmanager
def traced(fn: Footnote) -> Iterator[list[Wire]]:
    """Trace the one connection of ``fn``'s pool while the block runs (statements unprepared, so that each
    names its text); yields a list that holds one :class:`Wire` afterwards."""
    out: list[Wire] = []
    with fn.pool.connection() as conn:  # a pool of one connection: the one every statement goes through
        pass
    threshold = conn.prepare_threshold
    with tempfile.TemporaryFile("w+") as f:
        conn.prepare_threshold = None
        conn.pgconn.trace(f.fileno())
        conn.pgconn.set_trace_flags(pq.Trace.REGRESS_MODE)
        try:
            yield out
        finally:
            conn.pgconn.untrace()
            conn.prepare_threshold = threshold
        f.flush()
        f.seek(0)
        out.append(wire_of(f.read()))


class ServerClock:
    """Seconds psycopg spent waiting for the server (its wait loop) while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._original: Callable[..., Any] | None = None

    def __enter__(self) -> ServerClock:
        original = psycopg.Connection.wait
        self._original = original
        clock = self

        def wait(conn: Any, gen: Any, *args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(conn, gen, *args, **kwargs)
            finally:
                clock.seconds += time.perf_counter() - t0

        psycopg.Connection.wait = wait  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        psycopg.Connection.wait = self._original  # type: ignore[method-assign]


@dataclass(frozen=True)
class AnswerTimes:
    question: str
    status: str
    p50_ms: float
    p99_ms: float
    server_ms: float  # mean per answer, waiting for the server
    python_ms: float  # mean per answer, everything else
    wire: Wire


def measure(fn: Footnote, question: str, rounds: int) -> AnswerTimes:
    """Latency of ``fn.ask(question)`` over ``rounds`` warm runs, split into server wait and Python."""
    for _ in range(3):
        status = fn.ask(question).status
    with traced(fn) as wire:
        fn.ask(question)
    samples: list[float] = []
    with ServerClock() as clock:
        for _ in range(rounds):
            t0 = time.perf_counter()
            fn.ask(question)
            samples.append((time.perf_counter() - t0) * 1e3)
    mean = sum(samples) / len(samples)
    server = clock.seconds * 1e3 / rounds
    return AnswerTimes(question, status, percentile(samples, 50), percentile(samples, 99), server, mean - server,
                       wire[0])


def hot_functions(fn: Footnote, question: str, rounds: int, limit: int = 15) -> str:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(rounds):
        fn.ask(question)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(limit)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="*", default=list(QUESTIONS))
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="also print cProfile's hottest functions")
    parser.add_argument("--statements", action="store_true", help="also list the statements of one answer")
    args = parser.parse_args()
    given = os.environ.get("DATABASE_URL")
    with database(url=given) as url:
        with Footnote(url if given else as_role(url, "bench_service"), min_size=1, max_size=1, actor="bench") as fn:
            print(f"{'question':<40} {'p50':>8} {'p99':>8} {'server':>8} {'python':>8} {'trips':>6} {'stmts':>6}"
                  "  status")
            for q in args.questions:
                t = measure(fn, q, args.rounds)
                print(f"{q:<40} {t.p50_ms:>6.2f}ms {t.p99_ms:>6.2f}ms {t.server_ms:>6.2f}ms {t.python_ms:>6.2f}ms "
                      f"{t.wire.round_trips:>6} {t.wire.statements:>6}  {t.status}")
                if args.statements:
                    for turn in t.wire.turns:
                        print(f"    {turn.ms:>8.3f} ms  {' + '.join(s[:70] for s in turn.statements)}")
            if args.profile:
                for q in args.questions:
                    print(f"\n## {q}\n{hot_functions(fn, q, max(5, args.rounds // 5))}")


if __name__ == "__main__":
    main()

"""The figures of the README's Performance section, each against a floor measured in the same run.

A floor is the least the same work costs on this machine: the same round trip through libpq alone, the bare SQL
of an operation, an answer's own statements sent by hand, plain INSERTs of the rows the ledger appends, SHA-256
over the bytes the verifiers hash. Where the project sets a target, the row says it and whether this run
met it. ``build`` returns the table; ``benchmarks/__main__.py`` prints it. Nothing here asserts a time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import re
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import pq, sql
from psycopg.types.json import Jsonb

from benchmarks import answer_profile, ledger_throughput
from footnote_pg import Footnote, ledger
from footnote_pg.answers import Answerer
from footnote_pg.compose import template_of
from footnote_pg.queries import query
from footnote_pg.question import Directory, Route, route
from footnote_pg.question.text import fold

QUESTIONS_FILE = Path(__file__).resolve().parent.parent / "tests" / "questions.toml"
BERGMANN = "How much does Bergmann Logistik owe?"
AGING = "What is our AR aging?"


@dataclass(frozen=True)
class Sizes:
    """How much each figure measures."""

    rounds: int          # samples per latency figure
    seconds: float       # length of each throughput run
    records: int         # chain length for the verification figures
    route_rounds: int    # passes over the question file
    budget: float = 20.0  # seconds one answer figure may take: fewer samples (at least 5) beyond it


SMALL = Sizes(rounds=50, seconds=3.0, records=20_000, route_rounds=5, budget=5.0)
FULL = Sizes(rounds=200, seconds=10.0, records=100_000, route_rounds=20, budget=30.0)


@dataclass(frozen=True)
class Figure:
    """One row: what was measured, its value, the floor's value in the same unit, and what the floor is."""

    key: str
    what: str
    measured: float
    floor: float
    unit: str            # "µs", "ms" (p50 latencies) or "/s" (rates)
    floor_is: str
    target: str = ""     # the target for this figure, in words ("" where there is none)
    met: bool | None = None  # whether this run met it (None: no target, or not measurable at this size)
    share: float | None = None  # the figure as a share of what its target asks, speed for speed (1 or more: met)

    @property
    def ratio(self) -> float:
        """How many floors the figure costs: time over the floor's time, or the floor's rate over the rate."""
        return self.floor / self.measured if self.unit == "/s" else self.measured / self.floor


# every row of the table, in order
FIGURES = ("round_trip", "insert_commit", "customer_overdue", "global_ar_aging", "global_dso", "global_revenue",
           "answer_bergmann", "answer_aging", "scoped_bergmann", "scoped_aging", "appends_1", "appends_8", "appends_32", "appends_64", "regrade",
           "verify_sql",
           "chain_pass_db", "verify_python", "chain_pass_bundle", "verify_bundle", "route")

# the portfolio questions a finance team asks first: AR aging (as of a fixed day, so that runs on different days
# read the same open invoices), DSO and revenue for a year
GLOBAL_OPERATIONS = {
    "global_ar_aging": ("ar_aging", {"as_of": "2026-10-01"}, "AR aging, all customers"),
    "global_dso": ("days_sales_outstanding", {"as_of": "2026-10-01"}, "days sales outstanding"),
    "global_revenue": ("revenue", {"period": "2026"}, "revenue for 2026"),
}
SCALE = 1_000_000  # invoices: the size at which the portfolio targets hold
REFERENCE_BERGMANN_ROUND_TRIPS = 2.1 / 0.08  # the reference's p50 (2.1 ms) in its server's SELECT 1 round trips


def paired(measured: Callable[[], Any], floor: Callable[[], Any], rounds: int, warm: int = 3,
           budget: float = float("inf")) -> tuple[float, float]:
    """Median seconds of ``measured`` and of ``floor``, run in turns (so both see the same machine) ``rounds``
    times each after ``warm`` unmeasured turns; fewer (at least 5) once ``budget`` seconds have gone by."""
    for _ in range(warm):
        measured()
        floor()
    samples: tuple[list[float], list[float]] = ([], [])
    started = time.perf_counter()
    while len(samples[0]) < rounds and (len(samples[0]) < 5 or time.perf_counter() - started < budget):
        for run, out in ((measured, samples[0]), (floor, samples[1])):
            t0 = time.perf_counter()
            run()
            out.append(time.perf_counter() - t0)
    return statistics.median(samples[0]), statistics.median(samples[1])


def _libpq(conn: psycopg.Connection[Any], command: bytes) -> None:
    """One simple-protocol message through libpq alone: no adaptation, no Python cursor."""
    result = conn.pgconn.exec_(command)
    if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        raise RuntimeError(f"{command!r}: {result.get_error_message()!r}")


def round_trip(service_url: str, rounds: int) -> Figure:
    with psycopg.connect(service_url, autocommit=True) as conn:
        measured, floor = paired(lambda: conn.execute("SELECT 1").fetchone(), lambda: _libpq(conn, b"SELECT 1"),
                                 rounds)
    return Figure("round_trip", "round trip: `SELECT 1` through psycopg", measured * 1e6, floor * 1e6, "µs",
                  "the same through libpq alone")


def insert_commit(owner_url: str, service_url: str, role: str, rounds: int) -> Figure:
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS public.bench_row (id bigserial PRIMARY KEY, v text)")
        conn.execute(sql.SQL("GRANT INSERT ON public.bench_row TO {r}; GRANT USAGE ON public.bench_row_id_seq TO {r}")
                     .format(r=sql.Identifier(role)))
    with psycopg.connect(service_url) as conn, psycopg.connect(service_url, autocommit=True) as raw:
        def insert() -> None:
            conn.execute("INSERT INTO public.bench_row (v) VALUES (%s)", ("x",))
            conn.commit()

        measured, floor = paired(
            insert, lambda: _libpq(raw, b"BEGIN; INSERT INTO public.bench_row (v) VALUES ('x'); COMMIT"), rounds)
    return Figure("insert_commit", "a single-row INSERT + COMMIT through psycopg (a durable write)",
                  measured * 1e3, floor * 1e3, "ms", "the same as one message through libpq alone")


def _bare(statement: str) -> str:
    """An operation's recorded statement (``$1`` placeholders) as psycopg takes it (``%(p1)s``)."""
    return re.sub(r"\$(\d+)", r"%(p\1)s", statement.replace("%", "%%"))


def customer_overdue(owner_url: str, service_url: str, rounds: int) -> Figure:
    arguments = Jsonb({"customer": "Bergmann Logistik GmbH"})
    with psycopg.connect(service_url) as conn:
        def call() -> dict[str, Any]:
            row = conn.execute(query("call"), {"operation": "customer_overdue", "arguments": arguments}).fetchone()
            conn.commit()
            assert row is not None
            return dict(row[0])

        statements = call()["queries"]  # the operation's own statements with the values it bound
        with psycopg.connect(owner_url) as owner:
            def bare() -> None:
                for s in statements:
                    owner.execute(_bare(s["sql"]), {f"p{n}": v for n, v in enumerate(s["params"], start=1)}).fetchall()
                owner.commit()

            measured, floor = paired(call, bare, rounds)
    return Figure("customer_overdue", "`customer_overdue` through the catalog (Bergmann Logistik)", measured * 1e3,
                  floor * 1e3, "ms", f"its {len(statements)} statements as bare SQL, one transaction")


def global_operation(owner_url: str, service_url: str, key: str, rounds: int, budget: float) -> Figure:
    """A portfolio operation through the catalog against its base queries as bare SQL (what it aggregates,
    without evidence rows, digests, formatting or the call log)."""
    operation, arguments, label = GLOBAL_OPERATIONS[key]
    with psycopg.connect(service_url) as conn:
        def call() -> dict[str, Any]:
            row = conn.execute(query("call"), {"operation": operation, "arguments": Jsonb(arguments)}).fetchone()
            conn.commit()
            assert row is not None
            return dict(row[0])

        doc = call()
        statements = doc["queries"]
        cited = sum(int(e["fields"]["rows"]) if e["type"] == "evidence_set" else 1 for e in doc["evidence"])
        with psycopg.connect(owner_url) as owner:
            def bare() -> None:
                for s in statements:
                    owner.execute(_bare(s["sql"]), {f"p{n}": v for n, v in enumerate(s["params"], start=1)}).fetchall()
                owner.commit()

            measured, floor = paired(call, bare, rounds, warm=1, budget=budget)
    return Figure(key, f"`{operation}`: {label} ({cited:,} rows cited)", measured * 1e3, floor * 1e3, "ms",
                  f"its {len(statements)} base quer{'ies' if len(statements) > 1 else 'y'} as bare SQL")


class _Refused(Exception):
    """A call the catalog refused: the answer becomes a refusal, recorded in a transaction of its own."""


def _record(conn: psycopg.Connection[Any], question: str, text: str, claims: list[Any], call_ids: list[str],
            outcome: str, template: dict[str, Any] | None) -> dict[str, Any]:
    row = conn.execute(query("record_answer"), {
        "question": question, "answer": text, "claims": Jsonb(claims), "call_ids": call_ids, "outcome": outcome,
        "details": None, "template": Jsonb(template) if template is not None else None, "narration": None}).fetchone()
    assert row is not None
    return dict(row[0])


def bare_answer(conn: psycopg.Connection[Any], question: str, r: Route) -> str:
    """An answer's own statements sent by hand: the calls, the template, the gate, COMMIT, the receipt; a call
    the catalog refuses ends the transaction and the refusal is recorded in a new one. Returns the status."""
    try:
        with conn.transaction():
            call_ids = []
            for c in r.calls:
                try:
                    doc = conn.execute(query("call"), {"operation": c.operation,
                                                       "arguments": Jsonb(c.arguments)}).fetchone()
                except psycopg.Error as exc:
                    raise _Refused(exc.diag.message_primary or str(exc)) from exc
                assert doc is not None
                call_ids.append(doc[0]["call_id"])
            template = template_of(r)
            row = conn.execute(query("compose"), {"call_ids": call_ids, "intent": template["intent"],
                                                  "notes": Jsonb(template["notes"]), "question": question}).fetchone()
            assert row is not None
            graded = _record(conn, question, row[0]["answer"], row[0]["claims"], call_ids, "answer", template)
    except _Refused as refused:
        with conn.transaction():
            graded = _record(conn, question, f"I can't answer that: {refused}.", [], [], "refusal", None)
    with conn.transaction():
        conn.execute(query("receipt"), {"record_id": graded["record_id"]}).fetchone()
    return str(graded["status"])


def answer(fn: Footnote, service_url: str, key: str, question: str, rounds: int, budget: float) -> Figure:
    r = Answerer(fn).route(question)
    status = fn.ask(question).status
    with answer_profile.traced(fn) as wire:
        fn.ask(question)
    with psycopg.connect(service_url) as conn:
        floor_status = bare_answer(conn, question, r)
        if floor_status != status:
            raise RuntimeError(f"{question!r}: the bare statements graded {floor_status}, the client {status}")
        measured, floor = paired(lambda: fn.ask(question), lambda: bare_answer(conn, question, r), rounds,
                                 budget=budget)
    sent = ("the refused call and the refusal's record_answer" if status == "refused" else
            f"its call{'s' if len(r.calls) > 1 else ''}, compose, record_answer")
    return Figure(key, f"answer: “{question}” ({status}, {wire[0].round_trips} round trips)", measured * 1e3,
                  floor * 1e3, "ms", f"{sent}, COMMIT and the receipt sent by hand on one connection")


SCOPED_ROLE = "bench_scoped"  # a second service login, bound to SCOPE_ID
SCOPE_ID = "bench_countries"
SCOPE_NOTE = f"(For the customers of scope {SCOPE_ID}.)"


def scoped_login(owner_url: str, service_url: str) -> str:
    """The URL of :data:`SCOPED_ROLE`, a login in footnote_service (with the service login's password, if any)
    bound to a scope of every country the customers are in: the same customers as without a scope, so that the
    two answers read the same rows and differ by what applying a scope costs."""
    info = psycopg.conninfo.conninfo_to_dict(service_url)
    password = info.get("password")
    with psycopg.connect(owner_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (SCOPED_ROLE,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(SCOPED_ROLE)))
        if password:
            conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(SCOPED_ROLE),
                                                                   sql.Literal(str(password))))
        conn.execute(sql.SQL("GRANT footnote_service TO {}").format(sql.Identifier(SCOPED_ROLE)))
        with conn.transaction():
            conn.execute("DELETE FROM footnote.scope_bindings WHERE role = %s", (SCOPED_ROLE,))
            conn.execute("DELETE FROM footnote.scopes WHERE id = %s", (SCOPE_ID,))
            conn.execute("INSERT INTO footnote.scopes (id, description, countries) SELECT %s, 'every country', "
                         "array_agg(DISTINCT c.country ORDER BY c.country) FROM footnote_src.customers AS c",
                         (SCOPE_ID,))
            conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES (%s, %s)", (SCOPED_ROLE, SCOPE_ID))
    info["user"] = SCOPED_ROLE
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def scoped_answer(fn: Footnote, scoped: Footnote, key: str, question: str, rounds: int, budget: float) -> Figure:
    """An answer asked by a login bound to a scope of every customer, against the same answer without a scope."""
    got, plain = scoped.ask(question), fn.ask(question)
    if (got.status, got.answer.removeprefix(SCOPE_NOTE).lstrip()) != (plain.status, plain.answer):
        raise RuntimeError(f"{question!r}: under scope {SCOPE_ID} {got.status} {got.answer!r}, without a scope "
                           f"{plain.status} {plain.answer!r}")
    measured, floor = paired(lambda: scoped.ask(question), lambda: fn.ask(question), rounds, budget=budget)
    return Figure(key, f"answer under a scope: “{question}” ({got.status}; scope {SCOPE_ID}, every customer's "
                  "country)", measured * 1e3, floor * 1e3, "ms", "the same answer asked by a login with no scope")


def appends(service_url: str, writers: int, seconds: float, turns: int = 2) -> Figure:
    """Appends per second through the gate and plain INSERTs, in ``turns`` alternating runs of each."""
    gated = plain = 0.0
    for _ in range(turns):
        gated += ledger_throughput.run_writers(service_url, writers, seconds / turns, ledger_throughput.gate_append,
                                               ledger_throughput.seal_rest)
        plain += ledger_throughput.run_writers(service_url, writers, seconds / turns, ledger_throughput.plain_insert)
    gated, plain = gated / turns, plain / turns
    return Figure(f"appends_{writers}", f"ledger appends through `record_answer`, {writers} writer"
                  f"{'s' if writers > 1 else ''}", gated, plain, "/s", "plain INSERTs of the same rows, no chain")


def fill_ledger(owner_url: str, records: int) -> None:
    """Grow the chain to ``records`` records: verify_speed's realistic records when it offers them."""
    try:
        from benchmarks import verify_speed
        fill: Callable[[str, int], Any] = verify_speed.fill
    except (ImportError, AttributeError):
        fill = ledger_throughput.fill_chain
    with contextlib.redirect_stdout(sys.stderr):
        fill(owner_url, records)


def verify_sql(owner_url: str) -> Figure:
    with psycopg.connect(owner_url, autocommit=True) as conn:
        t0 = time.perf_counter()
        row = conn.execute("SELECT ok, records FROM footnote.verify_chain()").fetchone()
        seconds = time.perf_counter() - t0
        assert row is not None and row[0], "the chain did not verify"
        records = int(row[1])
        t0 = time.perf_counter()
        size = conn.execute("SELECT avg(octet_length(canonical)) FROM footnote.ledger "
                            "WHERE sha256(convert_to(canonical, 'UTF8')) IS NOT NULL").fetchone()
        floor = time.perf_counter() - t0
    assert size is not None
    return Figure("verify_sql", f"SQL `verify_chain()` over {records:,} records ({float(size[0]) / 1e3:,.1f} KB "
                  "each)", records / seconds, records / floor, "/s", "SQL sha256() over the same canonical texts")


def regrade(owner_url: str, limit: int) -> Figure:
    """Sealed answers graded again (what ``verify --regrade`` does to each): the newest ``limit`` of the answers
    above that cite calls (the Bergmann and AR aging answers), against the chain check of the whole chain."""
    with psycopg.connect(owner_url, autocommit=True) as conn:
        t0 = time.perf_counter()
        row = conn.execute("""SELECT count(*) FILTER (WHERE d IS NULL), count(*) FILTER (WHERE d = 'not_regradable'),
                                     count(*) FILTER (WHERE d <> 'not_regradable')
                              FROM (SELECT footnote._regrade(l) AS d FROM (SELECT * FROM footnote.ledger
                                    WHERE operations <> '[]' ORDER BY seq DESC LIMIT %s) AS l) AS x""",
                           (limit,)).fetchone()
        seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute("SELECT ok FROM footnote.verify_chain()").fetchone()
        chain = time.perf_counter() - t0
        records = conn.execute("SELECT count(*) FROM footnote.ledger").fetchone()
    assert row is not None and records is not None
    same, skipped, other = (int(v) for v in row)
    graded = max(same + other, 1)
    return Figure("regrade", f"an answer citing calls graded again (`verify --regrade`; {same:,} of "
                  f"{same + other:,} the same, "
                  f"{skipped:,} not regradable; 100,000 answers ≈ {100_000 * seconds / graded / 60:,.1f} min)",
                  graded / seconds, int(records[0]) / chain, "/s", "`verify_chain()` over the whole chain")


def _raw_sha256(owner_url: str) -> tuple[int, float]:
    """(records, seconds) of hashlib SHA-256 over every record's stored canonical bytes, in memory."""
    with psycopg.connect(owner_url) as conn:
        texts = [r[0].encode() for r in conn.execute("SELECT canonical FROM footnote.ledger ORDER BY seq")]
    t0 = time.perf_counter()
    for text in texts:
        hashlib.sha256(text).hexdigest()
    return len(texts), time.perf_counter() - t0


def verify_python(owner_url: str, raw: tuple[int, float]) -> list[Figure]:
    """The independent verifier over the database: the chain pass (stored bytes, hashes, links) and the full
    check (every record's bytes against its columns, and the calls), against raw SHA-256 of the same bytes."""
    records, raw_seconds = raw
    out = []
    for key, content, what in (("chain_pass_db", False, "chain pass"),
                               ("verify_python", True, "full check (chain, fields, calls)")):
        with psycopg.connect(owner_url) as conn:
            t0 = time.perf_counter()
            verdict = ledger.verify_database(conn, content=content)
            seconds = time.perf_counter() - t0
        assert verdict.ok, verdict
        out.append(Figure(key, f"Python verifier (`footnote-pg verify`), {what}, {records:,} records from the "
                          "database", records / seconds, records / raw_seconds, "/s",
                          "hashlib SHA-256 over the same bytes in memory"))
    return out


def verify_bundle(owner_url: str, raw: tuple[int, float]) -> list[Figure]:
    """The same verifier over an export bundle (``footnote-pg verify --bundle``), read line by line."""
    records, raw_seconds = raw
    out = []
    with tempfile.TemporaryDirectory(prefix="footnote-bench-") as tmp:
        bundle = Path(tmp) / "ledger.jsonl"
        with psycopg.connect(owner_url) as conn:
            ledger.export_bundle(conn, bundle)
        for key, content, what in (("chain_pass_bundle", False, "chain pass"),
                                   ("verify_bundle", True, "full check (chain, fields)")):
            t0 = time.perf_counter()
            verdict = ledger.verify_bundle(bundle, content=content)
            seconds = time.perf_counter() - t0
            assert verdict.ok, verdict
            out.append(Figure(key, f"Python verifier, {what}, {records:,} records from a bundle",
                              records / seconds, records / raw_seconds, "/s",
                              "hashlib SHA-256 over the same bytes in memory"))
    return out


def route_latency(fn: Footnote, rounds: int) -> Figure:
    answerer = Answerer(fn)
    directory: Directory = answerer.directory
    settings = answerer.settings
    questions = [q["text"] for q in tomllib.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))["q"]]

    def each(run: Callable[[str], Any]) -> float:
        for text in questions:  # warm
            run(text)
        samples = []
        for _ in range(rounds):
            for text in questions:
                t0 = time.perf_counter_ns()
                run(text)
                samples.append(time.perf_counter_ns() - t0)
        return statistics.median(samples) / 1e3

    measured = each(lambda text: route(text, directory, settings))
    floor = each(lambda text: fold(text).split())
    return Figure("route", f"route a question ({len(questions)} questions of `tests/questions.toml`)", measured,
                  floor, "µs", "folding and splitting it into words")


def build(owner_url: str, service_url: str, sizes: Sizes, progress: Callable[[str], None] | None = None
          ) -> list[Figure]:
    """Every figure of :data:`FIGURES`, in order. ``owner_url``: a superuser of a database with footnote-pg and
    the sample ERP (it fills the ledger and creates two tables in ``public``); ``service_url``: a login in role
    ``footnote_service``."""
    say = progress or (lambda _text: None)
    role = psycopg.conninfo.conninfo_to_dict(service_url).get("user") or ""
    ledger_throughput.create_plain_ledger(owner_url, str(role))
    out: list[Figure] = []

    def add(what: str, measure: Callable[[], Figure]) -> None:
        say(what)
        out.append(measure())

    add("round trip", lambda: round_trip(service_url, sizes.rounds * 10))
    add("INSERT + COMMIT", lambda: insert_commit(owner_url, service_url, str(role), sizes.rounds))
    add("customer_overdue", lambda: customer_overdue(owner_url, service_url, sizes.rounds))
    for key in GLOBAL_OPERATIONS:
        add(key, functools.partial(global_operation, owner_url, service_url, key, sizes.rounds, sizes.budget))
    with Footnote(service_url, min_size=1, max_size=1, actor="bench") as fn:
        for key, question in (("answer_bergmann", BERGMANN), ("answer_aging", AGING)):
            add(f"answer: {question}", functools.partial(answer, fn, service_url, key, question, sizes.rounds,
                                                         sizes.budget))
        add("route", lambda: route_latency(fn, sizes.route_rounds))
        with Footnote(scoped_login(owner_url, service_url), min_size=1, max_size=1, actor="bench") as scoped:
            for key, question in (("scoped_bergmann", BERGMANN), ("scoped_aging", AGING)):
                add(f"answer under a scope: {question}", functools.partial(
                    scoped_answer, fn, scoped, key, question, sizes.rounds, sizes.budget))
    add("appends, 1 writer", lambda: appends(service_url, 1, sizes.seconds))
    for writers in (8, 32, 64):
        add(f"appends, {writers} writers", functools.partial(appends, service_url, writers, sizes.seconds))
    add("regrade", lambda: regrade(owner_url, sizes.records // 10))
    say(f"filling the ledger to {sizes.records:,} records")
    fill_ledger(owner_url, sizes.records)
    add("verify_chain()", lambda: verify_sql(owner_url))
    raw = _raw_sha256(owner_url)
    say("Python verifier, database")
    out.extend(verify_python(owner_url, raw))
    say("Python verifier, bundle")
    out.extend(verify_bundle(owner_url, raw))
    order = {key: n for n, key in enumerate(FIGURES)}
    table = sorted(out, key=lambda f: order[f.key])
    return with_targets(table, invoices(owner_url))


def invoices(owner_url: str) -> int:
    """How many invoices the catalog reads (the size the portfolio targets are stated for)."""
    with psycopg.connect(owner_url) as conn:
        row = conn.execute("SELECT count(*) FROM footnote_src.invoices").fetchone()
    return int(row[0]) if row else 0


def with_targets(table: list[Figure], invoice_count: int) -> list[Figure]:
    """The table with each figure's target and whether this run met it."""
    by = {f.key: f for f in table}
    at_scale = invoice_count >= SCALE

    def target(f: Figure) -> tuple[str, bool | None, float | None]:
        """The target in words, whether the run met it, and the figure as a share of what it asks."""
        if f.key == "customer_overdue":
            return "≤ 1.5× its bare SQL", f.ratio <= 1.5, 1.5 / f.ratio
        if f.key in GLOBAL_OPERATIONS:
            return ("≤ 3 s at 1,000,000 invoices",
                    f.measured <= 3000 if at_scale else None, 3000 / f.measured)
        if f.key == "answer_bergmann":
            trips = f.measured * 1e3 / by["round_trip"].measured if "round_trip" in by else float("nan")
            return (f"≤ 2× a reference implementation's p50 ({trips:,.0f} `SELECT 1` round trips here against "
                    f"its {REFERENCE_BERGMANN_ROUND_TRIPS:,.0f})",
                    trips <= 2 * REFERENCE_BERGMANN_ROUND_TRIPS, 2 * REFERENCE_BERGMANN_ROUND_TRIPS / trips)
        if f.key in ("scoped_bergmann", "scoped_aging"):
            return "≤ 1.2× without a scope", f.ratio <= 1.2, 1.2 / f.ratio
        if f.key == "appends_8":
            return "≥ 0.5× plain INSERT", f.measured >= 0.5 * f.floor, f.measured / (0.5 * f.floor)
        if f.key in ("appends_32", "appends_64") and "appends_8" in by:
            rate = 0.9 * by["appends_8"].measured
            return "no drop from 8 writers (≥ 0.9× its rate)", f.measured >= rate, f.measured / rate
        if f.key == "verify_sql":
            return "≥ 100,000 records/s", f.measured >= 100_000, f.measured / 100_000
        if f.key in ("chain_pass_db", "chain_pass_bundle"):
            return "≥ 0.5× raw SHA-256", f.measured >= 0.5 * f.floor, f.measured / (0.5 * f.floor)
        if f.key in ("verify_python", "verify_bundle"):
            return "≥ 20,000 records/s", f.measured >= 20_000, f.measured / 20_000
        return "", None, None

    return [dataclasses.replace(f, target=t, met=m, share=s) for f in table for t, m, s in [target(f)]]


def verdict(f: Figure) -> str:
    """The table's last column: "yes", how far a missed target is ("target not met (0.57× the target)"), or
    nothing where there is no target to judge."""
    if f.met is None:
        return ""
    return "yes" if f.met else f"target not met ({f.share or 0:,.2f}× the target)"


def _value(v: float, unit: str) -> str:
    if unit == "/s":
        return f"{v:,.0f}/s"
    return f"{v:,.1f} {unit}" if v >= 10 else f"{v:,.2f} {unit}"


def markdown(figures: list[Figure]) -> str:
    """The table as Markdown, ready for the README."""
    lines = ["| figure | measured (p50 or rate) | floor | the floor is | × floor | target | met |",
             "|---|---:|---:|---|---:|---|:-:|"]
    for f in figures:
        lines.append(f"| {f.what} | {_value(f.measured, f.unit)} | {_value(f.floor, f.unit)} | {f.floor_is} | "
                     f"{f.ratio:,.1f}× | {f.target} | {verdict(f)} |")
    return "\n".join(lines)

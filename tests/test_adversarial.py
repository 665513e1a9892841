"""The gate against its own adversarial suite: labelled rewrites of real answers, graded in PostgreSQL.

Every harmful rewrite (a changed direction, another customer's name, "million", "a dozen", an added
"they are a fraud risk", fullwidth digits, ...) must end below ``verified``; at most 1 % of the
faithful ones (reordered, reworded, short names, other bullets) may be blocked. The per-class table
is printed at the end of the run (and written to test-output/adversarial-<backend>.txt).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from footnote_pg import Footnote
from tests import pgservers, rewrites
from tests.conftest import TestDatabase, tally

# 36 real answers: every operation, several customers, suppliers, items and periods
QUESTIONS = [
    "How much does Bergmann Logistik owe?",
    "How much does Vidal Embalajes owe?",
    "How much does Braun Feinmechanik owe?",
    "What does Nieminen Tekniikka owe us?",
    "Is Bergmann Logistik at risk?",
    "Is Hansen & Dahl Logistikk at risk?",
    "Is Braun Feinmechanik at risk?",
    "Open tickets for Bergmann Logistik",
    "Open support tickets of Vidal Embalajes",
    "Show AR aging",
    "AR aging for Bergmann Logistik",
    "What is our DSO?",
    "Revenue in Q2 2026",
    "Revenue in FY2025",
    "Revenue from Bergmann Logistik in 2026",
    "How did revenue change from Q1 2026 to Q2 2026?",
    "How did revenue change from Q2 2026 to Q1 2026?",
    "Why did revenue change last quarter?",
    "Top 5 customers last quarter",
    "Top 3 customers by revenue in FY2025",
    "Show invoice INV-2026-8812",
    "Show invoice INV-2026-8977",
    "Open purchase orders",
    "Open purchase orders from Northwind Supply",
    "Stock of ball valve",
    "Stock of deep groove ball bearing 6204-2RS",
    "Should we pay Northwind Supply?",
    "Should we pay Hansa Stahlhandel?",
    "List customers named Berg",
    "Compare overdue of Bergmann Logistik and Vidal Embalajes",
    "Revenue in Q1 2026 and Q2 2026",
    "How did revenue from Bergmann Logistik change from Q1 2026 to Q2 2026?",
    "How much does Müller Präzisionstechnik owe?",
    "Revenue last month",
    # receivables as ERPs keep them: credits on account, an invoice in instalments (an aging with credits is
    # the profile's sentence again, at the cost of a minute per run)
    "Tell me about Strojírny Novotný",
    "Show invoice INV-2026-9204",
]
MAX_FAITHFUL_BLOCKED = 0.01


def _short(name: str) -> str:
    """A name without its legal form, as a person would shorten it (independent of the gate's rule)."""
    words = name.split()
    while len(words) > 1 and re.sub(r"[^A-Za-z]", "", words[-1]).lower() in {
        "gmbh",
        "ag",
        "sl",
        "sa",
        "as",
        "oy",
        "ltd",
        "bv",
        "nv",
        "sarl",
        "srl",
        "spa",
        "kg",
        "co",
        "inc",
        "ab",
    }:
        words.pop()
    return " ".join(words).rstrip(",")


@pytest.fixture(scope="module")
def suite(module_db: TestDatabase) -> dict[str, Any]:
    fn = module_db.client("service", actor="adversary", actor_role="tester")
    others = [r["name"].text for r in fn.call("list_customers", limit=200).rows] + [
        r["name"].text for r in fn.call("list_suppliers", limit=200).rows
    ]
    sources: list[rewrites.Source] = []
    for q in QUESTIONS:
        a = fn.ask(q)
        assert a.status in ("verified", "partially_verified"), (q, a.status, a.answer, a.findings)
        names = {c["text"] for c in a.claims if str(c.get("value", "")).endswith((".customer", ".supplier", ".name"))}
        sources.append(
            rewrites.Source(
                question=q,
                text=a.answer,
                claims=a.claims,
                call_ids=[c["call_id"] for c in a.calls],
                template={"intent": a.intent, "notes": {k: v for k, v in a.notes.items() if isinstance(v, str)}},
                others=sorted(o for o in others if o not in names),
            )
        )
    statuses = {s.question: fn.ask(s.question).status for s in sources}
    # the restructured narrations the gate accepts become answers to attack too, with the claims the gate found
    narrated = []
    for src in sources:
        names = {c["text"] for c in src.claims if str(c.get("value", "")).endswith((".customer", ".supplier"))}
        for r in rewrites.restructured(src, {n: _short(n) for n in names if _short(n) != n}):
            graded = fn.check_answer(r.text, None, src.call_ids, template=src.template, question=src.question)
            if graded["status"] == statuses[src.question]:
                narrated.append(
                    rewrites.Source(src.question, r.text, graded["claims"], src.call_ids, src.template, src.others)
                )
    return {"fn": fn, "sources": sources, "narrated": narrated, "statuses": statuses}


def _sample(items: list[rewrites.Rewrite], per_class: int, rng: random.Random) -> list[rewrites.Rewrite]:
    """At most per_class rewrites of each class (a deterministic sample), to keep the run short."""
    by_class: dict[str, list[rewrites.Rewrite]] = {}
    for r in items:
        by_class.setdefault(r.cls, []).append(r)
    return [
        r for group in by_class.values() for r in (group if len(group) <= per_class else rng.sample(group, per_class))
    ]


def _grade(fn: Footnote, src: rewrites.Source, r: rewrites.Rewrite) -> dict[str, Any]:
    return fn.check_answer(r.text, r.claims, src.call_ids, template=src.template, question=src.question)


def _report(request: pytest.FixtureRequest, server: Any, title: str, classes: tuple[str, ...], what: str,
            rows: dict[str, list[int]]) -> None:
    """The part's counts, added to the run's table for the backend (printed at the end, and written to
    test-output/adversarial-<backend>.txt)."""
    tally(request.config, f"adversarial-{server.name}", title, classes, what, rows)


PARTS = 4  # the harmful rewrites are graded in this many tests, so that the workers share them


def _harmful_items(suite: dict[str, Any], first: bool, part: int) -> list[tuple[rewrites.Source, rewrites.Rewrite]]:
    """The harmful rewrites part ``part`` grades: every answer and accepted narration on the session's first
    backend, every third on the others (the gate is the same SQL there: they check the server version's drift,
    regular expressions and collation, not every rule again); of those every PARTS-th; of each at most 10
    rewrites per class (4 of a narration), and every claim-level rewrite of an answer."""
    rng = random.Random(8 + part)
    step = 1 if first else 3
    items: list[tuple[rewrites.Source, rewrites.Rewrite]] = []
    for src in [*suite["sources"][::step], *suite["narrated"][::step]][part::PARTS]:
        own = src in suite["sources"]
        chosen = _sample(list(rewrites.harmful(src, rng)), 10 if own else 4, rng)
        if own:
            chosen += list(rewrites.harmful_claims(src))
        items += [(src, r) for r in chosen]
    return items


def test_the_harmful_sample_covers_every_class(request: pytest.FixtureRequest, suite: dict[str, Any]) -> None:
    first = pgservers.first_backend(request)
    counts: dict[str, int] = {}
    for part in range(PARTS):
        for _, r in _harmful_items(suite, first, part):
            counts[r.cls] = counts.get(r.cls, 0) + 1
    assert sum(counts.values()) >= (2000 if first else 700), counts
    thin = {cls: counts.get(cls, 0) for cls in rewrites.HARMFUL_CLASSES if counts.get(cls, 0) < (10 if first else 3)}
    assert not thin, f"classes with too few rewrites: {thin}"


@pytest.mark.parametrize("part", range(PARTS))
def test_every_harmful_rewrite_ends_below_verified(
    request: pytest.FixtureRequest, server: Any, suite: dict[str, Any], part: int
) -> None:
    fn = suite["fn"]
    rows: dict[str, list[int]] = {}
    missed: list[str] = []
    items = _harmful_items(suite, pgservers.first_backend(request), part)
    for src, r in items:
        graded = _grade(fn, src, r)
        caught = graded["status"] not in ("verified", "partially_verified")
        row = rows.setdefault(r.cls, [0, 0])
        row[0] += 1
        row[1] += caught
        if not caught:
            missed.append(f"{r.cls}: {r.how}: {r.text[:300]!r}")
    _report(request, server, "harmful rewrites", rewrites.HARMFUL_CLASSES, "caught", rows)
    assert items, f"part {part} has nothing to grade"
    assert not missed, f"{len(missed)} harmful rewrites passed as verified:\n" + "\n".join(missed[:40])


def test_faithful_rewrites_keep_their_status(
    request: pytest.FixtureRequest, server: Any, suite: dict[str, Any]
) -> None:
    fn, rng = suite["fn"], random.Random(9)
    rows: dict[str, list[int]] = {}
    blocked: list[str] = []
    # every source on the session's first backend, every third on the others (as for the harmful rewrites)
    first = pgservers.first_backend(request)
    for src in suite["sources"][:: 1 if first else 3]:
        names = {c["text"] for c in src.claims if str(c.get("value", "")).endswith((".customer", ".supplier"))}
        short = {n: _short(n) for n in names if _short(n) != n}
        want = suite["statuses"][src.question]
        for r in [*rewrites.faithful(src, rng, short), *rewrites.restructured(src, short)]:
            graded = _grade(fn, src, r)
            bad = graded["status"] != want
            row = rows.setdefault(r.cls, [0, 0])
            row[0] += 1
            row[1] += bad
            if bad:
                blocked.append(
                    f"{r.cls}: {r.how}: {r.text[:200]!r}: "
                    + "; ".join(f["message"] for f in graded["findings"] if f["severity"] == "blocking")[:300]
                )
    _report(request, server, "faithful rewrites", rewrites.FAITHFUL_CLASSES, "blocked", rows)
    total = sum(n for n, _ in rows.values())
    assert total >= (600 if first else 200)
    assert len(blocked) <= MAX_FAITHFUL_BLOCKED * total, f"{len(blocked)} of {total} blocked:\n" + "\n".join(
        blocked[:40]
    )

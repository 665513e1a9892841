"""The gate against restatements written the way assistants write (tests/corpus/, tests/restatements.py).

Every harmful restatement must end below ``verified``. The share of faithful ones refused must stay under
FAITHFUL_BLOCKED_BOUND, what the gate reaches today, so that it only goes down; the target,
MAX_FAITHFUL_BLOCKED, is not reached yet. Refused faithful texts are listed for the tuned part; the held-out
part's are counted only. Each text is graded as a narration of the answer (``check_answer`` with the answer's
template) and every text as written also through ``submit_answer`` (rolled back), the agent's path: the two
must agree, except that a text naming a row beyond those the answer shows may pass only submitted. Per-class tables for the tuned and the held-out part are printed at the end of the run
(test-output/restatements-<backend>.txt).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from psycopg.types.json import Jsonb

from footnote_pg import Footnote
from tests import pgservers, restatements
from tests.conftest import TestDatabase, tally

MAX_FAITHFUL_BLOCKED = 0.02  # the target
# what the gate reaches today in each part (tuned and held-out texts together, framed ones included); the corpus gained
# emails, chat, notes, tables, German, records and letters (restatements_voices_*.txt), every kind of answer again in
# the voices people write (restatements_wild_*.txt: 71 % of its faithful texts blocked before revision 0030_voices,
# 49,5 % tuned / 42,7 % held out before this pass of 0035_voices, 47,8 % / 42,7 % after, texts as written), and voices
# no rule was tuned on (restatements_wild2_*.txt: 79 % blocked in both parts); the part that blocks most (the
# fourth, by question) about 60 % as written; merged lines read by binding (revision 0038_merged) move few texts (first
# files 47,0 % → 46,1 % tuned, 43,7 % → 43,5 % held out; wild2 unchanged), too few to lower the bound by a point;
# revision 0040_summaries (figures a summary leaves out, signatures, mail
# headers): wild2 79,1 % -> 73,6 % tuned, 78,7 % -> 75,3 % held out, texts as written (the bound is not lowered: the
# other files were not measured again, framed variants included); a third blind corpus (restatements_wild3_*.txt, 80 %
# blocked when written) made the corpus grade in eight parts instead of four: the part that blocks most (the fourth of
# eight) blocks 67,7 % (897 of 1,324 faithful texts, framed ones included) after 0040_summaries
FAITHFUL_BLOCKED_BOUND = 0.68
PASSING = ("verified", "partially_verified")


@pytest.fixture(scope="module")
def answers(module_db: TestDatabase) -> dict[str, Any]:
    """Every question of the corpus asked once: its calls, template and status."""
    fn: Footnote = module_db.client("service", actor="corpus", actor_role="tester")
    out: dict[str, Any] = {"fn": fn}
    for q in dict.fromkeys(r.question for r in restatements.load()):
        a = fn.ask(q)
        outcome = {"refused": "refusal", "ambiguous": "clarification"}.get(a.status, "answer")
        out[q] = {"status": a.status, "outcome": outcome, "call_ids": [c["call_id"] for c in a.calls],
                  "answer": a.answer,
                  # the same calls made again, for submit_answer (a call backs one record: ask's)
                  "fresh": [fn.call(c["operation"], **c["arguments"]).call_id for c in a.calls],
                  "template": {"intent": a.intent, "notes": {k: v for k, v in a.notes.items() if isinstance(v, str)}}
                  if outcome == "answer" else None}
    return out


def _by_question(items: list[restatements.Restatement]) -> Iterator[tuple[str, list[restatements.Restatement]]]:
    groups: dict[str, list[restatements.Restatement]] = {}
    for r in items:
        groups.setdefault(r.question, []).append(r)
    yield from groups.items()


def _grade_narrated(conn: Any, q: str, a: dict[str, Any], texts: list[str]) -> list[dict[str, Any]]:
    """check_answer of every text, in one statement."""
    rows = conn.execute(
        "SELECT footnote.check_answer(t.text, NULL, %s::uuid[], %s, %s, %s) FROM unnest(%s::text[]) "
        "WITH ORDINALITY AS t(text, n) ORDER BY t.n",
        (a["call_ids"], a["outcome"], Jsonb(a["template"]) if a["template"] else None, q, texts)).fetchall()
    return [r[0] for r in rows]


def _grade_submitted(conn: Any, q: str, a: dict[str, Any], text: str) -> dict[str, Any]:
    """submit_answer of a text, rolled back (the calls stay free for the next one)."""
    with conn.transaction(force_rollback=True):
        graded: dict[str, Any] = conn.execute("SELECT footnote.submit_answer(%s, %s, %s::uuid[])",
                                              (q, text, a["fresh"])).fetchone()[0]
    return graded


# A document number (INV-2026-9163, CN/2026/0003) in a text and not in the answer as shown: a row beyond the ten a
# list shows. The narrated path (record_answer, check_answer) grades the answer as shown; submit_answer, the agent's
# path, every row the calls returned: a text that names such a row may pass submitted and be blocked narrated.
DOCUMENT = re.compile(r"\b[A-Z]{2,4}[-/]\d{4}[-/]\d{3,}\b")


def _names_a_row_not_shown(text: str, answer: str) -> bool:
    return any(m.group() not in answer for m in DOCUMENT.finditer(text))


def _blocking(graded: dict[str, Any]) -> str:
    return "; ".join(f["message"] for f in graded["findings"] if f["severity"] == "blocking")[:400]


def test_the_corpus_is_large_and_labelled() -> None:
    items = restatements.load()
    harmful = [r for r in items if r.harmful]
    faithful = [r for r in items if not r.harmful]
    assert len(harmful) >= 2000 and len(faithful) >= 2000, (len(harmful), len(faithful))
    texts = [r.text for r in items]
    assert len(set(texts)) == len(texts), "a text is in the corpus twice"
    share = sum(r.held_out for r in items) / len(items)
    assert 0.25 <= share <= 0.35, share


PARTS = 8  # the corpus is graded in this many tests (by question), so that the workers share it and none runs long


@pytest.mark.parametrize("part", range(PARTS))
def test_restatements_are_graded_as_labelled(request: pytest.FixtureRequest, server: Any, answers: dict[str, Any],
                                             part: int) -> None:
    first = pgservers.first_backend(request)
    questions = list(dict.fromkeys(r.question for r in restatements.load()))
    mine = set(questions[part::PARTS])
    items = [r for r in restatements.load() if r.question in mine]
    if not first:  # the same SQL on the other backends: the texts as written only
        items = [r for r in items if not r.framing]
    rows: dict[tuple[bool, bool], dict[str, list[int]]] = {}
    missed: list[str] = []
    blocked: list[str] = []
    held_missed = held_blocked = 0
    disagree: list[str] = []
    for q, group in _by_question(items):
        a = answers[q]
        with answers["fn"].transaction() as conn:
            graded = _grade_narrated(conn, q, a, [r.text for r in group])
            submitted = {r.text: _grade_submitted(conn, q, a, r.text) for r in group
                         if not r.framing and a["outcome"] == "answer"}
        for r, g in zip(group, graded, strict=True):
            if r.harmful:
                bad = g["status"] in PASSING or g["status"] == a["status"]
            else:
                bad = g["status"] != a["status"]
            row = rows.setdefault((r.held_out, r.harmful), {}).setdefault(r.cls, [0, 0])
            row[0] += 1
            row[1] += not bad if r.harmful else bad
            if bad and r.held_out:
                held_missed += r.harmful
                held_blocked += not r.harmful
            elif bad:
                (missed if r.harmful else blocked).append(
                    f"{r.source} [{r.cls}{'/' + r.framing if r.framing else ''}] {r.text[:240]!r}: "
                    f"{g['status']}: {_blocking(g)}")
            if r.text in submitted:
                s = submitted[r.text]
                beyond = (s["status"] in PASSING and g["status"] not in PASSING
                          and _names_a_row_not_shown(r.text, a["answer"]))
                if s["status"] != g["status"] and not beyond:
                    disagree.append(f"{r.source} narrated {g['status']}, submitted {s['status']}"
                                    + ("" if r.held_out else f": {r.text[:160]!r}: {_blocking(s)}"))
    for held in (False, True):
        side = "held-out" if held else "tuned"
        for harmful in (True, False):
            classes = tuple(sorted({r.cls for r in restatements.load() if r.held_out == held and r.harmful == harmful}))
            tally(request.config, f"restatements-{server.name}",
                  f"{side} part: {'harmful' if harmful else 'faithful'} restatements", classes,
                  "caught" if harmful else "blocked", rows.get((held, harmful), {}))
    faithful = sum(n for (h, hm), cls in rows.items() if not hm for n, _ in cls.values())
    faithful_held = sum(n for (h, hm), cls in rows.items() if h and not hm for n, _ in cls.values())
    report = (f"harmful passed: {len(missed)} tuned, {held_missed} held out; faithful blocked: {len(blocked)} tuned, "
              f"{held_blocked} of {faithful_held} held out; narrated and submitted verdicts differ: {len(disagree)}")
    print(report)
    assert not missed and not held_missed, report + "\n" + "\n".join(missed[:60])
    assert len(blocked) + held_blocked <= FAITHFUL_BLOCKED_BOUND * faithful, report + "\n" + "\n".join(blocked[:80])
    assert not disagree, report + "\n" + "\n".join(disagree[:40])

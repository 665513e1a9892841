"""The gate: every claim graded against the call log, deterministically, inside PostgreSQL."""

from __future__ import annotations

import re

import psycopg
import pytest

from footnote_pg import Footnote, FootnoteError
from tests.conftest import TestDatabase
from tests.gatehelp import claim

QUESTION = "How much does Bergmann Logistik owe?"


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="zoran", actor_role="controller")


def overdue_answer(fn: Footnote) -> tuple[str, list[dict], list[str], object]:
    r = fn.call("customer_overdue", customer="Bergmann Logistik")
    v = r.values
    answer = (f"{v['customer'].text} owes {v['overdue_total'].text} overdue across {v['invoice_count'].text} "
              f"invoices, the oldest {v['oldest_days_past_due'].text} past due (as of {v['as_of'].text}).")
    claims = [claim(answer, r, p) for p in ("customer", "overdue_total", "invoice_count", "oldest_days_past_due",
                                            "as_of")]
    return answer, claims, [r.call_id], r


def test_a_grounded_answer_is_verified_and_chained(db: TestDatabase, fn: Footnote) -> None:
    answer, claims, calls, r = overdue_answer(fn)
    assert answer == ("Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices, the oldest 104 days past "
                      "due (as of 14.08.2026).")
    graded = fn.record_answer(QUESTION, answer, claims, calls)
    assert graded["status"] == "verified"
    assert [c["verdict"] for c in graded["claims"]] == ["grounded"] * 5
    assert graded["findings"] == []
    receipt = graded["receipt"]
    assert receipt.seq == 1 and len(receipt.hash) == 64 and receipt.prev_hash == "0" * 64
    row = db.rows("SELECT question, answer, status, db_role, actor_id, actor_role, jsonb_array_length(evidence), "
                  "operations->0->>'operation', operations->0->>'result_hash' FROM footnote.ledger WHERE seq = 1")[0]
    assert row[:6] == (QUESTION, answer, "verified", "fn_test_service", "zoran", "controller")
    assert row[6] == 5  # the customer and the four invoices, with their field values
    assert row[7] == "customer_overdue"
    assert row[8] == db.scalar("SELECT result_hash FROM footnote.call_log WHERE call_id = %s", (r.call_id,))
    assert db.rows("SELECT ok, records FROM footnote.verify_chain()") == [(True, 1)]


def test_an_altered_figure_is_unverified_and_blocks(fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    forged = answer.replace("43.805,00 €", "48.305,00 €")
    claims[1]["text"] = "48.305,00 €"
    graded = fn.record_answer(QUESTION, forged, claims, calls)
    assert graded["status"] == "insufficient_evidence"
    assert graded["claims"][1]["verdict"] == "unverified" and graded["claims"][1]["reason"] == "value_mismatch"
    codes = [f["code"] for f in graded["findings"]]
    assert codes[0] == "value_mismatch" and {"unsupported_digits", "statement_missing"} <= set(codes)


def test_a_digit_outside_any_claim_makes_the_answer_unsupported(fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    longer = answer + " That is about 12 % of its credit limit."
    graded = fn.record_answer(QUESTION, longer, claims, calls)
    assert graded["status"] == "insufficient_evidence"
    (finding,) = [f for f in graded["findings"] if f["code"] == "unsupported_digits"]
    assert [p["position"] for p in finding["positions"]] == [longer.index("12"), longer.index("12") + 1]
    assert finding["sentence"] == 1
    assert {f["sentence"] for f in graded["findings"]} == {1}  # the first sentence holds


def test_a_numeral_of_any_script_outside_any_claim_is_named_by_position(fn: Footnote) -> None:
    """Fullwidth, Arabic-Indic, superscript, circled and Roman numerals are digits the call never gave: each
    character is named, and the letters and punctuation around them are not."""
    answer, claims, calls, _ = overdue_answer(fn)
    for added in ("１２", "١٢", "x²", "③", "Ⅻ", "٣٠٪"):
        longer = f"{answer} That is {added} times the usual."
        graded = fn.check_answer(longer, claims, calls, question=QUESTION)
        assert graded["status"] == "insufficient_evidence", added
        (finding,) = [f for f in graded["findings"] if f["code"] == "unsupported_digits"]
        at = longer.index(added, len(answer))
        numerals = [at + i for i, ch in enumerate(added) if ch not in "x٪"]
        assert [p["position"] for p in finding["positions"]] == numerals, added


def test_every_numeral_character_is_read_as_digits_and_no_other_ascii_character_is(db: TestDatabase) -> None:
    """Each character the reader counts as a numeral (footnote._numeric_chars: Unicode's Nd, Nl and No), and each
    ASCII digit, written as a word of its own or glued to letters, is read as digits; no other ASCII character
    and none of a few letters and signs beyond ASCII is."""
    rows = db.rows("""
        SELECT x.c, x.numeral, bool_or(l.class = 'digits') AS read
        FROM (SELECT substr(n.chars, i, 1), true FROM footnote._numeric_chars() AS n,
                     generate_series(1, length(n.chars)) AS i
              UNION ALL SELECT chr(i), chr(i) ~ '^[0-9]$' FROM generate_series(33, 126) AS i
              UNION ALL SELECT c, false FROM unnest(ARRAY['é', 'ß', 'Ж', '€', '٪', '中', '…']) AS c) AS x(c, numeral),
             unnest(footnote._lexemes('is ' || x.c || ' and x' || x.c || 'y now', '[]')) AS l
        GROUP BY x.c, x.numeral""")
    assert len(rows) > 700
    assert [c for c, numeral, read in rows if numeral and not read] == []
    assert [c for c, numeral, read in rows if read and not numeral] == []


def test_evidence_the_call_never_read_is_fabricated(fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    claims[1]["evidence"] = ["invoice:8812", "invoice:9999"]
    graded = fn.record_answer(QUESTION, answer, claims, calls)
    assert graded["claims"][1]["verdict"] == "fabricated"
    assert graded["claims"][1]["reason"] == "evidence_not_read"
    assert graded["status"] == "insufficient_evidence"


def test_a_call_never_made_or_not_listed_is_fabricated(fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    claims[1]["call_id"] = "00000000-0000-4000-8000-000000000000"
    graded = fn.check_answer(answer, claims, calls)
    assert graded["claims"][1]["reason"] == "call_not_listed"
    graded = fn.check_answer(answer, claims, calls + ["00000000-0000-4000-8000-000000000000"])
    assert graded["claims"][1]["verdict"] == "fabricated" and graded["claims"][1]["reason"] == "call_not_made"
    assert "unknown_call" in [f["code"] for f in graded["findings"]]


@pytest.mark.parametrize("span", [{"start": 0, "end": 500}, {"start": 5, "end": 16}, {"start": 30, "end": 20}])
def test_a_span_outside_the_answer_or_off_the_text_blocks(fn: Footnote, span: dict) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    claims[1]["span"] = span
    graded = fn.check_answer(answer, claims, calls)
    assert graded["claims"][1]["verdict"] == "unverified" and graded["claims"][1]["reason"] == "span_mismatch"
    assert graded["status"] == "insufficient_evidence"


def test_a_call_of_another_actor_is_rejected(db: TestDatabase, fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    other = db.client("service", actor="mallory", actor_role="controller")
    with pytest.raises(FootnoteError, match="was made by another role or actor"):
        other.record_answer(QUESTION, answer, claims, calls)
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 0


def test_a_replayed_call_is_rejected(db: TestDatabase, fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    first = fn.record_answer(QUESTION, answer, claims, calls)
    with pytest.raises(FootnoteError, match="already backs an accepted ledger record"):
        fn.record_answer(QUESTION, answer, claims, calls)
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 1
    assert first["receipt"].seq == 1


def test_malformed_claims_name_the_claim(fn: Footnote) -> None:
    answer, claims, calls, _ = overdue_answer(fn)
    with pytest.raises(FootnoteError, match=r"invalid argument claims\[2\]: must be"):
        fn.check_answer(answer, [*claims[:2], {"text": 4}], calls)
    with pytest.raises(FootnoteError, match="invalid argument outcome"):
        fn.check_answer(answer, claims, calls, outcome="maybe")


def test_refusals_and_clarifications_are_recorded_too(db: TestDatabase, fn: Footnote) -> None:
    refused = fn.record_answer("What will revenue be next quarter?",
                               "I can't forecast: footnote-pg reports recorded figures only.", [], [],
                               outcome="refusal", details={"reason": "forecast"})
    asked = fn.record_answer("How much does Bergmann owe?",
                             "Which Bergmann do you mean: Bergmann Bau AG or Bergmann Logistik GmbH?", [], [],
                             outcome="clarification",
                             details={"options": ["Bergmann Bau AG", "Bergmann Logistik GmbH"]})
    assert (refused["status"], asked["status"]) == ("refused", "ambiguous")
    rows = db.rows("SELECT seq, status, details->>'outcome' FROM footnote.ledger ORDER BY seq")
    assert rows == [(1, "refused", "refusal"), (2, "ambiguous", "clarification")]

SUE = "Should we sue Bergmann?"
KLAGEN = "Sollten wir Bergmann verklagen?"


@pytest.mark.parametrize(("question", "text", "status"), [
    (SUE, "I don't give advice on whether to sue them; I can show the recorded facts behind the decision.", "refused"),
    (SUE, "Sue Bergmann? That is a decision I don't advise on.", "refused"),
    (KLAGEN, "Ich gebe keine Empfehlung dazu, ob wir Bergmann verklagen sollten.", "refused"),
    (SUE, "No formal advice, but: sue Bergmann.", "insufficient_evidence"),
    (SUE, "Recommendation: sue Bergmann.", "insufficient_evidence"),
    (KLAGEN, "Ich berate dazu nicht; ich kann die erfassten Fakten zeigen.", "refused"),
    (KLAGEN, "Dazu rate ich nicht, aber: verklagt sie.", "insufficient_evidence"),
])
def test_a_refusal_of_advice_does_not_give_it(fn: Footnote, question: str, text: str, status: str) -> None:
    graded = fn.check_answer(text, None, [], outcome="refusal", question=question)
    assert graded["status"] == status, graded["findings"]
    if status != "refused":
        said = " ".join(f["message"] for f in graded["findings"])
        assert re.search(r"a refusal states “[^”]*\b(sue|verklagt)\b", said), said



def test_a_claim_on_an_unverified_source_fact_is_advisory(fn: Footnote) -> None:
    r = fn.call("supplier_payment_facts", supplier="Northwind Supply")
    composed = fn.compose([r.call_id])
    graded = fn.record_answer("Should we pay Northwind Supply?", composed["answer"], composed["claims"], [r.call_id])
    assert graded["status"] == "partially_verified"
    unverified = [c["text"] for c in graded["claims"] if c["verdict"] == "unverified"]
    assert unverified == ["email", "12.08.2026", "9086", "6 days"]
    assert {c["reason"] for c in graded["claims"] if c["verdict"] == "unverified"} == {"source_unverified"}
    assert {(f["code"], f["severity"]) for f in graded["findings"]} == {("source_unverified", "advisory")}


def test_a_rewording_of_an_unverified_fact_stays_partially_verified(fn: Footnote) -> None:
    r = fn.call("supplier_payment_facts", supplier="Northwind Supply")
    text = fn.compose([r.call_id])["answer"].replace("asks to pay a new account", "requests to pay a new account")
    graded = fn.check_answer(text, None, [r.call_id])
    assert graded["status"] == "partially_verified", graded["findings"]
    unverified = {c["text"] for c in graded["claims"] if c["reason"] == "source_unverified"}
    assert unverified == {"email", "12.08.2026", "9086", "6 days"}


class TestNorthwindDecisions:
    """Agent decisions about paying Northwind Supply, graded per cited fact."""

    @pytest.fixture
    def facts(self, fn: Footnote):
        r = fn.call("supplier_payment_facts", supplier="Northwind Supply")
        change = next(e.id for e in r.evidence if e.type == "bank_change_request")
        payments = [e.id for e in r.evidence if e.type == "supplier_payment"]
        account = next(e.id for e in r.evidence if e.type == "bank_account")
        return r, change, payments, account

    def test_pay_citing_the_pending_change_is_unverified(self, fn: Footnote, facts) -> None:
        r, change, _, _ = facts
        d = fn.decide("pay", "Northwind Supply invoice to account ending 9086", "The supplier asked for it.",
                      [{"evidence": change, "call_id": r.call_id, "fact": "pending_account_ending"}], [r.call_id])
        assert d["outcome"] == "unverified"
        assert d["citations"][0]["verdict"] == "unverified"
        assert d["citations"][0]["verification"] == "none: e-mail only, not called back"

    def test_citing_evidence_never_fetched_is_fabricated(self, fn: Footnote, facts) -> None:
        r, _, _, _ = facts
        d = fn.decide("pay", "Northwind Supply", "Their bank confirmed the change.",
                      [{"evidence": "bank_change_request:999999", "call_id": r.call_id}], [r.call_id])
        assert d["outcome"] == "fabricated" and d["citations"][0]["reason"] == "evidence_not_read"

    def test_citing_nothing_is_unsupported(self, fn: Footnote) -> None:
        d = fn.decide("pay", "Northwind Supply", "Looks fine to me.", [], [])
        assert d["outcome"] == "unsupported"
        assert d["findings"][0]["code"] == "nothing_cited"

    def test_hold_is_graded_per_fact(self, db: TestDatabase, fn: Footnote, facts) -> None:
        r, change, payments, account = facts
        citations = [{"evidence": p, "call_id": r.call_id, "fact": "payment_history"} for p in payments[:3]]
        citations += [{"evidence": account, "call_id": r.call_id, "fact": "paid_account_ending"},
                      {"evidence": change, "call_id": r.call_id, "fact": "pending_account_ending"}]
        d = fn.decide("hold", "Northwind Supply bank change", "14 payments went to the verified account; "
                      "the change request is unverified, so hold and call back.", citations, [r.call_id])
        assert [c["verdict"] for c in d["citations"]] == ["grounded"] * 4 + ["unverified"]
        assert d["outcome"] == "unverified"  # precedence: unsupported > fabricated > unverified > grounded
        row = db.rows("SELECT action, outcome, jsonb_array_length(citations) FROM footnote.decisions", role="auditor")
        assert row == [("hold", "unverified", 5)]

    def test_precedence_fabricated_over_unverified(self, fn: Footnote, facts) -> None:
        r, change, _, _ = facts
        d = fn.decide("pay", "Northwind Supply", "…", [
            {"evidence": change, "call_id": r.call_id},
            {"evidence": "supplier_payment:1", "call_id": "00000000-0000-4000-8000-000000000000"}], [r.call_id])
        assert d["outcome"] == "fabricated"


def test_the_gate_runs_with_the_service_role_only(db: TestDatabase) -> None:
    with db.connect("auditor") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote.record_answer('q', 'a', '[]', '{}')")
    assert caught.value.sqlstate == "42501"

"""Questions end to end: route, catalog calls, composed answer, gate, ledger."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from footnote_pg import Footnote, UnknownEntity
from footnote_pg.compose import INTERPRETATION
from tests.conftest import TestDatabase
from tests.reference import AS_OF, Erp, de_amount, de_count

QUESTIONS = tomllib.loads((Path(__file__).parent / "questions.toml").read_text(encoding="utf-8"))["q"]


@pytest.fixture(scope="module")
def fn(module_db: TestDatabase) -> Footnote:
    return module_db.client("service", actor="zoran", actor_role="controller")


@pytest.fixture(scope="module")
def erp(module_db: TestDatabase) -> Erp:
    return Erp(module_db.url)


def _period(text: str) -> tuple[dt.date, dt.date]:
    t = text.strip().upper()
    if m := re.fullmatch(r"(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})", t):
        return dt.date.fromisoformat(m[1]), dt.date.fromisoformat(m[2]) + dt.timedelta(days=1)
    if m := re.fullmatch(r"(\d{4})-?H([12])|H([12]) (\d{4})", t):
        y, h = (int(m[1]), int(m[2])) if m[1] else (int(m[4]), int(m[3]))
        return dt.date(y, 6 * h - 5, 1), dt.date(y + (h == 2), 1 if h == 2 else 7, 1)
    if m := re.fullmatch(r"(\d{4})-(\d{2})", t):
        y, mo = int(m[1]), int(m[2])
        return dt.date(y, mo, 1), dt.date(y + (mo == 12), mo % 12 + 1, 1)
    if m := re.fullmatch(r"(\d{4})-?Q([1-4])|Q([1-4]) (\d{4})", t):
        y, q = (int(m[1]), int(m[2])) if m[1] else (int(m[4]), int(m[3]))
        start = dt.date(y, 3 * q - 2, 1)
        return start, dt.date(y + (q == 4), (3 * q) % 12 + 1, 1)
    if m := re.fullmatch(r"FY ?(\d{4})|(\d{4})", t):
        y = int(m[1] or m[2])
        return dt.date(y, 1, 1), dt.date(y + 1, 1, 1)
    raise AssertionError(f"unparsed period {text}")


def _customer_id(module_db: TestDatabase, uri: str | None) -> int | None:
    return int(uri.rsplit("/", 1)[1]) if uri else None


def independent_figures(db: TestDatabase, erp: Erp, call_id: str) -> dict[str, str]:
    """The headline figures of a call, computed from the erp tables, keyed by value path."""
    op, args = db.rows("SELECT operation, result->'effective_arguments' FROM footnote.call_log WHERE call_id = %s",
                       (call_id,))[0]
    as_of = dt.date.fromisoformat(args["as_of"]) if args.get("as_of") else AS_OF
    cid = _customer_id(db, args.get("customer"))
    if op in ("customer_overdue", "customer_risk"):
        overdue = erp.overdue(cid, as_of)
        total = sum((b for _, b in overdue), Decimal(0))
        out = {"values.overdue_total": de_amount(total)}
        out["values.invoice_count" if op == "customer_overdue" else "values.overdue_invoice_count"] = \
            de_count(len(overdue))
        if op == "customer_risk":
            out["values.open_ticket_count"] = de_count(len(erp.open_tickets(cid, as_of)))
        return out
    if op == "ar_aging":
        balances = [b for i, b in erp.outstanding(as_of).items()
                    if b > 0 and cid in (None, erp.invoices[i].customer_id)]
        return {"values.total_outstanding": de_amount(sum(balances, Decimal(0)))}
    if op == "revenue":
        return {"values.revenue": de_amount(erp.revenue(*_period(args["period"]), cid))}
    if op == "revenue_change":
        return {"values.revenue_from": de_amount(erp.revenue(*_period(args["period_from"]), cid)),
                "values.revenue_to": de_amount(erp.revenue(*_period(args["period_to"]), cid))}
    if op == "top_customers":
        start, end = _period(args["period"])
        active = {i.customer_id for i in erp.invoices.values() if start <= i.issue_date < end} | {
            c[2] for c in erp.credit_notes if start <= c[3] < end}
        revenues = [erp.revenue(start, end, c) for c in active]
        first = min(revenues) if args.get("direction") == "asc" else max(revenues)
        return {"rows[1].revenue": de_amount(first)}
    if op == "stock_on_hand":
        item = int(args["item"].rsplit("/", 1)[1])
        return {"values.quantity": str(sum((q for _s, i, q in erp.stock if i == item), Decimal(0)))}
    return {}


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["text"][:60] for q in QUESTIONS])
def test_question_file_end_to_end(module_db: TestDatabase, fn: Footnote, erp: Erp, q: dict[str, Any]) -> None:
    answer = fn.ask(q["text"])
    assert answer.status == q["status"], (answer.answer, answer.findings)
    assert answer.receipt is not None and answer.receipt.seq > 0
    assert (answer.kind, answer.intent) == (q["kind"], q["intent"]) or q["status"] == "refused"
    if answer.kind == "clarification":
        assert answer.options == q.get("options", answer.options)
    if q["status"] in ("verified", "partially_verified"):
        assert [c["verdict"] for c in answer.claims if c["verdict"] != "grounded"] == \
            (["unverified"] * len([c for c in answer.claims if c["verdict"] != "grounded"]))
        assert [{"operation": c["operation"], "arguments": c["arguments"]} for c in answer.calls] == \
            [{"operation": c["operation"], "arguments": c["arguments"]} for c in q["calls"]]
        by_path = {(c["call_id"], c["value"]): c["text"] for c in answer.claims}
        for call in answer.calls:
            for path, expected in independent_figures(module_db, erp, call["call_id"]).items():
                if (call["call_id"], path) in by_path:
                    got = by_path[(call["call_id"], path)]
                    if path == "values.quantity":
                        got = got.replace(".", "").replace(",", ".")
                        assert Decimal(got) == Decimal(expected)
                    else:
                        assert got == expected, (q["text"], path)
    for c in answer.claims:
        assert answer.answer[c["span"]["start"]:c["span"]["end"]] == c["text"]


def test_the_seed_example_exactly(db: TestDatabase) -> None:
    fn = db.client("service")
    a = fn.ask("How much does Bergmann Logistik owe?")
    first = a.answer.splitlines()[0]
    assert first == ("Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices, the oldest 104 days past due "
                     "(as of 14.08.2026).")
    assert a.status == "verified"
    cited = {c["text"]: set(c["evidence"]) for c in a.claims[:5]}
    four = {"invoice:8812", "invoice:8834", "invoice:8901", "invoice:8977"}
    assert cited["43.805,00 €"] == four and cited["4"] == four and cited["104 days"] == {"invoice:8812"}
    assert sum(Decimal(e.fields["outstanding"]) for e in a.evidence if e.type == "invoice") == Decimal("43805.00")
    row = db.rows("SELECT status, question FROM footnote.ledger WHERE seq = %s", (a.receipt.seq,))
    assert row == [("verified", "How much does Bergmann Logistik owe?")]


def test_the_risk_interpretation(db: TestDatabase) -> None:
    a = db.client("service").ask("Is Bergmann Logistik at risk?")
    lines = a.answer.splitlines()
    assert lines[0] == "Bergmann Logistik GmbH is at high risk of not paying on time."
    assert lines[1] == INTERPRETATION
    assert lines[2:] == [
        "- 43.805,00 € is overdue across 4 invoices, the oldest 104 days past due (as of 14.08.2026).",
        "- 2 support tickets are open, 1 of them high severity.",
        "- The agreed payment terms are 30 days and the account owner is Ana Kovač.",
    ]
    assert a.answer[a.inference["start"]:a.inference["end"]] == lines[0]
    assert len(a.facts) == 3 and a.status == "verified"


def test_a_clarification_then_the_choice(db: TestDatabase) -> None:
    fn = db.client("service")
    asked = fn.ask("How much does Bergmann owe?")
    assert asked.status == "ambiguous"
    assert asked.options == ["How much does Bergmann Bau AG owe?", "How much does Bergmann Logistik GmbH owe?"]
    chosen = fn.ask(asked.options[1])
    assert chosen.status == "verified" and "43.805,00 €" in chosen.answer
    assert [r[0] for r in db.rows("SELECT status FROM footnote.ledger ORDER BY seq")] == ["ambiguous", "verified"]


def test_an_unknown_customer_is_refused_with_real_alternatives(db: TestDatabase) -> None:
    # the router corrects a name a letter off itself; a name it passes on that is a word off gets the close ones
    from footnote_pg.answers import _refusal_for_error

    with pytest.raises(UnknownEntity) as caught:
        db.client("service").call("customer_overdue", customer="Bergman Logistics")
    reason, message, _, alternatives = _refusal_for_error(caught.value)
    assert reason == "unknown_entity"
    assert message.startswith("There is no customer named “Bergman Logistics”. The closest names are: "
                              "Bergmann Logistik GmbH; ")
    names = {r[0] for r in db.rows("SELECT name FROM erp.customers")}
    listed = [alt["name"] for alt in alternatives]
    assert listed and set(listed) <= names
    assert message.endswith("The closest names are: " + "; ".join(listed) + ("" if listed[-1].endswith(".") else "."))


def test_an_unknown_customer_with_no_close_name_is_told_how_to_list_them(db: TestDatabase) -> None:
    a = db.client("service").ask("How much does Acme Corporation owe?")
    assert a.status == "refused" and a.reason == "unknown_entity" and a.alternatives == []
    assert a.answer == ("There is no customer named “Acme Corporation”. No customer name is close to it; ask “List "
                        "customers” to see the real ones.")


def test_change_verbs_agree_with_the_sign(db: TestDatabase, erp: Erp) -> None:
    fn = db.client("service")
    for a_period, b_period in (("2026-Q1", "2026-Q2"), ("2026-Q2", "2026-Q1"), ("2026-Q2", "2026-Q2")):
        a, b = erp.revenue(*_period(a_period)), erp.revenue(*_period(b_period))
        r = fn.call("revenue_change", period_from=a_period, period_to=b_period)
        text = fn.compose([r.call_id])["answer"]
        verb = "rose" if b > a else "fell" if b < a else "was unchanged"
        assert f"Revenue {verb}" in text


def test_every_claim_of_every_answer_cites_what_its_call_returned(db: TestDatabase) -> None:
    fn = db.client("service")
    for question in ("Show AR aging", "Top 5 customers by revenue in FY2025", "Why did revenue fall in Q2?",
                     "Should we pay Northwind Supply?", "Show invoice INV-2026-8812"):
        a = fn.ask(question)
        assert a.claims, question
        for c in a.claims:
            assert a.answer[c["span"]["start"]:c["span"]["end"]] == c["text"]
            assert c["verdict"] in ("grounded", "unverified"), (question, c)


class TestNarrator:
    """A narrator may rephrase; its output goes back through the gate, which records what was offered."""

    QUESTION = "How much does Bergmann Logistik owe?"

    def test_one_that_alters_a_figure_is_blocked(self, db: TestDatabase) -> None:
        a = db.client("service").ask(self.QUESTION, narrator=lambda text: text.replace("43.805,00 €", "45.000,00 €"))
        assert "43.805,00 €" in a.answer and "45.000,00 €" not in a.answer
        assert a.status == "verified" and a.notes["narration"]["kept"] is False
        stored = db.scalar("SELECT details->'narration' FROM footnote.ledger")
        assert stored["offered"] is True and stored["kept"] is False and "45.000,00 €" in stored["text"]
        assert stored["status"] == "insufficient_evidence"
        assert {f["code"] for f in stored["findings"]} >= {"unsupported_digits", "statement_missing"}

    def test_one_that_drops_a_figure_is_blocked(self, db: TestDatabase) -> None:
        a = db.client("service").ask(self.QUESTION, narrator=lambda text: text.split(" overdue across")[0] + ".")
        assert a.notes["narration"]["kept"] is False and "104 days" in a.answer
        assert "statement_missing" in {f["code"] for f in a.notes["narration"]["findings"]}

    def test_one_that_adds_a_figure_is_blocked(self, db: TestDatabase) -> None:
        a = db.client("service").ask(self.QUESTION, narrator=lambda text: text + " Roughly 12 % of annual sales.")
        assert a.notes["narration"]["kept"] is False and "12 %" not in a.answer
        assert a.notes["narration"]["status"] == "insufficient_evidence"

    def test_one_that_adds_a_sentence_without_digits_is_blocked(self, db: TestDatabase) -> None:
        a = db.client("service").ask(self.QUESTION, narrator=lambda text: text + "\nThey are a fraud risk.")
        assert a.notes["narration"]["kept"] is False and "fraud" not in a.answer
        stored = db.scalar("SELECT details->'narration' FROM footnote.ledger")
        bad = [s for s in stored["sentences"] if s["verdict"] != "grounded"]
        assert [s["text"] for s in bad] == ["They are a fraud risk."] and bad[0]["verdict"] == "unsupported"

    def test_one_that_only_rephrases_is_kept(self, db: TestDatabase) -> None:
        def rephrase(text: str) -> str:
            return text.replace(" owes ", " has ").replace(" overdue across ", " past due on ")

        a = db.client("service").ask(self.QUESTION, narrator=rephrase)
        assert a.notes["narration"]["kept"] is True
        assert a.answer.startswith("Bergmann Logistik GmbH has 43.805,00 € past due on 4 invoices")
        assert a.status == "verified"
        assert all(a.answer[c["span"]["start"]:c["span"]["end"]] == c["text"] for c in a.claims)
        assert db.scalar("SELECT answer FROM footnote.ledger") == a.answer

    def test_a_narrator_that_fails_leaves_the_template(self, db: TestDatabase) -> None:
        def broken(text: str) -> str:
            raise RuntimeError("model unavailable")

        a = db.client("service").ask(self.QUESTION, narrator=broken)
        assert a.status == "verified" and a.answer.startswith("Bergmann Logistik GmbH owes")
        assert "model unavailable" in db.scalar("SELECT details->>'narrator_error' FROM footnote.ledger")


def test_questions_asked_at_once_under_serializable_all_come_back(db: TestDatabase) -> None:
    """Every transaction of the service in SERIALIZABLE (the role's default): questions asked at once by six
    threads lose serialization conflicts to each other, and each is asked again, not raised; every one is
    answered and recorded, and the chain verifies."""
    import threading

    from psycopg import sql

    with db.connect() as conn:  # this database only
        conn.execute(sql.SQL("ALTER ROLE fn_test_service IN DATABASE {} SET default_transaction_isolation = "
                             "'serializable'").format(sql.Identifier(db.name)))
    fn = Footnote(db.url_as("service"), min_size=6, max_size=6)
    with fn.transaction() as conn:
        assert conn.execute("SHOW transaction_isolation").fetchone() == ("serializable",)
    answers: list[Any] = []

    def ask() -> None:
        for question in ("How much does Bergmann Logistik owe?", "Show AR aging"):
            try:
                answers.append(fn.ask(question))
            except Exception as exc:  # noqa: BLE001 (the test reports what came back)
                answers.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    fn.close()
    assert len(answers) == 12 and all(getattr(a, "ok", False) for a in answers), answers
    assert db.scalar("SELECT count(*) FROM footnote.ledger") + db.scalar(
        "SELECT count(*) FROM footnote.ledger_queue") == 12
    assert db.rows("SELECT ok FROM footnote.verify_chain()") == [(True,)]

"""The statement gate in SQL: the authority whichever way a text arrives, bad input, roles, upgrades."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from footnote_pg import Footnote, FootnoteError, install
from tests.conftest import TestDatabase
from tests.snapshot import snapshot

QUESTION = "How much does Bergmann Logistik owe?"


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="zoran", actor_role="controller")


def _overdue(fn: Footnote) -> tuple[str, dict[str, Any]]:
    r = fn.call("customer_overdue", customer="Bergmann Logistik")
    return r.call_id, fn.compose([r.call_id], intent="overdue", question=QUESTION)


def test_a_statement_is_bound_to_call_path_subject_measure_and_period(fn: Footnote) -> None:
    call_id, t = _overdue(fn)
    total = next(c for c in t["claims"] if c["text"] == "43.805,00 €")
    assert total["call_id"] == call_id and total["value"] == "values.overdue_total"
    assert total["statement"] == {
        "measure": "overdue_total",
        "subject": "customer:4471",
        "period": "14.08.2026",
        "sign": None,
    }
    row = next(c for c in t["claims"] if c["text"] == "18.450,00 €")
    assert row["statement"]["subject"] == "invoice:8812" and row["statement"]["measure"] == "outstanding"
    change = fn.call("revenue_change", period_from="2026-Q1", period_to="2026-Q2")
    claims = fn.compose([change.call_id])["claims"]
    assert {c["value"]: c["statement"]["sign"] for c in claims if c["statement"]["sign"] is not None} == {
        "values.change": 1,
        "values.change_percent": 1,
    }
    assert next(c for c in claims if c["value"] == "values.revenue_from")["statement"]["period"] == "Q1 2026"


def test_direct_sql_gets_the_python_paths_verdict(db: TestDatabase) -> None:
    """A service calling record_answer in SQL cannot record a narration the Python path would reject."""
    call_id, t = _overdue(db.client("service"))
    forged = t["answer"].replace(" owes ", " is owed ", 1)
    with db.connect("service") as conn:
        row = conn.execute(
            "SELECT footnote.record_answer(%s, %s, NULL, %s::uuid[])", (QUESTION, forged, [call_id])
        ).fetchone()[0]
    assert row["status"] == "insufficient_evidence"
    assert "contradicts" in {f["code"] for f in row["findings"]}
    assert db.scalar("SELECT status FROM footnote.ledger") == "insufficient_evidence"
    assert db.scalar("SELECT answer FROM footnote.ledger") == forged  # recorded as offered, graded as it is


def test_a_rejected_narration_is_recorded_with_its_findings(db: TestDatabase, fn: Footnote) -> None:
    call_id, t = _overdue(fn)
    graded = fn.record_answer(
        QUESTION,
        t["answer"],
        t["claims"],
        [call_id],
        template={"intent": "overdue"},
        narration=t["answer"] + "\nThey have promised to pay next week.",
    )
    assert graded["status"] == "verified" and graded["answer"] == t["answer"]
    row = db.rows("SELECT answer, details->'narration' FROM footnote.ledger")[0]
    assert row[0] == t["answer"]
    narration = row[1]
    assert narration["offered"] is True and narration["kept"] is False
    assert narration["status"] == "insufficient_evidence"
    assert narration["sentences"][-1]["verdict"] == "unsupported"
    assert {f["code"] for f in narration["findings"]} >= {"unsupported_words", "unsupported_statement"}


def test_an_agents_text_is_graded_sentence_by_sentence_with_a_fallback(db: TestDatabase, fn: Footnote) -> None:
    r = fn.call("customer_risk", customer="Bergmann Logistik")
    text = (
        "Bergmann Logistik is at high risk of not paying on time: 43.805,00 € is overdue across 4 invoices, "
        "the oldest 104 days past due (as of 14.08.2026). Also, 2 support tickets are open, 1 of them high "
        "severity.\nThe agreed payment terms are 45 days."
    )
    graded = fn.submit_answer("Is Bergmann Logistik at risk?", text, [r.call_id])
    verdicts = [(s["text"][:20], s["verdict"]) for s in graded["sentences"]]
    assert verdicts[-1] == ("The agreed payment t", "fabricated")
    assert graded["status"] == "insufficient_evidence"
    assert graded["fallback"]["answer"].startswith("Bergmann Logistik GmbH is at high risk of not paying on time.")
    assert graded["receipt"].seq == 1
    assert db.scalar("SELECT details->>'fallback' FROM footnote.ledger") == graded["fallback"]["answer"]


def test_a_summary_may_leave_out_a_figure_but_not_what_makes_it_true(fn: Footnote) -> None:
    """A figure left out with its words passes; the as-of date, the subject, a figure cut out of its words or
    replaced by another number block; a signature's contact lines and a mail header state nothing."""
    call_id, _ = _overdue(fn)

    def status(text: str) -> str:
        graded: dict[str, Any] = fn.check_answer(text, None, [call_id], question=QUESTION)
        return str(graded["status"])

    head = "Bergmann Logistik GmbH owes 43.805,00 € overdue"
    assert status(f"{head} (as of 14.08.2026).") == "verified"
    assert status("Bergmann Logistik GmbH has 4 overdue invoices (as of 14.08.2026).") == "verified"
    assert status(f"{head} across 4 invoices.") == "insufficient_evidence"  # the as-of date
    assert status(f"{head} across invoices (as of 14.08.2026).") == "insufficient_evidence"  # cut out
    assert status("Bergmann Logistik GmbH owes overdue across 4 invoices (as of 14.08.2026).") == "insufficient_evidence"
    assert status(f"{head} across 5 invoices (as of 14.08.2026).") == "insufficient_evidence"
    aging = fn.call("ar_aging", customer="Vidal Embalajes")
    part = fn.check_answer("Vidal Embalajes S.A.: 128.028,90 € overdue, 9 invoices, as of 14.08.2026", None,
                           [aging.call_id], question="AR aging for Vidal Embalajes")
    assert part["status"] == "insufficient_evidence"  # the open total said to be overdue
    mail = (f"From: Jonas Weber <j.weber@example.com>\nSent: Thu 3 Dec 2026 09:14\nTo: Sandra Keller\n\n"
            f"Hi Sandra,\n\n{head} (as of 14.08.2026).\n\nBest regards,\nJonas Weber\n"
            "Accounts Receivable | Tel. +49 89 4471 2200 | Fax +49 89 4471 2299\n"
            "Weber Handel GmbH · Lindenstraße 8 · 80331 München")
    assert status(mail) == "verified"
    assert status(mail.replace("Fax +49 89 4471 2299", "Total 48.805,00 €")) == "insufficient_evidence"
    assert status(mail.replace("To: Sandra Keller", "Subject: 5 invoices")) == "insufficient_evidence"


def test_a_summary_or_a_loose_line_adds_no_name_total_party_or_number_word(fn: Footnote) -> None:
    """What a summary leaves out cannot be filled in by other words: a name the answer does not say (a person,
    a place, another account owner), a total that is a part, a party that turns the direction, a number in words."""
    profile = fn.call("customer_profile", customer="Bergmann Logistik")
    answer = fn.compose([profile.call_id], question="Show the profile of Bergmann Logistik")["answer"]

    def graded(text: str, call_id: str, question: str) -> str:
        return str(fn.check_answer(text, None, [call_id], question=question)["status"])

    q = "Show the profile of Bergmann Logistik"
    assert "Ana Kovač" in answer and graded(answer, profile.call_id, q) == "verified"
    assert graded(answer + "\nAccount owner: Ana Kovač", profile.call_id, q) == "verified"
    for added in ("\nAccount owner: Sofia Rossi", " The CFO is Sofia Rossi.", " HQ in Munich.", "\nCity: Munich"):
        assert graded(answer + added, profile.call_id, q) == "insufficient_evidence", added
    aging = fn.call("ar_aging", customer="Pichler Haustechnik")
    q = "AR aging for Pichler Haustechnik"
    assert graded("Pichler Haustechnik GmbH, 14.08.2026: 74.382,11 € overdue.", aging.call_id, q) == "verified"
    assert graded("Pichler Haustechnik GmbH, 14.08.2026: total 74.382,11 €.", aging.call_id, q) == "insufficient_evidence"
    call_id, _ = _overdue(fn)
    assert graded("We're 43.805,00 € overdue to Bergmann Logistik GmbH as of 14.08.2026.", call_id,
                  QUESTION) == "insufficient_evidence"
    # a sign-off is signed with a name written with a capital: "Thanks for asking." signs nothing
    q = "What is the weather in Berlin?"
    refusal = fn.ask(q)
    assert refusal.status == "refused"
    for text, status in (("None of the available operations answers this question.\n\nGruß Julia", "refused"),
                         ("Thanks for asking. None of the available operations answers this question, but it is "
                          "sunny in Berlin.", "insufficient_evidence")):
        assert str(fn.check_answer(text, None, [], outcome="refusal", question=q)["status"]) == status, text
    # one count kept where the statement has two: the open count may not pass as the overdue one
    payables = fn.call("accounts_payable")
    q = "What do we owe our suppliers?"
    head = "Accounts payable as of 14.08.2026: 194.824,63 € open"
    assert graded(f"{head}, 129.786,95 € of it overdue.", payables.call_id, q) == "verified"
    for text in (f"{head}, 129.786,95 € of it overdue across 23 supplier invoices.",
                 "Kreditoren per 14.08.2026: 194.824,63 € offen, davon 129.786,95 € überfällig aus 23 Rechnungen."):
        assert graded(text, payables.call_id, q) == "insufficient_evidence", text


def test_periods_buckets_percentages_and_keys_are_read_as_people_write_them(fn: Footnote) -> None:
    """Q2/2026, 2. Quartal 2026, Jul 2026, 07/2026, 90+ days, > 90 Tage, 12,4%, a YAML or JSON key that names the
    unit of its number: each another spelling of what the answer says; another period, bucket, number or unit
    still blocks."""

    def graded(text: str, question: str, operation: str, **arguments: Any) -> str:
        call = fn.call(operation, **arguments)
        return str(fn.check_answer(text, None, [call.call_id], question=question)["status"])

    q2 = "Umsatz {p}: 2.962.843,74 € aus 376 Rechnungen (13 Gutschriften)."
    for period in ("im 2. Quartal 2026", "Q2/2026", "2Q26", "Q2-2026"):
        assert graded(q2.format(p=period), "Revenue in Q2 2026", "revenue", period="2026-Q2") == "verified", period
    for period in ("Q3/2026", "2Q25", "im 3. Quartal 2026"):
        assert graded(q2.format(p=period), "Revenue in Q2 2026", "revenue", period="2026-Q2") \
            == "insufficient_evidence", period
    july = "Revenue {p}: 1.005.804,94 € (134 invoices, 4 credit notes)."
    for period in ("Jul 2026", "Juli 2026", "07/2026", "2026-07"):
        assert graded(july.format(p=period), "Revenue in July 2026", "revenue", period="2026-07") == "verified", period
    assert graded(july.format(p="06/2026"), "Revenue in July 2026", "revenue", period="2026-07") \
        == "insufficient_evidence"
    week = "Umsatz {p}: 230.115,24 € (30 Rechnungen, 2 Gutschriften)."
    for period, status in (("KW 32", "verified"), ("week 32", "verified"), ("KW 33", "insufficient_evidence")):
        assert graded(week.format(p=period), "Umsatz KW 32", "revenue", period="2026-08-03..2026-08-09") == status, period
    aging = "Accounts receivable as of 14.08.2026: 2.812.279,42 € open across 321 invoices, 1.431.017,32 € of it " \
        "overdue across 182 invoices.\n{b}: 424.915,57 €"
    for bucket in ("- 90+ days", "- > 90 Tage", "- more than 90 days", "| 90+"):
        text = aging.format(b=bucket).replace("| 90+:", "90+:")
        assert graded(text, "Show AR aging", "ar_aging") == "verified", bucket
    for bucket in ("- 60+ days", "- < 90 Tage", "- 31-60 days"):
        assert graded(aging.format(b=bucket), "Show AR aging", "ar_aging") == "insufficient_evidence", bucket
    change = "Revenue rose from 2.636.388,74 € in Q1 2026 to 2.962.843,74 € in Q2 2026, by 326.455,00 € ({pct})."
    for pct in ("12,4%", "+12,4%", "12,4 pct"):
        assert graded(change.format(pct=pct), "How did revenue change from Q1 2026 to Q2 2026?", "revenue_change",
                      period_from="2026-Q1", period_to="2026-Q2") == "verified", pct
    assert graded(change.format(pct="12,5%"), "How did revenue change from Q1 2026 to Q2 2026?", "revenue_change",
                  period_from="2026-Q1", period_to="2026-Q2") == "insufficient_evidence"
    yaml = "customer: Janssens & Peeters NV\noverdue: 849,45 €\ninvoices: 2\noldest_days_past_due: {d}\nas_of: 14.08.2026"
    json = ('{{"customer": "Janssens & Peeters NV", "overdue": "849,45 €", "invoices": 2, "oldest_days_past_due": {d}, '
            '"as_of": "14.08.2026"}}')
    q = "How much does Janssens & Peeters owe?"
    for form in (yaml, json):
        assert graded(form.format(d=37), q, "customer_overdue", customer="Janssens & Peeters") == "verified", form
        assert graded(form.format(d=38), q, "customer_overdue", customer="Janssens & Peeters") \
            == "insufficient_evidence", form
    assert graded(yaml.format(d=37).replace("oldest_days_past_due", "oldest_weeks_past_due"), q, "customer_overdue",
                  customer="Janssens & Peeters") == "insufficient_evidence"


def _graded(fn: Footnote, question: str, *texts: str) -> list[str]:
    """The gate's status for each text (``{A}`` stands for the answer's own text) as a restatement of the answer
    the question gets: an answer's template, or a refusal's or clarification's question."""
    a = fn.ask(question)
    outcome = {"refused": "refusal", "ambiguous": "clarification"}.get(a.status, "answer")
    template = {"intent": a.intent, "notes": {k: v for k, v in a.notes.items() if isinstance(v, str)}}
    return [str(fn.check_answer(t.replace("{A}", a.answer), None, [c["call_id"] for c in a.calls], outcome=outcome,
                                template=template if outcome == "answer" else None, question=question)["status"])
            for t in texts]


def test_a_refusal_may_name_what_it_declines_and_still_states_nothing(fn: Footnote) -> None:
    """A refusal may repeat the question (as a question), name the place or currency it was asked about and say
    what it will not do; a prediction, a number or a name stated beside that is still refused."""
    assert _graded(fn, "Will Bergmann Logistik pay next month?",
                   "Q: Will Bergmann Logistik pay next month?\nA: I don't forecast; I only report recorded figures.",
                   "Whether Bergmann Logistik will pay next month isn't something I can tell you: I only report "
                   "figures that are already recorded.",
                   "I won't forecast that.") == ["refused"] * 3
    assert "refused" not in _graded(fn, "Will Bergmann Logistik pay next month?",
                                    "Bergmann Logistik will pay next month.",
                                    "I can't tell you, but Bergmann Logistik will pay next month, won't it?",
                                    "I won't forecast, but they will probably pay.")
    assert _graded(fn, "What is the weather in Berlin?", "**Q:** Weather in Berlin?\n**A:** None of the available "
                   "operations answers that.", "I can't tell you the weather in Berlin.") == ["refused"] * 2
    assert _graded(fn, "What is the weather in Berlin?", "Bergmann Logistik pays from Berlin.",
                   "Nothing answers that, but it is sunny in Hamburg.") == ["insufficient_evidence"] * 2
    assert _graded(fn, "What is revenue in dollars?", "No USD figure: amounts are reported only in the currency "
                   "they are recorded in.", "Umsatz in Dollar gibt es nicht: Beträge werden nur in der erfassten "
                   "Währung berichtet.") == ["refused"] * 2
    assert _graded(fn, "What is revenue in dollars?", "Revenue is about 3 million USD.") == ["insufficient_evidence"]


def test_a_letter_in_any_language_is_signed_by_names_not_by_claims(fn: Footnote) -> None:
    """Greetings and sign-offs of other languages, a name alone under the text and the team lines under it sign a
    letter; a word of the vocabulary under a sign-off ("Disputed", "Insolvent") is a claim, never a signature."""
    body = "Lindqvist Elteknik AB owes 2.591,97 € overdue on 1 invoice, 551 days past due as of 14.08.2026."
    q = "How much does Lindqvist Elteknik owe?"
    assert _graded(fn, q, f"Hej Mia,\n\n{body}\n\nTack!\nLars Berg\nSales Nordics | +46 8 555 120 90",
                   f"Hei Ingrid,\n\n{body}\n\nMed vennlig hilsen\nKari Nordmann\nKredittkontroll | +47 22 41 90 10",
                   f"{body}\n\nJonas Wirth\nCredit Controller, Nordics",
                   f"{body}\n\nBest,\nJonas Wirth\nAccounts Receivable") == ["verified"] * 4
    assert _graded(fn, q, f"{body}\n\nBest,\nDisputed", f"{body}\n\nBergmann Logistik\nInsolvent",
                   f"{body}\n\nBest,\nOverdue Insolvent Team") == ["insufficient_evidence"] * 3


def test_what_people_write_for_none_the_first_the_whole_and_a_documents_amount(fn: Footnote) -> None:
    """"no open tickets" for a count of 0, "owes us the most" for the first of a ranking, "all of it overdue" where
    the part is the whole, "INV-… (18.450,00 €)", a table's row numbers, "unchanged since", the question restated
    with its names: read as what they say, and blocked where that is not what the calls returned."""
    risk = ("{c} is at high risk of not paying on time (interpretation). Facts: {f}; no open support tickets; "
            "payment terms 30 days, account owner {o}.")
    assert _graded(fn, "Is Braun Feinmechanik at risk?", risk.format(
        c="Braun Feinmechanik GmbH", o="Jonas Weber",
        f="53.057,01 € overdue across 6 invoices, the oldest 547 days past due (as of 14.08.2026)")) == ["verified"]
    assert _graded(fn, "Is Bergmann Logistik at risk?", risk.format(
        c="Bergmann Logistik GmbH", o="Ana Kovač",
        f="43.805,00 € overdue across 4 invoices, the oldest 104 days past due (as of 14.08.2026)")) \
        == ["insufficient_evidence"]
    assert _graded(fn, "Which items are below reorder level?", "No items are below their reorder level (0).",
                   "Derzeit liegt kein Artikel unter dem Meldebestand (0 Artikel).") == ["verified"] * 2
    most = "Nieminen Tekniikka Oy owes us the {w}: 177.101,04 € overdue as of 14.08.2026."
    assert _graded(fn, "Who owes us the most?", most.format(w="most"), most.format(w="least")) \
        == ["verified", "insufficient_evidence"]
    month = "Revenue 01.01.2026–14.08.2026: 6.983.043,58 € in total; {m} had the most invoices ({n})."
    assert _graded(fn, "monthly revenue for 2026 so far", month.format(m="July 2026", n=134),
                   month.format(m="June 2026", n=130)) == ["verified", "insufficient_evidence"]
    aging = "{c}: {o} open across {n} invoices, all of it overdue. As of 14.08.2026."
    assert _graded(fn, "AR aging for Bergmann Logistik", aging.format(c="Bergmann Logistik GmbH", o="43.805,00 €", n=4)) \
        == ["verified"]
    assert _graded(fn, "AR aging for Vidal Embalajes", aging.format(c="Vidal Embalajes S.A.", o="128.028,90 €", n=9)) \
        == ["insufficient_evidence"]
    owes = "Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices as of 14.08.2026."
    assert _graded(fn, QUESTION, owes + " The oldest, INV-2026-8812 (18.450,00 €), is 104 days past due.",
                   "**Q:** How much does Bergmann Logistik owe?\n**A:** 43.805,00 € overdue across 4 invoices, the "
                   "oldest 104 days past due (as of 14.08.2026).") == ["verified"] * 2
    assert _graded(fn, QUESTION, owes.replace("43.805,00 €", "(43.805,00 €)"),
                   "**Q:** How much does Bergmann Logistik owe?\n**A:** Vidal Embalajes S.A. owes 43.805,00 € "
                   "overdue across 4 invoices (as of 14.08.2026).") == ["insufficient_evidence"] * 2
    rows = [("Nieminen Tekniikka Oy", "177.101,04 €", 12), ("Østergaard Maskinfabrik A/S", "132.826,48 €", 15),
            ("Pichler Haustechnik GmbH", "74.382,11 €", 8)]

    def table(order: list[int]) -> str:
        lines = [f"| {i} | {rows[o][0]} | {rows[o][1]} | {rows[o][2]} |" for i, o in enumerate(order, 1)]
        return "\n".join(["| # | Customer | Overdue | Invoices |", "|--:|---|--:|--:|", *lines,
                          "", "As of 14.08.2026; 39 customers have something overdue."])

    assert _graded(fn, "Top 3 customers by overdue", table([0, 1, 2]), table([1, 0, 2])) \
        == ["verified", "insufficient_evidence"]
    assert _graded(fn, "Should we pay Northwind Supply?",
                   "{A}".replace("{A}", "{A}"),
                   ) == ["partially_verified"]
    pay = fn.ask("Should we pay Northwind Supply?").answer
    assert "has not changed since 03.07.2023" in pay
    assert _graded(fn, "Should we pay Northwind Supply?",
                   pay.replace("The phone number on file has not changed since", "Phone number on file unchanged since"),
                   pay.replace("has not changed since", "changed on")) == ["partially_verified", "insufficient_evidence"]


def test_figures_are_found_on_token_boundaries_longest_first(fn: Footnote) -> None:
    """'2' of Q2 2026 is not the rank 2, '4' of 43.805,00 € is not the count 4."""
    r = fn.call("top_customers", period="2026-Q2", limit=5)
    t = fn.compose(
        [r.call_id], intent="top_customers", notes={"period": "last quarter"}, question="Top 5 customers last quarter"
    )
    graded = fn.check_answer(
        "Sure — " + t["answer"],
        None,
        [r.call_id],
        template={"intent": "top_customers", "notes": {"period": "last quarter"}},
        question="Top 5 customers last quarter",
    )
    assert graded["status"] == "verified", graded["findings"]
    spans = sorted((c["span"]["start"], c["span"]["end"]) for c in graded["claims"])
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert sum(1 for c in graded["claims"] if c["value"].endswith(".rank")) == 5


MERGED = ("As of 14.08.2026 Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices, the oldest 104 days past "
          "due, and the largest of them, {inv}, has {amount} outstanding.")


def test_a_line_that_merges_a_headline_and_a_row_binds_each_figure_to_its_statement(fn: Footnote) -> None:
    """Each figure goes with the statement that holds its value; one moved to another row or statement blocks."""
    call_id, _ = _overdue(fn)

    def status(text: str) -> str:
        graded = fn.check_answer(text, None, [call_id], template={"intent": "overdue"}, question=QUESTION)
        return str(graded["status"])

    assert status(MERGED.format(inv="INV-2026-8812", amount="18.450,00 €")) == "verified"
    for inv, amount in (("INV-2026-8812", "11.200,00 €"), ("INV-2026-8834", "18.450,00 €"),
                        ("INV-2026-8812", "43.805,00 €")):
        assert status(MERGED.format(inv=inv, amount=amount)) == "insufficient_evidence", (inv, amount)
    assert status(MERGED.format(inv="INV-2026-8812", amount="18.450,00 €").replace("largest", "smallest")) \
        == "insufficient_evidence"


def test_the_template_cost_path_and_a_rewording_agree(fn: Footnote) -> None:
    call_id, t = _overdue(fn)
    same = fn.check_answer(t["answer"], t["claims"], [call_id], template={"intent": "overdue"})
    found = fn.check_answer(t["answer"], None, [call_id], template={"intent": "overdue"})
    assert same["status"] == found["status"] == "verified"
    assert [(c["text"], c["value"]) for c in same["claims"]] == [(c["text"], c["value"]) for c in found["claims"]]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda fn, c: fn.check_answer("x", None, [c], template=["not", "an", "object"]), "invalid argument template"),
        (lambda fn, c: fn.check_answer("x", None, [c], template={"notes": "x"}), "notes must be a JSON object"),
        (lambda fn, c: fn.check_answer("x", None, [c], template={"intent": 5}), "intent must be a string"),
        (lambda fn, c: fn.check_answer("", None, [c]), "invalid argument answer"),
        (lambda fn, c: fn.check_answer("a\x07b", None, [c]), "control characters"),
        (lambda fn, c: fn.record_answer("q", "x", None, [c], narration="a\x01"), "invalid argument narration"),
        (lambda fn, c: fn.record_answer("q", "x", None, [c], narration="x" * 20001), "invalid argument narration"),
        (lambda fn, c: fn.submit_answer("", "x", [c]), "invalid argument question"),
        (lambda fn, c: fn.submit_answer("q", "x", []), "invalid argument call_ids"),
        (lambda fn, c: fn.submit_answer("q", "x", ["00000000-0000-4000-8000-000000000000"]), "was never made"),
        (lambda fn, c: fn.submit_answer("q", "x", [c], details={"a": "x" * 100001}), "invalid argument details"),
        (lambda fn, c: fn.submit_answer("q", "x", ["nope"]), "is not a call id"),
        (lambda fn, c: fn.compose([]), "invalid argument call_ids"),
        (lambda fn, c: fn.compose(["00000000-0000-4000-8000-000000000000"]), "was never made"),
        (lambda fn, c: fn.compose([c], intent="x" * 61), "invalid argument intent"),
    ],
)
def test_bad_input_is_one_clear_error_and_records_nothing(
    db: TestDatabase, fn: Footnote, call: Any, expected: str
) -> None:
    call_id = fn.call("customer_overdue", customer="Bergmann Logistik").call_id
    with pytest.raises(FootnoteError) as caught:
        call(fn, call_id)
    assert expected in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == 0
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0


def test_another_actors_calls_cannot_back_a_submission(db: TestDatabase) -> None:
    mine = db.client("service", actor="zoran")
    other = db.client("service", actor="mallory")
    call_id = mine.call("customer_overdue", customer="Bergmann Logistik").call_id
    with pytest.raises(FootnoteError) as caught:
        other.submit_answer(QUESTION, "Bergmann Logistik GmbH owes 43.805,00 €.", [call_id])
    assert "made by another role or actor" in str(caught.value)
    with pytest.raises(FootnoteError):
        other.compose([call_id])


def test_a_list_a_shared_date_and_the_row_just_named_say_what_they_say(fn: Footnote) -> None:
    """A table of every row says how many there are; an as-of date the whole answer shares may stand once; a DSO
    on each of two dates is named by its date; a clause goes on about the one row whose value was just said; a
    sign word stands before its figure; a later word of a name may stand for it. Each blocked where it is not what
    the calls returned."""
    table = ("| Invoice | Outstanding | Due | Days overdue |\n|---|---|---|---|\n{rows}| Total | 18.785,48 € | | |\n\n"
             "Meccanica Rinaldi S.p.A., as of 14.08.2026.")
    both = "| INV-2026-9039 | 11.992,53 € | 19.07.2026 | 26 |\n| INV-2026-9204 | 6.792,95 € | 29.07.2026 | 16 |\n"
    assert _graded(fn, "How much does Meccanica Rinaldi owe?", table.format(rows=both),
                   table.format(rows=both.split("\n")[0] + "\n")) == ["verified", "insufficient_evidence"]
    compare = ("Bergmann Logistik GmbH hat 43.805,00 € overdue (4 Rechnungen, älteste 104 Tage), Vidal Embalajes S.A. "
               "24.631,65 € (3 Rechnungen, älteste {d} Tage) — Stand 14.08.2026.")
    assert _graded(fn, "Compare overdue of Bergmann Logistik and Vidal Embalajes", compare.format(d=18),
                   compare.format(d=104)) == ["verified", "insufficient_evidence"]
    assert _graded(fn, "DSO now vs end of 2025", "DSO: 66,8 Tage am 31.12.2025, jetzt 70,3 Tage (14.08.2026).",
                   "DSO: 70,3 Tage am 31.12.2025, jetzt 66,8 Tage (14.08.2026).",
                   "DSO: 66,8 Tage, jetzt 70,3 Tage (31.12.2025 / 14.08.2026).") \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]
    owe = "We owe Northwind Supply 25.480,00 € on 1 supplier invoice, {d} (as of 14.08.2026); none of it is overdue."
    assert _graded(fn, "What do we owe Northwind Supply?", owe.format(d="due 30.08.2026"),
                   owe.format(d="due 21.09.2026"), owe.format(d="overdue since 30.08.2026")) \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]
    terms = ("Nieminen Tekniikka Oy is at high risk of not paying on time (interpretation). Facts: 177.101,04 € overdue "
             "across 12 invoices, the oldest {o} 447 days past due (as of 14.08.2026); 0 open support tickets; {t} payment "
             "terms, account owner Lars Nilsson.")
    assert _graded(fn, "Is Nieminen Tekniikka at risk?", terms.format(o="only", t="30-day"),
                   terms.format(o="only", t="60-day"), terms.format(o="over", t="30-day")) \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]
    assert _graded(fn, "Revenue last month", "Month: July 2026 (last month)\nRevenue: 1.005.804,94 €",
                   "Month: June 2026 (last month)\nRevenue: 1.005.804,94 €") == ["verified", "insufficient_evidence"]
    krenn = ("Krenn Kältetechnik GmbH schuldet 34.144,61 € überfällig aus 6 Rechnungen (Stand 14.08.2026). Die älteste "
             "(INV-2025-7095 über {a}) ist seit 534 Tagen {s}.")
    assert _graded(fn, "How much does Krenn Kältetechnik owe?", krenn.format(a="8.258,35 €", s="fällig"),
                   krenn.format(a="8.258,35 €", s="bezahlt"), krenn.format(a="9.000,00 €", s="fällig")) \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]
    both = ("Bergmann Logistik 43.805,00 € overdue (4 invoices, oldest 104 days past due); Vidal Embalajes 24.631,65 € "
            "(3 invoices, oldest 18 days past due). Both {s} as of 14.08.2026.")
    assert _graded(fn, "Compare overdue of Bergmann Logistik and Vidal Embalajes", both.format(s=""),
                   both.format(s="have 4 invoices overdue")) == ["verified", "insufficient_evidence"]
    owed = "25.480,00 € owed to Northwind Supply (1 supplier invoice, due 30.08.2026, {s} as of 14.08.2026)."
    assert _graded(fn, "What do we owe Northwind Supply?", owed.format(s="not overdue"), owed.format(s="overdue")) \
        == ["verified", "insufficient_evidence"]
    assert _graded(fn, "What do we owe Hansa Stahlhandel?", "We owe Hansa Stahlhandel GmbH 7.494,56 € on 2 supplier "
                   "invoices: 26-13011 (2.998,39 €, due 06.08.2026, not overdue) and 26-13010 (4.496,17 €, due "
                   "21.08.2026), as of 14.08.2026.") == ["insufficient_evidence"]
    oldest = "Müller Präzisionstechnik: 40.055,54 € overdue / 6 invoices / oldest {d} ({n}) / as of 14.08.2026"
    assert _graded(fn, "How much does Müller owe?", oldest.format(d="266 days", n="INV-2025-8206"),
                   oldest.format(d="266 days", n="INV-2026-8786"), oldest.format(d="117 days", n="INV-2026-8786")) \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]
    change = "Umsatz Q2 2026: 2.962.843,74 €, nach 2.636.388,74 € in Q1 2026 ({s} 12,4 %)."
    assert _graded(fn, "How did revenue change from Q1 2026 to Q2 2026?", change.format(s="plus"),
                   change.format(s="minus")) == ["verified", "insufficient_evidence"]
    drops = "Biggest drops from Q1 2026 to Q2 2026: Hernández −85.726,17 €, {a} −71.620,61 €, {b} −63.323,48 €"
    assert _graded(fn, "which customers had the biggest revenue drop last quarter", drops.format(a="Moreau", b="Lefèvre"),
                   drops.format(a="Lefèvre", b="Moreau"), drops.format(a="Moreau", b="Moreau")) \
        == ["verified", "insufficient_evidence", "insufficient_evidence"]


def test_a_label_before_its_figure_binds_the_figure(fn: Footnote) -> None:
    """In a list that puts each label before its figure ("open 128.028,90 €, overdue 24.631,65 €"), the words of a
    figure's segment are what it is: labels swapped between two figures are blocked, whatever the separator (the
    comma let the swap pass: the word after a figure was read as its label)."""
    question = "AR aging for Vidal Embalajes"
    swapped = [("overdue", "128.028,90 €"), ("open", "24.631,65 €")]
    for sep in (", ", " — ", " | "):
        swap = f"Vidal Embalajes S.A. — {sep.join(f'{w} {v}' for w, v in swapped)} — as of 14.08.2026"
        assert _graded(fn, question, swap) == ["insufficient_evidence"], sep
    assert _graded(fn, question, "Vidal Embalajes S.A.: overdue 128.028,90 €, open 24.631,65 € (as of 14.08.2026).") \
        == ["insufficient_evidence"]
    assert _graded(fn, question, "Vidal Embalajes S.A.: 24.631,65 € open, 128.028,90 € overdue (as of 14.08.2026).") \
        == ["insufficient_evidence"]


def test_the_lexicon_is_read_only_to_the_service_and_hidden_from_outsiders(db: TestDatabase) -> None:
    with db.connect("service") as conn:
        assert conn.execute("SELECT canon FROM footnote.lexicon WHERE phrase = 'rose'").fetchone() == ("up",)
    for role in ("service", "auditor"):
        with db.connect(role) as conn, pytest.raises(psycopg.Error) as caught:
            conn.execute("UPDATE footnote.lexicon SET canon = 'down' WHERE phrase = 'rose'")
        assert caught.value.sqlstate == "42501"
    with db.connect("outsider") as conn, pytest.raises(psycopg.Error):
        conn.execute("SELECT * FROM footnote.lexicon")
    with db.connect("outsider") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote.submit_answer('q', 'x', '{}')")
    assert caught.value.sqlstate in ("42501", "3F000")
    with db.connect("auditor") as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT footnote.compose('{}')")
    assert caught.value.sqlstate == "42501"


def test_the_gate_ignores_shadowing_objects_in_the_callers_path(db: TestDatabase) -> None:
    call_id, t = _overdue(db.client("service"))
    forged = t["answer"].replace("owes", "is owed", 1)
    with db.connect() as conn:
        conn.execute("CREATE SCHEMA shadow AUTHORIZATION fn_test_service")
    with db.connect("service") as conn:
        conn.execute("""
            CREATE FUNCTION shadow.lower(text) RETURNS text LANGUAGE sql AS $$ SELECT 'x' $$;
            CREATE FUNCTION shadow.translate(text, text, text) RETURNS text LANGUAGE sql AS $$ SELECT 'x' $$;
            CREATE FUNCTION shadow.strpos(text, text) RETURNS integer LANGUAGE sql AS $$ SELECT 0 $$;
            CREATE TABLE shadow.lexicon (phrase text, class text, canon text, negated boolean);
            INSERT INTO shadow.lexicon VALUES ('is owed', 'neutral', NULL, false);
            CREATE TEMP TABLE lexicon (phrase text, class text, canon text, negated boolean);
            SET search_path = pg_temp, shadow, public;
        """)
        doc = conn.execute("SELECT footnote.check_answer(%s, NULL, %s::uuid[])", (forged, [call_id])).fetchone()[0]
        good = conn.execute("SELECT footnote.check_answer(%s, NULL, %s::uuid[])", (t["answer"], [call_id])).fetchone()[
            0
        ]
    assert doc["status"] == "insufficient_evidence" and good["status"] == "verified"


def test_numbers_in_any_script_are_numbers(fn: Footnote) -> None:
    call_id, t = _overdue(fn)
    first = t["answer"].split("\n")[0]
    for digits in ("４５", "٤٥", "४५", "𝟒𝟓", "⁴⁵", "④⑤", "½"):
        text = first.replace("104 days", f"{digits} days")
        graded = fn.check_answer(text, None, [call_id], template={"intent": "overdue"})
        assert graded["status"] == "insufficient_evidence", digits
        assert "unsupported_digits" in {f["code"] for f in graded["findings"]}, (digits, graded["findings"])


def test_upgrading_from_each_revision_and_back_gives_it_exactly(server: Any, empty_db: TestDatabase) -> None:
    for revision in ("0001_core", "0002_statements"):
        install.upgrade(empty_db.url, revision)
        before = snapshot(empty_db.url)
        install.upgrade(empty_db.url)
        install.downgrade(empty_db.url, revision)
        assert snapshot(empty_db.url) == before, revision
    install.upgrade(empty_db.url)
    with psycopg.connect(empty_db.url) as conn:
        assert conn.execute("SELECT count(*) > 500 FROM footnote.lexicon").fetchone() == (True,)


def test_the_lexicon_classes_are_what_the_docs_say(db: TestDatabase) -> None:
    rows = dict(db.rows("SELECT class, count(*) FROM footnote.lexicon GROUP BY 1"))
    assert set(rows) == {
        "neutral",
        "discourse",
        "word",
        "negator",
        "numeral",
        "scale",
        "currency",
        "unit",
        "modifier",
        "sign",
    }
    # the words the issue named are read as what they are
    cls = dict(
        db.rows(
            "SELECT phrase, class || coalesce(':' || canon, '') || CASE WHEN negated THEN '!' ELSE '' END "
            "FROM footnote.lexicon WHERE phrase = ANY(%s)",
            (
                [
                    "rose",
                    "fell",
                    "is owed",
                    "million",
                    "a dozen",
                    "twelve",
                    "per month",
                    "not yet due",
                    "unverified",
                    "above",
                    "below",
                ],
            ),
        )
    )
    assert cls == {
        "rose": "word:up",
        "fell": "word:down",
        "is owed": "word:owed to",
        "million": "scale",
        "a dozen": "numeral",
        "twelve": "numeral",
        "per month": "unit",
        "not yet due": "word:overdue!",
        "unverified": "word:verified!",
        "above": "word:above",
        "below": "word:below",
    }

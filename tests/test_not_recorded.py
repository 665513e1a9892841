"""What an ERP does not record is said to be not recorded: never "no", "0" or "nothing argues against".

Concepts a mapping declares not recorded (the not_recorded setting), a source view of its own that holds no
rows (tickets, bank-detail change requests), and the main sources unmapped (FN006)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from footnote_pg import Footnote, errors
from tests import pgservers
from tests.conftest import TestDatabase

ALL = "account_owner,payment_terms,credit_limit,tickets,ticket_severity,reorder_level,bank_change_requests," \
      "phone_verification"
QUESTIONS = tomllib.loads((Path(__file__).parent / "questions.toml").read_text(encoding="utf-8"))


def _not_recording(db: TestDatabase, concepts: str) -> Footnote:
    db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'not_recorded' RETURNING 1", (concepts,))
    return db.client("service", actor="not-recorded")


def _empty(db: TestDatabase, view: str) -> None:
    """The source view as the contract's empty placeholder (what an unmapped view is)."""
    from footnote_pg import mapping

    with db.connect() as conn:
        conn.execute("SET ROLE footnote_owner; " + mapping._placeholders()[view])  # type: ignore[arg-type]


def test_the_setting_is_checked_when_written(db: TestDatabase) -> None:
    import psycopg

    with pytest.raises(psycopg.Error) as caught:
        db.scalar("UPDATE footnote.settings SET value = 'account_owner,colour' WHERE key = 'not_recorded'")
    assert caught.value.sqlstate == "FN001" and "invalid setting not_recorded: must list concepts" in str(caught.value)


def test_customer_facts_say_not_recorded(db: TestDatabase) -> None:
    fn = _not_recording(db, "account_owner,payment_terms,credit_limit,ticket_severity")
    risk = fn.call("customer_risk", customer="Bergmann Logistik")
    for name in ("account_owner", "payment_terms", "high_severity_ticket_count"):
        assert risk.values[name].text == "not recorded in this ERP", name
        assert risk.values[name].evidence == ()
    assert risk.values["open_ticket_count"].text == "2"
    profile = fn.call("customer_profile", customer="Bergmann Logistik")
    assert profile.values["credit_limit"].text == "not recorded in this ERP"
    answer = fn.ask("Is Bergmann Logistik at risk?")
    assert answer.status == "verified", answer.findings
    assert "their severity is not recorded in this ERP" in answer.answer
    assert "the account owner is not recorded in this ERP" in answer.answer and "Ana Kovač" not in answer.answer
    with pytest.raises(errors.SourceNotMapped, match="account owners are not recorded in this ERP"):
        fn.call("list_customers", owner="Ana Kovač")


def test_tickets_not_recorded_or_empty_are_not_zero(db: TestDatabase) -> None:
    fn = _not_recording(db, "tickets")
    with pytest.raises(errors.SourceNotMapped, match="support tickets are not recorded in this ERP"):
        fn.call("open_tickets", customer="Bergmann Logistik")
    risk = fn.call("customer_risk", customer="Bergmann Logistik")
    assert risk.values["open_ticket_count"].text == "not recorded in this ERP"
    answer = fn.ask("Is Bergmann Logistik at risk?")
    assert "Support tickets are not recorded in this ERP." in answer.answer and "0 support tickets" not in answer.answer
    # a tickets view that holds no rows at all says the same, with nothing declared
    db.scalar("UPDATE footnote.settings SET value = NULL WHERE key = 'not_recorded' RETURNING 1")
    _empty(db, "tickets")
    fn = db.client("service", actor="empty-tickets")
    assert fn.call("customer_profile", customer="Bergmann Logistik").values["open_ticket_count"].text == \
        "not recorded in this ERP"


def test_reorder_levels_not_recorded(db: TestDatabase) -> None:
    fn = _not_recording(db, "reorder_level")
    sku = db.scalar("SELECT sku FROM erp.items ORDER BY id LIMIT 1")
    stock = fn.call("stock_on_hand", item=sku)
    assert stock.values["reorder_level"].text == "not recorded in this ERP"
    assert stock.values["below_reorder_level"].text == "not recorded in this ERP"
    with pytest.raises(errors.SourceNotMapped, match="reorder levels are not recorded in this ERP"):
        fn.call("items_below_reorder")
    answer = fn.ask("Which items are below their reorder level?")
    assert not answer.ok and "not recorded in this ERP" in answer.answer and "0 items" not in answer.answer


def test_a_reorder_level_missing_for_one_item_is_not_a_no(db: TestDatabase) -> None:
    fn = db.client("service")
    item = db.scalar("SELECT id FROM erp.items ORDER BY id LIMIT 1")
    with db.connect() as conn:
        conn.execute("ALTER TABLE erp.items ALTER COLUMN reorder_level DROP NOT NULL")
        conn.execute("UPDATE erp.items SET reorder_level = NULL WHERE id = %s", (item,))
    stock = fn.call("stock_on_hand", item=db.scalar("SELECT sku FROM erp.items WHERE id = %s", (item,)))
    assert stock.values["reorder_level"].text == "not recorded"
    assert stock.values["below_reorder_level"].text == "not recorded"  # was "no"


def test_a_supplier_without_change_requests_or_accounts_on_record(db: TestDatabase) -> None:
    fn = _not_recording(db, "bank_change_requests,phone_verification")
    facts = fn.call("supplier_payment_facts", supplier="Northwind Supply")
    assert facts.values["pending_change_count"].text == "not recorded in this ERP"
    assert "pending_account_ending" not in facts.values  # not read at all
    answer = fn.ask("Should we pay Northwind Supply?")
    assert "Nothing in these records argues against" not in answer.answer
    assert answer.answer.startswith("No bank-detail change requests are recorded in this ERP, so these records "
                                    "cannot show whether one is pending")
    # no bank account on file: never "the account on file"
    db.scalar("UPDATE footnote.settings SET value = NULL WHERE key = 'not_recorded' RETURNING 1")
    _empty(db, "supplier_bank_accounts")
    _empty(db, "bank_change_requests")
    answer = db.client("service").ask("Should we pay Northwind Supply?")
    assert "to the account on file" not in answer.answer


# what an answer must not say of a concept this ERP does not record
FORBIDDEN = [r"account owner (is (?!not recorded)|[A-Z])", r"of them high severity", r"reorder level is \d",
             r"below it", r"Nothing in these records argues against", r"payment terms (are )?\d", r"\bcredit limit \d",
             r"\b0 support tickets", r"managed by"]


def test_no_question_says_no_or_nothing_of_a_concept_not_recorded(request: pytest.FixtureRequest,
                                                                   db: TestDatabase) -> None:
    fn = _not_recording(db, ALL)
    step = 2 if pgservers.first_backend(request) else 6  # each family, half the time (a third of that elsewhere)
    owners = [r[0] for r in db.rows("SELECT DISTINCT name FROM erp.employees")]
    asked = crashed = 0
    said: list[str] = []
    for q in QUESTIONS["q"][::step]:
        try:
            answer = fn.ask(q["text"])
        except errors.FootnoteError as exc:  # an error is not an answer; a crash would be anything else
            said.append(f"{q['text']}: raised {type(exc).__name__}: {exc}")
            crashed += 1
            continue
        asked += 1
        for pattern in FORBIDDEN:
            if re.search(pattern, answer.answer):
                said.append(f"{q['text']}: {pattern!r} in {answer.answer[:200]!r}")
        for owner in owners:
            if owner in answer.answer:
                said.append(f"{q['text']}: names account owner {owner}")
    assert asked > 250 and crashed == 0 and said == [], "\n".join(said[:30])


def test_unmapped_main_sources_are_fn006_not_zero(db: TestDatabase, tmp_path: Path) -> None:
    from footnote_pg import mapping

    mapping.drop(db.url, tmp_path / "saved.sql")
    fn = db.client("service", actor="unmapped")
    for operation, arguments in [("ar_aging", {}), ("revenue", {"period": "2026-Q2"}),
                                 ("days_sales_outstanding", {}), ("top_customers", {"period": "2026"}),
                                 ("list_customers", {}), ("customer_overdue", {"customer": "Bergmann Logistik"}),
                                 ("invoice", {"number": "INV-2026-8812"}), ("list_suppliers", {}),
                                 ("stock_on_hand", {"item": "SKU-10001"}), ("open_purchase_orders", {})]:
        with pytest.raises(errors.SourceNotMapped, match=r"is not mapped \(it holds no rows\)"):
            fn.call(operation, **arguments)
    for question in ("What is our AR aging?", "How much revenue in Q2 2026?", "How much does Bergmann Logistik owe?"):
        answer = fn.ask(question)
        assert not answer.ok and "0,00 €" not in answer.answer, (question, answer.answer)
    assert db.scalar("SELECT count(*) FROM footnote.call_log") == 0
    mapping.apply(db.url, tmp_path / "saved.sql")
    assert float(fn.call("ar_aging").values["total_outstanding"].raw) > 0

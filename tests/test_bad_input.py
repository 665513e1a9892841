"""Bad input to every operation and argument: one clear error naming the argument, nothing written."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from footnote_pg import AmbiguousEntity, Footnote, FootnoteError, InvalidArgument, UnknownEntity, UnknownOperation
from tests.conftest import TestDatabase

VALID = {
    "customer": "Bergmann Logistik", "supplier": "Northwind Supply", "item": None, "number": "INV-2026-8812",
    "period": "2026-Q2", "period_from": "2026-Q1", "period_to": "2026-Q2", "as_of": "2026-08-14",
    "limit": 5, "window_days": 90, "name_contains": "Berg", "uri": "erp://invoice/8812",
    "measure": "overdue", "direction": "asc", "owner": "Ana Kovač", "country": "DE",
    "expected_in": "2026-08",
}
VALID_FOR = {("purchase_order", "number"): "PO-2025-3043", ("breakdown", "measure"): "revenue"}  # where one argument name means another thing
INJECTION = "'; DROP TABLE erp.invoices; --"

BAD: dict[str, list[tuple[Any, type[FootnoteError]]]] = {
    "text": [("", InvalidArgument), ("   ", InvalidArgument), ("x" * 10_000, InvalidArgument),
             ("a\x01b", InvalidArgument), ("line\nbreak", InvalidArgument), ("a\x00b", InvalidArgument),
             (123, InvalidArgument), (["Bergmann"], InvalidArgument), ({"name": "x"}, InvalidArgument)],
    "date": [("2026-13-45", InvalidArgument), ("2026-02-30", InvalidArgument), ("yesterday", InvalidArgument),
             ("0001-01-01", InvalidArgument), ("9999-12-31", InvalidArgument), ("1899-12-31", InvalidArgument),
             (20260814, InvalidArgument), ("", InvalidArgument), ("infinity", InvalidArgument)],
    "integer": [(-1, InvalidArgument), (0, InvalidArgument), (10**12, InvalidArgument), (2**31, InvalidArgument),
                ("abc", InvalidArgument), (1.5, InvalidArgument), ("", InvalidArgument), ([5], InvalidArgument)],
    "period": [("", InvalidArgument), ("2026-13", InvalidArgument), ("Q5 2026", InvalidArgument),
               ("FY0000", InvalidArgument), ("next quarter", InvalidArgument), ("2026-Q2; DROP", InvalidArgument),
               ("x" * 10_000, InvalidArgument), (2026, InvalidArgument), ("0999", InvalidArgument)],
}

SNAPSHOT = """SELECT (SELECT count(*) FROM footnote.call_log),
                     (SELECT md5(string_agg(t::text, ',' ORDER BY t.id)) FROM erp.invoices t),
                     (SELECT count(*) FROM erp.customers)"""


@pytest.fixture
def fn(db: TestDatabase) -> Footnote:
    return db.client("service", actor="tester")


def _base_arguments(db: TestDatabase, fn: Footnote) -> dict[str, dict[str, Any]]:
    sku = db.scalar("SELECT sku FROM erp.items ORDER BY id LIMIT 1")
    out = {}
    for op in fn.catalog():
        out[op.name] = {a.name: (sku if a.name == "item" else VALID_FOR.get((op.name, a.name), VALID[a.name]))
                        for a in op.arguments if a.required}
    return out


def test_every_argument_of_every_operation_rejects_bad_values(db: TestDatabase, fn: Footnote) -> None:
    before = db.rows(SNAPSHOT)[0]
    operations = {op.name: op for op in fn.catalog()}
    base = _base_arguments(db, fn)
    tried = 0
    for name, op in operations.items():
        fn.call(name, **base[name])  # the base call itself is valid
        for arg in op.arguments:
            for value, expected in BAD[arg.type]:
                if arg.name == "name_contains" and isinstance(value, str) and value.strip() and len(value) < 200 \
                        and "\x00" not in value and "\x01" not in value and "\n" not in value:
                    continue
                with pytest.raises(expected) as caught:
                    fn.call(name, **{**base[name], arg.name: value})
                message = str(caught.value)
                assert "\n" not in message and len(message) < 400, message
                assert arg.name in message, f"{name}({arg.name}={value!r:.40}): {message}"
                if isinstance(caught.value, InvalidArgument) and caught.value.argument:
                    assert caught.value.argument == arg.name
                tried += 1
            if arg.required:
                args = {k: v for k, v in base[name].items() if k != arg.name}
                with pytest.raises(InvalidArgument, match=f"{arg.name}: is required"):
                    fn.call(name, **args)
                with pytest.raises(InvalidArgument, match=f"{arg.name}: is required"):
                    fn.call(name, **{**args, arg.name: None})
    assert tried > 150
    after = db.rows(SNAPSHOT)[0]
    # only the valid base calls were logged; no bad call wrote anything
    assert after[0] == before[0] + len(operations)
    assert after[1:] == before[1:]


def test_injection_strings_are_just_unknown_names(db: TestDatabase, fn: Footnote) -> None:
    before = db.rows(SNAPSHOT)[0]
    for op, arg in [("customer_overdue", "customer"), ("supplier_payment_facts", "supplier"),
                    ("stock_on_hand", "item"), ("invoice", "number"), ("revenue", "customer")]:
        args = {"period": "2026-Q2"} if op == "revenue" else {}
        with pytest.raises(UnknownEntity) as caught:
            fn.call(op, **{**args, arg: INJECTION})
        if arg != "number":  # nothing is close to it: no unrelated names, but where the real ones are
            assert caught.value.alternatives == [] and "name is close to it" in str(caught.value)
        else:
            assert caught.value.alternatives, "an unknown invoice number lists the nearest real ones"
    listed = fn.call("list_customers", name_contains=INJECTION)
    assert listed.empty_reason == "no_matching_customers"
    after = db.rows(SNAPSHOT)[0]
    assert after[1:] == before[1:] and after[0] == before[0] + 1


def test_unknown_customer_lists_the_closest_real_names(fn: Footnote) -> None:
    with pytest.raises(UnknownEntity) as caught:
        fn.call("customer_overdue", customer="Bergmann Logistick")  # one letter too many
    assert caught.value.alternatives[0]["name"] == "Bergmann Logistik GmbH"
    assert caught.value.alternatives[0]["uri"] == "erp://customer/4471"
    assert "closest: Bergmann Logistik GmbH" in str(caught.value)

    with pytest.raises(UnknownEntity) as caught:
        fn.call("customer_overdue", customer="Bergman Logistics")  # a word off in each
    assert [a["name"] for a in caught.value.alternatives][:2] == ["Bergmann Logistik GmbH", "Łódź Logistics Sp. z o.o."]

    with pytest.raises(UnknownEntity) as caught:  # nothing close: no unrelated names, but where the real ones are
        fn.call("customer_overdue", customer="Acme Corporation")
    assert caught.value.alternatives == []
    assert str(caught.value) == ('unknown customer "Acme Corporation"; no customer name is close to it (the '
                                 'list_customers operation lists the real ones)')


def test_a_name_matching_several_customers_is_ambiguous(fn: Footnote) -> None:
    with pytest.raises(AmbiguousEntity) as caught:
        fn.call("customer_overdue", customer="Bergmann")
    assert [c["name"] for c in caught.value.candidates] == ["Bergmann Bau AG", "Bergmann Logistik GmbH"]
    assert str(caught.value) == 'customer "Bergmann" is ambiguous: it matches Bergmann Bau AG, Bergmann Logistik GmbH'


@pytest.mark.parametrize("typed", ["BERGMANN LOGISTIK GMBH", "bergmann logistik", "Bergmann Log", "C-4471", "4471",
                                   "erp://customer/4471", "  Bergmann   Logistik  "])
def test_names_resolve_regardless_of_case_spacing_and_legal_form(fn: Footnote, typed: str) -> None:
    assert fn.call("customer_overdue", customer=typed).values["customer"].text == "Bergmann Logistik GmbH"


def test_accents_are_folded(db: TestDatabase, fn: Footnote) -> None:
    name = db.scalar("SELECT name FROM erp.customers WHERE name ~ '[äöüÄÖÜłŁéèçčšž]' ORDER BY id LIMIT 1")
    assert name, "the sample has customer names with diacritics"
    plain = name.translate(str.maketrans("äöüÄÖÜłŁéèçčšž", "aouAOUlLeecczs"))
    assert fn.call("customer_overdue", customer=plain).values["customer"].text == name


def test_unknown_operation_and_argument(fn: Footnote) -> None:
    with pytest.raises(UnknownOperation,
                       match="unknown operation forecast_revenue; available: accounts_payable, ar_aging"):
        fn.call("forecast_revenue")
    with pytest.raises(InvalidArgument, match="colour: is not an argument of revenue; it takes period, customer"):
        fn.call("revenue", period="2026-Q2", colour="red")


def test_direct_sql_calls_validate_too(db: TestDatabase) -> None:
    with db.connect("service") as conn:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.customer_overdue(NULL)")
        assert caught.value.sqlstate == "FN001"
        assert caught.value.diag.message_primary == "invalid argument customer: is required"
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.top_customers('2026-Q2', -5)")
        assert caught.value.diag.message_primary == "invalid argument limit: -5 is out of range (1 to 100)"

"""Access scopes (sql/03_scopes.sql): a login bound to a scope sees its customers and nothing of the others.

The reference is a second copy of the sample ERP from which every customer outside the scope was deleted, with
their invoices, instalments, payments, credit notes and tickets: there they are unknown. Under the scope, every
operation must answer exactly as that copy answers (the same figures, rows, evidence, errors and candidates), and
no result, error, candidate list, evidence page or deep link may name, number or count an out-of-scope customer.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.types.json import Jsonb

from tests import pgservers
from tests.conftest import LOGIN_ROLES, TEST_PASSWORD, TestDatabase, _create_database, _drop_database

COUNTRIES = ["FR", "NL"]
SCOPE = ("west", "France and the Netherlands")
SERVICE_LOGIN = LOGIN_ROLES["service"][0]
AS_OF = "2026-08-14"

# every operation that reads customers or their records, with arguments that make it read them all (the
# per-customer ones get a customer below)
PORTFOLIO_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("ar_aging", {"as_of": AS_OF}),
    ("days_sales_outstanding", {"as_of": AS_OF, "window_days": 90}),
    ("revenue", {"period": "2026-Q2"}),
    ("revenue", {"period": "2026-01-01..2026-08-14"}),
    ("revenue_change", {"period_from": "2026-Q1", "period_to": "2026-Q2"}),
    ("revenue_by_month", {"period": "2026"}),
    ("top_customers", {"period": "2026", "limit": 50}),
    ("top_customers", {"period": "2026", "limit": 50, "direction": "asc"}),
    ("revenue_drivers", {"period_from": "2026-Q1", "period_to": "2026-Q2", "limit": 50}),
    ("rank_customers", {"measure": "overdue", "limit": 100, "as_of": AS_OF}),
    ("rank_customers", {"measure": "outstanding", "limit": 100, "as_of": AS_OF}),
    ("rank_customers", {"measure": "oldest_overdue", "limit": 100, "as_of": AS_OF}),
    ("credit_notes", {"period": "2026"}),
    ("list_customers", {"limit": 1000}),
    ("list_customers", {"name_contains": "a", "limit": 1000}),
    ("list_customers", {"country": "DE", "limit": 1000}),
    ("list_customers", {"country": "FR", "limit": 1000}),
    *[("breakdown", {"measure": m, "period": "2026", "by": by}) for m in (
        "revenue", "invoiced", "invoice_count", "average_invoice", "cash_collected", "credit_notes", "tickets_opened")
      for by in (None, "customer", "country", "account_owner", "quarter")],
    ("breakdown", {"measure": "tickets_opened", "period": "2026", "by": "severity"}),
    ("breakdown", {"measure": "revenue", "period": "2026", "by": "customer", "limit": 3, "direction": "asc"}),
    ("breakdown", {"measure": "revenue", "period": "2026", "by": "month", "country": "DE"}),
]
CUSTOMER_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("customer_overdue", {"as_of": AS_OF}),
    ("customer_risk", {"as_of": AS_OF}),
    ("open_tickets", {"as_of": AS_OF}),
    ("customer_payments", {"period": "2026"}),
    ("customer_profile", {"as_of": AS_OF}),
    ("ar_aging", {"as_of": AS_OF}),
    ("revenue", {"period": "2026"}),
    ("revenue_change", {"period_from": "2026-Q1", "period_to": "2026-Q2"}),
    ("revenue_by_month", {"period": "2026"}),
    ("credit_notes", {"period": "2026"}),
    ("breakdown", {"measure": "revenue", "period": "2026", "by": "month"}),
    ("breakdown", {"measure": "cash_collected", "period": "2026", "by": "quarter"}),
]
VOLATILE = ("call_id", "called_at", "duration_ms", "scope", "result_hash")


def _bind(url: str, login: str = SERVICE_LOGIN) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO footnote.scopes (id, description, countries) VALUES (%s, %s, %s)",
                     (*SCOPE, COUNTRIES))
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES (%s, %s)", (login, SCOPE[0]))


def _without_out_of_scope(url: str) -> None:
    """Delete every customer outside the scope, and all its records, from the sample ERP."""
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in (
                "DELETE FROM erp.invoice_instalments AS x USING erp.invoices AS i, erp.customers AS c "
                "WHERE i.id = x.invoice_id AND c.id = i.customer_id AND c.country <> ALL (%(c)s)",
                "DELETE FROM erp.payments AS x USING erp.customers AS c "
                "WHERE c.id = x.customer_id AND c.country <> ALL (%(c)s)",
                "DELETE FROM erp.credit_notes AS x USING erp.customers AS c "
                "WHERE c.id = x.customer_id AND c.country <> ALL (%(c)s)",
                "DELETE FROM erp.tickets AS x USING erp.customers AS c "
                "WHERE c.id = x.customer_id AND c.country <> ALL (%(c)s)",
                "DELETE FROM erp.invoices AS x USING erp.customers AS c "
                "WHERE c.id = x.customer_id AND c.country <> ALL (%(c)s)",
                "DELETE FROM erp.customers AS c WHERE c.country <> ALL (%(c)s)"):
            conn.execute(statement, {"c": COUNTRIES})


@pytest.fixture(scope="module")
def pair(server: pgservers.Server, template_db: str) -> Iterator[tuple[TestDatabase, TestDatabase]]:
    """(scoped, reference): the sample with the service login bound to scope west, and the sample holding only
    west's customers (no binding)."""
    names = [f"fn_s_{uuid.uuid4().hex[:10]}", f"fn_r_{uuid.uuid4().hex[:10]}"]
    for name in names:
        _create_database(server, name, template=template_db)
    scoped, reference = (TestDatabase(server, name) for name in names)
    try:
        _bind(scoped.url)
        _without_out_of_scope(reference.url)
        yield scoped, reference
    finally:
        for database in (scoped, reference):
            database.close()
            _drop_database(server, database.name)


def _outcome(conn: psycopg.Connection[Any], operation: str, arguments: dict[str, Any]) -> Any:
    """A call's result without what differs between two calls, or its error (SQLSTATE, message, detail)."""
    try:
        doc = conn.execute("SELECT footnote.call(%s, %s)", (operation, Jsonb(arguments))).fetchone()[0]  # type: ignore[index]
    except psycopg.Error as exc:
        return ("error", exc.sqlstate, exc.diag.message_primary, exc.diag.message_detail)
    return {k: v for k, v in doc.items() if k not in VOLATILE}


def _difference(got: Any, want: Any, path: str = "") -> list[str]:
    """Where two outcomes differ, as paths (for a failure message)."""
    if isinstance(got, dict) and isinstance(want, dict):
        return [d for k in sorted(set(got) | set(want)) for d in _difference(got.get(k), want.get(k), f"{path}.{k}")]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [d for i, (g, w) in enumerate(zip(got, want, strict=True)) for d in _difference(g, w, f"{path}[{i}]")]
    return [] if got == want else [f"{path}: {str(got)[:150]} != {str(want)[:150]}"]


def _run(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from footnote_pg.cli import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _outside(db: TestDatabase) -> list[tuple[int, str, str]]:
    return db.rows("SELECT c.id, c.name, c.customer_number FROM footnote_src.customers AS c "
                   "WHERE c.country <> ALL (%s) ORDER BY c.id", (COUNTRIES,))


def _typo(name: str) -> str:
    """The name with two letters of its longest word swapped."""
    word = max(re.findall(r"\w{4,}", name), key=len)
    typo = word[0] + word[2] + word[1] + word[3:]
    return name.replace(word, typo if typo != word else word[:-1], 1)


def _leaks(text: str, outside: list[tuple[int, str, str]]) -> list[str]:
    found = []
    for cid, name, number in outside:
        for needle in (name, f"customer:{cid}", f"erp://customer/{cid}", f'"{number}"', f'"customer_id": "{cid}"'):
            if needle in text:
                found.append(needle)
    return found


def _ways(cid: int, name: str, number: str) -> list[str]:
    """Every way of naming a customer: name, id, customer number, deep link, part of its name, a misspelling."""
    return [name, str(cid), number, f"erp://customer/{cid}", max(re.findall(r"\w{4,}", name), key=len), _typo(name)]


def _gateway_outcome(conn: psycopg.Connection[Any], operation: str, arguments: dict[str, Any]) -> Any:
    """A call's outcome as a gateway's verified user of scope west (footnote.assert_identity), in a transaction of
    its own, as the web and MCP servers run a request with a bearer token."""
    try:
        conn.execute("SELECT footnote.assert_identity('marc.dubois', %s)", (SCOPE[0],))
        got = _outcome(conn, operation, arguments)
    finally:
        conn.rollback()
    if isinstance(got, dict):  # the token's subject is the actor the result names
        assert got["actor"]["id"] == "marc.dubois", got["actor"]
        got["actor"]["id"] = None
    return got


def test_every_operation_answers_as_if_the_other_customers_did_not_exist(
        pair: tuple[TestDatabase, TestDatabase], server: pgservers.Server) -> None:
    """Every operation, every way of naming an out-of-scope customer, as a login bound to the scope and (every
    third call) as a gateway's user whose token names the scope: the same outcome as where those customers do not
    exist, and none of their names, ids, numbers or links in any result, error or candidate list."""
    from tests.test_identity import GATEWAY, _gateway_login

    scoped, reference = pair
    outside = _outside(scoped)
    inside = scoped.rows("SELECT c.id, c.name FROM footnote_src.customers AS c WHERE c.country = ANY (%s) "
                         "ORDER BY c.id", (COUNTRIES,))
    assert len(outside) > 40 and len(inside) >= 8
    calls = list(PORTFOLIO_CALLS)
    for cid, name in inside:
        calls += [(op, {**args, "customer": name}) for op, args in CUSTOMER_CALLS]
        calls.append(("customer_overdue", {"customer": str(cid), "as_of": AS_OF}))
    asked_ways: set[tuple[str, int]] = set()
    for k, (cid, name, number) in enumerate(outside):  # each operation with half the ways, alternating by customer
        for w, who in enumerate(_ways(cid, name, number)):
            for i, (op, args) in enumerate(CUSTOMER_CALLS):
                if (i + w + k) % 2 == 0:
                    calls.append((op, {**args, "customer": who}))
                    asked_ways.add((op, w))
    assert len(asked_ways) == len({op for op, _a in CUSTOMER_CALLS}) * 6  # every operation, every way
    _gateway_login(server)
    gateway_url = server.url_for(scoped.name, user=GATEWAY, password=TEST_PASSWORD)
    with (scoped.connect("service") as conn_s, reference.connect("service") as conn_r,
          psycopg.connect(gateway_url) as conn_g):
        differing = []
        leaking = []
        for n, (operation, arguments) in enumerate(calls):
            want = _outcome(conn_r, operation, arguments)
            for who, got in (("login", _outcome(conn_s, operation, arguments)),
                             *([("gateway", _gateway_outcome(conn_g, operation, arguments))] if n % 3 == 0 else [])):
                if isinstance(got, dict):  # a figure over the scope's customers says so; one customer's does not
                    stated = got["values"].pop("scope", None)
                    if (stated or {}).get("raw") != ("west" if "customer" not in arguments else None):
                        differing.append((who, operation, arguments, stated, "the scope stated"))
                if got != want:
                    differing.append((who, operation, arguments, got, want))
                said = json.dumps(got, ensure_ascii=False)  # what was asked may be said back, nothing more
                for asked in arguments.values():
                    said = said.replace(json.dumps(str(asked), ensure_ascii=False)[1:-1], "")
                if leaks := _leaks(said, outside):
                    leaking.append((who, operation, arguments, leaks))
    assert not leaking, (len(leaking), leaking[:3])
    assert not differing, (len(differing), [_difference(got, want) for *_w, got, want in differing[:3]])
    assert len(calls) > 1800


def test_out_of_scope_invoices_records_and_deep_links_are_unknown(pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, reference = pair
    outside_ids = [cid for cid, _name, _number in _outside(scoped)]
    records = scoped.rows("""
        SELECT 'invoice', i.id, i.number FROM footnote_src.invoices AS i WHERE i.customer_id = ANY (%(ids)s)
        UNION ALL SELECT 'payment', p.id, NULL FROM footnote_src.payments AS p WHERE p.customer_id = ANY (%(ids)s)
        UNION ALL SELECT 'credit_note', n.id, n.number FROM footnote_src.credit_notes AS n
                  WHERE n.customer_id = ANY (%(ids)s)
        UNION ALL SELECT 'ticket', t.id, NULL FROM footnote_src.tickets AS t WHERE t.customer_id = ANY (%(ids)s)
        UNION ALL SELECT 'customer', c.id, NULL FROM footnote_src.customers AS c WHERE c.id = ANY (%(ids)s)""",
        {"ids": outside_ids})
    kinds = {kind for kind, _id, _number in records}
    assert kinds == {"invoice", "payment", "credit_note", "ticket", "customer"}
    with scoped.connect("service") as conn_s, reference.connect("service") as conn_r:
        for kind, rid, number in records[::7]:  # every 7th: hundreds of records, each kind many times
            uri = f"erp://{kind}/{rid}"
            assert _outcome(conn_s, "source_record", {"uri": uri}) == _outcome(conn_r, "source_record", {"uri": uri})
            if kind == "invoice":
                for asked in (number, str(rid), uri):
                    got = _outcome(conn_s, "invoice", {"number": asked, "as_of": AS_OF})
                    assert got == _outcome(conn_r, "invoice", {"number": asked, "as_of": AS_OF})
                    assert got[0] == "error", (asked, got)


def test_names_for_routing_and_the_gate_are_the_scopes(pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, reference = pair
    names = scoped.scalar("SELECT footnote.router_names()", role="service")
    assert names == reference.scalar("SELECT footnote.router_names()", role="service")
    assert set(names["customers"]) == {n for _id, n in scoped.rows(
        "SELECT id, name FROM footnote_src.customers WHERE country = ANY (%s)", (COUNTRIES,))}


def test_the_gates_name_matching_reads_the_scope_of_the_session(db: TestDatabase) -> None:
    """The gate reads short forms of names (footnote._names_matching) as whoever submits the answer: under a
    scope, an out-of-scope name is no name. (Bound here: the installer's own login, which may call it.)"""
    assert db.scalar("SELECT footnote._names_matching('Bergmann')") == ["Bergmann Bau AG", "Bergmann Logistik GmbH"]
    _bind(db.url, login=db.scalar("SELECT session_user"))
    assert db.scalar("SELECT footnote._names_matching('Bergmann')") == []
    assert db.scalar("SELECT footnote._names_matching('Lefèvre')") == ["Lefèvre Emballages SAS"]


def test_portfolio_figures_equal_the_same_figures_computed_by_hand_over_the_scope(
        pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, _reference = pair
    fn = scoped.client("service")
    aging = fn.call("ar_aging", as_of=AS_OF)
    by_hand = scoped.scalar("""
        SELECT sum(b.outstanding) FROM footnote_src.invoice_balances(%s::date) AS b
        JOIN footnote_src.customers AS c ON c.id = b.customer_id
        WHERE c.country = ANY (%s) AND b.outstanding > 0""", (AS_OF, COUNTRIES))
    assert Decimal(aging.values["total_outstanding"].raw) == by_hand
    everything = scoped.scalar("SELECT sum(b.outstanding) FROM footnote_src.invoice_balances(%s::date) AS b "
                               "WHERE b.outstanding > 0", (AS_OF,))
    assert by_hand < everything  # the superuser here has no binding: the balance function reads every customer
    revenue = fn.call("revenue", period="2026-Q2")
    by_hand = scoped.scalar("""
        SELECT (SELECT coalesce(sum(i.net), 0) FROM footnote_src.invoices AS i
                JOIN footnote_src.customers AS c ON c.id = i.customer_id
                WHERE c.country = ANY (%(c)s) AND i.issue_date BETWEEN '2026-04-01' AND '2026-06-30')
             - (SELECT coalesce(sum(n.net), 0) FROM footnote_src.credit_notes AS n
                JOIN footnote_src.customers AS c ON c.id = n.customer_id
                WHERE c.country = ANY (%(c)s) AND n.issue_date BETWEEN '2026-04-01' AND '2026-06-30')""",
        {"c": COUNTRIES})
    assert Decimal(revenue.values["revenue"].raw) == by_hand
    listed = fn.call("list_customers", limit=1000)
    assert int(listed.values["matching"].raw) == scoped.scalar(
        "SELECT count(*) FROM footnote_src.customers WHERE country = ANY (%s)", (COUNTRIES,))
    # each customer's revenue of 2026 and each country's, by hand over the scope's customers
    per_customer = scoped.rows("""
        SELECT c.name, sum(x.net) FROM footnote_src.customers AS c
        JOIN (SELECT i.customer_id, i.net FROM footnote_src.invoices AS i WHERE i.issue_date BETWEEN %(a)s AND %(b)s
              UNION ALL SELECT n.customer_id, -n.net FROM footnote_src.credit_notes AS n
              WHERE n.issue_date BETWEEN %(a)s AND %(b)s) AS x ON x.customer_id = c.id
        WHERE c.country = ANY (%(c)s) GROUP BY c.id, c.name""", {"c": COUNTRIES, "a": "2026-01-01", "b": "2026-12-31"})
    top = fn.call("top_customers", period="2026", limit=100)
    assert {(r["customer"].raw, Decimal(r["revenue"].raw)) for r in top.rows} == set(per_customer)
    by_country = fn.call("breakdown", measure="revenue", period="2026", by="country")
    countries = {c: sum(v for n, v in per_customer if n in names)
                 for c, names in _names_by_country(scoped).items()}
    assert {r["country"].raw: Decimal(r["value"].raw) for r in by_country.rows} == {
        c: v for c, v in countries.items() if v}


def _names_by_country(db: TestDatabase) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, country in db.rows("SELECT name, country FROM footnote_src.customers WHERE country = ANY (%s)",
                                 (COUNTRIES,)):
        out.setdefault(country, set()).add(name)
    return out


def test_each_result_records_the_scope_and_the_digest_of_its_definition(
        pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, reference = pair
    from footnote_pg import canonical

    with scoped.connect("service") as conn:
        doc = conn.execute("SELECT footnote.call('ar_aging', '{}')").fetchone()[0]  # type: ignore[index]
    definition = {"id": "west", "account_owners": None, "countries": COUNTRIES, "customer_ids": None}
    digest = canonical.sha256_hex(canonical.canonical_json(definition))
    assert doc["scope"] == {"id": "west", "description": SCOPE[1], "digest": digest}
    logged = scoped.scalar("SELECT result->'scope' FROM footnote.call_log WHERE call_id = %s", (doc["call_id"],))
    assert logged == doc["scope"]
    with reference.connect("service") as conn:  # no binding: no scope in the result
        assert "scope" not in conn.execute("SELECT footnote.call('ar_aging', '{}')").fetchone()[0]  # type: ignore[index]


def test_evidence_pages_under_a_scope_hold_only_its_rows(db: TestDatabase) -> None:
    db.scalar("UPDATE footnote.settings SET value = '3' WHERE key = 'max_evidence_rows' RETURNING 1")
    unbound = db.client("service").call("credit_notes", period="2026")
    sets = [e.id for e in unbound.evidence if e.type == "evidence_set"]
    assert sets
    _bind(db.url)
    outside = _outside(db)
    with db.connect("service") as conn:
        # a call made under another scope (here: none) is, to the scoped login, a call never made
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT * FROM footnote.evidence_rows(%s, %s)", (unbound.call_id, sets[0]))
        assert f"call {unbound.call_id} was never made" in str(caught.value)
        doc = conn.execute("SELECT footnote.call('credit_notes', '{\"period\": \"2026\"}')").fetchone()[0]  # type: ignore[index]
        scoped_set = next(e["id"] for e in doc["evidence"] if e["type"] == "evidence_set")
        page = conn.execute("SELECT id, fields::text FROM footnote.evidence_rows(%s, %s, 0, 10000)",
                            (doc["call_id"], scoped_set)).fetchall()
    assert page
    assert not _leaks(json.dumps(page, ensure_ascii=False), outside)
    mine = {f"credit_note:{i}" for (i,) in db.rows(
        "SELECT n.id FROM footnote_src.credit_notes AS n JOIN footnote_src.customers AS c ON c.id = n.customer_id "
        "WHERE c.country = ANY (%s) AND n.issue_date BETWEEN '2026-01-01' AND '2026-12-31'", (COUNTRIES,))}
    assert {row[0] for row in page} == mine


def test_the_application_cannot_widen_its_scope(db: TestDatabase) -> None:
    _bind(db.url)
    everyone = db.scalar("SELECT count(*) FROM footnote_src.customers")
    mine = db.scalar("SELECT count(*) FROM footnote_src.customers WHERE country = ANY (%s)", (COUNTRIES,))
    attempts = [
        "SET ROLE footnote_service",
        "SET ROLE footnote_owner",
        "SET SESSION AUTHORIZATION postgres",
        "SELECT set_config('footnote.scope', '', false)",
        "SELECT set_config('footnote.actor_role', 'admin', false)",
        "SET footnote.actor = 'postgres'",
        "DELETE FROM footnote.scope_bindings",
        "UPDATE footnote.scopes SET countries = NULL",
        "INSERT INTO footnote.scope_bindings (role, scope) VALUES ('fn_test_outsider', 'west')",
        "SELECT * FROM footnote._session_scope()",
    ]
    with db.connect("service") as conn:
        for attempt in attempts:
            try:
                conn.execute(attempt)
            except psycopg.Error as exc:
                assert exc.sqlstate in ("42501", "22023", "28000"), (attempt, exc.sqlstate, str(exc))
            doc = conn.execute("SELECT footnote.call('list_customers', '{\"limit\": 1000}')").fetchone()[0]  # type: ignore[index]
            assert int(doc["values"]["matching"]["raw"]) == mine < everyone, attempt
            assert doc["scope"]["id"] == "west"
    assert db.scalar("SELECT count(*) FROM footnote.scope_bindings") == 1
    assert db.scalar("SELECT countries FROM footnote.scopes") == COUNTRIES


def test_a_binding_through_a_group_role_and_its_criteria_combined(db: TestDatabase) -> None:
    owner = db.scalar("SELECT account_owner FROM footnote_src.customers WHERE country = 'FR' LIMIT 1")
    with db.connect() as conn:
        conn.execute("INSERT INTO footnote.scopes (id, description, account_owners, countries, customer_ids) "
                     "VALUES ('narrow', 'one owner in France, two customers', %s, '{FR}', '{4403, 4471}')", ([owner],))
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES ('footnote_service', 'narrow')")
    expected = db.rows("SELECT name FROM footnote_src.customers WHERE account_owner = %s AND country = 'FR' "
                       "AND id IN (4403, 4471) ORDER BY name", (owner,))
    listed = db.client("service").call("list_customers", limit=1000)
    assert [r["name"].raw for r in listed.rows] == [n for (n,) in expected] == ["Lefèvre Emballages SAS"]
    # the auditor is no member of footnote_service: not bound, and it reads the scopes
    assert db.scalar("SELECT count(*) FROM footnote.scopes", role="auditor") == 1
    # two bindings through roles that name different scopes: one clear line
    with db.connect() as conn:
        conn.execute("INSERT INTO footnote.scopes (id, description) VALUES ('all', 'every customer')")
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES ('footnote_auditor', 'all')")
        conn.execute(sql.SQL("GRANT footnote_auditor TO {}").format(sql.Identifier(SERVICE_LOGIN)))
    try:
        with db.connect("service") as conn, pytest.raises(psycopg.Error) as caught:
            conn.execute("SELECT footnote.call('ar_aging', '{}')")
        assert caught.value.sqlstate == "FN108"
        assert str(caught.value).splitlines()[0] == (
            f"login {SERVICE_LOGIN} is bound to several scopes through its roles (all, narrow): bind it to one "
            "directly")
    finally:
        with db.connect() as conn:
            conn.execute(sql.SQL("REVOKE footnote_auditor FROM {}").format(sql.Identifier(SERVICE_LOGIN)))


def test_without_a_binding_every_customer_is_seen_as_before(db: TestDatabase) -> None:
    fn = db.client("service")
    listed = fn.call("list_customers", limit=1000)
    assert int(listed.values["matching"].raw) == db.scalar("SELECT count(*) FROM footnote_src.customers")
    assert fn.call("customer_overdue", customer="Bergmann Logistik").values["overdue_total"].text == "43.805,00 €"


def test_the_scope_commands_create_show_list_and_bind(db: TestDatabase) -> None:
    code, out, err = _run("scope", "create", "west", "--description", SCOPE[1], "--country", "FR", "--country", "NL",
                         "--database-url", db.url)
    assert (code, err) == (0, "")
    count = db.scalar("SELECT count(*) FROM footnote_src.customers WHERE country = ANY (%s)", (COUNTRIES,))
    assert out.splitlines()[:3] == ["created west: France and the Netherlands", "  customers: country FR, NL",
                                    f"  customers in it now: {count}"]
    code, out, err = _run("scope", "bind", SERVICE_LOGIN, "west", "--database-url", db.url)
    assert (code, out.strip(), err) == (0, f"bound {SERVICE_LOGIN} to scope west", "")
    listed = db.client("service").call("list_customers", limit=1000)
    assert int(listed.values["matching"].raw) == count
    code, out, _err = _run("scope", "show", "west", "--json", "--database-url", db.url)
    shown = json.loads(out)
    assert shown["roles"] == [SERVICE_LOGIN] and shown["digest"] == listed.document["scope"]["digest"]
    code, out, _err = _run("scope", "list", "--database-url", db.url)
    assert code == 0 and f"  bound to: {SERVICE_LOGIN}" in out.splitlines()
    for args, line in [
        (("scope", "create", "West!", "--description", "x"), "error: scope id 'West!' must be lower-case letters"),
        (("scope", "create", "west", "--description", "again"), "error: scope west exists already"),
        (("scope", "bind", "no_such_login_here", "west"), "error: no role no_such_login_here in this cluster"),
        (("scope", "bind", SERVICE_LOGIN, "east"), "error: no scope east; footnote-pg scope list shows them"),
        (("scope", "show", "east"), "error: no scope east"),
    ]:
        code, out, err = _run(*args, "--database-url", db.url)
        assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith(line), (args, err)


def test_questions_under_a_scope_are_answered_and_verified_from_its_customers(
        pair: tuple[TestDatabase, TestDatabase]) -> None:
    """The whole path as a scoped login: the router matches only the scope's names, the answer is verified, and
    the ledger record cites calls that carry the scope."""
    scoped, reference = pair
    fn, ref = scoped.client("service"), reference.client("service")
    outside = _outside(scoped)
    for question in ("What is our accounts receivable aging?", "What was revenue in Q2 2026?",
                     "Who are our top 5 customers by revenue in 2026?", "How much does Lefèvre Emballages owe?"):
        answer, expected = fn.ask(question), ref.ask(question)
        assert answer.status == expected.status == "verified", (question, answer.answer)
        note = "(For the customers of scope west.)"
        assert answer.answer.startswith(note) == ("owe" not in question), answer.answer
        assert answer.answer.removeprefix(note).lstrip() == expected.answer
        assert not _leaks(answer.answer, outside)
    asked = fn.ask("How much does Bergmann Logistik owe?")
    assert asked.status != "verified" and "Bergmann" not in asked.answer.replace("Bergmann Logistik", "")
    assert asked.answer == ref.ask("How much does Bergmann Logistik owe?").answer
    # each record cites its calls by result_hash, and each of those results holds the scope
    cited = scoped.rows("SELECT c.result->'scope'->>'id', o->>'result_hash' = c.result_hash FROM footnote.ledger AS l "
                        "CROSS JOIN LATERAL jsonb_array_elements(l.operations) AS o "
                        "JOIN footnote.call_log AS c ON c.call_id = (o->>'call_id')::uuid")
    assert len(cited) >= 4 and set(cited) == {("west", True)}


# A scope of suppliers and items: the suppliers in Germany and the items of even id. Its reference is the sample
# without the other suppliers (and their bank accounts, payments, invoices, bank-change requests, purchase orders)
# and the other items (and their stock).
SUPPLY_SCOPE = ("buyers_de", "German suppliers, half the items")
SUPPLIER_COUNTRIES = ["DE"]
SUPPLY_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("accounts_payable", {"as_of": AS_OF}),
    ("accounts_payable", {"as_of": "2026-08-05"}),  # a day with part payments (of a supplier outside the scope)
    ("open_purchase_orders", {}),
    ("open_purchase_orders", {"expected_in": "2026"}),
    ("items_below_reorder", {}),
    ("list_suppliers", {"limit": 1000}),
    ("list_suppliers", {"name_contains": "a", "limit": 1000}),
    ("list_items", {"limit": 1000}),
    ("list_items", {"name_contains": "e", "limit": 1000}),
    *[("breakdown", {"measure": m, "period": "2026", "by": by}) for m in ("purchase_volume", "supplier_payments")
      for by in (None, "supplier", "supplier_country", "quarter")],
]
SUPPLIER_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("supplier_payment_facts", {"as_of": AS_OF}),
    ("accounts_payable", {"as_of": AS_OF}),
    ("open_purchase_orders", {}),
    ("breakdown", {"measure": "purchase_volume", "period": "2026", "by": "quarter"}),
]


def _bind_supply(url: str, login: str = SERVICE_LOGIN) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO footnote.scopes (id, description, supplier_countries, item_ids) "
                     "SELECT %s, %s, %s, array_agg(i.id ORDER BY i.id) FROM erp.items AS i WHERE i.id %% 2 = 0",
                     (*SUPPLY_SCOPE, SUPPLIER_COUNTRIES))
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES (%s, %s)", (login, SUPPLY_SCOPE[0]))


def _without_other_suppliers_and_items(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        outside = "SELECT s.id FROM erp.suppliers AS s WHERE s.country <> ALL (%(c)s)"
        for statement in (
                f"DELETE FROM erp.supplier_invoices WHERE supplier_id IN ({outside})",
                f"DELETE FROM erp.supplier_payments WHERE supplier_id IN ({outside})",
                f"DELETE FROM erp.bank_change_requests WHERE supplier_id IN ({outside})",
                f"DELETE FROM erp.purchase_orders WHERE supplier_id IN ({outside})",
                f"DELETE FROM erp.supplier_bank_accounts WHERE supplier_id IN ({outside})",
                "DELETE FROM erp.suppliers AS s WHERE s.country <> ALL (%(c)s)",
                "DELETE FROM erp.stock WHERE item_id %% 2 <> 0",
                "DELETE FROM erp.items WHERE id %% 2 <> 0"):
            conn.execute(statement, {"c": SUPPLIER_COUNTRIES})


@pytest.fixture(scope="module")
def supply_pair(server: pgservers.Server, template_db: str) -> Iterator[tuple[TestDatabase, TestDatabase]]:
    """(scoped, reference) for the scope of suppliers and items."""
    names = [f"fn_s_{uuid.uuid4().hex[:10]}", f"fn_r_{uuid.uuid4().hex[:10]}"]
    for name in names:
        _create_database(server, name, template=template_db)
    scoped, reference = (TestDatabase(server, name) for name in names)
    try:
        _bind_supply(scoped.url)
        _without_other_suppliers_and_items(reference.url)
        yield scoped, reference
    finally:
        for database in (scoped, reference):
            database.close()
            _drop_database(server, database.name)


def _outside_supply(db: TestDatabase) -> list[str]:
    """What names, numbers or links an out-of-scope supplier or item (or a record of one)."""
    needles = []
    for sid, name, number in db.rows("SELECT id, name, supplier_number FROM footnote_src.suppliers "
                                     "WHERE country <> ALL (%s) ORDER BY id", (SUPPLIER_COUNTRIES,)):
        needles += [name, f"erp://supplier/{sid}", f"supplier:{sid}", f'"{number}"']
    for iid, name, sku in db.rows("SELECT id, name, sku FROM footnote_src.items WHERE id % 2 <> 0 ORDER BY id"):
        needles += [name, f"erp://item/{iid}", f"item:{iid}", f'"{sku}"']
    for (number,) in db.rows("SELECT o.number FROM footnote_src.purchase_orders AS o JOIN footnote_src.suppliers "
                             "AS s ON s.id = o.supplier_id WHERE s.country <> ALL (%s)", (SUPPLIER_COUNTRIES,)):
        needles.append(f'"{number}"')
    return needles


def test_suppliers_items_and_their_records_outside_the_scope_do_not_exist(
        supply_pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, reference = supply_pair
    outside = _outside_supply(scoped)
    suppliers = scoped.rows("SELECT id, name, supplier_number, country FROM footnote_src.suppliers ORDER BY id")
    items = scoped.rows("SELECT id, name, sku FROM footnote_src.items ORDER BY id")
    assert 3 <= sum(c in SUPPLIER_COUNTRIES for *_x, c in suppliers) < len(suppliers)
    assert 3 <= len(items) // 2 < len(items)
    calls = list(SUPPLY_CALLS)
    for sid, name, number, _country in suppliers:
        asked = [name, str(sid), number, f"erp://supplier/{sid}", max(re.findall(r"\w{4,}", name), key=len),
                 _typo(name)]
        calls += [(op, {**args, "supplier": who}) for op, args in SUPPLIER_CALLS for who in asked]
    for iid, name, sku in items:
        calls += [("stock_on_hand", {"item": who}) for who in (name, str(iid), sku, f"erp://item/{iid}", _typo(name),
                                                               max(re.findall(r"\w{4,}", name), key=len))]
    orders = scoped.rows("SELECT id, number FROM footnote_src.purchase_orders ORDER BY id")
    calls += [("purchase_order", {"number": who}) for oid, number in orders[::3]
              for who in (number, f"erp://purchase_order/{oid}")]
    records = scoped.rows("""
        SELECT 'supplier_invoice', id FROM footnote_src.supplier_invoices
        UNION ALL SELECT 'supplier_payment', id FROM footnote_src.supplier_payments
        UNION ALL SELECT 'bank_account', id FROM footnote_src.supplier_bank_accounts
        UNION ALL SELECT 'bank_change_request', id FROM footnote_src.bank_change_requests
        UNION ALL SELECT 'stock', id FROM footnote_src.stock""")
    calls += [("source_record", {"uri": f"erp://{kind}/{rid}"}) for kind, rid in records[::5]]
    with scoped.connect("service") as conn_s, reference.connect("service") as conn_r:
        differing, leaking, answered = [], [], 0
        for operation, arguments in calls:
            got, want = _outcome(conn_s, operation, arguments), _outcome(conn_r, operation, arguments)
            answered += isinstance(got, dict)
            if isinstance(got, dict):  # a figure over the scope's suppliers or items says so, one supplier's does not
                stated = got["values"].pop("scope", None)
                portfolio = operation in {op for op, _args in SUPPLY_CALLS} and "supplier" not in arguments
                if (stated or {}).get("raw") != (SUPPLY_SCOPE[0] if portfolio else None):
                    differing.append((operation, arguments, stated, "the scope stated"))
            if (operation, arguments) in SUPPLY_CALLS and not isinstance(got, dict):
                differing.append((operation, arguments, got, "a result"))
            if got != want:
                differing.append((operation, arguments, got, want))
            said = json.dumps(got, ensure_ascii=False)
            for asked in arguments.values():
                said = said.replace(json.dumps(str(asked), ensure_ascii=False)[1:-1], "")
            if leaks := [n for n in outside if n in said]:
                leaking.append((operation, arguments, leaks))
    assert not leaking, (len(leaking), leaking[:3])
    assert not differing, (len(differing), [_difference(got, want) for _op, _args, got, want in differing[:3]])
    assert len(calls) > 300 and answered > 150
    # the router's and the gate's names: the scope's suppliers and items only; customers untouched
    names = scoped.scalar("SELECT footnote.router_names()", role="service")
    assert names == reference.scalar("SELECT footnote.router_names()", role="service")
    assert set(names["suppliers"]) == {n for _id, n, _number, c in suppliers if c in SUPPLIER_COUNTRIES}
    assert len(names["customers"]) == scoped.scalar("SELECT count(*) FROM footnote_src.customers")


def test_what_we_owe_under_a_supplier_scope_is_the_sum_by_hand_over_its_suppliers(
        supply_pair: tuple[TestDatabase, TestDatabase]) -> None:
    scoped, _reference = supply_pair
    payable = scoped.client("service").call("accounts_payable", as_of=AS_OF)
    by_hand, everything = scoped.rows("""
        SELECT sum(o.open) FILTER (WHERE s.country = ANY (%s)), sum(o.open)
        FROM (SELECT i.supplier_id, i.gross - coalesce((SELECT sum(p.amount) FROM erp.supplier_payment_allocations AS a
                                                       JOIN erp.supplier_payments AS p ON p.id = a.payment_id
                                                       WHERE a.supplier_invoice_id = i.id AND p.paid_on <= %s::date),
                                                      0) AS open
              FROM erp.supplier_invoices AS i WHERE i.invoice_date <= %s::date) AS o
        JOIN erp.suppliers AS s ON s.id = o.supplier_id
        WHERE o.open > 0""", (SUPPLIER_COUNTRIES, AS_OF, AS_OF))[0]
    assert Decimal(payable.values["open_total"].raw) == by_hand < everything
    assert payable.document["scope"]["id"] == payable.values["scope"].raw == SUPPLY_SCOPE[0]
    # customers are not limited by this scope: their figures state no scope
    aging = scoped.client("service").call("ar_aging", as_of=AS_OF)
    assert "scope" not in aging.values and aging.document["scope"]["id"] == SUPPLY_SCOPE[0]
    answer = scoped.client("service").ask("What do we owe our suppliers?")
    assert answer.status == "verified", answer.answer
    assert answer.answer.startswith(f"(For the suppliers of scope {SUPPLY_SCOPE[0]}.)"), answer.answer
    assert not [n for n in _outside_supply(scoped) if n in answer.answer]


def test_a_scope_of_suppliers_digests_its_criteria_and_one_of_customers_as_before(db: TestDatabase) -> None:
    from footnote_pg import canonical

    _bind_supply(db.url)
    item_ids = [i for (i,) in db.rows("SELECT id FROM erp.items WHERE id % 2 = 0 ORDER BY id")]
    definition = {"id": SUPPLY_SCOPE[0], "account_owners": None, "countries": None, "customer_ids": None,
                  "supplier_countries": SUPPLIER_COUNTRIES, "item_ids": item_ids}
    with db.connect("service") as conn:
        doc = conn.execute("SELECT footnote.call('list_suppliers', '{}')").fetchone()[0]  # type: ignore[index]
    assert doc["scope"]["digest"] == canonical.sha256_hex(canonical.canonical_json(definition))


def test_the_scope_commands_create_a_scope_of_suppliers_and_items(db: TestDatabase) -> None:
    code, out, err = _run("scope", "create", "buyers", "--description", "German suppliers", "--supplier-country", "DE",
                         "--item", "2", "--item", "4", "--database-url", db.url)
    german = db.scalar("SELECT count(*) FROM footnote_src.suppliers WHERE country = 'DE'")
    items = db.scalar("SELECT count(*) FROM footnote_src.items WHERE id IN (2, 4)")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:7] == [
        "  customers: every customer", f"  customers in it now: {db.scalar('SELECT count(*) FROM footnote_src.customers')}",
        "  suppliers: country DE", f"  suppliers in it now: {german}", "  items: item id 2, 4",
        f"  items in it now: {items}"]
    _run("scope", "bind", SERVICE_LOGIN, "buyers", "--database-url", db.url)
    listed = db.client("service").call("list_suppliers", limit=1000)
    assert int(listed.values["matching"].raw) == german
    code, _out, err = _run("scope", "create", "bad", "--description", "x", "--item", "-3", "--database-url", db.url)
    assert code == 2 and err.startswith("error: item ids are positive whole numbers")


def test_reattestation_runs_only_records_computed_under_the_sessions_scope(db: TestDatabase) -> None:
    """A record's claims name what its scope sees: to a login under another scope (or under a definition of its
    scope changed since) the record does not exist, the same line as a record never made; a login without a scope
    is told which scope a record was computed under."""
    fn = db.client("service")
    everyone = fn.ask("How much does Bergmann Logistik owe?")
    assert everyone.status == "verified" and everyone.receipt is not None
    _bind(db.url)
    west = db.client("service").ask("How much does Lefèvre Emballages owe?")
    assert west.status == "verified" and west.receipt is not None
    never = db.scalar("SELECT max(seq) + 1000 FROM footnote.ledger")

    def reattest(seq: int) -> Any:
        with db.connect("service") as conn:
            try:
                return [r[4] for r in conn.execute("SELECT * FROM footnote.reattest(%s)", (seq,)).fetchall()]
            except psycopg.Error as exc:
                return exc.sqlstate, str(exc).splitlines()[0].replace(str(seq), "N")

    assert set(reattest(west.receipt.seq)) == {"still_holds"}
    refused = reattest(everyone.receipt.seq)
    assert refused == reattest(never) and refused[1].endswith("there is no ledger record N"), refused
    # the scope redefined: its records were computed under another definition
    db.scalar("UPDATE footnote.scopes SET countries = '{FR}' WHERE id = 'west' RETURNING 1")
    assert reattest(west.receipt.seq) == reattest(never)
    db.scalar("DELETE FROM footnote.scope_bindings RETURNING 1")
    assert set(reattest(everyone.receipt.seq)) == {"still_holds"}
    assert reattest(west.receipt.seq)[1].endswith(
        "record N was computed under access scope west: re-attest it as a login of that scope")
    code, _out, err = _run("reattest", str(west.receipt.seq), "--database-url", db.url_as("service"))
    assert code != 0 and len(err.strip().splitlines()) == 1 and "computed under access scope west" in err

"""Verified identity from bearer tokens (footnote_pg/identity.py, sql/03_verified.sql): the web API and MCP over
HTTP serve only requests with a valid token, as its subject and under its scope; every refused token is one line,
a 401 or 403 with WWW-Authenticate, and nothing recorded; only a gateway login may assert an identity, for its own
transaction only.

Tokens are signed here with keys generated for the test run; the servers run in this process against the sample.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from typing import Any

import jwt
import psycopg
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from psycopg import sql

from footnote_pg.identity import TokenSettings
from footnote_pg.mcpserver import Config, prepare
from footnote_pg.web import serve
from tests import pgservers
from tests.conftest import LOGIN_ROLES, TEST_PASSWORD, TestDatabase, _create_database, _drop_database

ISSUER = "https://id.example.test/"
AUDIENCE = "footnote-pg-test"
GATEWAY = "fn_test_gateway"
SCOPES = {"dach": ("Germany, Austria and Switzerland", ["DE", "AT", "CH"]),
          "west": ("France, Belgium and the Netherlands", ["FR", "BE", "NL"])}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}}


@dataclass
class Setup:
    db: TestDatabase
    gateway_url: str
    key: ec.EllipticCurvePrivateKey
    url: str  # the running server (page, API and /mcp)
    stop: threading.Event
    thread: threading.Thread

    def token(self, **claims: Any) -> str:
        key = claims.pop("_key", None) or self.key
        now = int(time.time())
        body = {"iss": ISSUER, "aud": AUDIENCE, "sub": "lena.brandt", "footnote_scope": "dach", "iat": now,
                "exp": now + 600}
        body.update(claims)
        return jwt.encode({k: v for k, v in body.items() if v is not None}, key, algorithm="ES256")

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, exc.headers, exc.read()

    def recorded(self) -> tuple[int, int, int]:
        """Rows of the call log, the ledger and its queue."""
        row = self.db.rows("SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger), "
                           "(SELECT count(*) FROM footnote.ledger_queue)")[0]
        return int(row[0]), int(row[1]), int(row[2])


def _gateway_login(server: pgservers.Server) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (GATEWAY,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(GATEWAY),
                                                                          sql.Literal(TEST_PASSWORD)))
        conn.execute(sql.SQL("GRANT footnote_service, footnote_gateway TO {}").format(sql.Identifier(GATEWAY)))


@pytest.fixture(scope="module")
def setup(server: pgservers.Server, template_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    name = f"fn_id_{uuid.uuid4().hex[:10]}"
    _create_database(server, name, template=template_db)
    db = TestDatabase(server, name)
    _gateway_login(server)
    with psycopg.connect(db.url, autocommit=True) as conn:
        for sid, (description, countries) in SCOPES.items():
            conn.execute("INSERT INTO footnote.scopes (id, description, countries) VALUES (%s, %s, %s)",
                         (sid, description, countries))
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path_factory.mktemp("keys") / "issuer.pem"
    pem.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
    gateway_url = server.url_for(name, user=GATEWAY, password=TEST_PASSWORD)
    tokens = TokenSettings(ISSUER, AUDIENCE, public_key=str(pem))
    mcp, _count = prepare(Config(gateway_url, "web-gateway", None))
    ready, stop, box, failures = threading.Event(), threading.Event(), {}, []

    def run() -> None:
        try:
            serve(gateway_url, port=0, ready=lambda u: (box.update(url=u), ready.set()), stop=stop, mcp=mcp,
                  actor="web-gateway", actor_role=None, tokens=tokens)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(60) and not failures, failures
    try:
        yield Setup(db, gateway_url, key, box["url"], stop, thread)
    finally:
        stop.set()
        thread.join(timeout=20)
        db.close()
        _drop_database(server, name)


def refusals(s: Setup) -> list[tuple[str, str | None, int, str]]:
    """(case, token, status, what the line says) for every kind of token that must be refused."""
    other_key = ec.generate_private_key(ec.SECP256R1())
    valid = s.token()
    head, payload, signature = valid.split(".")
    forged = jwt.utils.base64url_encode(json.dumps(
        {**jwt.decode(valid, options={"verify_signature": False}), "footnote_scope": "west"}).encode()).decode()
    return [
        ("missing", None, 401, "no bearer token"),
        ("expired", s.token(exp=int(time.time()) - 3600, iat=int(time.time()) - 7200), 401, "expired"),
        ("wrong issuer", s.token(iss="https://evil.example.test/"), 401, f"not issued by {ISSUER}"),
        ("wrong audience", s.token(aud="another-service"), 401, f"not meant for audience {AUDIENCE}"),
        ("wrong key", s.token(_key=other_key), 401, "signature does not verify"),
        ("tampered", f"{head}.{forged}.{signature}", 401, "signature does not verify"),
        ("garbage", "not-a-jwt", 401, "not a well-formed signed JWT"),
        ("no scope claim", s.token(footnote_scope=None), 403, "no footnote_scope claim"),
        ("unknown scope", s.token(footnote_scope="north"), 403, "scope 'north' is not defined"),
    ]


@pytest.mark.parametrize("endpoint", ["web", "mcp"])
def test_every_refused_token_is_one_line_a_401_or_403_and_nothing_recorded(setup: Setup, endpoint: str) -> None:
    for case, token, status, words in refusals(setup):
        before = setup.recorded()
        if endpoint == "web":
            got, headers, body = setup.request("POST", "/api/ask", {"question": "How much does Bergmann owe?"}, token)
        else:
            got, headers, body = setup.request("POST", "/mcp", INITIALIZE, token, MCP_HEADERS)
        assert got == status, (case, got, body)
        line = json.loads(body)["error"]
        assert words in line and "\n" not in line, (case, line)
        challenge = headers["WWW-Authenticate"]
        assert challenge.startswith('Bearer realm="footnote-pg"'), (case, challenge)
        assert f'resource_metadata="{setup.url}.well-known/oauth-protected-resource"' in challenge
        if case != "missing":
            code = "invalid_token" if status == 401 else "insufficient_scope"
            assert f'error="{code}"' in challenge, (case, challenge)
        assert setup.recorded() == before, case


def test_the_protected_resource_metadata_names_the_issuer(setup: Setup) -> None:
    status, _headers, body = setup.request("GET", "/.well-known/oauth-protected-resource")
    assert status == 200
    doc = json.loads(body)
    assert doc["authorization_servers"] == [ISSUER] and doc["resource"] == setup.url + "mcp"


def test_the_page_says_who_asks_under_which_scope(setup: Setup) -> None:
    status, _h, body = setup.request("GET", "/api/whoami", token=setup.token(sub="marc.dubois", footnote_scope="west"))
    assert status == 200
    who = json.loads(body)
    assert who["actor"]["id"] == "marc.dubois" and who["verified"] is True
    assert who["scope"]["id"] == "west" and who["scope"]["description"] == SCOPES["west"][0]
    status, _h, page = setup.request("GET", "/")
    assert status == 200 and b'id="who-text"' in page


def test_a_token_for_a_scope_answers_only_its_customers_as_its_subject(setup: Setup) -> None:
    names = {sid: {r[0] for r in setup.db.rows("SELECT name FROM footnote_src.customers WHERE country = ANY (%s)",
                                               (countries,))} for sid, (_d, countries) in SCOPES.items()}
    question = "How much does Bergmann Logistik owe?"  # a German customer: in dach, unknown to west
    status, _h, body = setup.request("POST", "/api/ask", {"question": question}, setup.token())
    assert status == 200
    doc = json.loads(body)
    assert doc["status"] == "verified" and "43.805,00 €" in doc["answer"]
    status, _h, body = setup.request("POST", "/api/ask", {"question": question},
                                     setup.token(sub="marc.dubois", footnote_scope="west"))
    answer = json.loads(body)
    assert "43.805,00" not in json.dumps(answer)
    rows = setup.db.rows("SELECT actor_id, result->'scope'->>'id', result FROM footnote.call_log "
                         "ORDER BY called_at DESC LIMIT 2")
    assert {(r[0], r[1]) for r in rows} <= {("lena.brandt", "dach"), ("marc.dubois", "west")}
    assert ("lena.brandt", "dach") in {(r[0], r[1]) for r in rows}
    for _actor, scope, result in rows:
        others = set().union(*(n for sid, n in names.items() if sid != scope))
        assert not any(name in json.dumps(result, ensure_ascii=False) for name in others)


def customers_of(s: Setup, scope: str) -> set[str]:
    return {r[0] for r in s.db.rows("SELECT name FROM erp.customers WHERE country = ANY (%s)", (SCOPES[scope][1],))}


def test_mcp_tools_run_as_the_token_subject_under_its_scope(setup: Setup) -> None:
    import httpx2
    from anyio.from_thread import start_blocking_portal
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    token = setup.token(sub="marc.dubois", footnote_scope="west")
    with start_blocking_portal() as portal:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
        with portal.wrap_async_context_manager(http):
            transport = streamable_http_client(setup.url + "mcp", http_client=http)
            with portal.wrap_async_context_manager(Client(transport, cache=None, read_timeout_seconds=60)) as client:
                result = portal.call(client.call_tool, "list_customers", {"limit": 1000})
    doc = result.structured_content
    assert doc is not None and doc["scope"]["id"] == "west"
    assert {r["name"]["text"] for r in doc["rows"]} == customers_of(setup, "west")
    actor = setup.db.scalar("SELECT actor_id FROM footnote.call_log WHERE call_id = %s", (doc["call_id"],))
    assert actor == "marc.dubois"


def test_the_web_api_under_another_scope_names_nothing_of_it(setup: Setup) -> None:
    """As marc.dubois (west): a dach customer's invoice and customer record are unknown records, an evidence set of
    lena.brandt's (dach) call is a call never made, and a clarification offers no dach name; each the same line as
    for a record or call that does not exist."""
    dach = {r[0] for r in setup.db.rows("SELECT name FROM erp.customers WHERE country = ANY (%s)",
                                        (SCOPES["dach"][1],))}
    invoice, customer = setup.db.rows("SELECT i.id, i.customer_id FROM erp.invoices AS i JOIN erp.customers AS c "
                                      "ON c.id = i.customer_id WHERE c.country = 'DE' ORDER BY i.id LIMIT 1")[0]
    missing = setup.db.scalar("SELECT max(id) + 1000 FROM erp.invoices")
    before = setup.db.scalar("SELECT value FROM footnote.settings WHERE key = 'max_evidence_rows'")
    setup.db.scalar("UPDATE footnote.settings SET value = '3' WHERE key = 'max_evidence_rows' RETURNING 1")
    try:
        status, _h, body = setup.request("POST", "/api/ask", {"question": "Show AR aging"}, setup.token())
        doc = json.loads(body)
        the_set = next(e for e in doc["evidence"] if e["type"] == "evidence_set")
        call_id = next(c["call_id"] for c in doc["claims"] if c.get("evidence") == [the_set["id"]])
        cut = (the_set, call_id)
    finally:
        setup.db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1",
                        (before,))
    marc = setup.token(sub="marc.dubois", footnote_scope="west")

    def said(path: str) -> tuple[int, str]:
        got, _headers, body = setup.request("GET", path, token=marc)
        return got, body.decode()

    assert status == 200 and setup.request("GET", f"/api/evidence?call_id={cut[1]}&set={cut[0]['id']}",
                                           token=setup.token())[0] == 200  # lena reads her own
    for path, unknown, value, other in (
            (f"/api/record?uri=erp://invoice/{invoice}", f"/api/record?uri=erp://invoice/{missing}", invoice, missing),
            (f"/api/record?uri=erp://customer/{customer}", f"/api/record?uri=erp://customer/{missing}", customer,
             missing),
            (f"/api/evidence?call_id={cut[1]}&set={cut[0]['id']}",
             f"/api/evidence?call_id={uuid.uuid4()}&set={cut[0]['id']}", cut[1], None)):
        got, text = said(path)
        want, want_text = said(unknown)
        assert got == want != 200, (path, got, text)
        other = other if other is not None else unknown.split("call_id=")[1].split("&")[0]
        assert text == want_text.replace(str(other), str(value)), (path, text, want_text)
        assert not any(name in text for name in dach)
    status, _h, body = setup.request("POST", "/api/ask", {"question": "How much does Bergmann owe?"}, marc)
    assert status == 200 and not any(name in body.decode() for name in dach), body[:300]


@contextmanager
def mcp_as(s: Setup, token: str) -> Iterator[tuple[Any, Any]]:
    """(portal, client): an MCP session over HTTP opened with ``token``."""
    import httpx2
    from anyio.from_thread import start_blocking_portal
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    with start_blocking_portal() as portal:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
        with portal.wrap_async_context_manager(http):
            transport = streamable_http_client(s.url + "mcp", http_client=http)
            with portal.wrap_async_context_manager(Client(transport, cache=None, read_timeout_seconds=60)) as client:
                yield portal, client


def _read(portal: Any, client: Any, uri: str) -> tuple[str, str]:
    """("ok", text) or ("error", message) of reading a resource."""
    try:
        result = portal.call(client.read_resource, uri)
    except Exception as exc:  # noqa: BLE001 - the SDK raises its protocol error: its message is what a client sees
        return "error", str(exc)
    return "ok", result.contents[0].text


def test_mcp_resources_of_another_user_or_scope_are_as_if_they_did_not_exist(setup: Setup) -> None:
    """A cut result is held for the user who asked for it; a record outside the token's scope is an unknown one:
    another user reading it gets what a never-held result or a never-existing record gives, with no figure of it."""
    dach = setup.db.rows("SELECT c.id, c.name, (SELECT min(i.id) FROM erp.invoices AS i WHERE i.customer_id = c.id) "
                         "FROM erp.customers AS c WHERE c.country = ANY (%s) ORDER BY c.id", (SCOPES["dach"][1],))
    missing = setup.db.scalar("SELECT max(id) + 1000 FROM erp.customers")
    with mcp_as(setup, setup.token()) as (portal, client):  # lena.brandt, dach
        aging = portal.call(client.call_tool, "ar_aging", {})
        doc = aging.structured_content
        assert doc is not None and doc["scope"]["id"] == "dach"
        pages = [o["next"] for o in doc.get("omitted", []) if "next" in o]
        assert pages, "the aging of scope dach fits one result: nothing to page"
        mine = _read(portal, client, pages[0])
        assert mine[0] == "ok" and json.loads(mine[1])["items"], mine
    never_held = pages[0].replace(doc["call_id"], str(uuid.uuid4()))
    with mcp_as(setup, setup.token(sub="marc.dubois", footnote_scope="west")) as (portal, client):
        status, said = _read(portal, client, pages[0])
        assert status == "error" and said == _read(portal, client, never_held)[1].replace(
            never_held.split("/")[3], doc["call_id"]), said[:300]
        for cid, name, invoice in dach[:: max(1, len(dach) // 6)]:
            for uri, unknown in ((f"erp://customer/{cid}", f"erp://customer/{missing}"),
                                 (f"erp://invoice/{invoice}", f"erp://invoice/{missing * 1000}")):
                status, said = _read(portal, client, uri)
                want = _read(portal, client, unknown)[1].replace(unknown.rsplit("/", 1)[1], uri.rsplit("/", 1)[1])
                assert status == "error" and said == want and name not in said, (uri, said, want)


# -- the entry point in SQL ---------------------------------------------------------------------------------------


def test_only_gateways_may_assert_an_identity(setup: Setup) -> None:
    # footnote_owner (the DBA's role, whose mapping code runs inside a gateway's session too) may not call it either
    for role in ("service", "outsider", "auditor", "owner"):
        with setup.db.connect(role) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT footnote.assert_identity('lena.brandt', 'dach')")


def test_no_login_reads_or_writes_the_identities(setup: Setup) -> None:
    for url in (setup.gateway_url, setup.db.url_as("service")):
        with psycopg.connect(url, autocommit=True) as conn:
            for statement in ("SELECT * FROM footnote.verified_identities",
                              "UPDATE footnote.verified_identities SET scope = 'west'",
                              "INSERT INTO footnote.verified_identities VALUES "
                              "(pg_backend_pid(), now(), pg_current_xact_id(), 'x', 'west', 'x')",
                              "DELETE FROM footnote.verified_identities"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)


def test_an_identity_holds_for_its_own_backend_and_transaction_only(setup: Setup) -> None:
    with psycopg.connect(setup.gateway_url) as one, psycopg.connect(setup.gateway_url) as two:
        one.execute("SELECT footnote.assert_identity('lena.brandt', 'dach')")
        mine = one.execute("SELECT footnote.whoami()").fetchone()[0]  # type: ignore[index]
        assert mine["verified"] and mine["actor"]["id"] == "lena.brandt" and mine["scope"]["id"] == "dach"
        theirs = two.execute("SELECT footnote.whoami()").fetchone()[0]  # type: ignore[index]
        assert not theirs["verified"] and theirs["scope"] is None  # another backend inherits nothing
        one.commit()
        after = one.execute("SELECT footnote.whoami()").fetchone()[0]  # type: ignore[index]
        assert not after["verified"] and after["scope"] is None  # the next transaction on the connection neither
        two.rollback()


def test_an_unknown_scope_is_fn109_and_a_verified_scope_only_narrows_the_logins(setup: Setup) -> None:
    with psycopg.connect(setup.gateway_url) as conn, pytest.raises(psycopg.Error) as refused:
        conn.execute("SELECT footnote.assert_identity('lena.brandt', 'north')")
    assert refused.value.sqlstate == "FN109"
    with psycopg.connect(setup.db.url, autocommit=True) as conn:
        conn.execute("INSERT INTO footnote.scope_bindings (role, scope) VALUES (%s, 'west')", (GATEWAY,))
    try:
        with psycopg.connect(setup.gateway_url) as conn:
            conn.execute("SELECT footnote.assert_identity('lena.brandt', 'dach')")
            doc = conn.execute("SELECT footnote.call('list_customers', '{\"limit\": 1000}')").fetchone()[0]  # type: ignore[index]
            assert doc["rows"] == []  # dach within west: no customer is in both
            assert doc["scope"]["id"] == "dach" and "within scope west" in doc["scope"]["description"]
            conn.rollback()
            conn.execute("SELECT footnote.assert_identity('marc.dubois', 'west')")
            doc = conn.execute("SELECT footnote.call('list_customers', '{\"limit\": 1000}')").fetchone()[0]  # type: ignore[index]
            assert {r["name"]["text"] for r in doc["rows"]} == customers_of(setup, "west")
            conn.rollback()
    finally:
        with psycopg.connect(setup.db.url, autocommit=True) as conn:
            conn.execute("DELETE FROM footnote.scope_bindings WHERE role = %s", (GATEWAY,))


def test_without_token_settings_requests_are_served_as_the_actor(db: TestDatabase) -> None:
    from footnote_pg.cli import _identity_line

    line = _identity_line(db.url_as("service"), None, "web-desk", "analyst")
    assert line == "no token validation: every request is served as web-desk (analyst) with every customer"
    assert LOGIN_ROLES["service"][1] == "footnote_service"


def test_an_mcp_session_answers_only_the_user_who_opened_it(setup: Setup) -> None:
    status, headers, _body = setup.request("POST", "/mcp", INITIALIZE, setup.token(), MCP_HEADERS)
    assert status == 200
    session = {**MCP_HEADERS, "Mcp-Session-Id": headers["Mcp-Session-Id"], "Mcp-Protocol-Version": "2025-11-25"}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    status, _h, _b = setup.request("POST", "/mcp", listing, setup.token(sub="marc.dubois", footnote_scope="west"),
                                   session)
    assert status == 404  # as if the session did not exist
    status, _h, _b = setup.request("POST", "/mcp", listing, setup.token(), session)
    assert status == 200

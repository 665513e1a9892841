"""The MCP server, as a client sees it: the real server in a subprocess, the official SDK client on stdio or HTTP.

Most tests share one server on one database (``module_db``); they never depend on each other's writes (ledger
checks look records up by id). The outage, the unreachable database and the HTTP transport get servers of their own.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import psycopg
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, ResourceLink, TextContent, TextResourceContents, Tool
from psycopg import sql

from footnote_pg.results import Operation
from tests.conftest import TestDatabase

pytestmark = pytest.mark.timeout(180)

REPO = Path(__file__).resolve().parents[1]
ACTOR = "mcp-agent:controller"
FIXED_TOOLS = {"answer", "submit_answer", "record_decision", "verify_chain"}
OUTPUT_KEYS = {  # a few properties each outputSchema must declare
    "submit_answer": {"status", "sentences", "fallback", "ledger"},
    "operation": {"operation", "call_id", "result_hash", "values", "rows", "evidence"},
    "answer": {"question", "status", "answer", "claims", "evidence", "options", "reason", "ledger"},
    "record_decision": {"record_id", "outcome", "citations", "findings", "ledger"},
    "verify_chain": {"ok", "records", "head_seq", "head_hash", "first_bad_seq", "problem", "detail"},
}


# -- plumbing: a sync facade over the async SDK client --------------------------------------------------------------


class Session:
    """An SDK client session driven from synchronous tests through an anyio blocking portal."""

    def __init__(self, portal: BlockingPortal, client: Client, errlog: Path | None) -> None:
        self.portal, self.client, self.errlog = portal, client, errlog

    def tools(self) -> dict[str, Tool]:
        return {t.name: t for t in self.portal.call(self.client.list_tools).tools}

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        result: CallToolResult = self.portal.call(self.client.call_tool, name, arguments or {})
        return result

    def read(self, uri: str) -> dict[str, Any]:
        result = self.portal.call(self.client.read_resource, uri)
        contents = result.contents[0]
        assert isinstance(contents, TextResourceContents) and contents.mime_type == "application/json"
        doc: dict[str, Any] = json.loads(contents.text)
        return doc

    def instructions(self) -> str:
        return str(self.client.instructions or "")

    def stderr(self) -> str:
        return self.errlog.read_text(encoding="utf-8") if self.errlog else ""


@contextmanager
def session(target: Any, errlog: Path | None = None) -> Iterator[Session]:
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(target, cache=None, read_timeout_seconds=60)) as client:
            yield Session(portal, client, errlog)


def server_env(database_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "PROVENANCE_ACTOR": ACTOR}


@contextmanager
def stdio_server(database_url: str, errlog: Path) -> Iterator[Session]:
    """The real server as a subprocess over stdio, its stderr kept in ``errlog``."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "footnote_pg.mcp_server"], env=server_env(database_url), cwd=str(REPO)
    )
    with errlog.open("w", encoding="utf-8") as err, session(stdio_client(params, errlog=err), errlog) as s:
        yield s


def text(result: CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


def links(result: CallToolResult) -> list[ResourceLink]:
    return [c for c in result.content if isinstance(c, ResourceLink)]


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


# -- fixtures -------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mcp(module_db: TestDatabase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    errlog = tmp_path_factory.mktemp("mcp") / "stderr.log"
    with stdio_server(module_db.url_as("service"), errlog) as s:
        yield s
    assert "Traceback" not in errlog.read_text(encoding="utf-8"), errlog.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def operations(module_db: TestDatabase) -> list[Operation]:
    ops: list[Operation] = module_db.client("service").catalog()
    return ops


def example_arguments(op: Operation, mcp: Session) -> dict[str, Any]:
    """Every argument the catalog gives an example for; a real item for stock_on_hand (it has none)."""
    args: dict[str, Any] = {
        a.name: int(a.example) if a.type == "integer" else a.example for a in op.arguments if a.example is not None
    }
    if op.name == "stock_on_hand":
        args["item"] = structured(mcp.call("list_items", {"limit": 1}))["rows"][0]["sku"]["raw"]
    return args


# -- tools/list -----------------------------------------------------------------------------------------------------


def test_tools_are_the_catalog_plus_answer_decision_and_chain(
    mcp: Session, module_db: TestDatabase, operations: list[Operation]
) -> None:
    tools = mcp.tools()
    in_db = {r[0] for r in module_db.rows("SELECT operation FROM footnote.catalog")}
    assert len(in_db) == 26
    assert set(tools) == in_db | FIXED_TOOLS
    for op in operations:
        tool = tools[op.name]
        assert tool.input_schema == op.json_schema()
        assert tool.description and tool.description.startswith(op.description)
        assert tool.title == op.title
        assert tool.output_schema is not None and OUTPUT_KEYS["operation"] <= set(tool.output_schema["properties"])
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
    overdue = tools["customer_overdue"].input_schema
    assert overdue["required"] == ["customer"] and overdue["properties"]["customer"]["type"] == "string"
    assert overdue["properties"]["as_of"]["format"] == "date"
    assert tools["list_customers"].input_schema["properties"]["limit"]["type"] == "integer"
    assert tools["revenue_change"].input_schema["required"] == ["period_from", "period_to"]
    for name in FIXED_TOOLS:
        schema = tools[name].output_schema
        assert schema is not None and OUTPUT_KEYS[name] <= set(schema["properties"]), name
    assert tools["answer"].input_schema["required"] == ["question"]
    decision = tools["record_decision"].input_schema
    assert set(decision["required"]) == {"action", "subject", "rationale", "citations"}
    citation = decision["$defs"]["Citation"]
    assert set(citation["required"]) == {"evidence", "call_id"} and "fact" in citation["properties"]
    assert tools["verify_chain"].input_schema["properties"] == {}


# -- catalog operations ---------------------------------------------------------------------------------------------


def test_every_catalog_operation_answers_with_evidence_links_and_its_call(
    mcp: Session, module_db: TestDatabase, operations: list[Operation]
) -> None:
    metas: dict[str, str] = {}
    for op in operations:
        result = mcp.call(op.name, example_arguments(op, mcp))
        doc = structured(result)
        assert doc["operation"] == op.name
        assert result.meta is not None and result.meta["call_id"] == doc["call_id"]
        assert result.meta["result_hash"] == doc["result_hash"]
        assert doc["call_id"] in text(result)
        found = links(result)
        assert [link.uri for link in found] == [  # an evidence set: the first page of its rows
            e["uri"] or f"footnote://evidence/{doc['call_id']}/{e['id']}/0" for e in doc["evidence"]], op.name
        assert all(link.annotations and link.annotations.audience == ["user"] for link in found)
        assert [link.name for link in found] == [e["id"] for e in doc["evidence"]]
        metas[doc["call_id"]] = result.meta["result_hash"]
    logged = dict(
        module_db.rows(
            "SELECT call_id::text, result_hash FROM footnote.call_log WHERE call_id = ANY(%s::uuid[])", (list(metas),)
        )
    )
    assert logged == metas
    actors = module_db.rows(
        "SELECT DISTINCT actor_id, actor_role FROM footnote.call_log WHERE call_id = ANY(%s::uuid[])", (list(metas),)
    )
    assert actors == [("mcp-agent", "controller")]


def test_a_result_reads_like_the_figures_it_cites(mcp: Session) -> None:
    result = mcp.call("customer_overdue", {"customer": "Bergmann Logistik"})
    doc = structured(result)
    assert doc["values"]["overdue_total"]["text"] == "43.805,00 €"
    assert "overdue_total: 43.805,00 € [invoice:8812, invoice:8834, invoice:8901, invoice:8977]" in text(result)
    link = next(x for x in links(result) if x.uri == "erp://invoice/8812")
    assert link.name == "invoice:8812" and link.title == "invoice INV-2026-8812"
    assert link.description and "outstanding=18450.00" in link.description


def test_a_resource_link_opens_the_record(mcp: Session) -> None:
    result = mcp.call("customer_overdue", {"customer": "Bergmann Logistik"})
    link = next(x for x in links(result) if x.uri == "erp://invoice/8812")
    record = mcp.read(link.uri)
    assert record["type"] == "invoice" and record["id"] == "8812" and record["uri"] == "erp://invoice/8812"
    assert record["fields"]["number"] == "INV-2026-8812" and record["fields"]["gross"] == "24450.00"
    templates = mcp.portal.call(mcp.client.list_resource_templates).resource_templates
    assert [t.uri_template for t in templates] == ["erp://{type}/{id}", "footnote://evidence/{call_id}/{set_id}/{offset}",
                                                   "footnote://result/{id}/{part}/{offset}"]
    with pytest.raises(MCPError, match="no such record"):
        mcp.read("erp://invoice/999999999")


def test_an_evidence_set_is_read_a_page_at_a_time(mcp: Session, module_db: TestDatabase) -> None:
    limit = module_db.scalar("SELECT value FROM footnote.settings WHERE key = 'max_evidence_rows'")
    module_db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
    try:
        result = mcp.call("ar_aging", {})
    finally:
        module_db.scalar("UPDATE footnote.settings SET value = %s WHERE key = 'max_evidence_rows' RETURNING 1",
                         (limit,))
    assert not result.is_error and result.structured_content is not None
    doc = result.structured_content
    (the_set,) = [e for e in doc["evidence"] if e["type"] == "evidence_set"]
    rows: list[dict[str, Any]] = []
    while page := mcp.read(f"footnote://evidence/{doc['call_id']}/{the_set['id']}/{len(rows)}")["rows"]:
        rows += page
    assert len(rows) == int(the_set["fields"]["rows"]) and rows[0]["uri"].startswith("erp://invoice/")
    with pytest.raises(MCPError, match="cites no evidence set"):
        mcp.read(f"footnote://evidence/{doc['call_id']}/evidence_set:1/0")
    with pytest.raises(MCPError, match="invalid argument offset"):
        mcp.read(f"footnote://evidence/{doc['call_id']}/{the_set['id']}/x")


def test_an_unknown_customer_is_an_error_listing_the_real_names(mcp: Session, module_db: TestDatabase) -> None:
    result = mcp.call("customer_overdue", {"customer": "Bergman Logistics"})
    assert result.is_error
    message = text(result)
    assert "There is no customer named “Bergman Logistics”" in message
    assert result.meta is not None
    names = [a["name"] for a in result.meta["alternatives"]]
    assert 1 <= len(names) <= 5 and names[0] == "Bergmann Logistik GmbH"
    real = {r[0] for r in module_db.rows("SELECT name FROM erp.customers")}
    assert set(names) <= real
    assert f"The closest real customer names: {'; '.join(names)}. " in message  # one line a model can act on
    assert "\n" not in message and "Call customer_overdue again" in message
    nothing = mcp.call("customer_overdue", {"customer": "Acme Corporation"})
    assert nothing.is_error and nothing.meta is not None and nothing.meta["alternatives"] == []
    assert text(nothing) == ("There is no customer named “Acme Corporation”, and no customer name is close to it. "
                             "Call list_customers (name_contains) to see the real names, or ask the user which "
                             "customer is meant.")


def test_an_ambiguous_customer_is_an_error_listing_the_candidates(mcp: Session) -> None:
    result = mcp.call("customer_risk", {"customer": "Bergmann"})
    assert result.is_error
    assert "matches several customer records: Bergmann Bau AG; Bergmann Logistik GmbH. Call" in text(result)
    assert "\n" not in text(result)
    assert result.meta is not None and [c["name"] for c in result.meta["candidates"]] == [
        "Bergmann Bau AG",
        "Bergmann Logistik GmbH",
    ]


def test_bad_arguments_are_errors_in_the_databases_words(mcp: Session) -> None:
    period = mcp.call("revenue", {"period": "garbage"})
    assert period.is_error and text(period).startswith("invalid argument period: garbage is not a period")
    extra = mcp.call("revenue", {"period": "2026-Q2", "region": "EU"})
    assert extra.is_error and "invalid argument region: is not an argument of revenue" in text(extra)
    missing = mcp.call("customer_overdue", {})
    assert missing.is_error and text(missing) == "invalid argument customer: is required"


# -- answer ---------------------------------------------------------------------------------------------------------


def test_answer_is_verified_with_claims_and_its_ledger_record(mcp: Session, module_db: TestDatabase) -> None:
    result = mcp.call("answer", {"question": "How much does Bergmann Logistik owe?"})
    doc = structured(result)
    assert doc["status"] == "verified"
    assert doc["answer"].startswith("Bergmann Logistik GmbH owes 43.805,00 €")
    total = next(c for c in doc["claims"] if c["text"] == "43.805,00 €")
    assert total["verdict"] == "grounded" and "invoice:8812" in total["evidence"]
    assert {x.uri for x in links(result)} == {e["uri"] for e in doc["evidence"]} and "erp://invoice/8812" in {
        x.uri for x in links(result)
    }
    meta = result.meta
    assert meta is not None
    assert module_db.rows("SELECT seq, hash FROM footnote.ledger WHERE id = %s", (meta["record_id"],)) == [
        (meta["seq"], meta["hash"])
    ]
    assert doc["ledger"]["seq"] == meta["seq"] and f"ledger #{meta['seq']}" in text(result)


def test_the_instructions_tell_the_model_to_submit_its_own_answer(mcp: Session) -> None:
    instructions = mcp.instructions()
    assert "submit_answer" in instructions and "fallback" in instructions


def test_a_submitted_answer_is_graded_per_sentence_and_recorded(mcp: Session, module_db: TestDatabase) -> None:
    call = structured(mcp.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    v = call["values"]
    mine = (f"Bergmann Logistik owes {v['overdue_total']['text']} overdue across {v['invoice_count']['text']} "
            f"invoices; the oldest is {v['oldest_days_past_due']['text']} past due (as of {v['as_of']['text']}).\n"
            "They have promised to pay next week.")
    result = mcp.call("submit_answer", {"question": "How much does Bergmann Logistik owe?", "answer": mine,
                                        "call_ids": [call["call_id"]]})
    assert not result.is_error
    doc = structured(result)
    assert doc["status"] == "insufficient_evidence"
    assert [(s["text"], s["verdict"]) for s in doc["sentences"]][-1] == ("They have promised to pay next week.",
                                                                         "unsupported")
    assert {s["verdict"] for s in doc["sentences"][:-1]} == {"grounded"}
    assert doc["fallback"]["answer"].startswith("Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices")
    assert "Do not show this text" in text(result) and doc["fallback"]["answer"] in text(result)
    assert module_db.rows("SELECT answer, status, details->>'origin' FROM footnote.ledger WHERE seq = %s",
                          (doc["ledger"]["seq"],)) == [(mine, "insufficient_evidence", "agent")]
    # the same words without the promise: verified, and recorded as written
    call = structured(mcp.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    result = mcp.call("submit_answer", {"question": "How much does Bergmann Logistik owe?",
                                        "answer": mine.split("\n")[0], "call_ids": [call["call_id"]]})
    assert structured(result)["status"] == "verified"


def test_a_submission_with_bad_input_is_one_clear_error(mcp: Session, module_db: TestDatabase) -> None:
    before = module_db.scalar("SELECT count(*) FROM footnote.ledger")
    for arguments, expected in (
        ({"question": "q", "answer": "x", "call_ids": ["not-a-uuid"]}, "is not a call_id"),
        ({"question": "q", "answer": "x", "call_ids": ["00000000-0000-4000-8000-000000000000"]}, "was never made"),
        ({"question": "q", "answer": "bad \u0007 bell", "call_ids": ["00000000-0000-4000-8000-000000000000"]},
         "control characters"),
    ):
        result = mcp.call("submit_answer", arguments)
        assert result.is_error, arguments
        assert expected in text(result) and "\n" not in text(result).strip(), text(result)
    assert module_db.scalar("SELECT count(*) FROM footnote.ledger") == before


def test_a_refusal_is_an_answer_not_an_error(mcp: Session, module_db: TestDatabase) -> None:
    result = mcp.call("answer", {"question": "What will revenue be next quarter?"})
    assert not result.is_error
    doc = structured(result)
    assert doc["status"] == "refused" and doc["reason"] == "forecast" and doc["claims"] == []
    assert "do not forecast" in text(result) and "status: refused (forecast)" in text(result)
    assert result.meta is not None
    assert module_db.rows("SELECT status FROM footnote.ledger WHERE seq = %s", (result.meta["seq"],)) == [("refused",)]


def test_an_ambiguous_question_offers_options(mcp: Session) -> None:
    result = mcp.call("answer", {"question": "How much does Bergmann owe?"})
    doc = structured(result)
    assert doc["status"] == "ambiguous"
    assert doc["options"] == ["How much does Bergmann Bau AG owe?", "How much does Bergmann Logistik GmbH owe?"]


def test_wrong_arguments_to_the_fixed_tools_are_one_line_naming_the_argument(mcp: Session,
                                                                            module_db: TestDatabase) -> None:
    before = module_db.rows("SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger)")
    for name, arguments, expected in (
        ("answer", {"question": 123}, "invalid argument question: must be a string, not number"),
        ("answer", {"question": "Show AR aging", "verbose": True}, "invalid argument verbose: is not an argument of "
                                                                   "answer"),
        ("answer", {}, "invalid argument question: is required"),
        ("answer", {"question": "a\x00b"}, "invalid argument question: must not contain NUL (0x00) characters"),
        ("submit_answer", {"question": "q", "answer": "a", "call_ids": "x"},
         "invalid argument call_ids: must be an array, not string"),
        ("record_decision",
         {"action": "pay", "subject": "x", "rationale": "y", "citations": [{"evidence": {"x": [1]}}]},
         "invalid argument citations[0].evidence: must be a string, not object (and 1 more problem)"),
        ("verify_chain", {"deep": True}, "invalid argument deep: is not an argument of verify_chain"),
    ):
        result = mcp.call(name, arguments)
        assert result.is_error and text(result) == expected, (name, text(result))
        assert result.meta is not None and result.meta["code"] == "FN001" and result.meta["argument"]
    after = module_db.rows("SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger)")
    assert after == before


def test_an_empty_question_is_an_error(mcp: Session) -> None:
    result = mcp.call("answer", {"question": " "})
    assert result.is_error and "question" in text(result)


# -- record_decision ------------------------------------------------------------------------------------------------


def test_a_decision_citing_the_unverified_bank_change_is_unverified(mcp: Session, module_db: TestDatabase) -> None:
    called = mcp.call("supplier_payment_facts", {"supplier": "Northwind Supply"})
    facts = structured(called)
    change = next(e for e in facts["evidence"] if e["type"] == "bank_change_request")
    assert change["verified"] is False
    assert "pending_account_ending: 9086 (UNVERIFIED: none: e-mail only, not called back)" in text(called)
    assert "paid_account_ending: 4471 (verified: every payment went to this account)" in text(called)
    result = mcp.call(
        "record_decision",
        {
            "action": "pay",
            "subject": "Northwind Supply invoice to account ending 9086",
            "rationale": "The supplier asked for the new account.",
            "citations": [{"evidence": change["id"], "call_id": facts["call_id"], "fact": "pending_account_ending"}],
            "call_ids": [facts["call_id"]],
        },
    )
    doc = structured(result)
    assert doc["outcome"] == "unverified"
    assert doc["citations"][0]["verdict"] == "unverified"
    assert doc["citations"][0]["verification"] == "none: e-mail only, not called back"
    assert "outcome unverified" in text(result) and "Do not act" in text(result)
    assert [x.uri for x in links(result)] == [change["uri"]]
    meta = result.meta
    assert meta is not None and meta["outcome"] == "unverified"
    assert module_db.rows("SELECT seq, hash FROM footnote.ledger WHERE id = %s", (meta["record_id"],)) == [
        (meta["seq"], meta["hash"])
    ]
    assert module_db.rows(
        "SELECT action, outcome, actor_id FROM footnote.decisions WHERE seq = %s", (meta["seq"],)
    ) == [("pay", "unverified", "mcp-agent")]


def test_decision_errors_are_tool_errors(mcp: Session) -> None:
    facts = structured(mcp.call("supplier_payment_facts", {"supplier": "Northwind Supply"}))
    account = next(e for e in facts["evidence"] if e["type"] == "bank_account")
    citation = {"evidence": account["id"], "call_id": facts["call_id"]}
    first = mcp.call(
        "record_decision",
        {"action": "hold", "subject": "Northwind Supply", "rationale": "check", "citations": [citation]},
    )  # call_ids default to the citations' calls
    assert structured(first)["outcome"] == "grounded"
    again = mcp.call(
        "record_decision",
        {"action": "hold", "subject": "Northwind Supply", "rationale": "again", "citations": [citation]},
    )
    assert again.is_error and "already backs an accepted ledger record" in text(again)
    bad = mcp.call(
        "record_decision",
        {
            "action": "pay",
            "subject": "x",
            "rationale": "",
            "citations": [{"evidence": account["id"], "call_id": "not-a-uuid"}],
        },
    )
    assert bad.is_error and "is not a call_id" in text(bad)


# -- verify_chain ---------------------------------------------------------------------------------------------------


def test_verify_chain_reports_the_head(mcp: Session, module_db: TestDatabase) -> None:
    mcp.call("answer", {"question": "Show AR aging"})
    result = mcp.call("verify_chain")
    doc = structured(result)
    head = module_db.rows("SELECT seq, hash FROM footnote.ledger ORDER BY seq DESC LIMIT 1")[0]
    assert doc["ok"] is True and (doc["head_seq"], doc["head_hash"]) == head and doc["records"] == head[0]
    assert result.meta is not None and result.meta["head_seq"] == head[0]
    assert doc["independent"] is None and "footnote_auditor" in doc["note"]  # the service role cannot read it
    assert text(result).startswith(f"chain intact: {head[0]} records")


# -- outages --------------------------------------------------------------------------------------------------------


def _allow_connections(db: TestDatabase, allow: bool) -> None:
    with psycopg.connect(db.server.url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS {}").format(sql.Identifier(db.name), sql.Literal(allow))
        )
        if not allow:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (db.name,))


def test_a_database_outage_mid_session_is_an_error_result_and_the_server_recovers(
    db: TestDatabase, tmp_path: Path
) -> None:
    errlog = tmp_path / "stderr.log"
    with stdio_server(db.url_as("service"), errlog) as s:
        assert not s.call("customer_overdue", {"customer": "Bergmann Logistik"}).is_error
        _allow_connections(db, False)
        try:
            down = s.call("customer_overdue", {"customer": "Bergmann Logistik"})
            assert down.is_error and text(down).startswith("The database is unavailable: cannot connect")
            assert "still running" in text(down)
            assert s.call("answer", {"question": "Show AR aging"}).is_error
            assert len(s.tools()) == 30  # the server is alive and still lists its tools
        finally:
            _allow_connections(db, True)

        def back() -> bool:
            return not s.call("customer_overdue", {"customer": "Bergmann Logistik"}).is_error

        until(back, 30, "the server to reconnect")
    log = errlog.read_text(encoding="utf-8")
    assert "Traceback" not in log and "connection pool closed" in log


def test_an_unreachable_database_at_startup_gives_error_results(tmp_path: Path) -> None:
    errlog = tmp_path / "stderr.log"
    url = f"postgresql://nobody:secret@127.0.0.1:{free_port()}/nowhere?connect_timeout=3"
    with stdio_server(url, errlog) as s:
        assert set(s.tools()) == FIXED_TOOLS  # no catalog without a database; the fixed tools still answer
        calls: list[tuple[str, dict[str, Any]]] = [
            ("answer", {"question": "How much does Bergmann Logistik owe?"}),
            ("verify_chain", {}),
            ("record_decision", {"action": "hold", "subject": "x", "rationale": "y", "citations": []}),
        ]
        for name, args in calls:
            result = s.call(name, args)
            assert result.is_error and text(result).startswith("The database is unavailable: cannot connect"), name
        with pytest.raises(MCPError, match="database is unavailable"):
            s.read("erp://invoice/8812")
    log = errlog.read_text(encoding="utf-8")
    assert "Traceback" not in log and "secret" not in log
    assert "catalog not loaded" in log


# -- streamable HTTP ------------------------------------------------------------------------------------------------


@contextmanager
def http_server(database_url: str, port: int, errlog: TextIO) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "footnote_pg.mcp_server", "--http", "--port", str(port)],
        cwd=REPO,
        env={**server_env(database_url), "PATH": "/usr/bin:/bin"},
        stdout=errlog,
        stderr=errlog,
    )
    try:

        def listening() -> bool:
            assert proc.poll() is None, "the HTTP server exited"
            with socket.socket() as sock:
                return sock.connect_ex(("127.0.0.1", port)) == 0

        until(listening, 60, "the HTTP server to listen")
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_streamable_http_transport(db: TestDatabase, tmp_path: Path) -> None:
    port = free_port()
    errlog = tmp_path / "stderr.log"
    with errlog.open("w", encoding="utf-8") as err, http_server(db.url_as("service"), port, err):
        with session(f"http://127.0.0.1:{port}/mcp") as s:
            assert len(s.tools()) == 30
            doc = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
            assert doc["values"]["overdue_total"]["text"] == "43.805,00 €"
    log = errlog.read_text(encoding="utf-8")
    assert "Traceback" not in log and "connection pool closed" in log

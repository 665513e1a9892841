"""MCP results that fit an agent's context, figures by reference, and the submit -> fix -> resubmit loop.

The real server in a subprocess and the SDK client, over stdio (the default cap, 16 KB) and over streamable HTTP
(a cap set with ``--max-result``). A cut result is compared with the whole one the call log keeps.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import CallToolResult, TextResourceContents

from footnote_pg.mcpserver import Config
from footnote_pg.mcpserver.fitting import DEFAULT_MAX_RESULT, RESULT_TEMPLATE, wire_size
from footnote_pg.results import Operation
from tests.conftest import TestDatabase
from tests.test_mcp import (
    REPO,
    Session,
    example_arguments,
    free_port,
    links,
    server_env,
    session,
    stdio_server,
    structured,
    text,
    until,
)

pytestmark = pytest.mark.timeout(240)

HTTP_CAP = 8_192
QUESTION = "How much does Bergmann Logistik owe?"
GOOD = "Bergmann Logistik owes [[2]] overdue across [[3]] invoices; the oldest is [[4]] past due (as of [[5]])."


@contextmanager
def http_server(database_url: str, port: int, cap: int, errlog: Path) -> Iterator[Session]:
    with errlog.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "footnote_pg.mcp_server", "--http", "--port", str(port), "--max-result", str(cap)],
            cwd=REPO, env={**server_env(database_url), "PATH": "/usr/bin:/bin"}, stdout=err, stderr=err)
        try:
            def listening() -> bool:
                assert proc.poll() is None, errlog.read_text(encoding="utf-8")
                import socket

                with socket.socket() as sock:
                    return sock.connect_ex(("127.0.0.1", port)) == 0

            until(listening, 60, "the HTTP server to listen")
            with session(f"http://127.0.0.1:{port}/mcp", errlog) as s:
                yield s
        finally:
            proc.terminate()
            proc.wait(timeout=20)


@pytest.fixture(scope="module", params=["stdio", "http"])
def agent(request: pytest.FixtureRequest, module_db: TestDatabase,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Session, int]]:
    errlog = tmp_path_factory.mktemp(f"mcp-{request.param}") / "stderr.log"
    if request.param == "stdio":
        with stdio_server(module_db.url_as("service"), errlog) as s:
            yield s, DEFAULT_MAX_RESULT
    else:
        with http_server(module_db.url_as("service"), free_port(), HTTP_CAP, errlog) as s:
            yield s, HTTP_CAP
    assert "Traceback" not in errlog.read_text(encoding="utf-8"), errlog.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def operations(module_db: TestDatabase) -> list[Operation]:
    ops: list[Operation] = module_db.client("service").catalog()
    return ops


def read_text(s: Session, uri: str) -> str:
    contents = s.portal.call(s.client.read_resource, uri).contents[0]
    assert isinstance(contents, TextResourceContents) and contents.mime_type == "application/json"
    return contents.text


def whole_result(db: TestDatabase, call_id: str) -> dict[str, Any]:
    doc: dict[str, Any] = db.scalar("SELECT result FROM footnote.call_log WHERE call_id = %s", (call_id,))
    return doc


def at(doc: Any, path: str) -> Any:
    for step in path.split("."):
        doc = doc[int(step)] if isinstance(doc, list) else doc[step]
    return doc


def every_item(s: Session, uri: str | None, cap: int) -> list[Any]:
    """Every item of a cut list, following each page's ``next``; each page within the cap."""
    items: list[Any] = []
    start: int | None = None
    while uri:
        page_text = read_text(s, uri)
        assert len(page_text.encode("utf-8")) <= cap, uri
        page = json.loads(page_text)
        start = page["offset"] if start is None else start
        assert page["items"] and page["offset"] == start + len(items)
        items += page["items"]
        uri = page["next"]
    return items


def fits(result: CallToolResult, cap: int) -> None:
    assert wire_size(result) <= cap, (wire_size(result), cap)


# -- descriptions ---------------------------------------------------------------------------------------------------


def test_every_description_and_the_instructions_state_the_cap_and_how_to_page(agent: tuple[Session, int]) -> None:
    s, cap = agent
    tools = s.tools()
    assert len(tools) == 30
    for tool in tools.values():
        assert tool.description and f"at most {cap:,} bytes" in tool.description, tool.name
        assert RESULT_TEMPLATE in tool.description and "structuredContent.omitted" in tool.description
    instructions = s.instructions()
    assert f"at most {cap:,} bytes" in instructions and RESULT_TEMPLATE in instructions
    assert "[[n]]" in instructions and "[[values.overdue_total]]" in instructions
    submit = tools["submit_answer"].description or ""
    assert "Good: " in submit and "Bad: " in submit and "[[n]]" in submit
    assert "submit it again with the same call_ids" in submit  # until one is verified
    templates = [t.uri_template for t in s.portal.call(s.client.list_resource_templates).resource_templates]
    assert RESULT_TEMPLATE in templates


# -- results within the cap -----------------------------------------------------------------------------------------


def test_ar_aging_fits_the_cap_and_its_pages_reach_every_row(agent: tuple[Session, int],
                                                              module_db: TestDatabase) -> None:
    s, cap = agent
    result = s.call("ar_aging", {})
    fits(result, cap)
    doc = structured(result)
    whole = whole_result(module_db, doc["call_id"])
    assert len(whole["evidence"]) == 329 and len(json.dumps(whole)) > 10 * cap  # what did not fit before
    # the figures and the statement text are whole and exact
    assert {k: v["text"] for k, v in doc["values"].items()} == {k: v["text"] for k, v in whole["values"].items()}
    assert doc["rows"] and [{k: v["text"] for k, v in r.items()} for r in doc["rows"]] == [
        {k: v["text"] for k, v in r.items()} for r in whole["rows"][:len(doc["rows"])]]
    if cap == DEFAULT_MAX_RESULT:
        assert len(doc["rows"]) == len(whole["rows"]) == 5  # every aging bucket fits the default cap
    for value in whole["values"].values():
        assert value["text"] in text(result)
    assert "Cut to fit" in text(result) and "footnote://result/" in text(result)
    assert len(links(result)) == len(doc["evidence"]) < 329
    assert [link.name for link in links(result)] == [e["id"] for e in doc["evidence"]]
    omitted = {o["path"]: o for o in doc["omitted"]}
    assert omitted["evidence"]["total"] == 329 and omitted["evidence"]["shown"] == len(doc["evidence"])
    assert "values.invoice_count.evidence" in omitted
    # every list cut, paged to its end, is the whole result's list
    for path, o in omitted.items():
        items = every_item(s, o.get("next") or f"footnote://result/{doc['call_id']}/{path}/{o['shown']}", cap)
        expected = at(whole, path)
        if o.get("next", "").endswith("/0"):  # the records the figures cite came first: the pages give them all
            assert items == expected, path
        else:
            assert len(at(doc, path)) == o["shown"] and items == expected[o["shown"]:], path


def test_every_tool_result_fits_the_cap(agent: tuple[Session, int], operations: list[Operation],
                                       module_db: TestDatabase) -> None:
    s, cap = agent
    cut = 0
    for op in operations:
        result = s.call(op.name, example_arguments(op, s))
        fits(result, cap)
        doc = structured(result)
        cut += bool(doc.get("omitted"))
    for question in ("Show AR aging", "List customers", "Top 5 customers last quarter", QUESTION):
        result = s.call("answer", {"question": question})
        fits(result, cap)
        assert structured(result)["status"] == "verified", question
    fits(s.call("verify_chain"), cap)
    aging = structured(s.call("ar_aging", {}))
    mine = "Accounts receivable as of [[1]]: [[2]] open across [[3]] invoices."
    submitted = s.call("submit_answer", {"question": "Show AR aging", "answer": mine, "call_ids": [aging["call_id"]]})
    fits(submitted, cap)
    doc = structured(submitted)
    assert doc["omitted"] and doc["answer"].startswith("Accounts receivable as of 14.08.2026: 2.812.279,42 € open")
    assert doc["fallback"]["answer"].startswith("Accounts receivable as of 14.08.2026")  # the statement is whole
    assert cut >= 2  # the cap is not a formality with the sample ERP
    answer = s.call("answer", {"question": "Show AR aging"})
    doc = structured(answer)
    assert answer.meta is not None and doc["omitted"]
    evidence = next(o for o in doc["omitted"] if o["path"] == "evidence")
    assert f"footnote://result/{answer.meta['record_id']}/evidence/" in evidence["next"]
    rest = every_item(s, evidence["next"], cap)
    whole = evidence["total"] if evidence["next"].endswith("/0") else evidence["total"] - evidence["shown"]
    assert len(rest) == whole


def test_a_long_submission_fits_and_names_every_sentence_in_its_pages(agent: tuple[Session, int]) -> None:
    s, cap = agent
    call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    mine = GOOD + "".join(f" Line {n} will surely be paid." for n in range(400))
    result = s.call("submit_answer", {"question": QUESTION, "answer": mine, "call_ids": [call["call_id"]]})
    fits(result, cap)
    doc = structured(result)
    assert doc["status"] == "insufficient_evidence" and "Cut to fit" in text(result)
    assert result.meta is not None
    cut = {o["path"]: o for o in doc["omitted"]}["sentences"]
    sentences = doc["sentences"] + every_item(s, cut["next"], cap)
    assert len(sentences) == cut["total"] > 400 and sentences[-1]["text"] == "Line 399 will surely be paid."


def test_a_supplier_fact_keeps_the_records_its_figures_cite(agent: tuple[Session, int]) -> None:
    s, cap = agent
    called = s.call("supplier_payment_facts", {"supplier": "Northwind Supply"})
    facts = structured(called)
    assert facts["omitted"]  # too large for either cap: its payments are many
    pending = next(line for line in text(called).splitlines() if line.startswith("pending_account_ending: "))
    assert "UNVERIFIED" in pending and "[bank_change_request:" in pending  # what record_decision must cite
    if cap == DEFAULT_MAX_RESULT:
        cited = {e for v in facts["values"].values() for e in v["evidence"]}
        assert cited <= {e["id"] for e in facts["evidence"]}
        assert any(e["type"] == "bank_change_request" and not e["verified"] for e in facts["evidence"])


def test_a_page_of_an_unknown_result_or_list_is_one_clear_error(agent: tuple[Session, int]) -> None:
    s, _ = agent
    with pytest.raises(MCPError, match="no cut result .* is held by this server"):
        read_text(s, "footnote://result/00000000-0000-4000-8000-000000000000/evidence/0")
    cut = structured(s.call("ar_aging", {}))
    with pytest.raises(MCPError, match="invalid argument part: 'nothing' is not a list"):
        read_text(s, f"footnote://result/{cut['call_id']}/nothing/0")
    with pytest.raises(MCPError, match="invalid argument offset"):
        read_text(s, f"footnote://result/{cut['call_id']}/evidence/x")


# -- figures by reference -------------------------------------------------------------------------------------------


def test_a_submission_with_references_is_verified_and_recorded_with_the_figures(
    agent: tuple[Session, int], module_db: TestDatabase
) -> None:
    s, cap = agent
    call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    v = call["values"]
    result = s.call("submit_answer", {"question": QUESTION, "answer": GOOD, "call_ids": [call["call_id"]]})
    fits(result, cap)
    doc = structured(result)
    written = (f"Bergmann Logistik owes {v['overdue_total']['text']} overdue across {v['invoice_count']['text']} "
               f"invoices; the oldest is {v['oldest_days_past_due']['text']} past due (as of {v['as_of']['text']}).")
    assert doc["status"] == "verified" and doc["rendered"] is True and doc["answer"] == written
    assert written in text(result)
    footnotes = {c["footnote"]: c["text"] for c in structured(s.call("answer", {"question": QUESTION}))["claims"]}
    assert re.sub(r"\[\[(\d+)\]\]", lambda m: footnotes[int(m.group(1))], GOOD) == written  # answer's numbering
    assert module_db.rows("SELECT answer, status FROM footnote.ledger WHERE seq = %s", (doc["ledger"]["seq"],)) == [
        (written, "verified")]
    # a figure by its name in the call, and by call_id:name
    call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    named = GOOD.replace("[[2]]", "[[values.overdue_total]]").replace("[[5]]", f"[[{call['call_id']}:values.as_of]]")
    doc = structured(s.call("submit_answer", {"question": QUESTION, "answer": named, "call_ids": [call["call_id"]]}))
    assert doc["status"] == "verified" and doc["answer"] == written


def test_an_unknown_reference_is_one_error_naming_it(agent: tuple[Session, int], module_db: TestDatabase) -> None:
    s, _ = agent
    call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    before = module_db.scalar("SELECT count(*) FROM footnote.ledger")
    for ref in ("[[99]]", "[[values.no_such_figure]]", "[[rows[9].outstanding]]"):
        result = s.call("submit_answer", {"question": QUESTION, "answer": f"Bergmann Logistik owes {ref}.",
                                          "call_ids": [call["call_id"]]})
        assert result.is_error and "\n" not in text(result)
        assert text(result).startswith(f"invalid argument answer: unknown reference {ref}"), text(result)
        assert "[[1]] to [[21]]" in text(result) and "values.overdue_total" in text(result)
        assert result.meta is not None and result.meta["code"] == "FN001"
    assert module_db.scalar("SELECT count(*) FROM footnote.ledger") == before  # nothing recorded


def test_the_good_and_the_bad_example_of_the_description_are_what_the_gate_decides(agent: tuple[Session, int]) -> None:
    s, _ = agent
    description = s.tools()["submit_answer"].description or ""
    good = re.search(r'Good: "(.+?)"', description)
    bad = re.search(r'Bad: "(.+?)"', description)
    assert good and bad and good.group(1) == GOOD
    for example, verified in ((good.group(1), True), (bad.group(1), False)):
        call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
        doc = structured(s.call("submit_answer", {"question": QUESTION, "answer": example,
                                                  "call_ids": [call["call_id"]]}))
        assert (doc["status"] == "verified") is verified, (example, doc["findings"])


# -- submit -> fix -> resubmit --------------------------------------------------------------------------------------


def test_a_refused_submission_names_the_sentence_and_words_and_the_fixed_one_on_the_same_calls_is_verified(
    agent: tuple[Session, int]
) -> None:
    """submit -> fix -> resubmit on the same calls: the ledger links the attempts; once one is verified the calls
    back nothing more."""
    s, _ = agent
    call = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    first = s.call("submit_answer", {"question": QUESTION, "call_ids": [call["call_id"]],
                                     "answer": GOOD + " They will definitely pay next week."})
    doc = structured(first)
    assert doc["status"] == "insufficient_evidence"
    failed = next(line for line in text(first).splitlines() if line.endswith("They will definitely pay next week."))
    assert failed.startswith("- sentence ") and " unverified: " in failed
    reasons = text(first).split(failed, 1)[1].splitlines()[1]
    assert reasons.startswith("  failed: ") and "“definitely”" in reasons and "“next”" in reasons
    assert "submit the fixed text again with the same call_ids" in text(first)
    assert "Do not show this text" in text(first)
    fixed = structured(s.call("submit_answer", {"question": QUESTION, "answer": GOOD,
                                                "call_ids": [call["call_id"]]}))
    assert fixed["status"] == "verified"
    third = s.call("submit_answer", {"question": QUESTION, "answer": GOOD, "call_ids": [call["call_id"]]})
    assert third.is_error and "already backs an accepted ledger record" in text(third)


# -- the setting ----------------------------------------------------------------------------------------------------


def test_the_cap_is_a_setting_of_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FOOTNOTE_MCP_MAX_RESULT", raising=False)
    assert Config(None, None, None).max_result == DEFAULT_MAX_RESULT == 16_384
    monkeypatch.setenv("FOOTNOTE_MCP_MAX_RESULT", "65536")
    assert Config(None, None, None).max_result == Config.from_env().max_result == 65_536  # footnote-pg mcp and serve


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["--max-result", "10"], {}, "invalid argument --max-result: must be at least 4,096 bytes (not 10)"),
    (["--max-result", "lots"], {}, "invalid argument --max-result: 'lots' is not a number of bytes"),
    ([], {"FOOTNOTE_MCP_MAX_RESULT": "-1"}, "invalid argument FOOTNOTE_MCP_MAX_RESULT: '-1' is not a number of bytes"),
])
def test_a_bad_cap_is_one_line_and_exit_2(args: list[str], env: dict[str, str], expected: str) -> None:
    done = subprocess.run([sys.executable, "-m", "footnote_pg.mcp_server", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgresql://x@/y",
                                                      **env})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith(expected) and len(done.stderr.strip().splitlines()) == 1, done.stderr

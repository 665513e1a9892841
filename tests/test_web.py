"""The web demo's HTTP API, against real PostgreSQL, without a browser.

Each test starts ``footnote_pg.web.serve`` in a thread on a free port against a
fresh database (superuser URL, as ``footnote-pg demo`` runs it) and talks to it
with urllib.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

import pytest

from footnote_pg import InvalidArgument
from footnote_pg.web import SUGGESTIONS, model_rewrite, serve
from footnote_pg.web.model import map_span, rewrite_figure
from tests.conftest import TestDatabase

BERGMANN_INVOICES = ["invoice:8812", "invoice:8834", "invoice:8901", "invoice:8977"]


@dataclass
class Demo:
    """A running demo server: its base URL and how to stop it."""

    url: str
    stop: threading.Event
    thread: threading.Thread
    errors: list[BaseException] = field(default_factory=list)

    def request(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        req = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, exc.headers, exc.read()

    def json(self, method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        status, headers, payload = self.request(method, path, body, **kw)
        assert headers["Content-Type"] == "application/json; charset=utf-8", (path, headers)
        return status, json.loads(payload)

    def ask(self, question: str) -> dict[str, Any]:
        status, doc = self.json("POST", "/api/ask", {"question": question})
        assert status == 200, doc
        assert isinstance(doc, dict)
        return doc


def start_demo(url: str) -> Demo:
    ready = threading.Event()
    stop = threading.Event()
    box: dict[str, str] = {}
    errors: list[BaseException] = []

    def on_ready(u: str) -> None:
        box["url"] = u
        ready.set()

    def run() -> None:
        try:
            serve(url, port=0, ready=on_ready, stop=stop)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
            ready.set()

    thread = threading.Thread(target=run, name="demo-under-test", daemon=True)
    thread.start()
    assert ready.wait(30), "the demo server did not start"
    assert not errors, errors
    return Demo(box["url"], stop, thread, errors)


def stop_demo(demo: Demo) -> None:
    demo.stop.set()
    demo.thread.join(timeout=15)
    assert not demo.thread.is_alive(), "serve() did not return after stop"
    assert not demo.errors, demo.errors


def other_connections(db: TestDatabase, *, settle: bool = True) -> int:
    """Sessions on the test database besides ours (a closed client's backend may take a moment to exit)."""
    deadline = time.monotonic() + (5 if settle else 0)
    while True:
        n = int(db.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND pid <> pg_backend_pid()"))
        if n == 0 or time.monotonic() > deadline:
            return n
        time.sleep(0.05)


@pytest.fixture
def demo(db: TestDatabase) -> Iterator[Demo]:
    d = start_demo(db.url)
    try:
        yield d
    finally:
        stop_demo(d)


def claim(doc: dict[str, Any], text: str) -> dict[str, Any]:
    (found,) = [c for c in doc["claims"] if c["text"] == text]
    assert isinstance(found, dict)
    return found


def assert_spans(doc: dict[str, Any]) -> None:
    for c in doc["claims"]:
        assert doc["answer"][c["span"]["start"]:c["span"]["end"]] == c["text"], c


# -- the page --------------------------------------------------------------------------------------------------

def test_the_page_and_its_files_are_served_with_types_and_a_strict_policy(demo: Demo) -> None:
    for path, ctype in [("/", "text/html; charset=utf-8"), ("/static/app.js", "text/javascript; charset=utf-8"),
                        ("/static/app.css", "text/css; charset=utf-8")]:
        status, headers, body = demo.request("GET", path)
        assert status == 200 and headers["Content-Type"] == ctype, (path, headers)
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "unsafe" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        # no external requests: nothing that points off the origin
        text = body.decode()
        assert not re.search(r"(?:src|href)\s*=\s*[\"'](?:https?:)?//", text), path
        assert not re.search(r"@import|url\(\s*[\"']?(?:https?:)?//|fetch\(\s*[\"']https?:", text), path
    html = demo.request("GET", "/")[2].decode()
    assert 'src="/static/app.js"' in html and 'href="/static/app.css"' in html
    assert "<script>" not in html and "style=" not in html  # nothing inline: the policy would block it
    assert 'aria-live="polite"' in html and '<label for="question"' in html


def test_suggestions_are_the_five_demo_questions(demo: Demo) -> None:
    status, doc = demo.json("GET", "/api/suggestions")
    assert status == 200
    assert doc["suggestions"] == SUGGESTIONS == [
        "How much does Bergmann owe?", "Is Bergmann Logistik at risk?", "Show AR aging",
        "How much does Acme Corporation owe?", "What will revenue be next quarter?"]


# -- /api/ask --------------------------------------------------------------------------------------------------

def test_bergmann_logistik_is_answered_with_the_four_invoices_behind_the_amount(demo: Demo) -> None:
    doc = demo.ask("How much does Bergmann Logistik owe?")
    assert doc["status"] == "verified" and doc["kind"] == "figure"
    assert_spans(doc)
    total = claim(doc, "43.805,00 €")
    assert total["verdict"] == "grounded" and total["evidence"] == BERGMANN_INVOICES
    evidence = {e["id"]: e for e in doc["evidence"]}
    assert set(BERGMANN_INVOICES) <= set(evidence)
    assert evidence["invoice:8812"]["uri"] == "erp://invoice/8812"
    assert evidence["invoice:8812"]["fields"]["number"] == "INV-2026-8812"
    assert [evidence[i]["fields"]["number"] for i in BERGMANN_INVOICES] == [
        "INV-2026-8812", "INV-2026-8834", "INV-2026-8901", "INV-2026-8977"]
    assert [c["evidence"] for c in doc["claims"] if c["text"] == "104 days"] == [["invoice:8812"]] * 2
    ledger = doc["ledger"]
    assert ledger["seq"] >= 1 and re.fullmatch(r"[0-9a-f]{64}", ledger["hash"])


def test_the_model_version_is_rejected_figure_by_figure_and_not_recorded(demo: Demo, db: TestDatabase) -> None:
    before = db.scalar("SELECT count(*) FROM footnote.ledger")
    doc = demo.ask("How much does Bergmann Logistik owe?")
    assert db.scalar("SELECT count(*) FROM footnote.ledger") == before + 1  # the answer, not the model's version
    model = doc["model_version"]
    assert model["status"] == "insufficient_evidence" and model["recorded"] is False
    assert_spans(model)
    assert "43.805,00 €" not in model["answer"] and "104 days" not in model["answer"]
    assert model["answer"].startswith("Bergmann Logistik GmbH owes 45.380,00 € overdue across 5 invoices")
    changed = [c for c in model["claims"] if c["changed"]]
    assert model["changed"] == len(changed) >= 10
    for c in model["claims"]:
        if c["changed"]:  # every altered figure is caught
            assert c["verdict"] != "grounded" and c["reason"] == "value_mismatch", c
            assert c["text"] != c["original"]
        else:  # names and invoice numbers the model copied stay grounded
            assert c["verdict"] == "grounded" and c["text"] == c["original"], c
    total = next(c for c in model["claims"] if c["original"] == "43.805,00 €")
    assert total["text"] == "45.380,00 €" and total["evidence"] == BERGMANN_INVOICES
    assert total["call_id"] == doc["calls"][0]["call_id"]  # shown against the answer's call
    codes = {f["code"] for f in model["findings"]}
    assert {"value_mismatch", "unsupported_digits"} <= codes
    flagged = {p["position"] for f in model["findings"] if f["code"] == "unsupported_digits" for p in f["positions"]}
    for c in changed:  # every digit of every changed figure is reported as unsupported
        span = range(c["span"]["start"], c["span"]["end"])
        assert {i for i in span if model["answer"][i].isdigit()} <= flagged


def test_an_interpretation_keeps_its_inference_and_facts_in_both_versions(demo: Demo) -> None:
    doc = demo.ask("Is Bergmann Logistik at risk?")
    assert doc["status"] == "verified" and doc["kind"] == "interpretation"
    inference = doc["answer"][doc["inference"]["start"]:doc["inference"]["end"]]
    assert inference == "Bergmann Logistik GmbH is at high risk of not paying on time."
    facts = [doc["answer"][f["start"]:f["end"]] for f in doc["facts"]]
    assert facts[0].startswith("43.805,00 € is overdue across 4 invoices")
    model = doc["model_version"]
    assert model["status"] == "insufficient_evidence"
    assert model["answer"][model["inference"]["start"]:model["inference"]["end"]] == inference
    model_facts = [model["answer"][f["start"]:f["end"]] for f in model["facts"]]
    assert len(model_facts) == len(facts) and model_facts[0].startswith("45.380,00 € is overdue across 5 invoices")
    assert model_facts[2].endswith("the account owner is Ana Kovač.")


def test_the_clarification_has_two_options_and_each_can_be_asked(demo: Demo) -> None:
    doc = demo.ask("How much does Bergmann owe?")
    assert doc["status"] == "ambiguous" and doc["kind"] == "clarification"
    assert doc["options"] == ["How much does Bergmann Bau AG owe?", "How much does Bergmann Logistik GmbH owe?"]
    assert doc["claims"] == [] and doc["model_version"] is None and doc["ledger"]["seq"] >= 1
    chosen = demo.ask(doc["options"][1])
    assert chosen["status"] == "verified" and claim(chosen, "43.805,00 €")["evidence"] == BERGMANN_INVOICES


def test_acme_is_refused_with_the_closest_real_names(demo: Demo) -> None:
    doc = demo.ask("How much does Acme Corporation owe?")
    assert doc["status"] == "refused" and doc["reason"] == "unknown_entity"
    assert doc["claims"] == [] and doc["model_version"] is None
    assert "There is no customer named “Acme Corporation”" in doc["answer"]
    assert "No customer name is close to it; ask “List customers” to see the real ones." in doc["answer"]
    assert doc["ledger"]["seq"] >= 1


def test_a_forecast_is_refused(demo: Demo) -> None:
    doc = demo.ask("What will revenue be next quarter?")
    assert doc["status"] == "refused" and doc["reason"] == "forecast" and doc["model_version"] is None
    assert not any(ch.isdigit() for ch in doc["answer"])


def test_ar_aging_is_verified_and_its_model_version_is_not(demo: Demo) -> None:
    doc = demo.ask("Show AR aging")
    assert doc["status"] == "verified" and len(doc["facts"]) == 6  # one more since due lines are counted (0039_figures)
    assert_spans(doc)
    assert doc["model_version"]["status"] == "insufficient_evidence"
    for c in doc["model_version"]["claims"]:  # bucket labels are copied, figures changed
        assert (c["verdict"] == "grounded") == (not c["changed"]), c


def test_concurrent_questions_each_get_their_own_record(demo: Demo) -> None:
    questions = [SUGGESTIONS[i % len(SUGGESTIONS)] for i in range(10)]
    results: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def one(q: str) -> None:
        try:
            results.append(demo.ask(q))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(q,)) for q in questions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 10
    assert sorted(r["ledger"]["seq"] for r in results) == list(range(1, 11))
    status, doc = demo.json("GET", "/api/ledger")
    assert status == 200 and doc["chain"]["ok"] is True and doc["chain"]["records"] == 10


# -- /api/record -----------------------------------------------------------------------------------------------

def test_a_deep_link_opens_its_source_record(demo: Demo) -> None:
    status, doc = demo.json("GET", "/api/record?uri=erp://invoice/8812")
    assert status == 200
    assert doc["uri"] == "erp://invoice/8812" and doc["type"] == "invoice" and doc["record_id"] == "8812"
    assert doc["fields"]["number"] == "INV-2026-8812" and doc["fields"]["due_date"] == "2026-05-02"
    assert doc["fields"]["gross"] == "24450.00"
    status, doc = demo.json("GET", "/api/record?uri=erp%3A%2F%2Fcustomer%2F4471")
    assert status == 200 and doc["fields"]["name"] == "Bergmann Logistik GmbH"


# -- /api/evidence ---------------------------------------------------------------------------------------------

def test_an_evidence_set_is_paged_from_the_answer_it_backs(demo: Demo, db: TestDatabase) -> None:
    db.scalar("UPDATE footnote.settings SET value = '12' WHERE key = 'max_evidence_rows' RETURNING 1")
    doc = demo.ask("Show AR aging")
    assert doc["status"] == "verified"
    total = next(c for c in doc["claims"] if c["text"] == "321")  # the headline's (instalments repeat it)
    # the invoices' set backs the count of open invoices (the due lines' set backs the count of due lines)
    (the_set,) = [e for e in doc["evidence"] if e["type"] == "evidence_set" and e["id"] in total["evidence"]]
    assert total["evidence"] == [the_set["id"]]
    rows: list[dict[str, Any]] = []
    while True:
        status, page = demo.json("GET", f"/api/evidence?call_id={total['call_id']}&set={the_set['id']}"
                                        f"&offset={len(rows)}")
        assert status == 200, page
        if not page["rows"]:
            break
        rows += page["rows"]
    assert [r["n"] for r in rows] == list(range(1, 322)) and int(the_set["fields"]["rows"]) == 321
    assert rows[0]["uri"].startswith("erp://invoice/") and "outstanding" in rows[0]["fields"]
    for query, fragment in [(f"call_id={total['call_id']}&set=evidence_set:1", "cites no evidence set"),
                            (f"call_id={total['call_id']}&set=invoice:8812", "invalid parameter set"),
                            (f"set={the_set['id']}", "invalid parameter call_id"),
                            (f"call_id=x&set={the_set['id']}", "is not a call id"),
                            (f"call_id={total['call_id']}&set={the_set['id']}&offset=-1", "invalid parameter offset")]:
        status, err = demo.json("GET", "/api/evidence?" + query)
        assert status == 400 and fragment in err["error"], (query, err)


# -- /api/ledger -----------------------------------------------------------------------------------------------

def test_the_ledger_lists_the_records_and_the_chain_is_intact(demo: Demo) -> None:
    asked = [demo.ask(q) for q in SUGGESTIONS]
    status, doc = demo.json("GET", "/api/ledger?limit=20")
    assert status == 200
    chain = doc["chain"]
    assert chain["ok"] is True and chain["records"] == 5 and chain["first_bad_seq"] is None
    assert chain["first_bad"] is None and chain["head_seq"] == asked[-1]["ledger"]["seq"]
    records = doc["records"]
    assert [r["seq"] for r in records] == [5, 4, 3, 2, 1]
    assert [r["question"] for r in records] == list(reversed(SUGGESTIONS))
    assert [r["status"] for r in records] == ["refused", "refused", "verified", "verified", "ambiguous"]
    for r, a in zip(records, reversed(asked), strict=True):
        assert r["actor"] == "demo" and r["actor_role"] == "viewer" and r["kind"] == "answer"
        assert r["hash"] == a["ledger"]["hash"][:16] and r["hash_full"] == a["ledger"]["hash"]
        assert r["recorded_at"]
    status, doc = demo.json("GET", "/api/ledger?limit=2")
    assert status == 200 and [r["seq"] for r in doc["records"]] == [5, 4]
    # the page shows every number and date of a screen in the answers' locale: it is told which
    assert doc["locale"] == "de-DE" and {a["locale"] for a in asked} == {"de-DE"}


def test_the_ledger_names_the_first_bad_record_after_tampering(demo: Demo, db: TestDatabase) -> None:
    for q in SUGGESTIONS[:3]:
        demo.ask(q)
    with db.connect() as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE footnote.ledger SET answer = 'Bergmann owes nothing.' WHERE seq = 2")
    status, doc = demo.json("GET", "/api/ledger")
    assert status == 200
    chain = doc["chain"]
    assert chain["ok"] is False and chain["first_bad_seq"] == 2 and chain["problem"] == "content_changed"
    assert chain["first_bad"]["seq"] == 2 and chain["first_bad"]["question"] == SUGGESTIONS[1]


def test_without_auditor_rights_the_ledger_says_how_to_see_it(db: TestDatabase) -> None:
    d = start_demo(db.url_as("service"))
    try:
        assert d.ask("How much does Bergmann Logistik owe?")["status"] == "verified"
        status, doc = d.json("GET", "/api/ledger")
        assert status == 403
        assert doc["error"] == "connect as a member of footnote_auditor to see the ledger"
        assert doc["chain"]["ok"] is True  # verify_chain() itself is open to the service
    finally:
        stop_demo(d)


# -- errors ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "kwargs", "status", "fragment"), [
    ("POST", "/api/ask", {"raw": b"question=hi", "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
     415, "application/json"),
    ("POST", "/api/ask", {"raw": b"{not json"}, 400, "not valid JSON"),
    ("POST", "/api/ask", {"raw": b"\xff\xfe"}, 400, "not valid JSON"),
    ("POST", "/api/ask", {"body": ["How much?"]}, 400, "question"),
    ("POST", "/api/ask", {"body": {"q": "How much?"}}, 400, "question"),
    ("POST", "/api/ask", {"body": {"question": ""}}, 400, "question: must not be empty"),
    ("POST", "/api/ask", {"body": {"question": "   "}}, 400, "question: must not be empty"),
    ("POST", "/api/ask", {"body": {"question": 42}}, 400, "question: must be a string, not number"),
    ("POST", "/api/ask", {"body": {"question": "x" * 2001}}, 400, "at most 2,000 characters"),
    ("POST", "/api/ask", {"body": {"question": "Bergmann\x00"}}, 400, "NUL"),
    ("POST", "/api/ask", {"body": {"question": "x" * 20000}}, 413, "larger than"),
    ("POST", "/api/ask", {"body": {"question": "hi"}, "headers": {"Origin": "http://evil.example"}}, 403,
     "cross-origin"),
    ("GET", "/api/ask", {}, 405, "not allowed"),
    ("PUT", "/api/ledger", {}, 405, "not allowed"),
    ("DELETE", "/api/ask", {}, 405, "not allowed"),
    ("GET", "/api/nothing", {}, 404, "not found"),
    ("GET", "/static/../server.py", {}, 404, "not found"),
    ("GET", "/static/model.py", {}, 404, "not found"),
    ("GET", "/api/record", {}, 400, "?uri="),
    ("GET", "/api/record?uri=erp://salary/1", {}, 400, "is not a deep link"),
    ("GET", "/api/record?uri=erp://invoice/1", {}, 404, "unknown invoice 1"),
    ("GET", "/api/record?uri=" + "x" * 300, {}, 400, "uri"),
    ("GET", "/api/ledger?limit=abc", {}, 400, "limit"),
    ("GET", "/api/ledger?limit=0", {}, 400, "limit"),
    ("GET", "/api/ledger?limit=100000", {}, 400, "limit"),
    ("GET", "/api/suggestions", {"headers": {"Host": "attacker.example:4711"}}, 403, "Host"),
])
def test_bad_requests_get_a_json_error_and_no_traceback(demo: Demo, method: str, path: str, kwargs: dict[str, Any],
                                                       status: int, fragment: str) -> None:
    got, headers, body = demo.request(method, path, **kwargs)
    assert got == status, body
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    doc = json.loads(body)
    assert set(doc) >= {"error"} and fragment in doc["error"], doc
    assert "Traceback" not in body.decode() and "File \"" not in body.decode()


def test_the_demo_binds_to_loopback_only(db: TestDatabase) -> None:
    with pytest.raises(InvalidArgument, match="loopback"):
        serve(db.url, host="0.0.0.0", port=0)
    assert other_connections(db) == 0


# -- shutting down ---------------------------------------------------------------------------------------------

def test_the_server_stops_cleanly_and_closes_its_pool(db: TestDatabase) -> None:
    d = start_demo(db.url)
    d.ask("Show AR aging")
    assert other_connections(db, settle=False) >= 1
    port = int(d.url.rsplit(":", 1)[1].strip("/"))
    stop_demo(d)
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    assert other_connections(db) == 0


def test_ctrl_c_returns_from_serve_after_closing_everything(db: TestDatabase) -> None:
    seen: list[int] = []

    def ready(url: str) -> None:
        with urllib.request.urlopen(url + "api/suggestions", timeout=10) as resp:
            seen.append(resp.status)
        raise KeyboardInterrupt  # what Ctrl-C raises in the main thread while serve() waits

    serve(db.url, port=0, ready=ready)  # returns, does not raise
    assert seen == [200]
    assert other_connections(db) == 0


# -- the simulated model, without a database -------------------------------------------------------------------

@pytest.mark.parametrize(("figure", "written"), [
    ("43.805,00 €", "45.380,00 €"), ("€43,805.00", "€45,380.00"), ("18.450,00 €", "10.845,00 €"),
    ("104 days", "96 days"), ("1 day", "2 days"), ("4", "5"), ("320", "295"), ("2.400", "2.215"),
    ("12,3 %", "13,2 %"), ("12.3%", "13.2%"), ("14.08.2026", "17.08.2026"), ("May 2, 2026", "May 5, 2026"),
    ("INV-2026-8812", None), ("1-30 days", None), ("over 90 days", None), ("2026-Q2", None),
    ("Bergmann Logistik GmbH", None), ("current", None),
])
def test_the_model_changes_figures_in_their_own_format(figure: str, written: str | None) -> None:
    assert rewrite_figure(figure) == written


def test_model_rewrite_moves_the_spans_and_keeps_calls_and_evidence() -> None:
    answer = "Acme owes 1.234,50 € across 3 invoices.\n- INV-1: 1.234,50 € due 02.05.2026"
    pieces: list[tuple[str, int, str]] = [
        ("Acme", 0, "customer:1"), ("1.234,50 €", 0, "invoice:1"), ("3", 21, "invoice:1"),
        ("INV-1", 0, "invoice:1"), ("1.234,50 €", 30, "invoice:1"), ("02.05.2026", 0, "invoice:1")]
    claims: list[dict[str, Any]] = []
    for text, after, evidence in pieces:
        start = answer.index(text, after)
        claims.append({"text": text, "span": {"start": start, "end": start + len(text)}, "call_id": "c1",
                       "evidence": [evidence]})
    assert all(answer[c["span"]["start"]:c["span"]["end"]] == c["text"] for c in claims)
    text, asserted = model_rewrite(answer, claims)
    assert text == "Acme owes 1.423,50 € across 4 invoices.\n- INV-1: 1.423,50 € due 05.05.2026"
    assert [c["text"] for c in asserted] == ["Acme", "1.423,50 €", "4", "INV-1", "1.423,50 €", "05.05.2026"]
    for old, new in zip(claims, asserted, strict=True):
        assert text[new["span"]["start"]:new["span"]["end"]] == new["text"]
        assert (new["call_id"], new["evidence"], new["origin"]) == (old["call_id"], old["evidence"], "structured")
    fact = {"start": answer.index("INV-1"), "end": len(answer)}
    moved = map_span(fact, answer, claims)
    assert moved is not None and text[moved["start"]:moved["end"]] == "INV-1: 1.423,50 € due 05.05.2026"


# -- footnote-pg serve: the page and MCP in one process ----------------------------------------------------------

def test_serve_offers_the_page_and_a_working_mcp_endpoint(db: TestDatabase) -> None:
    import os
    import signal
    import subprocess
    import sys

    from tests.test_mcp import session, structured, text

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "footnote_pg.cli", "serve", "--database-url", db.url,
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200", "PROVENANCE_ACTOR": "serve-agent:analyst"},
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        base = f"http://127.0.0.1:{port}/"
        assert f"the page at {base} and MCP at {base}mcp" in line, line + (proc.stderr.read() if proc.stderr else "")
        page = Demo(base, threading.Event(), threading.current_thread())
        status, headers, body = page.request("GET", "/")
        assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8" and b"app.js" in body
        assert page.ask("How much does Bergmann Logistik owe?")["status"] == "verified"
        with session(base + "mcp") as mcp:
            assert len(mcp.tools()) == 30
            doc = structured(mcp.call("customer_overdue", {"customer": "Bergmann Logistik"}))
            assert doc["values"]["overdue_total"]["text"] == "43.805,00 €"
            bad = mcp.call("answer", {"question": 123})
            assert bad.is_error and text(bad) == "invalid argument question: must be a string, not number"
        assert db.rows("SELECT actor_id, actor_role FROM footnote.call_log WHERE call_id = %s",
                       (doc["call_id"],)) == [("serve-agent", "analyst")]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out.rstrip().endswith("stopped") and "Traceback" not in err
    assert other_connections(db) == 0

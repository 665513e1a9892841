"""OpenTelemetry traces of the answer path (footnote_pg.tracing), recorded with the SDK's in-memory exporter: the
steps of a question as child spans, attributes that name what happened and never a figure or a name, and the trace
an incoming web request or MCP call carries continued."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from footnote_pg import tracing
from tests.conftest import TestDatabase
from tests.test_web import Demo, start_demo, stop_demo

_EXPORTER = InMemorySpanExporter()
_RECORDING: list[TracerProvider] = []  # the provider the exporter was added to


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """The process's tracer provider (set once: OpenTelemetry allows one), recording into memory."""
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    if provider not in _RECORDING:
        provider.add_span_processor(SimpleSpanProcessor(_EXPORTER))
        _RECORDING.append(provider)
    _EXPORTER.clear()
    yield _EXPORTER
    _EXPORTER.clear()


def ours(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("footnote.")]


def values(s: ReadableSpan) -> list[str]:
    return [str(v) for v in (s.attributes or {}).values()]


def test_a_question_is_one_span_with_a_child_per_step(db: TestDatabase, spans: InMemorySpanExporter) -> None:
    fn = db.client("service", actor="tracer")
    answer = fn.ask("How much does Bergmann Logistik owe?")
    assert answer.status == "verified" and answer.receipt is not None
    got = ours(spans)
    ask = next(s for s in got if s.name == "footnote.ask")
    assert ask.parent is None
    children = [s for s in got if s.parent is not None and s.parent.span_id == ask.context.span_id]
    assert [s.name for s in children] == ["footnote.route", "footnote.call", "footnote.compose", "footnote.gate",
                                          "footnote.seal", "footnote.receipt"]
    by = {s.name: s for s in children}
    assert by["footnote.call"].attributes["footnote.operation"] == "customer_overdue"
    assert by["footnote.call"].attributes["footnote.call_id"] == answer.calls[0]["call_id"]
    assert by["footnote.gate"].attributes["footnote.status"] == "verified"
    record_id = str(answer.receipt.record_id)
    assert by["footnote.gate"].attributes["footnote.record_id"] == record_id
    assert (ask.attributes["footnote.record_id"], ask.attributes["footnote.seq"], ask.attributes["footnote.status"]) \
        == (record_id, answer.receipt.seq, "verified")
    assert by["footnote.route"].attributes["footnote.intent"] == answer.intent
    # the seal span covers the COMMIT: it ends after the gate's and before the receipt starts
    assert by["footnote.gate"].end_time <= by["footnote.seal"].start_time
    assert by["footnote.seal"].end_time <= by["footnote.receipt"].start_time
    # what happened, never what the ERP holds: no figure, no name, no evidence value
    shown = " ".join(v for s in got for v in values(s))
    for secret in ("43.805", "Bergmann", "INV-2026", "8812", "18.450"):
        assert secret not in shown


def test_a_refusal_is_traced_without_calls(db: TestDatabase, spans: InMemorySpanExporter) -> None:
    db.client("service", actor="tracer").ask("What will revenue be next quarter?")
    names = [s.name for s in ours(spans)]
    assert "footnote.call" not in names and "footnote.compose" not in names
    ask = next(s for s in ours(spans) if s.name == "footnote.ask")
    assert (ask.attributes["footnote.route"], ask.attributes["footnote.status"]) == ("refusal", "refused")


def test_an_agents_call_and_answer_are_spans_of_their_own(db: TestDatabase, spans: InMemorySpanExporter) -> None:
    fn = db.client("service", actor="tracer")
    result = fn.call("customer_overdue", customer="Bergmann Logistik")
    text = fn.compose([result.call_id])["answer"]
    graded = fn.submit_answer("How much does Bergmann Logistik owe?", text, [result.call_id])
    got = {s.name: s for s in ours(spans)}
    assert got["footnote.call"].attributes["footnote.call_id"] == result.call_id
    assert got["footnote.gate"].attributes["footnote.status"] == graded["status"] == "verified"
    assert got["footnote.seal"].parent.span_id == got["footnote.gate"].context.span_id


TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def test_the_web_api_continues_the_trace_of_the_request(db: TestDatabase, spans: InMemorySpanExporter) -> None:
    demo: Demo = start_demo(db.url)
    try:
        status, _headers, body = demo.request("POST", "/api/ask", {"question": "How much does Bergmann owe?"},
                                              headers={"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"})
    finally:
        stop_demo(demo)
    assert status == 200, body
    ask = next(s for s in ours(spans) if s.name == "footnote.ask")
    assert format(ask.context.trace_id, "032x") == TRACE_ID
    assert ask.parent is not None and format(ask.parent.span_id, "016x") == PARENT_ID
    assert json.loads(body)["status"] == ask.attributes["footnote.status"]


def test_an_mcp_tool_call_over_http_continues_the_callers_trace(db: TestDatabase, spans: InMemorySpanExporter) -> None:
    import threading

    from footnote_pg.mcpserver.backend import Config
    from footnote_pg.mcpserver.server import prepare
    from footnote_pg.web.server import serve_mcp
    from tests.test_mcp import session, structured

    ready: dict[str, Any] = {}
    stop = threading.Event()
    started = threading.Event()
    mcp, _count = prepare(Config(db.url_as("service"), "tracer", None))

    def on_ready(url: str) -> None:
        ready["url"] = url
        started.set()

    server = threading.Thread(target=serve_mcp, args=(mcp,), kwargs={"port": 0, "ready": on_ready, "stop": stop},
                              daemon=True)
    server.start()
    assert started.wait(30)
    try:
        with trace.get_tracer("an agent").start_as_current_span("agent turn") as turn, \
                session(ready["url"].rstrip("/") + "/mcp") as s:
            doc = structured(s.call("customer_overdue", {"customer": "Bergmann Logistik"}))
    finally:
        stop.set()
        server.join(15)
    call = next(s for s in ours(spans) if s.name == "footnote.call")
    assert call.context.trace_id == turn.get_span_context().trace_id
    assert call.attributes["footnote.call_id"] == doc["call_id"]


def test_without_the_api_a_span_is_one_shared_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracing, "trace", None)
    first, second = tracing.span("ask"), tracing.span("call", operation="x")
    assert first is second
    with first as current:
        tracing.annotate(current, status="verified")  # nothing to set, nothing raised
    with tracing.continued({"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"}):
        pass

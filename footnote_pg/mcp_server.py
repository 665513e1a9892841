"""The MCP server: footnote-pg's catalog, answers, decisions and chain check as MCP tools.

One tool per catalog operation (read from ``footnote.catalog`` at startup, with
the operation's own JSON Schema and description), plus ``answer`` (a question
to a verified, recorded answer), ``record_decision`` (an agent's decision,
graded by the gate and recorded) and ``verify_chain``. Every result carries a
short text, ``structuredContent`` matching the tool's ``outputSchema``, one
``resource_link`` per evidence record and, in ``_meta``, what an agent needs
to cite it: the ``call_id`` and ``result_hash`` of a catalog call, or the
ledger ``seq`` and ``hash`` of a recorded answer or decision. Evidence records
are readable as resources ``erp://{type}/{id}`` through ``source_record``.

Everything database-side goes through :class:`footnote_pg.Footnote`; errors a
user can cause (unknown or ambiguous names, bad arguments, an unreachable
database) come back as tool results with ``isError: true``, never as a crash.
Logs go to stderr: in stdio mode stdout is the protocol.

    python -m footnote_pg.mcp_server                 # stdio
    python -m footnote_pg.mcp_server --http --port 8765
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread
import psycopg
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import Annotations, CallToolResult, ContentBlock, ResourceLink, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from footnote_pg import __version__, errors, ledger
from footnote_pg.answers import Answer
from footnote_pg.client import Footnote, actor_from_env, resolve_database_url, uses_embedded_sample
from footnote_pg.results import Evidence, Operation, OperationResult, Receipt, Value

log = logging.getLogger("footnote_pg.mcp")
T = TypeVar("T")

SERVER_NAME = "footnote-pg"
POOL_TIMEOUT = 10.0  # seconds a tool call waits for a free pooled connection before reporting it
TEXT_ROWS = 15  # rows spelled out in a result's text; all of them are in structuredContent
RECENT_CALLS = 500  # catalog calls whose evidence is remembered, to link the evidence a decision cites
INSTRUCTIONS = """\
footnote-pg answers questions about ERP data (customers, invoices, receivables, revenue, suppliers, stock).
Every figure is computed by a catalog operation inside PostgreSQL and comes with the evidence records behind it.
Quote figures exactly as the `text` of a value; never compute, round or convert them yourself.
Use `answer` for a plain-English question; it returns a verified answer whose claims cite evidence.
When you write the final answer yourself from catalog results, submit it with `submit_answer` (the question,
your text, the call_ids you used) before showing it: the gate finds every figure and name in it, grades each
sentence against what the calls returned and records it. Show your text only when the status is `verified`
(or `partially_verified`, saying which facts are unverified); otherwise show the `fallback` answer it returns.
Before an agent acts (pay, hold, escalate), call `record_decision` citing evidence ids and the call_id of the
catalog call that returned them; outcome `unverified` or `fabricated` means the decision does not stand on
verified evidence. An unknown or ambiguous name is an error listing the real names: retry with one of them."""


# -- configuration --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """Where the database is and who acts: ``DATABASE_URL``, ``PROVENANCE_ACTOR`` (id or id:role), ``..._ROLE``."""

    database_url: str | None
    actor: str | None
    actor_role: str | None

    @classmethod
    def from_env(cls) -> Config:
        actor, role = actor_from_env()
        return cls(os.environ.get("DATABASE_URL") or None, actor, role)


def safe_url(url: str) -> str:
    """A connection string fit for a log line: no password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "<unparsable database URL>"
    info.pop("password", None)
    return " ".join(f"{k}={v}" for k, v in info.items() if v is not None)


# -- output schemas -------------------------------------------------------------------------------------------------


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Figure(_Open):
    """One figure: its kind, exact value (text), formatted text and the evidence ids behind it."""

    kind: str
    raw: str | None
    text: str | None
    evidence: list[str]


class EvidenceRecord(BaseModel):
    """A record behind a figure, with the field values it had when it was read."""

    id: str = Field(description="evidence id, type:record_id, e.g. invoice:8812; cite it in record_decision")
    type: str
    record_id: str
    uri: str | None = Field(description="deep link, readable as an MCP resource")
    verified: bool
    fields: dict[str, Any]


class OperationOutput(_Open):
    """A catalog call's result document, exactly as the call log holds it, plus its hash."""

    operation: str
    call_id: str = Field(description="cite it in record_decision (citations[].call_id and call_ids)")
    result_hash: str | None = Field(description="SHA-256 of the canonical JSON of the result (as in the call log)")
    called_at: str | None = None
    arguments: dict[str, Any]
    effective_arguments: dict[str, Any] = Field(default_factory=dict)
    subject: dict[str, Any] | None = None
    values: dict[str, Figure]
    rows: list[dict[str, Figure]]
    evidence: list[EvidenceRecord]
    empty_reason: str | None = None
    queries: list[dict[str, Any]] = Field(default_factory=list)


class LedgerReceipt(BaseModel):
    """Where a record landed in the hash-chained ledger."""

    record_id: str
    seq: int
    hash: str
    prev_hash: str
    recorded_at: str


class Claim(_Open):
    """A span of the answer and the evidence the gate checked it against."""

    text: str
    verdict: str
    evidence: list[str]
    footnote: int


class AnswerOutput(BaseModel):
    """An answer as recorded: status, text, claims with evidence, options or the reason of a refusal."""

    question: str
    status: str = Field(description="verified, partially_verified, unverified, ambiguous or refused")
    kind: str
    intent: str
    answer: str
    claims: list[Claim]
    inference: dict[str, Any] | None
    facts: list[dict[str, Any]]
    evidence: list[EvidenceRecord]
    findings: list[dict[str, Any]]
    options: list[str] = Field(description="questions to ask instead, when the question was ambiguous")
    reason: str | None = Field(description="why the question was refused or needs a clarification")
    calls: list[dict[str, Any]]
    notes: dict[str, Any]
    ledger: LedgerReceipt | None


class SentenceVerdict(_Open):
    """How the gate read one sentence (or list line) of a submitted answer."""

    sentence: int
    start: int
    end: int
    text: str
    verdict: str = Field(description="grounded, discourse, unverified, fabricated or unsupported")
    reasons: list[str]


class Fallback(_Open):
    answer: str = Field(description="the template answer for the same calls: show it when yours is not verified")
    claims: list[dict[str, Any]]


class SubmittedOutput(BaseModel):
    """A submitted answer as the gate graded and recorded it."""

    record_id: str
    status: str = Field(description="verified, partially_verified or insufficient_evidence")
    sentences: list[SentenceVerdict]
    claims: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    fallback: Fallback
    ledger: LedgerReceipt


class Citation(BaseModel):
    """One piece of evidence a decision rests on."""

    evidence: str = Field(
        description="evidence id from a catalog result, e.g. bank_change_request:502", min_length=1, max_length=200
    )
    call_id: str = Field(
        description="call_id of the catalog call that returned that evidence", min_length=1, max_length=100
    )
    fact: str | None = Field(
        default=None, description="what the evidence shows, e.g. pending_account_ending", max_length=200
    )


class CitationVerdict(_Open):
    evidence: str
    call_id: str
    fact: str | None
    verdict: str = Field(description="grounded, unverified or fabricated")
    reason: str | None
    verification: str | None


class Finding(_Open):
    code: str
    message: str
    severity: str


class DecisionOutput(BaseModel):
    """A decision as the gate graded and recorded it."""

    record_id: str
    action: str
    subject: str
    outcome: str = Field(description="grounded, unverified, fabricated or unsupported")
    citations: list[CitationVerdict]
    findings: list[Finding]
    ledger: LedgerReceipt


class ChainCheck(BaseModel):
    """One verifier's verdict on the ledger."""

    ok: bool
    records: int
    head_seq: int | None
    head_hash: str | None
    first_bad_seq: int | None
    problem: str | None
    detail: str | None


class ChainVerdict(ChainCheck):
    """The database's own verify_chain(), and the independent Python verifier when the role may read the ledger."""

    pending: int = Field(description="records waiting to be sealed")
    independent: ChainCheck | None = Field(
        description="the independent verifier (footnote_pg.ledger); null when this role cannot read the ledger"
    )
    note: str | None = None


# -- the database side ----------------------------------------------------------------------------------------------


class Backend:
    """The Footnote client behind the tools: opened in the server's lifespan, reopened after an outage."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._url: str | None = None
        self._client: Footnote | None = None
        self._lock = threading.Lock()
        self._evidence: OrderedDict[str, dict[str, Evidence]] = OrderedDict()

    def url(self) -> str:
        """The database URL; without DATABASE_URL the embedded PostgreSQL with the sample ERP (started once)."""
        if self._url is None:
            if uses_embedded_sample(self.config.database_url):
                log.warning("no DATABASE_URL or PG* environment: answering from the embedded sample ERP")
            try:
                self._url = resolve_database_url(self.config.database_url)
            except errors.FootnoteError:
                raise
            except Exception as exc:  # the embedded server: any failure to start is an outage to report
                raise errors.ConnectionFailed(f"the embedded PostgreSQL could not start: {exc}") from exc
        return self._url

    def _connect(self, *, max_size: int = 4) -> Footnote:
        fn = Footnote(
            self.url(), actor=self.config.actor, actor_role=self.config.actor_role, min_size=1, max_size=max_size
        )
        fn.pool.timeout = POOL_TIMEOUT
        return fn

    def catalog(self) -> list[Operation]:
        """The catalog operations, read once at startup; none when the database is unreachable."""
        try:
            with self._connect(max_size=1) as fn:
                return fn.catalog()
        except errors.FootnoteError as exc:
            log.warning("catalog not loaded, only answer, record_decision and verify_chain are offered: %s", exc)
            return []

    def open(self) -> None:
        try:
            self.client()
        except errors.FootnoteError as exc:
            log.warning("database unavailable at startup (tools will report it and retry): %s", exc)

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def client(self) -> Footnote:
        with self._lock:
            if self._client is None:
                self._client = self._connect()
                log.info(
                    "connected to %s as actor %s",
                    safe_url(self.url()),
                    ":".join(p for p in (self.config.actor, self.config.actor_role) if p) or "(none)",
                )
            return self._client

    def discard(self, fn: Footnote) -> None:
        """Drop a client whose connections failed; the next call opens a fresh pool (or says why it cannot)."""
        with self._lock:
            if self._client is not fn:
                return
            self._client = None
        fn.close()

    def run(self, work: Callable[[Footnote], T], *, retry: bool) -> T:
        """``work`` with the client; after a lost connection, once more on a fresh pool when ``retry`` (reads)."""
        fn = self.client()
        try:
            return work(fn)
        except errors.ConnectionFailed as exc:
            log.warning("database connection lost (%s); reconnecting", exc)
            self.discard(fn)
            if not retry:
                raise
            return work(self.client())

    def remember(self, result: OperationResult) -> None:
        with self._lock:
            self._evidence[result.call_id] = result.evidence_by_id()
            while len(self._evidence) > RECENT_CALLS:
                self._evidence.popitem(last=False)

    def recalled(self, call_id: str, evidence_id: str) -> Evidence | None:
        with self._lock:
            return self._evidence.get(call_id, {}).get(evidence_id)


def guarded(
    tool: str, backend: Backend, work: Callable[[Footnote], CallToolResult], *, retry: bool = True
) -> CallToolResult:
    """Run a tool body; every error a user or an outage can cause becomes an ``isError`` result."""
    try:
        return backend.run(work, retry=retry)
    except errors.FootnoteError as exc:
        log.info("%s: %s", tool, exc)
        return error_result(tool, exc)
    except psycopg.errors.DataError as exc:  # a value the database cannot take (e.g. a malformed uuid)
        log.info("%s: %s", tool, _first_line(exc))
        return error_result(tool, errors.InvalidArgument(f"invalid argument: {_first_line(exc)}"))
    except psycopg.Error as exc:  # not one a user can cause: keep the traceback in the log, answer clearly
        log.error("%s: unexpected database error", tool, exc_info=True)
        return error_result(tool, errors.FootnoteError(f"database error: {_first_line(exc)}"))


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


# -- results --------------------------------------------------------------------------------------------------------


def _ids_label(ids: tuple[str, ...] | list[str]) -> str:
    if not ids:
        return ""
    shown = ", ".join(ids[:4]) if len(ids) <= 4 else f"{', '.join(ids[:3])} … ({len(ids)} records)"
    return f" [{shown}]"


def _record_title(e: Evidence) -> str:
    for key in ("name", "number", "subject", "reference", "sku", "warehouse", "iban_masked", "requested_iban_masked"):
        value = e.fields.get(key)
        if value:
            return f"{e.type.replace('_', ' ')} {value}"
    return e.id


def evidence_link(e: Evidence) -> ResourceLink:
    """A resource_link to an evidence record, for the user to open."""
    fields = ", ".join(f"{k}={v}" for k, v in e.fields.items())
    fields = fields if len(fields) <= 300 else fields[:299] + "…"
    status = "" if e.verified else f"UNVERIFIED ({e.fields.get('verification') or 'no verification'}) · "
    return ResourceLink(
        type="resource_link",
        uri=e.uri or _deep_link(e.id),
        name=e.id,
        title=_record_title(e),
        description=f"{status}{fields}",
        mime_type="application/json",
        annotations=Annotations(audience=["user"]),
    )


def _deep_link(evidence_id: str) -> str:
    kind, _, record_id = evidence_id.partition(":")
    return f"erp://{kind}/{record_id}"


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def _receipt(r: Receipt) -> dict[str, Any]:
    return {
        "record_id": r.record_id,
        "seq": r.seq,
        "hash": r.hash,
        "prev_hash": r.prev_hash,
        "recorded_at": r.recorded_at.isoformat(),
    }


def _figure(v: Value) -> str:
    """A figure's text and, for facts that carry it, whether it is verified and how."""
    if v.extra.get("verified") is False:
        return f"{v.text} (UNVERIFIED: {v.extra.get('verification') or 'no verification'})"
    if v.extra.get("verified") is True and v.extra.get("verification"):
        return f"{v.text} (verified: {v.extra['verification']})"
    return f"{v.text}"


def operation_text(result: OperationResult) -> str:
    lines = [f"{result.operation} — call_id {result.call_id}"]
    lines += [f"{v.name}: {_figure(v)}{_ids_label(v.evidence)}" for v in result.values.values()]
    if result.rows:
        lines.append(f"rows ({len(result.rows)}):")
        for n, row in enumerate(result.rows[:TEXT_ROWS], start=1):
            lines.append(f"{n}. " + " · ".join(f"{v.name} {_figure(v)}" for v in row.values()))
        if len(result.rows) > TEXT_ROWS:
            lines.append(f"… {len(result.rows) - TEXT_ROWS} more rows in structuredContent")
    if result.empty_reason:
        lines.append(f"empty: {result.empty_reason}")
    lines.append(
        f"{len(result.evidence)} evidence records (linked). Quote figures as written; cite evidence ids "
        f"with call_id {result.call_id}."
    )
    return "\n".join(lines)


def operation_result(result: OperationResult) -> CallToolResult:
    digest = result.result_hash  # as the call log keeps it
    content: list[ContentBlock] = [_text(operation_text(result))]
    content += [evidence_link(e) for e in result.evidence]
    return CallToolResult(
        content=content,
        structured_content={**result.document, "result_hash": digest},
        _meta={"call_id": result.call_id, "result_hash": digest},
    )


def answer_text(doc: dict[str, Any]) -> str:
    status = doc["status"] + (f" ({doc['reason']})" if doc.get("reason") else "")
    grounded = sum(1 for c in doc["claims"] if c.get("verdict") == "grounded")
    checked = f" · {grounded} of {len(doc['claims'])} claims grounded" if doc["claims"] else ""
    receipt = doc.get("ledger")
    where = f" · ledger #{receipt['seq']} {receipt['hash'][:16]}…" if receipt else ""
    return f"{doc['answer']}\n\nstatus: {status}{checked}{where}"


def answer_result(answer: Answer) -> CallToolResult:
    doc: dict[str, Any] = answer.as_json()
    content: list[ContentBlock] = [_text(answer_text(doc))]
    content += [evidence_link(e) for e in answer.evidence]
    meta: dict[str, Any] = {"status": doc["status"], "call_ids": [c["call_id"] for c in doc["calls"]]}
    if doc["ledger"] is not None:
        meta |= {k: doc["ledger"][k] for k in ("record_id", "seq", "hash")}
    return CallToolResult(content=content, structured_content=doc, _meta=meta)


def submitted_text(doc: dict[str, Any]) -> str:
    lines = [f"status: {doc['status']} · ledger #{doc['ledger']['seq']} {doc['ledger']['hash'][:16]}…"]
    for s in doc["sentences"]:
        why = f" ({', '.join(s['reasons'])})" if s["reasons"] else ""
        lines.append(f"- {s['verdict']}{why}: {s['text']}")
    lines += [f"finding: {f['message']}" for f in doc["findings"] if f.get("sentence") is None]
    if doc["status"] not in ("verified", "partially_verified"):
        lines.append("Do not show this text. Show the fallback answer instead:")
        lines.append(doc["fallback"]["answer"])
    return "\n".join(lines)


def submitted_result(graded: dict[str, Any]) -> CallToolResult:
    receipt = graded.pop("receipt")
    doc = {**graded, "ledger": _receipt(receipt)}
    return CallToolResult(content=[_text(submitted_text(doc))], structured_content=doc,
                          _meta={"record_id": receipt.record_id, "seq": receipt.seq, "hash": receipt.hash,
                                 "status": doc["status"]})


def decision_text(doc: dict[str, Any]) -> str:
    lines = [f"decision recorded: {doc['action']} — {doc['subject']}: outcome {doc['outcome']}"]
    for n, c in enumerate(doc["citations"]):
        how = f"; verification: {c['verification']}" if c.get("verification") else ""
        why = f" ({c['reason'].replace('_', ' ')})" if c.get("reason") else ""
        lines.append(f"{n}. {c['evidence']}{' — ' + c['fact'] if c.get('fact') else ''}: {c['verdict']}{why}{how}")
    lines += [f"finding: {f['message']}" for f in doc["findings"] if f.get("code") == "nothing_cited"]
    lines.append(f"ledger #{doc['ledger']['seq']} {doc['ledger']['hash'][:16]}…")
    if doc["outcome"] != "grounded":
        lines.append("Do not act on this decision until the evidence it rests on is verified.")
    return "\n".join(lines)


def decision_result(doc: dict[str, Any], links: list[ResourceLink]) -> CallToolResult:
    receipt = doc["ledger"]
    return CallToolResult(
        content=[_text(decision_text(doc)), *links],
        structured_content=doc,
        _meta={
            "record_id": receipt["record_id"],
            "seq": receipt["seq"],
            "hash": receipt["hash"],
            "outcome": doc["outcome"],
        },
    )


def chain_result(verdict: ChainVerdict) -> CallToolResult:
    if verdict.ok:
        text = f"chain intact: {verdict.records} records, head #{verdict.head_seq} {(verdict.head_hash or '')[:16]}…"
    else:
        text = f"chain broken at record {verdict.first_bad_seq}: {verdict.problem}: {verdict.detail}"
    text += "\nchecked by: database verify_chain()" + (" and the independent verifier" if verdict.independent else "")
    if verdict.note:
        text += f"\n{verdict.note}"
    return CallToolResult(
        content=[_text(text)],
        structured_content=verdict.model_dump(mode="json"),
        _meta={"head_seq": verdict.head_seq, "head_hash": verdict.head_hash},
    )


def error_text(tool: str, exc: errors.FootnoteError) -> str:
    """One message a model can act on: for a name, the real names to retry with."""
    entity = exc.detail.get("entity", "record")
    value = exc.detail.get("value", "")
    if isinstance(exc, errors.UnknownEntity) and exc.alternatives:
        names = "\n".join(f"- {a['name']}" for a in exc.alternatives)
        return (
            f"There is no {entity} named “{value}”. The closest real {entity} names:\n{names}\n"
            f"Call {tool} again with one of these exact names, or ask the user which one is meant."
        )
    if isinstance(exc, errors.AmbiguousEntity):
        names = "\n".join(f"- {c['name']}" for c in exc.candidates)
        return (
            f"“{value}” matches several {entity} records:\n{names}\n"
            f"Call {tool} again with the full name of the one meant, or ask the user which one."
        )
    if isinstance(exc, errors.ConnectionFailed):
        return f"The database is unavailable: {exc}. The MCP server is still running; try again later."
    return str(exc)


def error_result(tool: str, exc: errors.FootnoteError) -> CallToolResult:
    meta: dict[str, Any] = {"error": type(exc).__name__}
    if isinstance(exc, errors.UnknownEntity):
        meta["alternatives"] = exc.alternatives
    if isinstance(exc, errors.AmbiguousEntity):
        meta["candidates"] = exc.candidates
    if exc.detail.get("argument"):
        meta["argument"] = exc.detail["argument"]
    return CallToolResult(content=[_text(error_text(tool, exc))], is_error=True, _meta=meta)


# -- tools ----------------------------------------------------------------------------------------------------------


class _PassThroughArguments(ArgModelBase):
    """Arguments as given: the database validates them (one validator, the same messages as the CLI)."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


def catalog_tool(operation: Operation, backend: Backend) -> Tool:
    """A tool for one catalog operation: its JSON Schema as inputSchema, its description for the model."""

    def call(**arguments: Any) -> CallToolResult:
        def work(fn: Footnote) -> CallToolResult:
            result = fn.call(operation.name, **{k: v for k, v in arguments.items() if v is not None})
            backend.remember(result)
            return operation_result(result)

        return guarded(operation.name, backend, work)

    return Tool(
        fn=call,
        name=operation.name,
        title=operation.title,
        description=f"{operation.description}\n\nReturns {operation.returns}. Each figure lists the evidence "
        "records behind it; the result's call_id lets record_decision cite them.",
        parameters=operation.json_schema(),
        fn_metadata=FuncMetadata(arg_model=_PassThroughArguments, output_model=OperationOutput),
        is_async=False,
        context_kwarg=None,
        annotations=READ_ONLY,
    )


def check_call_ids(call_ids: list[str]) -> None:
    """call_ids are UUIDs from catalog results; say so instead of letting the database fail on the cast."""
    for call_id in call_ids:
        try:
            uuid.UUID(call_id)
        except ValueError:
            raise errors.InvalidArgument(
                f"invalid argument call_ids: {call_id[:60]!r} is not a call_id (the UUID in a catalog result's "
                "call_id)",
                {"argument": "call_ids", "value": call_id[:60]},
            ) from None


def decision_links(backend: Backend, graded: list[dict[str, Any]]) -> list[ResourceLink]:
    """Links to the evidence a decision cites (not to fabricated citations: the call never returned those)."""
    links: dict[str, ResourceLink] = {}
    for c in graded:
        if c["verdict"] == "fabricated":
            continue
        e = backend.recalled(c["call_id"], c["evidence"])
        link = (
            evidence_link(e)
            if e is not None
            else ResourceLink(
                type="resource_link",
                uri=_deep_link(c["evidence"]),
                name=c["evidence"],
                mime_type="application/json",
                annotations=Annotations(audience=["user"]),
            )
        )
        links.setdefault(link.uri, link)
    return list(links.values())


def verify(fn: Footnote) -> ChainVerdict:
    """The database's verify_chain(); the independent verifier too when this role may read the ledger."""
    independent: ChainCheck | None = None
    note = None
    chain = fn.verify_chain()
    with fn.transaction() as conn:
        try:
            with conn.transaction():
                independent = ChainCheck(**ledger.verify_database(conn).as_dict())
        except psycopg.errors.InsufficientPrivilege:
            note = (
                "only the database's own check ran: the independent verifier needs read access to "
                "footnote.ledger (footnote_auditor); run footnote-pg verify as an auditor"
            )
    own = ChainCheck(**{k: v for k, v in chain.items() if k != "pending"})
    first_bad = next((v for v in (own, independent) if v is not None and not v.ok), own)
    return ChainVerdict(**first_bad.model_dump(), pending=chain["pending"], independent=independent, note=note)


def add_fixed_tools(server: MCPServer[Backend], backend: Backend) -> None:
    """answer, submit_answer, record_decision and verify_chain."""

    @server.tool(
        title="Answer a question with cited figures",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
    )
    def answer(
        question: Annotated[
            str,
            Field(
                description="a question about the ERP data, in English, e.g. “How much does Bergmann Logistik owe?”",
                min_length=1,
                max_length=2000,
            ),
        ],
    ) -> Annotated[CallToolResult, AnswerOutput]:
        """Answer a question about the ERP data (receivables, overdue customers, revenue, suppliers, stock).

        The answer is composed from catalog operations; every figure in it is a claim the gate checks against the
        evidence, and the answer is recorded in the ledger (seq and hash in _meta). A refusal (a forecast, an
        unknown name) or a clarification (several customers match) is a normal result: read status, reason and
        options, and ask again with one of the options."""
        return guarded("answer", backend, lambda fn: answer_result(fn.ask(question)), retry=False)

    @server.tool(
        title="Submit your own answer to the gate",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
    )
    def submit_answer(
        question: Annotated[str, Field(description="the user's question, as asked", min_length=1, max_length=2000)],
        answer: Annotated[
            str,
            Field(description="the answer you want to show, in your words; quote every figure exactly as the `text` "
                              "the catalog returned", min_length=1, max_length=20000),
        ],
        call_ids: Annotated[
            list[str],
            Field(description="call_id of every catalog call the answer rests on", min_length=1, max_length=100),
        ],
    ) -> Annotated[CallToolResult, SubmittedOutput]:
        """Grade and record an answer you wrote yourself from catalog results.

        No spans needed: the gate finds the figures and names itself and grades every sentence against the
        statements the calls support — grounded, unverified (a real value bound to the wrong subject, period,
        direction or unit), fabricated (a number no call returned) or unsupported (words no call supports), with
        the reason. The text is recorded in the ledger either way. Show it only when status is verified (or
        partially_verified, naming the unverified facts); otherwise show `fallback.answer`, the template answer
        for the same calls."""

        def work(fn: Footnote) -> CallToolResult:
            check_call_ids(call_ids)
            return submitted_result(fn.submit_answer(question, answer, call_ids))

        return guarded("submit_answer", backend, work, retry=False)

    @server.tool(
        title="Record a decision with its evidence",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
    )
    def record_decision(
        action: Annotated[
            str, Field(description="what is decided, e.g. pay, hold, escalate", min_length=1, max_length=60)
        ],
        subject: Annotated[
            str,
            Field(
                description="what it is about, e.g. Northwind Supply invoice to account ending 9086",
                min_length=1,
                max_length=500,
            ),
        ],
        rationale: Annotated[str, Field(description="why, in one or two sentences", max_length=5000)],
        citations: Annotated[list[Citation], Field(description="the evidence the decision rests on", max_length=200)],
        call_ids: Annotated[
            list[str] | None, Field(description="the catalog calls consulted (default: the call_ids of the citations)")
        ] = None,
    ) -> Annotated[CallToolResult, DecisionOutput]:
        """Record an agent's decision in the ledger, citing the evidence it rests on.

        Each citation names an evidence id from a catalog result (e.g. bank_change_request:502) and the call_id of
        that call. The gate grades each citation: grounded (verified evidence the call returned), unverified (the
        record itself is unverified, e.g. a bank-detail change requested by e-mail only) or fabricated (the call
        never returned it). Outcome unverified, fabricated or unsupported means: do not act without verification."""
        cited = [c.model_dump(exclude_none=True) for c in citations]
        calls = call_ids if call_ids is not None else list(dict.fromkeys(c.call_id for c in citations))

        def work(fn: Footnote) -> CallToolResult:
            check_call_ids(calls)
            graded = fn.decide(action, subject, rationale, cited, calls)
            doc = {
                "record_id": graded["record_id"],
                "action": action,
                "subject": subject,
                "outcome": graded["outcome"],
                "citations": graded["citations"],
                "findings": graded["findings"],
                "ledger": _receipt(graded["receipt"]),
            }
            return decision_result(doc, decision_links(backend, graded["citations"]))

        return guarded("record_decision", backend, work, retry=False)

    @server.tool(title="Verify the ledger's hash chain", annotations=READ_ONLY)
    def verify_chain() -> Annotated[CallToolResult, ChainVerdict]:
        """Walk the ledger's hash chain and report whether every recorded answer and decision is intact, with the
        head record's sequence and hash, or the first bad record and what is wrong with it."""
        return guarded("verify_chain", backend, lambda fn: chain_result(verify(fn)))


def add_record_resource(server: MCPServer[Backend], backend: Backend) -> None:
    """Evidence records as resources erp://{type}/{id}, through the source_record operation."""

    @server.resource(
        "erp://{type}/{id}",
        name="erp_record",
        title="ERP record behind a deep link",
        description="The record behind an evidence deep link: type, id, uri, verified and its fields.",
        mime_type="application/json",
    )
    def erp_record(type: str, id: str) -> str:  # noqa: A002 - the template's variable names
        try:
            e = backend.run(lambda fn: fn.call("source_record", uri=f"erp://{type}/{id}"), retry=True).evidence[0]
        except (errors.UnknownEntity, errors.InvalidArgument) as exc:
            raise ResourceNotFoundError(str(exc)) from None
        except errors.FootnoteError as exc:
            raise ResourceError(error_text("source_record", exc)) from None
        return json.dumps(
            {"type": e.type, "id": e.record_id, "uri": e.uri, "verified": e.verified, "fields": e.fields},
            ensure_ascii=False,
        )


# -- the server -----------------------------------------------------------------------------------------------------


def build_server(backend: Backend, operations: list[Operation]) -> MCPServer[Backend]:
    """The MCP server: one tool per catalog operation, the fixed tools, the record resource."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[Backend]) -> AsyncIterator[Backend]:
        await anyio.to_thread.run_sync(backend.open)
        try:
            yield backend
        finally:
            await anyio.to_thread.run_sync(backend.close)
            log.info("connection pool closed")

    server: MCPServer[Backend] = MCPServer(
        SERVER_NAME,
        title="footnote-pg: ERP answers where every number is a citation",
        version=__version__,
        instructions=INSTRUCTIONS,
        tools=[catalog_tool(op, backend) for op in operations],
        lifespan=lifespan,
        log_level="WARNING",
    )
    add_fixed_tools(server, backend)
    add_record_resource(server, backend)
    return server


def configure_logging() -> None:
    """Our lines at INFO, everything else at WARNING; all on stderr (stdout is the protocol in stdio mode)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="footnote-pg mcp: %(levelname)s %(message)s")
    log.setLevel(logging.INFO)


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send fd 1 to stderr while starting up, so nothing (the embedded server, a library) writes to the protocol."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def main(transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve MCP over stdio (default) or streamable HTTP at http://host:port/mcp; blocks until stopped."""
    if transport not in ("stdio", "streamable-http", "http"):
        raise errors.InvalidArgument(f"invalid argument transport: {transport}; use stdio or streamable-http")
    configure_logging()
    backend = Backend(Config.from_env())
    with stdout_to_stderr():
        operations = backend.catalog()
    server = build_server(backend, operations)
    log.info(
        "%d catalog operations; serving over %s",
        len(operations),
        "stdio" if transport == "stdio" else f"http://{host}:{port}/mcp",
    )
    if transport == "stdio":
        server.run("stdio")
        return
    if host not in ("127.0.0.1", "localhost", "::1"):
        log.warning("serving on %s without authentication: whoever reaches it reads the ERP data", host)
    server.run("streamable-http", host=host, port=port)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m footnote_pg.mcp_server", description=main.__doc__)
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    return parser.parse_args(argv)


def cli(argv: list[str] | None = None) -> None:
    import signal

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # stop like Ctrl-C: the pool and an embedded PostgreSQL are closed
    args = _parse(argv)
    transport: Literal["stdio", "streamable-http"] = "streamable-http" if args.http else "stdio"
    try:
        main(transport, host=args.host, port=args.port)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    cli()

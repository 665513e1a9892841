"""What the tools return: the output schemas (``outputSchema``) and the results built from footnote-pg's documents.

Every result carries a short text for the model, ``structuredContent`` matching the tool's output model, one
``resource_link`` per evidence record and, in ``_meta``, what an agent needs to cite it. An error is a result with
``isError: true`` and one line of text.
"""

from __future__ import annotations

import re
from typing import Any

from mcp.types import Annotations, CallToolResult, ContentBlock, ResourceLink, TextContent
from pydantic import BaseModel, ConfigDict, Field

from footnote_pg import errors
from footnote_pg.answers import Answer
from footnote_pg.results import Evidence, OperationResult, Receipt, Value

TEXT_ROWS = 15  # rows spelled out in a result's text; all of them are in structuredContent
NAMES_SHOWN = 20  # real names an unknown or ambiguous name's error lists


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


OMITTED = ("the lists cut to fit the server's max_result (absent when the result is whole); read the rest at "
           "footnote://result/{id}/{path}/{shown}")


class Omitted(BaseModel):
    """A list a result shortened to fit the server's max_result."""

    path: str = Field(description="where the list is, e.g. evidence or values.invoice_count.evidence")
    shown: int = Field(description="items this result shows")
    total: int = Field(description="items of the whole list")
    next: str | None = Field(default=None, description="for a top-level list: the URI of its next page (offset 0 "
                                                        "when the records shown are the cited ones, not the first)")


class OperationOutput(_Open):
    """A catalog call's result document, exactly as the call log holds it, plus its hash."""

    operation: str
    call_id: str = Field(description="cite it in record_decision (citations[].call_id and call_ids)")
    result_hash: str | None = Field(description="SHA-256 of the result as the call log keeps it (its jsonb text)")
    called_at: str | None = None
    arguments: dict[str, Any]
    effective_arguments: dict[str, Any] = Field(default_factory=dict)
    subject: dict[str, Any] | None = None
    values: dict[str, Figure]
    rows: list[dict[str, Figure]]
    evidence: list[EvidenceRecord]
    empty_reason: str | None = None
    queries: list[dict[str, Any]] = Field(default_factory=list)
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED)


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
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED)


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
    answer: str = Field(description="the text as graded and recorded: yours, with [[references]] filled in")
    rendered: bool = Field(description="whether the text had [[references]] the server filled in")
    sentences: list[SentenceVerdict]
    claims: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    fallback: Fallback
    ledger: LedgerReceipt
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED)


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
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED)


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


SET_TEMPLATE = "footnote://evidence/{call_id}/{set_id}/{offset}"  # the pages of an evidence set (resources.py)


def evidence_link(e: Evidence, call_id: str | None = None) -> ResourceLink:
    """A resource_link to an evidence record, for the user to open; an evidence set links to its first page of
    rows (it needs the call that cites it)."""
    fields = ", ".join(f"{k}={v}" for k, v in e.fields.items())
    fields = fields if len(fields) <= 300 else fields[:299] + "…"
    status = "" if e.verified else f"UNVERIFIED ({e.fields.get('verification') or 'no verification'}) · "
    return ResourceLink(
        type="resource_link",
        uri=e.uri or (SET_TEMPLATE.format(call_id=call_id, set_id=e.id, offset=0) if e.is_set and call_id
                      else deep_link(e.id)),
        name=e.id,
        title=_record_title(e),
        description=f"{status}{fields}",
        mime_type="application/json",
        annotations=Annotations(audience=["user"]),
    )


def deep_link(evidence_id: str) -> str:
    kind, _, record_id = evidence_id.partition(":")
    return f"erp://{kind}/{record_id}"


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def receipt_doc(r: Receipt) -> dict[str, Any]:
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
            lines.append(f"… {len(result.rows) - TEXT_ROWS} more rows in structuredContent.rows")
    if result.empty_reason:
        lines.append(f"empty: {result.empty_reason}")
    lines.append(
        f"{len(result.evidence)} evidence records. Quote figures as written; cite evidence ids "
        f"with call_id {result.call_id}."
    )
    return "\n".join(lines)


def operation_result(result: OperationResult) -> CallToolResult:
    digest = result.result_hash  # as the call log keeps it
    content: list[ContentBlock] = [_text(operation_text(result))]
    content += [evidence_link(e, result.call_id) for e in result.evidence]
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
    citing = {eid: c["call_id"] for c in doc["claims"] for eid in c.get("evidence") or []}
    content += [evidence_link(e, citing.get(e.id)) for e in answer.evidence]
    meta: dict[str, Any] = {"status": doc["status"], "call_ids": [c["call_id"] for c in doc["calls"]]}
    if doc["ledger"] is not None:
        meta |= {k: doc["ledger"][k] for k in ("record_id", "seq", "hash")}
    return CallToolResult(content=content, structured_content=doc, _meta=meta)


_IN_SENTENCE = re.compile(r"^sentence \d+ \(“.*?”\): (.*)$", re.DOTALL)
_WORD = re.compile(r"^“(.+?)” (?:is )?(.+)$", re.DOTALL)


def failed_words(findings: list[dict[str, Any]]) -> str:
    """What failed in one sentence, from the gate's findings: words of the same reason together.

    ``“yes”, “definitely”: not supported by the calls; it states something without any figure the calls returned``
    """
    grouped: dict[str, list[str]] = {}
    for f in findings:
        message = str(f.get("message") or f.get("code"))
        reason = m.group(1) if (m := _IN_SENTENCE.match(message)) else message
        if w := _WORD.match(reason):
            grouped.setdefault(w.group(2), []).append(f"“{w.group(1)}”")
        else:
            grouped.setdefault(reason, [])
    return "; ".join(f"{', '.join(dict.fromkeys(words))}: {why}" if words else why for why, words in grouped.items())


def submitted_text(doc: dict[str, Any]) -> str:
    """Status, each sentence's verdict with what failed in it, what the answer leaves out, and what to do next."""
    lines = [f"status: {doc['status']} · ledger #{doc['ledger']['seq']} {doc['ledger']['hash'][:16]}…"]
    by_sentence: dict[int, list[dict[str, Any]]] = {}
    for f in doc["findings"]:
        if isinstance(f.get("sentence"), int):
            by_sentence.setdefault(f["sentence"], []).append(f)
    for s in doc["sentences"]:
        found = by_sentence.get(s["sentence"])
        if found:
            lines.append(f"- sentence {s['sentence'] + 1} {s['verdict']}: {s['text']}\n  failed: {failed_words(found)}")
        else:
            why = f" ({', '.join(s['reasons'])})" if s["reasons"] else ""
            lines.append(f"- sentence {s['sentence'] + 1} {s['verdict']}{why}: {s['text']}")
    lines += [f"{'missing' if f.get('code') == 'statement_missing' else 'finding'}: {f['message']}"
              for f in doc["findings"] if f.get("sentence") is None]
    if doc["status"] not in ("verified", "partially_verified"):
        lines.append("To fix: quote each figure exactly (or write [[n]]), drop or reword the words named, state what "
                     "is missing; then submit the fixed text again with the same call_ids.")
        lines.append("Do not show this text. Show the fallback answer instead:")
        lines.append(doc["fallback"]["answer"])
    elif doc.get("rendered"):
        lines.append("Show this text (references filled in):")
        lines.append(doc["answer"])
    return "\n".join(lines)


def submitted_result(graded: dict[str, Any], answer: str, rendered: bool = False) -> CallToolResult:
    """``answer``: the text as graded and recorded (references filled in when ``rendered``)."""
    receipt = graded.pop("receipt")
    doc = {**graded, "answer": answer, "rendered": rendered, "ledger": receipt_doc(receipt)}
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


def one_line(text: str) -> str:
    """``text`` fit for one line: line breaks and other control characters written as escapes (``\\n``)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


def _names(entries: list[dict[str, str]], total: int | None = None) -> str:
    shown = [str(e.get("name")) for e in entries[:NAMES_SHOWN]]
    more = max(len(entries), total or 0) - len(shown)
    return "; ".join(shown) + (f" (and {more:,} more)" if more > 0 else "")


def error_text(tool: str, exc: errors.FootnoteError) -> str:
    """One line a model can act on: for a name, the real names to retry with."""
    entity = exc.detail.get("entity", "record")
    value = exc.detail.get("value", "")
    if isinstance(exc, errors.UnknownEntity) and exc.alternatives:
        text = (f"There is no {entity} named “{value}”. The closest real {entity} names: {_names(exc.alternatives)}. "
                f"Call {tool} again with one of these exact names, or ask the user which one is meant.")
    elif isinstance(exc, errors.UnknownEntity) and entity in ("customer", "supplier", "item"):
        text = (f"There is no {entity} named “{value}”, and no {entity} name is close to it. Call list_{entity}s "
                f"(name_contains) to see the real names, or ask the user which {entity} is meant.")
    elif isinstance(exc, errors.AmbiguousEntity) and exc.candidates:
        matching = exc.detail.get("matching")
        text = (f"“{value}” matches several {entity} records: "
                f"{_names(exc.candidates, matching if isinstance(matching, int) else None)}. "
                f"Call {tool} again with the full name of the one meant, or ask the user which one.")
    elif isinstance(exc, errors.ConnectionFailed):
        text = f"The database is unavailable: {exc}. The MCP server is still running; try again later."
    else:
        text = str(exc)
    return one_line(text)


def error_result(tool: str, exc: errors.FootnoteError) -> CallToolResult:
    """``isError: true`` with one line of text; ``_meta`` has the error's class, argument and real names."""
    meta: dict[str, Any] = {"error": type(exc).__name__}
    if exc.sqlstate:
        meta["code"] = exc.sqlstate
    if isinstance(exc, errors.UnknownEntity):
        meta["alternatives"] = exc.alternatives
    if isinstance(exc, errors.AmbiguousEntity):
        meta["candidates"] = exc.candidates
    if exc.detail.get("argument"):
        meta["argument"] = exc.detail["argument"]
    return CallToolResult(content=[_text(error_text(tool, exc))], is_error=True, _meta=meta)

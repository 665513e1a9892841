"""The tools: one per catalog operation, and answer, submit_answer, record_decision and verify_chain.

A catalog tool publishes the operation's own JSON Schema and passes the arguments through to the database, which
validates them. A fixed tool takes exactly the arguments of its model in :mod:`footnote_pg.mcpserver.arguments`.
Every body runs through :func:`footnote_pg.mcpserver.backend.guarded`: what a user or an outage can cause is an
``isError`` result, never a crash.
"""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.types import Annotations, CallToolResult, ResourceLink, ToolAnnotations
from pydantic import BaseModel

from footnote_pg import errors, ledger
from footnote_pg.client import Footnote
from footnote_pg.mcpserver.arguments import (
    AnswerArguments,
    Arguments,
    Citation,
    NoArguments,
    PassThroughArguments,
    RecordDecisionArguments,
    SubmitAnswerArguments,
)
from footnote_pg.mcpserver.backend import Backend, guarded
from footnote_pg.mcpserver.fitting import RESULT_TEMPLATE
from footnote_pg.mcpserver.references import has_references, render
from footnote_pg.mcpserver.results import (
    AnswerOutput,
    ChainCheck,
    ChainVerdict,
    DecisionOutput,
    OperationOutput,
    SubmittedOutput,
    answer_result,
    chain_result,
    decision_result,
    deep_link,
    evidence_link,
    operation_result,
    receipt_doc,
    submitted_result,
)
from footnote_pg.results import Operation


def cap_note(cap: int) -> str:
    """What every tool description says about the size of its results and how to page the rest."""
    return (f"Results are at most {cap:,} bytes (this server's max_result). A larger one keeps its text, the figures "
            "and the first rows and evidence records, names every list it cut in structuredContent.omitted and in "
            f"its last text line, and pages the rest as resources {RESULT_TEMPLATE} (each page names the next). "
            "One evidence record: erp://{type}/{id}; the rows of an evidence set: "
            "footnote://evidence/{call_id}/{set_id}/{offset}.")


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
RECORDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def catalog_tool(operation: Operation, backend: Backend) -> Tool:
    """A tool for one catalog operation: its JSON Schema as inputSchema, its description for the model."""

    def call(**arguments: Any) -> CallToolResult:
        def work(fn: Footnote) -> CallToolResult:
            result = fn.call(operation.name, **{k: v for k, v in arguments.items() if v is not None})
            backend.remember(result)
            return backend.fit(operation_result(result), result.call_id)

        return guarded(operation.name, backend, work)

    return Tool(
        fn=call,
        name=operation.name,
        title=operation.title,
        description=f"{operation.description}\n\nReturns {operation.returns}. Each figure lists the evidence "
        "records behind it; the result's call_id lets record_decision cite them and submit_answer grade your text "
        "against them (there a figure the template answer states may be written [[values.<name>]] or "
        "[[rows[<n>].<name>]]).\n\n"
        + cap_note(backend.config.max_result),
        parameters=operation.json_schema(),
        fn_metadata=FuncMetadata(arg_model=PassThroughArguments, output_model=OperationOutput),
        is_async=False,
        context_kwarg=None,
        annotations=READ_ONLY,
    )


def fixed_tool(fn: Callable[..., CallToolResult], *, title: str, arguments: type[Arguments],
               output: type[BaseModel], annotations: ToolAnnotations, cap: int) -> Tool:
    """A tool whose inputSchema is ``arguments`` (extra arguments refused) and whose outputSchema is ``output``; its
    description is the docstring and what results of at most ``cap`` bytes mean."""
    return Tool(
        fn=fn,
        name=fn.__name__,
        title=title,
        description=f"{inspect.cleandoc(fn.__doc__ or '')}\n\n{cap_note(cap)}",
        parameters=arguments.model_json_schema(by_alias=True),
        fn_metadata=FuncMetadata(arg_model=arguments, output_model=output),
        is_async=False,
        context_kwarg=None,
        annotations=annotations,
    )


def check_call_ids(call_ids: list[str]) -> None:
    """call_ids are UUIDs from catalog results; say so instead of letting the database fail on the cast."""
    for n, call_id in enumerate(call_ids):
        try:
            uuid.UUID(call_id)
        except ValueError:
            raise errors.InvalidArgument(
                f"invalid argument call_ids[{n}]: {call_id[:60]!r} is not a call_id (the UUID in a catalog result's "
                "call_id)",
                {"argument": f"call_ids[{n}]", "value": call_id[:60]},
            ) from None


def decision_links(backend: Backend, graded: list[dict[str, Any]]) -> list[ResourceLink]:
    """Links to the evidence a decision cites (not to fabricated citations: the call never returned those)."""
    links: dict[str, ResourceLink] = {}
    for c in graded:
        if c["verdict"] == "fabricated":
            continue
        e = backend.recalled(c["call_id"], c["evidence"])
        link = (
            evidence_link(e, c["call_id"])
            if e is not None
            else ResourceLink(
                type="resource_link",
                uri=deep_link(c["evidence"]),
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


def _key(result: CallToolResult) -> str:
    """Where a cut result of a recorded answer or decision is held: its ledger record_id."""
    return str((result.meta or {}).get("record_id") or uuid.uuid4())


def fixed_tools(backend: Backend) -> list[Tool]:
    """answer, submit_answer, record_decision and verify_chain."""

    def answer(question: str) -> CallToolResult:
        """Answer a question about the ERP data (receivables, overdue customers, revenue, suppliers, stock).

        The answer is composed from catalog operations; every figure in it is a claim the gate checks against the
        evidence, and the answer is recorded in the ledger (seq and hash in _meta). A refusal (a forecast, an
        unknown name) or a clarification (several customers match) is a normal result: read status, reason and
        options, and ask again with one of the options. Claims are numbered (footnote) as the template answer of
        their operations numbers them: a text submitted with submit_answer on new calls of the same operations may
        write [[n]] for footnote n (the calls of this answer already back its ledger record)."""

        def work(fn: Footnote) -> CallToolResult:
            result = answer_result(fn.ask(question))
            return backend.fit(result, _key(result))

        return guarded("answer", backend, work, retry=False)

    def submit_answer(question: str, answer: str, call_ids: list[str]) -> CallToolResult:
        """Grade and record an answer you wrote yourself from catalog results; show it only when it is verified.

        The gate reads every sentence (and list line) and checks it against what the calls returned.
        It accepts: each figure exactly as the call's `text` (or a reference, below) with the subject, period,
        measure and direction the call gives it; plain connecting words; the template answer's statements
        reworded. The safest text keeps the template answer's statements (`fallback.answer`) and changes the rest.
        It refuses: a number no call returned, a rounded or converted figure (fabricated); a real figure with
        another subject, period, direction or unit (unverified); words claiming what no call supports, such as
        causes, forecasts, advice or promises (unsupported); leaving out a statement the answer needs, e.g. the
        subject or the as-of date (missing).
        Good: "Bergmann Logistik owes [[2]] overdue across [[3]] invoices; the oldest is [[4]] past due (as of [[5]])."
        Bad: "Bergmann owes about 44k and will pay next week." (a rounded figure and a promise)
        Figures by reference: write [[n]] for footnote n of the template answer for the same calls (numbered as
        `fallback.claims` and an `answer` result's footnotes), or [[values.overdue_total]] /
        [[rows[2].outstanding]] for a figure it states (rows from 1; [[<call_id>:values.x]] when several calls
        have it). The server puts in the exact text before grading and records that text; an unknown reference is
        an error naming it.
        The result names each sentence that failed and the words that failed in it. The text is recorded either
        way. To fix a refused text, submit it again with the same call_ids (the ledger links the attempts; once
        one is verified, the calls back nothing more). Show your text only when status is verified (or
        partially_verified, naming the unverified facts); otherwise show `fallback.answer`, the template answer
        for the same calls."""

        def work(fn: Footnote) -> CallToolResult:
            check_call_ids(call_ids)
            rendered = has_references(answer)
            text = render(answer, fn.compose(call_ids, question=question)["claims"]) if rendered else answer
            result = submitted_result(fn.submit_answer(question, text, call_ids), text, rendered)
            return backend.fit(result, _key(result))

        return guarded("submit_answer", backend, work, retry=False)

    def record_decision(action: str, subject: str, rationale: str, citations: list[Citation],
                        call_ids: list[str] | None = None) -> CallToolResult:
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
                "ledger": receipt_doc(graded["receipt"]),
            }
            result = decision_result(doc, decision_links(backend, graded["citations"]))
            return backend.fit(result, _key(result))

        return guarded("record_decision", backend, work, retry=False)

    def verify_chain() -> CallToolResult:
        """Walk the ledger's hash chain and report whether every recorded answer and decision is intact, with the
        head record's sequence and hash, or the first bad record and what is wrong with it."""
        return guarded("verify_chain", backend, lambda fn: chain_result(verify(fn)))

    cap = backend.config.max_result
    return [
        fixed_tool(answer, title="Answer a question with cited figures", arguments=AnswerArguments,
                   output=AnswerOutput, annotations=RECORDS, cap=cap),
        fixed_tool(submit_answer, title="Submit your own answer to the gate", arguments=SubmitAnswerArguments,
                   output=SubmittedOutput, annotations=RECORDS, cap=cap),
        fixed_tool(record_decision, title="Record a decision with its evidence", arguments=RecordDecisionArguments,
                   output=DecisionOutput, annotations=RECORDS, cap=cap),
        fixed_tool(verify_chain, title="Verify the ledger's hash chain", arguments=NoArguments, output=ChainVerdict,
                   annotations=READ_ONLY, cap=cap),
    ]

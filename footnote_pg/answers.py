"""Questions to recorded answers: route, call, compose, gate, receipt.

One transaction per question: the settings it is routed with, the catalog
calls (each in a savepoint, so an unknown name becomes an honest refusal
instead of an aborted transaction), the template and the gate's
``record_answer``. After the commit has sealed the record, its receipt
(sequence and hash) is fetched.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from footnote_pg import errors, identity, tracing
from footnote_pg.compose import Composed, compose, plain, template_of
from footnote_pg.queries import query
from footnote_pg.question import Directory, Route, RouterSettings, route
from footnote_pg.results import Evidence, OperationResult, Receipt

log = logging.getLogger(__name__)

Narrator = Callable[[str], str]


@dataclass
class Answer:
    """A question's outcome as recorded in the ledger."""

    question: str
    answer: str
    status: str
    kind: str
    intent: str
    claims: list[dict[str, Any]]
    evidence: list[Evidence]
    findings: list[dict[str, Any]]
    options: list[str] = field(default_factory=list)
    reason: str | None = None
    message: str | None = None
    alternatives: list[dict[str, str]] = field(default_factory=list)
    inference: dict[str, int] | None = None
    facts: list[dict[str, int]] = field(default_factory=list)
    sentences: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    receipt: Receipt | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("verified", "partially_verified")

    def as_json(self) -> dict[str, Any]:
        """The documented JSON form (footnote-pg ask --json)."""
        return {
            "question": self.question,
            "status": self.status,
            "kind": self.kind,
            "intent": self.intent,
            "answer": self.answer,
            "claims": [{**c, "footnote": n} for n, c in enumerate(self.claims, start=1)],
            "inference": self.inference,
            "facts": self.facts,
            "sentences": self.sentences,
            "evidence": [{"id": e.id, "type": e.type, "record_id": e.record_id, "uri": e.uri, "verified": e.verified,
                          "fields": e.fields, **({"ui_link": e.ui_link} if e.ui_link else {})} for e in self.evidence],
            "findings": self.findings,
            "options": self.options,
            "reason": self.reason,
            "message": self.message,
            "alternatives": self.alternatives,
            "calls": self.calls,
            "notes": self.notes,
            "ledger": None if self.receipt is None else {
                "record_id": self.receipt.record_id, "seq": self.receipt.seq, "hash": self.receipt.hash,
                "prev_hash": self.receipt.prev_hash, "recorded_at": self.receipt.recorded_at.isoformat()},
        }


def _refusal_for_error(exc: errors.FootnoteError) -> tuple[str, str, list[str], list[dict[str, str]]]:
    """(reason, message, options, alternatives) for a catalog error met while answering."""
    if isinstance(exc, errors.AmbiguousEntity):
        entity = exc.detail.get("entity", "name")
        return "ambiguous_entity", f"Which {entity} do you mean?", [c["name"] for c in exc.candidates], exc.candidates
    if isinstance(exc, errors.UnknownEntity) and isinstance(exc.detail.get("credit_note"), dict):
        # a credit note's number where an invoice was looked up: say which it is, and offer what lists it
        note = exc.detail["credit_note"]
        options = []
        if note.get("customer") and note.get("issue_date"):
            options.append(f"Credit notes of {note['customer']} in {str(note['issue_date'])[:7]}")
        options += [f"Show invoice {a['name']}" for a in exc.alternatives]
        return ("credit_note", f"{note.get('name')} is a credit note, not an invoice; its details are listed with the "
                "credit notes of its customer and month.", options, exc.alternatives)
    if isinstance(exc, errors.UnknownEntity) and exc.detail.get("entity") == "invoice" and str(
            exc.detail.get("value", "")).upper().startswith("CN"):  # a credit note's number that is none: no invoices
        return ("unknown_entity", f"There is no credit note numbered “{exc.detail.get('value')}”; the credit notes of "
                "a period list the real ones.", [], [])
    if isinstance(exc, errors.UnknownEntity):
        entity = exc.detail.get("entity", "record")
        names = [a["name"] for a in exc.alternatives]
        message = f"There is no {entity} named “{exc.detail.get('value', '')}”."
        if names:
            listed = "; ".join(names)
            message += " The closest names are: " + listed + ("" if listed.endswith(".") else ".")
        else:  # nothing close: no unrelated names, but where the real ones are
            message += f" No {entity} name is close to it; ask “List {entity}s” to see the real ones."
        return "unknown_entity", message, [], exc.alternatives
    if isinstance(exc, errors.InvalidArgument):
        return "invalid_argument", f"I can't answer that: {exc}.", [], []
    return "not_covered", f"I can't answer that: {exc}.", [], []


def _router_settings(settings: dict[str, Any]) -> RouterSettings:
    """What the router needs of the database's settings (``client_settings``)."""
    return RouterSettings(as_of=settings["as_of"], fiscal_year_start_month=settings["fiscal_year_start_month"])


class Answerer:
    """Answers questions for one client. The settings (as-of date, fiscal year) are read for every question, so
    a change by the DBA, or a new day when ``as_of`` is unset, counts at once; the names the router matches are
    read again when older than ``names_ttl`` seconds, so a long-lived service finds new customers."""

    names_ttl = 30.0

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        # by the access scope of a bearer token's user (None: the login's own): the names that scope sees
        self._directories: dict[str | None, tuple[Directory, float]] = {}

    @property
    def directory(self) -> Directory:
        """The names the router matches, as the asking user's scope sees them: a server answering users of
        several scopes (bearer tokens, footnote_pg/identity.py) keeps one list per scope, never one user's names
        for another."""
        verified = identity.current.get()
        key = verified.scope if verified is not None else None
        held = self._directories.get(key)
        if held is None or time.monotonic() - held[1] > self.names_ttl:
            held = (Directory.load(self.fn), time.monotonic())
            self._directories[key] = held
        return held[0]

    @property
    def settings(self) -> RouterSettings:
        return _router_settings(self.fn.settings())

    def route(self, question: str) -> Route:
        return route(question, self.directory, self.settings)

    def ask(self, question: str, *, actor: str | None = None, narrator: Narrator | None = None) -> Answer:
        with tracing.span("ask") as current:
            answer = self._ask(question, actor, narrator)
            tracing.annotate(current, route=answer.kind, intent=answer.intent, status=answer.status,
                             record_id=answer.receipt.record_id if answer.receipt else answer.notes.get(
                                 "queued_record_id"),
                             seq=answer.receipt.seq if answer.receipt else None)
        return answer

    def _ask(self, question: str, actor: str | None, narrator: Narrator | None) -> Answer:
        directory = self.directory  # before the transaction: reloading the names takes a connection of its own

        def attempt() -> Answer:  # the question's one transaction; run again when it lost a serialization conflict
            with self.fn.transaction(actor=actor, sealing=True) as conn:
                settings = conn.cursor(row_factory=dict_row).execute(query("client_settings")).fetchone()
                assert settings is not None
                with tracing.span("route") as current:
                    r = route(question, directory, _router_settings(settings))
                    tracing.annotate(current, route=r.kind, intent=r.intent, calls=len(r.calls))
                return self._answer_in(conn, question, r, narrator)

        answer: Answer = self.fn.retrying("ask", attempt)
        if answer.receipt is None and answer.notes.get("record_id"):
            record_id = answer.notes.pop("record_id")
            try:
                answer.receipt = self.fn.receipt(record_id)
            except errors.ChainBusy:  # committed and queued: sealed by the next writer once the chain is free
                answer.notes["queued_record_id"] = record_id
        return answer

    # -- inside the question's transaction ------------------------------------------------------------------
    def _answer_in(self, conn: psycopg.Connection[Any], question: str, r: Route, narrator: Narrator | None) -> Answer:
        if r.kind in ("refusal", "clarification"):
            composed = plain(r.message or "", r.options)
            outcome = "refusal" if r.kind == "refusal" else "clarification"
            return self._record(conn, question, r, composed, [], outcome, reason=r.reason, options=list(r.options),
                                message=r.message)

        results: list[OperationResult] = []
        for call in r.calls:
            try:
                with tracing.span("call", operation=call.operation) as current, conn.transaction():
                    row = conn.execute(query("call"), {"operation": call.operation,
                                                       "arguments": Jsonb(call.arguments)}).fetchone()
                    tracing.annotate(current, call_id=row[0]["call_id"] if row else None)
            except psycopg.Error as exc:
                mapped = errors.from_psycopg(exc)
                if mapped is None:
                    raise
                reason, message, options, alternatives = _refusal_for_error(mapped)
                outcome = "clarification" if options else "refusal"
                composed = plain(message, tuple(options))
                return self._record(conn, question, r, composed, results, outcome, reason=reason, options=options,
                                    message=message, alternatives=alternatives)
            assert row is not None
            results.append(OperationResult.from_json(row[0]))

        with tracing.span("compose", calls=len(results)):
            composed = compose(conn, r, results, question)
        narration: str | None = None
        extra: dict[str, Any] = {}
        if narrator is not None:
            try:
                narration = narrator(composed.answer)
            except Exception as exc:  # a narrator is outside code: any failure leaves the template alone
                extra = {"narrator_error": repr(exc)[:500]}
            if narration is not None and not isinstance(narration, str):
                extra = {"narrator_error": f"the narrator returned {type(narration).__name__}, not text"}
                narration = None
        return self._record(conn, question, r, composed, results, "answer", extra=extra, narration=narration)

    def _record(self, conn: psycopg.Connection[Any], question: str, r: Route, composed: Composed,
                results: list[OperationResult], outcome: str, *, reason: str | None = None,
                options: list[str] | None = None, extra: dict[str, Any] | None = None, message: str | None = None,
                alternatives: list[dict[str, str]] | None = None, narration: str | None = None) -> Answer:
        details: dict[str, Any] = {
            "route": {"kind": r.kind, "intent": r.intent,
                      "calls": [{"operation": c.operation, "arguments": c.arguments} for c in r.calls]},
            **({"reason": reason} if reason else {}),
            **({"options": options} if options else {}),
            **({"alternatives": alternatives} if alternatives else {}),
            **({"inference": composed.inference} if composed.inference else {}),
            **({"notes": r.notes} if r.notes else {}),
            **(extra or {}),
        }
        call_ids = [res.call_id for res in results] if outcome == "answer" else []
        claims = composed.claims if outcome == "answer" else []
        with tracing.span("gate", outcome=outcome, calls=len(call_ids)) as current:
            row = conn.execute(query("record_answer"), {
                "question": question[:2000], "answer": composed.answer, "claims": Jsonb(claims), "call_ids": call_ids,
                "outcome": outcome, "details": Jsonb(details),
                "template": Jsonb(template_of(r)) if outcome == "answer" else None, "narration": narration}).fetchone()
            assert row is not None
            graded = row[0]
            tracing.annotate(current, status=graded["status"], record_id=graded["record_id"])
        kept = bool(graded.get("narration") and graded["narration"].get("kept"))
        if graded.get("narration"):
            extra = {**(extra or {}), "narration": graded["narration"]}
        evidence_by_id = {e.id: e for res in results for e in res.evidence}
        cited: dict[str, Evidence] = {}  # by id, in the order the claims first cite them
        for c in graded["claims"]:
            for eid in c["evidence"]:
                e = evidence_by_id.get(eid)
                if e is not None:
                    cited.setdefault(eid, e)
        return Answer(
            question=question, answer=graded["answer"], status=graded["status"], kind=r.kind, intent=r.intent,
            claims=graded["claims"], evidence=list(cited.values()), findings=graded["findings"], options=options or [],
            reason=reason, message=message, alternatives=list(alternatives or []),
            inference=None if kept else composed.inference, facts=[] if kept else composed.facts,
            sentences=list(graded.get("sentences") or []),
            calls=[{"operation": res.operation, "call_id": res.call_id, "arguments": call.arguments}
                   for res, call in zip(results, r.calls, strict=False)],
            notes={**dict(r.notes), "record_id": graded["record_id"], **(extra or {})},
        )

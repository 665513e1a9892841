"""What the web demo's endpoints do, without HTTP: one Footnote client (actor ``demo``, role ``viewer``, unless
``footnote-pg serve`` names the actor).

Every method is synchronous database work; the web app runs it in its bounded thread pool.
"""

from __future__ import annotations

from typing import Any

from footnote_pg import errors
from footnote_pg.client import Footnote
from footnote_pg.queries import query
from footnote_pg.web.inputs import ApiError
from footnote_pg.web.model import map_span, model_rewrite

SUGGESTIONS = [
    "How much does Bergmann owe?",
    "Is Bergmann Logistik at risk?",
    "Show AR aging",
    "How much does Acme Corporation owe?",
    "What will revenue be next quarter?",
]
ACTOR, ACTOR_ROLE = "demo", "viewer"
POOL_SIZE = 4  # connections of the demo's pool, and threads the app runs database work in
AUDITOR_MESSAGE = "connect as a member of footnote_auditor to see the ledger"
EVIDENCE_PAGE = 50  # rows of an evidence set per page of the evidence panel


class DemoApp:
    """The demo's database side: ask, open a deep link, read the ledger."""

    def __init__(self, database_url: str, actor: str = ACTOR, actor_role: str | None = ACTOR_ROLE) -> None:
        self.fn = Footnote(database_url, actor=actor, actor_role=actor_role, min_size=1, max_size=POOL_SIZE)

    def close(self) -> None:
        self.fn.close()

    # -- /api/ask ----------------------------------------------------------------------------------------------
    def locale(self) -> str:
        """The locale the answers are formatted in (the client's, else the database's setting): the page shows
        every number and date of the screen in it."""
        return self.fn.locale or str(self.fn.settings()["locale"])

    def ask(self, question: str) -> dict[str, Any]:
        answer = self.fn.ask(question)
        doc: dict[str, Any] = answer.as_json()
        doc["model_version"] = self.model_version(doc)
        doc["locale"] = self.locale()
        return doc

    def model_version(self, doc: dict[str, Any]) -> dict[str, Any] | None:
        """The same answer with the figures a fluent model would write, graded by the gate (not recorded)."""
        claims = doc["claims"]
        if not claims or not doc["calls"]:
            return None
        text, asserted = model_rewrite(doc["answer"], claims)
        if text == doc["answer"]:
            return None
        try:  # check_answer records nothing, so the answer's own calls may back it
            graded = self.fn.check_answer(text, asserted, [c["call_id"] for c in doc["calls"]],
                                          template={"intent": doc["intent"],
                                                    "notes": {k: v for k, v in doc["notes"].items()
                                                              if isinstance(v, str)}},
                                          question=doc["question"])
        except errors.FootnoteError as exc:
            return {"error": f"the model version could not be graded: {exc}"}
        out_claims = []
        for n, (original, g) in enumerate(zip(claims, graded["claims"], strict=True), start=1):
            out_claims.append({**g, "footnote": n, "original": original["text"],
                               "changed": g["text"] != original["text"]})
        return {
            "answer": text,
            "status": graded["status"],
            "claims": out_claims,
            "findings": graded["findings"],
            "sentences": graded.get("sentences") or [],
            "inference": map_span(doc.get("inference"), doc["answer"], claims),
            "facts": [map_span(f, doc["answer"], claims) for f in doc.get("facts") or []],
            "changed": sum(1 for c in out_claims if c["changed"]),
            "recorded": False,
            "checked_against": [{"operation": c["operation"], "call_id": c["call_id"]} for c in doc["calls"]],
        }

    # -- /api/record -------------------------------------------------------------------------------------------
    def record(self, uri: str) -> dict[str, Any]:
        result = self.fn.call("source_record", uri=uri)
        (e,) = result.evidence
        return {"uri": e.uri, "ui_link": e.ui_link, "id": e.id, "type": e.type, "record_id": e.record_id,
                "verified": e.verified, "fields": e.fields, "call_id": result.call_id,
                "called_at": result.document.get("called_at")}

    # -- /api/evidence ------------------------------------------------------------------------------------------
    def evidence(self, call_id: str, evidence_set: str, offset: int, page: int = EVIDENCE_PAGE) -> dict[str, Any]:
        rows = self.fn.evidence_rows(call_id, evidence_set, offset, page)
        return {"call_id": call_id, "set": evidence_set, "offset": offset, "limit": page,
                "rows": [r.as_json() for r in rows]}

    # -- /api/ledger -------------------------------------------------------------------------------------------
    def ledger(self, limit: int) -> dict[str, Any]:
        try:
            chain = self.fn.verify_chain()
        except errors.PermissionDenied as exc:
            raise ApiError(403, AUDITOR_MESSAGE, detail=str(exc)) from exc
        try:
            with self.fn.transaction() as conn:
                rows = conn.execute(query("ledger_latest"), {"limit": limit}).fetchall()
                bad = None
                if chain["first_bad_seq"] is not None:
                    bad = conn.execute(query("ledger_record"), {"seq": chain["first_bad_seq"]}).fetchone()
        except errors.PermissionDenied as exc:
            raise ApiError(403, AUDITOR_MESSAGE, chain=chain, detail=str(exc)) from exc
        chain["first_bad"] = None if bad is None else _ledger_row(bad)
        return {"records": [_ledger_row(r) for r in rows], "chain": chain, "limit": limit, "locale": self.locale()}


def _ledger_row(r: tuple[Any, ...]) -> dict[str, Any]:
    seq, recorded_at, db_role, actor_id, actor_role, kind, question, status, hash_ = r
    return {"seq": seq, "recorded_at": recorded_at.isoformat(), "db_role": db_role, "actor": actor_id,
            "actor_role": actor_role, "kind": kind, "question": question, "status": status,
            "hash": hash_[:16], "hash_full": hash_}

"""What the web demo's endpoints do, without HTTP: one Footnote client (actor ``demo``, role ``viewer``, unless
``footnote-pg serve`` names the actor).

Every method is synchronous database work; the web app runs it in its bounded thread pool.
"""

from __future__ import annotations

import time
from typing import Any

from footnote_pg import errors
from footnote_pg.client import Footnote
from footnote_pg.identity import SCOPE_CLAIM, TokenSettings
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


# The demo's sample users: two scopes over the sample ERP (created by `footnote-pg demo` only, never by install)
DEMO_SCOPES = [("dach", "Germany, Austria and Switzerland", ["DE", "AT", "CH"]),
               ("west", "France, Belgium and the Netherlands", ["FR", "BE", "NL"])]
DEMO_USERS = [("lena.brandt", "Lena Brandt", "dach"), ("marc.dubois", "Marc Dubois", "west")]
DEMO_ISSUER = "footnote-pg-demo"
DEMO_TOKEN_SECONDS = 3600


class DemoUsers:
    """Sample users who sign in to the demo page: each gets a bearer token signed with a key generated when the
    demo starts (never stored), for the scope the user is given."""

    def __init__(self, audience: str = "footnote-pg-demo-page") -> None:
        from cryptography.hazmat.primitives.asymmetric import ec

        self._key = ec.generate_private_key(ec.SECP256R1())
        self.audience = audience
        self.users = {uid: {"id": uid, "name": name, "scope": scope,
                            "scope_description": next(d for i, d, _ in DEMO_SCOPES if i == scope)}
                      for uid, name, scope in DEMO_USERS}

    def settings(self) -> TokenSettings:
        return TokenSettings(DEMO_ISSUER, self.audience, key=self._key.public_key())

    def token(self, user: str, *, seconds: int = DEMO_TOKEN_SECONDS) -> str:
        import jwt

        u = self.users.get(user)
        if u is None:
            raise ApiError(404, f"unknown demo user {user[:40]!r}; the demo users are {', '.join(self.users)}")
        now = int(time.time())
        return jwt.encode({"iss": DEMO_ISSUER, "aud": self.audience, "sub": u["id"], "name": u["name"],
                           SCOPE_CLAIM: u["scope"], "iat": now, "exp": now + seconds}, self._key, algorithm="ES256")


def create_demo_scopes(database_url: str) -> str | None:
    """The demo's two scopes over the sample ERP (kept when they exist); None, or why the demo's users cannot
    sign in with this login (it may not create scopes, or is no member of footnote_gateway)."""
    import psycopg

    try:
        with psycopg.connect(database_url, autocommit=True) as conn:
            row = conn.execute("SELECT pg_has_role(session_user, 'footnote_gateway', 'MEMBER')").fetchone()
            if not (row and row[0]):
                return "the database login is not a member of footnote_gateway"
            for sid, description, countries in DEMO_SCOPES:
                conn.execute("INSERT INTO footnote.scopes (id, description, countries) VALUES (%s, %s, %s) "
                             "ON CONFLICT (id) DO NOTHING", (sid, description, countries))
    except psycopg.Error as exc:
        return f"the demo's scopes could not be created ({(str(exc).strip().splitlines() or ['error'])[0]})"
    return None


class DemoApp:
    """The demo's database side: ask, open a deep link, read the ledger."""

    def __init__(self, database_url: str, actor: str = ACTOR, actor_role: str | None = ACTOR_ROLE, *,
                 users: DemoUsers | None = None) -> None:
        self.fn = Footnote(database_url, actor=actor, actor_role=actor_role, min_size=1, max_size=POOL_SIZE)
        self.users = users

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

    # -- /api/whoami -------------------------------------------------------------------------------------------
    def whoami(self) -> dict[str, Any]:
        """Who is asking: the actor (a token's verified subject), whether a token verified it, and the scope
        ({"id", "description", "digest"}, None: every customer)."""
        return self.fn.whoami()

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

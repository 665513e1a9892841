"""The Python client: ``Footnote``.

A small wrapper around a psycopg connection pool. Every call runs in one
transaction that first names the application actor (and locale), then calls a
``footnote.*`` function through a named query; PostgreSQL errors become the
typed errors of :mod:`footnote_pg.errors`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from footnote_pg import errors, identity, tracing
from footnote_pg.queries import query
from footnote_pg.results import Argument, Evidence, EvidenceRow, Operation, OperationResult, Receipt

if TYPE_CHECKING:
    from footnote_pg.answers import Answer

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_BUDGET = 30.0  # seconds a transaction that keeps losing serialization conflicts is tried again (a loaded server)
RETRY_PAUSE = 0.5  # the longest pause between two attempts, in seconds


# libpq's own environment: when any is set, libpq is asked (an empty conninfo), never the embedded sample
LIBPQ_ENVIRONMENT = ("PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE", "PGSERVICEFILE")


def uses_embedded_sample(database_url: str | None = None) -> bool:
    """True when :func:`resolve_database_url` falls back to the embedded sample ERP."""
    return not (database_url or os.environ.get("DATABASE_URL")
                or any(os.environ.get(name) for name in LIBPQ_ENVIRONMENT))


URL_FORMS = ("postgresql://USER:PASSWORD@HOST:5432/DATABASE (or postgres://...), or libpq's key=value words "
             "such as 'host=HOST dbname=DATABASE user=USER'")
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")


def check_database_url(url: str) -> None:
    """A URL of another database (mysql://, sqlite:///, jdbc:...) or text libpq cannot read is one line naming the
    forms accepted (never echoing the URL: it may hold a password)."""
    scheme = _SCHEME.match(url)
    if scheme and scheme[1].lower() not in ("postgresql", "postgres"):
        shown = scheme[1].lower() + (":" if not url[scheme.end():].startswith("//") else "://")
        raise errors.InvalidArgument(f"invalid argument database_url: a {shown} URL names another kind of database, "
                                     f"not PostgreSQL; footnote-pg needs {URL_FORMS}", {"argument": "database_url"})
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        reason = (str(exc).strip().splitlines() or [""])[0]
        why = f" ({reason.replace(url, 'the URL')})" if reason.startswith("invalid") else ""
        raise errors.InvalidArgument(f"invalid argument database_url: not a PostgreSQL URL or connection string{why}; "
                                     f"write {URL_FORMS}", {"argument": "database_url"}) from None


def resolve_database_url(database_url: str | None = None) -> str:
    """The URL given, else ``DATABASE_URL``, else libpq's environment (``PGHOST``, ``PGDATABASE``, ``PGSERVICE``
    and the rest: an empty conninfo), else the embedded demo database with the sample ERP (started on demand)."""
    url = database_url or os.environ.get("DATABASE_URL")
    if url:
        return url
    if not uses_embedded_sample():
        return ""
    from footnote_pg import embedded

    return embedded.demo_url()


def actor_from_env() -> tuple[str | None, str | None]:
    """``PROVENANCE_ACTOR`` as ``id`` or ``id:role`` (and ``PROVENANCE_ACTOR_ROLE``)."""
    raw = os.environ.get("PROVENANCE_ACTOR") or None
    role = os.environ.get("PROVENANCE_ACTOR_ROLE") or None
    if raw and ":" in raw and role is None:
        raw, role = raw.split(":", 1)
    return raw, role


def _check_call_ids(call_ids: list[str]) -> None:
    for n, value in enumerate(call_ids):
        try:
            uuid.UUID(str(value))
        except ValueError:
            raise errors.InvalidArgument(
                f"invalid argument call_ids[{n}]: {str(value)[:60]!r} is not a call id (a UUID)",
                                         {"argument": f"call_ids[{n}]"}) from None


def _check_actor(value: str | None, name: str, longest: int) -> None:
    """An actor is recorded with every answer: printable, without ':' (it separates id and role), not too long."""
    if value is None:
        return
    problem = ("is empty" if not value.strip() else
               f"is longer than {longest} characters" if len(value) > longest else
               "must not contain ':' (write id:role)" if ":" in value else
               "must not contain control characters" if any(not c.isprintable() for c in value) else None)
    if problem:
        raise errors.InvalidArgument(f"invalid argument {name}: {value[:40]!r} {problem}", {"argument": name})


# text direction overrides, embeddings and isolates: they make a question read differently from what it says
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _check_question(question: Any) -> None:
    problem = ("must be text" if not isinstance(question, str) else
               "must not be empty" if not question.strip() else
               f"is longer than 2,000 characters ({len(question):,})" if len(question) > 2000 else
               "must not contain control characters" if any(
                   (not c.isprintable() and c not in "\t\n\r") or c in _BIDI_CONTROLS for c in question) else None)
    if problem:
        raise errors.InvalidArgument(f"invalid argument question: {problem}", {"argument": "question"})


class Footnote:
    """Client of a footnote-pg database.

    >>> fn = Footnote("postgresql://assistant@db/erp", actor="zoran", actor_role="controller")
    >>> fn.call("customer_overdue", customer="Bergmann Logistik").values["overdue_total"].text
    '43.805,00 €'
    """

    def __init__(
        self,
        database_url: str | None = None,
        *,
        actor: str | None = None,
        actor_role: str | None = None,
        locale: str | None = None,
        min_size: int = 1,
        max_size: int = 4,
        timeout: float = 30.0,
        pool: ConnectionPool[Any] | None = None,
    ) -> None:
        env_actor, env_role = actor_from_env()
        self.actor = actor if actor is not None else env_actor
        self.actor_role = actor_role if actor_role is not None else env_role
        _check_actor(self.actor, "actor", 200)
        _check_actor(self.actor_role, "actor_role", 100)
        self.locale = locale
        if pool is not None:
            self.pool = pool
            self._owns_pool = False
        else:
            self.database_url = resolve_database_url(database_url)
            check_database_url(self.database_url)
            try:  # fail fast, with the server's own words, when the database is unreachable
                psycopg.connect(self.database_url, connect_timeout=10).close()
            except psycopg.Error as exc:
                raise errors.connection_failed(exc) from exc
            try:
                self.pool = ConnectionPool(
                    self.database_url, min_size=min_size, max_size=max_size, open=True, timeout=timeout,
                    kwargs={"autocommit": False}, name="footnote-pg", check=ConnectionPool.check_connection,
                )
                self.pool.wait(timeout=10)
            except psycopg.Error as exc:  # pragma: no cover - depends on the network
                raise errors.ConnectionFailed(f"cannot connect to the database: {exc}") from exc
            except Exception as exc:  # PoolTimeout
                raise errors.ConnectionFailed(f"cannot connect to the database: {exc}") from exc
            self._owns_pool = True

    # -- plumbing -----------------------------------------------------------
    def close(self) -> None:
        if self._owns_pool:
            self.pool.close()

    def __enter__(self) -> Footnote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, actor: str | None = None, actor_role: str | None = None, *,
                    sealing: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """A connection in a transaction with the actor and locale set; errors mapped. ``sealing``: its COMMIT
        seals what it recorded, traced as ``footnote.seal`` (:mod:`footnote_pg.tracing`)."""
        _check_actor(actor, "actor", 200)
        _check_actor(actor_role, "actor_role", 100)
        verified = identity.current.get()  # a bearer token's end user (footnote_pg/identity.py): the actor
        if verified is not None:
            actor = verified.subject
        try:
            with self.pool.connection() as conn, contextlib.ExitStack() as commit:
                with conn.transaction():  # the span entered below ends after this COMMIT
                    conn.execute(query("set_actor"), {
                        "actor": actor if actor is not None else (self.actor or ""),
                        "actor_role": actor_role if actor_role is not None else (self.actor_role or ""),
                    })
                    if verified is not None:
                        conn.execute(query("assert_identity"), {"subject": verified.subject, "scope": verified.scope})
                    if self.locale:
                        conn.execute(query("set_locale"), {"locale": self.locale})
                    yield conn
                    if sealing:
                        commit.enter_context(tracing.span("seal"))
        except psycopg.Error as exc:
            mapped = errors.from_psycopg(exc)
            if mapped is None:
                raise
            raise mapped from exc

    def whoami(self) -> dict[str, Any]:
        """Who is asking: ``actor`` ({"id", "role"}; a bearer token's verified subject), ``verified`` (whether a
        token verified it) and ``scope`` ({"id", "description", "digest"}, None: every customer)."""
        doc: dict[str, Any] = self._one("whoami")[0]
        return doc

    def _one(self, name: str, params: dict[str, Any] | None = None, *, actor: str | None = None,
             sealing: bool = False) -> Any:
        """Run one named query in its own transaction and return its first row (retried: :meth:`retrying`)."""
        def run() -> Any:
            with self.transaction(actor=actor, sealing=sealing) as conn:
                return conn.execute(query(name), params).fetchone()

        return self.retrying(name, run)

    def retrying(self, name: str, work: Callable[[], T]) -> T:
        """Run ``work``, one transaction of its own, again when it lost a serialization conflict (40001) or a
        deadlock (40P01) with a concurrent one: nothing of it was kept, so running it again is safe. Gives up
        with :class:`errors.Conflict` when it still loses after RETRY_BUDGET seconds (a time, not a number of
        attempts: on a loaded server each attempt takes longer and loses more often)."""
        deadline = time.monotonic() + RETRY_BUDGET
        attempt = 0
        while True:
            attempt += 1
            try:
                return work()
            except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected) as exc:
                if time.monotonic() >= deadline:
                    raise errors.Conflict(
                        f"{name} lost to concurrent transactions {attempt} times in a row over {RETRY_BUDGET:g} s "
                        f"({exc.sqlstate}: {str(exc).strip().splitlines()[0]}); try again later") from exc
                log.info("%s: %s, attempt %s", name, exc.sqlstate, attempt)
                # exponential backoff with full jitter: writers that collided spread out instead of colliding again
                time.sleep(random.uniform(0, min(RETRY_PAUSE, 0.004 * 2 ** min(attempt, 16))))  # noqa: S311

    # -- catalog ------------------------------------------------------------
    def call(self, operation: str, /, *, actor: str | None = None, **arguments: Any) -> OperationResult:
        """Run one catalog operation; the call is logged server-side before it returns."""
        for name, value in arguments.items():
            if isinstance(value, str) and "\x00" in value:
                raise errors.InvalidArgument(f"invalid argument {name}: contains a NUL (0x00) character",
                                             {"argument": name, "reason": "contains a NUL character"})
            if isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value):
                raise errors.InvalidArgument(f"invalid argument {name}: is not valid Unicode text (a lone surrogate)",
                                             {"argument": name, "reason": "a lone surrogate"})
        payload = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in arguments.items()}
        with tracing.span("call", operation=operation) as current:
            row = self._one("call", {"operation": operation, "arguments": Jsonb(payload)}, actor=actor)
            assert row is not None
            doc = row[0] if isinstance(row[0], dict) else json.loads(row[0])
            result = OperationResult.from_json(doc)
            tracing.annotate(current, call_id=result.call_id)
        return result

    def catalog(self) -> list[Operation]:
        """Every operation the database offers, with typed arguments."""
        with self.transaction() as conn:
            rows = conn.execute(query("catalog")).fetchall()
        return [
            Operation(
                name=r[0], title=r[1], description=r[2], returns=r[3], signature=r[5],
                arguments=tuple(Argument(a["name"], a["type"], a["required"], a["description"], a.get("example"))
                                for a in r[4]),
            )
            for r in rows
        ]

    # -- answers ------------------------------------------------------------
    def ask(self, question: str, *, actor: str | None = None, narrator: Any = None) -> Answer:
        """Route, call, compose and record one question; returns an :class:`footnote_pg.answers.Answer`."""
        from footnote_pg.answers import Answerer

        _check_question(question)
        question = " ".join(question.split())  # tabs and line breaks of a pasted question are spaces
        if getattr(self, "_answerer", None) is None:
            self._answerer = Answerer(self)
        return self._answerer.ask(question, actor=actor, narrator=narrator)

    # -- the gate -----------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Locale, currency, default as-of date and fiscal year start of this database."""
        with self.transaction() as conn:
            row = conn.execute(query("client_settings")).fetchone()
        assert row is not None
        return {"locale": row[0], "currency": row[1], "as_of": row[2], "fiscal_year_start_month": row[3]}

    def router_names(self) -> dict[str, Any]:
        """The names the question router matches: customers, owners, suppliers, items (not logged)."""
        with self.transaction() as conn:
            row = conn.execute(query("router_names")).fetchone()
        assert row is not None
        return dict(row[0])

    def receipt(self, record_id: str) -> Receipt:
        """Sequence, time and hash of a committed record (sealing any waiting records first)."""
        try:
            with tracing.span("receipt", record_id=record_id) as current, self.pool.connection() as conn:
                isolation = conn.isolation_level
                conn.isolation_level = psycopg.IsolationLevel.READ_COMMITTED  # BEGIN says it: no round trip more
                try:
                    row = conn.execute(query("receipt"), {"record_id": record_id}).fetchone()
                    conn.commit()
                    tracing.annotate(current, seq=row[1] if row else None)
                finally:  # the pooled connection goes back as it came
                    if not conn.broken:
                        conn.rollback()  # nothing left to roll back after the commit: sends nothing
                        conn.isolation_level = isolation
        except psycopg.Error as exc:
            mapped = errors.from_psycopg(exc)
            if mapped is None:
                raise
            raise mapped from exc
        if row is None:
            raise errors.FootnoteError(f"ledger record {record_id} is not committed")
        return Receipt(record_id=row[0], seq=row[1], recorded_at=row[2], status=row[3], prev_hash=row[4], hash=row[5])

    def decide(self, action: str, subject: str, rationale: str, citations: list[dict[str, str]],
               call_ids: list[str], *, actor: str | None = None) -> dict[str, Any]:
        """Record an agent decision citing evidence from calls made with this client; returns the graded result."""
        from psycopg.types.json import Jsonb

        _check_call_ids(call_ids)
        row = self._one("record_decision", {
            "action": action, "subject": subject, "rationale": rationale,
            "citations": Jsonb(citations), "call_ids": list(call_ids)}, actor=actor)
        assert row is not None
        graded: dict[str, Any] = row[0]
        graded["receipt"] = self.receipt(graded["record_id"])
        return graded

    def compose(self, call_ids: list[str], *, intent: str | None = None, notes: dict[str, Any] | None = None,
                question: str | None = None, actor: str | None = None) -> dict[str, Any]:
        """The template answer for calls made with this client: text, claims, units, inference and fact spans."""
        from psycopg.types.json import Jsonb

        _check_call_ids(call_ids)
        row = self._one("compose", {"call_ids": list(call_ids), "intent": intent,
            "notes": Jsonb(notes) if notes is not None else None,
            "question": question}, actor=actor)
        assert row is not None
        return dict(row[0])

    def record_answer(self, question: str | None, answer: str, claims: list[dict[str, Any]] | None,
                      call_ids: list[str], *, outcome: str = "answer", details: dict[str, Any] | None = None,
                      template: dict[str, Any] | None = None, narration: str | None = None,
                      actor: str | None = None) -> dict[str, Any]:
        """Hand an answer to the gate; returns its grading and, after commit, its receipt.

        ``claims=None`` lets the gate find the figures itself; ``narration`` offers a rewording that is
        recorded instead when the gate grades it as well as the answer.
        """
        from psycopg.types.json import Jsonb

        _check_call_ids(call_ids)
        row = self._one("record_answer", {
            "question": question, "answer": answer, "claims": Jsonb(claims) if claims is not None else None,
            "call_ids": list(call_ids), "outcome": outcome,
            "details": Jsonb(details) if details is not None else None,
            "template": Jsonb(template) if template is not None else None, "narration": narration}, actor=actor)
        assert row is not None
        graded: dict[str, Any] = row[0]
        graded["receipt"] = self.receipt(graded["record_id"])
        return graded

    def check_answer(self, answer: str, claims: list[dict[str, Any]] | None, call_ids: list[str], *,
                     outcome: str = "answer", template: dict[str, Any] | None = None, question: str | None = None,
                     actor: str | None = None) -> dict[str, Any]:
        """What the gate would decide about an answer, without recording it (``claims=None``: the gate finds them)."""
        from psycopg.types.json import Jsonb

        _check_call_ids(call_ids)
        row = self._one("check_answer", {
            "answer": answer, "claims": Jsonb(claims) if claims is not None else None,
            "call_ids": list(call_ids), "outcome": outcome,
            "template": Jsonb(template) if template is not None else None, "question": question}, actor=actor)
        assert row is not None
        return dict(row[0])

    def submit_answer(self, question: str, answer: str, call_ids: list[str], *, details: dict[str, Any] | None = None,
                      actor: str | None = None) -> dict[str, Any]:
        """Record an agent's own answer: the gate finds its figures and names, grades every sentence and returns the
        verdicts, the status, the receipt and the template answer for the same calls as a fallback."""
        from psycopg.types.json import Jsonb

        _check_call_ids(call_ids)
        with tracing.span("gate", origin="agent", calls=len(call_ids)) as current:
            row = self._one("submit_answer", {
                "question": question, "answer": answer, "call_ids": list(call_ids),
                "details": Jsonb(details) if details is not None else None}, actor=actor, sealing=True)
            assert row is not None
            graded: dict[str, Any] = row[0]
            tracing.annotate(current, status=graded["status"], record_id=graded["record_id"])
        graded["receipt"] = self.receipt(graded["record_id"])
        return graded

    def evidence_rows(self, call_id: str, evidence_set: str, offset: int = 0, limit: int = 100) -> list[EvidenceRow]:
        """A page of the rows behind an evidence set that call ``call_id`` cites (``offset`` rows skipped, at most
        ``limit``), read again from the source views with the parameters the call recorded."""
        try:
            call_id = str(uuid.UUID(call_id))
        except (ValueError, TypeError, AttributeError):
            raise errors.InvalidArgument(f"invalid argument call_id: {str(call_id)[:80]!r} is not a call id (a UUID)",
                                         {"argument": "call_id", "reason": "not a UUID"}) from None
        with self.transaction() as conn:
            rows = conn.execute(query("evidence_rows"), {"call_id": call_id, "evidence_set": evidence_set,
                                                         "offset": offset, "limit": limit}).fetchall()
        return [EvidenceRow(n, Evidence(id=i, type=t, record_id=r, uri=u, verified=v, fields=f), text)
                for n, i, t, r, u, v, f, text in rows]

    def verify_chain(self) -> dict[str, Any]:
        """The database's own chain check (footnote.verify_chain()); the Python verifier is footnote_pg.ledger."""
        with self.transaction() as conn:
            row = conn.execute(query("verify_chain")).fetchone()
        assert row is not None
        keys = ("ok", "records", "head_seq", "head_hash", "first_bad_seq", "problem", "detail", "pending")
        return dict(zip(keys, row, strict=True))

"""The database side of the MCP server: where the database is, one Footnote client, reconnects, and errors as results.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import psycopg
from mcp.types import CallToolResult

from footnote_pg import errors, identity
from footnote_pg.client import Footnote, actor_from_env, resolve_database_url, uses_embedded_sample
from footnote_pg.identity import Identity
from footnote_pg.mcpserver.fitting import Held, fit, max_result_from_env
from footnote_pg.mcpserver.results import error_result
from footnote_pg.results import Evidence, Operation, OperationResult

log = logging.getLogger("footnote_pg.mcp")
T = TypeVar("T")

POOL_TIMEOUT = 10.0  # seconds a tool call waits for a free pooled connection before reporting it
RECENT_CALLS = 500  # catalog calls whose evidence is remembered, to link the evidence a decision cites


@dataclass(frozen=True)
class Config:
    """Where the database is, who acts and how large a result may be: ``DATABASE_URL``, ``PROVENANCE_ACTOR`` (id or
    id:role), ``PROVENANCE_ACTOR_ROLE``, ``FOOTNOTE_MCP_MAX_RESULT`` (bytes of one tool result, default 16 KB)."""

    database_url: str | None
    actor: str | None
    actor_role: str | None
    max_result: int = field(default_factory=max_result_from_env)

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


class Backend:
    """The Footnote client behind the tools: opened in the server's lifespan, reopened after an outage."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._url: str | None = None
        self._client: Footnote | None = None
        self._lock = threading.Lock()
        # by call_id: who made the call (a bearer token's user, None without tokens) and its evidence by id
        self._evidence: OrderedDict[str, tuple[Identity | None, dict[str, Evidence]]] = OrderedDict()
        self.held = Held()  # whole results behind the ones cut to max_result, for paging

    def fit(self, result: CallToolResult, key: str) -> CallToolResult:
        """``result`` within ``max_result`` bytes; the whole one held under ``key`` when it had to be cut."""
        return fit(result, key, self.config.max_result, self.held)

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
            self._evidence[result.call_id] = (identity.current.get(), result.evidence_by_id())
            while len(self._evidence) > RECENT_CALLS:
                self._evidence.popitem(last=False)

    def recalled(self, call_id: str, evidence_id: str) -> Evidence | None:
        """Evidence a call of the same user remembered (another user's calls are not recalled to it)."""
        with self._lock:
            owner, evidence = self._evidence.get(call_id, (None, {}))
            return evidence.get(evidence_id) if owner == identity.current.get() else None


def reported(tool: str, exc: errors.FootnoteError | psycopg.Error) -> errors.FootnoteError:
    """The error to tell the client, logged: ours as they are, the database's own as one line."""
    if isinstance(exc, errors.FootnoteError):
        log.info("%s: %r", tool, str(exc))
        return exc
    if isinstance(exc, psycopg.errors.DataError):  # a value the database cannot take (e.g. a malformed uuid)
        log.info("%s: %r", tool, _first_line(exc))
        return errors.InvalidArgument(f"invalid argument: {_first_line(exc)}")
    log.error("%s: unexpected database error", tool, exc_info=exc)  # not one a user can cause: keep the traceback
    return errors.FootnoteError(f"database error: {_first_line(exc)}")


def guarded(
    tool: str, backend: Backend, work: Callable[[Footnote], CallToolResult], *, retry: bool = True
) -> CallToolResult:
    """Run a tool body; every error a user or an outage can cause becomes an ``isError`` result."""
    try:
        return backend.run(work, retry=retry)
    except (errors.FootnoteError, psycopg.Error) as exc:
        return error_result(tool, reported(tool, exc))


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]

"""Errors of footnote-pg, mapped from PostgreSQL in one place.

Every error a user can cause is a :class:`FootnoteError` whose ``str()`` is one
line fit to print. Errors raised by our SQL carry SQLSTATEs of class ``FN``
and a JSON DETAIL; :func:`from_psycopg` turns them into the typed classes
below, keeping the detail (argument, value, alternatives) as attributes.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

_ONE_LINE = {c: 0x2400 + c for c in range(0x20)} | {0x7F: 0x2421}  # U+2400..: the Control Pictures block


class FootnoteError(Exception):
    """footnote-pg could not do what was asked."""

    sqlstate: str | None = None
    exit_code = 2

    def __init__(self, message: str | None = None, detail: dict[str, Any] | None = None) -> None:
        # one line, whatever a value it echoes holds: line breaks and other control characters shown as symbols
        text = (message or (self.__doc__ or "").strip()).translate(_ONE_LINE)
        super().__init__(text)
        self.detail: dict[str, Any] = detail or {}

    @property
    def message(self) -> str:
        return str(self)


class InvalidArgument(FootnoteError):
    """An argument is missing, malformed or out of range."""

    sqlstate = "FN001"

    @property
    def argument(self) -> str | None:
        return self.detail.get("argument")


class UnknownEntity(FootnoteError):
    """No record matches the name given."""

    sqlstate = "FN002"

    @property
    def alternatives(self) -> list[dict[str, str]]:
        return list(self.detail.get("alternatives") or [])


class AmbiguousEntity(FootnoteError):
    """The name given matches several records."""

    sqlstate = "FN003"

    @property
    def candidates(self) -> list[dict[str, str]]:
        return list(self.detail.get("candidates") or [])


class UnknownOperation(FootnoteError):
    """No catalog operation has that name."""

    sqlstate = "FN004"


class EvidenceLimit(FootnoteError):
    """The call would cite more evidence rows than max_evidence_rows allows."""

    sqlstate = "FN005"


class SourceNotMapped(FootnoteError):
    """A source view the operation needs holds no rows at all: it is not mapped to the ERP yet."""

    sqlstate = "FN006"

    @property
    def view(self) -> str | None:
        return self.detail.get("view")


class NodeBehind(FootnoteError):
    """On a node, the ERP's data arrive later than node_max_lag allows, or not at all: no figure is answered."""

    sqlstate = "FN007"


class AppendOnly(FootnoteError):
    """The table is append-only."""

    sqlstate = "FN101"


class LedgerIsolation(FootnoteError):
    """The ledger is sealed only in READ COMMITTED transactions."""

    sqlstate = "FN102"


class CallNotYours(FootnoteError):
    """A call cited by an answer was made by another database role or actor."""

    sqlstate = "FN103"


class CallReplayed(FootnoteError):
    """A call already backs a ledger record; each call backs at most one."""

    sqlstate = "FN104"


class NotFromGate(FootnoteError):
    """A row was written to the ledger, its queue or the call log other than through the gate or a catalog operation."""

    sqlstate = "FN105"


class ChainBusy(FootnoteError):
    """Another transaction held the chain lock for longer than seal_lock_timeout."""

    sqlstate = "FN106"


class RecordChanged(FootnoteError):
    """A record to prune (or otherwise act on) no longer verifies against its sealed text: the check failed."""

    exit_code = 1


class Protected(FootnoteError):
    """DROP, ALTER or uninstall of the ledger or call log while they hold records, without the explicit path."""

    sqlstate = "FN107"


class ScopeConflict(FootnoteError):
    """The login is bound to several access scopes through its roles: a DBA must bind it to one directly."""

    sqlstate = "FN108"


class UnknownScope(FootnoteError):
    """A verified identity names a scope that footnote.scopes does not define."""

    sqlstate = "FN109"


class Conflict(FootnoteError):
    """A transaction kept losing serialization conflicts (40001) with concurrent ones, past the client's retries."""


class Timeout(FootnoteError):
    """The database cancelled a statement (statement_timeout, lock_timeout, a cancel request)."""


class ConnectionFailed(FootnoteError):
    """The database could not be reached."""


class PermissionDenied(FootnoteError):
    """The database role may not do this."""


class NodeSetupFailed(FootnoteError):
    """A step of setting up or resyncing a node failed on the ERP or the node (the step and PostgreSQL's reason)."""


class NotInstalled(FootnoteError):
    """footnote-pg is not installed in this database (run footnote-pg install)."""


_BY_SQLSTATE: dict[str, type[FootnoteError]] = {
    cls.sqlstate: cls
    for cls in (InvalidArgument, UnknownEntity, AmbiguousEntity, UnknownOperation, EvidenceLimit, SourceNotMapped,
                NodeBehind,
                AppendOnly,
                LedgerIsolation, CallNotYours, CallReplayed, NotFromGate, ChainBusy, Protected, ScopeConflict,
                UnknownScope)
    if cls.sqlstate
}


def _detail(diag: Any) -> dict[str, Any]:
    raw = getattr(diag, "message_detail", None)
    if not raw:
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        return {"detail": raw}
    return parsed if isinstance(parsed, dict) else {"detail": parsed}


def connection_failed(exc: Exception) -> ConnectionFailed:
    """libpq's whole reason on one line ("... failed: Connection refused; Is the server running ...?")."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    reason = "; ".join(dict.fromkeys(lines)) or type(exc).__name__
    return ConnectionFailed(f"cannot connect to the database: {reason[:400]}")


def permission_denied(message: str, detail: str | None = None) -> PermissionDenied:
    """PostgreSQL's reason once ("permission denied for function router_names"), then the role footnote-pg grants
    that object to."""
    from footnote_pg import privileges

    text = message if message.startswith("permission denied") else f"permission denied: {message}"
    remedy = privileges.remedy(message)
    return PermissionDenied(text + (f" ({detail})" if detail else "") + (f"; {remedy}" if remedy else ""))


def from_psycopg(exc: Exception) -> FootnoteError | None:
    """The typed error for a psycopg exception, or None when it is not one a user can cause."""
    if not isinstance(exc, psycopg.Error):
        return None
    state = exc.sqlstate or ""
    diag = exc.diag
    message = diag.message_primary or (str(exc).strip().splitlines() or ["error"])[0]
    if state in _BY_SQLSTATE:
        return _BY_SQLSTATE[state](message, _detail(diag))
    if state == "42501":
        return permission_denied(message, getattr(diag, "message_detail", None))
    if state == "2BP01":  # an object outside ours depends on one of ours
        hint = getattr(diag, "message_hint", None)
        return Protected(message + (f"; {hint}" if hint else ""))
    if state in ("3F000", "42883", "42P01") and "footnote" in message:
        return NotInstalled(f"footnote-pg is not installed here ({message}); run footnote-pg install")
    if state == "22P02":
        return InvalidArgument(f"invalid argument: {message}")
    if state == "57014":  # statement_timeout, lock_timeout's cousin, or a cancel request
        return Timeout(f"the database cancelled the statement ({message}): narrow the question or the arguments, "
                       "or raise statement_timeout for this role")
    if state == "55P03":
        return Timeout(f"the database gave up waiting for a lock ({message})")
    if state == "22P05" or "NUL (0x00)" in message:
        return InvalidArgument("invalid argument: text must not contain NUL (0x00) characters")
    if isinstance(exc, psycopg.OperationalError) and (not state or state.startswith("08") or state.startswith("28")
                                                      or state.startswith("57P")):
        return connection_failed(exc)
    return None
